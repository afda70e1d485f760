"""The live battle: events as data, and the replay that turns a log into state.

A battle is an append-only list of :class:`Event` (each kind its own frozen type, a
tagged union ``AnyEvent``). Its state is always the
log replayed from the first event (``start``, which carries both crews), never
edited by hand: undo drops the last event, redo puts it back.

Fighters are named by key ``"<gang id>/<fighter id>"`` everywhere in the log.

The battle file's ``battle`` table (owned by the tracker) holds
``{"log": [...], "redo": [...], "outcome": {...}}`` (see :meth:`Battle.to_data`: each
event written by the one codec, :func:`event_to_data` / :func:`event_from_data`;
``outcome`` is :func:`outcome_to_data` of the ``BattleOutcome``, written when the
battle is finished; ``rejected`` keeps events of a hand-edited log that no longer
replay, see :meth:`Battle.load`).

Each event kind is one frozen struct (its label, its fields, its checks, what it changes,
how it is taken back, its log line, and what it is to those who watch the log: a
takedown, a wound, a reminder timing, a moment of the battle), listed once in
``AnyEvent``; ``check``, ``apply``, ``describe`` and an event's own questions
(``ev.takedown``, ``ev.timings(...)``) reach it, so a new kind is one class.

Sub-plot hands stay in the ``setup`` table and are watched by
:mod:`munda_tui.rules.battle.watch`.
"""

from __future__ import annotations


import pickle
import random
import typing
from dataclasses import asdict, dataclass, field, fields
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar, Iterable, Sequence, Union

import msgspec

from . import conditions as condition_data
from ..prebattle import scenario as scenario
from ..core import typed
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
#
# Each event kind is its own frozen struct below (``StateEvent``, ``PhaseEvent`` ...), a
# subclass of :class:`Event`, tagged on disk by its ``kind``: its label (the log widget and
# the help screen show it), its fields, what it must meet to follow a state (``validate``;
# ``check_new`` for what only a newly recorded event must meet), what it changes
# (``apply``), how it is taken back (``undo``), its line in the log (``describe``) and what
# it is to those who watch the log. ``AnyEvent`` is their union; :func:`event_to_data` and
# :func:`event_from_data` (the one codec, :mod:`munda_tui.rules.core.typed`) write and read
# every kind: the kind first, then the fields the kind sets, in the order declared, those
# at their default left out (as the battle files have always been written).


class Reward(msgspec.Struct, frozen=True, omit_defaults=True):
    """A reward rolled or entered during the battle (banked, applied post-battle)."""

    kind: str  # RewardKind value
    amount: int
    fighter: str = ""  # fighter key for XP; "*" for every fighter of the crew
    dice: str = ""
    faces: tuple[int, ...] = ()
    note: str = ""


class RosterEntry(msgspec.Struct, frozen=True, omit_defaults=True):
    id: str
    name: str
    type: str  # a FighterType value (always written)
    label: str = ""
    reserve: bool = False  # in the Reinforcements deck, not deployed
    cost: int = 0  # the fighter's Credits value at the start (0: not recorded)


class SideRoster(msgspec.Struct, frozen=True):
    gang: str
    name: str
    house: str = ""
    fighters: tuple[RosterEntry, ...] = ()
    side_job: str = ""


