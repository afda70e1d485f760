"""Asks why a roll already made changes: a re-roll or a correction is never silent.

``R`` on a rolled line (pre-battle) or after a roll (post-battle) opens this; the
reason is kept with both results in the record, and the report shows
"re-rolled: 1 → 6, reason". The new roll itself is then made with the
:class:`~munda_tui.widgets.dice_prompt.DicePrompt` (``r`` or real dice).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from munda_tui.widgets.footer import Footer


class RerollReason(ModalScreen[str | None]):
    """Dismisses with the reason typed (never empty), or None on Escape."""

    DEFAULT_CSS = """
    RerollReason { align: center middle; background: $background 60%; }
    RerollReason #reroll-dialog {
        width: 68; max-width: 95%; height: auto; border: thick $warning;
        background: $surface; padding: 0 1;
    }
    RerollReason #reroll-title { text-style: bold; }
    RerollReason #reroll-was { color: $text-muted; }
    RerollReason #reroll-error { color: $error; }
    """
    BINDINGS = [Binding("escape", "cancel", "Keep the roll", id="reroll.cancel")]

    def __init__(self, label: str, was: str) -> None:
        super().__init__()
        self.label = label
        self.was = was

    def compose(self) -> ComposeResult:
        with Vertical(id="reroll-dialog"):
            yield Label(f"Re-roll or correct: {self.label}", id="reroll-title")
            yield Static(f"Now: {self.was}. Both results stay in the record and the "
                         "report.", id="reroll-was", markup=False)
            yield Input(placeholder="why? (a skill, a rule, a typing slip ...), then Enter",
                        id="reroll-reason")
            yield Static("", id="reroll-error", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        reason = " ".join(event.value.split())
        if not reason:
            self.query_one("#reroll-error", Static).update(
                "Say why the roll changes: both players see it in the report.")
            return
        self.dismiss(reason)

    def action_cancel(self) -> None:
        self.dismiss(None)
