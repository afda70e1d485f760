"""The live battle: events as data, and the replay that turns a log into state.

A battle is an append-only list of :class:`Event`. Its state is always the
log replayed from the first event (``start``, which carries both crews), never
edited by hand: undo drops the last event, redo puts it back.

Fighters are named by key ``"<gang id>/<fighter id>"`` everywhere in the log.

The battle file's ``battle`` table (owned by the tracker) holds
``{"log": [...], "redo": [...], "outcome": {...}}`` (see :meth:`Battle.to_data`;
``outcome`` is :func:`outcome_to_data` of the ``BattleOutcome``, written when the
battle is finished; ``rejected`` keeps events of a hand-edited log that no longer
replay, see :meth:`Battle.load`).

Each event kind is one handler class (``EventKind``: its label, its checks, what it
changes, how it is taken back, its log line, and what it is to those who watch the log:
a takedown, a wound, a reminder timing, a moment of the battle) registered in
``HANDLERS``; ``check``, ``apply``, ``describe`` and an event's own questions
(``ev.takedown``, ``ev.of.timings(...)``) reach it, so a new kind is one class.

Sub-plot hands stay in the ``setup`` table and are watched by
:mod:`munda_tui.rules.battle.watch`.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field, fields
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Iterable, Sequence, TypeVar

from . import conditions as condition_data
from ..prebattle import scenario as scenario
from ..core.dice import Roll
from ..core.model import Campaign, Fighter, FighterType, Gang
from ..core.outcome import BankedReward, BattleOutcome, EndState, FighterOutcome, RewardKind
from ..prebattle.setup import BattleSetup, CrewMember, SideSetup

# --- vocabulary ------------------------------------------------------------------

ACTIVE = "active"
ENGAGED = "engaged"
PINNED = "pinned"
SERIOUSLY_INJURED = "seriously_injured"
OUT_OF_ACTION = "out_of_action"
NOT_DEPLOYED = "not_deployed"
FLED = "fled"

#: Fighter states, in the order the tracker offers them.
STATES: tuple[str, ...] = (
    ACTIVE, ENGAGED, PINNED, SERIOUSLY_INJURED, OUT_OF_ACTION, NOT_DEPLOYED, FLED,
)
STATE_NAMES: dict[str, str] = {
    ACTIVE: "Standing and Active",
    ENGAGED: "Standing and Engaged",
    PINNED: "Prone and Pinned",
    SERIOUSLY_INJURED: "Seriously Injured",
    OUT_OF_ACTION: "Out of Action",
    NOT_DEPLOYED: "not yet deployed",
    FLED: "fled",
}
STATE_SHORT: dict[str, str] = {
    ACTIVE: "Active",
    ENGAGED: "Engaged",
    PINNED: "Pinned",
    SERIOUSLY_INJURED: "Ser.Inj",
    OUT_OF_ACTION: "OOA",
    NOT_DEPLOYED: "Reserve",
    FLED: "Fled",
}
#: States of a fighter on the battlefield (the rest are off it).
ON_BATTLEFIELD = frozenset({ACTIVE, ENGAGED, PINNED, SERIOUSLY_INJURED})
#: Prone fighters (Prone and Pinned, or Seriously Injured).
PRONE = frozenset({PINNED, SERIOUSLY_INJURED})
DOWN = frozenset({SERIOUSLY_INJURED, OUT_OF_ACTION})

PRIORITY, ACTION, END = "priority", "action", "end"
PHASES: tuple[str, ...] = (PRIORITY, ACTION, END)
PHASE_NAMES = {PRIORITY: "Priority", ACTION: "Action", END: "End"}

ACTIONS: tuple[str, ...] = ("shoot", "fight", "coup_de_grace", "reaction", "fall", "other")
ACTION_NAMES = {
    "shoot": "Shoot",
    "fight": "Fight",
    "coup_de_grace": "Coup de Grace",
    "reaction": "Reaction",
    "fall": "fall",
    "other": "other",
}
TRAITS: tuple[str, ...] = (
    "Melee", "Versatile", "Blaze", "Gas", "Toxin", "Grenade", "Plasma", "Rad-phage",
    "Unarmed", "Plentiful",
)
TESTS: tuple[str, ...] = ("nerve", "cool", "willpower", "intelligence", "ammo", "bottle")
TEST_NAMES = {t: t.capitalize() for t in TESTS}
RECOVERY_RESULTS: tuple[str, ...] = (PINNED, SERIOUSLY_INJURED, OUT_OF_ACTION)
RECOVERY_NAMES = {
    PINNED: "Flesh Wound (recovers: Prone and Pinned)",
    SERIOUSLY_INJURED: "Seriously Injured (stays down)",
    OUT_OF_ACTION: "Out of Action",
}


class BattleError(ValueError):
    """An event that cannot happen in this battle state (player-readable)."""


# --- events ------------------------------------------------------------------------


@dataclass(frozen=True)
class Reward:
    """A reward rolled or entered during the battle (banked, applied post-battle)."""

    kind: str  # RewardKind value
    amount: int
    fighter: str = ""  # fighter key for XP; "*" for every fighter of the crew
    dice: str = ""
    faces: tuple[int, ...] = ()
    note: str = ""

    def to_data(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "amount": self.amount}
        if self.fighter:
            d["fighter"] = self.fighter
        if self.dice:
            d["dice"] = self.dice
        if self.faces:
            d["faces"] = list(self.faces)
        if self.note:
            d["note"] = self.note
        return d

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> "Reward":
        return cls(
            kind=str(d["kind"]),
            amount=int(d.get("amount", 0)),
            fighter=str(d.get("fighter", "")),
            dice=str(d.get("dice", "")),
            faces=tuple(int(f) for f in d.get("faces", ())),
            note=str(d.get("note", "")),
        )


@dataclass(frozen=True)
class RosterEntry:
    id: str
    name: str
    type: str = FighterType.GANGER.value
    label: str = ""
    reserve: bool = False  # in the Reinforcements deck, not deployed
    cost: int = 0  # the fighter's Credits value at the start (0: not recorded)


@dataclass(frozen=True)
class SideRoster:
    gang: str
    name: str
    house: str = ""
    fighters: tuple[RosterEntry, ...] = ()
    side_job: str = ""


@dataclass(frozen=True)
class Event:
    """One thing that happened. Only the fields a kind uses are set."""

    kind: str
    fighter: str = ""  # fighter key "gang/fighter"
    gang: str = ""
    state: str = ""  # kind "state": the new state
    attacker: str = ""  # fighter key of the attacker, "" when skipped
    action: str = ""  # one of ACTIONS
    traits: tuple[str, ...] = ()
    condition: str = ""
    lost: bool = False  # kind "condition": lost (rally from Broken) instead of gained
    test: str = ""
    result: str = ""  # kind "recovery": PINNED, SERIOUSLY_INJURED or OUT_OF_ACTION
    amount: int = 0
    round: int = 0
    phase: str = ""
    card: str = ""
    upgraded: bool = False
    rewards: tuple[Reward, ...] = ()
    winner: str = ""
    fled: tuple[str, ...] = ()  # kind "end": gangs whose fighters fled
    note: str = ""
    dice: str = ""  # the dice rolled for this event, e.g. "D6" (a Reinforcement's arrival)
    faces: tuple[int, ...] = ()  # the faces rolled (by the app or entered from real dice)
    distance: int = 0  # kind "reinforcement": inches from all enemy models (9 or 12)
    sides: tuple[SideRoster, ...] = ()  # kind "start" only

    def to_data(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            if f.name == "kind":
                continue
            v = getattr(self, f.name)
            if v == f.default or v == ():
                continue
            if f.name == "rewards":
                v = [r.to_data() for r in v]
            elif f.name == "sides":
                v = [_side_to_data(s) for s in v]
            elif isinstance(v, tuple):
                v = list(v)
            d[f.name] = v
        return d

    @classmethod
    def from_data(cls, d: dict[str, Any]) -> "Event":
        known = {f.name for f in fields(cls)}
        kw: dict[str, Any] = {k: v for k, v in d.items() if k in known}
        if "traits" in kw:
            kw["traits"] = tuple(str(t) for t in kw["traits"])
        if "fled" in kw:
            kw["fled"] = tuple(str(g) for g in kw["fled"])
        if "faces" in kw:
            kw["faces"] = tuple(int(f) for f in kw["faces"])
        if "rewards" in kw:
            kw["rewards"] = tuple(Reward.from_data(r) for r in kw["rewards"])
        if "sides" in kw:
            kw["sides"] = tuple(_side_from_data(s) for s in kw["sides"])
        return cls(**kw)

    # --- what the event is: each kind answers for itself (see :class:`EventKind`) ------

    @property
    def of(self) -> "EventKind":
        """This event's kind (its behaviour); an unknown kind behaves as no kind."""
        return HANDLERS.get(self.kind, _NO_KIND)

    @property
    def put_in(self) -> str:
        return self.of.put_in(self)

    @property
    def takedown(self) -> str:
        return self.of.takedown(self)

    @property
    def wound(self) -> bool:
        return self.of.wound(self)

    @property
    def flesh_wounds(self) -> int:
        return self.of.flesh_wounds(self)

    @property
    def recovery(self) -> str:
        return self.of.recovery(self)

    @property
    def condition_gained(self) -> str:
        return self.of.condition_gained(self)

    @property
    def condition_lost(self) -> str:
        return self.of.condition_lost(self)

    @property
    def failed_test(self) -> str:
        return self.of.failed_test(self)

    @property
    def tactic_by(self) -> str:
        return self.of.tactic_by(self)

    @property
    def activation(self) -> bool:
        return self.of.activation(self)

    @property
    def new_phase(self) -> bool:
        return self.of.new_phase(self)

    @property
    def arrival(self) -> bool:
        return self.of.arrival(self)

    @property
    def is_attack(self) -> bool:
        """An attack on the fighter (a takedown, a wound, or an attack that changed nothing)."""
        return self.of.attack


