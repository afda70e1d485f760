"""Rules look-up: the card viewer and the command palette provider for Sub-plot cards;
the choice modal offered at Choose Crew / the start of the battle."""

from __future__ import annotations

import io
import random
from pathlib import Path

from rich.console import Console

import munda_tui.app
from munda_tui.app import MundaApp
from munda_tui.screens.common.card_commands import SubplotCardCommands
from munda_tui.screens.common.card_viewer import CardViewerScreen
from munda_tui.screens.prebattle.subplot_draw import SubplotChoiceScreen
from munda_tui.widgets.curtain import PrivacyCurtain

SIZE = (100, 32)
FIGHTERS = [("vexa", "Vexa Nightshade"), ("sable", "Sable Thorn"), ("kira", "Kira Ashfall")]
ENEMIES = [("brakk", "Brakk Ironjaw"), ("gorth", "Gorth Slagborn")]


class LookupApp(MundaApp):
    """The app with the Sub-plot provider registered (as app.py does)."""

    CSS_PATH = str(Path(munda_tui.app.__file__).with_name("app.tcss"))
    COMMANDS = MundaApp.COMMANDS | {SubplotCardCommands}


def flat(app) -> str:
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      record=True, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    text = console.export_text()
    for ch in "│║╭╮╰╯╔╗╚╝─═▎▊█▀▄":
        text = text.replace(ch, " ")
    return " ".join(text.split())


def lookup_app(data_dir, config_dir) -> LookupApp:
    return LookupApp(data_dir, config_dir, seed=1, today="2026-01-15")


def _push(factory, *keys):
    async def run_before(pilot) -> None:
        pilot.app.push_screen(factory())
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.pause()

    return run_before


def test_snapshot_card_viewer(snap_compare, make_app):
    assert snap_compare(make_app(), terminal_size=SIZE,
                        run_before=_push(lambda: CardViewerScreen("delaque:10")))


def test_snapshot_choice_fighter(snap_compare, make_app):
    screen = lambda: SubplotChoiceScreen("cawdor:6", "Ana", FIGHTERS, ENEMIES, random.Random(1))  # noqa: E731
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_push(screen))


async def test_viewer_shows_deck_source_and_steps(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(CardViewerScreen("noble-whims:10"))
        await pilot.pause()
        text = flat(app)
        assert "No Witnesses" in text and "Noble Whims" in text
        assert "Necromunda Rulebook (2018), p150" in text
        assert "D3x10 credits, or D6x10 if your fighter took them out with a melee attack" in text
        await pilot.press("right")
        assert "Make Some Noise" in flat(app)
        await pilot.press("left", "left")
        assert "A Suitable Spectacle" in flat(app)
        await pilot.press("escape")
        assert not isinstance(app.screen, CardViewerScreen)


async def test_palette_finds_cards_by_name_and_by_text(data_dir, config_dir):
    app = lookup_app(data_dir, config_dir)
    async with app.run_test(size=SIZE) as pilot:
        provider = SubplotCardCommands(app.screen)
        hits = [h async for h in provider.search("test of faith")]
        best = max(hits, key=lambda h: h.score)
        assert best.text == "Sub-plot: Test of Faith (Cawdor A)"
        text_hits = [h.text async for h in provider.search("Plentiful laspistol")]
        assert text_hits == ["Sub-plot: Reliable Tech (Van Saar 9)"]
        best.command()
        await pilot.pause()
        assert isinstance(app.screen, CardViewerScreen)
        assert "House of Faith, p94" in flat(app)
        await pilot.press("escape")
        # and through the palette itself, by keyboard
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Naked Brutality")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CardViewerScreen)
        assert app.screen.card.id == "goliath:K"


async def test_choice_of_a_fighter_by_keyboard_and_at_random(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        box: dict = {}
        app.push_screen(SubplotChoiceScreen("cawdor:6", "Ana", FIGHTERS, ENEMIES),
                        lambda v: box.setdefault("v", v))
        await pilot.pause()
        assert "Martyrdom" in flat(app) and "reveal it now" in flat(app)
        await pilot.press("down", "enter")
        await pilot.pause()
        assert box["v"] in ("sable", "vexa")
        # a random fighter (Superior Tools): r picks with the RNG, Enter confirms
        box.clear()
        app.push_screen(SubplotChoiceScreen("industrial-sabotage:3", "Ana", FIGHTERS, ENEMIES,
                                            random.Random(3)), lambda v: box.setdefault("v", v))
        await pilot.pause()
        await pilot.press("r", "enter")
        await pilot.pause()
        expected = FIGHTERS[random.Random(3).randrange(3)][0]
        assert box["v"] == expected


async def test_call_them_out_asks_for_two_fighters(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        box: dict = {}
        app.push_screen(SubplotChoiceScreen("orlock:5", "Ben", FIGHTERS, ENEMIES),
                        lambda v: box.setdefault("v", v))
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # own list
        await pilot.press("down", "enter")  # enemy list
        await pilot.pause()
    own, enemy = box["v"].split("|")
    assert own in dict(FIGHTERS) and enemy in dict(ENEMIES)


async def test_secret_number_behind_the_curtain(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        box: dict = {}
        app.push_screen(SubplotChoiceScreen("delaque:10", "Cat", moment="start_of_battle"),
                        lambda v: box.setdefault("v", v))
        await pilot.pause()
        assert isinstance(app.screen, PrivacyCurtain)
        text = flat(app)  # nothing of the card before Cat confirms
        assert "Dead of Night" not in text and "secretly choose a number" not in text.lower()
        assert "Only Cat should look." in text
        await pilot.press("enter")
        await pilot.pause()
        assert "a secret choice (do not reveal the card)" in flat(app)
        await pilot.press(*"14", "enter")
        error = str(app.screen.query_one("#choice-error").render())
        assert error == "Dead of Night: choose a number between 6 and 12"
        await pilot.press("backspace", "backspace", *"9", "enter")
        await pilot.pause()
    assert box["v"] == "9"


async def test_secret_choice_declined_at_the_curtain(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        box: dict = {}
        app.push_screen(SubplotChoiceScreen("delaque:K", "Cat", FIGHTERS),
                        lambda v: box.setdefault("v", v))
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
    assert box["v"] is None


async def test_card_without_a_choice_is_just_revealed(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        box: dict = {}
        app.push_screen(SubplotChoiceScreen("van-saar:9", "Ana"), lambda v: box.setdefault("v", v))
        await pilot.pause()
        assert "This card asks for no choice." in flat(app)
        await pilot.press("enter")
        await pilot.pause()
    assert box["v"] == ""


def test_a_house_card_without_suits_says_so_rather_than_losing_its_suit() -> None:
    """Issue 26.9: Goliath cards showed "K  Goliath" in the walk and the peek, as if the
    suit were lost: "Goliath Sub-plots do not use suits (i.e., any Ace drawn will
    represent the King Hit sub-plot regardless of its suit)"."""
    from munda_tui.rules.subplots import decks as sp
    from munda_tui.rules.core.cards import Card
    from munda_tui.widgets.playing_card import PlayingCard

    looked_up = PlayingCard(None, sp.card("goliath:K")).render().plain
    assert looked_up.startswith("K (any suit)  Goliath\nNaked Brutality"), looked_up
    drawn = PlayingCard(Card("K", "spades"), sp.card("goliath:K")).render().plain
    assert drawn.startswith("K♠  Goliath")
    suited = PlayingCard(None, sp.card("dark-influences:9")).render().plain
    assert suited.startswith("9♦  Dark Influences"), suited  # a suit deck: its suit
