"""Screens reach MundaApp's own attributes through munda_app(self), typed for mypy, never
through an ignored ``self.app.x  # type: ignore[attr-defined]``."""

from __future__ import annotations

import re
from pathlib import Path

import munda_tui

PACKAGE = Path(munda_tui.__file__).resolve().parent


def test_no_screen_or_widget_ignores_the_app_type() -> None:
    pattern = re.compile(r"\bapp\.[a-z_]+.*# type: ignore\[attr-defined\]")
    found = [f"{p.relative_to(PACKAGE)}:{i}"
             for folder in ("screens", "widgets", "phone")
             for p in sorted((PACKAGE / folder).rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert found == [], "use munda_app(self) (screens/common/typed_app.py): " + ", ".join(found)