class Event(msgspec.Struct, frozen=True, tag_field="kind", omit_defaults=True):
    """One thing that happened: one of the kinds below (``AnyEvent``). The base says what
    an event is when its kind does not (nothing), so the log's readers (the Sub-plot
    watchers, the log lines) ask any event the same questions; the base refuses any event
    before the start and, unless ``after_end``, after the end."""

    #: what the log widget and the help screen say the kind is
    label: ClassVar[str] = ""
    #: may still be recorded once the battle is over
    after_end: ClassVar[bool] = False

    @property
    def kind(self) -> str:
        """The event's kind (its tag on disk)."""
        return str(type(self).__struct_config__.tag)

    # --- the fields the log's readers ask of any event ("" / () where a kind has none) ---

    @property
    def fighter(self) -> str:
        """The fighter key ("gang/fighter") the event is about."""
        return ""

    @property
    def gang(self) -> str:
        """The gang the event is of."""
        return ""

    @property
    def attacker(self) -> str:
        """The fighter key of who caused it (an attack, Broken by whom)."""
        return ""

    @property
    def action(self) -> str:
        """How (one of ACTIONS)."""
        return ""

    @property
    def traits(self) -> tuple[str, ...]:
        """The weapon traits of the attack."""
        return ()

    @property
    def card(self) -> str:
        """The Sub-plot card revealed or rewarded."""
        return ""

    # --- what the kind checks, changes and says ----------------------------------------

    def check(self, state: BattleState) -> None:
        """Raise BattleError when this event cannot follow ``state``."""
        if not state.events:
            raise BattleError("the battle has not started")
        if state.ended and not self.after_end:
            raise BattleError("the battle is over: only Sub-plot reveals and rewards, XP and "
                              "Side Jobs can follow")
        self.validate(state)

    def validate(self, state: BattleState) -> None:
        """What this kind's fields must meet in ``state`` (BattleError otherwise)."""

    def check_new(self, state: BattleState) -> None:
        """What a new event (logged now, not one of a saved log replayed) must also meet."""

    def apply(self, state: BattleState) -> None:
        """Change ``state`` in place (``state.events`` already counts this event)."""

    def describe(self, words: Words) -> str:
        """One line of the battle log, in the players' words."""
        return self.kind

    def undo(self, state: BattleState) -> bool:
        """Take this event (the last applied) back out of ``state`` in place: True when
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

    @property
    def is_attack(self) -> bool:
        """An attack on the fighter (a takedown, a wound, or an attack that changed nothing)."""
        return self.attack

    @property
    def put_in(self) -> str:
        """The state the event puts its fighter in by a state change ("" for none)."""
        return ""

    @property
    def takedown(self) -> str:
        """The down state (Seriously Injured, Out of Action) the event puts its fighter in
        ("" if none)."""
        return ""

    @property
    def wound(self) -> bool:
        """The fighter was wounded: a Flesh Wound, or Seriously Injured / Out of Action."""
        return False

    @property
    def flesh_wounds(self) -> int:
        """Flesh Wounds suffered in one hit (0: none, or not from a hit)."""
        return 0

    @property
    def recovery(self) -> str:
        """A Recovery test's result ("" for any other event)."""
        return ""

    @property
    def condition_gained(self) -> str:
        return ""

    @property
    def condition_lost(self) -> str:
        return ""

    @property
    def failed_test(self) -> str:
        """The test failed ("" for any other event)."""
        return ""

    @property
    def tactic_by(self) -> str:
        """The gang that played a Gang Tactic ("" for any other event)."""
        return ""

    @property
    def activation(self) -> bool:
        """An activation marked (or un-marked)."""
        return False

    @property
    def new_phase(self) -> bool:
        return False

    @property
    def arrival(self) -> bool:
        """A Reinforcement arrives."""
        return False

    @property
    def card_rewarded(self) -> bool | None:
        """For a Sub-plot revealed or its reward walked: whether a reward was recorded;
        None for any other event."""
        return None

    def moments_before(self, old_round: int) -> tuple[str, ...]:
        """The moments of the battle that end with this event, before it is seen (the
        round before a new round's first phase), in order."""
        return ()

    def moments_after(self, old_round: int, old_phase: str) -> tuple[str, ...]:
        """The moments of the battle this event begins or ends, after it is seen."""
        return ()

    def timings(self, st: BattleState, gang: str, old_round: int) -> set[str]:
        """The reminder timings (``watch.TIMINGS``) this event, applied to ``st``, is for
        the cards of ``gang``."""
        return self.fighter_timings(st, gang)

    def fighter_timings(self, st: BattleState, gang: str) -> set[str]:
        """The timings of an event about a fighter: a takedown, an attack by or on one of
        the gang's fighters, and what the kind itself adds (:meth:`own_timings`)."""
        f = st.fighters.get(self.fighter)
        if f is None:
            return set()
        own = f.gang == gang
        out = self.own_timings(f, own)
        if self.takedown:
            out.add("own_takedown" if own else "enemy_takedown")
        a = st.fighters.get(self.attacker)
        if a is not None and self.caused:
            if a.gang == gang and not own:
                out.add("own_attack")
            elif a.gang != gang and own:
                out.add("enemy_attack")
        return out

    def own_timings(self, f: FighterState, own: bool) -> set[str]:
        """The timings this kind adds for its fighter ``f`` (``own``: the gang's)."""
        return set()



#: moments of the battle (the Sub-plot watchers are told of each, after its event)
BATTLE_START = "battle_start"
ROUND_START = "round_start"
ROUND_END = "round_end"
END_PHASE = "end_phase"
BATTLE_END = "battle_end"


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


class _FighterEvent(Event, frozen=True):
    """An event on one fighter (and maybe the attacker who caused it, and how)."""

    fighter: str = ""  # fighter key "gang/fighter"

    def validate(self, state: BattleState) -> None:
        f = _fighter(state, self.fighter)
        if self.attacker:
            _fighter(state, self.attacker)
        if self.action and self.action not in ACTIONS:
            raise BattleError(f"unknown action {self.action!r}")
        self.validate_fighter(state, f)

    def validate_fighter(self, state: BattleState, f: FighterState) -> None:
        """What the event must meet for this fighter."""


class _GangEvent(Event, frozen=True):
    """An event of one gang of the battle."""

    gang: str = ""

    def validate(self, state: BattleState) -> None:
        if self.gang not in state.sides:
            raise BattleError(f"no gang {self.gang!r} in this battle")
        self.validate_gang(state, state.sides[self.gang])

    def validate_gang(self, state: BattleState, side: SideState) -> None:
        """What the event must meet for this gang."""


