"""The start of the game in the battle tracker: each player, alone behind the curtain,
walks the Sub-plots that act once the crews are known and before round 1 - a random
pick made by the app from the deployed crew, a secret number seen only on its owner's
peek - and the other player's walk looks the same whatever they hold."""

from __future__ import annotations

from munda_tui.rules.battle.events import PhaseEvent

from munda_tui.screens.battle.start import NothingAtTheStart
from munda_tui.screens.prebattle.subplot_draw import SubplotChoiceScreen
from munda_tui.widgets.curtain import PrivacyCurtain
from tests.screens.battle.test_battle import SIZE, G, V, _text, make_battle, open_battle
from tests.support import wait_for_screen


def _head(app, i: int) -> str:
    return str(app.screen.query_one(f"#head-{i}").render())


async def test_a_random_pick_made_by_the_app_from_the_deployed_crew(make_app, data_dir) -> None:
    """A Little Surprise: 'Reveal this card at the start of the game and randomly select
    one of your fighters to carry the bomb.'"""
    make_battle(data_dir, {V: ["dark-influences:9"], G: ["goliath:Q"]}, walked=False)
    app = make_app(campaign="demo", seed=11)
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.pause()
        assert isinstance(app.screen, PrivacyCurtain) and app.screen.player == "Ana"
        assert "A Little Surprise" not in _text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, SubplotChoiceScreen)
        text = _text(app)
        assert "A Little Surprise" in text and "Picked at random by the app" in text
        picked = app.screen.picked
        await pilot.press("r")  # no silent re-roll once the app has picked
        assert app.screen.picked == picked
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PrivacyCurtain) and app.screen.player == "Ben"
        assert "A Little Surprise" not in _text(app)  # the curtain hides the revealed card too
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NothingAtTheStart)  # Back from the Dead: nothing now
        assert "Back from the Dead" not in _text(app)
        await pilot.press("enter")
        await wait_for_screen(pilot, "BattleScreen")
        # revealed at the start: public, with the fighter picked, on both sides' screen
        assert "A Little Surprise" in _head(app, 0)
        assert "Revealed: A Little Surprise (" in _text(app)  # with the carrier picked
        data = app.handle.load_battle(1)
        choice = data["setup"]["sides"][0]["subplot_choices"]["dark-influences:9"]
        crew = [f.id for f in app.screen.state.crew(V) if f.state != "not_deployed"]
        assert choice in crew and picked.startswith(app.screen.state.name_of(f"{V}/{choice}"))
        assert data["battle"]["start_walked"] is True
    # walked once: reopening does not walk it again
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.pause()
        assert type(app.screen).__name__ == "BattleScreen"


async def test_a_secret_number_seen_only_on_its_owners_peek(make_app, data_dir) -> None:
    """Dead of Night: 'At the start of the game, secretly choose a number between 6 and
    12.' The number goes into Ben's hand; the shared screen never shows it."""
    make_battle(data_dir, {V: ["escher:2"], G: ["delaque:10"]}, walked=False)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.pause()
        await pilot.press("enter", "enter")  # Ana: nothing
        await pilot.pause()
        await pilot.press("enter")  # Ben's curtain
        await pilot.pause()
        await pilot.press(*"13", "enter")  # out of range: refused, nothing stored
        assert "between 6 and 12" in _text(app)
        await pilot.press("backspace", "backspace", *"9", "enter")
        await wait_for_screen(pilot, "BattleScreen")
        shared = _text(app)
        assert "Dead of Night" not in shared and "secret" not in shared.lower()
        assert "◆" not in _head(app, 0) + _head(app, 1)  # walking it was looking at it
        data = app.handle.load_battle(1)
        assert data["setup"]["sides"][1]["subplot_choices"] == {"delaque:10": "9"}
        # Ana's peek: her own hand, no number
        await pilot.press("h", "enter")
        assert "Murder Run" in _text(app) and "Your secret choice" not in _text(app)
        await pilot.press("escape")
        # Ben's peek: his card and the number he chose
        await pilot.press("right", "h", "enter")
        await pilot.pause()
        text = _text(app)
        assert "Dead of Night" in text and "Your secret choice: 9" in text
        await pilot.press("escape")
        await pilot.pause()
        assert "Your secret choice" not in _text(app)


async def test_the_first_players_walk_looks_the_same_whatever_the_second_holds(make_app, data_dir) -> None:
    """Ana's side of the walk (her curtain, her cards) and the curtain that follows are the
    same whether Ben holds a start-of-game card, a secret choice or nothing for now."""
    seen = []
    for hand in (["goliath:Q"], ["delaque:10"], ["dark-influences:9"]):
        make_battle(data_dir, {V: ["escher:2"], G: hand}, walked=False)
        app = make_app(campaign="demo")
        texts = []
        async with app.run_test(size=SIZE) as pilot:
            await open_battle(pilot)
            await pilot.pause()
            texts.append(_text(app))
            await pilot.press("enter")
            await pilot.pause()
            texts.append(_text(app))
            await pilot.press("enter")
            await pilot.pause()
            texts.append(_text(app))  # Ben's curtain
        seen.append(texts)
        import shutil
        shutil.rmtree(data_dir / "campaigns" / "demo")
    assert seen[0] == seen[1] == seen[2]


