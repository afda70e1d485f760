"""Sub-plot effects: what a revealed card does after the battle, decided from the
battle and walked inside the post-battle sequence.

Decided from the battle (the answers the battle's outcome carries, so the wizard needs
no battle log): ``two_injury_rolls(state)``, the fighters who make two Lasting Injury
rolls and keep the higher because of a revealed card (``data/subplot_effects.toml``:
Chemical Solutions for every fighter of the gang taken Out of Action after the reveal,
Divine Possession for the Leader or Champion taken Out of Action again after it), and
``fixed_injuries(state)``.

Walked inside the post-battle sequence (``rules.postbattle.steps`` calls
:func:`asks_at` and :func:`walk_post_battle` at a step): a revealed card's reward at the
step that resolves it (Work for the Docs), and A Dark Fate revealed at a capture during
the sequence. This package is below the stages: it reads the battle's state and the
sequence's walk through the protocols below (:class:`BattleView`, :class:`SequenceWalk`)
and changes the campaign only through the acts the sequence hands in
(:class:`SequenceActs`), never by importing them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from ..core.choice import Option
from ..core.data import RuleData, injury_table, load_data
from ..core.dice import Roll
from ..core.model import Campaign, FighterStatus
from ..core.outcome import BattleOutcome
from ..core.readings import note as reading_note


class FighterView(Protocol):
    """What the effects read of a fighter in the battle (``rules.battle`` FighterState)."""

    @property
    def key(self) -> str: ...
    @property
    def gang(self) -> str: ...
    @property
    def state(self) -> str: ...
    @property
    def out_at(self) -> list[int]: ...
    @property
    def taken_out_by(self) -> str: ...
    @property
    def how(self) -> str: ...
    @property
    def is_leader(self) -> bool: ...
    @property
    def is_champion(self) -> bool: ...


class SideView(Protocol):
    """What the effects read of a gang's side in the battle (``rules.battle`` SideState)."""

    @property
    def gang(self) -> str: ...
    @property
    def revealed(self) -> list[str]: ...
    @property
    def revealed_at(self) -> dict[str, int]: ...


class BattleView(Protocol):
    """What the effects read of the battle replayed from its log (``rules.battle``
    BattleState, above this package)."""

    @property
    def sides(self) -> Mapping[str, SideView]: ...
    @property
    def fighters(self) -> Mapping[str, FighterView]: ...

    def crew(self, gang: str) -> Iterable[FighterView]: ...


def effects_table() -> dict[str, Any]:
    return load_data("subplot_effects.toml")


def two_injury_rolls(state: BattleView) -> dict[str, str]:
    """Fighter key -> the card id that makes them roll twice (``state``: the battle
    replayed from the log)."""
    rules = effects_table().get("two_lasting_injury_rolls", {})
    out: dict[str, str] = {}
    for side in state.sides.values():
        for card, at in side.revealed_at.items():
            who = rules.get(card)
            if not who:
                continue
            for f in state.crew(side.gang):
                if f.state != "out_of_action" or not f.out_at or f.out_at[-1] <= at:
                    continue
                if who == "fighter" and not (
                        (f.is_leader or f.is_champion) and any(i < at for i in f.out_at)):
                    continue
                out.setdefault(f.key, card)
    return out


def fixed_injuries(state: BattleView) -> dict[str, tuple[str, str]]:
    """Fighter key -> (the Lasting Injury result their injury counts as, the card id), for
    the enemies a gang took Out of Action with the action its revealed card names."""
    rules = effects_table().get("fixed_lasting_injury", {})
    out: dict[str, tuple[str, str]] = {}
    for side in state.sides.values():
        for card in side.revealed:
            spec = rules.get(card)
            if not spec:
                continue
            how = str(spec.get("by_how", ""))  # the log's words, e.g. "Coup de Grace"
            for f in state.fighters.values():
                by = state.fighters.get(f.taken_out_by)
                if (f.gang != side.gang and f.state == "out_of_action" and by is not None
                        and by.gang == side.gang and how and f.how.startswith(how)):
                    out.setdefault(f.key, (str(spec["result"]), card))
    return out


def post_battle_cards() -> dict[str, dict[str, Any]]:
    """Card id -> where and how the post-battle sequence walks its reward."""
    return dict(effects_table().get("post_battle", {}))


