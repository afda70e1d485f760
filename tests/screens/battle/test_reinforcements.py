"""The tracker walks the End phase's Reinforcements step: Priority, how many each gang
draws, then the draws alternating from the Priority winner, each with its D6."""

from __future__ import annotations

from munda_tui.rules.battle.events import PhaseEvent, PriorityEvent

from pathlib import Path

from munda_tui.rules.battle.events import Battle, Event, default_setup, start_event
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import BattleSummary
from munda_tui.saves import Store
from munda_tui.screens.battle.reinforcements import ReinforcementScreen

SIZE = (80, 24)
V, G = "venom-sisters", "iron-skulls"


def make_battle(data_dir: Path, decks: tuple[int, int] = (1, 3), each_round: str = "D3",
                events: list[Event] = ()) -> None:
    """Battle 1 in the tracker: Reinforcements (the last fighters of each crew) due from
    round one, the battle in round 1's Action phase."""
    c = demo_campaign()
    c.battles.append(BattleSummary(1, date="2026-01-15", gangs=[V, G], status="battle"))
    setup = default_setup(c, 1, V, G)
    setup.objective = "Sabotage"
    setup.reinforcements_each_round, setup.reinforcements_from_round = each_round, 1
    setup.reinforcements_rule = f"{each_round} each round from round 1"
    for side, n in zip(setup.sides, decks):
        if n:
            side.reinforcements = side.crew[-n:]
            side.crew = side.crew[:-n]
    log = [start_event(setup, c), PhaseEvent(round=1, phase="action"), *events]
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, {"setup": setup.to_data(), "battle": Battle(log).to_data()})


async def open_battle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.pause()
    pilot.app.open_battle(1)
    await pilot.pause()


def saved_log(app) -> list[Event]:  # type: ignore[no-untyped-def]
    return Battle.from_data(app.handle.load_battle(1)["battle"]).log


def test_snapshot_reinforcements_walk(snap_compare, make_app, data_dir) -> None:
    make_battle(data_dir)
    # into the End phase; Iron Skulls won Priority; D3s from real dice (2, 1); the first
    # draw made by the app: the Venom Sisters' turn is shown
    assert snap_compare(make_app(campaign="demo"), terminal_size=SIZE, run_before=open_battle,
                        press=["n", "2", "e", "2", "enter", "e", "1", "enter", "r"])


async def test_one_end_phase_with_reinforcements_due_for_both_sides(make_app, data_dir) -> None:
    make_battle(data_dir)  # Venom Sisters: 1 card (Pip Hollow); Iron Skulls: 3
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        screen = app.screen
        await pilot.press("n")  # Action -> End: Priority is not recorded this round
        assert screen.state.phase == "end"
        assert "who won Priority" in str(app.screen.query_one("#dialog-title").render())
        await pilot.press("2")  # Iron Skulls
        await pilot.press("e", "2", "enter")  # Iron Skulls: D3 from a real die, 2 due
        await pilot.press("r")  # Venom Sisters: the app rolls their D3
        assert isinstance(app.screen, ReinforcementScreen)
        st = screen.state
        assert st.sides[G].due == 2 and st.sides[V].due >= 1
        assert "The Iron Skulls draw (1 of 2)" in str(app.screen.query_one("#reinf-turn").render())
        await pilot.press("enter")  # Enter never rolls: nothing drawn
        assert "The Iron Skulls draw (1 of 2)" in str(app.screen.query_one("#reinf-turn").render())
        await pilot.press("r")  # Iron Skulls: a random card, the app's D6
        assert "Venom Sisters draw" in str(app.screen.query_one("#reinf-turn").render())
        await pilot.press("c", "1")  # dealt by hand: the only card, Pip Hollow
        await pilot.press("2")  # a real D6 of 2: 12"
        await pilot.press("5")  # Iron Skulls again (V are out of cards): random card, D6 5
        assert not isinstance(app.screen, ReinforcementScreen)  # the step is done

        log = saved_log(app)
        assert [e.kind for e in log[2:]] == ["phase", "priority", "reinforcements_due",
                                             "reinforcements_due", "reinforcement",
                                             "reinforcement", "reinforcement"]
        assert [e.gang for e in log[4:6]] == [G, V]
        g1, v1, g2 = log[-3:]
        assert g1.fighter.startswith(G + "/") and g2.fighter.startswith(G + "/")
        assert g1.fighter != g2.fighter and len(g1.faces) == 1
        assert g1.distance == (9 if g1.faces[0] >= 3 else 12)
        assert (v1.fighter, v1.faces, v1.distance) == (f"{V}/pip-hollow", (2,), 12)
        assert (g2.faces, g2.distance) == ((5,), 9)
        st = screen.state
        assert st.fighters[f"{V}/pip-hollow"].state == "active"
        assert len(st.sides[G].reserves) == 1 and st.round == 1 and st.phase == "end"
        assert "D6 5: 9\" from enemies" in str(
            screen.query_one("#message").render())

        # undone like any event; leaving the End phase walks the draw still due, then moves on
        await pilot.press("u")
        assert screen.state.sides[G].arrived == 1
        await pilot.press("n")
        assert isinstance(app.screen, ReinforcementScreen)
        await pilot.press("6")
        assert (screen.state.round, screen.state.phase) == (2, "priority")
        assert [e.kind for e in saved_log(app)[-2:]] == ["reinforcement", "phase"]


