"""The tracker's own table of a battle file (``[battle]``), as one record.

:class:`BattleRecord` holds the log (a :class:`munda_tui.rules.battle.events.Battle`, with its
redo stack) and what the tracker keeps beside it: ``seen`` (per gang, the met cards and
reminders its owner has already looked at: no marker for them any more), ``rejected``
(events of a hand-edited log that no longer replay, kept, never lost), ``start_walked``
(the start of the game has been walked for every player), ``outcome`` (what the finished
battle hands to the post-battle sequence) and the cards that are public: shown to both
players in the pre-battle or the start-of-the-battle walk with their choice (from the
set-up, never saved here). Keys of the table this version does not know are kept as they
are. ``from_data``/``to_data`` read and write the table exactly as before (no schema
change); ``saves`` writes ``to_data()`` as the battle file's ``battle`` part.
"""

from __future__ import annotations


import copy
from dataclasses import dataclass, field
from typing import Any

from ..subplots import decks as subplots
from .events import (
    RevealEvent, RewardEvent,
    Battle,
    BattleState,
    Event,
    outcome,
    outcome_from_data,
    outcome_to_data,
    start_event,
)
from ..core.data import RuleData
from ..core.model import Campaign
from ..core.outcome import BattleOutcome
from .reward_plan import RevealResult
from ..prebattle.setup import BattleSetup


def public_cards(setup: BattleSetup, data: RuleData | None = None) -> dict[str, dict[str, str]]:
    """Per gang, the cards of its hand both players saw before round 1 (revealed at Choose
    Crew or in the start-of-the-battle walk with an open choice), each with that choice
    ("" when it asks none; fighter ids joined by "|"). Secret choices keep their card
    hidden; unknown card ids are left out. In the order the choices were made. ``data``:
    the rule data in force (a pack's deck is read as a House deck is)."""
    out: dict[str, dict[str, str]] = {}
    for side in setup.sides:
        for cid, value in side.subplot_choices.items():
            try:
                card = subplots.card(cid, data)
            except (KeyError, subplots.SubplotError):
                continue
            if (cid in side.hand and card.reveal in ("choose_crew", "start_of_battle")
                    and not card.choice_info.secret):
                out.setdefault(side.gang, {})[cid] = value
    return out


