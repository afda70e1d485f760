"""Issue #18: the pre-battle readings shown where they apply (seed 001)."""

from __future__ import annotations

from textual.widgets import Static

from munda_tui.rules.core.readings import note
from support import new_battle, open_saved_battle

SIZE = (100, 32)


async def _to_prebattle(pilot) -> None:
    await new_battle(pilot)


async def test_attacker_and_zone_mortalis_readings_on_screen(make_app) -> None:
    # seed 001: "In order to generate the Deployment map for the scenario, the challenger
    # rolls a D6" (no word on who attacks) and "Alternatively, if using Zone Mortalis Tiles,
    # players alternate placing the tiles on the battlefield."
    app = make_app(seed=7, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _to_prebattle(pilot)
        attacker = str(app.screen.query_one("#attacker", Static).render())
        assert "The challenger is the attacker" in attacker
        await pilot.press("n")
        await pilot.pause()
        for key in ("down", "down"):
            await pilot.press(key)
            await pilot.pause()
        text = str(app.screen.query_one("#bf-text", Static).render())
        assert text.startswith("Zone Mortalis")
        assert note("zone-mortalis")[:60] in " ".join(text.split())


async def test_contempt_for_the_weak_reduces_the_crew_on_screen(make_app, data_dir) -> None:
    # seed 000, Goliath Jack: "Reveal this card during the Choose Crew step of the pre-battle
    # sequence. You can reduce the size of your crew (as determined by the scenario) by up to
    # half the number of models in your gang, to a minimum crew size of 1."
    from munda_tui.rules.prebattle import scenario as sc
    from munda_tui.rules.core.model import BattleSummary
    from munda_tui.rules.prebattle.setup import BattleSetup, CrewMember
    from munda_tui.saves import Store
    from support import ensure_demo  # the demo written once per process, then copied

    ensure_demo(data_dir)
    crew = ["brakk-ironjaw", "gorth-slagborn", "mord-hammerhand", "dak-cinderfist", "thug-varro"]
    with Store(data_dir).open_campaign("demo") as handle:
        handle.campaign.battles.append(BattleSummary(number=1, status="setup"))
        handle.save()
        setup = sc.new_setup(1, "venom-sisters", "iron-skulls")
        setup.deployment, setup.objective = "Face Off", "Turf War"
        sc.apply_crew_entry(setup, sc.packaged_tables()["crew"].entry("Strike Force"))
        setup.sides[0].side_job = setup.sides[1].side_job = "Crippling Strike"
        setup.subplots = True
        setup.sides[0].crew = [CrewMember("vexa-nightshade")]
        setup.sides[1].hand = ["goliath:J"]  # Contempt for the Weak
        setup.sides[1].crew = [CrewMember(f) for f in crew]
        setup.step = "crews"
        handle.save_battle(1, {"setup": setup.to_data()})
    app = make_app(seed=2, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await open_saved_battle(pilot)
        screen = app.screen
        assert screen.panel.side_i == 1
        await pilot.press("p")
        await pilot.pause()
        await pilot.press("enter")  # behind the curtain
        await pilot.pause()
        choice = app.screen
        assert type(choice).__name__ == "SubplotChoiceScreen"
        prompt = str(choice.query_one("#choice-prompt", Static).render())
        assert "(0-4)" in prompt  # 10 models: up to 5, but a crew of 5 keeps 1 at least
        await pilot.press("5", "enter")
        await pilot.pause()
        assert app.screen is choice  # refused
        assert "between 0 and 4" in str(choice.query_one("#choice-error", Static).render())
        await pilot.press("backspace", "2", "enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "DealtCardsModal"  # who leaves the crew
        await pilot.press("down", "down", "down", "space", "down", "space", "enter")
        await pilot.pause()
        assert app.screen is screen
        side = BattleSetup.from_data(app.handle.load_battle(1)["setup"]).sides[1]
        assert side.subplot_choices == {"goliath:J": "2"}
        assert [m.fighter for m in side.crew] == crew[:3]
        assert side.crew_removed == ["dak-cinderfist", "thug-varro"]
        text = str(screen.query_one("#crew-result", Static).render())
        assert "Crew reduced by 2" in text and "Starting crew (3)" in text
