"""A DataTable whose str cells and labels are never markup (see munda_tui.widgets.plain)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import DataTable as _DataTable

__all__ = ["Cell", "DataTable"]


class Cell(Text):
    """A DataTable cell's text, shown as it is and equal to the str it shows (what
    ``get_row_at`` gives back compares as the str put in did)."""

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return self.plain == other
        return super().__eq__(other)

    __hash__ = None  # type: ignore[assignment]  # (mutable, as Text)


def _cell(value: Any, wrap: bool) -> Any:
    # as Textual's own str cell, less the markup: cut (no wrap) in a one-line row
    return Cell(value, no_wrap=not wrap, end="") if isinstance(value, str) else value


class DataTable(_DataTable[Any]):
    """Textual's DataTable; a str cell, row label or column label is never markup."""

    def add_row(self, *cells: Any, height: int | None = 1, key: str | None = None,
                label: Any = None) -> Any:
        wrap = height != 1
        return super().add_row(*(_cell(c, wrap) for c in cells), height=height, key=key,
                               label=_cell(label, False) if label is not None else None)

    def add_column(self, label: Any, *, width: int | None = None, key: str | None = None,
                   default: Any = None) -> Any:
        return super().add_column(_cell(label, False), width=width, key=key, default=default)

    def update_cell(self, row_key: Any, column_key: Any, value: Any, *,
                    update_width: bool = False) -> None:
        super().update_cell(row_key, column_key, _cell(value, False), update_width=update_width)

    def update_cell_at(self, coordinate: Any, value: Any, *, update_width: bool = False) -> None:
        super().update_cell_at(coordinate, _cell(value, False), update_width=update_width)