def _side_to_data(s: SideRoster) -> dict[str, Any]:
    d = asdict(s)
    d["fighters"] = [
        {k: v for k, v in asdict(f).items() if v not in ("", False)} for f in s.fighters
    ]
    return d


def _side_from_data(d: dict[str, Any]) -> SideRoster:
    return SideRoster(
        gang=str(d["gang"]),
        name=str(d.get("name", d["gang"])),
        house=str(d.get("house", "")),
        fighters=tuple(RosterEntry(**f) for f in d.get("fighters", ())),
        side_job=str(d.get("side_job", "")),
    )


# --- state -------------------------------------------------------------------------


@dataclass
class FighterState:
    key: str
    gang: str
    id: str
    name: str
    type: str
    label: str = ""
    state: str = ACTIVE
    conditions: list[str] = field(default_factory=list)
    flesh_wounds: int = 0
    xp: int = 0
    activated: bool = False
    taken_out_by: str = ""  # fighter key
    how: str = ""  # e.g. "Shoot: Blaze"
    recoveries: int = 0  # times recovered from Seriously Injured
    cost: int = 0  # Credits value from the start event (0: not recorded)
    # what the fighter did to others, from the log: "seriously_injured" /
    # "out_of_action" (enemies put in that state by this fighter), "rally"
    caused: dict[str, int] = field(default_factory=dict)
    out_at: list[int] = field(default_factory=list)  # events that took them Out of Action

    @property
    def on_battlefield(self) -> bool:
        return self.state in ON_BATTLEFIELD

    @property
    def is_leader(self) -> bool:
        return self.type == FighterType.LEADER.value

    @property
    def is_champion(self) -> bool:
        return self.type == FighterType.CHAMPION.value


@dataclass
class SideState:
    gang: str
    name: str
    house: str = ""
    side_job: str = ""
    vp: int = 0
    tactics: list[str] = field(default_factory=list)  # Gang Tactics played, in order
    bottle_failed: int = 0
    reserves: list[str] = field(default_factory=list)  # fighter keys still off the table
    revealed: list[str] = field(default_factory=list)  # Sub-plot card ids revealed
    side_job_done: bool = False
    rewards: list[tuple[str, Reward]] = field(default_factory=list)  # (card id, reward)
    revealed_at: dict[str, int] = field(default_factory=dict)  # card id -> its reveal event
    # the Reinforcements step of the End phase: the round of the last one, how many were
    # due then, and how many have arrived since
    step_round: int = 0
    due: int = 0
    arrived: int = 0


@dataclass
class BattleState:
    round: int = 0
    phase: str = PRIORITY
    priority: str = ""  # gang id
    priority_round: int = 0  # the round in which Priority was last recorded
    sides: dict[str, SideState] = field(default_factory=dict)
    fighters: dict[str, FighterState] = field(default_factory=dict)
    ended: bool = False
    winner: str = ""
    fled: tuple[str, ...] = ()
    events: int = 0

    @property
    def gangs(self) -> list[str]:
        return list(self.sides)

    def opponent(self, gang: str) -> str:
        for g in self.sides:
            if g != gang:
                return g
        return ""

    def crew(self, gang: str) -> list[FighterState]:
        return [f for f in self.fighters.values() if f.gang == gang]

    def on_battlefield(self, gang: str) -> int:
        return sum(1 for f in self.fighters.values() if f.gang == gang and f.on_battlefield)

    def name_of(self, key: str) -> str:
        f = self.fighters.get(key)
        return f.name if f else (key or "?")


def how_text(action: str, traits: Iterable[str]) -> str:
    parts = ACTION_NAMES.get(action, action) if action else ""
    traits = list(traits)
    if traits:
        return f"{parts}: {', '.join(traits)}" if parts else ", ".join(traits)
    return parts


def _fighter(state: BattleState, key: str) -> FighterState:
    try:
        return state.fighters[key]
    except KeyError:
        raise BattleError(f"no fighter {key!r} in this battle") from None


def _take_down(state: BattleState, f: FighterState, ev: Event) -> None:
    if ev.attacker:
        f.taken_out_by = ev.attacker
        by = state.fighters.get(ev.attacker)
        if by is not None and by.gang != f.gang and ev.state in (SERIOUSLY_INJURED, OUT_OF_ACTION):
            by.caused[ev.state] = by.caused.get(ev.state, 0) + 1
    f.how = how_text(ev.action, ev.traits)


#: states of a fighter who is not on the battlefield
OFF_THE_BATTLEFIELD = (OUT_OF_ACTION, FLED, NOT_DEPLOYED)


# --- one handler per event kind ----------------------------------------------------------
#
# Each event kind is one class below: its label (the log widget and the help screen show
# it), what it must meet to follow a state (``validate``; ``check_new`` for what only a
# newly recorded event must meet), what it changes (``apply``) and its line in the log
# (``describe``). ``@event_kind`` registers it in ``HANDLERS``, so a new kind is one class;
# :func:`check`, :func:`check_new`, :func:`apply` and :func:`describe` dispatch to it.


