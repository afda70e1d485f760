"""The whole set-up, and the start of the battle."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Markdown
from munda_tui.widgets.keys import keys_text
from munda_tui.widgets.plain import Static

from munda_tui.screens.prebattle.steps.base import StepPanel


class SummaryStep(StepPanel):
    BINDINGS = [Binding("s", "start", "Start battle", id="summary_step.start")]

    def compose(self) -> ComposeResult:
        yield Static(keys_text(self, "The whole set-up. {key:summary_step.start} starts the battle; "
                                     "{key:pre_battle.back} goes back to change it."), classes="hint")
        with VerticalScroll(id="summary-scroll"):
            yield Markdown(self.flow.summary_markdown(), id="summary")

    def on_mount(self) -> None:
        self.query_one("#summary-scroll").focus()

    def action_start(self) -> None:
        self.post_message(StepPanel.StartBattle())

    def finish(self) -> str | None:
        self.post_message(StepPanel.StartBattle())
        return ""
