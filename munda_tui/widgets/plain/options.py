"""OptionList and SelectionList whose options are never markup (see
munda_tui.widgets.plain)."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from textual.widgets import OptionList as _OptionList
from textual.widgets import SelectionList as _SelectionList
from textual.widgets.selection_list import Selection

from .text import plain

__all__ = ["OptionList", "SelectionList"]

SelectionType = TypeVar("SelectionType")


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