class Words:
    """What a log line needs: the battle's names and the names of the revealed cards."""

    def __init__(self, state: BattleState, card_names: dict[str, str] | None = None) -> None:
        self.state = state
        self.card_names = card_names or {}

    def name(self, key: str) -> str:
        return self.state.name_of(key)

    def gang(self, g: str) -> str:
        side = self.state.sides.get(g)
        return side.name if side else (g or "?")

    def by(self, ev: Event) -> str:
        """" (by <attacker>, <how>)", or "" when neither was recorded."""
        parts = []
        if ev.attacker:
            parts.append(f"by {self.name(ev.attacker)}")
        how = how_text(ev.action, ev.traits)
        if how:
            parts.append(how)
        return f" ({', '.join(parts)})" if parts else ""

    def card(self, cid: str) -> str:
        return self.card_names.get(cid, cid)


class EventKind:
    """One kind of event. Subclasses set ``kind`` and ``label`` and override what the kind
    checks, changes and says; the base refuses any event before the start and, unless
    ``after_end``, after the end."""

    kind: ClassVar[str] = ""
    label: ClassVar[str] = ""
    #: may still be recorded once the battle is over
    after_end: ClassVar[bool] = False

    def check(self, state: BattleState, ev: Event) -> None:
        """Raise BattleError when ``ev`` cannot follow ``state``."""
        if not state.events:
            raise BattleError("the battle has not started")
        if state.ended and not self.after_end:
            raise BattleError("the battle is over: only Sub-plot reveals and rewards, XP and "
                              "Side Jobs can follow")
        self.validate(state, ev)

    def validate(self, state: BattleState, ev: Event) -> None:
        """What this kind's fields must meet in ``state`` (BattleError otherwise)."""

    def check_new(self, state: BattleState, ev: Event) -> None:
        """What a new event (recorded now, not one of a saved log replayed) must also meet."""

    def apply(self, state: BattleState, ev: Event) -> None:
        """Change ``state`` in place (``state.events`` already counts ``ev``)."""

    def describe(self, ev: Event, words: Words) -> str:
        """One line of the battle log, in the players' words."""
        return ev.kind

    def undo(self, state: BattleState, ev: Event) -> bool:
        """Take ``ev`` (the last event applied) back out of ``state`` in place: True when
        done, False when the state must be replayed from the log without it (the kinds
        whose change cannot be read back from the event alone)."""
        return False

    # --- what the event is, to those who watch the log (the Sub-plot watchers) ---------
    #
    # A watcher never asks an event's kind: it asks the event what it is (a takedown, a
    # wound, a Recovery test, a condition gained ...), and each kind answers for itself.

    #: an attack on the event's fighter (its ``action`` and ``traits`` are the attack's):
    #: a takedown, a wound, or an attack that changed nothing
    attack: ClassVar[bool] = False
    #: its ``attacker`` caused it (an attack, or a condition such as Broken by whom)
    caused: ClassVar[bool] = False
    #: watchers see it (the start is a moment of the battle instead)
    seen: ClassVar[bool] = True

    def put_in(self, ev: Event) -> str:
        """The state the event puts its fighter in by a state change ("" for none)."""
        return ""

    def takedown(self, ev: Event) -> str:
        """The down state (Seriously Injured, Out of Action) the event puts its fighter in
        ("" if none)."""
        return ""

    def wound(self, ev: Event) -> bool:
        """The fighter was wounded: a Flesh Wound, or Seriously Injured / Out of Action."""
        return False

    def flesh_wounds(self, ev: Event) -> int:
        """Flesh Wounds suffered in one hit (0: none, or not from a hit)."""
        return 0

    def recovery(self, ev: Event) -> str:
        """A Recovery test's result ("" for any other event)."""
        return ""

    def condition_gained(self, ev: Event) -> str:
        return ""

    def condition_lost(self, ev: Event) -> str:
        return ""

    def failed_test(self, ev: Event) -> str:
        """The test failed ("" for any other event)."""
        return ""

    def tactic_by(self, ev: Event) -> str:
        """The gang that played a Gang Tactic ("" for any other event)."""
        return ""

    def activation(self, ev: Event) -> bool:
        """An activation marked (or un-marked)."""
        return False

    def new_phase(self, ev: Event) -> bool:
        return False

    def arrival(self, ev: Event) -> bool:
        """A Reinforcement arrives."""
        return False

    def card_rewarded(self, ev: Event) -> bool | None:
        """For a Sub-plot revealed or its reward walked: whether a reward was recorded;
        None for any other event."""
        return None

    def moments_before(self, ev: Event, old_round: int) -> tuple[str, ...]:
        """The moments of the battle that end with this event, before it is seen (the
        round before a new round's first phase), in order."""
        return ()

    def moments_after(self, ev: Event, old_round: int, old_phase: str) -> tuple[str, ...]:
        """The moments of the battle this event begins or ends, after it is seen."""
        return ()

    def timings(self, ev: Event, st: BattleState, gang: str, old_round: int) -> set[str]:
        """The reminder timings (``watch.TIMINGS``) this event, applied to ``st``, is for
        the cards of ``gang``."""
        return self.fighter_timings(ev, st, gang)

    def fighter_timings(self, ev: Event, st: BattleState, gang: str) -> set[str]:
        """The timings of an event about a fighter: a takedown, an attack by or on one of
        the gang's fighters, and what the kind itself adds (:meth:`own_timings`)."""
        f = st.fighters.get(ev.fighter)
        if f is None:
            return set()
        own = f.gang == gang
        out = self.own_timings(ev, f, own)
        if self.takedown(ev):
            out.add("own_takedown" if own else "enemy_takedown")
        a = st.fighters.get(ev.attacker)
        if a is not None and self.caused:
            if a.gang == gang and not own:
                out.add("own_attack")
            elif a.gang != gang and own:
                out.add("enemy_attack")
        return out

    def own_timings(self, ev: Event, f: FighterState, own: bool) -> set[str]:
        """The timings this kind adds for its fighter ``f`` (``own``: the gang's)."""
        return set()


#: moments of the battle (the Sub-plot watchers are told of each, after its event)
BATTLE_START = "battle_start"
ROUND_START = "round_start"
ROUND_END = "round_end"
END_PHASE = "end_phase"
BATTLE_END = "battle_end"


#: event kind -> its handler, in the order the help lists them
HANDLERS: dict[str, EventKind] = {}

_K = TypeVar("_K", bound=type[EventKind])


def event_kind(cls: _K) -> _K:
    """Register an event kind's handler (a class decorator)."""
    HANDLERS[cls.kind] = cls()
    return cls


class _FighterEvent(EventKind):
    """An event on one fighter (and maybe the attacker who caused it, and how)."""

    def validate(self, state: BattleState, ev: Event) -> None:
        f = _fighter(state, ev.fighter)
        if ev.attacker:
            _fighter(state, ev.attacker)
        if ev.action and ev.action not in ACTIONS:
            raise BattleError(f"unknown action {ev.action!r}")
        self.validate_fighter(state, ev, f)

    def validate_fighter(self, state: BattleState, ev: Event, f: FighterState) -> None:
        """What the event must meet for this fighter."""


class _GangEvent(EventKind):
    """An event of one gang of the battle."""

    def validate(self, state: BattleState, ev: Event) -> None:
        if ev.gang not in state.sides:
            raise BattleError(f"no gang {ev.gang!r} in this battle")
        self.validate_gang(state, ev, state.sides[ev.gang])

    def validate_gang(self, state: BattleState, ev: Event, side: SideState) -> None:
        """What the event must meet for this gang."""


