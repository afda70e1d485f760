"""The battle stage's flow: the record, the hand watch, the events keys record, what now.

:class:`BattleFlow` is to the battle tracker what :class:`munda_tui.rules.postbattle.sequence.PostBattle`
is to the post-battle sequence: the screen shows and asks, the flow decides. It opens a
battle file's ``setup`` and ``battle`` parts (a quick battle of two whole gangs when there
is no set-up), owns the :class:`~munda_tui.rules.battle.record.BattleRecord` and the
:class:`~munda_tui.rules.battle.watch.HandWatch` fed one event at a time, builds each kind's
event from typed arguments (no screen spells an event), and answers "what now?" as typed
questions: the start-of-game walk (:meth:`BattleFlow.start_walk`), the Reinforcements step
(:meth:`BattleFlow.reinforcements_next`), a reveal (:meth:`BattleFlow.reveal_question`), the
finish (:meth:`BattleFlow.finish_next`) and the move to the post-battle stage
(:meth:`BattleFlow.move_on`). The screen awaits each question's answer and hands it back;
every byte on disk stays with ``saves`` (the screen saves :meth:`BattleFlow.battle_data`).

What it shows is in the players' words and keeps the Sub-plot secrecy: a side's head line
(:meth:`BattleFlow.side_head`) says a hand only as card backs and a discreet marker, and
what only the owner reads (:meth:`BattleFlow.owner_notes`, :meth:`BattleFlow.passed_moments`)
is handed out only for the owner's peek behind the curtain.
"""

from __future__ import annotations


import random
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Sequence

from ..core import stage as stage
from ..subplots import decks as subplots
from .events import (
    ActivateEvent, AttackEvent, ConditionEvent, EndEvent, FailedTestEvent, FleshWoundEvent,
    PriorityEvent, RecoveryEvent, ReinforcementEvent, SideJobEvent, StateEvent, TacticEvent,
    VpEvent, XpEvent,
    END,
    NOT_DEPLOYED,
    PHASE_NAMES,
    Battle,
    BattleError,
    BattleState,
    Event,
    FighterState,
    Reward,
    arrival_event,
    default_setup,
    describe,
    due_event,
    due_roll_needed,
    hands_of,
    needs_priority,
    next_phase_event,
    reinforcement_step_due,
)
from .record import BattleRecord
from ..core.dice import Roll, parse, roll
from ..core.model import Campaign
from .reward_plan import DEFER, REVEAL, REWARD, RevealResult
from ..prebattle.setup import BattleSetup, SideSetup
from ..core.stage import summary_of
from ..core.status import BattleStatus
from .watch import (REVEALED, TIMINGS, HandWatch, Match, Reminder, marker_keys, owner_marker,
                    watcher_table)
from ..core.data import RuleData
from ..core.wording import plural

CARD_BACK = "▚▞"
MARKER = "◆"

#: the tracker's Sub-plot watch keeps a copy of itself every this many events fed, the
#: latest WATCH_MARKS_KEPT of them: an undo (or several) feeds on from the latest copy
#: the log still holds instead of from the battle's start (~100 ms at 2,000 events)
WATCH_MARK_EVERY = 32
WATCH_MARKS_KEPT = 3


@dataclass(frozen=True)
class Attack:
    """Who did it and how, as the players said (each part may be skipped): the attacker's
    fighter key, the action (``battle.ACTIONS``) and the weapon traits."""

    attacker: str = ""
    action: str = ""
    traits: tuple[str, ...] = ()


NO_ATTACK = Attack()


# --- the questions the flow asks (the screen shows each and hands the answer back) ---------


@dataclass(frozen=True)
class AskPriority:
    """Who won Priority this round (the Reinforcements step starts with them)."""

    title: str
    detail: str
    gangs: tuple[tuple[str, str], ...]  # (gang id, name)


@dataclass(frozen=True)
class RollDue:
    """How many Reinforcements ``gang`` draws this round: ``dice`` rolled or entered."""

    gang: str
    dice: str
    title: str
    who: str
    detail: str


@dataclass(frozen=True)
class Draws:
    """The draws of the Reinforcements step, one by one (players alternate)."""


