"""Small modals of the battle tracker: pick one of a few options, or type a name."""

from __future__ import annotations

from typing import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.widgets.footer import Footer


class ChoiceScreen(ModalScreen["str | None"]):
    """Pick one option (up/down + Enter, or its number key); Escape cancels."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="choice.cancel"),
        *[Binding(str(i), f"pick({i})", f"Option {i}", show=False, id=f"choice.pick-{i}") for i in range(1, 10)],
    ]

    def __init__(self, title: str, options: Sequence[tuple[str, str]], detail: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)  # (id, label)
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(id="modal"):
            yield Label(self.title_text, classes="modal-title")
            if self.detail:
                yield Static(self.detail, classes="hint", markup=False)
            yield OptionList(
                *[Option(f"{i}  {label}" if i < 10 else f"   {label}", id=oid)
                  for i, (oid, label) in enumerate(self.options, start=1)],
                id="choices",
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(str(event.option.id))

    def action_pick(self, n: int) -> None:
        if 1 <= n <= len(self.options):
            self.dismiss(self.options[n - 1][0])

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextScreen(ModalScreen["str | None"]):
    """Type a short text (a condition's or a Gang Tactic's name); Enter keeps it."""

    CSS_PATH = "modals.tcss"
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="text.cancel")]

    def __init__(self, title: str, placeholder: str = "", allow_empty: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.placeholder = placeholder
        self.allow_empty = allow_empty

    def compose(self) -> ComposeResult:
        with Vertical(id="modal"):
            yield Label(self.title_text, classes="modal-title")
            yield Input(placeholder=self.placeholder, id="text")
            yield Static("Enter to record, Esc to cancel", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        if value or self.allow_empty:
            self.dismiss(value)

    def action_cancel(self) -> None:
        self.dismiss(None)
