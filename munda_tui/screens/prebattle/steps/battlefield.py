"""The battlefield (Core Rules p140)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from munda_tui.widgets.plain import OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.core.readings import note as reading_note
from munda_tui.screens.prebattle.steps.base import StepPanel


class BattlefieldStep(StepPanel):
    def compose(self) -> ComposeResult:
        self.fields = sc.battlefields()
        yield Static(
            "The battlefield (Core Rules p140). Enter chooses; Tunnel Warfare needs both "
            "players to agree.",
            classes="hint",
        )
        with Horizontal(id="bf-row"):
            yield OptionList(*[Option(Text(b["name"])) for b in self.fields], id="battlefields")
            with VerticalScroll(id="bf-scroll"):
                yield Static("", id="bf-text", markup=False)

    def on_mount(self) -> None:
        names = [b["name"] for b in self.fields]
        ol = self.query_one("#battlefields", OptionList)
        ol.highlighted = names.index(self.setup.battlefield) if self.setup.battlefield in names else 0
        ol.focus()
        self._show()

    def _show(self) -> None:
        i = self.query_one("#battlefields", OptionList).highlighted or 0
        b = self.fields[i]
        defender = self.flow.gang_name(
            self.setup.challenged if sc.attacker_of(self.setup) == self.setup.challenger else self.setup.challenger
        )
        first = f"Defender ({defender}) places terrain first."
        agree = "\nBoth players must agree." if b.get("both_agree") else ""
        reading = f"\n\n{reading_note(b['reading'])}" if b.get("reading") else ""
        self.query_one("#bf-text", Static).update(
            f"{b['name']} (Core Rules p{b['page']})\n\n{b['text']}\n\n{first}{agree}{reading}"
        )

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.next_step()

    def finish(self) -> str | None:
        i = self.query_one("#battlefields", OptionList).highlighted or 0
        self.setup.battlefield = self.fields[i]["name"]
        return None
