"""The scenario rolls (Core Rules p144-147): every table the data puts at this step."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.binding import Binding
from munda_tui.widgets.keys import key_for, keys_text
from munda_tui.widgets.plain import OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.rules.prebattle import flow as pre
from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.core.dice import Roll
from munda_tui.rules.prebattle.scenario import TableEntry
from munda_tui.screens.prebattle.steps.base import ListDetailStep, replace_roll


class ScenarioStep(ListDetailStep):
    BINDINGS = [
        Binding("enter", "decide", "Roll / enter / choose", show=True, id="scenario_step.decide"),
        Binding("a", "roll_rest", "Roll the rest", id="scenario_step.roll_rest"),
        Binding("R", "reroll", "Re-roll / correct", id="scenario_step.reroll"),
    ]

    HINT = (
        "Scenario generation (Core Rules p144-147). {key:scenario_step.decide} on a line: "
        "roll it ({key:dice.roll}), enter real dice ({key:dice.enter}) or choose the result "
        "({key:dice.choose}); {key:scenario_step.roll_rest} rolls everything still open; "
        "{key:scenario_step.reroll} re-rolls or corrects a line (asks why, keeps both)."
    )
    ROW_ID, LIST_ID, SCROLL_ID, DETAIL_ID = "sc-row", "sc-rolls", "sc-scroll", "sc-detail"

    def rows(self) -> list[tuple[str, str]]:
        """(table, gang) per line: the tables whose data says this step rolls them."""
        return [(r.table, r.gang) for r in pre.rows(self.flow.tables, self.setup)]

    def _result(self, table_id: str, gang: str) -> str:
        return pre.result_of(self.setup, pre.Row(table_id, gang))

    def _saved_roll(self, table_id: str, by: str) -> dict[str, Any] | None:
        for r in self.setup.rolls:
            if r.get("table") == table_id and r.get("by") == by:
                return r
        return None

    def _roller(self, table_id: str, gang: str) -> str:
        return sc.roller_gang(self.flow.tables[table_id], self.setup, gang)

    def _prompt(self, table_id: str, gang: str) -> str:
        table = self.flow.tables[table_id]
        title = table.title if not gang else f"{table.title}"
        result = self._result(table_id, gang) or f"— {key_for(self, 'scenario_step.decide')}: roll/choose"
        who = self.flow.gang_name(self._roller(table_id, gang))
        return f"{title:<10} {who[:18]:<18} {result}"

    def _refresh(self) -> None:
        ol = self.query_one("#sc-rolls", OptionList)
        keep = ol.highlighted
        ol.clear_options()
        ol.add_options([Option(Text(self._prompt(t, g))) for t, g in self.rows()])
        if keep is not None:
            ol.highlighted = keep

    def _detail(self) -> None:
        i = self.current
        table_id, gang = self.rows()[i]
        table = self.flow.tables[table_id]
        result = self._result(table_id, gang)
        who = self.flow.gang_name(self._roller(table_id, gang))
        lines = [f"{table.title} table ({table.dice}) — {who} rolls."]
        if table.origin:
            lines.append(f"From {table.origin}")
        if result:
            try:
                entry = table.entry(result)
            except KeyError:
                entry = None
            rec = self._saved_roll(table_id, self._roller(table_id, gang))
            lines.append("")
            lines.append(f"{entry.roll if entry else ''} {result}  ({pre.how_text(rec)})".strip())
            if entry is not None:
                lines.append(entry.text)
                if entry.note:
                    lines.append(f"\nReading note: {entry.note}")
                if table_id == "crew":
                    for side in self.setup.sides:
                        role = sc.role_of(self.setup, side.gang)
                        lines.append(f"{self.flow.gang_name(side.gang)} ({role}): {side.crew_method}")
                    if self.setup.reinforcements_rule:
                        lines.append(f"Reinforcements arrive: {self.setup.reinforcements_rule}")
                lines.append(f"\n{entry.reference}")
        else:
            lines.append("")
            lines.extend(f"{e.roll:>4}  {e.name}" for e in table.entries)
        self.query_one("#sc-detail", Static).update("\n".join(lines))


    def action_decide(self, reason: str = "") -> None:
        i = self.current
        table_id, gang = self.rows()[i]
        table = self.flow.tables[table_id]
        by = self._roller(table_id, gang)
        label = table.title if not gang else f"{table.title} for {self.flow.gang_name(gang)}"
        if self._result(table_id, gang) and not reason:  # Enter never re-rolls
            self.say(f"{label} is rolled: {self._result(table_id, gang)}. "
                     f"{key_for(self, 'scenario_step.reroll')} re-rolls or corrects it (asks why; "
                     "both are kept).")
            return

        self.ask_table(table, label + (" (again)" if reason else ""), f"{self.flow.gang_name(by)} rolls",
                       lambda entry, r, how: self._apply(table_id, gang, by, entry, how, r, reason))

    def action_reroll(self) -> None:
        i = self.current
        table_id, gang = self.rows()[i]
        if not self._result(table_id, gang):
            self.action_decide()
            return
        table = self.flow.tables[table_id]
        label = table.title if not gang else f"{table.title} for {self.flow.gang_name(gang)}"
        self.ask_reroll(label, self._saved_roll(table_id, self._roller(table_id, gang)),
                    lambda reason: self.action_decide(reason))

    def _apply(self, table_id: str, gang: str, by: str, entry: TableEntry, how: str,
               r: Roll | None, reason: str = "") -> None:
        s = self.setup
        table = self.flow.tables[table_id]
        pre.apply_result(s, pre.Row(table_id, gang), entry)
        label = table.title if not gang else f"{table.title} ({self.flow.gang_name(gang)})"
        replace_roll(s, sc.record_roll(table, by, entry, how, r, label), reason)
        self.changed()
        self._refresh()
        self._detail()

    def action_roll_rest(self) -> None:
        if all(self._result(t, g) for t, g in self.rows()):
            self.say(f"Every line is rolled already: {key_for(self, 'scenario_step.reroll')} "
                     "re-rolls or corrects one (asks why; both are kept).")
            return
        for table_id, gang in self.rows():
            if not self._result(table_id, gang):
                table = self.flow.tables[table_id]
                r, entry = table.roll(self.rng)
                self._apply(table_id, gang, self._roller(table_id, gang), entry, "app", r)

    def finish(self) -> str | None:
        missing = [
            self.flow.tables[t].title for t, g in self.rows() if not self._result(t, g)
        ]
        if missing:
            return "Still to roll: " + ", ".join(missing)
        return None
