"""Pitch Black, if both players agree."""

from __future__ import annotations

from textual.binding import Binding
from munda_tui.widgets.plain import Static
from munda_tui.widgets.keys import key_for

from munda_tui.rules.prebattle import flow as pre
from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.core.dice import Roll
from munda_tui.rules.prebattle.scenario import TableEntry
from munda_tui.screens.prebattle.steps.base import AgreeStep, replace_roll


class PitchBlackStep(AgreeStep):
    BINDINGS = [Binding("R", "reroll", "Re-roll / correct", id="pitch_black_step.reroll")]
    NO = "No Pitch Black: the battle is fought in normal light"
    YES = "Both players agree: roll on the Pitch Black table"
    UNDECIDED = "Roll on the Pitch Black table (Enter), or choose No Pitch Black."
    CHOICE_ID, STATUS_ID = "pb-choice", "pb-result"

    def hint(self) -> str:
        return self.flow.tables["pitch_black"].intro

    def agreed(self) -> bool:
        return self.setup.pitch_black

    def decided(self) -> bool:
        return bool(self.setup.visibility)

    def _show(self) -> None:
        table = self.flow.tables["pitch_black"]
        lines = [f"{table.title} table ({table.dice}, {table.source} p{table.page}):"]
        lines.extend(f"{e.roll:>4}  {e.name}: {e.text}" for e in table.entries)
        if self.setup.pitch_black and self.setup.visibility:
            rec = next((r for r in self.setup.rolls if r.get("table") == "pitch_black"), None)
            lines.append("")
            lines.append(f"In effect: {self.setup.visibility}  ({pre.how_text(rec)})")
            lines.append(sc.rules_text()["visibility"]["text"])
        self.query_one("#pb-result", Static).update("\n".join(lines))

    def agree(self) -> None:
        if self.setup.pitch_black and self.setup.visibility:  # Enter never re-rolls
            self.say(f"Rolled: {self.setup.visibility}. {key_for(self, 'pitch_black_step.reroll')} "
                     "re-rolls or corrects it (asks why; both are kept).")
            return
        self._roll()

    def action_reroll(self) -> None:
        if not (self.setup.pitch_black and self.setup.visibility):
            self.say("Nothing to re-roll yet: Enter on 'Both players agree' rolls the "
                     "Pitch Black table.")
            return
        rec = next((r for r in self.setup.rolls if r.get("table") == "pitch_black"), None)
        self.ask_reroll("Pitch Black", rec, self._roll)

    def _roll(self, reason: str = "") -> None:
        table = self.flow.tables["pitch_black"]

        def done(entry: TableEntry, r: Roll | None, how: str) -> None:
            self.setup.pitch_black = True
            self.setup.visibility = sc.visibility_text(entry)
            replace_roll(self.setup, sc.record_roll(table, self.setup.challenger, entry, how, r), reason)
            self.changed()
            self._show()

        self.ask_table(table, "Pitch Black", "Both players agreed", done)

    def _none(self) -> None:
        self.setup.pitch_black = False
        self.setup.visibility = ""
        self.setup.rolls = [r for r in self.setup.rolls if r.get("table") != "pitch_black"]
