"""A revealed Sub-plot, shown to both players, and its reward walked.

The card's text and why it matched are shown; ``g`` switches to the upgraded
reward (pre-set when the log shows its condition held), ``n`` marks the next reward
as not earned (that one only: a reward already rolled stays), ``s`` skips a reward that does not apply
(a card with alternatives), ``+`` adds a reward once more ("for each ...");
effects on the battle are shown, not banked. Enter rolls each reward in turn (by the app
or from real dice, through the dice prompt), asking which fighter gets XP
when the card gives it to "the fighter", then Enter records it. Nothing is
applied to a gang here: the rewards are banked on the battle. The plan (which rewards
are rolled, fixed, skipped or shown as effects, and every operation on it) is
:class:`munda_tui.rules.battle.reward_plan.RewardPlan`; this screen shows it and hands each key over.
"""

from __future__ import annotations

import random

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from munda_tui.widgets.plain import Label, Static

from munda_tui.rules.subplots import decks as subplots
from munda_tui.rules.battle.events import BattleState
from munda_tui.rules.battle.reward_plan import DEFER, REVEAL, REWARD, RevealResult, RewardLine, RewardPlan
from munda_tui.rules.battle.watch import Match
from munda_tui.screens.common.typed_app import rule_data_of
from munda_tui.screens.common.asking import Asking
from munda_tui.screens.common.dialogs import DIALOG_CSS, DialogScreen, Pick, PickOneScreen
from munda_tui.screens.common.dice_prompt import DiceOutcome, DicePrompt
from munda_tui.widgets.playing_card import PlayingCard
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import keys_text

__all__ = ["DEFER", "REVEAL", "REWARD", "RevealResult", "RevealScreen"]


class RevealScreen(Asking, DialogScreen["RevealResult | None"]):
    CSS_PATH = [DIALOG_CSS, "modals.tcss"]  # the kit's frame; its own sizes
    BINDINGS = [
        Binding("enter", "next", "Roll / record", id="reveal.next"),
        Binding("g", "upgrade", "Upgrade", tooltip="Switch to / from the upgraded reward", id="reveal.upgrade"),
        Binding("s", "skip", "Skip", tooltip="The next reward does not apply (skip it)", id="reveal.skip"),
        Binding("plus", "again", "Once more", key_display="+",
                tooltip="Add the last reward once more (e.g. 'for each ...')", id="reveal.again"),
        Binding("n", "earned", "Not earned", tooltip="The next reward is not earned (again: the last one is earned)", id="reveal.earned"),
        Binding("escape", "cancel", "Cancel", id="reveal.cancel"),
    ]

    def __init__(
        self,
        gang_name: str,
        match: Match,
        state: BattleState,
        rng: random.Random,
        *,
        mode: str = REVEAL,
        prefer_entry: bool = False,
        later: str = "",
    ) -> None:
        super().__init__()
        self.gang_name = gang_name
        self.match = match
        self.card = subplots.card(match.card, rule_data_of(self))
        self.state = state
        self.rng = rng
        self.mode = mode
        self.prefer_entry = prefer_entry
        self.plan = RewardPlan.for_match(match, state, mode=mode, later=later,
                                         data=rule_data_of(self))

    def compose(self) -> ComposeResult:
        title = (f"{self.gang_name} reveal a Sub-plot" if self.mode != REWARD
                 else f"{self.gang_name}: reward for {self.card.name}")
        with Vertical(id="dialog", classes="reveal"):
            yield Label(title, id="dialog-title")
            with VerticalScroll(id="reveal-body"):
                yield PlayingCard(None, self.card, id="reveal-card")
                yield Static("", id="reveal-why", markup=False)
                yield Static("", id="reveal-rewards", markup=False)
            yield Static("", id="reveal-hint", classes="hint", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        why = self.match.why
        self.query_one("#reveal-why", Static).update(f"Met: {why}" if why else "")
        # (the plan names keys by binding id: the keys in force here)
        self.query_one("#reveal-rewards", Static).update(keys_text(self, "\n".join(self.plan.text())))
        self.query_one("#reveal-hint", Static).update(keys_text(self, self.plan.hint()))
        self.refresh_bindings()  # (the keys the plan allows now: an answer came back)

    # --- keys: each hands its operation to the plan -----------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.plan.allows(action)

    def action_skip(self) -> None:
        if self.plan.skip():
            self._show()

    def action_again(self) -> None:
        if self.plan.again():
            self._show()

    def action_upgrade(self) -> None:
        self.plan.upgrade()
        self._show()

    def action_earned(self) -> None:
        self.plan.toggle_earned()
        self._show()

    @work(group="dialog")
    async def action_next(self) -> None:
        """Enter: the plan's next step, its questions awaited one after the other."""
        ask = self.plan.next()
        if ask.step == "record" and ask.result is not None:
            self.dismiss(ask.result)
        elif ask.step == "test":
            await self._roll_test()
        elif ask.step == "fighter" and ask.line is not None:
            await self._ask_fighter(ask.line)
        elif ask.step == "roll" and ask.line is not None:
            await self._roll(ask.line, ask.dice, ask.target)

    async def _ask_fighter(self, line: RewardLine) -> None:
        crew = [f for f in self.state.crew(self.match.gang)]
        key = await self.ask(
            PickOneScreen(f"{self.card.name}: which fighter gains the XP?",
                          [Pick(f.key, f"{f.name} ({f.type})") for f in crew]))
        if key:
            self.plan.choose_fighter(line, key)
            self._show()
            if line.result is None:
                await self._roll(line, self.plan.dice(line), key)

    async def _roll(self, line: RewardLine, dice: str, target: str) -> None:
        outcome: DiceOutcome | None = await self.ask(
            DicePrompt(dice, title=self.card.name, who=self.gang_name,
                       detail=line.spec.describe(), rng=self.rng,
                       prefer_entry=self.prefer_entry))
        if outcome is None or outcome.roll is None:
            return
        self.plan.rolled(line, outcome.roll, target)
        self._show()

    async def _roll_test(self) -> None:
        """The card's own roll before its reward: below the target, no reward."""
        outcome: DiceOutcome | None = await self.ask(
            DicePrompt(self.match.test, title=self.card.name, who=self.gang_name,
                       detail=f"{self.match.test_target}+ to gain the reward", rng=self.rng,
                       prefer_entry=self.prefer_entry))
        if outcome is None or outcome.roll is None:
            return
        self.plan.tested(outcome.roll)
        self._show()

    def action_cancel(self) -> None:
        self.dismiss(None)
