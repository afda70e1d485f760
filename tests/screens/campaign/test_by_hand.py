"""A battle fought without the tracker: entered by hand from the campaign screen."""

from __future__ import annotations

from support import wait_for_screen

SIZE = (100, 32)


async def _campaign(pilot) -> None:
    await wait_for_screen(pilot, "CampaignScreen")


async def test_e_opens_the_post_battle_sequence_at_the_battle_outcome(make_app) -> None:
    app = make_app(demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _campaign(pilot)
        await pilot.press("e")
        await pilot.pause()
        assert type(app.screen).__name__ == "PostBattleScreen"
        summary = app.handle.campaign.battles[-1]
        assert (summary.number, summary.status, summary.date) == (1, "post-battle", "2026-01-15")
        text = " ".join(str(w.render()) for w in app.screen.query("Static"))
        assert "Battle Outcome" in text and "who fought" in text.lower()
        # saved at once: leaving and reopening continues the same battle
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "CampaignScreen"
    reopened = make_app(demo=True)
    async with reopened.run_test(size=SIZE) as pilot:
        await _campaign(pilot)
        assert [b.status for b in reopened.handle.campaign.battles] == ["post-battle"]