@event_kind
class StartEvent(EventKind):
    kind = "start"
    label = "the battle starts: both crews"

    def check(self, state: BattleState, ev: Event) -> None:
        if state.events:
            raise BattleError("the battle has already started")
        if len(ev.sides) != 2:
            raise BattleError("a battle needs two sides")

    def apply(self, state: BattleState, ev: Event) -> None:
        state.round, state.phase = 1, PRIORITY
        for side in ev.sides:
            s = SideState(side.gang, side.name, side.house, side.side_job)
            state.sides[side.gang] = s
            for r in side.fighters:
                key = f"{side.gang}/{r.id}"
                state.fighters[key] = FighterState(
                    key, side.gang, r.id, r.name, r.type, r.label,
                    state=NOT_DEPLOYED if r.reserve else ACTIVE, cost=r.cost,
                )
                if r.reserve:
                    s.reserves.append(key)

    def describe(self, ev: Event, words: Words) -> str:
        return "Battle starts: " + " vs ".join(s.name for s in ev.sides)

    seen = False

    def moments_after(self, ev: Event, old_round: int, old_phase: str) -> tuple[str, ...]:
        return (BATTLE_START,)

    def timings(self, ev: Event, st: BattleState, gang: str, old_round: int) -> set[str]:
        return {"battle_start"}


@event_kind
class StateEvent(_FighterEvent):
    kind = "state"
    label = "a fighter's state changes (optional attacker, action, weapon traits)"

    def validate_fighter(self, state: BattleState, ev: Event, f: FighterState) -> None:
        if ev.state not in STATES:
            raise BattleError(f"unknown state {ev.state!r}")
        if ev.state == f.state:
            raise BattleError(f"{f.name} is already {STATE_NAMES[f.state]}")

    def apply(self, state: BattleState, ev: Event) -> None:
        f = state.fighters[ev.fighter]
        f.state = ev.state
        if ev.state in DOWN:
            _take_down(state, f, ev)
        elif ev.state in (ACTIVE, ENGAGED, PINNED):
            f.taken_out_by = ""
            f.how = ""
        if ev.state == OUT_OF_ACTION or ev.state == FLED:
            f.conditions = []
        if ev.state == OUT_OF_ACTION:
            f.out_at.append(state.events)

    def describe(self, ev: Event, words: Words) -> str:
        return f"{words.name(ev.fighter)}: {STATE_NAMES.get(ev.state, ev.state)}{words.by(ev)}"

    attack = caused = True

    def put_in(self, ev: Event) -> str:
        return ev.state

    def takedown(self, ev: Event) -> str:
        return ev.state if ev.state in DOWN else ""

    def wound(self, ev: Event) -> bool:
        return ev.state in DOWN


@event_kind
class FleshWoundEvent(_FighterEvent):
    kind = "flesh_wound"
    label = "a fighter suffers Flesh Wounds"

    def validate_fighter(self, state: BattleState, ev: Event, f: FighterState) -> None:
        if ev.amount < 1:
            raise BattleError("Flesh Wounds: at least 1")

    def apply(self, state: BattleState, ev: Event) -> None:
        state.fighters[ev.fighter].flesh_wounds += ev.amount

    def undo(self, state: BattleState, ev: Event) -> bool:
        state.fighters[ev.fighter].flesh_wounds -= ev.amount
        return True

    attack = caused = True

    def wound(self, ev: Event) -> bool:
        return True

    def flesh_wounds(self, ev: Event) -> int:
        return ev.amount

    def describe(self, ev: Event, words: Words) -> str:
        n = f"{ev.amount} Flesh Wounds" if ev.amount != 1 else "Flesh Wound"
        return f"{words.name(ev.fighter)}: {n}{words.by(ev)}"


@event_kind
class RecoveryEvent(_FighterEvent):
    kind = "recovery"
    label = "a Seriously Injured fighter's Recovery test"

    def validate_fighter(self, state: BattleState, ev: Event, f: FighterState) -> None:
        if f.state != SERIOUSLY_INJURED:
            raise BattleError(f"{f.name} is not Seriously Injured: no Recovery test")
        if ev.result not in RECOVERY_RESULTS:
            raise BattleError(f"unknown Recovery result {ev.result!r}")

    def apply(self, state: BattleState, ev: Event) -> None:
        f = state.fighters[ev.fighter]
        if ev.result == PINNED:
            f.state = PINNED
            f.flesh_wounds += 1
            f.recoveries += 1
            f.taken_out_by = ""
            f.how = ""
        elif ev.result == OUT_OF_ACTION:
            f.state = OUT_OF_ACTION
            f.conditions = []
            f.out_at.append(state.events)

    def describe(self, ev: Event, words: Words) -> str:
        return (f"{words.name(ev.fighter)}: Recovery test, "
                f"{RECOVERY_NAMES.get(ev.result, ev.result)}")

    def recovery(self, ev: Event) -> str:
        return ev.result

    def takedown(self, ev: Event) -> str:
        return OUT_OF_ACTION if ev.result == OUT_OF_ACTION else ""

    def own_timings(self, ev: Event, f: FighterState, own: bool) -> set[str]:
        return {"own_recovery"} if own else set()


@event_kind
class ConditionEvent(_FighterEvent):
    kind = "condition"
    label = "a condition gained or lost (Broken, Blaze, Insane, or named)"

    def validate_fighter(self, state: BattleState, ev: Event, f: FighterState) -> None:
        if not ev.condition.strip():
            raise BattleError("name the condition")
        if ev.lost and ev.condition not in f.conditions:
            raise BattleError(f"{f.name} is not {ev.condition}")
        if not ev.lost and ev.condition in f.conditions:
            raise BattleError(f"{f.name} is already {ev.condition}")

    def check_new(self, state: BattleState, ev: Event) -> None:
        # no condition for a fighter off the battlefield (an Out of Action fighter's
        # conditions are cleared when they go); saved logs holding one still load
        if not ev.lost:
            f = state.fighters.get(ev.fighter)
            if f is not None and f.state in OFF_THE_BATTLEFIELD:
                raise BattleError(f"{f.name} is {STATE_NAMES[f.state]} (off the battlefield): "
                                  f"no {ev.condition} to record")

    def apply(self, state: BattleState, ev: Event) -> None:
        f = state.fighters[ev.fighter]
        if ev.lost:
            f.conditions.remove(ev.condition)
            if ev.condition == "Broken":
                f.caused["rally"] = f.caused.get("rally", 0) + 1
        else:
            f.conditions.append(ev.condition)

    def describe(self, ev: Event, words: Words) -> str:
        if ev.lost:
            return f"{words.name(ev.fighter)} {condition_data.lost_text(ev.condition)}"
        return f"{words.name(ev.fighter)}: {ev.condition}{words.by(ev)}"

    caused = True

    def condition_gained(self, ev: Event) -> str:
        return "" if ev.lost else ev.condition

    def condition_lost(self, ev: Event) -> str:
        return ev.condition if ev.lost else ""


@event_kind
class AttackEvent(_FighterEvent):
    kind = "attack"
    label = "an attack that changed nothing (e.g. a weapon used)"

    # nothing changes on the table; watchers read it

    def describe(self, ev: Event, words: Words) -> str:
        return f"{words.name(ev.fighter)} attacked{words.by(ev)}"

    def undo(self, state: BattleState, ev: Event) -> bool:
        return True

    attack = caused = True


@event_kind
class ActivateEvent(_FighterEvent):
    kind = "activate"
    label = "a fighter activates (or is un-marked)"

    def apply(self, state: BattleState, ev: Event) -> None:
        f = state.fighters[ev.fighter]
        f.activated = not f.activated

    def describe(self, ev: Event, words: Words) -> str:
        return f"{words.name(ev.fighter)} activation marked"

    def undo(self, state: BattleState, ev: Event) -> bool:
        f = state.fighters[ev.fighter]
        f.activated = not f.activated
        return True

    def activation(self, ev: Event) -> bool:
        return True

    def own_timings(self, ev: Event, f: FighterState, own: bool) -> set[str]:
        if not f.activated:
            return set()
        return {"own_activation" if own else "enemy_activation"}