@dataclass
class BattleRecord:
    """The log and the tracker's own keys of one battle."""

    battle: Battle = field(default_factory=Battle)
    seen: dict[str, list[str]] = field(default_factory=dict)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    start_walked: bool = False
    outcome: BattleOutcome | None = None
    #: per gang, the public cards and their open choice (from the set-up, not saved)
    public: dict[str, dict[str, str]] = field(default_factory=dict)
    #: the table as it was read: keys this version does not know are written back as they are
    extra: dict[str, Any] = field(default_factory=dict)
    #: what part of the log could not be replayed ("" when all of it did); not saved
    problem: str = ""
    #: changed since it was read (a new battle, events set aside): to save at once
    changed: bool = False
    #: ``seen`` is written (it was read, or the owners have looked), even when empty
    _write_seen: bool = field(default=False, init=False, repr=False, compare=False)

    # --- reading and writing ------------------------------------------------------------

    @classmethod
    def from_data(cls, data: dict[str, Any] | None) -> "BattleRecord":
        """The record of a battle file's ``battle`` table (``None`` or ``{}``: none yet).
        A log edited by hand replays as far as it can; the events from the first one that
        does not are kept under ``rejected`` and ``problem`` says what is wrong."""
        stored = dict(data or {})
        rec = cls(extra=stored)
        rec.rejected = [e for e in stored.get("rejected", []) or []]
        rec.seen = {str(g): list(cs) for g, cs in (stored.get("seen") or {}).items()}
        rec._write_seen = "seen" in stored
        rec.start_walked = bool(stored.get("start_walked", False))
        if stored.get("outcome"):
            try:
                rec.outcome = outcome_from_data(stored["outcome"])
            except (KeyError, TypeError, ValueError):  # kept as it is, under extra
                rec.outcome = None
        if stored.get("log"):
            rec.battle, rejected, rec.problem = Battle.load(stored)
            if rejected:  # kept in the file, never silently lost
                rec.rejected += rejected
                rec.changed = True
        return rec

    @classmethod
    def resume(cls, data: dict[str, Any] | None, setup: BattleSetup,
             campaign: Campaign, rule_data: RuleData | None = None) -> "BattleRecord":
        """The tracker's record of a battle: read from ``data``, started from the set-up
        (both crews) when its log is empty, with the set-up's public cards."""
        return cls.from_data(data).resumed(setup, campaign, rule_data)

    def resumed(self, setup: BattleSetup, campaign: Campaign,
                rule_data: RuleData | None = None) -> "BattleRecord":
        """This record (decoded by the battle file) made the tracker's: started from the
        set-up (both crews) when its log is empty, with the set-up's public cards."""
        if not self.battle.log:  # a new battle: both crews from the set-up
            self.battle = Battle([start_event(setup, campaign)])
            self.changed = True
        self.update_public(setup, rule_data)
        return self

    def to_data(self) -> dict[str, Any]:
        """The ``battle`` table: ``log``, ``redo`` and, when they hold something, ``seen``,
        ``rejected``, ``start_walked`` and ``outcome``; unknown keys as they were read."""
        out = dict(self.extra)
        out.update(self.battle.to_data())
        if self.rejected:
            out["rejected"] = list(self.rejected)
        if self._write_seen:
            out["seen"] = {g: list(cs) for g, cs in self.seen.items()}
        if self.start_walked:
            out["start_walked"] = True
        if self.outcome is not None:
            out["outcome"] = outcome_to_data(self.outcome)
        return out

    # --- the log --------------------------------------------------------------------------

    @property
    def state(self) -> BattleState:
        return self.battle.state

    def log_event(self, ev: Event) -> BattleState:
        """Record a new event (BattleError when it cannot happen now)."""
        return self.battle.log_event(ev)

    def undo(self) -> Event | None:
        return self.battle.undo()

    def redo(self) -> Event | None:
        return self.battle.redo()

    @staticmethod
    def reveal_event(gang: str, card: str, result: RevealResult) -> Event:
        """A Sub-plot revealed, with the rewards its plan banked (to :meth:`log_event`)."""
        return RevealEvent(gang=gang, card=card, upgraded=result.upgraded,
                     rewards=result.rewards)

    @staticmethod
    def reward_event(gang: str, card: str, result: RevealResult) -> Event:
        """A revealed Sub-plot's reward, walked at the end (to :meth:`log_event`)."""
        return RewardEvent(gang=gang, card=card, upgraded=result.upgraded,
                     rewards=result.rewards)

    # --- the tracker's own keys -------------------------------------------------------------

    def mark_seen(self, gang: str, keys: list[str]) -> bool:
        """The owner has looked at these met cards / reminders: True when one was new."""
        new = [k for k in keys if k not in self.seen.get(gang, ())]
        if new:
            self.seen.setdefault(gang, []).extend(new)
            self._write_seen = True
        return bool(new)

    def walked_start(self, looked: dict[str, list[str]], everyone: bool) -> None:
        """The start of the game was walked by the gangs of ``looked`` (each looking at
        those reminders); ``everyone``: walked for every player, not offered again."""
        if everyone:
            self.start_walked = True
        for gang, keys in looked.items():
            self.seen.setdefault(gang, [])
            self.mark_seen(gang, keys)
        self._write_seen = True

    def update_public(self, setup: BattleSetup, rule_data: RuleData | None = None) -> None:
        """The public cards again, from the set-up's choices (after the start walk)."""
        self.public = public_cards(setup, rule_data)

    def is_public(self, gang: str, card: str) -> bool:
        """Both players have seen it: revealed in the battle, or shown before round 1."""
        side = self.state.sides.get(gang)
        return card in self.public.get(gang, {}) or (side is not None and card in side.revealed)

    def public_in_order(self, gang: str) -> list[str]:
        """The gang's public cards: revealed in the battle first, then those shown before."""
        side = self.state.sides.get(gang)
        revealed = list(side.revealed) if side is not None else []
        return revealed + [c for c in self.public.get(gang, {}) if c not in revealed]

    def start_walk_due(self, setup: BattleSetup, hands: dict[str, list[str]]) -> bool:
        """The start of the game is walked once, with Sub-plots in play, before round 1
        has moved on (a player who leaves it at the curtain has it offered again)."""
        st = self.state
        return bool(setup.subplots and any(hands.values()) and not self.start_walked
                    and st.round == 1 and not st.ended)

    def finished(self, setup: BattleSetup, card_names: dict[str, str] | None = None,
                 data: RuleData | None = None) -> "BattleRecord":
        """A new record: this one with the outcome of the battle (nothing applied to
        gangs). This record is not changed; the new one shares its log (the one kept
        after a stage move is the new, the other is dropped)."""
        new = copy.copy(self)
        new.outcome = outcome(self.state, setup, card_names, data)
        return new
