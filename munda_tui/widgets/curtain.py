"""The privacy curtain: one laptop, two players, hidden information.

    def show_hand(confirmed: bool | None) -> None: ...
    self.app.push_screen(PrivacyCurtain("Ana"), show_hand)
    # or, in a worker:  if await self.app.push_screen_wait(PrivacyCurtain("Ana")): ...

An opaque full-screen ModalScreen that says "Pass the laptop to <player>. Only
<player> should look. Press Enter when ready." It dismisses with True when the
player presses Enter (or clicks Ready), False on Escape (nobody looked). Nothing of
the screen beneath shows through. ``reason`` adds one line (e.g. "to draw your
House Sub-plots"). Used by the Sub-plot draw, peeks at a hand, and the battle
tracker.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import ModalScreen
from munda_tui.widgets.keys import key_for
from munda_tui.widgets.plain import Button
from munda_tui.widgets.plain import Static

from munda_tui.widgets.footer import Footer


class PrivacyCurtain(ModalScreen[bool]):
    CSS_PATH = "curtain.tcss"
    BINDINGS = [
        Binding("enter", "ready", "Ready (only I am looking)", priority=True, id="privacy_curtain.ready"),
        Binding("escape", "cancel", "Back", id="privacy_curtain.cancel"),
    ]

    def __init__(self, player: str, reason: str = "") -> None:
        super().__init__()
        self.player = player
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="curtain"):
            yield Static(f"Pass the laptop to {self.player}.", id="curtain-pass")
            yield Static(f"Only {self.player} should look.", id="curtain-only")
            if self.reason:
                yield Static(self.reason, id="curtain-reason")
            yield Static(f"Press {key_for(self, 'privacy_curtain.ready')} when ready.", id="curtain-enter")
            with Center():
                yield Button(f"{self.player} is ready", id="curtain-ready", variant="primary")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(True)

    def action_ready(self) -> None:
        self.dismiss(True)

    def action_cancel(self) -> None:
        self.dismiss(False)
