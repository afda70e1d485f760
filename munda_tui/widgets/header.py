"""Textual's Header, safe on a screen taken down before its title is shown.

Textual's Header watches the app's and the screen's titles and, when one changes, looks
up its title widget; when the screen is taken down at once (a key that opens a screen
followed in the same moment by one that leaves it), that look-up finds no widget and its
NoMatches ended the app. This one does the same and lets that case pass: there is no
title left to show.
"""

from __future__ import annotations

from textual.css.query import NoMatches
from textual.events import Mount
from textual.dom import NoScreen
from textual.widgets import Header as TextualHeader

from munda_tui.textual_private import HeaderTitle

__all__ = ["Header"]


class Header(TextualHeader):
    """Textual's Header; a title change on a header being taken down is let pass."""

    def _on_mount(self, event: Mount) -> None:
        event.prevent_default()  # (Textual's Header._on_mount would watch the titles too)

        async def set_title() -> None:
            try:
                self.query_one(HeaderTitle).update(self.format_title())
            except (NoScreen, NoMatches):
                pass  # the screen, or this header, is being taken down

        self.watch(self.app, "title", set_title)
        self.watch(self.app, "sub_title", set_title)
        self.watch(self.screen, "title", set_title)
        self.watch(self.screen, "sub_title", set_title)
