"""Lines of plain text, one per row, where a change repaints only the rows it changed.

A ``Static`` given new text lays out and repaints all of itself. The post-battle
sequence's step list (thirty-odd rows, one or two of which change a step) cost ~1.9 ms
a step that way, and asked for a layout of the whole screen it did not need. This one
keeps its rows and, given new ones, marks only the rows that differ; a layout is asked
only when the number of rows changes.

Each row is cut to the width with an ellipsis (as ``text-wrap: nowrap;
text-overflow: ellipsis`` cuts a Static's lines); no markup is read.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

__all__ = ["Lines", "WrappedText"]


def _row(strips: dict[tuple[str, int, Style], Strip], text: str, width: int, style: Style, *,
         ellipsis: bool) -> Strip:
    """One row: ``text`` cut (with an ellipsis if asked) or padded to ``width`` cells, in
    ``style``; kept in ``strips`` (a widget's own, bounded) for the next time."""
    key = (text, width, style)
    strip = strips.get(key)
    if strip is None:
        if len(strips) > 512:
            strips.clear()
        length = cell_len(text)
        if length > width:
            if ellipsis:
                text = set_cell_size(text, width - 1) + "…" if width > 0 else ""
            else:
                text = set_cell_size(text, width)
        elif length < width:
            text += " " * (width - length)
        strip = Strip([Segment(text, style)], width)
        strips[key] = strip
    return strip


class Lines(Widget):
    """Rows of plain text; :meth:`set_lines` repaints the rows that changed."""

    DEFAULT_CSS = """
    Lines { height: auto; }
    """

    def __init__(self, lines: Sequence[str] = (), *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._lines: list[str] = list(lines)
        self._strips: dict[tuple[str, int, Style], Strip] = {}

    @property
    def lines(self) -> list[str]:
        """The rows shown (a copy)."""
        return list(self._lines)

    def set_lines(self, lines: Sequence[str]) -> None:
        """Show ``lines``: only the rows that differ from those shown are repainted."""
        new = [str(line) for line in lines]
        old = self._lines
        if new == old:
            return
        self._lines = new
        width = self.content_size.width
        if len(new) != len(old) or not self.is_mounted or not width:
            self.refresh(layout=len(new) != len(old))
            return
        for y, (before, after) in enumerate(zip(old, new)):
            if before != after:
                self.refresh(Region(0, y, width, 1))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return max((cell_len(line) for line in self._lines), default=0)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines)

    def render_line(self, y: int) -> Strip:
        text = self._lines[y] if 0 <= y < len(self._lines) else ""
        return _row(self._strips, text, self.content_size.width, self.rich_style, ellipsis=True)


class WrappedText(Widget):
    """A text wrapped to the width (as a Static wraps it), drawn row by row: only the
    rows in view are drawn, the wrapping of a text at a width is made once (a Static
    wrapped its whole text twice a change, for its height and for its picture, however
    little of it showed: a 2,900-character step report took ~2.6 ms to show its first 15
    rows), and new text repaints only the rows that changed (a layout only when their
    number changes). No markup is read."""

    DEFAULT_CSS = """
    WrappedText { height: auto; }
    """

    def __init__(self, text: str = "", *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._text = text
        self._wrapped: dict[tuple[str, int], list[str]] = {}
        self._strips: dict[tuple[str, int, Style], Strip] = {}

    @property
    def text(self) -> str:
        """The text shown."""
        return self._text

    def rows(self, width: int) -> list[str]:
        """The text's rows at ``width`` cells (made once per text and width)."""
        key = (self._text, width)
        rows = self._wrapped.get(key)
        if rows is None:
            if len(self._wrapped) > 64:
                self._wrapped.clear()
            from textual.content import Content

            rows = [line.plain for line in Content(self._text).wrap(max(1, width))] \
                if self._text else []
            self._wrapped[key] = rows
        return rows

    def update(self, text: str) -> None:
        """Show ``text``: the rows that differ from those shown are repainted."""
        if text == self._text:
            return
        width = self.content_size.width
        if not self.is_mounted or not width:
            self._text = text
            self.refresh(layout=True)
            return
        old = self.rows(width)
        self._text = text
        new = self.rows(width)
        if len(old) != len(new):
            self.refresh(layout=True)
            return
        for y, (before, after) in enumerate(zip(old, new)):
            if before != after:
                self.refresh(Region(0, y, width, 1))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return max((cell_len(line) for line in self._text.splitlines()), default=0)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.rows(width))

    def render_line(self, y: int) -> Strip:
        width = self.content_size.width
        rows = self.rows(width)
        text = rows[y] if 0 <= y < len(rows) else ""
        return _row(self._strips, text, width, self.rich_style, ellipsis=False)
