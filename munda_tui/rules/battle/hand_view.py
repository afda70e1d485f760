"""One player's hand as they may see it: cards, their texts, their choices, where each
stands against the log.

A :class:`HandView` is plain data built from the battle's set-up, its state and the
watch (:mod:`munda_tui.rules.battle.watch`). It holds ONE gang's cards and nothing that depends
on another hand, so whoever shows it (the phone page in :mod:`munda_tui.phone`, a
future screen) cannot leak the other player's Sub-plots by accident.

``alerts`` are the cards that ask for the owner's attention right now: a card met and
not yet revealed (the tracker's discreet marker), or a card whose reminder is due.
"""

from __future__ import annotations

from ..core.data import RuleData

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..subplots import decks as subplots
from .events import PHASE_NAMES, Battle, BattleError, BattleState, hands_of, start_event
from ..core.model import Campaign
from ..prebattle.setup import BattleSetup
from ..core.stage import summary_of
from ..core.status import BattleStatus
from .watch import (
    DISCARDED,
    MANUAL,
    MET,
    MISSED,
    REVEALED,
    TIMINGS,
    WATCHING,
    HandWatch,
    Match,
    Reminder,
    watcher_table,
)

#: What each watch status means to the card's owner.
STATUS_TEXT: dict[str, str] = {
    MET: "Met: you may reveal it",
    WATCHING: "Watched by the tracker, not met yet",
    MANUAL: "Depends on the table: reveal it when it happens",
    DISCARDED: "Discarded",
    MISSED: "Not met",
    REVEALED: "Revealed",
}
#: a card both players saw before round 1 (Choose Crew, the start of the battle)
SHOWN_TEXT = "Shown to both before round 1: its reward is walked on the tracker when earned"


@dataclass(frozen=True)
class CardView:
    card: str  # card id, "<deck>:<rank>"
    name: str
    text: str  # verbatim from the card
    deck: str  # the deck's name
    reveal: str  # when the card is revealed, in words
    rewards: tuple[str, ...]
    choice: str  # what the owner chose or was dealt for it ("" if nothing)
    status: str  # a watch status (MET, WATCHING, ...)
    status_text: str
    why: str  # what met (or discarded) it
    revealed: bool
    alert: bool  # asks for the owner's attention now
    reminder: str = ""  # a reminder due now, in words ("" if none)
    alert_key: str = ""  # what the attention is for (watch.marker_keys): new key, new buzz

    def to_data(self) -> dict[str, Any]:
        return {
            "card": self.card, "name": self.name, "text": self.text, "deck": self.deck,
            "reveal": self.reveal, "rewards": list(self.rewards), "choice": self.choice,
            "status": self.status, "status_text": self.status_text, "why": self.why,
            "revealed": self.revealed, "alert": self.alert, "reminder": self.reminder,
            "alert_key": self.alert_key,
        }


@dataclass(frozen=True)
class HandView:
    gang: str  # gang id
    gang_name: str
    player: str
    battle: int
    title: str  # the scenario, or "Quick battle"
    where: str  # "Round 2 · Action phase", "Battle over"
    cards: tuple[CardView, ...] = field(default_factory=tuple)

    @property
    def alerts(self) -> frozenset[str]:
        """What asks for attention now: met cards (their ids) and reminders due
        (``card@event``), as :func:`munda_tui.rules.battle.watch.marker_keys` names them."""
        return frozenset(c.alert_key for c in self.cards if c.alert)

    def to_data(self) -> dict[str, Any]:
        return {
            "gang": self.gang, "gang_name": self.gang_name, "player": self.player,
            "battle": self.battle, "title": self.title, "where": self.where,
            "cards": [c.to_data() for c in self.cards],
        }


def _choice_text(card: subplots.SubplotCard, value: str, state: BattleState) -> str:
    """The owner's choice for a card, with fighter names rather than ids."""
    if not value:
        return ""
    info = card.choice_info
    names = []
    for part in value.split("|"):
        found = next((f.name for f in state.fighters.values()
                      if f.key.split("/", 1)[-1] == part or f.key == part), "")
        names.append(found or part)
    shown = " and ".join(names)
    prompt = info.prompt or "Chosen"
    return f"{prompt}: {shown}"


def _where(state: BattleState) -> str:
    if state.ended:
        return "Battle over"
    if state.round <= 0:
        return "Before the first round"
    return f"Round {state.round} · {PHASE_NAMES.get(state.phase, state.phase)} phase"


