"""The reveal's rewards by keyboard (issue 26.6): n decides one reward, a roll already
made stays; a reward the log decided (who won) is not asked."""

from __future__ import annotations

from munda_tui.rules.battle.events import EndEvent

from munda_tui.rules.battle.events import Event
from tests.screens.battle.test_battle import SIZE, V, G, battle_log, make_battle, open_battle
from tests.support import wait_for_screen


def _rewards(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#reveal-rewards").render())


async def test_n_on_one_reward_keeps_the_roll_already_made(make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["goliath:3"], G: ["goliath:5"]})  # Stimmer Rampage
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("h", "enter", "r")  # curtain, ready, reveal
        await wait_for_screen(pilot, "RevealScreen")
        await pilot.press("enter")  # the D6 if you win: real dice
        await wait_for_screen(pilot, "DicePrompt")
        await pilot.press("e", "4", "enter")
        await wait_for_screen(pilot, "RevealScreen")
        assert "4 Reputation (if you win)" in _rewards(app)
        await pilot.press("n")  # the -D3 if you lose: not earned, that one only
        await pilot.pause()
        text = _rewards(app)
        assert "4 Reputation (if you win)" in text
        assert "not earned: -D3 Reputation (lost if you lose)" in text
        await pilot.press("enter")  # record
        await wait_for_screen(pilot, "BattleScreen")
        reveal = battle_log(data_dir, app)[-1]
    assert reveal.kind == "reveal"
    assert [(r.kind, r.amount) for r in reveal.rewards] == [("reputation", 4)]


async def test_the_loss_penalty_is_not_asked_when_the_log_says_the_gang_won(
        make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["goliath:3"], G: ["goliath:5"]}, [EndEvent(winner=V)])
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("h", "enter", "r")
        await wait_for_screen(pilot, "RevealScreen")
        assert "not earned (your gang won): -D3 Reputation" in _rewards(app)
        await pilot.press("enter")  # the D6: the only reward asked
        await wait_for_screen(pilot, "DicePrompt")
        await pilot.press("e", "5", "enter")
        await wait_for_screen(pilot, "RevealScreen")
        await pilot.press("enter")  # record: nothing else is asked
        await wait_for_screen(pilot, "BattleScreen")
        reveal = battle_log(data_dir, app)[-1]
    assert [(r.kind, r.amount) for r in reveal.rewards] == [("reputation", 5)]
