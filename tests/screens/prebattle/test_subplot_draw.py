"""The pre-battle Sub-plot draw screen: snapshots of each state, a keyboard draw for two
players with a Joker chain, and the hidden-hand test (the opponent's cards never on
screen outside their own peek)."""

from __future__ import annotations

import copy
import random
import re


from munda_tui.rules.subplots import decks as sp
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.prebattle.setup import BattleSetup, SideSetup
from munda_tui.screens.prebattle.subplot_draw import (
    DrawnHandScreen,
    JokerScreen,
    SubplotDrawScreen,
)
from munda_tui.screens.common.dialogs import LineScreen
from munda_tui.widgets.curtain import PrivacyCurtain
from support import open_saved_battle, screen_text, settle

SIZE = (100, 32)
#: with this seed the Venom Sisters (lower rating, first) draw Joker, Q, Joker, 3, 8
JOKER_SEED = 277


def gangs(equal: bool = False):
    campaign = demo_campaign()
    a, b = campaign.gangs
    if equal:  # a mirror gang with the same rating: the roll-off decides
        b = copy.deepcopy(a)
        b.id, b.name, b.player = "mirror", "The Mirror Sisters", "Cat"
    return a, b, campaign.settings


def draw_screen(seed: int = JOKER_SEED, equal: bool = False, **settings_changes) -> SubplotDrawScreen:
    a, b, settings = gangs(equal)
    for key, value in settings_changes.items():
        setattr(settings, key, value)
    return SubplotDrawScreen(a, b, settings, random.Random(seed))


def _lines(text: str) -> list[str]:
    return [" ".join(re.sub(r"[│║╭╮╰╯╔╗╚╝─═▎▊]", " ", line).split()) for line in text.splitlines()]


def flat(app) -> str:
    """The screen's words on one line (wrapping and borders removed)."""
    return " ".join(" ".join(_lines(screen_text(app))).split())


def _windows(text: str, n: int = 5) -> set[str]:
    words = text.split()
    return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}


def shown_cards(text: str, card_ids: list[str], allowed: list[str] = ()) -> list[str]:
    """The cards of ``card_ids`` whose name or any five-word run of text is on screen
    (runs that also occur in an ``allowed`` card are ignored)."""
    lines = _lines(text)
    screen = "\n".join(lines)
    allowed_runs = set().union(*(_windows(sp.card(i).text) for i in allowed)) if allowed else set()
    found = []
    for card_id in card_ids:
        c = sp.card(card_id)
        if any(c.name in line for line in lines):
            found.append(card_id)
            continue
        if any(run in screen for run in _windows(c.text) - allowed_runs):
            found.append(card_id)
    return found


async def start(app, screen: SubplotDrawScreen, pilot) -> dict:
    box: dict = {}
    app.push_screen(screen, lambda result: box.setdefault("result", result))
    await pilot.pause()
    return box


# --- snapshots ---------------------------------------------------------------------------


def _pusher(screen_factory, *keys):
    async def run_before(pilot) -> None:
        pilot.app.push_screen(screen_factory())
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()

    return run_before


def test_snapshot_setup(snap_compare, make_app):
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_pusher(draw_screen))


def test_snapshot_setup_roll_off(snap_compare, make_app):
    screen = lambda: draw_screen(seed=2, equal=True)  # noqa: E731
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_pusher(screen, "r"))


def test_snapshot_turn_prompt(snap_compare, make_app):
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_pusher(draw_screen, "enter"))


def test_snapshot_card_shown(snap_compare, make_app):
    screen = lambda: draw_screen(seed=1)  # noqa: E731
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_pusher(screen, "enter", "enter", "d"))


def test_snapshot_card_back(snap_compare, make_app):
    screen = lambda: draw_screen(seed=1)  # noqa: E731
    assert snap_compare(make_app(), terminal_size=SIZE,
                        run_before=_pusher(screen, "enter", "enter", "d", "h"))


def test_snapshot_joker_announced(snap_compare, make_app):
    assert snap_compare(make_app(), terminal_size=SIZE,
                        run_before=_pusher(draw_screen, "enter", "enter", "d"))


def test_snapshot_summary(snap_compare, make_app):
    keys = ["enter", "enter", "d", "enter", "d", "d", "enter", "d", "d", "h", "enter",
            "enter", "d", "h", "enter"]
    assert snap_compare(make_app(), terminal_size=SIZE, run_before=_pusher(draw_screen, *keys))


# --- keyboard flows ----------------------------------------------------------------------