class StartEvent(Event, frozen=True, tag="start"):
    sides: tuple[SideRoster, ...] = ()
    label = "the battle starts: both crews"

    def check(self, state: BattleState) -> None:
        if state.events:
            raise BattleError("the battle has already started")
        if len(self.sides) != 2:
            raise BattleError("a battle needs two sides")

    def apply(self, state: BattleState) -> None:
        state.round, state.phase = 1, PRIORITY
        for side in self.sides:
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

    def describe(self, words: Words) -> str:
        return "Battle starts: " + " vs ".join(s.name for s in self.sides)

    seen = False

    def moments_after(self, old_round: int, old_phase: str) -> tuple[str, ...]:
        return (BATTLE_START,)

    def timings(self, st: BattleState, gang: str, old_round: int) -> set[str]:
        return {"battle_start"}


class StateEvent(_FighterEvent, frozen=True, tag="state"):
    state: str = ""  # the new state
    attacker: str = ""  # fighter key of the attacker, "" when skipped
    action: str = ""  # one of ACTIONS
    traits: tuple[str, ...] = ()
    label = "a fighter's state changes (optional attacker, action, weapon traits)"

    def validate_fighter(self, state: BattleState, f: FighterState) -> None:
        if self.state not in STATES:
            raise BattleError(f"unknown state {self.state!r}")
        if self.state == f.state:
            raise BattleError(f"{f.name} is already {STATE_NAMES[f.state]}")

    def apply(self, state: BattleState) -> None:
        f = state.fighters[self.fighter]
        f.state = self.state
        if self.state in DOWN:
            _take_down(state, f, self)
        elif self.state in (ACTIVE, ENGAGED, PINNED):
            f.taken_out_by = ""
            f.how = ""
        if self.state == OUT_OF_ACTION or self.state == FLED:
            f.conditions = []
        if self.state == OUT_OF_ACTION:
            f.out_at.append(state.events)

    def describe(self, words: Words) -> str:
        return f"{words.name(self.fighter)}: {STATE_NAMES.get(self.state, self.state)}{words.by(self)}"

    attack = caused = True

    @property
    def put_in(self) -> str:
        return self.state

    @property
    def takedown(self) -> str:
        return self.state if self.state in DOWN else ""

    @property
    def wound(self) -> bool:
        return self.state in DOWN


class FleshWoundEvent(_FighterEvent, frozen=True, tag="flesh_wound"):
    attacker: str = ""
    action: str = ""
    traits: tuple[str, ...] = ()
    amount: int = 0
    label = "a fighter suffers Flesh Wounds"

    def validate_fighter(self, state: BattleState, f: FighterState) -> None:
        if self.amount < 1:
            raise BattleError("Flesh Wounds: at least 1")

    def apply(self, state: BattleState) -> None:
        state.fighters[self.fighter].flesh_wounds += self.amount

    def undo(self, state: BattleState) -> bool:
        state.fighters[self.fighter].flesh_wounds -= self.amount
        return True

    attack = caused = True

    @property
    def wound(self) -> bool:
        return True

    @property
    def flesh_wounds(self) -> int:
        return self.amount

    def describe(self, words: Words) -> str:
        n = f"{self.amount} Flesh Wounds" if self.amount != 1 else "Flesh Wound"
        return f"{words.name(self.fighter)}: {n}{words.by(self)}"


class RecoveryEvent(_FighterEvent, frozen=True, tag="recovery"):
    result: str = ""  # PINNED, SERIOUSLY_INJURED or OUT_OF_ACTION
    label = "a Seriously Injured fighter's Recovery test"

    def validate_fighter(self, state: BattleState, f: FighterState) -> None:
        if f.state != SERIOUSLY_INJURED:
            raise BattleError(f"{f.name} is not Seriously Injured: no Recovery test")
        if self.result not in RECOVERY_RESULTS:
            raise BattleError(f"unknown Recovery result {self.result!r}")

    def apply(self, state: BattleState) -> None:
        f = state.fighters[self.fighter]
        if self.result == PINNED:
            f.state = PINNED
            f.flesh_wounds += 1
            f.recoveries += 1
            f.taken_out_by = ""
            f.how = ""
        elif self.result == OUT_OF_ACTION:
            f.state = OUT_OF_ACTION
            f.conditions = []
            f.out_at.append(state.events)

    def describe(self, words: Words) -> str:
        return (f"{words.name(self.fighter)}: Recovery test, "
                f"{RECOVERY_NAMES.get(self.result, self.result)}")

    @property
    def recovery(self) -> str:
        return self.result

    @property
    def takedown(self) -> str:
        return OUT_OF_ACTION if self.result == OUT_OF_ACTION else ""

    def own_timings(self, f: FighterState, own: bool) -> set[str]:
        return {"own_recovery"} if own else set()


