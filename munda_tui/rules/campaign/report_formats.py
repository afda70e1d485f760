"""Every format a report is rendered to, by name: ``munda-tui report --format NAME``.

Adding a format is one renderer, a function ``(Report) -> str``, added to
:data:`RENDERERS` (the command line and ``tests/rules/test_report_doc.py`` pick it up;
see ARCHITECTURE.md). The renderers live beside their format: Markdown and JSON in
``report_doc``, Discord in ``discord``.
"""

from __future__ import annotations

from typing import Callable

from .discord import report_messages
from .report_doc import Report, render_json, render_markdown


def render_discord(report: Report) -> str:
    """Discord messages (at most 2,000 characters each), each after a
    ``--- message N/M (C characters) ---`` line, ready to paste one by one."""
    messages = report_messages(report)
    return "".join(f"--- message {i}/{len(messages)} ({len(m)} characters) ---\n{m}\n"
                   for i, m in enumerate(messages, 1))


RENDERERS: dict[str, Callable[[Report], str]] = {
    "markdown": render_markdown,
    "discord": render_discord,
    "json": render_json,
}
