"""Sub-plot watching: a function of (hands, log) -> matches.

Each card a gang holds is looked up in ``data/watchers.toml``. A card listed
there is watched automatically by a *watcher kind* with parameters (e.g.
Murder Run is ``takedowns_in_round`` with ``count = 3`` and
``upgrade_traits = ["Melee", "Versatile"]``); any other card depends on the
table itself (line of sight, distances, terrain, markers) and is revealed by
its owner at will (status ``manual``).

:func:`watch` replays the log once, feeding every event to every watcher,
with the battle's *moments* (start of a round, End phase, end of a round,
end of the battle) in between. A watcher never asks an event's kind: it asks the event
what it is (``ev.takedown``, ``ev.recovery``, ``ev.condition_gained`` ...), and the
moments and reminder timings an event begins are its kind's own answers. A met card stays met (the owner may reveal it
later) unless the card itself says it is discarded.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, fields
from difflib import get_close_matches
from typing import Any, Callable, Generic, Mapping, Self, Sequence, TypeVar

from .events import (
    BATTLE_END,
    BATTLE_START,
    END_PHASE,
    ROUND_END,
    ROUND_START,
    DOWN,
    ON_BATTLEFIELD,
    END,
    ENGAGED,
    OUT_OF_ACTION,
    PINNED,
    PRONE,
    SERIOUSLY_INJURED,
    STATE_NAMES,
    ACTIVE,
    BattleState,
    Event,
    FighterState,
    apply,
)
from ..subplots import decks as subplots
from ..prebattle.setup import BattleSetup
from ..core.data import RuleData, given, load_data

MET = "met"  # the owner may reveal it now
WATCHING = "watching"  # not met yet
MANUAL = "manual"  # the owner decides (depends on the table itself)
DISCARDED = "discarded"  # the card says it is discarded
MISSED = "missed"  # the battle is over and the card was not met
REVEALED = "revealed"



@dataclass(frozen=True)
class Match:
    """Where one card of one hand stands against the log."""

    gang: str
    card: str
    status: str
    why: str = ""  # what met it (or discarded it), in the players' words
    event: int = -1  # index in the log of the event that met/discarded it
    upgraded: bool | None = None  # the upgraded reward applies; None: the players decide
    earned: bool | None = True  # for rewards walked at the end: the reward is earned
    fighter: str = ""  # the fighter key the reward's XP goes to, if any
    reward_at: str = "reveal"  # "reveal" or "end" (rewards walked when the battle ends)
    kind: str = ""  # the watcher kind, "" for manual cards
    reward_due: bool = False  # revealed, reward to walk now (battle over, none recorded)
    # a roll the card makes before its reward (Cold Trade: "Roll a D6 and add 1 for each
    # enemy previously taken Out of Action ... If the modified roll is 6+"): dice and target
    test: str = ""
    test_target: int = 0
    times: int = 1  # the reward is gained this many times ("whenever ..." / "for each ...")
    skip: tuple[int, ...] = ()  # indexes of the card's rewards the log says do not apply

    @property
    def automatic(self) -> bool:
        return bool(self.kind)


def watcher_table(data: RuleData | None = None) -> dict[str, dict[str, Any]]:
    """Card id -> watcher spec (``kind`` plus parameters) from ``watchers.toml``, then the
    packs' (a pack's deck's watchers, in the same format)."""
    data = given(data)
    if not data.packs:
        return load_data("watchers.toml")["cards"]  # type: ignore[no-any-return]
    return data.memo("watchers", lambda: {i.id: i.data for i in data.items("watchers")})


# --- helpers ---------------------------------------------------------------------------


def _types(f: FighterState, types: Sequence[str]) -> bool:
    return not types or f.type in types


def _enemy(owner: str, f: FighterState) -> bool:
    return f.gang != owner


def _by_gang(owner: str, st: BattleState, ev: Event) -> bool:
    """An attack by the owner's gang. A skipped attacker is presumed to be the
    victim's opponent (in a two-gang battle, the owner)."""
    if not ev.attacker:
        return True
    a = st.fighters.get(ev.attacker)
    return a is not None and a.gang == owner


def _names(st: BattleState, keys: Sequence[str]) -> str:
    return ", ".join(st.name_of(k) for k in keys)


class SpecError(ValueError):
    """A watcher's parameters that cannot be read: an unknown kind or key, a wrong type."""


#: a parameter's type as written in a spec's annotation -> how a TOML value is read as it
_READ: dict[str, Callable[[Any], Any]] = {
    "int": lambda v: v if isinstance(v, int) and not isinstance(v, bool) else _refuse(v, "a whole number"),
    "float": lambda v: float(v) if isinstance(v, (int, float)) and not isinstance(v, bool)
    else _refuse(v, "a number"),
    "str": lambda v: v if isinstance(v, str) else _refuse(v, "a text"),
    "bool": lambda v: v if isinstance(v, bool) else _refuse(v, "true or false"),
    "tuple[str, ...]": lambda v: tuple(v) if isinstance(v, (list, tuple))
    and all(isinstance(x, str) for x in v) else _refuse(v, "a list of texts"),
}


def _refuse(value: Any, want: str) -> Any:
    raise SpecError(f"{value!r} is not {want}")


