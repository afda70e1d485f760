"""A hand edit made while the campaign is open and replaced by the app's next save is
said on screen, with where the edited file is kept (issue 26, item 18)."""

from __future__ import annotations

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.saves import Store
from support import wait_for_screen


async def test_a_replaced_hand_edit_is_said_on_screen(make_app, data_dir) -> None:
    Store(data_dir).create_campaign(demo_campaign()).close()
    path = data_dir / "campaigns" / "demo" / "campaign.toml"
    app = make_app(campaign="demo")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        edited = path.read_text(encoding="utf-8").replace('name = "Demo: Ashfall Sump"', 'name = "Demo: by hand"', 1)
        path.write_text(edited, encoding="utf-8")  # by hand, while the campaign is open
        await pilot.press("s")
        await wait_for_screen(pilot, "SettingsScreen")
        await pilot.press("enter", "down", "enter", "ctrl+s")  # a setting changed and saved
        await pilot.pause()
        said = [n.message for n in app._notifications]
        assert any(m.startswith("campaign.toml was changed outside munda-tui while the campaign was open")
                   and ".backups/campaign.toml.edited.bak" in m for m in said), said
    assert (path.parent / ".backups" / "campaign.toml.edited.bak").read_text(encoding="utf-8") == edited
