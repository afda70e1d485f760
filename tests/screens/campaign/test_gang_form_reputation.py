"""Issue #25 item 1: the gang form takes the campaign's range for Reputation (never below 0
under Gang War, seed 004: "Reputation cannot fall below 0."; no floor under Turf War 2017,
readings: turf-reputation-floor)."""

from __future__ import annotations

from pathlib import Path

import pytest

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.saves import Store
from support import wait_for_screen

SIZE = (100, 32)


@pytest.mark.parametrize("ruleset,saved_as", [("turf-war-2017", -2), ("gang-war", None)])
async def test_gang_form_reputation_below_zero(make_app, data_dir: Path, ruleset: str,
                                               saved_as: int | None) -> None:
    c = demo_campaign()
    c.settings.post_battle_ruleset = ruleset
    Store(data_dir).create_campaign(c).close()
    app = make_app(campaign=c.id)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("r")
        await wait_for_screen(pilot, "RosterScreen")
        await pilot.press("g")
        await wait_for_screen(pilot, "GangFormScreen")
        app.screen.query_one("#f-reputation").focus()
        await pilot.press("end", "ctrl+u", *"-2", "ctrl+s")
        if saved_as is None:
            await pilot.pause()
            assert app.screen.__class__.__name__ == "GangFormScreen"
            assert "never below 0 under Gang War" in str(
                app.screen.query_one("#e-reputation").render())
        else:
            await wait_for_screen(pilot, "RosterScreen")
    with Store(data_dir).open_campaign(c.id) as h:
        assert h.campaign.gang("venom-sisters").reputation == (7 if saved_as is None else -2)
