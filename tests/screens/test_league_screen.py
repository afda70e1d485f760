"""A league from the campaign screen: the footer hint of what is not yet shared, the
sync key, and the Arbitrator's choice on the conflict screen (Pilot)."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import pytest

from munda_tui.saves import Store
from munda_tui.saves.league import init, join, sync
from league_support import bare_remote, league, play
from support import wait_for_screen, wait_until

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
SIZE = (100, 32)


def _text(app, selector: str) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one(selector).render())


async def test_the_conflict_screen_takes_a_side_per_gang_and_syncs(make_app, data_dir: Path, tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "remote.git")
    store = Store(data_dir)
    with store.create_campaign(league(2)) as handle:
        init(handle, str(remote))
    home = Store(tmp_path / "home")
    join(home, str(remote))
    with home.open_campaign("club-league") as handle:  # a roster edit at home, shared
        handle.campaign.gang("gang-01").credits += 1000
        handle.save()
        sync(handle)
        edited = copy.deepcopy(handle.campaign.gang("gang-01"))
    with store.open_campaign("club-league") as handle:  # a battle at the club, not yet
        play(handle, "gang-01", "gang-02", 7, "2026-12-01")
    app = make_app(campaign="club-league")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await wait_until(pilot, lambda: app.screen.query_one("#league-hint").display,
                         "the league hint")
        assert _text(app, "#league-hint") == "1 battle, 2 gangs changed since the last sync: g syncs"
        await pilot.press("g")
        await wait_for_screen(pilot, "ConflictScreen")
        detail = _text(app, "#conflict-detail")
        assert "The league changed:" in detail and f"credits {edited.credits - 1000} -> {edited.credits}" in detail
        assert "Re-applicable: battle 1 (2026-12-01)" in detail
        await pilot.press("enter")  # nothing chosen yet: refused, the screen stays
        await pilot.pause()
        assert type(app.screen).__name__ == "ConflictScreen"
        assert "1 still to choose" in _text(app, "#conflict-hint")
        await pilot.press("t")  # the league's ...
        await pilot.press("p")  # ... no: the league's with the club's battle re-applied
        await pilot.pause()
        options = app.screen.query_one("#conflict-list")
        assert str(options.get_option_at_index(0).prompt) == \
            "Gang 01: the league's, with this laptop's battle re-applied"
        await pilot.press("enter")
        await wait_for_screen(pilot, "CampaignScreen")
        await wait_until(pilot, lambda: "nothing new to share" in _text(app, "#league-hint"),
                         "the hint after the sync")
        gang = app.handle.campaign.gang("gang-01")
        assert gang.credits > edited.credits - 1000 + 500  # the home edit is in
        assert [b.status for b in app.handle.campaign.battles] == ["done"]  # and the battle


async def test_escape_on_the_conflict_screen_leaves_everything(make_app, data_dir: Path, tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "remote.git")
    store = Store(data_dir)
    with store.create_campaign(league(2)) as handle:
        init(handle, str(remote))
    home = Store(tmp_path / "home")
    join(home, str(remote))
    with home.open_campaign("club-league") as handle:
        handle.campaign.gang("gang-02").notes = "home"
        handle.save()
        sync(handle)
    with store.open_campaign("club-league") as handle:
        handle.campaign.gang("gang-02").notes = "club"
        handle.save()
    app = make_app(campaign="club-league")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("g")
        await wait_for_screen(pilot, "ConflictScreen")
        assert "replay" not in _text(app, "#conflict-hint")  # no battle to re-apply
        await pilot.press("p")
        await pilot.pause()
        assert "not chosen yet" in str(app.screen.query_one("#conflict-list").get_option_at_index(0).prompt)
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.handle.campaign.gang("gang-02").notes == "club"