async def test_two_players_draw_by_keyboard_with_a_joker_chain(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = draw_screen()
        box = await start(app, screen, pilot)
        await pilot.press("enter")  # start: curtain for the Venom Sisters
        assert isinstance(app.screen, PrivacyCurtain) and "Ana" in app.screen.player
        await pilot.press("enter")
        await pilot.press("d")  # Joker
        assert isinstance(app.screen, JokerScreen)
        text = screen_text(app)
        assert "Joker! Ana (The Venom Sisters) drew a Joker." in text
        assert "Show it to Ben (The Iron Skulls)." in text
        await pilot.press("enter", "d", "d")  # a Sub-plot, then the second Joker
        assert isinstance(app.screen, JokerScreen)
        assert "3 Sub-plots" in screen_text(app)
        await pilot.press("enter", "d", "d")
        assert screen.session.remaining("venom-sisters") == 0
        await pilot.press("d")  # nothing more to draw: ignored
        assert len(screen.session.sides["venom-sisters"].hand) == 3
        await pilot.press("h", "enter")  # hide, pass to Ben
        assert isinstance(app.screen, PrivacyCurtain) and "Ben" in app.screen.player
        await pilot.press("enter")
        # Ben types the card he drew from a real deck: first a typo, then a good one
        await pilot.press("c")
        assert isinstance(app.screen, LineScreen)
        assert app.screen.styles.background.a == 1  # opaque: nothing beneath shows through
        await pilot.press(*"QX", "enter")
        assert isinstance(app.screen, LineScreen) and "QX" in screen_text(app)
        assert app.screen.error  # the typo is refused with the reason, in the dialog
        await pilot.press("backspace", "backspace", *"KD", "enter")
        assert app.screen is screen
        await pilot.press("h", "enter")
        assert screen.phase == "summary"
        await pilot.press("enter")
        await pilot.pause()
    result = box["result"]
    assert result.order == ["venom-sisters", "iron-skulls"]
    ana, ben = result.side("venom-sisters"), result.side("iron-skulls")
    assert ana.jokers == 2 and ana.hand == ["escher:Q", "escher:3", "escher:8"]
    assert ana.cards == ["JOKER2", "QH", "JOKER1", "3C", "8S"] and ana.use_house_deck
    assert ben.hand == ["goliath:K"] and ben.jokers == 0 and ben.cards == ["KD"]
    setup = BattleSetup(number=1, challenger="venom-sisters", challenged="iron-skulls",
                        sides=[SideSetup("venom-sisters"), SideSetup("iron-skulls")])
    result.apply(setup)
    assert setup.side("iron-skulls").hand == ["goliath:K"] and setup.side("venom-sisters").jokers == 2


async def test_deck_choices_and_roll_off_with_real_dice(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = draw_screen(seed=5, equal=True)
        box = await start(app, screen, pilot)
        assert screen.order is None
        await pilot.press("enter")  # cannot start before the roll-off
        assert screen.phase == "setup" and "Press r to roll the D6 roll-off" in screen_text(app)
        await _keys(pilot, "e", *"3 3", "enter")  # each key once the last one's screen is up
        assert "a tie, roll again" in screen_text(app)
        await _keys(pilot, "e", *"9", "enter")  # refused
        assert "type two D6 faces" in screen_text(app)
        await _keys(pilot, "backspace", *"2 5", "enter")
        assert screen.order.first == "mirror"
        assert "The Mirror Sisters won the D6 roll-off 5 to 2 after 1 tie" in flat(app)
        await pilot.press("1", "2", "s")  # suit decks for both, a deck each
        assert "suit decks" in flat(app) and "a full deck for each player" in flat(app)
        for _ in range(2):  # each player draws; a Joker may add a card
            await pilot.press("enter", "enter")
            while isinstance(app.screen, JokerScreen) or screen.session.remaining(screen.turn_gang):
                await pilot.press("enter" if isinstance(app.screen, JokerScreen) else "d")
            await pilot.press("h")
        await pilot.press("enter", "enter")
        await pilot.pause()
    result = box["result"]
    assert result.rolloff == [(3, 3), (2, 5)] and result.order[0] == "mirror"
    assert not result.shared_deck
    assert all(not s.use_house_deck for s in result.sides.values())
    assert all(not i.startswith(("escher:",)) for s in result.sides.values() for i in s.hand)


async def test_roll_off_by_the_app_and_stopping(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = draw_screen(seed=4, equal=True)
        box = await start(app, screen, pilot)
        while screen.order is None:
            await pilot.press("r")
        assert screen.order.rolloff[-1][0] != screen.order.rolloff[-1][1]
        await pilot.press("escape", "n")  # asked first: keep drawing
        assert app.screen is screen
        await pilot.press("escape", "y")
        await pilot.pause()
    assert box["result"] is None


async def test_the_opponents_cards_never_show_outside_their_peek(make_app):
    """Capture the screen in every state of a draw; a hand's names and texts appear only
    while its owner is looking (their turn, their peek)."""
    app = make_app()
    captured: list[tuple[str, str, str]] = []  # (state, who may look, text)
    async with app.run_test(size=SIZE) as pilot:
        screen = draw_screen()
        box = await start(app, screen, pilot)

        async def snap(state: str, viewer: str, *keys: str) -> None:
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            captured.append((state, viewer, screen_text(app)))

        await snap("setup", "")
        await snap("curtain A", "", "enter")
        await snap("A turn, nothing drawn", "A", "enter")
        await snap("Joker 1 announced", "", "d")
        await snap("A after Joker 1", "A", "enter")
        await snap("A first Sub-plot", "A", "d")
        await snap("Joker 2 announced over A's card", "", "d")
        await snap("A after Joker 2", "A", "enter")
        await snap("A two", "A", "d")
        await snap("A three", "A", "d")
        await snap("A hidden", "", "h")
        await snap("curtain B", "", "enter")
        await snap("curtain B, declined", "", "escape")
        await snap("curtain B again", "", "enter")
        await snap("B turn", "B", "enter")
        await snap("B typing", "B", "c")
        await snap("B back", "B", "escape")
        await snap("B drawn", "B", "d")
        await snap("B hidden", "", "h")
        await snap("summary", "", "enter")
        await snap("peek A curtain", "", "1")
        await snap("peek A", "A", "enter")
        await snap("after peek A", "", "escape")
        await snap("peek B curtain", "", "2")
        await snap("peek B declined", "", "escape")
        await snap("peek B curtain again", "", "2")
        await snap("peek B", "B", "enter")
        await snap("after peek B", "", "h")
        await snap("stop asked", "", "escape")
        await snap("kept drawing", "", "n")
        await pilot.press("enter")
        await pilot.pause()
        captured.append(("dismissed", "", screen_text(app)))
    result = box["result"]
    hands = {"A": result.side("venom-sisters").hand, "B": result.side("iron-skulls").hand}
    assert len(hands["A"]) == 3 and len(hands["B"]) == 1
    assert not set(c.name for c in map(sp.card, hands["A"])) & {sp.card(hands["B"][0]).name}
    seen_by_owner = {"A": set(), "B": set()}
    for state, viewer, text in captured:
        for who, hand in hands.items():
            other = "B" if who == "A" else "A"
            shown = shown_cards(text, hand, allowed=hands[other] if viewer == other else ())
            if viewer == who:
                seen_by_owner[who].update(shown)
            else:
                assert shown == [], f"{who}'s cards {shown} on screen in state {state!r}"
    # the detector does find cards when they are on screen: each owner saw every card
    assert seen_by_owner["A"] == set(hands["A"]) and seen_by_owner["B"] == set(hands["B"])


async def test_peek_needs_the_curtain(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = draw_screen(seed=1)
        await start(app, screen, pilot)
        await pilot.press("enter", "enter", "d", "h", "enter", "enter", "d", "h", "enter")
        assert screen.phase == "summary"
        await pilot.press("1")
        assert isinstance(app.screen, PrivacyCurtain)
        assert "Pass the laptop to Ana (The Venom Sisters)." in screen_text(app)
        assert "Only Ana (The Venom Sisters) should look." in screen_text(app)
        assert "Press Enter when ready." in screen_text(app)
        await pilot.press("enter")
        assert isinstance(app.screen, DrawnHandScreen)
        hand = screen.session.sides["venom-sisters"].hand
        assert shown_cards(screen_text(app), hand) == hand
        await pilot.press("escape")
        assert app.screen is screen


async def test_dice_by_hand_puts_real_dice_first(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = draw_screen(seed=5, equal=True, dice_by_hand=True)
        await start(app, screen, pilot)
        assert "Roll a D6 each and press e to enter the dice" in flat(app)
        await pilot.press("e", *"6 1", "enter")
        assert screen.order.first == "venom-sisters" and screen.order.rolloff == ((6, 1),)


# --- secrets: nothing Ben sees depends on Ana's hidden card ---------------------------------


async def _ben_sees(make_app, anas_card: str) -> list[str]:
    """Ana types ``anas_card``; then Ben goes through every message his turn can show
    (a typo, a Joker, his own card twice, the card Ana may hold, the end of his draw, the
    summary). Returns the screen's text after each step."""
    app = make_app()
    seen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = draw_screen()
        await start(app, screen, pilot)
        for key in ("enter", "enter", "c", *anas_card, "enter", "h", "enter", "enter"):
            await pilot.press(key)  # each key once the last one's screen is drawn
            await settle(pilot)
        assert screen.turn_gang == "iron-skulls"
        steps = [
            ("c", *"ZZ", "enter"),  # not a card
            ("escape",),
            ("c", *"joker", "enter"),  # a Joker: shown to both
            ("enter",),
            ("c", *"QH", "enter"),  # the Queen of Hearts: maybe Ana's card, never refused for it
            ("c", *"QH", "enter"),  # his own card again: refused
            ("escape",),
            ("c", *"joker", "enter"),  # the other Joker
            ("enter",),
            ("c", *"KD", "enter"),  # maybe Ana's card too
            ("c", *"2S", "enter"),
            ("h",),
            ("enter",),  # the summary
        ]
        for keys in steps:
            for key in keys:
                await pilot.press(key)
                await settle(pilot)  # laid out to the end: a scrollbar's reflow included
            seen.append(flat(app))
    return seen


async def test_the_shared_screen_is_the_same_whatever_the_opponent_holds(make_app):
    """Every message of Ben's turn, with Ana holding different cards (one card each,
    so the public count is the same): the text on screen is identical."""
    runs = {card: await _ben_sees(make_app, card) for card in ("QH", "KD", "2S", "9C")}
    first = runs["QH"]
    assert any("already drawn the Queen of Hearts" in t for t in first)
    assert any("Joker" in t for t in first) and any("ZZ" in t for t in first)
    for card, texts in runs.items():
        assert texts == first, card


# --- the draw is kept from the first card ----------------------------------------------


def _battle_at_the_subplots_step(data_dir) -> None:
    from support import ensure_demo  # the demo written once per process, then copied

    from munda_tui.rules.prebattle import scenario as sc
    from munda_tui.rules.core.model import BattleSummary
    from munda_tui.saves import Store

    ensure_demo(data_dir)
    with Store(data_dir).open_campaign("demo") as handle:
        handle.campaign.battles.append(BattleSummary(number=1, status="setup"))
        handle.save()
        setup = sc.new_setup(1, "venom-sisters", "iron-skulls")
        setup.deployment, setup.objective = "Face Off", "Turf War"
        setup.step = "subplots"
        handle.save_battle(1, {"setup": setup.to_data()})


async def _open_battle(app, pilot) -> None:
    await open_saved_battle(pilot)


def _saved(app) -> BattleSetup:
    return BattleSetup.from_data(app.handle.load_battle(1)["setup"])


async def _keys(pilot, *keys: str) -> None:
    """Each key once the last one's screen is up and laid out (support.settle)."""
    for key in keys:
        await pilot.press(key)
        await settle(pilot)


async def test_a_card_drawn_is_kept_through_a_restart_and_leaving_the_draw(make_app, data_dir):
    """'Both players agree: draw', the first player draws one card: it is saved at once.
    The app closed and reopened, the step says the draw is under way and goes on with the
    same card (no fresh draw); Esc then y leaves the draw, and choosing to draw again
    still goes on with it. The shared screen never names the card."""
    _battle_at_the_subplots_step(data_dir)
    app = make_app(seed=5, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _open_battle(app, pilot)
        await _keys(pilot, "down", "enter")  # Both players agree: draw
        await pilot.pause()
        assert isinstance(app.screen, SubplotDrawScreen)
        await _keys(pilot, "enter", "enter", "d")  # start, the curtain, draw
        await pilot.pause()
        draw = app.screen.session
        first = draw.history[0]
        saved = _saved(app)
        assert not saved.subplots and len(saved.subplot_draw["draw"]["history"]) == 1
        seen = [d.subplot.id for d in draw.history if d.subplot]
    app = make_app(seed=99, demo=True)  # reopened (another seed: nothing reshuffled)
    async with app.run_test(size=SIZE) as pilot:
        await _open_battle(app, pilot)
        text = flat(app)
        assert "under way (saved)" in text and "not used" not in text
        assert shown_cards(screen_text(app), seen) == []
        await pilot.press("enter")  # the draw is highlighted: it goes on
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SubplotDrawScreen) and screen.phase == "hidden"
        assert screen.session.history[0].card == first.card
        assert shown_cards(screen_text(app), seen) == []  # the cards stay backs
        await pilot.press("escape")
        await pilot.pause()
        assert "Leave the draw for now?" in flat(app)
        await pilot.press("y")
        await pilot.pause()
        assert type(app.screen).__name__ == "PreBattleScreen"
        assert "under way (saved)" in flat(app)
        assert _saved(app).subplot_draw["draw"]["history"][0]["card"] == first.card.code
        await pilot.press("enter")  # still on "draw": the same draw goes on
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SubplotDrawScreen)
        assert screen.session.history[0].card == first.card
        # finish it: each player, behind the curtain
        while screen.phase != "summary":
            if screen.phase == "hidden":
                await _keys(pilot, "enter", "enter")
            elif screen.session.remaining(screen.turn_gang):
                await pilot.press("d")
            else:
                await pilot.press("h")
            await pilot.pause()
        hands = {g: list(s.hand) for g, s in screen.session.sides.items()}
        await pilot.press("enter")
        await pilot.pause()
        s = _saved(app)
        assert s.subplots and {side.gang: side.hand for side in s.sides} == hands
        # "No Sub-plots", then draw again: the same hands come back, never a new draw
        if app.screen.step != "subplots":
            await pilot.press("escape")  # back to the Sub-plots step
            await pilot.pause()
        assert app.screen.step == "subplots"
        await _keys(pilot, "up", "enter")
        await pilot.pause()
        s = _saved(app)
        assert not s.subplots and s.subplot_draw  # not used, but the draw is kept
        await pilot.press("escape")  # back to the Sub-plots step
        await pilot.pause()
        assert app.screen.step == "subplots", app.screen.step
        assert "The draw already made is kept" in flat(app)
        await _keys(pilot, "down", "enter")
        await pilot.pause()
        s = _saved(app)
        assert s.subplots and {side.gang: side.hand for side in s.sides} == hands


async def test_the_roll_off_is_saved_at_once_and_esc_says_what_it_does(make_app):
    """The roll-off is saved as it is made (a restart keeps it: no second roll-off);
    Esc is "No Sub-plots" until the draw begins, then "Leave the draw (kept)" (issue 26.9:
    it said "No Sub-plots" during the draw, which left the draw begun and saved)."""
    saved: list[dict] = []
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        a, b, settings = gangs(equal=True)
        screen = SubplotDrawScreen(a, b, settings, random.Random(5), on_change=saved.append)
        await start(app, screen, pilot)
        await _keys(pilot, "e", *"4 4", "enter", "e", "ctrl+u", *"2 5", "enter")
        assert saved[-1] == {"rolloff": [[4, 4], [2, 5]]}  # no card yet: the roll is kept
        assert "esc No Sub-plots" in flat(app)
        app.pop_screen()
        await pilot.pause()
        again = SubplotDrawScreen(a, b, settings, random.Random(99), resume=saved[-1],
                                  on_change=saved.append)
        await start(app, again, pilot)
        assert again.order.first == "mirror" and again.order.rolloff == ((4, 4), (2, 5))
        text = flat(app)
        assert "The roll-off made before is kept" in text and "won the D6 roll-off 5 to 2" in text
        await _keys(pilot, "r")  # no second roll-off
        assert again.rolls == [(4, 4), (2, 5)]
        await _keys(pilot, "enter", "enter")  # start, the curtain
        # the curtain passed, no card seen yet: the draw has begun (saved)
        assert "esc Leave the draw (kept)" in flat(app) and "No Sub-plots" not in flat(app)
        assert saved[-1]["draw"]
        await _keys(pilot, "d")
        text = flat(app)
        assert "esc Leave the draw (kept)" in text and "No Sub-plots" not in text
        assert saved[-1]["rolloff"] == [[4, 4], [2, 5]] and saved[-1]["draw"]
        await _keys(pilot, "escape")
        assert "Leave the draw for now?" in flat(app)


async def test_a_saved_roll_off_alone_is_shown_by_the_step_and_the_draw_goes_on(make_app,
                                                                               data_dir):
    from munda_tui.saves import Store

    _battle_at_the_subplots_step(data_dir)
    with Store(data_dir).open_campaign("demo") as handle:
        data = handle.load_battle(1)
        data["setup"]["subplot_draw"] = sp.rolloff_record([(3, 3), (6, 1)])
        handle.save_battle(1, data)
    app = make_app(seed=5, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _open_battle(app, pilot)
        assert "roll-off for the Sub-plot draw is made (saved)" in flat(app)
        await pilot.press("enter")  # the draw is under way: Enter goes on with it
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SubplotDrawScreen) and screen.rolls == [(3, 3), (6, 1)]
