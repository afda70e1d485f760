"""Textual's text widgets, showing text exactly as it is: never as markup.

Textual reads a ``str`` given to a Label, a Static, a Button, an OptionList's options, a
SelectionList's selections or a DataTable's cells as markup. The names, items, notes,
card titles and file paths shown here come from players and from files: a gang named
``The [/] Sisters`` (a closing tag with nothing to close) ended the app on the
campaign screen, ``[bold]`` vanished and ``[@click=...]`` would have made a link. Every
screen takes these widgets from here (a test says so); their text is plain, the same
characters typed, and the widgets are Textual's own otherwise (same CSS type names,
same messages, the same look).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from rich.text import Text
from textual.content import Content
from textual.widgets import Button as _Button
from textual.widgets import DataTable as _DataTable
from textual.widgets import Label as _Label
from textual.widgets import OptionList as _OptionList
from textual.widgets import SelectionList as _SelectionList
from textual.widgets import Static as _Static
from textual.widgets.selection_list import Selection

__all__ = ["Button", "Cell", "DataTable", "Label", "OptionList", "SelectionList", "Static", "plain"]

SelectionType = TypeVar("SelectionType")


def plain(text: str) -> Content:
    """``text`` as content that shows it as it is (for a widget that reads markup)."""
    return Content(text)


class Label(_Label):
    """Textual's Label; its text is never markup."""

    def __init__(self, content: Any = "", *, markup: bool = False, **kwargs: Any) -> None:
        super().__init__(content, markup=markup, **kwargs)


class Static(_Static):
    """Textual's Static; its text is never markup."""

    def __init__(self, content: Any = "", *, markup: bool = False, **kwargs: Any) -> None:
        super().__init__(content, markup=markup, **kwargs)


class Button(_Button):
    """Textual's Button; its label is never markup (the curtain's "<player> is ready")."""

    def __init__(self, label: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(plain(label) if isinstance(label, str) else label, *args, **kwargs)


class OptionList(_OptionList):
    """Textual's OptionList; its options' text is never markup."""

    def __init__(self, *content: Any, markup: bool = False, **kwargs: Any) -> None:
        super().__init__(*content, markup=markup, **kwargs)


class SelectionList(_SelectionList[SelectionType], Generic[SelectionType]):
    """Textual's SelectionList; its selections' text is never markup (Textual parses a
    str prompt when the selection is made)."""

    def _make_selection(self, selection: Any) -> Selection[SelectionType]:
        if isinstance(selection, tuple) and selection and isinstance(selection[0], str):
            selection = (plain(selection[0]), *selection[1:])
        elif isinstance(selection, Selection) and isinstance(selection.prompt, str):
            selection = Selection(plain(selection.prompt), selection.value,
                                  selection.initial_state, selection.id, selection.disabled)
        return super()._make_selection(selection)


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
