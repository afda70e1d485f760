"""Campaign settings: every choice of rules.model.Settings, saved on Ctrl+S."""

from __future__ import annotations

from pathlib import Path

from munda_tui.rules.demo import demo_campaign
from munda_tui.rules.model import PostBattleRuleset, Settings
from munda_tui.saves import Store
from support import wait_for_screen


def seed(data_dir: Path) -> str:
    c = demo_campaign()
    Store(data_dir).create_campaign(c).close()
    return c.id




async def open_settings(pilot) -> None:  # type: ignore[no-untyped-def]
    await wait_for_screen(pilot, "CampaignScreen")
    await pilot.press("s")
    await wait_for_screen(pilot, "SettingsScreen")


def test_settings_snapshot(snap_compare, make_app, data_dir) -> None:
    slug = seed(data_dir)
    assert snap_compare(make_app(campaign=slug), terminal_size=(80, 24), run_before=open_settings)


async def test_change_every_setting_and_save(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_settings(pilot)
        # three selects: open, move down, choose
        for _ in range(3):
            await pilot.press("enter", "down", "enter", "tab")
        # four switches: toggle each
        for _ in range(4):
            await pilot.press("space", "tab")
        states = [str(app.screen.query_one(f"#state-{k}").render())
                  for k in ("shared_deck", "strict_secrecy", "dice_by_hand",
                            "turf_fixer_merc_two_actions")]
        assert states == ["Off", "On", "On", "Off"]
        # the XP awards table ships empty: the Arbitrator types it from their rulebook
        assert all(i.value == "" for i in app.screen.query("Input"))
        await pilot.press(*"x")  # a word is refused, nothing saved
        assert "must be a whole number" in str(app.screen.query_one("#settings-status").render())
        await pilot.press("backspace", "1", "tab", "2")  # SI caused 1, OOA caused 2
        assert "Ctrl+S" in str(app.screen.query_one("#settings-status").render())
        assert app.handle.campaign.settings == Settings()  # not applied before saving
        await pilot.press("ctrl+s")
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
    with Store(data_dir).open_campaign(slug) as h:
        assert h.campaign.settings == Settings(
            post_battle_ruleset=PostBattleRuleset.TURF_WAR_2017,
            lasting_injury_table="core-2023",
            subplot_decks="suit",
            shared_deck=False,
            strict_secrecy=True,
            dice_by_hand=True,
            xp_awards={"seriously_injured": 1, "out_of_action": 2},
            turf_fixer_merc_two_actions=False,
        )


async def test_leaving_unsaved_asks(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_settings(pilot)
        await pilot.press("enter", "down", "enter", "escape")
        await wait_for_screen(pilot, "ConfirmScreen")
        await pilot.press("n")  # stay
        await wait_for_screen(pilot, "SettingsScreen")
        await pilot.press("escape", "y")  # leave without saving
        await wait_for_screen(pilot, "CampaignScreen")
    with Store(data_dir).open_campaign(slug) as h:
        assert h.campaign.settings == Settings()