def hand_view(
    setup: BattleSetup,
    state: BattleState,
    matches: Sequence[Match],
    gang: str,
    *,
    gang_name: str = "",
    player: str = "",
    reminders: Sequence[Reminder] = (),
    data: RuleData | None = None,
) -> HandView:
    """``gang``'s hand: only the matches and reminders of that gang are read."""
    side = next((s for s in setup.sides if s.gang == gang), None)
    choices = side.subplot_choices if side is not None else {}
    due = {r.card: r for r in reminders if r.gang == gang}
    # cards both players saw before round 1: never "reveal it" again
    shown = (set(subplots.shown_before_round_1(side.hand, choices, data)) if side is not None
             else set())
    cards = []
    for m in matches:
        if m.gang != gang:
            continue
        try:
            card = subplots.card(m.card, data)
        except (KeyError, ValueError):
            continue
        revealed = m.status == REVEALED
        r = None if revealed else due.get(m.card)
        passed = "" if revealed else subplots.moment_passed(m.card, state.round, state.ended,
                                                             choices, data)
        reminder = f"check this card now, at {TIMINGS.get(r.timing, r.timing)}" if r else ""
        if r and passed:
            reminder = f"at {TIMINGS.get(r.timing, r.timing)}: its moment ({passed}) has passed"
        status_text = STATUS_TEXT.get(m.status, m.status)
        if passed and m.status == MANUAL:
            status_text = f"Its moment was at {passed}: that time has passed"
        if m.card in shown and m.status == MANUAL:
            status_text = SHOWN_TEXT
        cards.append(CardView(
            card=m.card,
            name=card.name,
            text=card.text,
            deck=subplots.deck(card.deck, data).name,
            reveal=subplots.REVEALS.get(card.reveal, card.reveal),
            rewards=tuple(r.describe() for r in card.rewards),
            choice=_choice_text(card, choices.get(m.card, ""), state),
            status=m.status,
            status_text=status_text,
            why=m.why,
            revealed=revealed,
            alert=(m.status == MET) or r is not None,
            reminder=reminder,
            alert_key=m.card if m.status == MET else r.key if r is not None else "",
        ))
    side_state = state.sides.get(gang)
    return HandView(
        gang=gang,
        gang_name=gang_name or (side_state.name if side_state else gang),
        player=player,
        battle=setup.number,
        title=setup.objective or "Quick battle",
        where=_where(state),
        cards=tuple(cards),
    )


def hand_views(
    setup: BattleSetup,
    state: BattleState,
    matches: Sequence[Match],
    players: Mapping[str, str] | None = None,
    reminders: Sequence[Reminder] = (),
    data: RuleData | None = None,
) -> dict[str, HandView]:
    """Every gang's own view, keyed by gang id (each built from that gang's cards only)."""
    players = players or {}
    return {s.gang: hand_view(setup, state, matches, s.gang, player=players.get(s.gang, ""),
                              reminders=reminders, data=data)
            for s in setup.sides}


def open_battle(campaign: Campaign) -> int | None:
    """The number of the campaign's battle being fought in the tracker (the latest), if any."""
    numbers = [b.number for b in campaign.battles if b.status == BattleStatus.BATTLE]
    return max(numbers) if numbers else None


class NotInBattle(ValueError):
    """The battle data has no battle in progress to show (a player-readable message)."""


def battle_hand_views(campaign: Campaign, number: int, data: Mapping[str, Any],
                      rule_data: RuleData | None = None) -> dict[str, HandView]:
    """The hands of battle ``number`` from its plain battle data (as saved): the set-up's
    hands watched against the saved log. NotInBattle when there is nothing to show."""
    summary = summary_of(campaign, number)
    if summary is None or summary.status != BattleStatus.BATTLE:
        raise NotInBattle(f"battle {number} is not being fought in the tracker")
    raw = data.get("setup")
    if not raw:
        raise NotInBattle(f"battle {number} has no set-up yet (open it in the tracker first)")
    setup = BattleSetup.from_data(dict(raw))
    stored = data.get("battle") or {}
    if stored.get("log"):
        battle, _rejected, _problem = Battle.load(dict(stored))
    else:
        try:
            battle = Battle([start_event(setup, campaign)])
        except (BattleError, KeyError) as error:
            raise NotInBattle(f"battle {number} cannot start: {error}") from None
    run = HandWatch(_known_hands(setup, rule_data), watcher_table(rule_data), facts=setup,
                    data=rule_data)
    for ev in battle.log:
        run.feed(ev)
    players = {}
    for s in setup.sides:
        try:
            players[s.gang] = campaign.gang(s.gang).player
        except KeyError:
            players[s.gang] = ""
    return hand_views(setup, battle.state, run.matches(), players, run.reminders(),
                      data=rule_data)


def _known_hands(setup: BattleSetup, data: RuleData | None = None) -> dict[str, list[str]]:
    out = {}
    for gang, cards in hands_of(setup).items():
        known = []
        for cid in cards:
            try:
                subplots.card(cid, data)
            except (KeyError, ValueError):
                continue
            known.append(cid)
        out[gang] = known
    return out


__all__ = [
    "CardView", "HandView", "NotInBattle", "STATUS_TEXT", "battle_hand_views", "hand_view",
    "hand_views", "open_battle",
]
