"""``munda_app(self)``: the running MundaApp, typed.

Textual types ``node.app`` as ``App[Any]``, so ``self.app.rng`` or
``self.app.open_battle(n)`` would need a ``type: ignore`` in every screen. Screens and
step panels ask ``munda_app(self)`` instead and get MundaApp's attributes checked by mypy.
MundaApp is imported for the type checker only: the app imports the screens, never the
other way round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from textual.message_pump import MessagePump

    from munda_tui.app import MundaApp


def munda_app(node: MessagePump) -> MundaApp:
    """The MundaApp ``node`` (a screen or widget) runs in."""
    return cast("MundaApp", node.app)
