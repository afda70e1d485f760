"""One crew of the battle tracker as a table: fighter, type, state, conditions, XP.

A light line-API widget: one cached line per fighter. :meth:`FighterTable.show`
re-renders only the rows whose text changed, so a key press on a battle of
2x15 fighters costs a line or two, never the whole table. Text carries every
meaning (no colour needed): ``›`` marks the selected fighter (also shown in
reverse video when the table has focus), ``+`` a fighter that has activated
this round; conditions are abbreviated as data/conditions.toml says (``Brk`` Broken, ``Blz`` Blaze, ``Ins``
Insane, ``FW2`` two Flesh Wounds). Up/down (or a click) move the selection.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.events import Click, MouseScrollDown, MouseScrollUp
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from munda_tui.rules.battle import conditions as condition_data
from munda_tui.rules.core.data import RuleData
from munda_tui.rules.battle.events import STATE_SHORT, BattleState, FighterState

TYPE_SHORT = {
    "Leader": "L", "Champion": "C", "Prospect": "Pr", "Specialist": "Sp", "Ganger": "G",
    "Juve": "J", "Brute": "Br", "Hanger-on": "Ho", "Hired Gun": "HG", "Bounty Hunter": "BH",
    "Dramatis Personae": "DP",
}
#: (label, width) of each column; the first two characters of a row are the marks
COLUMNS = (("Fighter", 16), ("Ty", 3), ("State", 8), ("Cond", 8), ("XP", 2))

_HEADER = Style(bold=True, underline=True)
_CURSOR = Style(reverse=True, bold=True)
_PLAIN = Style()


def conditions_text(f: FighterState, data: RuleData | None = None) -> str:
    """The Cond column: each condition's short form (data/conditions.toml, then the
    packs' in ``data``), the Flesh Wounds."""
    parts = [condition_data.short(c, data) for c in f.conditions]
    if f.flesh_wounds:
        parts.append(f"FW{f.flesh_wounds}")
    return ",".join(parts)


def row_text(f: FighterState, data: RuleData | None = None) -> str:
    """The row of one fighter, without the selection mark (37 characters)."""
    return (
        ("+" if f.activated else " ")
        + f.name[:15].ljust(16)
        + TYPE_SHORT.get(f.type, f.type[:2]).ljust(3)
        + STATE_SHORT.get(f.state, f.state).ljust(8)
        + conditions_text(f, data)[:7].ljust(8)
        + (str(f.xp) if f.xp else "").rjust(2)
    )


def header_text() -> str:
    return "  " + "".join(label.ljust(width) for label, width in COLUMNS[:-1]) + "XP"


class FighterTable(Widget, can_focus=True):
    """A crew's fighters; the selected row is the fighter keys act on."""

    DEFAULT_CSS = """
    FighterTable { height: 1fr; }
    """
    BINDINGS = [
        Binding("up", "move(-1)", "Up", show=False, id="fighter_table.move--1"),
        Binding("down", "move(1)", "Down", show=False, id="fighter_table.move-1"),
        Binding("home", "move(-99)", "First", show=False, id="fighter_table.move--99"),
        Binding("end", "move(99)", "Last", show=False, id="fighter_table.move-99"),
    ]

    class Selected(Message):
        """The selection moved (``key`` is the fighter key)."""

        def __init__(self, table: "FighterTable", key: str) -> None:
            super().__init__()
            self.table = table
            self.key = key

    def __init__(self, gang: str, rule_data: RuleData | None = None,
                 **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(**kwargs)
        self.gang = gang
        self.rule_data = rule_data  # the conditions' short forms (the packs' too)
        self.keys: list[str] = []
        self._rows: dict[str, str] = {}
        self._cursor = 0
        self._top = 0  # first row shown
        self._strips: dict[int, Strip] = {}

    # --- data ----------------------------------------------------------------------

    def show(self, state: BattleState) -> None:
        """Bring the rows up to date with ``state`` (changed rows only)."""
        for f in state.fighters.values():
            if f.gang != self.gang:
                continue
            text = row_text(f, self.rule_data)
            old = self._rows.get(f.key)
            if old is None:
                self.keys.append(f.key)
                self._rows[f.key] = text
                self._strips.clear()
                self.refresh()
            elif old != text:
                self._rows[f.key] = text
                self._refresh_row(self.keys.index(f.key))

    @property
    def row_count(self) -> int:
        return len(self.keys)

    @property
    def selected(self) -> str | None:
        return self.keys[self._cursor] if self.keys else None

    def select(self, key: str) -> None:
        if key in self._rows:
            self._move_to(self.keys.index(key))

    # --- selection -----------------------------------------------------------------

    @property
    def _visible(self) -> int:
        return max(1, self.size.height - 1)

    def _move_to(self, row: int) -> None:
        if not self.keys:
            return
        row = max(0, min(len(self.keys) - 1, row))
        old = self._cursor
        self._cursor = row
        offset = self._top
        if row < offset:
            offset = row
        elif row >= offset + self._visible:
            offset = row - self._visible + 1
        if offset != self._top:
            self._top = offset
            self._strips.clear()
            self.refresh()
        else:
            self._refresh_row(old)
            self._refresh_row(row)
        if old != row:
            self.post_message(self.Selected(self, self.keys[row]))

    def action_move(self, delta: int) -> None:
        self._move_to(self._cursor + delta)

    def on_click(self, event: Click) -> None:
        if event.y >= 1:
            self._move_to(self._top + event.y - 1)
        self.focus()

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        self.action_move(1)

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        self.action_move(-1)

    # --- rendering -------------------------------------------------------------------

    def _refresh_row(self, row: int) -> None:
        self._strips.pop(row, None)
        y = row - self._top + 1
        if 1 <= y < self.size.height:
            self.refresh(Region(0, y, self.size.width, 1))

    def on_resize(self) -> None:
        self._strips.clear()
        self._move_to(self._cursor)

    def on_focus(self) -> None:
        self._refresh_row(self._cursor)

    def on_blur(self) -> None:
        self._refresh_row(self._cursor)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if y == 0:
            return Strip([Segment(header_text()[:width].ljust(width), _HEADER)])
        row = self._top + y - 1
        if row >= len(self.keys):
            return Strip.blank(width, _PLAIN)  # a style: NO_COLOR filters need one
        strip = self._strips.get(row)
        if strip is None:
            key = self.keys[row]
            selected = row == self._cursor
            text = ("›" if selected else " ") + self._rows[key]
            style = _CURSOR if selected and self.has_focus else _PLAIN
            strip = Strip([Segment(text[:width].ljust(width), style)])
            self._strips[row] = strip
        return strip
