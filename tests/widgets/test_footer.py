"""The footer (widgets/footer.py): Textual's keys, rebuilt only when they change."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer as TextualFooter
from textual.widgets import Label
from textual.widgets._footer import FooterKey

from munda_tui.widgets.footer import Footer

PACKAGE = Path(__file__).resolve().parents[2] / "munda_tui"


class Keys(Screen[None]):
    BINDINGS = [
        Binding("n", "next", "Next", tooltip="The next one"),
        Binding("u", "undo", "Undo"),
        Binding("x", "hidden", "Hidden", show=False),
    ]

    def __init__(self, footer: type[TextualFooter], compact: bool) -> None:
        super().__init__()
        self.footer, self.compact = footer, compact
        self.can_undo = True
        self.shows_undo = True

    def compose(self) -> ComposeResult:
        yield Label("keys")
        yield self.footer(compact=self.compact)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo":
            if not self.shows_undo:
                return False  # not shown at all
            return True if self.can_undo else None  # None: shown disabled
        return True

    def action_next(self) -> None:
        pass

    def action_undo(self) -> None:
        pass


class KeysApp(App[None]):
    def __init__(self, footer: type[TextualFooter], compact: bool = False) -> None:
        super().__init__()
        self.footer, self.compact = footer, compact

    def on_mount(self) -> None:
        self.push_screen(Keys(self.footer, self.compact))


def keys_shown(app: App[None]) -> list[tuple[str, str, str, bool, frozenset[str]]]:
    return [(k.key, k.key_display, k.description, k._disabled, frozenset(k.classes))
            for k in app.screen.query(FooterKey) if k.display]  # (hidden ones are kept for later)


async def shown_by(footer: type[TextualFooter], compact: bool, **state: bool) -> list[tuple[str, str, str, bool, frozenset[str]]]:
    """The keys a footer shows (the picture itself is compared by the screens' snapshots),
    its screen's ``can_undo`` and ``shows_undo`` set from the start."""
    app = KeysApp(footer, compact)
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        for name, value in state.items():
            setattr(app.screen, name, value)
        app.screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        return keys_shown(app)


async def test_the_same_keys_and_classes_as_textuals_footer() -> None:
    for compact in (False, True):
        ours = await shown_by(Footer, compact)
        theirs = await shown_by(TextualFooter, compact)
        assert ours == theirs
        assert [k[0] for k in ours] == ["n", "u", "ctrl+p"]  # x is not shown
        # the palette's key is compact either way, as in Textual
        assert "-compact" in ours[-1][4]
        assert all(("-compact" in k[4]) == compact for k in ours[:-1])


async def test_rebuilt_only_when_what_it_shows_changes() -> None:
    app = KeysApp(Footer)
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, Keys)
        before = list(screen.query(FooterKey))
        assert [k.key for k in before] == ["n", "u", "ctrl+p"]
        screen.refresh_bindings()  # nothing changed: the same widgets stay
        await pilot.pause()
        await pilot.pause()
        assert list(screen.query(FooterKey)) == before
        screen.can_undo = False  # u is now disabled: the same key, changed at once
        screen.refresh_bindings()
        after = list(screen.query(FooterKey))
        assert [k.key for k in after] == ["n", "u", "ctrl+p"]
        assert after[1] is before[1] and after[1]._disabled
        assert "-disabled" in after[1].classes
        await pilot.pause()
        assert keys_shown(app) == await shown_by(TextualFooter, False, can_undo=False)
        screen.shows_undo = False  # one key fewer: taken out
        screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert keys_shown(app) == await shown_by(TextualFooter, False, shows_undo=False)
        screen.shows_undo = screen.can_undo = True  # and back: added before the palette key
        screen.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert keys_shown(app) == await shown_by(TextualFooter, False)
        assert app.screen.query(FooterKey).last().has_class("-command-palette")
        assert len(app.screen.query(FooterKey)) == 3  # the hidden key came back: none built


def test_every_screen_uses_this_footer() -> None:
    """A screen importing Textual's Footer would rebuild it on every bindings refresh."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "footer.py" and path.parent.name == "widgets":
            continue
        text = path.read_text(encoding="utf-8")
        for line in text.splitlines():
            if line.startswith("from textual.widgets import") and "Footer" in line.split("import", 1)[1]:
                offenders.append(f"{path.relative_to(PACKAGE)}: {line}")
    assert offenders == []


async def test_a_compact_footer_with_too_many_keys_ends_with_the_palette_key() -> None:
    """QA walk: the tracker at 80 columns read '^p palettee': the compact footer's right
    margin (every key's, the palette key's too) left the last cell to the keys beneath."""

    class Many(Screen[None]):
        BINDINGS = [Binding(k, "bell", f"Word{k}") for k in "abcdefghijklmn"]

        def compose(self) -> ComposeResult:
            yield Label("keys")
            yield Footer(compact=True)

    class ManyApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(Many())

    app = ManyApp()
    async with app.run_test(size=(40, 5)) as pilot:
        await pilot.pause()
        await pilot.pause()
        palette = [k for k in app.screen.query(FooterKey) if k.has_class("-command-palette")]
        assert palette and palette[0].region.right == 40
        widget, _ = app.screen.get_widget_at(39, 4)
        assert widget is palette[0]


async def test_grouped_keys_are_rebuilt_as_textual_groups_them() -> None:
    """Keys of a binding group are shown in a KeyGroup: a change to them rebuilds the
    footer (as Textual's does) rather than changing keys in place."""
    from textual.widgets._footer import KeyGroup

    group = Binding.Group("Move")

    class Grouped(Screen[None]):
        BINDINGS = [Binding("n", "next", "Next"),
                    Binding("left", "left", "Left", group=group),
                    Binding("right", "right", "Right", group=group)]

        def __init__(self) -> None:
            super().__init__()
            self.moves = True

        def compose(self) -> ComposeResult:
            yield Label("keys")
            yield Footer()

        def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
            return self.moves if action in ("left", "right") else True

        def action_next(self) -> None:
            pass

    class GroupedApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(Grouped())

    app = GroupedApp()
    async with app.run_test(size=(80, 5)) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, Grouped)
        assert len(screen.query(KeyGroup)) == 1
        screen.moves = False  # the group's keys are hidden: rebuilt without the group
        screen.refresh_bindings()
        for _ in range(3):
            await pilot.pause()
        assert len(screen.query(KeyGroup)) == 0
        assert [k.key for k in screen.query(FooterKey) if k.display] == ["n", "ctrl+p"]
        screen.moves = True
        screen.refresh_bindings()
        for _ in range(3):
            await pilot.pause()
        assert len(screen.query(KeyGroup)) == 1
