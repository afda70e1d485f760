"""Chemical Solutions from the table to the post-battle wizard, by keyboard: revealed in
the tracker on a Flesh Wound, a fighter of that gang then taken Out of Action, the battle
finished, and the wizard's Lasting Injuries step asks for two rolls and keeps the higher.

'Reveal when one of your fighters suffers a Flesh Wound for the first time. For the rest
of the game, your fighters ignore Flesh Wounds but must roll twice on the Lasting Injury
table and accept the higher result if taken Out of Action.'"""

from __future__ import annotations

from munda_tui.rules.battle.events import EndEvent, FleshWoundEvent, PhaseEvent

from munda_tui.rules.battle.events import Event
from tests.screens.battle.test_battle import SIZE, G, V, _text, make_battle, open_battle, v
from tests.support import wait_for_screen


async def test_chemical_solutions_revealed_then_two_lasting_injury_rolls_keep_the_higher(
        make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["unforgiving-underhive:K"], G: ["goliath:5"]}, [
        PhaseEvent(round=1, phase="action"),
        FleshWoundEvent(fighter=v("sable-thorn"), amount=1),
    ])
    app = make_app(campaign="demo", seed=4)
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        screen = app.screen
        assert "◆" in str(screen.query_one("#head-0").render())
        await pilot.press("h", "enter")  # Ana's peek
        assert "Chemical Solutions - MET" in _text(app)
        await pilot.press("r")  # revealed to both: its XP is walked at the end
        assert "walked at the end of the battle" in _text(app)
        await pilot.press("enter")
        assert "Chemical Solutions" in str(screen.query_one("#head-0").render())
        # Vexa Nightshade (first of the crew) is taken Out of Action after the reveal
        await pilot.press("o", "enter")
        assert screen.state.fighters[v("vexa-nightshade")].state == "out_of_action"
        await pilot.press("E", "enter")  # the Venom Sisters win
        await pilot.press("F")  # Chemical Solutions' XP first
        assert "reward for Chemical Solutions" in _text(app)
        await pilot.press("enter", "r", "enter")
        await pilot.pause()
        await pilot.press("escape")  # Ben keeps Pit Fight hidden at his last look
        await pilot.pause()
        await pilot.press("y")  # finish: the post-battle sequence opens
        await wait_for_screen(pilot, "PostBattleScreen")
        wizard = app.screen
        first = f"injury:{V}:vexa-nightshade"
        typed = {first: "11", f"{first}:second": "55"}
        asked = []
        for _ in range(200):
            seq = wizard.seq
            p = seq.pending
            if seq.step["id"] == "lasting-injuries" and p is None and len(asked) == 2:
                break
            assert seq.step["id"] != "dramatis-personae" and not seq.at_end
            if p is not None and p.kind == "roll" and p.id in typed:
                asked.append((p.id, p.label))
                await pilot.press(*typed[p.id], "enter")  # the real dice, typed
            elif p is not None and p.kind == "roll":
                await pilot.press("r")
            else:
                await pilot.press("enter")
            await pilot.pause()
        assert [a[0] for a in asked] == [first, f"{first}:second"]
        assert "Chemical Solutions: the higher result is applied" in asked[1][1]
        lines = " ".join(wizard.seq.state.lines)
        assert "two Lasting Injury rolls (Chemical Solutions), 11 and 55: 55 applied" in lines
        assert "Vexa Nightshade: Lasting Injury 55" in lines
        assert "Lasting Injury 11" not in lines
        # only Vexa, taken out after the reveal, rolls twice
        assert sum("two Lasting Injury rolls" in line for line in wizard.seq.state.lines) == 1


async def test_work_for_the_docs_revealed_at_the_end_leaves_its_reward_to_the_wizard(
        make_app, data_dir) -> None:
    """'Reveal this card at the end of the game. For each fighter ... that went Out of
    Action but did not die ... D3x10 credits': the Lasting Injuries decide it, so the
    tracker records the reveal and the wizard walks the credits at that step."""
    make_battle(data_dir, {V: ["noble-whims:K"], G: ["goliath:5"]}, [
        PhaseEvent(round=1, phase="action"), EndEvent(winner=V)])
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("h", "enter", "r")
        assert "walked in the post-battle sequence (lasting injuries step)" in _text(app)
        await pilot.press("enter")
        await pilot.pause()
        log = app.screen.battle.log
        assert log[-1].kind == "reveal" and log[-1].card == "noble-whims:K"
        assert log[-1].rewards == ()