def post_battle_step(card_id: str) -> str:
    """The post-battle step that walks this card's reward ("" when none)."""
    return str(post_battle_cards().get(card_id, {}).get("step", ""))


# --- walked inside the post-battle sequence -------------------------------------------


class SequenceView(Protocol):
    """What the effects read of the post-battle sequence (``rules.postbattle``
    PostBattle, above this package)."""

    @property
    def base(self) -> Campaign: ...
    @property
    def ruleset(self) -> dict[str, Any]: ...
    @property
    def data(self) -> RuleData | None: ...
    @property
    def setup(self) -> dict[str, Any]: ...
    @property
    def outcome(self) -> BattleOutcome: ...
    @property
    def facts(self) -> dict[str, Any]: ...


class SequenceWalk(Protocol):
    """What the effects use of a step's walk (``rules.postbattle.core.Walk``): the
    sequence, the working campaign, the questions and what the step says."""

    @property
    def seq(self) -> SequenceView: ...
    @property
    def campaign(self) -> Campaign: ...

    def roll(self, pid: str, label: str, dice: str, gang: str = "", table: str = "",
             note: str = "") -> Roll: ...

    def choose(self, pid: str, label: str, options: list[Option], gang: str = "",
               default: str | None = None, note: str = "") -> str: ...

    def say(self, text: str) -> None: ...

    def opponent(self, gang_id: str) -> str: ...

    def fname(self, gang_id: str, fighter_id: str) -> str: ...


@dataclass(frozen=True)
class SequenceActs:
    """What the post-battle sequence does for a card, bound to the step's walk (its own
    helpers and changes: ``rules.postbattle.steps`` hands them in)."""

    #: a Lasting Injury rolled (or entered) and applied: (gang, fighter, prompt id, why)
    #: -> the table's row (``dead``: a Memorable Death)
    injure: Callable[[str, str, str, str], dict[str, Any]]
    #: a fighter's status set: (gang, fighter, status, why)
    set_status: Callable[[str, str, FighterStatus, str], None]
    #: credits gained by a gang: (gang, amount, why)
    credits: Callable[[str, int, str], None]
    #: Reputation gained by a gang: (gang, amount, why)
    reputation: Callable[[str, int, str], None]


def _may_hold(walk: SequenceWalk, gang_id: str, house_deck: str) -> bool:
    """Public facts only: the gang draws from that House deck and holds a card not yet
    revealed (the number of cards in a hand is public; which cards, never)."""
    from .decks import house_deck as deck_of

    o = walk.seq.outcome
    for side in walk.seq.setup.get("sides", []) or []:
        if side.get("gang") != gang_id or not side.get("use_house_deck"):
            continue
        if deck_of(walk.campaign.gang(gang_id).type.value, walk.seq.data) != house_deck:
            return False
        shown = len(o.subplots_revealed_by.get(gang_id, []))
        return len(side.get("hand", []) or []) > shown
    return False


def _captures(walk: SequenceWalk, cid: str, spec: dict[str, Any]) -> list[tuple[str, str, str, bool]]:
    """(captive's gang, captive, captor, card already revealed) for each capture the card
    may act on, from public facts only."""
    o = walk.seq.outcome
    out = []
    for key in list(walk.seq.facts.get("captured", [])):
        gid, fid = key.split("/", 1)
        captor = walk.opponent(gid)
        f = walk.campaign.gang(gid).fighter(fid)
        if not captor or f.status is not FighterStatus.CAPTURED:
            continue
        revealed = cid in o.subplots_revealed_by.get(captor, [])
        if revealed or _may_hold(walk, captor, spec.get("house_deck", "")):
            out.append((gid, fid, captor, revealed))
    return out


def asks_at(walk: SequenceWalk, step_id: str) -> bool:
    """True when a card resolved during the sequence may act at this step (so the step
    is walked even with nothing else to do)."""
    return any(spec.get("step") == step_id and spec.get("kind") == "on_capture"
               and _captures(walk, cid, spec) for cid, spec in post_battle_cards().items())


