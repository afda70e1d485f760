"""Label and Static whose text is never markup (see munda_tui.widgets.plain)."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widgets import Label as _Label
from textual.widgets import Static as _Static

__all__ = ["Label", "Static", "plain"]


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
