"""Campaign overview: snapshot, keys, and the whole flow a player goes through
before a first battle: create a campaign, import a Yaktribe gang, add a
fighter and see the Gang Rating change."""

from __future__ import annotations

from munda_tui.rules.core.model import Campaign
from munda_tui.saves import Store
from campaign_support import FIXTURE, seed
from support import wait_for_screen

SIZE = (100, 32)


async def on_campaign(pilot) -> None:  # type: ignore[no-untyped-def]
    await wait_for_screen(pilot, "CampaignScreen")


def test_overview_snapshot(snap_compare, make_app, data_dir) -> None:
    slug = seed(data_dir)
    assert snap_compare(make_app(campaign=slug), terminal_size=SIZE, run_before=on_campaign)


def test_overview_snapshot_80x24(snap_compare, make_app, data_dir) -> None:
    slug = seed(data_dir)
    assert snap_compare(make_app(campaign=slug), terminal_size=(80, 24), run_before=on_campaign)


def test_overview_empty_campaign_snapshot(snap_compare, make_app, data_dir) -> None:
    slug = seed(data_dir, Campaign(id="sump-wars", name="Sump Wars"))
    assert snap_compare(make_app(campaign=slug), terminal_size=SIZE, run_before=on_campaign)


async def test_overview_shows_every_gang_and_battle(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await on_campaign(pilot)
        gangs = app.screen.query_one("#gangs")
        rows = [gangs.get_row_at(i) for i in range(gangs.row_count)]
        assert [r[0] for r in rows] == ["The Venom Sisters", "The Iron Skulls", "Max's Marauders"]
        venom = rows[0]
        campaign = app.handle.campaign
        esc = campaign.gang("venom-sisters")
        wealth = esc.rating + esc.credits
        assert venom[1:8] == [str(esc.rating), str(wealth), "7", "85", "1/1/0", "0", "Escher"]
        assert venom[8] == "Old Ruins, Settlement (S)"
        assert rows[1][5] == "0/1/1" and rows[2][5] == "1/0/1"
        assert rows[2][1] == "1715"
        battles = app.screen.query_one("#battles")
        assert [battles.get_row_at(i)[0] for i in range(battles.row_count)] == ["4", "3", "2", "1"]
        assert battles.get_row_at(1)[3] == "Max's Marauders"
        assert battles.get_row_at(2)[3] == "draw"


async def test_keys_open_roster_charts_settings_report(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await on_campaign(pilot)
        await pilot.press("down", "down", "r")
        await wait_for_screen(pilot, "RosterScreen")
        assert app.screen.gang_id == "max-s-marauders"
        await pilot.press("escape")
        await pilot.press("c")
        await wait_for_screen(pilot, "ChartsScreen")
        await pilot.press("escape", "s")
        await wait_for_screen(pilot, "SettingsScreen")
        await pilot.press("escape", "tab")  # to the battles table
        await pilot.press("down", "v")  # battle 3's report
        await wait_for_screen(pilot, "ReportScreen")
        assert "battle 3" in app.screen.markdown and "- Winner: Max's Marauders" in app.screen.markdown
        await pilot.press("escape", "escape")
        await wait_for_screen(pilot, "HomeScreen")
        assert app.handle is None  # the campaign was closed and its lock released


async def test_new_battle_needs_two_gangs(make_app, data_dir) -> None:
    slug = seed(data_dir, Campaign(id="sump-wars", name="Sump Wars"))
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await on_campaign(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert type(app.screen).__name__ == "CampaignScreen"
        assert app.handle.campaign.battles == []


async def test_add_gang_by_form(make_app, data_dir) -> None:
    slug = seed(data_dir, Campaign(id="sump-wars", name="Sump Wars"))
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await on_campaign(pilot)
        await pilot.press("a")
        await wait_for_screen(pilot, "GangFormScreen")
        await pilot.press(*"Ash Queens", "tab", "tab", *"-5", "ctrl+s")  # name, type, credits
        assert "negative" in str(app.screen.query_one("#e-credits").render())
        await pilot.press("end", "ctrl+u", *"120", "ctrl+s")
        await on_campaign(pilot)
        gang = app.handle.campaign.gangs[0]
        assert (gang.id, gang.name, gang.credits) == ("ash-queens", "Ash Queens", 120)
    with Store(data_dir).open_campaign(slug) as h:
        assert h.campaign.gangs[0].credits == 120


async def test_create_campaign_import_fixture_add_fighter(make_app, data_dir) -> None:
    """The Done-when flow, by keyboard: a new campaign, the Yaktribe fixture
    imported, a fighter added, the Gang Rating rises by the fighter's cost."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "HomeScreen")
        await pilot.press("n", *"Sump Wars", "enter")
        await wait_for_screen(pilot, "HomeScreen")
        await pilot.press("enter")
        await on_campaign(pilot)
        assert app.handle.campaign.name == "Sump Wars"

        await pilot.press("i")
        await wait_for_screen(pilot, "ImportGangScreen")
        await pilot.press(*str(FIXTURE.parent / "missing.json"), "enter")
        assert "no such file" in str(app.screen.query_one("#import-error").render())
        await pilot.press("ctrl+s")  # nothing to import: nothing changes
        assert app.handle.campaign.gangs == []
        await pilot.press("ctrl+u", *str(FIXTURE), "enter")
        preview = str(app.screen.query_one("#preview").render())
        assert "computed 1715, file 1715" in preview and "Matches the file" in preview
        await pilot.press("h", "h")  # the two type names the app cannot place: Hangers-on
        await pilot.press("ctrl+s")
        await on_campaign(pilot)
        gangs = app.screen.query_one("#gangs")
        assert gangs.get_row_at(0)[:2] == ["Max's Marauders", "1715"]
        assert gangs.get_row_at(0)[7] == "Genestealer Cultists"

        await pilot.press("r")
        await wait_for_screen(pilot, "RosterScreen")
        assert "Gang Rating 1715" in str(app.screen.query_one("#gang-title").render())
        await pilot.press("a")
        await wait_for_screen(pilot, "FighterFormScreen")
        # name, type (left as Ganger), gang's own name, status, cost
        await pilot.press(*"Neo Kesh", "tab", "tab", *"Neophyte Hybrid", "tab", "tab")
        # the Stash holds 30 credits: hired from it, the 60 cannot be paid; refused, the
        # form stays open with the reason and every field
        await pilot.press("end", "ctrl+u", *"60", "ctrl+s")
        await pilot.pause()
        assert type(app.screen).__name__ == "FighterFormScreen"
        assert "the Stash holds 30" in str(app.screen.query_one("#form-status").render())
        assert app.screen.values()["name"] == "Neo Kesh" and app.screen.values()["cost"] == "60"
        # added free instead (paid already, outside the app)
        await pilot.press("tab", "enter", "down", "enter", "ctrl+s")
        await wait_for_screen(pilot, "RosterScreen")
        assert "Gang Rating 1775" in str(app.screen.query_one("#gang-title").render())
        await pilot.press("escape")
        await on_campaign(pilot)
        assert app.screen.query_one("#gangs").get_row_at(0)[1] == "1775"
    # saved: a fresh load sees the fighter and the new rating
    store = Store(data_dir)
    with store.open_campaign("sump-wars") as h:
        gang = h.campaign.gang("max-s-marauders")
        assert gang.rating == 1775
        kesh = gang.fighter("neo-kesh")
        assert (kesh.cost, kesh.label, kesh.type.value) == (60, "Neophyte Hybrid", "Ganger")
        assert len(gang.fighters) == 16 and len(gang.fallen) == 3  # the file's dead: fallen
