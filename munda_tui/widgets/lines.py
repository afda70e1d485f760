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

__all__ = ["Lines"]


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
        width = self.content_size.width
        style = self.rich_style
        text = self._lines[y] if 0 <= y < len(self._lines) else ""
        key = (text, width, style)
        strip = self._strips.get(key)
        if strip is None:
            if len(self._strips) > 512:
                self._strips.clear()
            length = cell_len(text)
            if length > width:
                text = set_cell_size(text, width - 1) + "…" if width > 0 else ""
            elif length < width:
                text += " " * (width - length)
            strip = Strip([Segment(text, style)], width)
            self._strips[key] = strip
        return strip
