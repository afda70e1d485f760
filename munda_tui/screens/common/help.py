"""The help screen: every key in force on the screen it was opened from, explained.

The keys shown are those in force: a key remapped in the config's ``[keymap]`` shows
its new key; the third column is the binding id to remap it with."""

from __future__ import annotations

import textwrap

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from munda_tui.widgets.plain import DataTable, Label, Static

from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import key_for, keys_in_force, keys_text

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
            # (a description may name a key by its id, as the about text does)
            description = keys_text(screen, binding.tooltip or binding.description)
            # Every key of the screen and the app, shown in the footer or not; of the
            # widgets inside, only the keys they show (not cursor and scroll keys).
            own = active.node is screen or active.node is screen.app
            if not description or binding.action in seen or not (own or binding.show) \
                    or binding.action == "more_keys":  # (the footer's overflow: this list)
                continue
            seen.add(binding.action)
            display = binding.key_display or screen.app.get_key_display(binding)
            keys.append((display, description))
            ids.append(binding.id or "")
        title = getattr(screen, "HELP_TITLE", "") or screen.__class__.__name__.removesuffix("Screen")
        # a key the text names is written {key:<binding id>}: the key in force is shown
        about = keys_text(screen, getattr(screen, "HELP", "") or "")
        return cls(title, about.strip(), keys, ids)

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Label(f"Keys: {self.screen_title}", id="help-title")
            if self.about:
                yield Static(self.about, id="help-about", markup=False)
            yield DataTable(id="help-keys", cursor_type="row", zebra_stripes=True)
            close = keys_in_force(self, "help.close")
            also = " or ?" if "question_mark" in close[1:] else ""
            yield Static(f"{key_for(self, 'help.close')}{also} to close", classes="hint")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        rows = [*zip(self.keys, self.ids), *((k, "") for k in GENERAL)]
        key_width = max((len(k) for (k, _d), _i in rows), default=3)
        id_width = max((len(i) for _k, i in rows), default=0)
        # What the box has room for (95% of the terminal, less its border, padding and the
        # table's cell padding): descriptions wrap onto more lines instead of being cut.
        room = min(100, int(self.app.size.width * 0.95)) - 4 - key_width - id_width - 6 - 2  # and a scroll bar
        longest = max((len(d) for (_k, d), _i in rows), default=10)
        width = max(16, min(46, room, longest))
        table.add_column("Key")
        table.add_column("What it does", width=width)
        table.add_column("keymap id")
        for (key, description), binding_id in rows:
            lines = textwrap.wrap(description, width, break_on_hyphens=False) or [""]
            table.add_row(key, "\n".join(lines), binding_id, height=len(lines))

    def action_close(self) -> None:
        self.dismiss(None)