async def test_no_walk_without_subplots_or_once_round_1_is_over(make_app, data_dir) -> None:
    from munda_tui.rules.battle.events import Event

    make_battle(data_dir, None, walked=False)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.pause()
        assert type(app.screen).__name__ == "BattleScreen"
    import shutil
    shutil.rmtree(data_dir / "campaigns" / "demo")
    make_battle(data_dir, {V: ["delaque:10"]}, [PhaseEvent(round=2, phase="priority")],
                walked=False)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.pause()
        assert type(app.screen).__name__ == "BattleScreen"


# --- snapshots ----------------------------------------------------------------------------


def _walk_keys(*keys):
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await open_battle(pilot)
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()

    return run_before


def test_snapshot_start_walk_random_pick(snap_compare, make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["dark-influences:9"], G: ["goliath:Q"]}, walked=False)
    assert snap_compare(make_app(campaign="demo", seed=11), terminal_size=SIZE,
                        run_before=_walk_keys("enter"))


def test_snapshot_start_walk_nothing_to_walk(snap_compare, make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["dark-influences:9"], G: ["goliath:Q"]}, walked=False)
    assert snap_compare(make_app(campaign="demo", seed=11), terminal_size=SIZE,
                        run_before=_walk_keys("enter", "enter", "enter"))


async def test_a_start_card_rewarded_if_you_win_is_asked_at_the_end(make_app, data_dir) -> None:
    """Superior Tools: 'Reveal this card at the start of the game and randomly choose a
    fighter in your crew ... If your gang wins the game, the test is considered a success
    and your gang gains D3 Reputation.' Shown at the start; its reward is walked when the
    battle ends, and the players say whether it was earned."""
    make_battle(data_dir, {V: ["industrial-sabotage:3"], G: ["goliath:Q"]}, walked=False)
    app = make_app(campaign="demo", seed=5)
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.pause()
        await pilot.press("enter", "enter")  # Ana: the app's random pick, confirmed
        await pilot.pause()
        await pilot.press("enter", "enter")  # Ben: nothing now
        await wait_for_screen(pilot, "BattleScreen")
        tracker = app.screen
        assert "Superior Tools" in _head(app, 0)
        await pilot.press("h", "enter", "r")  # reveal: the reward waits for the end
        assert "walked at the end of the battle" in _text(app)
        await pilot.press("enter")
        await pilot.press("E", "down", "enter")  # the Iron Skulls win
        await pilot.press("F")
        assert "reward for Superior Tools" in _text(app)
        assert "The log cannot tell" in _text(app)
        await pilot.press("n", "enter")  # not earned: the Venom Sisters lost
        await pilot.pause()
        log = tracker.battle.log
        assert log[-1].kind == "reward" and log[-1].rewards == ()
        assert isinstance(app.screen, PrivacyCurtain)  # then Ben's last look


async def test_nothing_to_walk_is_a_centred_dialog(make_app, data_dir) -> None:
    # it sat in the top-left corner, unlike every other dialog of the walk
    make_battle(data_dir, {V: ["dark-influences:9"], G: ["goliath:Q"]}, walked=False)
    app = make_app(campaign="demo", seed=11)
    async with app.run_test(size=SIZE) as pilot:
        await _walk_keys("enter", "enter", "enter")(pilot)
        assert isinstance(app.screen, NothingAtTheStart)
        assert app.screen.styles.background.a == 1  # behind the curtain: opaque
        box = app.screen.query_one("#dialog").region
        assert box.x > 0 and box.y > 0
        assert abs(box.x - (SIZE[0] - box.right)) <= 1  # as far from both sides


async def test_a_choose_crew_card_walked_at_the_start_is_revealed_as_the_header_says(
        make_app, data_dir) -> None:
    """Issue 26.7: Martyrdom ("Reveal this Sub-plot during the Choose Crew step"), its
    fighter left for the start walk: the walk said "a secret choice (do not reveal the
    card)" and then the shared header named the card. It says "reveal it now", as the
    header then shows; the peek never tells its owner to reveal it again."""
    make_battle(data_dir, {V: ["cawdor:6"], G: ["goliath:5"]}, walked=False)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.pause()
        await pilot.press("enter")  # Ana's curtain
        await wait_for_screen(pilot, "SubplotChoiceScreen")
        title = str(app.screen.query_one("#dialog-title").render())
        assert "Martyrdom - reveal it now" in title and "do not reveal" not in title
        await pilot.press("enter")  # the first fighter
        await wait_for_screen(pilot, "PrivacyCurtain")
        await pilot.press("enter", "enter")  # Ben: nothing
        await wait_for_screen(pilot, "BattleScreen")
        assert "Martyrdom" in _head(app, 0)
        await pilot.press("h", "enter")  # Ana's peek
        await wait_for_screen(pilot, "HandScreen")
        text = _text(app)
        assert "Martyrdom - shown to both before round 1" in text
        assert "reveal it" not in text and "reveal (r)" not in text
