"""Small modal dialogs shared by every screen: an error, a yes/no confirmation."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class ErrorScreen(ModalScreen[None]):
    """Shows what went wrong; Enter or Escape closes it. Nothing is lost."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [
        Binding("escape,enter", "dismiss_dialog", "Close", id="error.dismiss_dialog"),
    ]

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="error"):
            yield Label(self.title_text, id="dialog-title")
            yield Static(self.message, id="dialog-message", markup=False)
            yield Static("Enter or Esc to close", classes="hint")

    def action_dismiss_dialog(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """Asks a yes/no question; dismisses with True only on an explicit yes."""

    CSS_PATH = "dialogs.tcss"
    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.answer-True"),
        Binding("n,escape", "answer(False)", "No", id="confirm.answer-False"),
    ]

    def __init__(self, question: str, detail: str = "", yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.question, id="dialog-title")
            if self.detail:
                yield Static(self.detail, id="dialog-message", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button(f"{self.yes} (y)", id="yes", variant="error")
                yield Button(f"{self.no} (n)", id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
