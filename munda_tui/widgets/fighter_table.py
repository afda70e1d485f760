"""One crew of the battle tracker as a table: fighter, type, state, conditions, XP.

The table keeps one row per fighter and, on :meth:`FighterTable.show`, updates only
the cells that changed, so a key press never rebuilds it. Text carries every
meaning (no colour needed): ``›`` marks the selected fighter and ``+`` before a name marks a fighter that has
activated this round; conditions are abbreviated (``Brk`` Broken, ``Blz`` Blaze,
``Ins`` Insane, ``FW2`` two Flesh Wounds).
"""

from __future__ import annotations

from textual.widgets import DataTable

from munda_tui.rules.battle import STATE_SHORT, BattleState, FighterState

TYPE_SHORT = {
    "Leader": "L", "Champion": "C", "Prospect": "Pr", "Specialist": "Sp", "Ganger": "G",
    "Juve": "J", "Brute": "Br", "Hanger-on": "Ho", "Hired Gun": "HG", "Bounty Hunter": "BH",
    "Dramatis Personae": "DP",
}
COND_SHORT = {"Broken": "Brk", "Blaze": "Blz", "Insane": "Ins"}
#: (key, label, width); cells carry their own leading space (cell padding 0)
COLUMNS = (("name", "  Fighter", 16), ("type", " Ty", 3), ("state", " State", 8),
           ("cond", " Cond", 8), ("xp", " XP", 3))


def conditions_text(f: FighterState) -> str:
    parts = [COND_SHORT.get(c, c[:3]) for c in f.conditions]
    if f.flesh_wounds:
        parts.append(f"FW{f.flesh_wounds}")
    return ",".join(parts)


def row_of(f: FighterState, cursor: bool = False) -> tuple[str, str, str, str, str]:
    mark = ("›" if cursor else " ") + ("+" if f.activated else " ")
    return (
        f"{mark}{f.name}"[:16],
        " " + TYPE_SHORT.get(f.type, f.type[:2]),
        " " + STATE_SHORT.get(f.state, f.state),
        " " + conditions_text(f)[:7],
        f"{f.xp:>3}" if f.xp else "",
    )


class FighterTable(DataTable):
    """A crew's fighters; the cursor row is the selected fighter."""

    DEFAULT_CSS = """
    FighterTable { height: 1fr; }
    """

    def __init__(self, gang: str, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(cursor_type="row", zebra_stripes=False, cell_padding=0, **kwargs)
        self.gang = gang
        self._rows: dict[str, tuple[str, ...]] = {}

    def on_mount(self) -> None:
        for key, label, width in COLUMNS:
            self.add_column(label, key=key, width=width)

    def show(self, state: BattleState) -> None:
        """Bring the rows up to date with ``state`` (changed cells only)."""
        self._state = state
        cursor = self.selected if self.row_count else None
        for f in state.fighters.values():
            if f.gang != self.gang:
                continue
            row = row_of(f, f.key == cursor)
            old = self._rows.get(f.key)
            if old is None:
                self.add_row(*row, key=f.key)
            elif old != row:
                for (col, _, _), new, was in zip(COLUMNS, row, old):
                    if new != was:
                        self.update_cell(f.key, col, new)
            self._rows[f.key] = row

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """Move the text cursor mark (the selection reads without colour)."""
        if getattr(self, "_state", None) is not None:
            self.show(self._state)

    @property
    def selected(self) -> str | None:
        """The key of the fighter under the cursor."""
        if not self.row_count:
            return None
        try:
            return str(self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value)
        except Exception:  # noqa: BLE001 - an empty or moving table
            return None

    def select(self, key: str) -> None:
        if key in self._rows:
            self.move_cursor(row=self.get_row_index(key))
