"""End the battle: who won (or a draw) and which gangs fled."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from munda_tui.widgets.plain import Label, OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.screens.common.dialogs import DIALOG_CSS, ListDialog
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import key_for


@dataclass(frozen=True)
class EndChoice:
    winner: str  # gang id, "" for a draw
    fled: tuple[str, ...]


class EndScreen(ListDialog["EndChoice | None"]):
    CSS_PATH = [DIALOG_CSS, "modals.tcss"]  # the kit's frame; its own sizes
    BINDINGS = [
        Binding("f", "fled", "Toggle: gang fled", id="end.fled"),
        Binding("escape", "cancel", "Cancel", id="end.cancel"),
    ]

    def __init__(self, gangs: list[tuple[str, str]]) -> None:
        super().__init__()
        self.gangs = gangs  # (id, name)
        self.fled: list[str] = []

    def compose(self) -> ComposeResult:
        options = [Option(f"{name} win", id=gid) for gid, name in self.gangs]
        options.append(Option("Draw", id="-"))
        with Vertical(id="dialog"):
            yield Label("End the battle", id="dialog-title")
            yield Static(f"Who won? Enter records the end. {key_for(self, 'end.fled')} marks the "
                         "gang under the cursor as fled (Bottle, scenario).", classes="hint")
            yield OptionList(*options, id="winner")
            yield Static("Fled: -", id="fled", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def action_fled(self) -> None:
        index = self.query_one(OptionList).highlighted
        if index is None or index >= len(self.gangs):
            return
        gid = self.gangs[index][0]
        if gid in self.fled:
            self.fled.remove(gid)
        else:
            self.fled.append(gid)
        names = dict(self.gangs)
        self.query_one("#fled", Static).update(
            "Fled: " + (", ".join(names[g] for g in self.fled) or "-"))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        winner = "" if event.option.id == "-" else str(event.option.id)
        self.dismiss(EndChoice(winner, tuple(self.fled)))

    def action_cancel(self) -> None:
        self.dismiss(None)
