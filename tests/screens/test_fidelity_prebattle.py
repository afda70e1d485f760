"""Issue #18: the pre-battle readings shown where they apply (seed 001)."""

from __future__ import annotations

from textual.widgets import Static

from munda_tui.rules.readings import note

SIZE = (100, 32)


async def _to_prebattle(pilot) -> None:
    app = pilot.app
    for _ in range(20):
        await pilot.pause()
        if type(app.screen).__name__ == "CampaignScreen":
            break
    await pilot.press("n")
    await pilot.pause()
    assert type(app.screen).__name__ == "PreBattleScreen"


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
