"""Small modal choices used by the pre-battle flow: pick one of a list,
type a crew method, mark the model cards dealt from a real deck."""

from __future__ import annotations

from typing import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from rich.text import Text
from textual.widgets.option_list import Option

from munda_tui.widgets.footer import Footer


class ChoiceModal(ModalScreen[int | None]):
    """Pick one line; dismisses with its index, or None on Escape."""

    CSS_PATH = "prebattle.tcss"
    BINDINGS = [Binding("escape", "cancel", "Back", id="choice_modal.cancel")]

    def __init__(self, title: str, options: Sequence[str], detail: str = "") -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)
        self.detail = detail

    def compose(self) -> ComposeResult:
        with Vertical(classes="pb-dialog"):
            yield Label(self.title_text, classes="pb-dialog-title")
            if self.detail:
                yield Static(self.detail, classes="hint", markup=False)
            yield OptionList(*[Option(Text(o), id=f"o{i}") for i, o in enumerate(self.options)])
            yield Static("↑/↓ and Enter to pick, Esc to go back", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int((event.option.id or "o0")[1:]))

    def action_cancel(self) -> None:
        self.dismiss(None)


class TextModal(ModalScreen[str | None]):
    """Type one line (e.g. a crew method); ``check`` returns an error or ""."""

    CSS_PATH = "prebattle.tcss"
    BINDINGS = [Binding("escape", "cancel", "Back", id="text_modal.cancel")]

    def __init__(self, title: str, value: str, detail: str = "", check=None) -> None:  # type: ignore[no-untyped-def]
        super().__init__()
        self.title_text = title
        self.value = value
        self.detail = detail
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(classes="pb-dialog"):
            yield Label(self.title_text, classes="pb-dialog-title")
            if self.detail:
                yield Static(self.detail, classes="hint", markup=False)
            yield Input(value=self.value, id="text-value")
            yield Static("", id="text-error", classes="error-text", markup=False)
            yield Static("Enter to confirm, Esc to go back", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        error = self.check(event.value) if self.check else ""
        if error:
            self.query_one("#text-error", Static).update(error)
            return
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class DealtCardsModal(ModalScreen[list[int] | None]):
    """Mark the model cards a player dealt from their real deck.

    ``options`` are the cards that could have been dealt (one line per Model
    Card); space marks a card, Enter confirms once ``count`` are marked.
    Dismisses with the marked indexes in the order they were marked.
    """

    CSS_PATH = "prebattle.tcss"
    BINDINGS = [
        Binding("space", "toggle", "Mark card", id="dealt_cards_modal.toggle"),
        Binding("enter", "confirm", "Confirm", id="dealt_cards_modal.confirm"),
        Binding("escape", "cancel", "Back", id="dealt_cards_modal.cancel"),
    ]

    def __init__(self, title: str, options: Sequence[str], count: int) -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)
        self.count = count
        self.marked: list[int] = []

    def _prompt(self, i: int) -> str:
        mark = "[x]" if i in self.marked else "[ ]"
        return f"{mark} {self.options[i]}"

    def compose(self) -> ComposeResult:
        with Vertical(classes="pb-dialog"):
            yield Label(self.title_text, classes="pb-dialog-title")
            yield OptionList(
                *[Option(Text(self._prompt(i)), id=f"c{i}") for i in range(len(self.options))],
                id="dealt-list",
            )
            yield Static("", id="dealt-status", markup=False)
            yield Static("Space marks a card, Enter confirms, Esc goes back", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self._status()

    def _status(self) -> None:
        self.query_one("#dealt-status", Static).update(f"{len(self.marked)} of {self.count} marked")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_confirm()

    def action_toggle(self) -> None:
        ol = self.query_one(OptionList)
        i = ol.highlighted
        if i is None:
            return
        if i in self.marked:
            self.marked.remove(i)
        else:
            self.marked.append(i)
        ol.replace_option_prompt_at_index(i, Text(self._prompt(i)))
        self._status()

    def action_confirm(self) -> None:
        if len(self.marked) != self.count:
            self.query_one("#dealt-status", Static).update(
                f"{len(self.marked)} of {self.count} marked: mark exactly {self.count}"
            )
            return
        self.dismiss(list(self.marked))

    def action_cancel(self) -> None:
        self.dismiss(None)