class ConditionEvent(_FighterEvent, frozen=True, tag="condition"):
    attacker: str = ""
    action: str = ""
    traits: tuple[str, ...] = ()
    condition: str = ""
    lost: bool = False  # lost (rally from Broken) instead of gained
    label = "a condition gained or lost (Broken, Blaze, Insane, or named)"

    def validate_fighter(self, state: BattleState, f: FighterState) -> None:
        if not self.condition.strip():
            raise BattleError("name the condition")
        if self.lost and self.condition not in f.conditions:
            raise BattleError(f"{f.name} is not {self.condition}")
        if not self.lost and self.condition in f.conditions:
            raise BattleError(f"{f.name} is already {self.condition}")

    def check_new(self, state: BattleState) -> None:
        # no condition for a fighter off the battlefield (an Out of Action fighter's
        # conditions are cleared when they go); saved logs holding one still load
        if not self.lost:
            f = state.fighters.get(self.fighter)
            if f is not None and f.state in OFF_THE_BATTLEFIELD:
                raise BattleError(f"{f.name} is {STATE_NAMES[f.state]} (off the battlefield): "
                                  f"no {self.condition} to record")

    def apply(self, state: BattleState) -> None:
        f = state.fighters[self.fighter]
        if self.lost:
            f.conditions.remove(self.condition)
            if self.condition == "Broken":
                f.caused["rally"] = f.caused.get("rally", 0) + 1
        else:
            f.conditions.append(self.condition)

    def describe(self, words: Words) -> str:
        if self.lost:
            return f"{words.name(self.fighter)} {condition_data.lost_text(self.condition)}"
        return f"{words.name(self.fighter)}: {self.condition}{words.by(self)}"

    caused = True

    @property
    def condition_gained(self) -> str:
        return "" if self.lost else self.condition

    @property
    def condition_lost(self) -> str:
        return self.condition if self.lost else ""


class AttackEvent(_FighterEvent, frozen=True, tag="attack"):
    attacker: str = ""
    action: str = ""
    traits: tuple[str, ...] = ()
    label = "an attack that changed nothing (e.g. a weapon used)"

    # nothing changes on the table; watchers read it

    def describe(self, words: Words) -> str:
        return f"{words.name(self.fighter)} attacked{words.by(self)}"

    def undo(self, state: BattleState) -> bool:
        return True

    attack = caused = True


class ActivateEvent(_FighterEvent, frozen=True, tag="activate"):
    label = "a fighter activates (or is un-marked)"

    def apply(self, state: BattleState) -> None:
        f = state.fighters[self.fighter]
        f.activated = not f.activated

    def describe(self, words: Words) -> str:
        return f"{words.name(self.fighter)} activation marked"

    def undo(self, state: BattleState) -> bool:
        f = state.fighters[self.fighter]
        f.activated = not f.activated
        return True

    @property
    def activation(self) -> bool:
        return True

    def own_timings(self, f: FighterState, own: bool) -> set[str]:
        if not f.activated:
            return set()
        return {"own_activation" if own else "enemy_activation"}


class FailedTestEvent(Event, frozen=True, tag="test_failed"):
    fighter: str = ""  # "" for a gang's test (Bottle)
    gang: str = ""
    test: str = ""  # one of TESTS
    label = "a failed test (Nerve, Cool, Willpower, Intelligence, Ammo, Bottle)"

    def validate(self, state: BattleState) -> None:
        if self.test not in TESTS:
            raise BattleError(f"unknown test {self.test!r}")
        if self.fighter:
            _fighter(state, self.fighter)
            if self.gang and self.gang not in state.sides:  # a hand-edited log
                raise BattleError(f"no gang {self.gang!r} in this battle")
        elif self.gang not in state.sides:
            raise BattleError("a failed test needs a fighter or a gang")

    def apply(self, state: BattleState) -> None:
        if self.test == "bottle":
            gang = self.gang or state.fighters[self.fighter].gang
            state.sides[gang].bottle_failed += 1

    def describe(self, words: Words) -> str:
        who = words.name(self.fighter) if self.fighter else words.gang(self.gang)
        return f"{who} failed a {TEST_NAMES.get(self.test, self.test)} test"

    @property
    def failed_test(self) -> str:
        return self.test

    def timings(self, st: BattleState, gang: str, old_round: int) -> set[str]:
        return {"test_failed"} | self.fighter_timings(st, gang)


class TacticEvent(_GangEvent, frozen=True, tag="tactic"):
    note: str = ""  # the Gang Tactic's name
    label = "a Gang Tactic played"

    def apply(self, state: BattleState) -> None:
        state.sides[self.gang].tactics.append(self.note or "Gang Tactic")

    def describe(self, words: Words) -> str:
        named = f": {self.note}" if self.note and self.note != "Gang Tactic" else ""
        return f"{words.gang(self.gang)} played a Gang Tactic{named}"

    def undo(self, state: BattleState) -> bool:
        state.sides[self.gang].tactics.pop()
        return True

    @property
    def tactic_by(self) -> str:
        return self.gang

    def timings(self, st: BattleState, gang: str, old_round: int) -> set[str]:
        return {"own_tactic"} if self.gang == gang else set()