def _on_capture(walk: SequenceWalk, cid: str, spec: dict[str, Any], acts: SequenceActs) -> None:
    from .decks import card as subplot

    name = subplot(cid, walk.seq.data).name
    for gid, fid, captor, revealed in _captures(walk, cid, spec):
        key = f"{gid}/{fid}"
        f = walk.campaign.gang(gid).fighter(fid)
        cname = walk.campaign.gang(captor).name
        if not revealed:
            answer = walk.choose(
                f"subplot:{cid}:{captor}:{key}",
                f"{cname} captured {f.name}: does {cname} reveal a Sub-plot now?",
                [Option("no", "No Sub-plot to reveal now"),
                 Option("yes", f"Reveal {name} (show the card to the other player)")],
                gang=captor, default="no",
                note="Asked of every gang drawing from this House deck that still holds a "
                     "hidden card, whatever it holds.")
            if answer != "yes":
                continue
        walk.say(f"{cname} reveal {name}: a Lasting Injury roll for {f.name}")
        got = acts.injure(gid, fid, f"subplot:{cid}:{key}:injury", name)
        if got.get("dead"):
            walk.say(f"  {f.name}: Memorable Death - no Reputation, not returned")
            continue
        acts.set_status(gid, fid, FighterStatus.ACTIVE, f"returned to its gang ({name})")
        rep = walk.roll(f"subplot:{cid}:{key}:rep", f"{name}: Reputation for {cname}",
                        spec.get("dice", "D3"), gang=captor)
        acts.reputation(captor, rep.total, f"Sub-plot: {name}")
        walk.say(f"  {f.name} is returned to {walk.campaign.gang(gid).name}; "
                 f"{cname} gain {rep.total} Reputation ({rep})")


def walk_post_battle(walk: SequenceWalk, step_id: str, acts: SequenceActs) -> None:
    """At step ``step_id`` of the post-battle sequence: the rewards of the revealed cards
    that step resolves (each gang's own revealed cards, from the battle's outcome), and the
    cards revealed during the sequence itself (A Dark Fate at a capture). ``acts``: the
    sequence's Lasting Injury, status and gains, bound to the walk."""
    from .decks import card as subplot

    o = walk.seq.outcome
    for cid, spec in post_battle_cards().items():
        if spec.get("step") == step_id and spec.get("kind") == "on_capture":
            _on_capture(walk, cid, spec, acts)
    for gang_id, cards in sorted(o.subplots_revealed_by.items()):
        for cid in cards:
            card_spec = post_battle_cards().get(cid)
            if not card_spec or card_spec.get("step") != step_id:
                continue
            name = subplot(cid, walk.seq.data).name
            if card_spec.get("kind") == "per_fighter_out_of_action_alive":
                results = walk.seq.facts.get("injury_results", {})
                alive = [(k, r) for k, r in results.items() if not r.get("dead")]
                gang = walk.campaign.gang(gang_id)
                if not alive:
                    walk.say(f"{gang.name}: {name}: no fighter went Out of Action and lived")
                    continue
                upgrade = card_spec.get("upgrade_injury", "")
                if upgrade and not _table_has(walk, upgrade):
                    # "Fighters who rolled Trip to the Docs provide D6x10 credits instead":
                    # no Lasting Injury table the app offers has that result (readings:
                    # trip-to-the-docs)
                    walk.say(f"{gang.name}: {name}: " + reading_note(
                        card_spec.get("reading", "trip-to-the-docs")))
                total = 0
                for key, r in alive:
                    g, f = key.split("/", 1)
                    up = r.get("name") == card_spec.get("upgrade_injury")
                    dice = card_spec["upgrade_dice"] if up else card_spec["dice"]
                    roll = walk.roll(f"subplot:{cid}:{gang_id}:{key}",
                                     f"{name} ({gang.name}): {walk.fname(g, f)} went Out of "
                                     f"Action and lived: {dice} credits", dice, gang=gang_id)
                    total += roll.total
                    walk.say(f"{gang.name}: {name}: {walk.fname(g, f)} lived, {roll}")
                acts.credits(gang_id, total, f"Sub-plot: {name}")
                walk.say(f"{gang.name}: {total:+d} credits (Sub-plot: {name})")


def _table_has(walk: SequenceWalk, result: str) -> bool:
    """Whether the campaign's Lasting Injury table has a result named ``result``."""
    name = walk.seq.base.settings.lasting_injury_table or walk.seq.ruleset.get(
        "injury_table_default", "rulebook-2018")  # (as steps.injury_table_name: no circle)
    rows = injury_table(name).get("rows", [])
    return any(row.get("name") == result for row in rows)