@event_kind
class FailedTestEvent(EventKind):
    kind = "test_failed"
    label = "a failed test (Nerve, Cool, Willpower, Intelligence, Ammo, Bottle)"

    def validate(self, state: BattleState, ev: Event) -> None:
        if ev.test not in TESTS:
            raise BattleError(f"unknown test {ev.test!r}")
        if ev.fighter:
            _fighter(state, ev.fighter)
            if ev.gang and ev.gang not in state.sides:  # a hand-edited log
                raise BattleError(f"no gang {ev.gang!r} in this battle")
        elif ev.gang not in state.sides:
            raise BattleError("a failed test needs a fighter or a gang")

    def apply(self, state: BattleState, ev: Event) -> None:
        if ev.test == "bottle":
            gang = ev.gang or state.fighters[ev.fighter].gang
            state.sides[gang].bottle_failed += 1

    def describe(self, ev: Event, words: Words) -> str:
        who = words.name(ev.fighter) if ev.fighter else words.gang(ev.gang)
        return f"{who} failed a {TEST_NAMES.get(ev.test, ev.test)} test"

    def failed_test(self, ev: Event) -> str:
        return ev.test

    def timings(self, ev: Event, st: BattleState, gang: str, old_round: int) -> set[str]:
        return {"test_failed"} | self.fighter_timings(ev, st, gang)


@event_kind
class TacticEvent(_GangEvent):
    kind = "tactic"
    label = "a Gang Tactic played"

    def apply(self, state: BattleState, ev: Event) -> None:
        state.sides[ev.gang].tactics.append(ev.note or "Gang Tactic")

    def describe(self, ev: Event, words: Words) -> str:
        named = f": {ev.note}" if ev.note and ev.note != "Gang Tactic" else ""
        return f"{words.gang(ev.gang)} played a Gang Tactic{named}"

    def undo(self, state: BattleState, ev: Event) -> bool:
        state.sides[ev.gang].tactics.pop()
        return True

    def tactic_by(self, ev: Event) -> str:
        return ev.gang

    def timings(self, ev: Event, st: BattleState, gang: str, old_round: int) -> set[str]:
        return {"own_tactic"} if ev.gang == gang else set()


@event_kind
class XpEvent(_FighterEvent):
    kind = "xp"
    label = "XP awarded to a fighter"
    after_end = True

    def validate_fighter(self, state: BattleState, ev: Event, f: FighterState) -> None:
        if ev.amount == 0:
            raise BattleError("XP: not 0")
        if f.xp + ev.amount < 0:
            raise BattleError(f"{f.name} has only {f.xp} XP from this battle")

    def apply(self, state: BattleState, ev: Event) -> None:
        state.fighters[ev.fighter].xp += ev.amount

    def undo(self, state: BattleState, ev: Event) -> bool:
        state.fighters[ev.fighter].xp -= ev.amount
        return True

    def describe(self, ev: Event, words: Words) -> str:
        return f"{words.name(ev.fighter)}: {ev.amount:+d} XP"


@event_kind
class VpEvent(_GangEvent):
    kind = "vp"
    label = "Victory Points scored"

    def apply(self, state: BattleState, ev: Event) -> None:
        state.sides[ev.gang].vp += ev.amount

    def undo(self, state: BattleState, ev: Event) -> bool:
        state.sides[ev.gang].vp -= ev.amount
        return True

    def describe(self, ev: Event, words: Words) -> str:
        return f"{words.gang(ev.gang)}: {ev.amount:+d} VP"


@event_kind
class ReinforcementEvent(_FighterEvent):
    kind = "reinforcement"
    label = "a Reinforcement arrives (with the D6 for 9\"/12\" when rolled)"

    def validate_fighter(self, state: BattleState, ev: Event, f: FighterState) -> None:
        if f.state != NOT_DEPLOYED:
            raise BattleError(f"{f.name} is already on the battlefield")
        if ev.faces:
            if len(ev.faces) != 1 or not 1 <= ev.faces[0] <= 6:
                raise BattleError(f"a Reinforcement's arrival roll is one D6, not {list(ev.faces)}")
            if ev.distance != scenario.reinforcement_distance(ev.faces[0]):
                raise BattleError(f'a D6 of {ev.faces[0]} deploys at least '
                                  f'{scenario.reinforcement_distance(ev.faces[0])}" away, '
                                  f'not {ev.distance}"')

    def apply(self, state: BattleState, ev: Event) -> None:
        f = state.fighters[ev.fighter]
        f.state = ACTIVE
        side = state.sides[f.gang]
        if ev.fighter in side.reserves:
            side.reserves.remove(ev.fighter)
        if state.phase == END and side.step_round == state.round:
            side.arrived += 1

    def describe(self, ev: Event, words: Words) -> str:
        if ev.faces:
            return (f"{words.name(ev.fighter)} arrives (Reinforcement, {ev.dice or 'D6'} "
                    f"{ev.faces[0]}: {ev.distance}\" from enemies)")
        return f"{words.name(ev.fighter)} arrives (Reinforcement)"

    def arrival(self, ev: Event) -> bool:
        return True

    def timings(self, ev: Event, st: BattleState, gang: str, old_round: int) -> set[str]:
        return {"reinforcement"} | self.fighter_timings(ev, st, gang)


@event_kind
class ReinforcementsDueEvent(_GangEvent):
    kind = "reinforcements_due"
    label = "how many Reinforcements a gang draws in this End phase"

    def validate_gang(self, state: BattleState, ev: Event, side: SideState) -> None:
        if state.phase != END or ev.round != state.round:
            raise BattleError("Reinforcements arrive in the End phase of the current round")
        if side.step_round == state.round:
            raise BattleError(f"{side.name}: Reinforcements due this round "
                              f"are already recorded")
        if ev.amount < 0:
            raise BattleError("Reinforcements due: not below 0")

    def apply(self, state: BattleState, ev: Event) -> None:
        side = state.sides[ev.gang]
        side.step_round, side.due, side.arrived = state.round, ev.amount, 0

    def describe(self, ev: Event, words: Words) -> str:
        rolled = f" ({ev.dice} {list(ev.faces)})" if ev.faces else ""
        n = f"{ev.amount} Reinforcement" + ("" if ev.amount == 1 else "s")
        return f"{words.gang(ev.gang)}: {n} due this round{rolled}"


@event_kind
class PriorityEvent(_GangEvent):
    kind = "priority"
    label = "who won Priority"

    def apply(self, state: BattleState, ev: Event) -> None:
        state.priority = ev.gang
        state.priority_round = state.round

    def describe(self, ev: Event, words: Words) -> str:
        return f"{words.gang(ev.gang)} wins Priority"


@event_kind
class PhaseEvent(EventKind):
    kind = "phase"
    label = "a new phase or round"

    def validate(self, state: BattleState, ev: Event) -> None:
        if ev.phase not in PHASES or ev.round < 1:
            raise BattleError(f"bad phase {ev.phase!r} / round {ev.round}")

    def apply(self, state: BattleState, ev: Event) -> None:
        if ev.round != state.round:
            for f in state.fighters.values():
                f.activated = False
        state.round, state.phase = ev.round, ev.phase

    def describe(self, ev: Event, words: Words) -> str:
        return f"Round {ev.round}: {PHASE_NAMES.get(ev.phase, ev.phase)} phase"

    def new_phase(self, ev: Event) -> bool:
        return True

    def moments_before(self, ev: Event, old_round: int) -> tuple[str, ...]:
        return (ROUND_END,) if ev.round != old_round else ()

    def moments_after(self, ev: Event, old_round: int, old_phase: str) -> tuple[str, ...]:
        out = (ROUND_START,) if ev.round != old_round else ()
        return out + ((END_PHASE,) if ev.phase == END and old_phase != END else ())

    def timings(self, ev: Event, st: BattleState, gang: str, old_round: int) -> set[str]:
        out = {"round_start"} if ev.round != old_round else set()
        return out | ({"end_phase"} if ev.phase == END else set())


