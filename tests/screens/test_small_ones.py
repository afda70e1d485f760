"""Small things a club evening met (issue 26.9), each as a player sees it."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.text import Text

from munda_tui.app import MundaApp
from support import wait_until


async def test_a_config_error_breaks_its_path_after_a_slash_not_mid_word(data_dir: Path,
                                                                         tmp_path: Path) -> None:
    """The note about a config problem named its file split mid-word at 80 columns
    (".conf" / "ig/munda-tui/config.toml"): broken after a "/", each folder whole."""
    config_dir = tmp_path / "home-of-a-player" / ".config" / "munda-tui"
    config_dir.mkdir(parents=True)
    (config_dir / "config.toml").write_text('schema_version = 1\n[keymap]\n"nope.thing" = "x"\n')
    app = MundaApp(data_dir, config_dir, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: bool(app._notifications), "the config's note")
        (note,) = list(app._notifications)
    # the note as Textual's Toast lays it out at 80 columns: 40 wide, less padding and edge
    console = Console(width=37, file=None, legacy_windows=False)
    lines = [line.plain for line in Text(note.message).wrap(console, 37)]
    for part in str(config_dir / "config.toml").strip("/").split("/"):
        assert any(part in line for line in lines), (part, lines)


# --- 80x24: every screen keeps its help key ----------------------------------------------


def _help_key_shown(app) -> str:  # type: ignore[no-untyped-def]
    """The help key the footer shows within the screen's width ("" when none)."""
    from textual.widgets._footer import FooterKey

    keys = [k for k in app.screen.query(FooterKey) if k.display]
    palette = [k for k in keys if "-command-palette" in k.classes]
    limit = palette[0].region.x if palette else app.size.width
    return next((f"{k.key_display} {k.description}" for k in keys
                 if k.action in ("help", "help_in_field") and k.region.right <= limit), "")


async def test_every_screen_keeps_its_help_key_at_80x24(make_app, data_dir: Path) -> None:
    """Issue 26.8: at 80x24 the footers of the campaign, the roster, the charts and the
    tracker lost "? Keys" (too many keys for the width), and no dialog had it. The help
    key stays in view and opens the help; in a text field "?" is typed and F1 opens it."""
    from tests.screens.battle.test_battle import G, V, make_battle

    make_battle(data_dir, {V: ["escher:2"], G: ["goliath:5"]})
    app = make_app(campaign="demo")
    async with app.run_test(size=(80, 24)) as pilot:
        from support import wait_for_screen

        await wait_for_screen(pilot, "CampaignScreen")

        async def opens_help(key: str, back: str) -> None:
            from support import wait_until

            # (the footer is laid out after the screen's first frame)
            await wait_until(pilot, lambda: _help_key_shown(app),
                             f"the help key in view on {type(app.screen).__name__}")
            await pilot.press(key)
            await wait_for_screen(pilot, "HelpScreen")
            await pilot.press("escape")
            await wait_for_screen(pilot, back)

        await opens_help("question_mark", "CampaignScreen")
        await pilot.press("r")
        await wait_for_screen(pilot, "RosterScreen")
        await opens_help("question_mark", "RosterScreen")
        await pilot.press("t")  # a dialog: the Territories
        await wait_for_screen(pilot, "TerritoriesScreen")
        await opens_help("question_mark", "TerritoriesScreen")
        await pilot.press("escape")
        await wait_for_screen(pilot, "RosterScreen")
        await pilot.press("h")  # a form: "?" is typed, F1 is the help key
        await wait_for_screen(pilot, "HireScreen")
        assert _help_key_shown(app) == "f1 Keys"
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen.query_one("#h-type").value == "?"
        await opens_help("f1", "HireScreen")
        await pilot.press("escape")
        await wait_for_screen(pilot, "RosterScreen")
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        app.open_battle(1)
        await wait_for_screen(pilot, "BattleScreen")
        await opens_help("question_mark", "BattleScreen")


async def test_the_drawn_card_is_read_whole_at_80x24(make_app) -> None:
    """Issue 26.8: at 80x24 the card drawn was half the width, its text running on below
    the fold behind a scrollbar. One card to a row on a narrow screen: read whole."""
    import random

    from munda_tui.screens.prebattle.subplot_draw import SubplotDrawScreen
    from tests.screens.prebattle.test_subplot_draw import _keys, gangs, start

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        a, b, settings = gangs()
        screen = SubplotDrawScreen(a, b, settings, random.Random(5))
        await start(app, screen, pilot)
        await _keys(pilot, "enter", "enter", "d")  # start, the curtain, a card
        await pilot.pause()
        cards = screen.query_one("#cards")
        assert "Attention Seeker" in str(screen.query_one("PlayingCard").render())
        assert cards.virtual_size.height <= cards.size.height, (cards.virtual_size, cards.size)
        assert not cards.show_vertical_scrollbar