class XpEvent(_FighterEvent, frozen=True, tag="xp"):
    amount: int = 0
    label = "XP awarded to a fighter"
    after_end = True

    def validate_fighter(self, state: BattleState, f: FighterState) -> None:
        if self.amount == 0:
            raise BattleError("XP: not 0")
        if f.xp + self.amount < 0:
            raise BattleError(f"{f.name} has only {f.xp} XP from this battle")

    def apply(self, state: BattleState) -> None:
        state.fighters[self.fighter].xp += self.amount

    def undo(self, state: BattleState) -> bool:
        state.fighters[self.fighter].xp -= self.amount
        return True

    def describe(self, words: Words) -> str:
        return f"{words.name(self.fighter)}: {self.amount:+d} XP"


class VpEvent(_GangEvent, frozen=True, tag="vp"):
    amount: int = 0
    label = "Victory Points scored"

    def apply(self, state: BattleState) -> None:
        state.sides[self.gang].vp += self.amount

    def undo(self, state: BattleState) -> bool:
        state.sides[self.gang].vp -= self.amount
        return True

    def describe(self, words: Words) -> str:
        return f"{words.gang(self.gang)}: {self.amount:+d} VP"


class ReinforcementEvent(_FighterEvent, frozen=True, tag="reinforcement"):
    dice: str = ""  # the dice rolled for the arrival ("D6")
    faces: tuple[int, ...] = ()  # the face rolled (by the app or entered from real dice)
    distance: int = 0  # inches from all enemy models (9 or 12)
    label = "a Reinforcement arrives (with the D6 for 9\"/12\" when rolled)"

    def validate_fighter(self, state: BattleState, f: FighterState) -> None:
        if f.state != NOT_DEPLOYED:
            raise BattleError(f"{f.name} is already on the battlefield")
        if self.faces:
            if len(self.faces) != 1 or not 1 <= self.faces[0] <= 6:
                raise BattleError(f"a Reinforcement's arrival roll is one D6, not {list(self.faces)}")
            if self.distance != scenario.reinforcement_distance(self.faces[0]):
                raise BattleError(f'a D6 of {self.faces[0]} deploys at least '
                                  f'{scenario.reinforcement_distance(self.faces[0])}" away, '
                                  f'not {self.distance}"')

    def apply(self, state: BattleState) -> None:
        f = state.fighters[self.fighter]
        f.state = ACTIVE
        side = state.sides[f.gang]
        if self.fighter in side.reserves:
            side.reserves.remove(self.fighter)
        if state.phase == END and side.step_round == state.round:
            side.arrived += 1

    def describe(self, words: Words) -> str:
        if self.faces:
            return (f"{words.name(self.fighter)} arrives (Reinforcement, {self.dice or 'D6'} "
                    f"{self.faces[0]}: {self.distance}\" from enemies)")
        return f"{words.name(self.fighter)} arrives (Reinforcement)"

    @property
    def arrival(self) -> bool:
        return True

    def timings(self, st: BattleState, gang: str, old_round: int) -> set[str]:
        return {"reinforcement"} | self.fighter_timings(st, gang)


class ReinforcementsDueEvent(_GangEvent, frozen=True, tag="reinforcements_due"):
    amount: int = 0
    round: int = 0
    dice: str = ""
    faces: tuple[int, ...] = ()
    label = "how many Reinforcements a gang draws in this End phase"

    def validate_gang(self, state: BattleState, side: SideState) -> None:
        if state.phase != END or self.round != state.round:
            raise BattleError("Reinforcements arrive in the End phase of the current round")
        if side.step_round == state.round:
            raise BattleError(f"{side.name}: Reinforcements due this round "
                              f"are already recorded")
        if self.amount < 0:
            raise BattleError("Reinforcements due: not below 0")

    def apply(self, state: BattleState) -> None:
        side = state.sides[self.gang]
        side.step_round, side.due, side.arrived = state.round, self.amount, 0

    def describe(self, words: Words) -> str:
        rolled = f" ({self.dice} {list(self.faces)})" if self.faces else ""
        n = f"{self.amount} Reinforcement" + ("" if self.amount == 1 else "s")
        return f"{words.gang(self.gang)}: {n} due this round{rolled}"


class PriorityEvent(_GangEvent, frozen=True, tag="priority"):
    label = "who won Priority"

    def apply(self, state: BattleState) -> None:
        state.priority = self.gang
        state.priority_round = state.round

    def describe(self, words: Words) -> str:
        return f"{words.gang(self.gang)} wins Priority"


