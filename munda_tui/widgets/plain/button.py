"""A Button whose label is never markup (see munda_tui.widgets.plain)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Button as _Button

from .text import plain

__all__ = ["Button"]


class Button(_Button):
    """Textual's Button; its label is never markup (the curtain's "<player> is ready")."""

    def __init__(self, label: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(plain(label) if isinstance(label, str) else label, *args, **kwargs)
