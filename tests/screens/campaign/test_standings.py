"""The campaign screen as club standings, deleting an abandoned set-up, and wording (#15)."""

from __future__ import annotations

from pathlib import Path

from munda_tui.saves import Store
from campaign_support import campaign_with_history, seed
from support import wait_for_screen


SIZE = (100, 32)


def names(app) -> list[str]:  # type: ignore[no-untyped-def]
    gangs = app.screen.query_one("#gangs")
    return [gangs.get_row_at(i)[0] for i in range(gangs.row_count)]


async def test_S_cycles_the_standings_column(make_app, data_dir: Path) -> None:
    c = campaign_with_history()
    c.gang("venom-sisters").credits = 5000  # the richest
    c.gang("iron-skulls").fighters[0].kills = 9  # the deadliest
    c.gang("iron-skulls").reputation = 30  # the most famous
    slug = seed(data_dir, c)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.screen.sort_by == ""  # the campaign's order
        assert names(app) == ["The Venom Sisters", "The Iron Skulls", "Max's Marauders"]
        seen = {}
        for _ in range(6):
            await pilot.press("S")
            await pilot.pause()
            seen[app.screen.sort_by] = names(app)[0]
        assert seen == {"wealth": "The Venom Sisters", "reputation": "The Iron Skulls",
                        "record": "Max's Marauders",  # 1/0/1 before 1/1/0 and 0/1/1
                        "kills": "The Iron Skulls", "rating": "Max's Marauders",
                        "": "The Venom Sisters"}
        await pilot.press("S", "S")
        await pilot.pause()
        header = [str(col.label) for col in app.screen.query_one("#gangs").columns.values()]
        assert "Wealth▼" in header and "Rating " in header
        # the selection follows the table: r opens the gang shown first
        await pilot.press("r")
        await wait_for_screen(pilot, "RosterScreen")
        assert app.screen.gang_id == "venom-sisters"


async def test_S_reaches_a_clubs_own_counter_after_kills(make_app, data_dir: Path,
                                                         config_dir: Path) -> None:
    """Issue 35: a pack's counter (``counters.toml``) is a standings column the sort
    reaches after Kills, marked in the header, the most first (on main the cycle went
    from Kills back to the campaign's order). The counter is TEST DATA."""
    folder = config_dir / "packs" / "test-club"
    folder.mkdir(parents=True)
    (folder / "pack.toml").write_text('id = "test-club"\ntitle = "Test club"\nversion = "1"\n',
                                      encoding="utf-8")
    (folder / "counters.toml").write_text('[[counters]]\nid = "test_scrap"\nname = "Test scrap"\n',
                                          encoding="utf-8")
    c = campaign_with_history()
    c.gang("iron-skulls").counters["test_scrap"] = 2
    c.gang("max-s-marauders").counters["test_scrap"] = 7
    slug = seed(data_dir, c)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        for _ in range(6):  # Rating, Wealth, Reputation, W/L/D, Kills, Test scrap
            await pilot.press("S")
            await pilot.pause()
        assert app.screen.sort_by == "counter:test_scrap"
        assert names(app) == ["Max's Marauders", "The Iron Skulls", "The Venom Sisters"]
        header = [str(col.label) for col in app.screen.query_one("#gangs").columns.values()]
        assert "Test scrap▼" in header and "Kills " in header
        await pilot.press("S")
        await pilot.pause()
        assert app.screen.sort_by == ""
        assert names(app) == ["The Venom Sisters", "The Iron Skulls", "Max's Marauders"]
        header = [str(col.label) for col in app.screen.query_one("#gangs").columns.values()]
        assert "Test scrap " in header


async def test_deleting_an_abandoned_set_up_asks_and_keeps_a_backup(make_app,
                                                                    data_dir: Path) -> None:
    slug = seed(data_dir)
    with Store(data_dir).open_campaign(slug) as h:
        h.save_battle(4, {"setup": {"step": "scenario", "deployment": "Ambush"}})
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("tab", "down", "x")  # battle 3: fought, not a set-up
        await pilot.pause()
        assert type(app.screen).__name__ == "CampaignScreen"
        assert [b.number for b in app.handle.campaign.battles] == [1, 2, 3, 4]
        await pilot.press("up", "x")  # battle 4, abandoned at its set-up
        await wait_for_screen(pilot, "ConfirmScreen")
        await pilot.press("n")  # kept
        await wait_for_screen(pilot, "CampaignScreen")
        assert 4 in app.handle.battle_numbers()
        name4 = app.handle.battle_path(4).name
        await pilot.press("x")
        await wait_for_screen(pilot, "ConfirmScreen")
        await pilot.press("y")
        await wait_for_screen(pilot, "CampaignScreen")
        battles = app.screen.query_one("#battles")
        assert [battles.get_row_at(i)[0] for i in range(battles.row_count)] == ["3", "2", "1"]
        assert "3 battles" in str(app.screen.query_one("#campaign-title").render())
    with Store(data_dir).open_campaign(slug) as h:
        assert [b.number for b in h.campaign.battles] == [1, 2, 3]
        assert 4 not in h.battle_numbers()
        backups = list((h.path / ".backups" / "battles").glob(f"{name4}.deleted*"))
    assert backups, "the deleted set-up is kept in the backups"
    assert "Ambush" in backups[0].read_text(encoding="utf-8")


async def test_one_gang_one_battle_in_the_singular(make_app, data_dir: Path) -> None:
    c = campaign_with_history()
    c.gangs = c.gangs[:1]
    c.battles = c.battles[:1]
    slug = seed(data_dir, c)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        title = str(app.screen.query_one("#campaign-title").render())
    assert "1 gang, 1 battle" in title


async def test_the_gang_forms_error_goes_once_the_name_is_typed(make_app,
                                                                data_dir: Path) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("a")
        await wait_for_screen(pilot, "GangFormScreen")
        await pilot.press("ctrl+s")  # no name yet
        error = app.screen.query_one("#e-name")
        assert error.display and str(error.render())
        assert "1 field to fix" in str(app.screen.query_one("#form-status").render())
        await pilot.press(*"Ash Queens")
        await pilot.pause()
        assert not error.display  # gone while typing, not at the next save
        assert not app.screen.query_one("#form-status").display
        assert app.focused.id == "f-name"  # the cursor stayed in the field