async def test_skipped_step_is_not_asked_again_and_d_resumes_it(make_app, data_dir) -> None:
    make_battle(data_dir, decks=(2, 2), each_round="1",
                events=[PriorityEvent(gang=V)])
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        screen = app.screen
        await pilot.press("n")  # a fixed 1 each: no D3 to roll, straight to the draws
        assert isinstance(app.screen, ReinforcementScreen)
        assert [e.amount for e in screen.battle.log[-2:]] == [1, 1]
        await pilot.press("escape")
        assert "skipped" in str(screen.query_one("#message").render())
        await pilot.press("d")  # resumes the step
        assert isinstance(app.screen, ReinforcementScreen)
        await pilot.press("3", "r")  # Venom Sisters (Priority) then Iron Skulls (r rolls)
        assert not isinstance(app.screen, ReinforcementScreen)
        assert [screen.state.sides[g].arrived for g in (V, G)] == [1, 1]
        await pilot.press("n")
        assert screen.state.round == 2


async def test_no_reinforcements_rule_no_step(make_app, data_dir) -> None:
    make_battle(data_dir, each_round="")
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("n", "n")
        assert app.screen.state.round == 2 and not isinstance(app.screen, ReinforcementScreen)


async def test_a_fighter_still_in_the_reinforcements_deck_is_no_attacker(make_app, data_dir) -> None:
    """QA walk: 'By whom?' offered Reserve fighters (not yet deployed) as the attacker."""
    from munda_tui.screens.battle.attack import AttackScreen

    make_battle(data_dir, decks=(1, 3))  # Venom Sisters: Pip Hollow held back; Iron Skulls: 3
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        state = app.screen.state
        reserves = {f.name for f in state.fighters.values() if f.state == "not_deployed"}
        assert len(reserves) == 4
        await pilot.press("s")  # Vexa Nightshade Seriously Injured: by whom?
        assert isinstance(app.screen, AttackScreen)
        ol = app.screen.query_one("#attackers")
        offered = {str(ol.get_option_at_index(i).prompt).rsplit(" (", 1)[0]
                   for i in range(ol.option_count)}
        assert not offered & reserves
        deployed = {f.name for f in state.fighters.values()
                    if f.state != "not_deployed" and f.name != "Vexa Nightshade"}
        assert deployed <= offered


async def test_undo_in_the_reinforcements_step_with_nothing_arrived_says_so(make_app, data_dir) -> None:
    """QA walk: u (in the footer) did nothing before the first arrival; the help said
    Enter draws and rolls, though Enter never rolls (r does)."""
    from munda_tui.screens.battle.screen import BattleScreen

    from munda_tui.widgets.keys import keys_text

    assert "{key:reinforcement.draw} draws at random and rolls the D6" in BattleScreen.HELP
    make_battle(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        assert "r draws at random and rolls the D6" in keys_text(app, BattleScreen.HELP)
        assert "Enter draws" not in keys_text(app, BattleScreen.HELP)
        await open_battle(pilot)
        await pilot.press("n", "2", "e", "2", "enter", "e", "1", "enter")
        assert isinstance(app.screen, ReinforcementScreen)
        before = saved_log(app)
        await pilot.press("u")
        await pilot.pause()
        assert saved_log(app) == before
        assert "Nothing to undo: no Reinforcement has arrived in this step yet." in [
            n.message for n in app._notifications]