class PhaseEvent(Event, frozen=True, tag="phase"):
    round: int = 0
    phase: str = ""
    label = "a new phase or round"

    def validate(self, state: BattleState) -> None:
        if self.phase not in PHASES or self.round < 1:
            raise BattleError(f"bad phase {self.phase!r} / round {self.round}")

    def apply(self, state: BattleState) -> None:
        if self.round != state.round:
            for f in state.fighters.values():
                f.activated = False
        state.round, state.phase = self.round, self.phase

    def describe(self, words: Words) -> str:
        return f"Round {self.round}: {PHASE_NAMES.get(self.phase, self.phase)} phase"

    @property
    def new_phase(self) -> bool:
        return True

    def moments_before(self, old_round: int) -> tuple[str, ...]:
        return (ROUND_END,) if self.round != old_round else ()

    def moments_after(self, old_round: int, old_phase: str) -> tuple[str, ...]:
        out = (ROUND_START,) if self.round != old_round else ()
        return out + ((END_PHASE,) if self.phase == END and old_phase != END else ())

    def timings(self, st: BattleState, gang: str, old_round: int) -> set[str]:
        out = {"round_start"} if self.round != old_round else set()
        return out | ({"end_phase"} if self.phase == END else set())


class EndEvent(Event, frozen=True, tag="end"):
    winner: str = ""
    fled: tuple[str, ...] = ()  # gangs whose fighters fled
    label = "the battle ends (winner or draw, who fled)"

    def validate(self, state: BattleState) -> None:
        if self.winner and self.winner not in state.sides:
            raise BattleError(f"no gang {self.winner!r} in this battle")
        for g in self.fled:
            if g not in state.sides:
                raise BattleError(f"no gang {g!r} in this battle")

    def apply(self, state: BattleState) -> None:
        state.ended = True
        state.winner = self.winner
        state.fled = self.fled
        for f in state.fighters.values():  # a gang that fled leaves its standing fighters' table
            if f.gang in self.fled and f.state in (ACTIVE, ENGAGED, PINNED):
                f.state = FLED

    def describe(self, words: Words) -> str:
        won = f"{words.gang(self.winner)} win" if self.winner else "a draw"
        fled = f"; {', '.join(words.gang(g) for g in self.fled)} fled" if self.fled else ""
        return f"Battle over: {won}{fled}"

    def moments_after(self, old_round: int, old_phase: str) -> tuple[str, ...]:
        return (ROUND_END, BATTLE_END)

    def timings(self, st: BattleState, gang: str, old_round: int) -> set[str]:
        return {"battle_end"}


class _CardEvent(_GangEvent, frozen=True):
    """A Sub-plot card of the gang and what it gave."""

    card: str = ""
    upgraded: bool = False
    rewards: tuple[Reward, ...] = ()

    after_end = True
    verb: ClassVar[str] = ""

    def describe(self, words: Words) -> str:
        got = ", ".join(reward_text(r, words.state) for r in self.rewards) or "no reward"
        return f"{words.gang(self.gang)} {self.verb} {words.card(self.card)}: {got}"


class RevealEvent(_CardEvent, frozen=True, tag="reveal"):
    label = "a Sub-plot revealed, with its reward"
    verb = "revealed"

    def validate_gang(self, state: BattleState, side: SideState) -> None:
        if self.card in side.revealed:
            raise BattleError(f"{self.card} is already revealed")

    def apply(self, state: BattleState) -> None:
        side = state.sides[self.gang]
        side.revealed.append(self.card)
        side.revealed_at[self.card] = state.events
        side.rewards.extend((self.card, r) for r in self.rewards)

    @property
    def card_rewarded(self) -> bool | None:
        return bool(self.rewards)


class RewardEvent(_CardEvent, frozen=True, tag="reward"):
    label = "a revealed Sub-plot's reward, walked at the end"
    verb = "reward for"

    def validate_gang(self, state: BattleState, side: SideState) -> None:
        if self.card not in side.revealed:
            raise BattleError(f"{self.card} is not revealed")

    def apply(self, state: BattleState) -> None:
        state.sides[self.gang].rewards.extend((self.card, r) for r in self.rewards)

    @property
    def card_rewarded(self) -> bool | None:
        return True


class SideJobEvent(_GangEvent, frozen=True, tag="side_job"):
    label = "a gang achieved its Side Job"
    after_end = True

    def validate_gang(self, state: BattleState, side: SideState) -> None:
        if side.side_job_done:
            raise BattleError(f"{side.name} have already achieved their Side Job")

    def apply(self, state: BattleState) -> None:
        state.sides[self.gang].side_job_done = True

    def undo(self, state: BattleState) -> bool:
        state.sides[self.gang].side_job_done = False
        return True

    def describe(self, words: Words) -> str:
        side = words.state.sides.get(self.gang)
        job = f": {side.side_job}" if side and side.side_job else ""
        return f"{words.gang(self.gang)} achieved their Side Job{job}"



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


def _take_down(state: BattleState, f: FighterState, ev: StateEvent) -> None:
    if ev.attacker:
        f.taken_out_by = ev.attacker
        by = state.fighters.get(ev.attacker)
        if by is not None and by.gang != f.gang and ev.state in (SERIOUSLY_INJURED, OUT_OF_ACTION):
            by.caused[ev.state] = by.caused.get(ev.state, 0) + 1
    f.how = how_text(ev.action, ev.traits)


