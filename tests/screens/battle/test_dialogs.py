"""The tracker's questions in the dialog kit, by keyboard: a failed test and Priority
(pick one: arrows and Enter, or the number), a condition by name and a Gang Tactic
(type a line: an empty name refused with a message, the tactic's name optional), and
Escape that records nothing."""

from __future__ import annotations

from munda_tui.screens.common.dialogs import LineScreen, PickOneScreen

from phone_support import SIZE, G, V, make_battle, open_battle
from phone_support import screen_text as _text


async def _keys(pilot, *keys: str) -> None:  # type: ignore[no-untyped-def]
    for key in keys:  # each key once the last one's screen is drawn
        await pilot.press(key)
        await pilot.pause()


async def test_the_trackers_dialogs_by_keyboard(make_app, data_dir) -> None:  # type: ignore[no-untyped-def]
    make_battle(data_dir, {V: ["escher:2"], G: ["goliath:5"]})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        screen = app.screen
        kinds = lambda: [e.kind for e in screen.battle.log]  # noqa: E731
        start = len(kinds())

        await _keys(pilot, "f")  # Vexa Nightshade selected: which test?
        assert isinstance(app.screen, PickOneScreen) and "Cool (Vexa Nightshade)" in _text(app)
        await _keys(pilot, "2")  # the number picks at once
        assert kinds()[start:] == ["test_failed"]
        assert "Vexa Nightshade failed a Cool test" in _text(app)

        await _keys(pilot, "P", "down", "enter")  # Priority: the Iron Skulls
        assert kinds()[start:] == ["test_failed", "priority"]
        assert "Priority: The Iron Skulls" in _text(app)

        await _keys(pilot, "c", "enter")  # a condition with no name: refused, said why
        assert isinstance(app.screen, LineScreen) and "Type it, then Enter" in app.screen.error
        await _keys(pilot, *"Webbed", "enter")
        assert kinds()[start:] == ["test_failed", "priority", "condition"]

        await _keys(pilot, "t", "escape")  # changed their mind: nothing recorded
        assert kinds()[start:] == ["test_failed", "priority", "condition"]
        await _keys(pilot, "t", "enter")  # a Gang Tactic without its name
        assert kinds()[start:] == ["test_failed", "priority", "condition", "tactic"]
        await _keys(pilot, "f", "escape")
        assert type(app.screen).__name__ == "BattleScreen"
        assert kinds()[start:] == ["test_failed", "priority", "condition", "tactic"]
