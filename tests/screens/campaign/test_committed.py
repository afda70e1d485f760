"""Screens hear of a commit through a Textual message (issue 33.4): the campaign
handle owns the values; a screen that shows them shows them again when told
(``CampaignCommitted``, posted by the app to every screen after a commit lands)."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

from campaign_support import seed
from support import screen_text, wait_for_screen

SIZE = (100, 32)
V = "venom-sisters"


def _renamed(campaign, name: str):  # type: ignore[no-untyped-def]
    gang = copy.deepcopy(campaign.gang(V))
    gang.name = name
    return replace(campaign, gangs=[gang if g.id == V else g for g in campaign.gangs])


async def test_the_screens_show_a_commit_when_its_message_comes(make_app, data_dir: Path) -> None:
    """A commit alone changes no screen; its message makes the campaign screen (under
    the roster) and the roster show the new values. On main the screens held the
    campaign object and were refreshed by hand after each save."""
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        campaign_screen = app.screen
        gangs = campaign_screen.query_one("#gangs")
        assert gangs.get_cell(V, "name") == "The Venom Sisters"
        gangs.move_cursor(row=gangs.get_row_index(V))
        await pilot.press("r")
        await wait_for_screen(pilot, "RosterScreen")
        roster = app.screen
        app.handle.commit(_renamed(app.handle.campaign, "The Venom Queens"))  # (no message)
        await pilot.pause()
        assert "The Venom Sisters" in str(roster.query_one("#gang-title").render())
        assert gangs.get_cell(V, "name") == "The Venom Sisters"
        app.campaign_committed("a test")
        await pilot.pause()
        assert "The Venom Queens" in str(roster.query_one("#gang-title").render())
        assert gangs.get_cell(V, "name") == "The Venom Queens"  # (the screen underneath too)
        # the app's commit: committed, and told
        assert app.commit_campaign(_renamed(app.handle.campaign, "The Venom Sisters"))
        await pilot.pause()
        assert "The Venom Sisters" in str(roster.query_one("#gang-title").render())


async def test_a_roster_edit_whose_commit_fails_leaves_the_old_values(make_app, data_dir: Path) -> None:
    """By keyboard: the gang's form (g) saved while the disk is full: the error is said
    with its reason, the roster and the campaign keep the old values in memory and on
    disk (nothing put back by hand: the new values were never adopted); once the disk is
    fixed the same save lands."""
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        gangs = app.screen.query_one("#gangs")
        gangs.move_cursor(row=gangs.get_row_index(V))
        await pilot.press("r")
        await wait_for_screen(pilot, "RosterScreen")
        old = app.handle.campaign
        gang_file = app.handle.path / "gangs" / f"{V}.toml"
        disk = gang_file.read_bytes()
        await pilot.press("g")
        await wait_for_screen(pilot, "GangFormScreen")
        name = app.screen.query_one("#f-name")
        name.value = ""
        await pilot.click("#f-name")
        await pilot.press(*"Ash Queens")

        def full() -> None:
            raise OSError(28, "No space left on device")

        app.handle.save = full
        try:
            await pilot.press("ctrl+s")
            await wait_for_screen(pilot, "ErrorScreen")
            assert "No space left on device" in screen_text(app)
            await pilot.press("escape")
            await wait_for_screen(pilot, "GangFormScreen")
        finally:
            del app.handle.save
        assert app.handle.campaign is old and old.gang(V).name == "The Venom Sisters"
        assert gang_file.read_bytes() == disk
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, "RosterScreen")
        await pilot.pause()
        assert app.handle.campaign.gang(V).name == "Ash Queens"
        assert "Ash Queens" in str(app.screen.query_one("#gang-title").render())
    assert 'name = "Ash Queens"' in gang_file.read_text(encoding="utf-8")