#: states of a fighter who is not on the battlefield
OFF_THE_BATTLEFIELD = (OUT_OF_ACTION, FLED, NOT_DEPLOYED)


#: An event of the log: one of the kinds above, in the order the help lists them.
AnyEvent = Union[
    StartEvent, StateEvent, FleshWoundEvent, RecoveryEvent, ConditionEvent, AttackEvent,
    ActivateEvent, FailedTestEvent, TacticEvent, XpEvent, VpEvent, ReinforcementEvent,
    ReinforcementsDueEvent, PriorityEvent, PhaseEvent, EndEvent, RevealEvent, RewardEvent,
    SideJobEvent,
]

#: event kind (its tag) -> its type, in the order the help lists them
EVENTS: dict[str, type[Event]] = {
    str(cls.__struct_config__.tag): cls for cls in typing.get_args(AnyEvent)
}


class _Labels(Mapping[str, str]):
    """Each kind's label, read from ``EVENTS`` (never a second list)."""

    def __getitem__(self, kind: str) -> str:
        return EVENTS[kind].label

    def __iter__(self) -> Iterator[str]:
        return iter(EVENTS)

    def __len__(self) -> int:
        return len(EVENTS)


#: Event kinds and what they mean (the log widget and the help screen show these).
EVENT_KINDS: Mapping[str, str] = _Labels()


# --- the codec: an event as the battle file's table ---------------------------------------


def event_to_data(ev: Event) -> dict[str, Any]:
    """An event as plain data: the kind first, then the fields it sets, in order."""
    return typed.to_data(ev)


def event_from_data(data: Any) -> Event:
    """An event from its table (BattleError for an unknown kind, ValueError naming a
    missing or mistyped field)."""
    kind = data.get("kind") if isinstance(data, dict) else None
    cls = EVENTS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BattleError(f"unknown event kind {kind!r}")
    return typed.from_data(data, cls)


# --- the log against the state --------------------------------------------------------------


def check(state: BattleState, ev: Event) -> None:
    """Raise BattleError when ``ev`` cannot follow ``state``."""
    ev.check(state)


def check_new(state: BattleState, ev: Event) -> None:
    """What a new event (logged now, not one of a saved log replayed) must also meet:
    no condition for a fighter off the battlefield (an Out of Action fighter's conditions
    are cleared when they go). Saved logs holding one still load."""
    ev.check_new(state)


def apply(state: BattleState, ev: Event) -> None:
    """Apply one (checked) event to ``state`` in place."""
    state.events += 1
    ev.apply(state)


def describe(ev: Event, state: BattleState, card_names: dict[str, str] | None = None) -> str:
    """One line of the battle log, in the players' words (revealed cards only)."""
    return ev.describe(Words(state, card_names))


def replay(log: Iterable[Event]) -> BattleState:
    """The state a log leads to (checking every event)."""
    state = BattleState()
    for ev in log:
        ev.check(state)
        apply(state, ev)
    return state


def next_phase_event(state: BattleState) -> PhaseEvent:
    """The event that moves the battle to the next phase (End -> next round)."""
    i = PHASES.index(state.phase)
    if i + 1 < len(PHASES):
        return PhaseEvent(round=state.round, phase=PHASES[i + 1])
    return PhaseEvent(round=state.round + 1, phase=PRIORITY)


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


def arrivals_this_step(log: Sequence[Event]) -> list[ReinforcementEvent]:
    """The Reinforcements arrived since the End phase began (newest last)."""
    out = []
    for ev in reversed(log):
        if ev.new_phase:
            break
        if isinstance(ev, ReinforcementEvent):
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


def due_event(gang: str, round_: int, r: Roll) -> ReinforcementsDueEvent:
    """How many Reinforcements ``gang`` draws this round, from the Crew table's dice."""
    return ReinforcementsDueEvent(gang=gang, round=round_, amount=r.total,
                                  dice=r.expression, faces=tuple(r.faces))


def draw_at_random(state: BattleState, gang: str, rng: random.Random) -> str:
    """A model card drawn at random from the gang's Reinforcements deck (its fighter key)."""
    deck = state.sides[gang].reserves
    if not deck:
        raise BattleError(f"{state.sides[gang].name} have no Reinforcements left")
    return rng.choice(deck)