@event_kind
class EndEvent(EventKind):
    kind = "end"
    label = "the battle ends (winner or draw, who fled)"

    def validate(self, state: BattleState, ev: Event) -> None:
        if ev.winner and ev.winner not in state.sides:
            raise BattleError(f"no gang {ev.winner!r} in this battle")
        for g in ev.fled:
            if g not in state.sides:
                raise BattleError(f"no gang {g!r} in this battle")

    def apply(self, state: BattleState, ev: Event) -> None:
        state.ended = True
        state.winner = ev.winner
        state.fled = ev.fled
        for f in state.fighters.values():  # a gang that fled leaves its standing fighters' table
            if f.gang in ev.fled and f.state in (ACTIVE, ENGAGED, PINNED):
                f.state = FLED

    def describe(self, ev: Event, words: Words) -> str:
        won = f"{words.gang(ev.winner)} win" if ev.winner else "a draw"
        fled = f"; {', '.join(words.gang(g) for g in ev.fled)} fled" if ev.fled else ""
        return f"Battle over: {won}{fled}"

    def moments_after(self, ev: Event, old_round: int, old_phase: str) -> tuple[str, ...]:
        return (ROUND_END, BATTLE_END)

    def timings(self, ev: Event, st: BattleState, gang: str, old_round: int) -> set[str]:
        return {"battle_end"}


class _CardEvent(_GangEvent):
    """A Sub-plot card of the gang and what it gave."""

    after_end = True
    verb: ClassVar[str] = ""

    def describe(self, ev: Event, words: Words) -> str:
        got = ", ".join(reward_text(r, words.state) for r in ev.rewards) or "no reward"
        return f"{words.gang(ev.gang)} {self.verb} {words.card(ev.card)}: {got}"


@event_kind
class RevealEvent(_CardEvent):
    kind = "reveal"
    label = "a Sub-plot revealed, with its reward"
    verb = "revealed"

    def validate_gang(self, state: BattleState, ev: Event, side: SideState) -> None:
        if ev.card in side.revealed:
            raise BattleError(f"{ev.card} is already revealed")

    def apply(self, state: BattleState, ev: Event) -> None:
        side = state.sides[ev.gang]
        side.revealed.append(ev.card)
        side.revealed_at[ev.card] = state.events
        side.rewards.extend((ev.card, r) for r in ev.rewards)

    def card_rewarded(self, ev: Event) -> bool | None:
        return bool(ev.rewards)


@event_kind
class RewardEvent(_CardEvent):
    kind = "reward"
    label = "a revealed Sub-plot's reward, walked at the end"
    verb = "reward for"

    def validate_gang(self, state: BattleState, ev: Event, side: SideState) -> None:
        if ev.card not in side.revealed:
            raise BattleError(f"{ev.card} is not revealed")

    def apply(self, state: BattleState, ev: Event) -> None:
        state.sides[ev.gang].rewards.extend((ev.card, r) for r in ev.rewards)

    def card_rewarded(self, ev: Event) -> bool | None:
        return True


@event_kind
class SideJobEvent(_GangEvent):
    kind = "side_job"
    label = "a gang achieved its Side Job"
    after_end = True

    def validate_gang(self, state: BattleState, ev: Event, side: SideState) -> None:
        if side.side_job_done:
            raise BattleError(f"{side.name} have already achieved their Side Job")

    def apply(self, state: BattleState, ev: Event) -> None:
        state.sides[ev.gang].side_job_done = True

    def undo(self, state: BattleState, ev: Event) -> bool:
        state.sides[ev.gang].side_job_done = False
        return True

    def describe(self, ev: Event, words: Words) -> str:
        side = words.state.sides.get(ev.gang)
        job = f": {side.side_job}" if side and side.side_job else ""
        return f"{words.gang(ev.gang)} achieved their Side Job{job}"


#: what an event of a kind this version does not know is (nothing)
_NO_KIND = EventKind()


class _Labels(Mapping[str, str]):
    """Each registered kind's label, read from ``HANDLERS`` (never a second list)."""

    def __getitem__(self, kind: str) -> str:
        return HANDLERS[kind].label

    def __iter__(self) -> Iterator[str]:
        return iter(HANDLERS)

    def __len__(self) -> int:
        return len(HANDLERS)


#: Event kinds and what they mean (the log widget and the help screen show these).
EVENT_KINDS: Mapping[str, str] = _Labels()


def handler(kind: str) -> EventKind:
    """The handler of an event kind (BattleError for an unknown one)."""
    try:
        return HANDLERS[kind]
    except KeyError:
        raise BattleError(f"unknown event kind {kind!r}") from None


def check(state: BattleState, ev: Event) -> None:
    """Raise BattleError when ``ev`` cannot follow ``state``."""
    handler(ev.kind).check(state, ev)


def check_new(state: BattleState, ev: Event) -> None:
    """What a new event (recorded now, not one of a saved log replayed) must also meet:
    no condition for a fighter off the battlefield (an Out of Action fighter's conditions
    are cleared when they go). Saved logs holding one still load."""
    ev.of.check_new(state, ev)


def apply(state: BattleState, ev: Event) -> None:
    """Apply one (checked) event to ``state`` in place."""
    state.events += 1
    ev.of.apply(state, ev)


def describe(ev: Event, state: BattleState, card_names: dict[str, str] | None = None) -> str:
    """One line of the battle log, in the players' words (revealed cards only)."""
    return ev.of.describe(ev, Words(state, card_names))


def replay(log: Iterable[Event]) -> BattleState:
    """The state a log leads to (checking every event)."""
    state = BattleState()
    for ev in log:
        check(state, ev)
        apply(state, ev)
    return state


def next_phase_event(state: BattleState) -> Event:
    """The event that moves the battle to the next phase (End -> next round)."""
    i = PHASES.index(state.phase)
    if i + 1 < len(PHASES):
        return Event("phase", round=state.round, phase=PHASES[i + 1])
    return Event("phase", round=state.round + 1, phase=PRIORITY)


# --- the Reinforcements step of the End phase (Core Rules p142) -------------------------
#
# "Starting with the player who won Priority this round, players take turns randomly
# drawing Reinforcements from their Reinforcements deck. They continue alternating drawing
# cards until each player has either deployed the number of Reinforcements that are due to
# arrive this round, or they have run out of Model Cards in their Reinforcements deck. For
# each model drawn, a D6 is rolled." The rule's words and the D6 table are data
# (scenario/rules.toml); the step is walked as events: one ``reinforcements_due`` per gang
# (how many it draws, with the dice rolled), then one ``reinforcement`` per model drawn
# (with its D6 and distance). The state says at any time whose draw is next.


def arrival_dice() -> str:
    """The dice rolled for each Reinforcement drawn ("D6")."""
    return str(scenario.rules_text()["reinforcements"].get("arrival_dice", "D6"))


def reinforcements_due_in(setup: BattleSetup, round_: int) -> bool:
    """Whether the set-up's Reinforcements (X) rule has Reinforcements arrive in this round."""
    first = setup.reinforcements_from_round
    return bool(setup.reinforcements_each_round) and 1 <= first <= round_