@dataclass(frozen=True)
class Peek:
    """A player's look at their own hand, behind their curtain: the cards and what only
    the owner reads (their choices, the reminders due, the moments passed)."""

    gang: str
    gang_name: str
    player: str
    matches: tuple[Match, ...]
    shown: frozenset[str]
    notes: dict[str, str]
    passed: dict[str, str]
    reason: str = ""


@dataclass(frozen=True)
class RevealCard:
    """A card revealed to both players (``mode``: its reward walked now, or deferred to
    the end or to the post-battle ``later``); or, in mode REWARD, its reward walked."""

    gang: str
    gang_name: str
    match: Match
    mode: str
    later: str = ""


@dataclass(frozen=True)
class ConfirmFinish:
    """Every reward due is walked and every player has had a last look: finish?"""

    title: str = "Finish the battle and open the post-battle sequence?"
    # (keys named by binding id, ``{key:<id>}``: the screen fills in the key in force)
    detail: str = ("Each player may first peek at their hand ({key:battle.hand}) to reveal a Sub-plot met "
                   "at the end.")


@dataclass(frozen=True)
class StartWalk:
    """One player's walk at the start of the game: the cards that act now, and each
    crew's deployed fighters (id, name, type) for a card that picks one."""

    side: SideSetup  # the walk's choices are stored in it
    owner: str
    cards: tuple[subplots.SubplotCard, ...]
    own: tuple[tuple[str, str, str], ...]
    enemy: tuple[tuple[str, str, str], ...]


@dataclass
class Finishing:
    """Where the finish walk stands: the players offered a last look already."""

    offered: set[str] = field(default_factory=set)