@dataclass(frozen=True)
class Spec:
    """A watcher kind's parameters from ``watchers.toml``, typed: each kind's own spec
    (below, beside its watcher) adds its fields with the defaults the kind assumes. A key
    the kind does not know, or a value of the wrong type, is refused (:class:`SpecError`),
    so a mistyped parameter is never silently ignored."""

    kind: str
    reward_at: str = ""  # "reveal" or "end"; "" for the kind's own

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Self:
        known = {f.name: str(f.type) for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                near = get_close_matches(str(key), list(known), n=1)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                raise SpecError(f"{data.get('kind', '?')}: unknown key {key!r}{hint}")
            try:
                values[key] = _READ[known[key]](value)
            except SpecError as e:
                raise SpecError(f"{data.get('kind', '?')}: {key}: {e}") from None
        if values.get("reward_at", "") not in ("", "reveal", "end"):
            raise SpecError(f"{values['kind']}: reward_at: {values['reward_at']!r} is not "
                            "'reveal' or 'end'")
        return cls(**values)


S = TypeVar("S", bound=Spec)


class Watcher(Generic[S]):
    """One card of one hand, fed the log; each kind reads its own typed :class:`Spec`."""

    reward_at = "reveal"
    spec_type: type[Spec] = Spec

    def __init__(self, owner: str, spec: S) -> None:
        self.owner = owner
        self.spec = spec
        self.facts: Mapping[str, Any] = {}  # facts of the set-up (see :func:`setup_facts`)
        self.met = -1
        self.why = ""
        self.discarded = -1
        self.missed = False
        self.fighter = ""
        self._upgraded: bool | None = False
        if spec.reward_at:
            self.reward_at = spec.reward_at

    def meet(self, i: int, why: str, upgraded: bool | None = False, fighter: str = "") -> None:
        if self.met < 0 and self.discarded < 0:
            self.met, self.why, self._upgraded = i, why, upgraded
            self.fighter = fighter or self.fighter

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        """After ``ev`` (index ``i``) was applied; ``prev``: its fighter's state before."""

    def moment(self, name: str, i: int, st: BattleState) -> None:
        """A moment of the battle, right after event ``i``."""

    def upgraded(self, st: BattleState) -> bool | None:
        return self._upgraded

    def earned(self, st: BattleState) -> bool | None:
        return True

    def test(self, st: BattleState) -> tuple[str, int]:
        """A roll the card makes before its reward: (dice, target), ("", 0) for none."""
        return "", 0

    def times(self, st: BattleState) -> int:
        return 1

    def skip(self, st: BattleState) -> tuple[int, ...]:
        return ()


class _Hit:
    """The effects of one hit as logged: the events right after it that are about the
    same fighters (the victim, the attacker) belong to it; the first event about anyone
    else (or about no fighter: a phase, the end) closes it. ``state(key)`` is a
    fighter's state once the hit is worked out."""

    def __init__(self, keys: Sequence[str], st: BattleState) -> None:
        self.keys = [k for k in keys if k in st.fighters]
        self.open = True
        self.states = {k: st.fighters[k].state for k in self.keys}

    def see(self, ev: Event, st: BattleState) -> None:
        if not self.open:
            return
        if ev.fighter and ev.fighter in self.keys:
            self.states = {k: st.fighters[k].state for k in self.keys}
        else:
            self.open = False

    def state(self, key: str) -> str:
        return self.states.get(key, "")


@dataclass(frozen=True)
class TakedownsInRoundSpec(Spec):
    results: tuple[str, ...] = tuple(sorted(DOWN))
    by: str = "any"
    traits_any: tuple[str, ...] = ()
    upgrade_traits: tuple[str, ...] = ()
    upgrade_victim_types: tuple[str, ...] = ()
    at: str = "event"
    count: int = 3
    label: str = "Seriously Injured or Out of Action"


class TakedownsInRound(Watcher[TakedownsInRoundSpec]):
    spec_type = TakedownsInRoundSpec

    """N enemy fighters Seriously Injured or taken Out of Action in one round."""

    def __init__(self, owner: str, spec: TakedownsInRoundSpec) -> None:
        super().__init__(owner, spec)
        self.rounds: dict[int, list[str]] = {}
        self.up: dict[int, list[str]] = {}
        self.met_round = -1

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        down = ev.takedown
        if not down or down not in self.spec.results:
            return
        f = st.fighters[ev.fighter]
        if not _enemy(self.owner, f):
            return
        if self.spec.by == "gang" and (not ev.put_in or not _by_gang(self.owner, st, ev)):
            return
        need = self.spec.traits_any
        if need and not set(ev.traits) & set(need):
            return
        victims = self.rounds.setdefault(st.round, [])
        if ev.fighter not in victims:
            victims.append(ev.fighter)
        traits = self.spec.upgrade_traits
        if traits and ev.put_in and set(ev.traits) & set(traits):
            up = self.up.setdefault(st.round, [])
            if ev.fighter not in up:
                up.append(ev.fighter)
        if f.type in self.spec.upgrade_victim_types:
            self.up.setdefault(st.round, []).append(ev.fighter)
        if self.spec.at == "event":
            self._check(i, st, st.round)

    def _check(self, i: int, st: BattleState, rnd: int) -> None:
        victims = self.rounds.get(rnd, [])
        if len(victims) >= self.spec.count and self.met < 0:
            by = " by your gang" if self.spec.by == "gang" else ""
            what = self.spec.label
            self.meet(i, f"{len(victims)} enemy fighters {what}{by} in round {rnd}: "
                         f"{_names(st, victims)}")
            self.met_round = rnd

    def moment(self, name: str, i: int, st: BattleState) -> None:
        at = self.spec.at
        if (name == ROUND_END and at == "round_end") or (name == END_PHASE and at == "end_phase"):
            self._check(i, st, st.round)

    def upgraded(self, st: BattleState) -> bool | None:
        if self.spec.upgrade_victim_types:
            return bool(self.up.get(self.met_round))
        if not self.spec.upgrade_traits:
            return False
        n = self.spec.count
        return any(len(v) >= n for v in self.up.values())


@dataclass(frozen=True)
class TakedownSpec(Spec):
    results: tuple[str, ...] = (OUT_OF_ACTION,)
    victim_types: tuple[str, ...] = ()
    attacker_types: tuple[str, ...] = ()
    traits_any: tuple[str, ...] = ()
    actions_any: tuple[str, ...] = ()
    exclude_actions: tuple[str, ...] = ()
    victim_was: tuple[str, ...] = ()
    upgrade: str = ""
    upgrade_attacker_downs: int = 0
    upgrade_attacker_types: tuple[str, ...] = ()
    upgrade_traits_any: tuple[str, ...] = ()
    upgrade_victim_types: tuple[str, ...] = ()
    earned_if: str = ""


class Takedown(Watcher[TakedownSpec]):
    spec_type = TakedownSpec

    """One of your fighters takes a given enemy down (who, how, with what)."""

    def __init__(self, owner: str, spec: TakedownSpec) -> None:
        super().__init__(owner, spec)
        self.hits: list[tuple[int, str, str, bool]] = []  # (index, victim, attacker, upgrade)
        self.downs: dict[str, set[str]] = {}

    def _attacker_ok(self, st: BattleState, ev: Event, types: Sequence[str]) -> bool:
        if types:
            a = st.fighters.get(ev.attacker)
            return a is not None and a.gang == self.owner and a.type in types
        return _by_gang(self.owner, st, ev)

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if ev.put_in in DOWN and ev.attacker:
            # every enemy each of your fighters has downed (upgrade_attacker_downs)
            if _enemy(self.owner, st.fighters[ev.fighter]):
                self.downs.setdefault(ev.attacker, set()).add(ev.fighter)
        if ev.put_in not in self.spec.results:
            return
        f = st.fighters[ev.fighter]
        if not _enemy(self.owner, f) or not _types(f, self.spec.victim_types):
            return
        if not self._attacker_ok(st, ev, self.spec.attacker_types):
            return
        traits = self.spec.traits_any
        if traits and not set(ev.traits) & set(traits):
            return
        actions = self.spec.actions_any
        if actions and ev.action not in actions:
            return
        if ev.action and ev.action in self.spec.exclude_actions:
            return
        was = self.spec.victim_was
        if was and prev not in was:
            return
        up: bool | None = False
        if self.spec.upgrade == "unknown":
            up = None
        elif self.spec.upgrade_attacker_downs:
            # "If two or more enemy fighters were Seriously Injured or taken Out of Action
            # by this fighter": None when the attacker is not logged
            up = (len(self.downs.get(ev.attacker, ())) >= self.spec.upgrade_attacker_downs
                  if ev.attacker else None)
        else:
            ut = self.spec.upgrade_attacker_types
            utr = self.spec.upgrade_traits_any
            uv = self.spec.upgrade_victim_types
            if ut or utr or uv:
                up = (
                    (not ut or self._attacker_ok(st, ev, ut))
                    and (not utr or bool(set(ev.traits) & set(utr)))
                    and (not uv or f.type in uv)
                )
        self.hits.append((i, ev.fighter, ev.attacker, bool(up) if up is not None else False))
        by = f" by {st.name_of(ev.attacker)}" if ev.attacker else ""
        how = f" ({ev.action.replace('_', ' ')}{': ' + ', '.join(ev.traits) if ev.traits else ''})" \
            if ev.action or ev.traits else ""
        self.meet(i, f"{f.name} ({f.type}) {STATE_NAMES[ev.put_in]}{by}{how}", up,
                  fighter=ev.attacker)
        if up is None:
            self._upgraded = None

    def upgraded(self, st: BattleState) -> bool | None:
        if self._upgraded is None:
            return None
        if self.spec.upgrade_attacker_downs and self.hits:
            # counted when the card is revealed: that fighter's takedowns so far
            first = self.hits[0][2]
            return len(self.downs.get(first, ())) >= self.spec.upgrade_attacker_downs
        return any(h[3] for h in self.hits)

    def earned(self, st: BattleState) -> bool | None:
        need = self.spec.earned_if
        if need == "no_enemy_leader_or_champion":
            return not any(
                f.on_battlefield and (f.is_leader or f.is_champion)
                for f in st.fighters.values() if _enemy(self.owner, f)
            )
        return True


@dataclass(frozen=True)
class WinByRoundSpec(Spec):
    before_round: int = 9
    upgrade_before_round: int = 0


class WinByRound(Watcher[WinByRoundSpec]):
    spec_type = WinByRoundSpec

    """You win and the battle ended before a given round."""

    def moment(self, name: str, i: int, st: BattleState) -> None:
        if name != BATTLE_END:
            return
        before = self.spec.before_round
        if st.winner == self.owner and st.round < before:
            self.meet(i, f"won in round {st.round} (before round {before})",
                      st.round < self.spec.upgrade_before_round)
        else:
            self.missed = True


@dataclass(frozen=True)
class WinWithFewStandingSpec(Spec):
    max: int = 3
    upgrade_count: int = 1


class WinWithFewStanding(Watcher[WinWithFewStandingSpec]):
    spec_type = WinWithFewStandingSpec

    """You win with few fighters Standing and Active."""

    def moment(self, name: str, i: int, st: BattleState) -> None:
        if name != BATTLE_END:
            return
        n = sum(1 for f in st.crew(self.owner) if f.state == ACTIVE)
        if st.winner == self.owner and n <= self.spec.max:
            # "only a single friendly fighter Standing and Active": exactly one, not none
            self.meet(i, f"won with {n} fighter{'s' if n != 1 else ''} Standing and Active",
                      n == self.spec.upgrade_count)
        else:
            self.missed = True


@dataclass(frozen=True)
class FlawlessVictorySpec(Spec):
    """No parameters: the kind says it all."""


class FlawlessVictory(Watcher[FlawlessVictorySpec]):
    spec_type = FlawlessVictorySpec

    """You win with none of your fighters Seriously Injured or Out of Action."""

    def __init__(self, owner: str, spec: FlawlessVictorySpec) -> None:
        super().__init__(owner, spec)
        self.downed: set[str] = set()

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if ev.takedown and _enemy(self.owner, st.fighters[ev.fighter]):
            self.downed.add(ev.fighter)

    def moment(self, name: str, i: int, st: BattleState) -> None:
        if name != BATTLE_END:
            return
        down = [f for f in st.crew(self.owner) if f.state in DOWN]
        if st.winner == self.owner and not down:
            enemies = [f for f in st.fighters.values() if _enemy(self.owner, f)]
            up = bool(enemies) and 3 * len(self.downed) >= len(enemies)
            self.meet(i, f"won with no fighter Seriously Injured or Out of Action; "
                         f"{len(self.downed)} of {len(enemies)} enemy fighters went down", up)
        else:
            self.missed = True


@dataclass(frozen=True)
class ConditionCountSpec(Spec):
    condition: str = "Broken"
    count: int = 3
    upgrade_types: tuple[str, ...] = ()
    at: str = "event"


class ConditionCount(Watcher[ConditionCountSpec]):
    spec_type = ConditionCountSpec

    """N enemy fighters on the battlefield with a condition at a moment."""

    def _check(self, i: int, st: BattleState, label: str) -> None:
        cond = self.spec.condition
        hit = [f for f in st.fighters.values()
               if _enemy(self.owner, f) and f.on_battlefield and cond in f.conditions]
        if len(hit) >= self.spec.count:
            types = self.spec.upgrade_types
            up = bool(types) and any(f.type in types for f in hit)
            self.meet(i, f"{len(hit)} enemy fighters {cond} {label}: "
                         f"{', '.join(f.name for f in hit)}", up)

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if self.spec.at == "event" and (ev.condition_gained or ev.condition_lost):
            self._check(i, st, "at the same time")

    def moment(self, name: str, i: int, st: BattleState) -> None:
        if name == ROUND_START and self.spec.at == "round_start":
            self._check(i, st, f"at the start of round {st.round}")


@dataclass(frozen=True)
class TakedownsTotalSpec(Spec):
    results: tuple[str, ...] = (OUT_OF_ACTION,)
    actions_any: tuple[str, ...] = ()
    upgrade_victim_types: tuple[str, ...] = ()
    at: str = "battle_end"
    count: int = 3
    label: str = "taken Out of Action"


class TakedownsTotal(Watcher[TakedownsTotalSpec]):
    spec_type = TakedownsTotalSpec

    """N enemy fighters taken down (optionally by one action) so far in the battle."""

    def __init__(self, owner: str, spec: TakedownsTotalSpec) -> None:
        super().__init__(owner, spec)
        self.victims: list[str] = []
        self.up = False

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        down = ev.takedown
        if not down or down not in self.spec.results:
            return
        f = st.fighters[ev.fighter]
        if not _enemy(self.owner, f):
            return
        actions = self.spec.actions_any
        if actions and ev.action not in actions:
            return
        if ev.fighter not in self.victims:
            self.victims.append(ev.fighter)
            if f.type in self.spec.upgrade_victim_types:
                self.up = True
        if st.phase == END and self.spec.at == "end_phase":
            self._check(i, st)

    def _check(self, i: int, st: BattleState) -> None:
        if len(self.victims) >= self.spec.count:
            what = self.spec.label
            self.meet(i, f"{len(self.victims)} enemy fighters {what}: {_names(st, self.victims)}")

    def moment(self, name: str, i: int, st: BattleState) -> None:
        at = self.spec.at
        if name == END_PHASE and at == "end_phase":
            self._check(i, st)
        elif name == BATTLE_END and at == "battle_end":
            self._check(i, st)
            if self.met < 0:
                self.missed = True

    def upgraded(self, st: BattleState) -> bool | None:
        return self.up


@dataclass(frozen=True)
class ConditionsGainedSpec(Spec):
    condition: str = "Broken"
    by: str = "any"
    count: int = 2
    upgrade_count: int = 3


class ConditionsGained(Watcher[ConditionsGainedSpec]):
    spec_type = ConditionsGainedSpec

    """Enemy fighters that gained a condition during the battle (counted at its end).
    With ``by = "own"`` only those your fighters caused count: a condition logged with
    one of your fighters as its cause counts, one logged without a cause cannot be told
    (the reward is then asked: earned / not earned, upgraded or not)."""

    def __init__(self, owner: str, spec: ConditionsGainedSpec) -> None:
        super().__init__(owner, spec)
        self.who: list[str] = []
        self.unknown: list[str] = []  # gained with no cause logged (by = "own" only)

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if not (ev.condition_gained == self.spec.condition
                and _enemy(self.owner, st.fighters[ev.fighter])):
            return
        if self.spec.by == "own":
            a = st.fighters.get(ev.attacker)
            if a is None:
                if ev.fighter not in self.who and ev.fighter not in self.unknown:
                    self.unknown.append(ev.fighter)
                return
            if a.gang != self.owner:
                return
            if ev.fighter in self.unknown:
                self.unknown.remove(ev.fighter)
        if ev.fighter not in self.who:
            self.who.append(ev.fighter)

    def moment(self, name: str, i: int, st: BattleState) -> None:
        if name != BATTLE_END:
            return
        n, maybe = len(self.who), len(self.unknown)
        need, up = self.spec.count, self.spec.upgrade_count
        cond = self.spec.condition
        by = " by your fighters" if self.spec.by == "own" else ""
        if n >= need:
            self.meet(i, f"{n} enemy fighters became {cond}{by}: {_names(st, self.who)}",
                      True if n >= up else (None if n + maybe >= up else False))
        elif n + maybe >= need:
            self.meet(i, f"{n} enemy fighters became {cond}{by}, {maybe} more with no cause "
                         f"logged ({_names(st, self.unknown)}): did your fighters cause it?",
                      None if n + maybe >= up else False)
        else:
            self.missed = True

    def earned(self, st: BattleState) -> bool | None:
        return True if len(self.who) >= self.spec.count else None


@dataclass(frozen=True)
class AllEnemiesInStatesSpec(Spec):
    states: tuple[str, ...] = tuple(sorted(PRONE))


class AllEnemiesInStates(Watcher[AllEnemiesInStatesSpec]):
    spec_type = AllEnemiesInStatesSpec

    """At the end of a round every enemy fighter on the battlefield is in given states."""

    def moment(self, name: str, i: int, st: BattleState) -> None:
        if name != ROUND_END:
            return
        states = self.spec.states
        on = [f for f in st.fighters.values() if _enemy(self.owner, f) and f.on_battlefield]
        if on and all(f.state in states for f in on):
            self.meet(i, f"end of round {st.round}: all {len(on)} enemy fighters on the "
                         f"battlefield are Prone")


@dataclass(frozen=True)
class OpponentTacticSpec(Spec):
    mode: str = ""
    upgrade_ratio: int = 3
    upgrade_count: int = 2


class OpponentTactic(Watcher[OpponentTacticSpec]):
    spec_type = OpponentTacticSpec

    """Your opponent plays a Gang Tactic while you have played none / are outnumbered."""

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if not ev.tactic_by or ev.tactic_by == self.owner:
            return
        mine = st.sides[self.owner].tactics
        theirs = st.sides[ev.gang].tactics
        if self.spec.mode == "unanswered":
            if not mine:
                self.meet(i, f"your opponent played a Gang Tactic ({len(theirs)} so far), "
                             f"you have played none")
        else:
            own = st.on_battlefield(self.owner)
            opp = st.on_battlefield(ev.gang)
            if own < opp:
                ratio = self.spec.upgrade_ratio
                self.meet(i, f"your opponent played a Gang Tactic with {opp} fighters on the "
                             f"battlefield to your {own}", opp >= ratio * own)

    def upgraded(self, st: BattleState) -> bool | None:
        if self.spec.mode == "unanswered":
            opp = st.opponent(self.owner)
            return (len(st.sides[opp].tactics) >= self.spec.upgrade_count
                    and not st.sides[self.owner].tactics)
        return self._upgraded


@dataclass(frozen=True)
class BottledOutnumberedSpec(Spec):
    ratio: int = 3


class BottledOutnumbered(Watcher[BottledOutnumberedSpec]):
    spec_type = BottledOutnumberedSpec

    """At the start of a round: you failed a Bottle test and are outnumbered N to 1."""

    reward_at = "end"

    def moment(self, name: str, i: int, st: BattleState) -> None:
        if name != ROUND_START:
            return
        opp = st.opponent(self.owner)
        own_n, opp_n = st.on_battlefield(self.owner), st.on_battlefield(opp)
        ratio = self.spec.ratio
        if st.sides[self.owner].bottle_failed and opp_n > 0 and opp_n >= ratio * own_n:
            self.meet(i, f"start of round {st.round}: your gang failed a Bottle test and has "
                         f"{own_n} fighters on the battlefield to {opp_n}")

    def earned(self, st: BattleState) -> bool | None:
        if not st.ended:
            return None
        return st.winner == self.owner


@dataclass(frozen=True)
class RecoveriesInPhaseSpec(Spec):
    count: int = 2


class RecoveriesInPhase(Watcher[RecoveriesInPhaseSpec]):
    spec_type = RecoveriesInPhaseSpec

    """N of your fighters recover from Seriously Injured in one Recovery phase."""

    def __init__(self, owner: str, spec: RecoveriesInPhaseSpec) -> None:
        super().__init__(owner, spec)
        self.rounds: dict[int, list[str]] = {}

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if ev.recovery == PINNED and not _enemy(self.owner, st.fighters[ev.fighter]):
            who = self.rounds.setdefault(st.round, [])
            who.append(ev.fighter)
            if len(who) >= self.spec.count:
                self.meet(i, f"round {st.round}: {len(who)} of your fighters recovered from "
                             f"Seriously Injured: {_names(st, who)}")


@dataclass(frozen=True)
class NthRecoverySpec(Spec):
    types: tuple[str, ...] = ()
    n: int = 1
    upgrade: str = ""


class NthRecovery(Watcher[NthRecoverySpec]):
    spec_type = NthRecoverySpec

    """Your fighter(s) recover from Seriously Injured for the Nth time; the reward is
    walked at the end, upgraded by what that fighter does next."""

    reward_at = "end"

    def __init__(self, owner: str, spec: NthRecoverySpec) -> None:
        super().__init__(owner, spec)
        self.count = 0
        self.after: list[tuple[str, str]] = []  # (kind, fighter) after the meet

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if ev.recovery == PINNED:
            f = st.fighters[ev.fighter]
            if _enemy(self.owner, f) or not _types(f, self.spec.types):
                return
            if self.met >= 0:
                self.after.append(("recovery", ev.fighter))
                return
            self.count += 1
            if self.count >= self.spec.n:
                nth = {1: "", 2: " for the second time"}.get(self.spec.n, "")
                self.meet(i, f"{f.name} ({f.type}) recovered from Seriously Injured{nth}",
                          fighter=ev.fighter)
        elif self.met >= 0 and ev.put_in == OUT_OF_ACTION and ev.attacker:
            if _enemy(self.owner, st.fighters[ev.fighter]):
                self.after.append(("takes_out", ev.attacker))

    def upgraded(self, st: BattleState) -> bool | None:
        if self.met < 0:
            return False
        want = self.spec.upgrade
        return any(k == want and who == self.fighter for k, who in self.after)


@dataclass(frozen=True)
class DiscardedOnSpec(Spec):
    discard_on: str = ""
    why_met: str = "not discarded by the end of the battle"


class DiscardedOn(Watcher[DiscardedOnSpec]):
    spec_type = DiscardedOnSpec

    """Discarded the first time something happens; revealed at the end if it never did."""

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if self.discarded >= 0 or self.met >= 0:
            return
        on = self.spec.discard_on
        reason = ""
        if on == "engaged":
            if ev.put_in == ENGAGED and not _enemy(self.owner, st.fighters[ev.fighter]):
                reason = f"{st.name_of(ev.fighter)} became Engaged"
        elif on == "non_melee_attack":
            if ev.attacker and ev.is_attack:
                a = st.fighters[ev.attacker]
                if not _enemy(self.owner, a) and (
                    ev.action in ("shoot",) or (ev.traits and "Melee" not in ev.traits)
                ):
                    reason = (f"{a.name} attacked with a weapon without the Melee trait"
                              f" ({ev.action or ', '.join(ev.traits)})")
        elif on == "failed_ammo":
            if ev.failed_test == "ammo" and ev.fighter \
                    and not _enemy(self.owner, st.fighters[ev.fighter]):
                reason = f"{st.name_of(ev.fighter)} failed an Ammo check"
        if reason:
            self.discarded, self.why = i, reason

    def moment(self, name: str, i: int, st: BattleState) -> None:
        if name == BATTLE_END and self.discarded < 0:
            self.meet(i, self.spec.why_met)


@dataclass(frozen=True)
class OnEventSpec(Spec):
    event: str = "state"
    states: tuple[str, ...] = ()
    condition: str = ""
    test: str = ""
    from_recovery: bool = True
    fighter_side: str = "own"
    types: tuple[str, ...] = ()
    attacker: str = ""
    actions_any: tuple[str, ...] = ()
    reward_to: str = ""
    test_target: int = 6


class OnEvent(Watcher[OnEventSpec]):
    spec_type = OnEventSpec

    """Met by one kind of event: a fighter's state change, a condition lost (a rally), a
    failed test or a Flesh Wound, for your fighter or an enemy's, with optional attacker,
    action, trait and fighter-type conditions. ``reward_to`` names whose XP it is."""

    def __init__(self, owner: str, spec: OnEventSpec) -> None:
        super().__init__(owner, spec)
        self.count = 0  # the events that met it (Cold Trade's bonus)

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        want = self.spec.event
        f = st.fighters.get(ev.fighter)
        if f is None:
            return
        if want == "state":
            if not ev.put_in or ev.put_in not in self.spec.states:
                return
        elif want == "condition_lost":
            if not ev.condition_lost or ev.condition_lost != self.spec.condition:
                return
        elif want == "test_failed":
            if not ev.failed_test or ev.failed_test != self.spec.test:
                return
        elif want == "flesh_wound":
            # a Recovery test's Flesh Wound result is a Flesh Wound too (the fighter
            # recovers Prone and Pinned with one more Flesh Wound)
            if not (ev.flesh_wounds
                    or ev.recovery == PINNED
                    and self.spec.from_recovery):
                return
        else:
            return
        side = self.spec.fighter_side
        if (side == "own") == _enemy(self.owner, f):
            return
        if not _types(f, self.spec.types):
            return
        who = self.spec.attacker
        a = st.fighters.get(ev.attacker)
        if who == "enemy" and (a is None or a.gang == f.gang):
            return
        if who == "own" and not (a is not None and a.gang == self.owner
                                 or not ev.attacker and side == "enemy"):
            return
        actions = self.spec.actions_any
        if actions and ev.action not in actions:
            return
        what = {"state": STATE_NAMES.get(ev.put_in, ev.put_in),
                "condition_lost": f"no longer {ev.condition_lost} (rallied)",
                "test_failed": f"failed a {ev.failed_test.capitalize()} test",
                "flesh_wound": "suffered a Flesh Wound"
                + (" (Recovery test)" if ev.recovery else "")}[want]
        by = f" by {st.name_of(ev.attacker)}" if ev.attacker else ""
        how = f" ({ev.action.replace('_', ' ')})" if ev.action else ""
        to = self.spec.reward_to
        fighter = ev.fighter if to == "fighter" else ev.attacker if to == "attacker" else ""
        self.count += 1
        self.meet(i, f"{f.name} ({f.type}) {what}{by}{how}", fighter=fighter)

    def test(self, st: BattleState) -> tuple[str, int]:
        """Cold Trade: "Roll a D6 and add 1 for each enemy previously taken Out of Action
        in melee or with Coup de Grace. If the modified roll is 6+ ..." - every such
        enemy before the latest one the log shows (0 when revealed at once)."""
        dice = self.spec.test
        if not dice:
            return "", 0
        bonus = max(0, self.count - 1)
        return (f"{dice}+{bonus}" if bonus else dice), self.spec.test_target


@dataclass(frozen=True)
class AvengeSpec(Spec):
    types: tuple[str, ...] = ("Leader", "Champion")


class Avenge(Watcher[AvengeSpec]):
    spec_type = AvengeSpec

    """Your Leader or Champion is taken down by an enemy fighter; the reward is earned
    if that enemy is taken down too by the end of the Action phase."""

    reward_at = "end"

    def __init__(self, owner: str, spec: AvengeSpec) -> None:
        super().__init__(owner, spec)
        self.culprit = ""
        self.open = False
        self.avenged = False

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if ev.put_in not in DOWN:
            return
        f = st.fighters[ev.fighter]
        if self.met < 0:
            a = st.fighters.get(ev.attacker)
            if (not _enemy(self.owner, f) and _types(f, self.spec.types)
                    and a is not None and _enemy(self.owner, a)):
                self.culprit, self.open = ev.attacker, True
                self.meet(i, f"{f.name} ({f.type}) {STATE_NAMES[ev.put_in]} by {a.name}")
        elif self.open and ev.fighter == self.culprit:
            self.avenged = True

    def moment(self, name: str, i: int, st: BattleState) -> None:
        if name in (END_PHASE, BATTLE_END):
            self.open = False

    def earned(self, st: BattleState) -> bool | None:
        if self.avenged:
            return True
        return False if not self.open else None


@dataclass(frozen=True)
class EnemyCrewFractionSpec(Spec):
    states: tuple[str, ...] = (SERIOUSLY_INJURED, OUT_OF_ACTION, "not_deployed")
    fraction: float = 0.5


class EnemyCrewFraction(Watcher[EnemyCrewFractionSpec]):
    spec_type = EnemyCrewFractionSpec

    """At least a fraction of the enemy crew is in given states (Seriously Injured, Out
    of Action, still held off the table as Reinforcements)."""

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        states = self.spec.states
        crew = [f for f in st.fighters.values() if _enemy(self.owner, f)]
        hit = [f for f in crew if f.state in states]
        if crew and 2 * len(hit) >= len(crew) * 2 * self.spec.fraction:
            self.meet(i, f"{len(hit)} of the {len(crew)} enemy fighters are Seriously Injured, "
                         f"Out of Action or still off the table")


@dataclass(frozen=True)
class FighterTakedownsSpec(Spec):
    traits_any: tuple[str, ...] = ()
    upgrade_traits_any: tuple[str, ...] = ()
    count: int = 3


class FighterTakedowns(Watcher[FighterTakedownsSpec]):
    spec_type = FighterTakedownsSpec

    """At the end of the battle: one of your fighters Seriously Injured or took Out of
    Action at least ``count`` enemy fighters (``traits_any``: with attacks by weapons with
    one of these traits); ``upgrade_traits_any``: that many with one of these traits.
    Only takedowns logged with the attacker count (the log cannot tell whose the others
    were)."""

    def __init__(self, owner: str, spec: FighterTakedownsSpec) -> None:
        super().__init__(owner, spec)
        self.by: dict[str, list[str]] = {}
        self.up: dict[str, list[str]] = {}

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if ev.put_in not in DOWN or not ev.attacker:
            return
        a, f = st.fighters.get(ev.attacker), st.fighters[ev.fighter]
        if a is None or a.gang != self.owner or not _enemy(self.owner, f):
            return
        need = self.spec.traits_any
        if need and not set(ev.traits) & set(need):
            return
        victims = self.by.setdefault(a.key, [])
        if ev.fighter not in victims:
            victims.append(ev.fighter)
        up = self.spec.upgrade_traits_any
        if up and set(ev.traits) & set(up):
            ups = self.up.setdefault(a.key, [])
            if ev.fighter not in ups:
                ups.append(ev.fighter)

    def moment(self, name: str, i: int, st: BattleState) -> None:
        if name != BATTLE_END:
            return
        n = self.spec.count
        best = sorted(self.by.items(), key=lambda kv: (-len(self.up.get(kv[0], [])), -len(kv[1])))
        for key, victims in best:
            if len(victims) >= n:
                self.meet(i, f"{st.name_of(key)} Seriously Injured or took Out of Action "
                             f"{len(victims)} enemy fighters: {_names(st, victims)}",
                          len(self.up.get(key, [])) >= n, fighter=key)
                return
        self.missed = True


@dataclass(frozen=True)
class PoisonedRecoverySpec(Spec):
    traits_any: tuple[str, ...] = ()
    upgrade_victim_types: tuple[str, ...] = ()


class PoisonedRecovery(Watcher[PoisonedRecoverySpec]):
    spec_type = PoisonedRecoverySpec

    """An enemy fighter Seriously Injured by a weapon with one of ``traits_any`` goes Out
    of Action in a later Recovery test (A Slow Poison)."""

    def __init__(self, owner: str, spec: PoisonedRecoverySpec) -> None:
        super().__init__(owner, spec)
        self.poisoned: set[str] = set()

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        f = st.fighters.get(ev.fighter)
        if f is None or not _enemy(self.owner, f):
            return
        if ev.put_in:
            if ev.put_in == SERIOUSLY_INJURED and set(ev.traits) & set(self.spec.traits_any):
                self.poisoned.add(ev.fighter)
            elif ev.put_in != SERIOUSLY_INJURED:
                self.poisoned.discard(ev.fighter)
        elif ev.recovery:
            if ev.recovery == OUT_OF_ACTION and ev.fighter in self.poisoned:
                self.meet(i, f"{f.name} ({f.type}), Seriously Injured by a "
                             f"{' or '.join(self.spec.traits_any)} weapon, went Out of "
                             f"Action in a Recovery test",
                          f.type in self.spec.upgrade_victim_types)
            elif ev.recovery == PINNED:
                self.poisoned.discard(ev.fighter)


@dataclass(frozen=True)
class HeavyHitSpec(Spec):
    min: int = 2


class HeavyHit(Watcher[HeavyHitSpec]):
    spec_type = HeavyHitSpec

    """One of your fighters suffers ``min`` or more Flesh Wounds in one hit (one Flesh
    Wound event); the reward needs the fighter still on the battlefield once the hit is
    worked out, the upgrade still Standing and Active (Hardman)."""

    def __init__(self, owner: str, spec: HeavyHitSpec) -> None:
        super().__init__(owner, spec)
        self.hit: _Hit | None = None
        self.key = ""

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if self.hit is not None:
            self.hit.see(ev, st)
        if self.met >= 0 or not ev.flesh_wounds or ev.flesh_wounds < self.spec.min:
            return
        f = st.fighters[ev.fighter]
        if _enemy(self.owner, f):
            return
        self.key, self.hit = ev.fighter, _Hit([ev.fighter], st)
        self.meet(i, f"{f.name} ({f.type}) suffered {ev.flesh_wounds} Flesh Wounds in one hit")

    def earned(self, st: BattleState) -> bool | None:
        return self.hit is not None and self.hit.state(self.key) in ON_BATTLEFIELD

    def upgraded(self, st: BattleState) -> bool | None:
        return self.hit is not None and self.hit.state(self.key) == ACTIVE


@dataclass(frozen=True)
class ActionByOwnSpec(Spec):
    action: str = ""
    each: bool = False


class ActionByOwn(Watcher[ActionByOwnSpec]):
    spec_type = ActionByOwnSpec

    """One of your fighters makes an action (``action``, e.g. a Coup de Grace) as logged on
    a takedown or an attack; ``times``: every such action for the rest of the battle
    counts (the reward is walked at the end, once per action)."""

    def __init__(self, owner: str, spec: ActionByOwnSpec) -> None:
        super().__init__(owner, spec)
        self.count = 0

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if not ev.is_attack or not self.spec.action or ev.action != self.spec.action:
            return
        a = st.fighters.get(ev.attacker)
        f = st.fighters[ev.fighter]
        if not (a is not None and a.gang == self.owner or not ev.attacker and _enemy(self.owner, f)):
            return
        self.count += 1
        by = st.name_of(ev.attacker) if ev.attacker else "one of your fighters"
        self.meet(i, f"{by}: {ev.action.replace('_', ' ')} on {f.name}", fighter=ev.attacker)

    def times(self, st: BattleState) -> int:
        return max(1, self.count) if self.spec.each else 1


@dataclass(frozen=True)
class FallsSpec(Spec):
    extra_count: int = 3
    extra_reward: int = 1


class Falls(Watcher[FallsSpec]):
    spec_type = FallsSpec

    """One of your fighters makes an enemy fall (or knocks them into a pitfall) and they
    go Out of Action (action "fall"); the extra reward (index ``extra_reward``) needs
    ``extra_count`` enemies taken Out of Action by falls during the game (so the rewards
    are walked at the end)."""

    reward_at = "end"

    def __init__(self, owner: str, spec: FallsSpec) -> None:
        super().__init__(owner, spec)
        self.fallen: list[str] = []

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if ev.put_in != OUT_OF_ACTION or ev.action != "fall":
            return
        f = st.fighters[ev.fighter]
        if not _enemy(self.owner, f):
            return
        if ev.fighter not in self.fallen:
            self.fallen.append(ev.fighter)
        if _by_gang(self.owner, st, ev):
            self.meet(i, f"{f.name} ({f.type}) fell and went Out of Action", fighter=ev.attacker)

    def skip(self, st: BattleState) -> tuple[int, ...]:
        if len(self.fallen) >= self.spec.extra_count:
            return ()
        return (self.spec.extra_reward,)

    def earned(self, st: BattleState) -> bool | None:
        return True if st.ended else None


@dataclass(frozen=True)
class FallOnSpec(Spec):
    victim_reward: int = 0
    survived_reward: int = 1


class FallOn(Watcher[FallOnSpec]):
    spec_type = FallOnSpec

    """One of your fighters falls on an enemy fighter (action "fall" with your fighter as
    the attacker). Reward ``victim_reward`` needs the enemy Seriously Injured or Out of
    Action, ``survived_reward`` your fighter not Seriously Injured or Out of Action after
    the fall (Sky Stomp)."""

    def __init__(self, owner: str, spec: FallOnSpec) -> None:
        super().__init__(owner, spec)
        self.hit: _Hit | None = None
        self.victim = ""

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if self.hit is not None:
            self.hit.see(ev, st)
        if self.met >= 0 or ev.action != "fall" or not ev.attacker:
            return
        if not ev.is_attack:
            return
        a, f = st.fighters.get(ev.attacker), st.fighters[ev.fighter]
        if a is None or a.gang != self.owner or not _enemy(self.owner, f):
            return
        self.victim, self.hit = ev.fighter, _Hit([ev.fighter, ev.attacker], st)
        self.meet(i, f"{a.name} fell on {f.name} ({f.type})", fighter=ev.attacker)

    def skip(self, st: BattleState) -> tuple[int, ...]:
        if self.hit is None:
            return ()
        out = []
        if self.hit.state(self.victim) not in DOWN:
            out.append(self.spec.victim_reward)
        if self.hit.state(self.fighter) in DOWN:
            out.append(self.spec.survived_reward)
        return tuple(out)


@dataclass(frozen=True)
class ActivationWoundsSpec(Spec):
    attacker_types: tuple[str, ...] = ()
    traits_any: tuple[str, ...] = ()
    count: int = 2
    upgrade_count: int = 3


class ActivationWounds(Watcher[ActivationWoundsSpec]):
    spec_type = ActivationWoundsSpec

    """A fighter of yours (``attacker_types``) wounds ``count`` or more enemy fighters in a
    single activation with a weapon with one of ``traits_any``; ``upgrade_count`` for the
    upgrade (Impressive Combo). One activation: from the first wound the fighter deals
    until another fighter's activation is marked, or the phase or round changes; a
    Reaction attack is made in another fighter's activation and is left out."""

    def __init__(self, owner: str, spec: ActivationWoundsSpec) -> None:
        super().__init__(owner, spec)
        self.current: dict[str, list[str]] = {}  # attacker -> enemies wounded this activation
        self.best: list[str] = []
        self.who = ""

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if ev.new_phase:
            self.current.clear()
            return
        if ev.activation:
            for key in [k for k in self.current if k != ev.fighter]:
                del self.current[key]
            return
        if not ev.wound or not ev.attacker or ev.action == "reaction":
            return
        a, f = st.fighters.get(ev.attacker), st.fighters[ev.fighter]
        if a is None or a.gang != self.owner or not _enemy(self.owner, f):
            return
        if not _types(a, self.spec.attacker_types):
            return
        if not set(ev.traits) & set(self.spec.traits_any):
            return
        hit = self.current.setdefault(a.key, [])
        if ev.fighter not in hit:
            hit.append(ev.fighter)
        if len(hit) > len(self.best) and (self.met < 0 or a.key == self.who):
            self.best = list(hit)
        if len(hit) >= self.spec.count and self.met < 0:
            self.who = a.key
            self.meet(i, f"{a.name} ({a.type}) wounded {len(hit)} enemy fighters in one "
                         f"activation: {_names(st, hit)}", fighter=a.key)

    def upgraded(self, st: BattleState) -> bool | None:
        return len(self.best) >= self.spec.upgrade_count


@dataclass(frozen=True)
class JuveCullSpec(Spec):
    lowest: int = 3


class JuveCull(Watcher[JuveCullSpec]):
    spec_type = JuveCullSpec

    """Your gang has taken every opposing Juve Out of Action; with no Juves, the three
    enemy fighters with the lowest Credits value (as logged at the start; when the log
    holds no values, the owner reveals it)."""

    def __init__(self, owner: str, spec: JuveCullSpec) -> None:
        super().__init__(owner, spec)
        self.out: list[str] = []

    def see(self, i: int, ev: Event, st: BattleState, prev: str) -> None:
        if ev.takedown != OUT_OF_ACTION:
            return
        f = st.fighters[ev.fighter]
        if not _enemy(self.owner, f) or (ev.put_in and not _by_gang(self.owner, st, ev)):
            return
        if ev.fighter not in self.out:
            self.out.append(ev.fighter)
        enemies = [e for e in st.fighters.values() if _enemy(self.owner, e)]
        juves = [e for e in enemies if e.type == "Juve"]
        if juves:
            if all(j.key in self.out for j in juves):
                self.meet(i, f"all {len(juves)} enemy Juves taken Out of Action: "
                             f"{_names(st, [j.key for j in juves])}")
            return
        costs = sorted(e.cost for e in enemies)
        n = self.spec.lowest
        if len(costs) < n or not any(costs):
            return
        bar = costs[n - 1]
        cheap = [e for e in enemies if e.cost <= bar and e.key in self.out]
        if len(cheap) >= n:
            self.meet(i, f"no enemy Juves; the {n} enemy fighters with the lowest Credits "
                         f"value taken Out of Action: {_names(st, [e.key for e in cheap])}")


@dataclass(frozen=True)
class PitchBlackSpec(Spec):
    """No parameters: the kind says it all."""


class PitchBlack(Watcher[PitchBlackSpec]):
    spec_type = PitchBlackSpec

    """Met at the start when the set-up puts Pitch Black in effect; the reward needs a
    win and no revealed token (not in the log: asked)."""

    reward_at = "end"

    def moment(self, name: str, i: int, st: BattleState) -> None:
        if name == BATTLE_START and self.facts.get("pitch_black"):
            self.meet(i, "the Pitch Black rules are in effect (set-up)")

    def earned(self, st: BattleState) -> bool | None:
        if not st.ended:
            return None
        return None if st.winner == self.owner else False


KINDS: dict[str, type[Watcher[Any]]] = {
    "takedowns_in_round": TakedownsInRound,
    "takedown": Takedown,
    "win_by_round": WinByRound,
    "win_with_few_standing": WinWithFewStanding,
    "flawless_victory": FlawlessVictory,
    "condition_count": ConditionCount,
    "takedowns_total": TakedownsTotal,
    "conditions_gained": ConditionsGained,
    "all_enemies_in_states": AllEnemiesInStates,
    "opponent_tactic": OpponentTactic,
    "bottled_outnumbered": BottledOutnumbered,
    "recoveries_in_phase": RecoveriesInPhase,
    "nth_recovery": NthRecovery,
    "discarded_on": DiscardedOn,
    "on_event": OnEvent,
    "avenge": Avenge,
    "enemy_crew_fraction": EnemyCrewFraction,
    "fighter_takedowns": FighterTakedowns,
    "poisoned_recovery": PoisonedRecovery,
    "heavy_hit": HeavyHit,
    "action_by_own": ActionByOwn,
    "falls": Falls,
    "fall_on": FallOn,
    "activation_wounds": ActivationWounds,
    "juve_cull": JuveCull,
    "pitch_black": PitchBlack,
}


def read_spec(data: Mapping[str, Any]) -> Spec:
    """A watcher's parameters as its kind reads them (:class:`SpecError` when they cannot
    be: an unknown kind or key, a value of the wrong type)."""
    kind = data.get("kind")
    if kind not in KINDS:
        near = get_close_matches(str(kind), list(KINDS), n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        raise SpecError(f"unknown watcher kind {kind!r}{hint}")
    return KINDS[str(kind)].spec_type.of(data)


def make_watcher(owner: str, data: Mapping[str, Any]) -> Watcher[Any]:
    spec = read_spec(data)
    return KINDS[spec.kind](owner, spec)


@dataclass(frozen=True)
class Reminder:
    """A card the tracker cannot decide, at its timing: its owner's side shows the
    discreet marker until the owner has looked (``key`` is what "looked" remembers)."""

    gang: str
    card: str
    timing: str
    event: int  # index in the log of the latest event at that timing

    @property
    def key(self) -> str:
        return f"{self.card}@{self.event}"


#: Reminder timings (``[reminders]`` in watchers.toml) and what in the log they are.
TIMINGS: dict[str, str] = {
    "battle_start": "the start of the battle (the first event)",
    "round_start": "the start of each round (a new round's Priority phase)",
    "end_phase": "each End phase",
    "battle_end": "the end of the battle",
    "own_activation": "each activation of one of your fighters (marked in the log)",
    "enemy_activation": "each activation of an enemy fighter (marked in the log)",
    "own_takedown": "one of your fighters Seriously Injured or taken Out of Action",
    "enemy_takedown": "an enemy fighter Seriously Injured or taken Out of Action",
    "own_attack": "an attack by one of your fighters (a takedown, a wound or an attack logged)",
    "enemy_attack": "an attack by an enemy fighter on one of yours",
    "own_recovery": "a Recovery test of one of your fighters",
    "test_failed": "a failed test (any fighter)",
    "own_tactic": "a Gang Tactic played by your gang",
    "reinforcement": "a Reinforcement arrives",
    "chosen_round": "the start of the round whose number the owner chose (Dead of Night)",
    "post_battle": "the post-battle sequence (shown by the wizard, not in the battle)",
}


def reminder_table() -> dict[str, list[str]]:
    """Card id -> its reminder timings, for the cards the tracker cannot decide."""
    raw = load_data("watchers.toml").get("reminders", {})
    return {cid: [t] if isinstance(t, str) else list(t) for cid, t in raw.items()}


def setup_facts(setup: BattleSetup | Mapping[str, Any] | None) -> dict[str, Any]:
    """The facts of a ``rules.setup.BattleSetup`` the watchers read (plain data)."""
    if setup is None:
        return {}
    if isinstance(setup, Mapping):
        return dict(setup)
    return {
        "pitch_black": bool(getattr(setup, "pitch_black", False)),
        # each gang's secret and open choices (read only for that gang's own cards)
        "choices": {s.gang: dict(s.subplot_choices) for s in getattr(setup, "sides", [])},
        # the fighters a Choose Crew Sub-plot took off each starting crew (open: the crew
        # is on the table)
        "crew_removed": {s.gang: len(getattr(s, "crew_removed", ()))
                         for s in getattr(setup, "sides", [])},
    }


def _per_times(card_id: str, gang: str, facts: Mapping[str, Any],
               data: RuleData | None = None) -> tuple[int, tuple[int, ...]]:
    """(times, skipped reward indexes) of a card whose reward is gained once per something
    the set-up counts: Contempt for the Weak, "D6x10 credits for each fighter that was
    removed from your starting crew" (none removed: the reward is skipped)."""
    try:
        rewards = subplots.card(card_id, data).rewards
    except (KeyError, subplots.SubplotError):
        return 1, ()
    counts = {"crew_removed": int(facts.get("crew_removed", {}).get(gang, 0) or 0)}
    pers = {r.per for r in rewards if r.per}
    if len(pers) != 1:
        return 1, ()
    n = counts[pers.pop()]
    if n <= 0:
        return 1, tuple(i for i, r in enumerate(rewards) if r.per)
    # other rewards of the card would be gained n times too: none of the seeds' cards has
    # one beside a "for each" reward
    return n, ()


class HandWatch:
    """Every card of every hand against a log fed one event at a time
    (the tracker feeds each new event; :func:`watch` feeds a whole log).
    ``facts``: the set-up's facts (:func:`setup_facts`: Pitch Black)."""

    def __init__(
        self,
        hands: Mapping[str, Sequence[str]],
        table: Mapping[str, Mapping[str, Any]] | None = None,
        facts: Mapping[str, Any] | Any = None,
        reminders: Mapping[str, Sequence[str]] | None = None,
        data: RuleData | None = None,
    ) -> None:
        #: the rule data in force (a pack's deck: its cards' rewards)
        self.data = data
        table = watcher_table(data) if table is None else table
        reminders = reminder_table() if reminders is None else reminders
        facts = setup_facts(facts)
        self.watchers: list[tuple[str, str, Watcher[Any] | None]] = []
        self.timed: list[tuple[str, str, frozenset[str]]] = []  # (gang, card, timings)
        for gang, cards in hands.items():
            for card in cards:
                spec = table.get(card)
                w = make_watcher(gang, spec) if spec else None
                if w is not None:
                    w.facts = facts
                self.watchers.append((gang, card, w))
                if w is None and reminders.get(card):
                    self.timed.append((gang, card, frozenset(reminders[card])))
        # manual cards whose reward is decided at the end of the battle (the post-battle
        # sequence walks those that also name it)
        self.at_end = {card for _, card, ts in self.timed
                       if "battle_end" in ts and "post_battle" not in ts}
        self.live = [w for _, _, w in self.watchers if w is not None]
        self.st = BattleState()
        self.fed = 0
        self.revealed: dict[tuple[str, str], bool] = {}  # (gang, card) -> reward recorded
        self.last: dict[tuple[str, str], tuple[int, str]] = {}  # latest (event, timing)
        self.facts = facts

    def copy(self) -> HandWatch:
        """An independent copy of the watch as it stands (its state, every watcher's,
        what it has seen), to feed on from here; the rule data, the set-up's facts and
        the watchers' specs (read-only) are shared, not copied: they are set aside while
        the rest is pickled (~5x deepcopy's speed)."""
        data, facts = self.data, self.facts
        kept = [(w, w.spec, w.facts) for _, _, w in self.watchers if w is not None]
        try:
            self.data, self.facts = None, {}
            for w, _, _ in kept:
                w.spec, w.facts = None, {}  # type: ignore[assignment]
            blob = pickle.dumps(self, pickle.HIGHEST_PROTOCOL)
        finally:
            self.data, self.facts = data, facts
            for w, spec, w_facts in kept:
                w.spec, w.facts = spec, w_facts
        copied: HandWatch = pickle.loads(blob)
        copied.data, copied.facts = data, facts
        for (_, spec, w_facts), (_, _, c) in zip(
                kept, [t for t in copied.watchers if t[2] is not None]):
            assert c is not None
            c.spec, c.facts = spec, w_facts
        return copied

    def feed(self, ev: Event) -> None:
        st, live, i = self.st, self.live, self.fed
        self.fed += 1
        prev = st.fighters[ev.fighter].state if ev.fighter in st.fighters else ""
        old_round, old_phase = st.round, st.phase
        apply(st, ev)
        rewarded = ev.card_rewarded
        if rewarded is not None:
            self.revealed[(ev.gang, ev.card)] = rewarded
        if self.timed:
            facts = self.facts
            seen: dict[str, set[str]] = {}
            for gang, card, timings in self.timed:
                now = seen.get(gang)
                if now is None:
                    now = seen[gang] = ev.timings(st, gang, old_round)
                hit = now & timings
                if "chosen_round" in timings and "round_start" in now:
                    chosen = str(facts.get("choices", {}).get(gang, {}).get(card, ""))
                    if chosen.isdigit() and int(chosen) == st.round:
                        hit = hit | {"chosen_round"}
                if hit:
                    self.last[(gang, card)] = (i, sorted(hit)[0])
        if not live:
            return
        before = ev.moments_before(old_round)
        if before:
            # the previous round ended (states are unchanged by the phase event)
            st_round = st.round
            st.round = old_round
            for name in before:
                for w in live:
                    w.moment(name, i, st)
            st.round = st_round
        if ev.seen:
            for w in live:
                w.see(i, ev, st, prev)
        after = ev.moments_after(old_round, old_phase)
        if after:
            for w in live:  # each watcher is told of every moment in turn (the end:
                for name in after:  # the last round ends, then the battle)
                    w.moment(name, i, st)

    def reminders(self) -> list[Reminder]:
        """The cards not revealed whose timing the log has reached (the latest time)."""
        out = []
        for gang, card, _ in self.timed:
            at = self.last.get((gang, card))
            if at is not None and (gang, card) not in self.revealed:
                out.append(Reminder(gang, card, at[1], at[0]))
        return out

    def matches(self) -> list[Match]:
        st, revealed = self.st, self.revealed
        out = []
        for gang, card, w in self.watchers:
            rev = (gang, card) in revealed
            if w is None:
                # a card the tracker cannot decide whose reward waits for the end of the
                # battle ("If your gang wins ...", "If they survive ..."): walked then, with
                # "earned / not earned" asked (the log cannot tell)
                later = card in self.at_end
                times, skip = _per_times(card, gang, self.facts, self.data)
                out.append(Match(
                    gang, card, REVEALED if rev else MANUAL,
                    times=times, skip=skip,
                    earned=None if later else True,
                    reward_at="end" if later else "reveal",
                    reward_due=later and rev and not revealed[(gang, card)] and st.ended,
                ))
                continue
            if rev:
                status = REVEALED
            elif w.discarded >= 0:
                status = DISCARDED
            elif w.met >= 0:
                status = MET
            elif st.ended:
                status = MISSED
            else:
                status = WATCHING
            end = w.reward_at == "end"
            met = w.met >= 0
            test, target = w.test(st) if met else ("", 0)
            out.append(
                Match(
                    gang, card, status,
                    why=w.why,
                    event=w.met if met else w.discarded,
                    upgraded=w.upgraded(st) if met else None,
                    earned=w.earned(st) if met else None,
                    fighter=w.fighter,
                    reward_at=w.reward_at,
                    kind=w.spec.kind,
                    reward_due=rev and not revealed[(gang, card)] and end and st.ended,
                    test=test,
                    test_target=target,
                    times=w.times(st) if met else 1,
                    skip=w.skip(st) if met else (),
                )
            )
        return out


def marker_keys(gang: str, matches: Sequence[Match], reminders: Sequence[Reminder]) -> list[str]:
    """What the owner's discreet marker stands for now: met cards (their ids) and
    reminders due (``card@event``). The marker shows while one of them is not yet in
    the owner's ``seen`` list (kept in the battle file)."""
    keys = [m.card for m in matches if m.gang == gang and m.status == MET]
    keys += [r.key for r in reminders if r.gang == gang]
    return keys


def owner_marker(gang: str, matches: Sequence[Match], reminders: Sequence[Reminder],
                 seen: Sequence[str] = ()) -> bool:
    """True when ``gang``'s side shows the discreet marker (never says which card)."""
    return any(k not in seen for k in marker_keys(gang, matches, reminders))


def markers(
    hands: Mapping[str, Sequence[str]],
    log: Sequence[Event],
    setup: BattleSetup | Mapping[str, Any] | None = None,
    seen: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, bool]:
    """Per gang: does its side show the marker now? A function of (hands, log, set-up,
    what each owner has already looked at); each gang's answer reads only its own hand."""
    out = {}
    for gang, hand in hands.items():
        run = HandWatch({gang: hand}, facts=setup)
        for ev in log:
            run.feed(ev)
        out[gang] = owner_marker(gang, run.matches(), run.reminders(), (seen or {}).get(gang, ()))
    return out


def watch(
    hands: Mapping[str, Sequence[str]],
    log: Sequence[Event],
    table: Mapping[str, Mapping[str, Any]] | None = None,
    facts: Mapping[str, Any] | Any = None,
) -> list[Match]:
    """Every card of every hand against the log, in hand order."""
    run = HandWatch(hands, table, facts)
    for ev in log:
        run.feed(ev)
    return run.matches()


__all__ = [
    "DISCARDED", "HandWatch", "KINDS", "MANUAL", "MET", "MISSED", "Match", "REVEALED", "Reminder",
    "TIMINGS", "WATCHING", "Watcher", "make_watcher", "marker_keys", "markers", "owner_marker",
    "reminder_table", "setup_facts", "watch", "watcher_table",
]


def export_section(data: RuleData | None = None) -> dict[str, Any]:
    """``rules export``: for every Sub-plot, how the tracker follows it - the watcher
    (kind and parameters) that decides it from the log, or the reminder timings at which
    its owner's marker shows (``timings`` explains each)."""
    from ..subplots.decks import all_cards

    watchers, reminders = watcher_table(data), reminder_table()
    cards = []
    for c in all_cards(data):
        entry: dict[str, Any] = {"id": c.id, "name": c.name}
        if c.id in watchers:
            entry["watcher"] = dict(watchers[c.id])
        else:
            entry["reminder"] = list(reminders.get(c.id, []))
        cards.append(entry)
    return {"timings": dict(TIMINGS), "cards": cards}