def priority_order(state: BattleState) -> list[str]:
    """The gangs, the Priority winner first."""
    gangs = state.gangs
    if state.priority in gangs:
        gangs.remove(state.priority)
        gangs.insert(0, state.priority)
    return gangs


def _turn(order: Sequence[str], taken: dict[str, int], left: dict[str, int]) -> str:
    """Whose draw is next: players alternate from the first of ``order``; one who has
    none ``left`` (due met or deck out) drops out and the other goes on alone."""
    active = [g for g in order if left.get(g, 0) > 0]
    if not active:
        return ""
    return min(active, key=lambda g: (taken.get(g, 0), order.index(g)))


def draw_order(order: Sequence[str], due: dict[str, int], decks: dict[str, int]) -> list[str]:
    """The whole sequence of draws of one Reinforcements step: ``order`` starts with the
    Priority winner; each gang draws ``due`` cards or until its deck (``decks`` cards) is out."""
    left = {g: max(0, min(due.get(g, 0), decks.get(g, 0))) for g in order}
    taken: dict[str, int] = {}
    out = []
    while (g := _turn(order, taken, left)):
        out.append(g)
        taken[g] = taken.get(g, 0) + 1
        left[g] -= 1
    return out


def still_due(state: BattleState, gang: str) -> int:
    """Reinforcements the gang still draws in this round's step (0 before its due roll)."""
    side = state.sides[gang]
    if state.phase != END or side.step_round != state.round:
        return 0
    return max(0, min(side.due - side.arrived, len(side.reserves)))


def next_to_draw(state: BattleState) -> str:
    """The gang whose Reinforcement is drawn next in this End phase ("" when none)."""
    order = priority_order(state)
    taken = {g: state.sides[g].arrived for g in order}
    return _turn(order, taken, {g: still_due(state, g) for g in order})


def arrivals_this_step(log: Sequence[Event]) -> list[Event]:
    """The Reinforcements arrived since the End phase began (newest last)."""
    out = []
    for ev in reversed(log):
        if ev.new_phase:
            break
        if ev.arrival:
            out.append(ev)
    return out[::-1]


def due_roll_needed(state: BattleState, setup: BattleSetup) -> list[str]:
    """Gangs with a Reinforcements deck whose number due this round is not yet rolled
    (Priority winner first); [] outside the End phase or when none are due this round."""
    if state.ended or state.phase != END or not reinforcements_due_in(setup, state.round):
        return []
    return [g for g in priority_order(state)
            if state.sides[g].reserves and state.sides[g].step_round != state.round]


def reinforcement_step_due(state: BattleState, setup: BattleSetup) -> bool:
    """This End phase's Reinforcements step still has a roll or a draw to make."""
    if state.ended or state.phase != END:
        return False
    return bool(due_roll_needed(state, setup)) or bool(next_to_draw(state))


def needs_priority(state: BattleState, setup: BattleSetup) -> bool:
    """The step starts with the player who won Priority this round: ask when it is not
    recorded for this round and more than one gang draws."""
    if state.priority_round == state.round and state.priority:
        return False
    return len(due_roll_needed(state, setup)) > 1


def due_event(gang: str, round_: int, r: Roll) -> Event:
    """How many Reinforcements ``gang`` draws this round, from the Crew table's dice."""
    return Event("reinforcements_due", gang=gang, round=round_, amount=r.total,
                 dice=r.expression, faces=tuple(r.faces))


def draw_at_random(state: BattleState, gang: str, rng: random.Random) -> str:
    """A model card drawn at random from the gang's Reinforcements deck (its fighter key)."""
    deck = state.sides[gang].reserves
    if not deck:
        raise BattleError(f"{state.sides[gang].name} have no Reinforcements left")
    return rng.choice(deck)


def arrival_event(fighter: str, d6: int) -> Event:
    """The drawn model arrives; the D6 says how far from all enemy models (3+: 9", 1-2: 12")."""
    try:
        distance = scenario.reinforcement_distance(d6)
    except ValueError as error:
        raise BattleError(str(error)) from None
    return Event("reinforcement", fighter=fighter, dice=arrival_dice(), faces=(d6,),
                 distance=distance)


def reward_text(r: Reward, state: BattleState | None = None) -> str:
    what = {"reputation": "Reputation", "credits": "credits", "xp": "XP",
            "gang_tactics": "Gang Tactics", "other": ""}.get(r.kind, r.kind)
    text = f"{r.amount} {what}".strip() if r.kind != "other" else (r.note or "other")
    if r.fighter == "*":
        text += " to every fighter"
    elif r.fighter:
        text += f" to {state.name_of(r.fighter) if state else r.fighter}"
    if r.note and r.kind != "other":
        text += f" ({r.note})"
    return text


# --- the tracker's model --------------------------------------------------------------


