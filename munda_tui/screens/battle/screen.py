"""The live battle tracker: both crews, the log, and the hidden Sub-plots watched.

``BattleScreen(host)`` shows a :class:`munda_tui.rules.battle.flow.BattleFlow` (the battle
file's set-up and record as the stage host decoded them, the hands watched) and asks its
questions, each awaited in a worker (``push_screen_wait``); the flow decides. Every key
records one event the flow builds, saved (``StageHost.save``) before the screen moves on. A met card shows a
discreet marker (``◆``) on its owner's side only. Finishing opens the post-battle sequence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from munda_tui.widgets.plain import Static

from munda_tui.rules.battle.events import (
    RECOVERY_NAMES, RECOVERY_RESULTS, SERIOUSLY_INJURED, STATE_NAMES, TEST_NAMES, TESTS, Battle,
    BattleState, Event, FighterState,
)
from munda_tui.rules.battle.flow import (
    REWARD, AskPriority, Attack, BattleError, BattleFlow, ConfirmFinish, Finishing, Peek,
    RevealCard, RollDue,
)
from munda_tui.screens.battle.attack import AttackScreen
from munda_tui.screens.battle.bindings import BATTLE_ACTIONS, bind_pack_conditions, bindings, help_text
from munda_tui.screens.battle.end import EndScreen
from munda_tui.screens.battle.hand import peek
from munda_tui.screens.battle.log import LogScreen
from munda_tui.screens.battle.phone import PhoneKeys, PhoneLink
from munda_tui.screens.battle.reinforcements import ReinforcementScreen
from munda_tui.screens.battle.reveal import RevealScreen
from munda_tui.screens.common.dialogs import ConfirmScreen, ErrorScreen, LineScreen, Pick, PickOneScreen
from munda_tui.screens.common.asking import Asking
from munda_tui.screens.common.dice_prompt import DicePrompt
from munda_tui.widgets.event_log import EventLog
from munda_tui.widgets.fighter_table import FighterTable
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import keys_text

if TYPE_CHECKING:
    from munda_tui.screens.common.stage_host import StageHost


class BattleScreen(Asking, PhoneKeys, Screen[None]):
    HELP_TITLE = "Battle tracker"
    CSS_PATH = "battle.tcss"
    BINDINGS = bindings()  # (read from the data when this module loads)
    HELP = help_text(BINDINGS)

    def __init__(self, host: "StageHost") -> None:
        super().__init__()
        self.host = host  # the battle opened: its file's parts, the saves, the move on
        self.handle, self.number = host.handle, host.number
        self.flow = host.battle_flow()
        self.strict = host.campaign.settings.strict_secrecy
        self.gangs = self.flow.gangs
        self._side = 0
        self._texts: dict[str, str] = {}
        self.phones = PhoneLink()  # each player's hand on their phone (m), off until asked
        self.rule_data = host.app.rule_data  # the packs' conditions: keys, help, the table
        bind_pack_conditions(self, self.rule_data)

    # (the flow's, as the tests and the benchmark read them)
    battle: Battle = property(lambda self: self.flow.battle)  # type: ignore[assignment]
    state: BattleState = property(lambda self: self.flow.state)  # type: ignore[assignment]
    setup = property(lambda self: self.flow.setup)
    hands = property(lambda self: self.flow.hands)
    hand_matches = property(lambda self: self.flow.hand_matches)

    def compose(self) -> ComposeResult:
        yield Static("", id="top", markup=False)
        with Horizontal(id="sides"):
            for i, gang in enumerate(self.gangs):
                with Vertical(classes="side", id=f"side-{i}"):
                    yield Static("", classes="side-head", id=f"head-{i}", markup=False)
                    yield FighterTable(gang, self.rule_data, id=f"crew-{i}")
        yield EventLog(id="log")
        yield Static("", id="message", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if self.flow.new_setup:
            self._save("setup")
        if self.flow.battle_record.changed or self.flow.new_setup:
            self._save()
        self.refresh_view()
        self.table(0).focus()
        if self.flow.start_walk_due():
            self.run_worker(self._walk_start(), exclusive=True, group="start-walk")
        if self.flow.unknown_cards:
            self.message("Unknown Sub-plot cards left out: " + ", ".join(self.flow.unknown_cards))
        if self.flow.battle_record.problem:
            self.app.push_screen(ErrorScreen("Part of the battle log could not be replayed",
                                             self.flow.replay_problem()))

    def table(self, side: int) -> FighterTable:
        return self.query_one(f"#crew-{side}", FighterTable)

    def refresh_view(self) -> None:
        if self.phones.running:
            self.phones.publish(self.flow.phone_views())
        self._set("top", keys_text(self, self.flow.top_line(self.phones.address if self.phones.running else "")))
        for i, gang in enumerate(self.gangs):
            self._set(f"head-{i}", self.flow.side_head(gang, self.strict))
            self.table(i).show(self.state)
        self.query_one("#log", EventLog).show(self.battle, self.flow.card_names)

    def _set(self, widget_id: str, text: str) -> None:
        """Update a fixed-size line only when its text changed, without a re-layout."""
        if self._texts.get(widget_id) != text:
            self._texts[widget_id] = text
            self.query_one(f"#{widget_id}", Static).update(text, layout=False)

    def message(self, text: str) -> None:
        self._set("message", text)

    # --- recording and saving ---------------------------------------------------------------

    def log_event(self, ev: Event) -> bool:
        try:
            said = self.flow.log_event(ev)
        except BattleError as error:
            self.message(f"Not recorded: {error}")
            return False
        self._save()
        self.message(said)
        self.refresh_view()
        return True

    def _save(self, part: str = "battle") -> None:
        """The record as the battle file's ``battle`` part (on every key), or its ``setup``
        (a quick battle's, or the choices of the start walk); a failure is said as every
        save's is (nothing lost in memory)."""
        self.host.save(part, "The battle")

    def selected(self) -> FighterState | None:
        key = self.table(self._side).selected
        f = self.state.fighters.get(key) if key else None
        if f is None:
            self.message("Select a fighter first (up/down).")
        return f

    @property
    def side_gang(self) -> str:
        return self.gangs[self._side]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in BATTLE_ACTIONS or action == "finish":  # the battle's keys, until it ends
            return self.state.ended == (action == "finish")
        return True

    def on_descendant_focus(self, event) -> None:  # type: ignore[no-untyped-def]
        if isinstance(event.widget, FighterTable):
            self._side = self.gangs.index(event.widget.gang)

    # --- keys on the selected fighter -------------------------------------------------------

    def action_side(self, side: int) -> None:
        self._side = side
        self.table(side).focus()

    def action_down(self, new_state: str) -> None:
        self._by_whom(STATE_NAMES[new_state], lambda f, by: self.flow.state_change(
            f.key, new_state, by), cancelled="Cancelled.")

    def action_set_state(self, new_state: str) -> None:
        if (f := self.selected()) is not None:
            self.log_event(self.flow.state_change(f.key, new_state))

    def action_broken_by(self) -> None:
        """Broken, with the fighter whose attack broke them; a Broken fighter rallies."""
        f = self.state.fighters.get(self.table(self._side).selected or "")
        if f is not None and "Broken" in f.conditions:
            self.action_condition("Broken")
        else:
            self._by_whom("Broken, caused by", lambda f, by: self.flow.broken_by(f.key, by))

    def action_flesh_wound(self) -> None:
        self._by_whom("Flesh Wound", lambda f, by: self.flow.flesh_wound(f.key, by))

    def action_attack(self) -> None:
        self._by_whom("attacked, no result", lambda f, by: self.flow.attacked(f.key, by))

    def _by_whom(self, title: str, make: Callable[[FighterState, Attack], Event],
                 cancelled: str = "") -> None:
        """Who did it to the selected fighter and how (Enter skips); then ``make``'s event."""
        if (f := self.selected()) is not None:
            self._ask_by_whom(f, title, make, cancelled)

    @work(group="dialog")
    async def _ask_by_whom(self, f: FighterState, title: str,
                           make: Callable[[FighterState, Attack], Event], cancelled: str) -> None:
        if (by := await self.ask(AttackScreen(f"{f.name}: {title}", self.state, f.key))) is not None:
            self.log_event(make(f, by))
        elif cancelled:
            self.message(cancelled)

    @work(group="dialog")
    async def action_recovery(self) -> None:
        if (f := self.selected()) is None:
            return
        if f.state != SERIOUSLY_INJURED:
            self.message(f"{f.name} is not Seriously Injured: no Recovery test.")
        elif result := await self.ask(PickOneScreen(
                f"{f.name}: Recovery test", [Pick(r, RECOVERY_NAMES[r]) for r in RECOVERY_RESULTS])):
            self.log_event(self.flow.recovery(f.key, result))

    def action_condition(self, name: str) -> None:
        if (f := self.selected()) is not None:
            self.log_event(self.flow.condition(f, name))

    @work(group="dialog")
    async def action_other_condition(self) -> None:
        if (f := self.selected()) is None:
            return
        have = f", has: {', '.join(f.conditions)}" if f.conditions else ""
        if name := await self.ask(LineScreen(
                f"{f.name}: condition gained or lost{have}", placeholder="e.g. Insane, Webbed",
                hint="Enter to record, {key:line.cancel} to cancel")):
            self.log_event(self.flow.condition(f, name))

    def action_xp(self, amount: int) -> None:
        if (f := self.selected()) is not None:
            self.log_event(self.flow.xp(f.key, amount))

    def action_activate(self) -> None:
        if (f := self.selected()) is not None:
            self.log_event(self.flow.activate(f.key))

    def action_deploy(self) -> None:
        if self.flow.resume_step():
            self.walk_reinforcements()
            return
        if (f := self.selected()) is None:
            return
        try:
            ev = self.flow.deploy(f)
        except BattleError as error:
            self.message(f"{error}.")
            return
        self.log_event(ev)
        self.table(self._side).select(ev.fighter)

    def action_log(self) -> None:
        self.app.push_screen(LogScreen(self.battle, self.flow.card_names))

    @work(group="dialog")
    async def action_failed_test(self) -> None:
        if (f := self.selected()) is None:
            return
        side = self.flow.side_name(f.gang)
        options = [Pick(t, f"{TEST_NAMES[t]} ({side if t == 'bottle' else f.name})") for t in TESTS]
        if test := await self.ask(PickOneScreen("Which test was failed?", options)):
            self.log_event(self.flow.failed_test(f, test))

    # --- battle-wide keys -------------------------------------------------------------------

    def action_next_phase(self) -> None:
        if self.flow.step_before_next_phase():  # its Reinforcements step first
            self.walk_reinforcements(then_next_phase=True)
        elif self.log_event(self.flow.next_phase()) and self.flow.step_due():
            self.walk_reinforcements()

    @work(group="dialog")
    async def walk_reinforcements(self, then_next_phase: bool = False) -> None:
        """The Reinforcements step, one question at a time as the flow asks them; the next
        phase after it when asked (not when the step is skipped with Esc)."""
        rng = munda_app(self).rng
        by_hand = self.handle.campaign.settings.dice_by_hand
        while (q := self.flow.reinforcements_next(rng)) is not None:
            if isinstance(q, Event):  # a fixed number due: nothing to ask
                answer: Any = q
            elif isinstance(q, AskPriority):
                gang = await self.ask(PickOneScreen(
                    q.title, [Pick(g, name) for g, name in q.gangs], detail=keys_text(self, q.detail)))
                answer = self.flow.priority(gang) if gang else None
            elif isinstance(q, RollDue):
                out = await self.ask(DicePrompt(q.dice, title=q.title, who=q.who, detail=q.detail,
                                                rng=rng, prefer_entry=by_hand))
                answer = self.flow.due(q.gang, out.roll) if out and out.roll else None
            else:  # Draws
                answer = await self.ask(ReinforcementScreen(
                    self.battle, self.log_event, self.action_undo, rng, prefer_entry=by_hand))
            if answer is None:
                self.message(keys_text(self, self.flow.skip_step()))
                return
            if isinstance(answer, Event) and not self.log_event(answer):
                return
        if then_next_phase and self.log_event(self.flow.next_phase()) and self.flow.step_due():
            self.walk_reinforcements()

    @work(group="dialog")
    async def action_priority(self) -> None:
        if gang := await self.ask(PickOneScreen(
                "Who won Priority?", [Pick(g, self.flow.side_name(g)) for g in self.gangs])):
            self.log_event(self.flow.priority(gang))

    @work(group="dialog")
    async def action_tactic(self) -> None:
        gang = self.side_gang
        if (name := await self.ask(LineScreen(
                f"{self.flow.side_name(gang)} play a Gang Tactic", allow_empty=True,
                placeholder="its name (optional), Enter to record",
                hint="Enter to record, {key:line.cancel} to cancel"))) is not None:
            self.log_event(self.flow.tactic(gang, name))

    def action_side_job(self) -> None:
        self.log_event(self.flow.side_job(self.side_gang))

    def action_vp(self, amount: int) -> None:
        self.log_event(self.flow.vp(self.side_gang, amount))

    def action_undo(self) -> None:
        self._after_undo(self.flow.undo())

    def action_redo(self) -> None:
        self._after_undo(self.flow.redo())

    def _after_undo(self, said: str) -> None:  # (the flow's message line)
        if not said.startswith(("Nothing", "Cannot")):
            self._save()
            self.refresh_view()
        self.message(said)

    @work(group="dialog")
    async def action_end(self) -> None:
        choice = await self.ask(EndScreen([(g, self.flow.side_name(g)) for g in self.gangs]))
        if choice is not None:
            self.log_event(self.flow.end(choice.winner, choice.fled))

    def action_back(self) -> None:
        self.app.pop_screen()

    def on_unmount(self) -> None:
        self.host.fold_when_left()  # the battle file a player reads holds every event

    # --- Sub-plots: a peek, a reveal, the start of the game, the finish ----------------------

    @work(group="dialog")
    async def action_hand(self) -> None:
        if (look := self.flow.peek(self.side_gang)) is None:
            self.message(f"{self.flow.side_name(self.side_gang)} hold no Sub-plots.")
        else:
            await self._peek(look)

    async def _peek(self, look: Peek) -> bool:
        """The owner's curtain, their hand, and the card they reveal; False when nobody
        looked (the curtain left with Esc)."""
        looked, card = await peek(self.app, look)
        if looked and self.flow.mark_seen(look.gang):
            self._save()
            self.refresh_view()
        if card:
            await self._reveal(self.flow.reveal_question(look.gang, card))
        return looked

    async def _reveal(self, q: RevealCard) -> bool:
        """A card shown to both and its reward walked (or deferred); True when recorded."""
        result = await self.ask(RevealScreen(
            q.gang_name, q.match, self.state, munda_app(self).rng, mode=q.mode, later=q.later,
            prefer_entry=self.handle.campaign.settings.dice_by_hand))
        if result is None:
            return False
        make = self.flow.reward if q.mode == REWARD else self.flow.reveal
        return self.log_event(make(q.gang, q.match.card, result))

    async def _walk_start(self) -> None:
        from munda_tui.screens.battle.start import walk_start_of_game

        walked = await walk_start_of_game(self.app, self.flow.start_walk())
        said = self.flow.start_walked(walked)
        self._save("setup")
        self._save()
        self.refresh_view()
        self.message(said)

    @work(group="dialog")
    async def action_finish(self) -> None:
        """Walk the rewards due, offer each player a last peek at their hand, confirm."""
        walk = Finishing()
        while not isinstance(q := self.flow.finish_next(walk), ConfirmFinish):
            if isinstance(q, RevealCard):
                if not await self._reveal(q):
                    return
            else:
                await self._peek(q)
        if await self.ask(ConfirmScreen(q.title, keys_text(self, q.detail), yes="Finish", no="Not yet")):
            self.finish()

    def finish(self) -> None:
        """Store the outcome, mark the battle post-battle, open the post-battle sequence
        (a save that fails says so and leaves the tracker as it was saved last)."""
        if self.host.finish_battle(self.flow, "The battle's outcome"):
            munda_app(self).open_battle(self.number)
