"""Questions awaited in workers: a screen's ``ask`` and the keys that wait for it.

A screen that asks its questions from a worker (``@work`` and ``push_screen_wait``, so a
walk of several questions reads top to bottom instead of as nested callbacks) has one
gap: between the key that starts the worker and the worker pushing its first question,
the next key of a burst would reach the screen itself. :class:`Asking` says the screen is
``settling`` (read by :class:`munda_tui.key_order.KeyOrderApp`) while one of its question
workers runs with the screen on top, so such a key waits for the question it was meant for.
"""

from __future__ import annotations

from typing import Any

#: the worker groups whose workers ask questions
QUESTION_GROUPS = ("dialog", "start-walk")


class Asking:
    """A screen's part that asks from workers (mixed into a ``Screen``)."""

    app: Any

    async def ask(self, screen: Any) -> Any:
        """The answer to one question (from a worker)."""
        return await self.app.push_screen_wait(screen)

    @property
    def settling(self) -> bool:
        """A question worker runs with this screen on top: keys wait for it."""
        return self.app.screen is self and any(
            w.node is self and not w.is_finished and w.group in QUESTION_GROUPS
            for w in self.app.workers)


__all__ = ["Asking", "QUESTION_GROUPS"]
