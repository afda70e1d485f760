"""The help screen: every key in force on the screen it was opened from, explained.

The keys shown are those in force: a key remapped in the config's ``[keymap]`` shows
its new key; the third column is the binding id to remap it with."""

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
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close", id="help.close")]

    def __init__(self, screen_title: str, about: str, keys: list[tuple[str, str]],
                 ids: list[str] | None = None) -> None:
        super().__init__()
        self.screen_title = screen_title
        self.about = about
        self.keys = keys
        self.ids = ids or [""] * len(keys)

    @classmethod
    def for_screen(cls, screen: Screen) -> "HelpScreen":
        keys: list[tuple[str, str]] = []
        ids: list[str] = []
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
            ids.append(binding.id or "")
        title = getattr(screen, "HELP_TITLE", "") or screen.__class__.__name__.removesuffix("Screen")
        about = getattr(screen, "HELP", "") or ""
        return cls(title, about.strip(), keys, ids)

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Label(f"Keys: {self.screen_title}", id="help-title")
            if self.about:
                yield Static(self.about, id="help-about", markup=False)
            yield DataTable(id="help-keys", cursor_type="row", zebra_stripes=True)
            yield Static("Esc or ? to close", classes="hint")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Key")
        table.add_column("What it does", width=min(46, max((len(d) for _k, d in
                                                            [*self.keys, *GENERAL]), default=10)))
        table.add_column("keymap id")
        for (key, description), binding_id in zip(self.keys, self.ids):
            table.add_row(key, description, binding_id)
        for key, description in GENERAL:
            table.add_row(key, description, "")

    def action_close(self) -> None:
        self.dismiss(None)