class Battle:
    """A log with undo/redo, its replayed state kept up to date incrementally."""

    def __init__(self, log: Sequence[Event] = (), redo: Sequence[Event] = ()) -> None:
        self.log: list[Event] = list(log)
        self.redo_stack: list[Event] = list(redo)
        self.state = replay(self.log)
        self.revision = 0  # bumped on every change (screens cache on it)
        self._data_cache: dict[Event, dict[str, Any]] = {}
        # the log's events as plain data, kept beside the log (events never change: a
        # key's save costs what the key changed, not the log's length)
        self._log_data: list[dict[str, Any]] = []

    def record(self, ev: Event) -> BattleState:
        check(self.state, ev)
        check_new(self.state, ev)
        apply(self.state, ev)
        self.log.append(ev)
        self.redo_stack.clear()
        self.revision += 1
        return self.state

    @property
    def can_undo(self) -> bool:
        return len(self.log) > 1  # never undo the start

    @property
    def can_redo(self) -> bool:
        return bool(self.redo_stack)

    def undo(self) -> Event | None:
        if not self.can_undo:
            return None
        ev = self.log.pop()
        del self._log_data[len(self.log):]
        self.redo_stack.append(ev)
        if ev.of.undo(self.state, ev):  # the kind takes itself back out
            self.state.events -= 1
        else:
            self.state = replay(self.log)
        self.revision += 1
        return ev

    def redo(self) -> Event | None:
        if not self.redo_stack:
            return None
        ev = self.redo_stack[-1]
        check(self.state, ev)
        self.redo_stack.pop()
        apply(self.state, ev)
        self.log.append(ev)
        self.revision += 1
        return ev

    def to_data(self) -> dict[str, Any]:
        """Plain data; each event's dict is cached (events never change)."""
        cache, done, log = self._data_cache, self._log_data, self.log
        n = len(done)
        if n > len(log) or (n and done[-1] is not cache.get(log[n - 1])):
            del done[:]  # (the log changed under it: made again from the cache)
            n = 0
        for e in log[n:]:
            d = cache.get(e)
            if d is None:
                d = cache[e] = e.to_data()
            done.append(d)
        return {
            "log": list(done),
            "redo": [e.to_data() for e in self.redo_stack],
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "Battle":
        return cls(
            [Event.from_data(e) for e in data.get("log", [])],
            [Event.from_data(e) for e in data.get("redo", [])],
        )

    @classmethod
    def load(cls, data: dict[str, Any]) -> tuple["Battle", list[dict[str, Any]], str]:
        """A battle from a file that may have been edited by hand: the events that
        replay, the raw events from the first one that does not (kept, not lost), and
        what is wrong with it ("" when all is well)."""
        raw = list(data.get("log", []))
        state = BattleState()
        log: list[Event] = []
        for i, item in enumerate(raw):
            try:
                ev = Event.from_data(item)
                check(state, ev)
            except (BattleError, KeyError, TypeError, ValueError) as error:
                kind = item.get("kind", "?") if isinstance(item, dict) else repr(item)
                return cls(log), raw[i:], f"event {i + 1} ({kind}): {error}"
            apply(state, ev)
            log.append(ev)
        try:
            redo = [Event.from_data(e) for e in data.get("redo", [])]
        except (KeyError, TypeError, ValueError):
            redo = []
        return cls(log, redo), [], ""


# --- set-up ---------------------------------------------------------------------------


def default_setup(campaign: Campaign, number: int, challenger: str, challenged: str) -> BattleSetup:
    """A quick battle: every fighter able to fight, no Reinforcements, no Sub-plots."""
    sides = []
    for gid in (challenger, challenged):
        gang = campaign.gang(gid)
        sides.append(
            SideSetup(
                gang=gid,
                crew_method="Quick battle (whole gang)",
                crew=[CrewMember(f.id) for f in gang.eligible_fighters()],
            )
        )
    return BattleSetup(
        number=number, challenger=challenger, challenged=challenged,
        sides=sides, step="quick", complete=True,
    )


def _entry(gang: Gang, member: CrewMember, reserve: bool) -> RosterEntry:
    try:
        f: Fighter = gang.fighter(member.fighter)
        return RosterEntry(f.id, f.name, f.type.value, f.label, reserve, int(f.rating or 0))
    except KeyError:
        return RosterEntry(member.fighter, member.fighter, FighterType.GANGER.value, "", reserve)


def start_event(setup: BattleSetup, campaign: Campaign) -> Event:
    """The first event of a battle: both crews (and Reinforcement decks) from the set-up."""
    sides = []
    for s in setup.sides:
        gang = campaign.gang(s.gang)
        entries = [_entry(gang, m, False) for m in s.crew]
        entries += [_entry(gang, m, True) for m in s.reinforcements]
        sides.append(
            SideRoster(gang.id, gang.name, gang.type.value, tuple(entries), s.side_job)
        )
    return Event("start", sides=tuple(sides))


def hands_of(setup: BattleSetup) -> dict[str, list[str]]:
    return {s.gang: list(s.hand) for s in setup.sides}


# --- the outcome ----------------------------------------------------------------------

_END_STATES = {
    ACTIVE: EndState.STANDING,
    ENGAGED: EndState.STANDING,
    PINNED: EndState.STANDING,
    SERIOUSLY_INJURED: EndState.SERIOUSLY_INJURED,
    OUT_OF_ACTION: EndState.OUT_OF_ACTION,
    NOT_DEPLOYED: EndState.NOT_DEPLOYED,
    FLED: EndState.FLED,
}


def outcome(
    state: BattleState,
    setup: BattleSetup,
    card_names: dict[str, str] | None = None,
    data: Any = None,
) -> BattleOutcome:
    """What the battle hands to the post-battle sequence (nothing applied to gangs)."""
    from ..subplots.effects import fixed_injuries, two_injury_rolls
    from ..subplots.decks import shown_before_round_1

    names = card_names or {}
    twice = two_injury_rolls(state)
    fixed = fixed_injuries(state)
    fighters = []
    for f in state.fighters.values():
        end = _END_STATES[f.state]
        if f.gang in state.fled and end is EndState.STANDING:
            end = EndState.FLED
        by = f.taken_out_by
        fighters.append(
            FighterOutcome(
                gang=f.gang,
                fighter=f.id,
                end_state=end,
                xp=f.xp,
                taken_out_by=by,
                caused=dict(f.caused),
                how=f.how if end in (EndState.SERIOUSLY_INJURED, EndState.OUT_OF_ACTION) else "",
                injury_rolls=2 if f.key in twice else 1,
                injury_rolls_why=names.get(twice[f.key], twice[f.key]) if f.key in twice else "",
                injury_result=fixed[f.key][0] if f.key in fixed else "",
                injury_result_why=names.get(fixed[f.key][1], fixed[f.key][1]) if f.key in fixed else "",
            )
        )
    rewards = []
    revealed = []
    revealed_by: dict[str, list[str]] = {}
    for s in setup.sides:  # shown at Choose Crew or in the start-of-the-battle walk
        if s.gang in state.sides:
            revealed_by[s.gang] = shown_before_round_1(s.hand, s.subplot_choices, data)
    for side in state.sides.values():
        mine = revealed_by.setdefault(side.gang, [])
        mine += [c for c in side.revealed if c not in mine]
    for side in state.sides.values():
        revealed += revealed_by[side.gang]
        for card, r in side.rewards:
            fighter = r.fighter.split("/", 1)[1] if "/" in r.fighter else r.fighter
            rewards.append(
                BankedReward(
                    gang=side.gang,
                    kind=RewardKind(r.kind),
                    amount=r.amount,
                    source=f"Sub-plot: {names.get(card, card)}",
                    fighter=fighter,
                    dice=r.dice,
                    faces=list(r.faces),
                    note=r.note,
                )
            )
    for side in state.sides.values():
        if side.side_job_done:
            rewards.append(
                BankedReward(
                    gang=side.gang,
                    kind=RewardKind.OTHER,
                    amount=0,
                    source=f"Side Job: {side.side_job or 'Side Job'}",
                    note="achieved; its reward depends on the campaign phase: enter it",
                )
            )
    return BattleOutcome(
        battle=setup.number,
        gangs=[s.gang for s in setup.sides] or list(state.sides),
        winner=state.winner,
        scenario=setup.objective,
        battlefield=setup.battlefield,
        rounds=state.round,
        fighters=fighters,
        rewards=rewards,
        subplots_revealed=revealed,
        subplots_revealed_by={g: cs for g, cs in revealed_by.items() if cs},
        takes_prisoners={s.gang: s.takes_prisoners for s in setup.sides},
    )


def outcome_to_data(o: BattleOutcome) -> dict[str, Any]:
    """Plain data for the battle file (enums as their values)."""
    d = asdict(o)
    for f in d["fighters"]:
        f["end_state"] = str(f["end_state"])
    for r in d["rewards"]:
        r["kind"] = str(r["kind"])
    return d


def outcome_from_data(d: dict[str, Any]) -> BattleOutcome:
    d = dict(d)
    fighters = [
        FighterOutcome(**{**f, "end_state": EndState(f.get("end_state", "standing"))})
        for f in d.pop("fighters", [])
    ]
    rewards = [BankedReward(**{**r, "kind": RewardKind(r["kind"])}) for r in d.pop("rewards", [])]
    known = {f.name for f in fields(BattleOutcome)}
    return BattleOutcome(fighters=fighters, rewards=rewards, **{k: v for k, v in d.items() if k in known})


__all__ = [
    "EVENT_KINDS", "HANDLERS", "Battle", "BattleError", "BattleState", "Event", "EventKind",
    "FighterState", "Reward", "RosterEntry", "Words", "check_new", "event_kind", "handler",
    "SideRoster", "SideState", "apply", "arrival_dice", "arrival_event", "check", "draw_at_random",
    "arrivals_this_step", "draw_order", "due_event", "due_roll_needed", "needs_priority", "next_to_draw",
    "priority_order", "reinforcements_due_in", "reinforcement_step_due", "still_due", "default_setup",
    "describe", "reward_text", "hands_of", "next_phase_event", "outcome",
    "outcome_from_data", "outcome_to_data", "replay", "start_event",
]


def __getattr__(name: str) -> Any:
    # CONDITIONS: the condition names of data/conditions.toml, read when first asked for
    if name == "CONDITIONS":
        return condition_data.names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
