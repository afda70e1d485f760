"""The first step: the two gangs, who challenged whom, who attacks."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from munda_tui.widgets.keys import key_for, keys_text
from munda_tui.widgets.plain import Label, OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.core.readings import note as reading_note
from munda_tui.screens.prebattle.steps.base import StepPanel


class GangsStep(StepPanel):
    BINDINGS = [Binding("a", "swap_attacker", "Swap attacker", id="gangs_step.swap_attacker")]

    def compose(self) -> ComposeResult:
        gangs = self.flow.campaign.gangs
        yield Static(
            "Who fights? The challenger rolls Deployment and Objective, the challenged "
            "player rolls Crew. Tab moves between the lists; a swaps attacker and defender.",
            classes="hint",
        )
        with Horizontal(id="gang-lists"):
            with Vertical():
                yield Label("Challenger", classes="title")
                yield OptionList(*[self._option(g) for g in gangs], id="challenger")
            with Vertical():
                yield Label("Challenged", classes="title")
                yield OptionList(*[self._option(g) for g in gangs], id="challenged")
        yield Static("", id="attacker", markup=False)
        yield Static("", id="tables-note", markup=False)

    @staticmethod
    def _option(g) -> Option:  # type: ignore[no-untyped-def]
        who = f" · {g.player}" if g.player else ""
        return Option(Text(f"{g.name} · {g.type.value}{who} · {g.rating}"))

    def on_mount(self) -> None:
        gangs = self.flow.campaign.gangs
        ids = [g.id for g in gangs]
        self.attacker_is_challenger = True
        ch, cd = 0, 1 if len(ids) > 1 else 0
        setup = self.flow.setup  # None until the gangs are first chosen
        if setup is not None:
            if setup.challenger in ids:
                ch = ids.index(setup.challenger)
            if setup.challenged in ids:
                cd = ids.index(setup.challenged)
            self.attacker_is_challenger = sc.attacker_of(setup) == setup.challenger
        if ids:
            self.query_one("#challenger", OptionList).highlighted = ch
            self.query_one("#challenged", OptionList).highlighted = cd
        self.query_one("#challenger", OptionList).focus()
        self._tables_note()
        self._update()

    def _tables_note(self) -> None:
        short = self.flow.short_path
        lines = []
        for problem in self.flow.problems:
            where = short(str(problem.path))
            if problem.line is not None:
                where += f":{problem.line}" + (f":{problem.col}" if problem.col is not None else "")
            key = f" [{problem.key}]" if problem.key else ""
            lines.append(f"Table file not used: {where}{key} {problem.message}")
        for t in self.flow.tables.values():
            if t.origin:
                origin = ", ".join(short(o) for o in t.origin.split(", "))
                lines.append(f"{t.title} table from {origin}")
        note = self.query_one("#tables-note", Static)
        note.update("\n".join(lines))
        note.set_class(bool(self.flow.problems), "error-text")

    def _picked(self) -> tuple[str, str]:
        gangs = self.flow.campaign.gangs
        a = self.query_one("#challenger", OptionList).highlighted
        b = self.query_one("#challenged", OptionList).highlighted
        if a is None or b is None or not gangs:
            return "", ""
        return gangs[a].id, gangs[b].id

    def _update(self) -> None:
        ch, cd = self._picked()
        text = ""
        if ch and ch == cd:
            text = "Choose two different gangs."
        elif ch:
            att, dfn = (ch, cd) if self.attacker_is_challenger else (cd, ch)
            text = (
                f"Attacker: {self.flow.gang_name(att)}   Defender: {self.flow.gang_name(dfn)}"
                f"   ({key_for(self, 'gangs_step.swap_attacker')} to swap)\n"
                + reading_note("attacker-default")
            )
        if len(self.flow.campaign.gangs) < 2:
            text = "The campaign needs two gangs for a battle: add a gang first."
        self.query_one("#attacker", Static).update(text)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._update()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id == "challenger":
            self.query_one("#challenged", OptionList).focus()
        else:
            self.next_step()

    def action_swap_attacker(self) -> None:
        self.attacker_is_challenger = not self.attacker_is_challenger
        self._update()

    def finish(self) -> str | None:
        ch, cd = self._picked()
        if len(self.flow.campaign.gangs) < 2:
            return "The campaign needs two gangs for a battle."
        if ch == cd:
            return "Choose two different gangs."
        attacker = ch if self.attacker_is_challenger else cd
        setup = self.flow.setup
        if setup is None or (setup.challenger, setup.challenged) != (ch, cd):
            self.flow.setup = sc.new_setup(self.flow.number, ch, cd, attacker)
        elif setup.attacker != attacker:
            setup.attacker = attacker
            if setup.crew_table:
                try:
                    sc.apply_crew_entry(setup, self.flow.tables["crew"].entry(setup.crew_table))
                except KeyError:
                    setup.crew_table = ""
        return None
