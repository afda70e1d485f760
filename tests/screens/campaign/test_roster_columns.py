"""The roster at 100 columns shows Injuries and Skills, cut with an ellipsis (#15)."""

from __future__ import annotations

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import LastingInjury
from munda_tui.saves import Store
from support import wait_for_screen


async def test_injuries_and_skills_fit_at_100_columns_full_in_the_detail(make_app,
                                                                        data_dir) -> None:
    c = demo_campaign()
    vexa = c.gang("venom-sisters").fighters[0]
    vexa.skills = ["Combat Virtuoso", "Escape Artist", "Spring Up"]
    vexa.injuries = [LastingInjury("Humiliated", "46", "-1 Leadership, -1 Cool", battle=2)]
    Store(data_dir).create_campaign(c).close()
    app = make_app(campaign=c.id)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("r")
        await wait_for_screen(pilot, "RosterScreen")
        assert app.screen.gang_id == "venom-sisters"
        table = app.screen.query_one("#fighters")
        # the whole table fits the screen: the last column ends inside it
        assert table.virtual_size.width <= table.size.width
        row = [str(cell) for cell in table.get_row(vexa.id)]
        skills, injuries = row[-1], row[-2]
        assert skills.endswith("…") and "Combat Virtuoso, Escape Artist".startswith(skills[:-1])
        assert injuries == "Humiliat…"
        lines = app.export_screenshot()
        assert "Injuries" in lines and "Skills" in lines
        detail = str(app.screen.query_one("#fighter-detail").render())
        assert "Skills: Combat Virtuoso, Escape Artist, Spring Up" in detail
        assert "Injury: Humiliated" in detail