def arrival_event(fighter: str, d6: int) -> ReinforcementEvent:
    """The drawn model arrives; the D6 says how far from all enemy models (3+: 9", 1-2: 12")."""
    try:
        distance = scenario.reinforcement_distance(d6)
    except ValueError as error:
        raise BattleError(str(error)) from None
    return ReinforcementEvent(fighter=fighter, dice=arrival_dice(), faces=(d6,),
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

    #: a copy of the state is kept every this many events, the latest STATE_MARKS_KEPT:
    #: undoing a kind that cannot take itself back replays from the latest one the log
    #: still holds, not from the start (a key's cost does not grow with the log)
    STATE_MARK_EVERY = 32
    STATE_MARKS_KEPT = 3

    def __init__(self, log: Sequence[Event] = (), redo: Sequence[Event] = ()) -> None:
        self.log: list[Event] = list(log)
        self.redo_stack: list[Event] = list(redo)
        #: (events, the event at the last of them, a copy of the state after them)
        self._state_marks: list[tuple[int, Event, BattleState]] = []
        self.state = BattleState()
        self._replay_from(0)
        self.revision = 0  # bumped on every change (screens cache on it)
        self._data_cache: dict[Event, dict[str, Any]] = {}
        # the log's events as plain data, kept beside the log (events never change: a
        # key's save costs what the key changed, not the log's length)
        self._log_data: list[dict[str, Any]] = []

    def log_event(self, ev: Event) -> BattleState:
        check(self.state, ev)
        check_new(self.state, ev)
        apply(self.state, ev)
        self.log.append(ev)
        self._mark_state()
        self.redo_stack.clear()
        self.revision += 1
        return self.state

    def _mark_state(self) -> None:
        """Keep a copy of the state when the log's length is a multiple of STATE_MARK_EVERY."""
        n = len(self.log)
        if n and n % self.STATE_MARK_EVERY == 0:
            marks = self._state_marks
            if not marks or marks[-1][0] != n or marks[-1][1] is not self.log[-1]:
                marks.append((n, self.log[-1], pickle.loads(pickle.dumps(self.state, -1))))
                del marks[:-self.STATE_MARKS_KEPT]

    def _replay_from(self, start: int) -> None:
        """Apply (checking) the log's events from ``start`` on to ``self.state``."""
        log, state, every = self.log, self.state, self.STATE_MARK_EVERY
        near_end = len(log) - every * self.STATE_MARKS_KEPT
        for i in range(start, len(log)):
            ev = log[i]
            ev.check(state)
            apply(state, ev)
            if i + 1 >= near_end and (i + 1) % every == 0:
                self._state_marks.append((i + 1, ev, pickle.loads(pickle.dumps(state, -1))))
                del self._state_marks[:-self.STATE_MARKS_KEPT]

    def _state_replayed(self) -> None:
        """The state the log leads to, replayed from the latest mark the log still holds
        (events are only appended and taken back from the end: the event at a mark's
        last place tells); marks past the log are dropped."""
        marks, log = self._state_marks, self.log
        while marks:
            n, last, state = marks[-1]
            if n <= len(log) and log[n - 1] is last:
                self.state = pickle.loads(pickle.dumps(state, -1))
                self._replay_from(n)
                return
            marks.pop()
        self.state = BattleState()
        self._replay_from(0)

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
        if ev.undo(self.state):  # the kind takes itself back out
            self.state.events -= 1
        else:
            self._state_replayed()
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
        self._mark_state()
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
                d = cache[e] = event_to_data(e)
            done.append(d)
        return {
            "log": list(done),
            "redo": [event_to_data(e) for e in self.redo_stack],
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "Battle":
        return cls(
            [event_from_data(e) for e in data.get("log", [])],
            [event_from_data(e) for e in data.get("redo", [])],
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
                ev = event_from_data(item)
                ev.check(state)
            except (BattleError, KeyError, TypeError, ValueError) as error:
                kind = item.get("kind", "?") if isinstance(item, dict) else repr(item)
                return cls(log), raw[i:], f"event {i + 1} ({kind}): {error}"
            apply(state, ev)
            log.append(ev)
        try:
            redo = [event_from_data(e) for e in data.get("redo", [])]
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


def start_event(setup: BattleSetup, campaign: Campaign) -> StartEvent:
    """The first event of a battle: both crews (and Reinforcement decks) from the set-up."""
    sides = []
    for s in setup.sides:
        gang = campaign.gang(s.gang)
        entries = [_entry(gang, m, False) for m in s.crew]
        entries += [_entry(gang, m, True) for m in s.reinforcements]
        sides.append(
            SideRoster(gang.id, gang.name, gang.type.value, tuple(entries), s.side_job)
        )
    return StartEvent(sides=tuple(sides))


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
    "EVENT_KINDS", "EVENTS", "AnyEvent", "Battle", "BattleError", "BattleState", "Event",
    "FighterState", "Reward", "RosterEntry", "Words", "check_new", "event_from_data", "event_to_data",
    "StartEvent", "StateEvent", "FleshWoundEvent", "RecoveryEvent", "ConditionEvent", "AttackEvent",
    "ActivateEvent", "FailedTestEvent", "TacticEvent", "XpEvent", "VpEvent", "ReinforcementEvent",
    "ReinforcementsDueEvent", "PriorityEvent", "PhaseEvent", "EndEvent", "RevealEvent", "RewardEvent",
    "SideJobEvent",
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
