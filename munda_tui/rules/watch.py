"""Sub-plot watching: a function of (hands, log) -> matches.

Each card a gang holds is looked up in ``data/watchers.toml``. A card listed
there is watched automatically by a *watcher kind* with parameters (e.g.
Murder Run is ``takedowns_in_round`` with ``count = 3`` and
``upgrade_traits = ["Melee", "Versatile"]``); any other card depends on the
table itself (line of sight, distances, terrain, markers) and is revealed by
its owner at will (status ``manual``).

:func:`watch` replays the log once, feeding every event to every watcher,
with the battle's *moments* (start of a round, End phase, end of a round,
end of the battle) in between. A met card stays met (the owner may reveal it
later) unless the card itself says it is discarded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from .battle import (
    DOWN,
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
from .data import load_data

MET = "met"  # the owner may reveal it now
WATCHING = "watching"  # not met yet
MANUAL = "manual"  # the owner decides (depends on the table itself)
DISCARDED = "discarded"  # the card says it is discarded
MISSED = "missed"  # the battle is over and the card was not met
REVEALED = "revealed"

# Moments
ROUND_START = "round_start"
ROUND_END = "round_end"
END_PHASE = "end_phase"
BATTLE_END = "battle_end"


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

    @property
    def automatic(self) -> bool:
        return bool(self.kind)


def watcher_table() -> dict[str, dict[str, Any]]:
    """Card id -> watcher spec (``kind`` plus parameters) from ``watchers.toml``."""
    return load_data("watchers.toml")["cards"]


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


def _takedown(ev: Event) -> str:
    """The down state an event puts its fighter in ('' if none)."""
    if ev.kind == "state" and ev.state in DOWN:
        return ev.state
    if ev.kind == "recovery" and ev.result == OUT_OF_ACTION:
        return OUT_OF_ACTION
    return ""


class Watcher:
    reward_at = "reveal"

    def __init__(self, owner: str, spec: Mapping[str, Any]) -> None:
        self.owner = owner
        self.spec = spec
        self.met = -1
        self.why = ""
        self.discarded = -1
        self.missed = False
        self.fighter = ""
        self._upgraded: bool | None = False
        if "reward_at" in spec:
            self.reward_at = spec["reward_at"]

    def p(self, name: str, default: Any = None) -> Any:
        return self.spec.get(name, default)

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


class TakedownsInRound(Watcher):
    """N enemy fighters Seriously Injured or taken Out of Action in one round."""

    def __init__(self, owner, spec):
        super().__init__(owner, spec)
        self.rounds: dict[int, list[str]] = {}
        self.up: dict[int, list[str]] = {}

    def see(self, i, ev, st, prev):
        down = _takedown(ev)
        if not down:
            return
        f = st.fighters[ev.fighter]
        if not _enemy(self.owner, f):
            return
        if self.p("by", "any") == "gang" and (ev.kind != "state" or not _by_gang(self.owner, st, ev)):
            return
        victims = self.rounds.setdefault(st.round, [])
        if ev.fighter not in victims:
            victims.append(ev.fighter)
        traits = self.p("upgrade_traits", [])
        if traits and ev.kind == "state" and set(ev.traits) & set(traits):
            up = self.up.setdefault(st.round, [])
            if ev.fighter not in up:
                up.append(ev.fighter)
        if self.p("at", "event") == "event":
            self._check(i, st, st.round)

    def _check(self, i, st, rnd):
        victims = self.rounds.get(rnd, [])
        if len(victims) >= self.p("count", 3):
            by = " by your gang" if self.p("by", "any") == "gang" else ""
            self.meet(i, f"{len(victims)} enemy fighters Seriously Injured or Out of Action"
                         f"{by} in round {rnd}: {_names(st, victims)}")

    def moment(self, name, i, st):
        if name == ROUND_END and self.p("at", "event") == "round_end":
            self._check(i, st, st.round)

    def upgraded(self, st):
        if not self.p("upgrade_traits"):
            return False
        n = self.p("count", 3)
        return any(len(v) >= n for v in self.up.values())


class Takedown(Watcher):
    """One of your fighters takes a given enemy down (who, how, with what)."""

    def __init__(self, owner, spec):
        super().__init__(owner, spec)
        self.hits: list[tuple[int, str, str, bool]] = []  # (index, victim, attacker, upgrade)

    def _attacker_ok(self, st, ev, types):
        if types:
            a = st.fighters.get(ev.attacker)
            return a is not None and a.gang == self.owner and a.type in types
        return _by_gang(self.owner, st, ev)

    def see(self, i, ev, st, prev):
        if ev.kind != "state" or ev.state not in self.p("results", [OUT_OF_ACTION]):
            return
        f = st.fighters[ev.fighter]
        if not _enemy(self.owner, f) or not _types(f, self.p("victim_types", [])):
            return
        if not self._attacker_ok(st, ev, self.p("attacker_types", [])):
            return
        traits = self.p("traits_any", [])
        if traits and not set(ev.traits) & set(traits):
            return
        actions = self.p("actions_any", [])
        if actions and ev.action not in actions:
            return
        if ev.action and ev.action in self.p("exclude_actions", []):
            return
        was = self.p("victim_was", [])
        if was and prev not in was:
            return
        up: bool | None = False
        if self.p("upgrade") == "unknown":
            up = None
        else:
            ut = self.p("upgrade_attacker_types", [])
            utr = self.p("upgrade_traits_any", [])
            uv = self.p("upgrade_victim_types", [])
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
        self.meet(i, f"{f.name} ({f.type}) {STATE_NAMES[ev.state]}{by}{how}", up,
                  fighter=ev.attacker)
        if up is None:
            self._upgraded = None

    def upgraded(self, st):
        if self._upgraded is None:
            return None
        return any(h[3] for h in self.hits)

    def earned(self, st):
        need = self.p("earned_if", "")
        if need == "no_enemy_leader_or_champion":
            return not any(
                f.on_battlefield and (f.is_leader or f.is_champion)
                for f in st.fighters.values() if _enemy(self.owner, f)
            )
        return True


class WinByRound(Watcher):
    """You win and the battle ended before a given round."""

    def moment(self, name, i, st):
        if name != BATTLE_END:
            return
        before = self.p("before_round", 9)
        if st.winner == self.owner and st.round < before:
            self.meet(i, f"won in round {st.round} (before round {before})",
                      st.round < self.p("upgrade_before_round", 0))
        else:
            self.missed = True


class WinWithFewStanding(Watcher):
    """You win with few fighters Standing and Active."""

    def moment(self, name, i, st):
        if name != BATTLE_END:
            return
        n = sum(1 for f in st.crew(self.owner) if f.state == ACTIVE)
        if st.winner == self.owner and n <= self.p("max", 3):
            self.meet(i, f"won with {n} fighter{'s' if n != 1 else ''} Standing and Active",
                      n <= self.p("upgrade_max", 1))
        else:
            self.missed = True


class FlawlessVictory(Watcher):
    """You win with none of your fighters Seriously Injured or Out of Action."""

    def __init__(self, owner, spec):
        super().__init__(owner, spec)
        self.downed: set[str] = set()

    def see(self, i, ev, st, prev):
        if _takedown(ev) and _enemy(self.owner, st.fighters[ev.fighter]):
            self.downed.add(ev.fighter)

    def moment(self, name, i, st):
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


class ConditionCount(Watcher):
    """N enemy fighters on the battlefield with a condition at a moment."""

    def _check(self, i, st, label):
        cond = self.p("condition", "Broken")
        hit = [f for f in st.fighters.values()
               if _enemy(self.owner, f) and f.on_battlefield and cond in f.conditions]
        if len(hit) >= self.p("count", 3):
            types = self.p("upgrade_types", [])
            up = bool(types) and any(f.type in types for f in hit)
            self.meet(i, f"{len(hit)} enemy fighters {cond} {label}: "
                         f"{', '.join(f.name for f in hit)}", up)

    def see(self, i, ev, st, prev):
        if self.p("at", "event") == "event" and ev.kind == "condition":
            self._check(i, st, "at the same time")

    def moment(self, name, i, st):
        if name == ROUND_START and self.p("at") == "round_start":
            self._check(i, st, f"at the start of round {st.round}")


class TakedownsTotal(Watcher):
    """N enemy fighters taken down (optionally by one action) so far in the battle."""

    def __init__(self, owner, spec):
        super().__init__(owner, spec)
        self.victims: list[str] = []
        self.up = False

    def see(self, i, ev, st, prev):
        down = _takedown(ev)
        if not down or down not in self.p("results", [OUT_OF_ACTION]):
            return
        f = st.fighters[ev.fighter]
        if not _enemy(self.owner, f):
            return
        actions = self.p("actions_any", [])
        if actions and ev.action not in actions:
            return
        if ev.fighter not in self.victims:
            self.victims.append(ev.fighter)
            if f.type in self.p("upgrade_victim_types", []):
                self.up = True
        if st.phase == END and self.p("at") == "end_phase":
            self._check(i, st)

    def _check(self, i, st):
        if len(self.victims) >= self.p("count", 3):
            what = self.p("label", "taken Out of Action")
            self.meet(i, f"{len(self.victims)} enemy fighters {what}: {_names(st, self.victims)}")

    def moment(self, name, i, st):
        at = self.p("at", "battle_end")
        if name == END_PHASE and at == "end_phase":
            self._check(i, st)
        elif name == BATTLE_END and at == "battle_end":
            self._check(i, st)
            if self.met < 0:
                self.missed = True

    def upgraded(self, st):
        return self.up


class ConditionsGained(Watcher):
    """Enemy fighters that gained a condition during the battle (counted at its end)."""

    def __init__(self, owner, spec):
        super().__init__(owner, spec)
        self.who: list[str] = []

    def see(self, i, ev, st, prev):
        if (ev.kind == "condition" and not ev.lost and ev.condition == self.p("condition", "Broken")
                and _enemy(self.owner, st.fighters[ev.fighter]) and ev.fighter not in self.who):
            self.who.append(ev.fighter)

    def moment(self, name, i, st):
        if name != BATTLE_END:
            return
        n = len(self.who)
        if n >= self.p("count", 2):
            self.meet(i, f"{n} enemy fighters became {self.p('condition', 'Broken')}: "
                         f"{_names(st, self.who)}", n >= self.p("upgrade_count", 3))
        else:
            self.missed = True


class AllEnemiesInStates(Watcher):
    """At the end of a round every enemy fighter on the battlefield is in given states."""

    def moment(self, name, i, st):
        if name != ROUND_END:
            return
        states = self.p("states", sorted(PRONE))
        on = [f for f in st.fighters.values() if _enemy(self.owner, f) and f.on_battlefield]
        if on and all(f.state in states for f in on):
            self.meet(i, f"end of round {st.round}: all {len(on)} enemy fighters on the "
                         f"battlefield are Prone")


class OpponentTactic(Watcher):
    """Your opponent plays a Gang Tactic while you have played none / are outnumbered."""

    def see(self, i, ev, st, prev):
        if ev.kind != "tactic" or ev.gang == self.owner:
            return
        mine = st.sides[self.owner].tactics
        theirs = st.sides[ev.gang].tactics
        if self.p("mode") == "unanswered":
            if not mine:
                self.meet(i, f"your opponent played a Gang Tactic ({len(theirs)} so far), "
                             f"you have played none")
        else:
            own = st.on_battlefield(self.owner)
            opp = st.on_battlefield(ev.gang)
            if own < opp:
                ratio = self.p("upgrade_ratio", 3)
                self.meet(i, f"your opponent played a Gang Tactic with {opp} fighters on the "
                             f"battlefield to your {own}", opp >= ratio * own)

    def upgraded(self, st):
        if self.p("mode") == "unanswered":
            opp = st.opponent(self.owner)
            return (len(st.sides[opp].tactics) >= self.p("upgrade_count", 2)
                    and not st.sides[self.owner].tactics)
        return self._upgraded


class BottledOutnumbered(Watcher):
    """At the start of a round: you failed a Bottle test and are outnumbered N to 1."""

    reward_at = "end"

    def moment(self, name, i, st):
        if name != ROUND_START:
            return
        opp = st.opponent(self.owner)
        own_n, opp_n = st.on_battlefield(self.owner), st.on_battlefield(opp)
        ratio = self.p("ratio", 3)
        if st.sides[self.owner].bottle_failed and opp_n > 0 and opp_n >= ratio * own_n:
            self.meet(i, f"start of round {st.round}: your gang failed a Bottle test and has "
                         f"{own_n} fighters on the battlefield to {opp_n}")

    def earned(self, st):
        if not st.ended:
            return None
        return st.winner == self.owner


class RecoveriesInPhase(Watcher):
    """N of your fighters recover from Seriously Injured in one Recovery phase."""

    def __init__(self, owner, spec):
        super().__init__(owner, spec)
        self.rounds: dict[int, list[str]] = {}

    def see(self, i, ev, st, prev):
        if ev.kind == "recovery" and ev.result == PINNED and not _enemy(self.owner, st.fighters[ev.fighter]):
            who = self.rounds.setdefault(st.round, [])
            who.append(ev.fighter)
            if len(who) >= self.p("count", 2):
                self.meet(i, f"round {st.round}: {len(who)} of your fighters recovered from "
                             f"Seriously Injured: {_names(st, who)}")


class NthRecovery(Watcher):
    """Your fighter(s) recover from Seriously Injured for the Nth time; the reward is
    walked at the end, upgraded by what that fighter does next."""

    reward_at = "end"

    def __init__(self, owner, spec):
        super().__init__(owner, spec)
        self.count = 0
        self.after: list[tuple[str, str]] = []  # (kind, fighter) after the meet

    def see(self, i, ev, st, prev):
        if ev.kind == "recovery" and ev.result == PINNED:
            f = st.fighters[ev.fighter]
            if _enemy(self.owner, f) or not _types(f, self.p("types", [])):
                return
            if self.met >= 0:
                self.after.append(("recovery", ev.fighter))
                return
            self.count += 1
            if self.count >= self.p("n", 1):
                nth = {1: "", 2: " for the second time"}.get(self.p("n", 1), "")
                self.meet(i, f"{f.name} ({f.type}) recovered from Seriously Injured{nth}",
                          fighter=ev.fighter)
        elif self.met >= 0 and ev.kind == "state" and ev.state == OUT_OF_ACTION and ev.attacker:
            if _enemy(self.owner, st.fighters[ev.fighter]):
                self.after.append(("takes_out", ev.attacker))

    def upgraded(self, st):
        if self.met < 0:
            return False
        want = self.p("upgrade", "")
        return any(k == want and who == self.fighter for k, who in self.after)


class DiscardedOn(Watcher):
    """Discarded the first time something happens; revealed at the end if it never did."""

    def see(self, i, ev, st, prev):
        if self.discarded >= 0 or self.met >= 0:
            return
        on = self.p("discard_on")
        reason = ""
        if on == "engaged":
            if ev.kind == "state" and ev.state == ENGAGED and not _enemy(self.owner, st.fighters[ev.fighter]):
                reason = f"{st.name_of(ev.fighter)} became Engaged"
        elif on == "non_melee_attack":
            if ev.attacker and ev.kind in ("state", "flesh_wound", "attack"):
                a = st.fighters[ev.attacker]
                if not _enemy(self.owner, a) and (
                    ev.action in ("shoot",) or (ev.traits and "Melee" not in ev.traits)
                ):
                    reason = (f"{a.name} attacked with a weapon without the Melee trait"
                              f" ({ev.action or ', '.join(ev.traits)})")
        elif on == "failed_ammo":
            if ev.kind == "test_failed" and ev.test == "ammo" and ev.fighter \
                    and not _enemy(self.owner, st.fighters[ev.fighter]):
                reason = f"{st.name_of(ev.fighter)} failed an Ammo check"
        if reason:
            self.discarded, self.why = i, reason

    def moment(self, name, i, st):
        if name == BATTLE_END and self.discarded < 0:
            self.meet(i, self.p("why_met", "not discarded by the end of the battle"))


class OnEvent(Watcher):
    """Met by one kind of event: a fighter's state change, a condition lost (a rally), a
    failed test or a Flesh Wound, for your fighter or an enemy's, with optional attacker,
    action, trait and fighter-type conditions. ``reward_to`` names whose XP it is."""

    def see(self, i, ev, st, prev):
        want = self.p("event", "state")
        f = st.fighters.get(ev.fighter)
        if f is None:
            return
        if want == "state":
            if ev.kind != "state" or ev.state not in self.p("states", []):
                return
        elif want == "condition_lost":
            if ev.kind != "condition" or not ev.lost or ev.condition != self.p("condition"):
                return
        elif want == "test_failed":
            if ev.kind != "test_failed" or ev.test != self.p("test"):
                return
        elif want == "flesh_wound":
            if ev.kind != "flesh_wound":
                return
        else:
            return
        side = self.p("fighter_side", "own")
        if (side == "own") == _enemy(self.owner, f):
            return
        if not _types(f, self.p("types", [])):
            return
        who = self.p("attacker", "")
        a = st.fighters.get(ev.attacker)
        if who == "enemy" and (a is None or a.gang == f.gang):
            return
        if who == "own" and not (a is not None and a.gang == self.owner
                                 or not ev.attacker and side == "enemy"):
            return
        actions = self.p("actions_any", [])
        if actions and ev.action not in actions:
            return
        what = {"state": STATE_NAMES.get(ev.state, ev.state),
                "condition_lost": f"no longer {ev.condition} (rallied)",
                "test_failed": f"failed a {ev.test.capitalize()} test",
                "flesh_wound": "suffered a Flesh Wound"}[want]
        by = f" by {st.name_of(ev.attacker)}" if ev.attacker else ""
        how = f" ({ev.action.replace('_', ' ')})" if ev.action else ""
        to = self.p("reward_to", "")
        fighter = ev.fighter if to == "fighter" else ev.attacker if to == "attacker" else ""
        self.meet(i, f"{f.name} ({f.type}) {what}{by}{how}", fighter=fighter)


class Avenge(Watcher):
    """Your Leader or Champion is taken down by an enemy fighter; the reward is earned
    if that enemy is taken down too by the end of the Action phase."""

    reward_at = "end"

    def __init__(self, owner, spec):
        super().__init__(owner, spec)
        self.culprit = ""
        self.open = False
        self.avenged = False

    def see(self, i, ev, st, prev):
        if ev.kind != "state" or ev.state not in DOWN:
            return
        f = st.fighters[ev.fighter]
        if self.met < 0:
            a = st.fighters.get(ev.attacker)
            if (not _enemy(self.owner, f) and _types(f, self.p("types", ["Leader", "Champion"]))
                    and a is not None and _enemy(self.owner, a)):
                self.culprit, self.open = ev.attacker, True
                self.meet(i, f"{f.name} ({f.type}) {STATE_NAMES[ev.state]} by {a.name}")
        elif self.open and ev.fighter == self.culprit:
            self.avenged = True

    def moment(self, name, i, st):
        if name in (END_PHASE, BATTLE_END):
            self.open = False

    def earned(self, st):
        if self.avenged:
            return True
        return False if not self.open else None


class EnemyCrewFraction(Watcher):
    """At least a fraction of the enemy crew is in given states (Seriously Injured, Out
    of Action, still held off the table as Reinforcements)."""

    def see(self, i, ev, st, prev):
        states = self.p("states", [SERIOUSLY_INJURED, OUT_OF_ACTION, "not_deployed"])
        crew = [f for f in st.fighters.values() if _enemy(self.owner, f)]
        hit = [f for f in crew if f.state in states]
        if crew and 2 * len(hit) >= len(crew) * 2 * self.p("fraction", 0.5):
            self.meet(i, f"{len(hit)} of the {len(crew)} enemy fighters are Seriously Injured, "
                         f"Out of Action or still off the table")


KINDS: dict[str, Callable[[str, Mapping[str, Any]], Watcher]] = {
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
}


def make_watcher(owner: str, spec: Mapping[str, Any]) -> Watcher:
    return KINDS[spec["kind"]](owner, spec)


class HandWatch:
    """Every card of every hand against a log fed one event at a time
    (the tracker feeds each new event; :func:`watch` feeds a whole log)."""

    def __init__(
        self,
        hands: Mapping[str, Sequence[str]],
        table: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        table = watcher_table() if table is None else table
        self.watchers: list[tuple[str, str, Watcher | None]] = []
        for gang, cards in hands.items():
            for card in cards:
                spec = table.get(card)
                self.watchers.append((gang, card, make_watcher(gang, spec) if spec else None))
        self.live = [w for _, _, w in self.watchers if w is not None]
        self.st = BattleState()
        self.fed = 0
        self.revealed: dict[tuple[str, str], bool] = {}  # (gang, card) -> reward recorded

    def feed(self, ev: Event) -> None:
        st, live, i = self.st, self.live, self.fed
        self.fed += 1
        prev = st.fighters[ev.fighter].state if ev.fighter in st.fighters else ""
        old_round, old_phase = st.round, st.phase
        apply(st, ev)
        if ev.kind == "reveal":
            self.revealed[(ev.gang, ev.card)] = bool(ev.rewards)
        elif ev.kind == "reward":
            self.revealed[(ev.gang, ev.card)] = True
        if not live:
            return
        if ev.kind == "phase" and ev.round != old_round:
            # the previous round ended (states are unchanged by the phase event)
            st_round = st.round
            st.round = old_round
            for w in live:
                w.moment(ROUND_END, i, st)
            st.round = st_round
        if ev.kind != "start":
            for w in live:
                w.see(i, ev, st, prev)
        if ev.kind == "phase":
            if ev.round != old_round:
                for w in live:
                    w.moment(ROUND_START, i, st)
            if ev.phase == END and old_phase != END:
                for w in live:
                    w.moment(END_PHASE, i, st)
        elif ev.kind == "end":
            for w in live:
                w.moment(ROUND_END, i, st)
                w.moment(BATTLE_END, i, st)

    def matches(self) -> list[Match]:
        st, revealed = self.st, self.revealed
        out = []
        for gang, card, w in self.watchers:
            rev = (gang, card) in revealed
            if w is None:
                out.append(Match(gang, card, REVEALED if rev else MANUAL))
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
            out.append(
                Match(
                    gang, card, status,
                    why=w.why,
                    event=w.met if w.met >= 0 else w.discarded,
                    upgraded=w.upgraded(st) if w.met >= 0 else None,
                    earned=w.earned(st) if w.met >= 0 else None,
                    fighter=w.fighter,
                    reward_at=w.reward_at,
                    kind=w.spec["kind"],
                    reward_due=rev and not revealed[(gang, card)] and end and st.ended,
                )
            )
        return out


def watch(
    hands: Mapping[str, Sequence[str]],
    log: Sequence[Event],
    table: Mapping[str, Mapping[str, Any]] | None = None,
) -> list[Match]:
    """Every card of every hand against the log, in hand order."""
    run = HandWatch(hands, table)
    for ev in log:
        run.feed(ev)
    return run.matches()


__all__ = [
    "DISCARDED", "HandWatch", "KINDS", "MANUAL", "MET", "MISSED", "Match", "REVEALED", "WATCHING",
    "Watcher", "make_watcher", "watch", "watcher_table",
]
