"""The tracker and the cards it cannot decide or needs one more fact for: a reminder's
marker at its timing on the owner's side only; Broken logged with its cause (B) for
Noble Whims' Cruel and Unusual; Cold Trade's own D6 walked before its Gang Tactic."""

from __future__ import annotations

from munda_tui.rules.battle.events import PhaseEvent

from munda_tui.rules.battle.events import Event
from munda_tui.rules.battle.watch import MET
from tests.screens.battle.test_battle import SIZE, G, V, _text, g, make_battle, open_battle


def _head(app, i: int) -> str:
    return str(app.screen.query_one(f"#head-{i}").render())


async def test_reminder_marker_at_its_timing_on_the_owner_side_only(make_app, data_dir) -> None:
    """Host of Shadows (the tracker cannot see corners and line of sight): 'Reveal this
    Sub-plot at the beginning of a round if ...' - at the start of each round its owner's
    side shows the marker, never the card; looking turns it off until the next round."""
    make_battle(data_dir, {V: ["delaque:A"], G: ["goliath:5"]})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        assert "◆" not in _head(app, 0) + _head(app, 1)  # round 1 started before the walk
        await pilot.press("n", "n", "n")  # Action, End, round 2
        assert "Round 2" in _text(app)
        assert "◆" in _head(app, 0) and "◆" not in _head(app, 1)
        assert "Host of Shadows" not in _text(app)
        await pilot.press("h", "enter")
        text = _text(app)
        assert "Host of Shadows" in text and "its time is now" in text
        assert "Reminder (new): the start of each round" in text
        await pilot.press("escape")
        await pilot.pause()
        assert "◆" not in _head(app, 0)
        await pilot.press("n", "n", "n")  # round 3: the time comes again
        assert "◆" in _head(app, 0) and "◆" not in _head(app, 1)


async def test_broken_with_its_cause_counts_for_cruel_and_unusual(make_app, data_dir) -> None:
    """'If your fighters cause at least two enemy fighters to become Broken by the end of
    the game, reveal this card': B logs who broke whom."""
    make_battle(data_dir, {V: ["noble-whims:5"], G: ["goliath:5"]})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("right", "B", "down", "enter")  # Brakk Broken by Vexa
        await pilot.press("down", "B", "down", "enter")  # Gorth Broken by Vexa
        log = app.screen.battle.log
        assert [e.kind for e in log[-2:]] == ["condition", "condition"]
        assert log[-1].attacker.startswith(V + "/") and log[-1].condition == "Broken"
        await pilot.press("E", "enter")
        (m,) = app.screen.hand_matches(V)
        assert m.status == MET and m.earned is True and "by your fighters" in m.why
        assert app.screen.state.fighters[g("brakk-ironjaw")].conditions == ["Broken"]


async def test_cold_trade_rolls_its_d6_before_the_gang_tactic(make_app, data_dir) -> None:
    """'Roll a D6 and add 1 for each enemy previously taken Out of Action in melee or with
    Coup de Grace. If the modified roll is 6+ ... draw a random Gang Tactics card.'"""
    make_battle(data_dir, {V: ["dark-influences:6"], G: ["goliath:5"]}, [
        PhaseEvent(round=1, phase="action")])
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("right", "o", "down", "r", "enter")  # Brakk OOA by Vexa, Reaction
        assert "◆" in _head(app, 0)
        await pilot.press("left", "h", "enter", "r")
        assert "First the card's roll: D6, 6+" in _text(app)
        await pilot.press("enter", "e", "4", "enter")  # a real die: 4, not 6+
        assert "Roll D6 [4] = 4: not 6+, no reward" in _text(app)
        await pilot.press("n")  # a roll decided it: not earned cannot be switched back
        assert "no reward" in _text(app)
        await pilot.press("enter")
        await pilot.pause()
        reveal = app.screen.battle.log[-1]
        assert reveal.kind == "reveal" and reveal.rewards == ()


async def test_a_choose_crew_card_not_revealed_then_says_its_moment_has_passed(
        make_app, data_dir) -> None:
    """Contempt for the Weak kept hidden at Choose Crew: the owner's peek says its moment
    was at Choose Crew, never 'its time is now'; the shared screen keeps its discreet
    marker as for any reminder due (it never tells which card)."""
    make_battle(data_dir, {V: ["goliath:J"], G: ["goliath:5"]})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        assert "◆" in _head(app, 0) and "◆" not in _head(app, 1)
        shared = _text(app)
        assert "Contempt" not in shared and "Choose Crew" not in shared
        await pilot.press("h", "enter")
        text = _text(app)
        assert "Contempt for the Weak" in text
        assert "its time is now" not in text
        assert "its moment was at Choose Crew: that time has passed" in text
        assert "its moment (Choose Crew) has passed" in text
        assert "depends on the table" not in text
        await pilot.press("escape")
        await pilot.pause()
        assert "Choose Crew" not in _text(app)