class BattleFlow:
    """One battle in the tracker: its set-up, its record, the hands watched, what now."""

    def __init__(self, campaign: Campaign, number: int, data: dict[str, Any] | None = None, *,
                 setup: BattleSetup | None = None, record: BattleRecord | None = None,
                 rule_data: RuleData | None = None) -> None:
        """The battle stage of battle ``number``: its set-up and record as the battle file
        decoded them (``rules.stages.battle_file``: what the tracker is given), or (tests,
        the command line) a battle file's plain ``data``, decoded here."""
        self.campaign = campaign
        self.number = number
        #: the rule data in force (a pack's Sub-plot deck: its cards, its watchers)
        self.rule_data = rule_data
        if data is not None:
            setup = BattleSetup.from_data(data["setup"]) if data.get("setup") else None
            record = BattleRecord.from_data(data.get("battle"))
        #: no set-up in the file: a quick battle of two whole gangs (to save at once)
        self.new_setup = setup is None
        if setup is not None:
            self.setup = setup
        else:
            summary = summary_of(campaign, number)
            gangs = summary.gangs if summary is not None else []
            if len(gangs) != 2:
                gangs = [g.id for g in campaign.gangs[:2]]
            self.setup = default_setup(campaign, number, gangs[0], gangs[1])
        # the log and the tracker's own keys (seen, rejected, outcome, the public cards)
        self.battle_record = (record or BattleRecord()).resumed(self.setup, campaign, rule_data)
        self.hands = hands_of(self.setup)
        self.card_names: dict[str, str] = {}
        #: card ids of the set-up that are no Sub-plot (left out of the hands, said once)
        self.unknown_cards: list[str] = []
        for gang, cards in self.hands.items():
            for cid in list(cards):
                try:
                    self.card_names[cid] = subplots.card(cid, rule_data).name
                except (KeyError, ValueError):
                    cards.remove(cid)
                    self.unknown_cards.append(cid)
        self.gangs = list(self.battle.state.sides)
        # rounds whose Reinforcements step the players skipped (Esc): not offered again
        # when leaving the End phase (d resumes it)
        self.skipped_steps: set[int] = set()
        self._watch: HandWatch | None = None
        self._watch_last: Event | None = None
        #: copies of the watch at the latest multiples of WATCH_MARK_EVERY events fed
        #: (with the event fed last): an undo feeds on from one, not from the start
        self._watch_marks: list[tuple[int, Event, HandWatch]] = []
        self._matches: list[Match] = []
        self._reminders: list[Reminder] = []
        self._matches_rev = -1

    # --- the record -------------------------------------------------------------------------

    @property
    def battle(self) -> Battle:
        """The log with undo/redo (the record's)."""
        return self.battle_record.battle

    @property
    def state(self) -> BattleState:
        return self.battle_record.state

    @property
    def shown(self) -> dict[str, dict[str, str]]:
        """Cards the owner showed before round 1, with their open choice (public)."""
        return self.battle_record.public

    def replay_problem(self) -> str:
        """What is said when part of a log edited by hand does not replay."""
        return (f"The log stops before {self.battle_record.problem}. That event and the ones "
                "after it are kept in the battle file under battle.rejected; the battle goes "
                "on from the last event that replays.")

    def battle_data(self) -> dict[str, Any]:
        """The battle file's ``battle`` part, to save."""
        return self.battle_record.to_data()

    def setup_data(self) -> dict[str, Any]:
        """The battle file's ``setup`` part, to save (a quick battle's, the walk's choices)."""
        return self.setup.to_data()

    def log_event(self, ev: Event) -> str:
        """Record a new event; its line in the log (BattleError when it cannot happen)."""
        self.battle_record.log_event(ev)
        return describe(ev, self.state, self.card_names)

    def undo(self) -> str:
        """Undo the last event: what the message line says."""
        ev = self.battle_record.undo()
        return "Nothing to undo." if ev is None else \
            f"Undone: {describe(ev, self.state, self.card_names)}"

    def redo(self) -> str:
        try:
            ev = self.battle_record.redo()
        except BattleError as error:
            return f"Cannot redo: {error}"
        return "Nothing to redo." if ev is None else \
            f"Redone: {describe(ev, self.state, self.card_names)}"

    # --- each kind's event, from typed arguments ---------------------------------------------

    @staticmethod
    def state_change(fighter: str, state: str, by: Attack = NO_ATTACK) -> Event:
        """A fighter's new state (a takedown with who did it and how, when asked)."""
        return StateEvent(fighter=fighter, state=state, attacker=by.attacker,
                     action=by.action, traits=by.traits)

    @staticmethod
    def broken_by(fighter: str, by: Attack = NO_ATTACK) -> Event:
        return ConditionEvent(fighter=fighter, condition="Broken", attacker=by.attacker,
                     action=by.action, traits=by.traits)

    @staticmethod
    def flesh_wound(fighter: str, by: Attack = NO_ATTACK, amount: int = 1) -> Event:
        return FleshWoundEvent(fighter=fighter, amount=amount, attacker=by.attacker,
                     action=by.action, traits=by.traits)

    @staticmethod
    def attacked(fighter: str, by: Attack = NO_ATTACK) -> Event:
        """An attack on the fighter that changed nothing (the weapon used)."""
        return AttackEvent(fighter=fighter, attacker=by.attacker, action=by.action,
                     traits=by.traits)

    @staticmethod
    def recovery(fighter: str, result: str) -> Event:
        return RecoveryEvent(fighter=fighter, result=result)

    @staticmethod
    def condition(f: FighterState, name: str) -> Event:
        """The condition gained, or lost when the fighter has it."""
        return ConditionEvent(fighter=f.key, condition=name, lost=name in f.conditions)

    @staticmethod
    def xp(fighter: str, amount: int) -> Event:
        return XpEvent(fighter=fighter, amount=amount)

    @staticmethod
    def activate(fighter: str) -> Event:
        return ActivateEvent(fighter=fighter)

    @staticmethod
    def failed_test(f: FighterState, test: str) -> Event:
        """A failed test: the fighter's, or the gang's for a Bottle test."""
        if test == "bottle":
            return FailedTestEvent(gang=f.gang, test=test)
        return FailedTestEvent(fighter=f.key, test=test)

    @staticmethod
    def priority(gang: str) -> Event:
        return PriorityEvent(gang=gang)

    @staticmethod
    def tactic(gang: str, name: str = "") -> Event:
        return TacticEvent(gang=gang, note=name)

    @staticmethod
    def side_job(gang: str) -> Event:
        return SideJobEvent(gang=gang)

    @staticmethod
    def vp(gang: str, amount: int) -> Event:
        return VpEvent(gang=gang, amount=amount)

    @staticmethod
    def end(winner: str, fled: tuple[str, ...]) -> Event:
        return EndEvent(winner=winner, fled=fled)

    @staticmethod
    def reveal(gang: str, card: str, result: RevealResult) -> Event:
        return BattleRecord.reveal_event(gang, card, result)

    @staticmethod
    def reward(gang: str, card: str, result: RevealResult) -> Event:
        return BattleRecord.reward_event(gang, card, result)

    @staticmethod
    def arrival(fighter: str, d6: int) -> Event:
        """A Reinforcement drawn in the step arrives, with its D6 (BattleError: bad face)."""
        return arrival_event(fighter, d6)

    def due(self, gang: str, r: Roll) -> Event:
        return due_event(gang, self.state.round, r)

    def next_phase(self) -> Event:
        return next_phase_event(self.state)

    def deploy(self, f: FighterState) -> Event:
        """A Reinforcement arrives outside the step: the fighter if not yet deployed, else
        the next of the crew's Reinforcements deck (BattleError when it is out)."""
        if f.state != NOT_DEPLOYED:
            reserves = self.state.sides[f.gang].reserves
            if not reserves:
                raise BattleError(f"{self.state.sides[f.gang].name} have no Reinforcements left")
            f = self.state.fighters[reserves[0]]
        return ReinforcementEvent(fighter=f.key)

    # --- the hands against the log -----------------------------------------------------------

    @property
    def matches(self) -> list[Match]:
        """The hands against the log: fed one new event at a time; after an undo, fed on
        from the latest mark the log still holds (a copy of the watch a few dozen events
        back), so a key's cost does not grow with the log."""
        if self._matches_rev != self.battle.revision:
            log = self.battle.log
            run = self._watch
            if run is None or run.fed > len(log) or (
                run.fed and self._watch_last is not log[run.fed - 1]
            ):
                run = self._watch = self._watch_from_mark(log)
            every, kept = WATCH_MARK_EVERY, WATCH_MARKS_KEPT
            for ev in log[run.fed:]:
                run.feed(ev)
                if run.fed % every == 0 and len(log) - run.fed < every * kept:
                    self._watch_marks.append((run.fed, ev, run.copy()))
                    del self._watch_marks[:-kept]
            self._watch_last = log[-1] if log else None
            self._matches = run.matches()
            self._reminders = run.reminders()
            self._matches_rev = self.battle.revision
        return self._matches

    @property
    def reminders(self) -> list[Reminder]:
        """Cards the tracker cannot decide whose timing the log has reached."""
        self.matches  # noqa: B018 - brings the watch up to date
        return self._reminders

    def _watch_from_mark(self, log: Sequence[Event]) -> HandWatch:
        """A watch to feed ``log`` on from: a copy of the latest mark whose events the log
        still holds (events are only appended and taken back from the end, so the event
        at a mark's last place tells), else a new one. Marks past the log are dropped."""
        marks = self._watch_marks
        while marks:
            fed, last, mark = marks[-1]
            if fed <= len(log) and log[fed - 1] is last:
                return mark.copy()
            marks.pop()
        return HandWatch(self.hands, watcher_table(self.rule_data), facts=self.setup,
                         data=self.rule_data)

    def rewatch(self) -> None:
        """The set-up's facts changed (the start walk's choices): watch the log again."""
        self._watch = None
        self._watch_marks = []
        self._matches_rev = -1

    def hand_matches(self, gang: str) -> list[Match]:
        return [m for m in self.matches if m.gang == gang]

    def player(self, gang: str) -> str:
        try:
            return self.campaign.gang(gang).player
        except KeyError:
            return ""

    def side_name(self, gang: str) -> str:
        return self.state.sides[gang].name

    def mark_seen(self, gang: str) -> bool:
        """The owner has looked: their marker stays off until another card is met. True
        when something new was seen (the record to save)."""
        return self.battle_record.mark_seen(
            gang, marker_keys(gang, self.hand_matches(gang), self.reminders))

    def phone_views(self) -> Any:
        """Each gang's own hand view (rules.hand_view): what its phone page shows."""
        from .hand_view import hand_views

        matches = self.matches  # feeds the watch
        return hand_views(self.setup, self.state, matches,
                          {g: self.player(g) for g in self.gangs}, self.reminders,
                          self.rule_data)

    # --- what the screen shows ---------------------------------------------------------------

    def top_line(self, phones: str = "") -> str:
        """The line above both crews: the battle, its scenario, where it stands."""
        st = self.state
        if st.ended:
            won = st.sides[st.winner].name if st.winner else ""
            where = f"Battle over: {won} win" if won else "Battle over: a draw"
            where += " · {key:battle.finish} finish"  # (the screen names the key in force)
        else:
            prio = st.sides[st.priority].name if st.priority else "-"
            where = f"Round {st.round} · {PHASE_NAMES[st.phase]} phase · Priority: {prio}"
        if phones:
            where += f" · phones on {phones}"
        return f"Battle {self.number} · {self.setup.objective or 'Quick battle'} · {where}"

    def side_head(self, gang: str, strict: bool = False) -> str:
        """A crew's two head lines: its name, its public cards; VP, Gang Tactics, what is
        left, its hand as card backs and (unless ``strict``) the owner's discreet marker."""
        st = self.state
        side = st.sides[gang]
        hand = self.hand_matches(gang)
        shown = self.shown.get(gang, {})
        hidden = [m for m in hand if m.status != REVEALED and m.card not in shown]
        backs = " ".join(CARD_BACK for _ in hidden)
        marker = ""
        seen = self.battle_record.seen.get(gang, ())
        if not strict and owner_marker(gang, hand, self.reminders, seen):
            marker = f" {MARKER}"
        line1 = side.name + (" (won)" if st.ended and st.winner == gang else "")
        public = self.battle_record.public_in_order(gang)
        if public:
            line1 += " · " + ", ".join(self.card_names.get(c, c) for c in public)
        gained = sum(r.amount for _, r in side.rewards if r.kind == "gang_tactics")
        parts = [f"VP {side.vp}", f"GT {len(side.tactics)}" + (f" +{gained}" if gained else "")]
        if side.reserves:
            parts.append(f"Res {len(side.reserves)}")
        if side.bottle_failed:
            parts.append("Bottled")
        if side.side_job_done:
            parts.append("Job done")
        if hand:
            parts.append(f"Hand {backs or '-'}{marker}")
        if any(m.reward_due for m in hand):
            parts.append("reward due")
        return f"{line1}\n{'  '.join(parts)}"

    def public_name(self, gang: str, card: str) -> str:
        """A public card's name, with the fighters its open choice picked (e.g. the bomb
        carrier of A Little Surprise): both players saw the choice."""
        name = self.card_names.get(card, card)
        value = self.shown.get(gang, {}).get(card, "")
        names = [self.state.name_of(f"{self._owner_of(p, gang)}/{p}")
                 for p in value.split("|") if p]
        return f"{name} ({' and '.join(names)})" if names else name

    def _owner_of(self, fighter_id: str, gang: str) -> str:
        """The gang whose fighter has this id (the owner's first, then the other)."""
        for g in [gang, *[x for x in self.gangs if x != gang]]:
            if f"{g}/{fighter_id}" in self.state.fighters:
                return g
        return gang

    def owner_notes(self, gang: str) -> dict[str, str]:
        """What only the owner reads on their peek: each card's choice (a secret number,
        the fighter picked) and the reminders whose time has come."""
        notes: dict[str, list[str]] = {}
        side = next((s for s in self.setup.sides if s.gang == gang), None)
        for cid, value in (side.subplot_choices if side else {}).items():
            if not value:
                continue
            names = [self.state.name_of(f"{g}/{part}") if f"{g}/{part}" in self.state.fighters
                     else part for part in value.split("|") for g in [self._owner_of(part, gang)]]
            try:
                secret = subplots.card(cid, self.rule_data).choice_info.secret
            except subplots.SubplotError:
                continue
            label = "Your secret choice" if secret else "Chosen"
            notes.setdefault(cid, []).append(f"{label}: {' and '.join(names)}")
        seen = self.battle_record.seen.get(gang, ())
        passed = self.passed_moments(gang)
        for r in self.reminders:
            if r.gang == gang:
                due = "" if r.key in seen else " (new)"
                check = (f"its moment ({passed[r.card]}) has passed" if r.card in passed
                         else "check this card")
                notes.setdefault(r.card, []).append(
                    f"Reminder{due}: {TIMINGS.get(r.timing, r.timing)} - {check}")
        return {c: "\n".join(lines) for c, lines in notes.items()}

    def passed_moments(self, gang: str) -> dict[str, str]:
        """For the owner's peek only: the cards of the hand, not revealed, whose moment has
        passed (a Choose Crew card not revealed at Choose Crew), with that moment."""
        side = next((s for s in self.setup.sides if s.gang == gang), None)
        if side is None:
            return {}
        st = self.state
        revealed = set(st.sides[gang].revealed) if gang in st.sides else set()
        out = {}
        for cid in side.hand:
            if cid in revealed:
                continue
            moment = subplots.moment_passed(cid, st.round, st.ended, side.subplot_choices,
                                            self.rule_data)
            if moment:
                out[cid] = moment
        return out

    # --- what now: a peek, a reveal ----------------------------------------------------------

    def peek(self, gang: str, reason: str = "") -> Peek | None:
        """The owner's look at their hand (None: the gang holds no Sub-plots)."""
        hand = self.hand_matches(gang)
        if not hand:
            return None
        return Peek(gang, self.side_name(gang), self.player(gang), tuple(hand),
                    frozenset(self.shown.get(gang, {})), self.owner_notes(gang),
                    self.passed_moments(gang), reason)

    def reveal_question(self, gang: str, card: str) -> RevealCard:
        """A card of ``gang`` revealed: its reward walked now, or deferred (to the end of
        the battle, or to the post-battle step its reward needs)."""
        from ..subplots.effects import post_battle_step

        match = next(m for m in self.hand_matches(gang) if m.card == card)
        mode = DEFER if match.reward_at == "end" and not self.state.ended else REVEAL
        later = post_battle_step(card)
        if later:  # its reward needs the post-battle results (e.g. the Lasting Injuries)
            mode = DEFER
        chosen = self.shown.get(gang, {}).get(card, "").split("|")[0]
        if not match.fighter and f"{gang}/{chosen}" in self.state.fighters:
            match = replace(match, fighter=f"{gang}/{chosen}")  # the fighter the card chose
        return RevealCard(gang, self.side_name(gang), match, mode,
                          f"in the post-battle sequence ({later.replace('-', ' ')} step)"
                          if later else "")

    # --- what now: the start of the game ----------------------------------------------------

    def start_walk_due(self) -> bool:
        """The start of the game is walked once, with Sub-plots in play, before round 1
        has moved on (Esc at a curtain leaves it for the next time the battle opens)."""
        return self.battle_record.start_walk_due(self.setup, self.hands)

    def start_walk(self) -> list[StartWalk]:
        """Each player's walk, in the set-up's order: every player is walked, even with
        nothing to walk, so the curtain itself says nothing about a hand."""
        out = []
        for side in self.setup.sides:
            gang = side.gang
            if gang not in self.state.sides:
                continue
            enemy = next((g for g in self.gangs if g != gang), "")
            out.append(StartWalk(
                side, self.player(gang) or self.side_name(gang),
                tuple(subplots.start_of_game_cards(side.hand, side.subplot_choices,
                                                   self.rule_data)),
                self._deployed(gang), self._deployed(enemy)))
        return out

    def _deployed(self, gang: str) -> tuple[tuple[str, str, str], ...]:
        return tuple((f.id, f"{f.name} ({f.type})", f.type) for f in self.state.crew(gang)
                     if f.state != NOT_DEPLOYED)

    def start_walked(self, walked: Sequence[str]) -> str:
        """The walk is over for the gangs of ``walked`` (their choices are in the set-up):
        the public cards again, the reminders of the start seen; the message line."""
        done = len(walked) == len(self.setup.sides)
        self.battle_record.update_public(self.setup, self.rule_data)
        self.rewatch()  # the choices are facts of the watch (Dead of Night's round)
        # walking the start is looking at its reminders
        self.battle_record.walked_start(
            {g: [r.key for r in self.reminders if r.gang == g and r.timing == "battle_start"]
             for g in walked}, everyone=done)
        shown = [self.public_name(g, c) for g in self.gangs for c in self.shown.get(g, {})
                 if subplots.card(c, self.rule_data).reveal == "start_of_battle"]
        said = f" Revealed: {', '.join(shown)}." if shown else ""
        return ("Start of the battle walked: round 1 begins." if done else
                "The start of the battle is not walked for everyone yet: it is offered "
                "again when the battle reopens in round 1.") + said

    # --- what now: the Reinforcements step of the End phase --------------------------------

    def step_before_next_phase(self) -> bool:
        """Leaving an End phase whose Reinforcements step is still to do (and not skipped):
        the step comes first."""
        st = self.state
        return (st.phase == END and st.round not in self.skipped_steps
                and reinforcement_step_due(st, self.setup))

    def step_due(self) -> bool:
        """This End phase's Reinforcements step still has a roll or a draw to make."""
        return reinforcement_step_due(self.state, self.setup)

    def resume_step(self) -> bool:
        """d: the step is resumed when it is due (True), even if skipped."""
        if not self.step_due():
            return False
        self.skipped_steps.discard(self.state.round)
        return True

    def skip_step(self) -> str:
        self.skipped_steps.add(self.state.round)
        return "Reinforcements step skipped ({key:battle.deploy} resumes it; {key:battle.next_phase} moves on)."

    def reinforcements_next(self, rng: random.Random) -> AskPriority | RollDue | Draws | Event | None:
        """The step's next question: Priority (if not recorded this round), each gang's
        number due (an event to record at once when the rule's number is fixed), then the
        draws; None when the step is done."""
        st = self.state
        if not reinforcement_step_due(st, self.setup):
            return None
        title = f"Round {st.round} · Reinforcements"
        if needs_priority(st, self.setup):
            return AskPriority(
                f"{title}: who won Priority this round?",
                "The Priority winner draws first; players then alternate. {key:pick_one.cancel} skips the "
                "Reinforcements step.", tuple((g, st.sides[g].name) for g in self.gangs))
        rolls = due_roll_needed(st, self.setup)
        if rolls:
            gang, expr = rolls[0], self.setup.reinforcements_each_round
            if not parse(expr).dice:  # a fixed number: nothing to roll
                return self.due(gang, roll(expr, rng))
            side = st.sides[gang]
            return RollDue(gang, expr, title, f"{side.name}: how many arrive this round",
                           f"{plural(len(side.reserves), 'card')} in their Reinforcements deck")
        return Draws()

    # --- what now: the finish ---------------------------------------------------------------

    def finish_next(self, walk: Finishing) -> RevealCard | Peek | ConfirmFinish:
        """The finish's next question: a revealed card's reward due at the end, then each
        player still holding a card a last look (asking everyone keeps met cards secret),
        then the confirmation."""
        due = [m for m in self.matches if m.reward_due]
        if due:
            m = due[0]
            return RevealCard(m.gang, self.side_name(m.gang), m, REWARD)
        for gang in self.gangs:
            if gang in walk.offered:
                continue
            if not [m for m in self.hand_matches(gang) if m.status != REVEALED]:
                continue
            walk.offered.add(gang)
            name = self.side_name(gang)
            look = self.peek(gang, reason=f"a last look at the Sub-plots of {name} before the "
                                          "battle is finished ({key:privacy_curtain.cancel}: skip)")
            if look is not None:
                return look
        return ConfirmFinish()

    def finish(self, save_battle: Callable[[BattleRecord], bool],
               commit_campaign: Callable[[Campaign], bool]) -> bool:
        """Finish the battle and move it to the post-battle stage with new values: a
        record with the outcome (``BattleRecord.finished``; this one is not changed)
        saved (``save_battle``), then the campaign's summary of the battle moved on with
        the outcome's winner and gangs committed by their owner (``commit_campaign``).
        Each says whether it was made; when both were, the flow adopts the new record.
        When one fails the old values stand (``rules.core.stage.move``: finishing again
        once the disk is fixed moves on). True when both were made."""
        record = self.battle_record.finished(self.setup, self.card_names, self.rule_data)
        o = record.outcome
        assert o is not None
        summary = summary_of(self.campaign, self.number)
        keep = summary is not None and summary.scenario
        if not stage.move(self.campaign, self.number, BattleStatus.POST_BATTLE,
                          part=self.battle_record, new_part=record, save_part=save_battle,
                          commit_campaign=commit_campaign,
                          decided={"winner": o.winner, "gangs": list(o.gangs),
                                   "scenario": "" if keep else self.setup.objective}):
            return False
        self.battle_record = record
        return True


__all__ = [
    "AskPriority", "Attack", "BattleError", "BattleFlow", "CARD_BACK", "ConfirmFinish", "Draws",
    "Finishing", "MARKER", "Peek", "REWARD", "RevealCard", "RevealResult", "Reward", "RollDue",
    "StartWalk", "summary_of",
]
