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

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .button import Button
    from .options import OptionList, SelectionList
    from .table import Cell, DataTable
    from .text import Label, Static, plain

__all__ = ["Button", "Cell", "DataTable", "Label", "OptionList", "SelectionList", "Static", "plain"]


def __getattr__(name: str) -> Any:
    """Each name's module, imported when the name is first used: the first screen
    imports the Label, the Static and the DataTable, not the option lists (~2.5 ms of
    start-up)."""
    if name in ("Label", "Static", "plain"):
        from . import text as module
    elif name == "Button":
        from . import button as module  # type: ignore[no-redef]
    elif name in ("OptionList", "SelectionList"):
        from . import options as module  # type: ignore[no-redef]
    elif name in ("Cell", "DataTable"):
        from . import table as module  # type: ignore[no-redef]
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value
