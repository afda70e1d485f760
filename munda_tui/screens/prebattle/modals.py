"""The pre-battle flow's own dialog: mark the model cards dealt from a real deck.
(Pick one and type a line are the kit's: ``screens/common/dialogs.py``.)"""

from __future__ import annotations

from typing import Optional, Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from munda_tui.widgets.keys import keys_text
from munda_tui.widgets.plain import Label, OptionList, Static
from rich.text import Text
from textual.widgets.option_list import Option

from munda_tui.screens.common.dialogs import ListDialog
from munda_tui.widgets.footer import Footer


class DealtCardsModal(ListDialog[Optional[list[int]]]):
    """Mark the model cards a player dealt from their real deck.

    ``options`` are the cards that could have been dealt (one line per Model
    Card); space marks a card, Enter confirms once ``count`` are marked.
    Dismisses with the marked indexes in the order they were marked.
    """

    BINDINGS = [
        Binding("space", "mark", "Mark card", id="dealt_cards_modal.toggle"),
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
        with Vertical(id="dialog", classes="dealt"):
            yield Label(self.title_text, id="dialog-title")
            yield OptionList(
                *[Option(Text(self._prompt(i)), id=f"c{i}") for i in range(len(self.options))],
                id="dealt-list",
            )
            yield Static("", id="dealt-status", markup=False)
            yield Static(keys_text(self, "{key:dealt_cards_modal.toggle} marks a card, "
                                         "{key:dealt_cards_modal.confirm} confirms, "
                                         "{key:dealt_cards_modal.cancel} goes back"), classes="dialog-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self._status()

    def _status(self) -> None:
        self.query_one("#dealt-status", Static).update(f"{len(self.marked)} of {self.count} marked")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_confirm()

    def line_taken(self, lines: object) -> None:
        """A card's number marks it (or takes the mark off), as Space does."""
        self.action_mark()

    def action_mark(self) -> None:
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
