"""The help screen: every key of the screen it was opened from, explained."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Label, Static

GENERAL = (
    ("ctrl+p", "Command palette: go anywhere, look up a Sub-plot card or rule"),
    ("tab / shift+tab", "Move between fields and panels"),
    ("escape", "Back / close a dialog"),
)


class HelpScreen(ModalScreen[None]):
    """Lists the keys of the screen underneath, with what each does."""

    CSS_PATH = "help.tcss"
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def __init__(self, screen_title: str, about: str, keys: list[tuple[str, str]]) -> None:
        super().__init__()
        self.screen_title = screen_title
        self.about = about
        self.keys = keys

    @classmethod
    def for_screen(cls, screen: Screen) -> "HelpScreen":
        keys: list[tuple[str, str]] = []
        seen: set[str] = set()
        for active in screen.active_bindings.values():
            binding = active.binding
            description = binding.tooltip or binding.description
            # Every key of the screen and the app, shown in the footer or not; of the
            # widgets inside, only the keys they show (not cursor and scroll keys).
            own = active.node is screen or active.node is screen.app
            if not description or binding.action in seen or not (own or binding.show):
                continue
            seen.add(binding.action)
            display = binding.key_display or screen.app.get_key_display(binding)
            keys.append((display, description))
        title = getattr(screen, "HELP_TITLE", "") or screen.__class__.__name__.removesuffix("Screen")
        about = getattr(screen, "HELP", "") or ""
        return cls(title, about.strip(), keys)

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Label(f"Keys: {self.screen_title}", id="help-title")
            if self.about:
                yield Static(self.about, id="help-about", markup=False)
            yield DataTable(id="help-keys", cursor_type="row", zebra_stripes=True)
            yield Static("Esc or ? to close", classes="hint")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("Key", "What it does")
        for key, description in self.keys:
            table.add_row(key, description)
        for key, description in GENERAL:
            table.add_row(key, description)

    def action_close(self) -> None:
        self.dismiss(None)
