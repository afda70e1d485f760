"""The import screen: preview with the rating comparison, clear errors for bad
files (nothing changes), and the campaign report screen."""

from __future__ import annotations

from pathlib import Path

from munda_tui.rules.core.model import Campaign
from munda_tui.saves import Store
from support import wait_for_screen

SIZE = (100, 32)
FIXTURES = Path(__file__).parents[2] / "fixtures" / "yaktribe"


def seed(data_dir: Path) -> str:
    Store(data_dir).create_campaign(Campaign(id="sump-wars", name="Sump Wars")).close()
    return "sump-wars"




async def open_import(pilot) -> None:  # type: ignore[no-untyped-def]
    from textual.widgets import Input

    await wait_for_screen(pilot, "CampaignScreen")
    await pilot.press("i")
    await wait_for_screen(pilot, "ImportGangScreen")
    pilot.app.screen.query_one(Input).cursor_blink = False  # steady cursor for snapshots


def test_import_preview_snapshot(snap_compare, make_app, data_dir, monkeypatch) -> None:
    monkeypatch.chdir(FIXTURES)  # a short, machine-independent path on screen
    slug = seed(data_dir)
    assert snap_compare(make_app(campaign=slug), terminal_size=SIZE,
                        press=[*"157849.json", "enter"], run_before=open_import)


def test_import_error_snapshot(snap_compare, make_app, data_dir, tmp_path, monkeypatch) -> None:
    (tmp_path / "gang.json").write_text('{"gang": {"gang_name": "Half a gang",')
    monkeypatch.chdir(tmp_path)
    slug = seed(data_dir)
    assert snap_compare(make_app(campaign=slug), terminal_size=(80, 24),
                        press=[*"gang.json", "enter"], run_before=open_import)


async def test_foreign_file_changes_nothing(make_app, data_dir, tmp_path) -> None:
    foreign = tmp_path / "package.json"
    foreign.write_text('{"name": "left-pad", "version": "1.3.0"}')
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_import(pilot)
        await pilot.press(*str(foreign), "ctrl+s")  # import without checking first
        error = str(app.screen.query_one("#import-error").render())
        assert "not a Yaktribe gang export" in error
        assert type(app.screen).__name__ == "ImportGangScreen"
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.handle.campaign.gangs == []
    with Store(data_dir).open_campaign(slug) as h:
        assert h.campaign.gangs == []


async def test_a_gang_above_the_size_limit_is_refused_on_screen(make_app, data_dir, tmp_path) -> None:
    """Issue 26, item 15: an export of 20,000 fighters (it imported whole, 14-18 s) is
    refused with the limit of rules.limits, the form stays open and nothing changes."""
    import json

    gangers = [{"name": f"Fighter {i}", "type": "Gunner", "cost": "50", "status": "Alive"}
               for i in range(20_000)]
    path = tmp_path / "many.json"
    path.write_text(json.dumps({"gang": {"gang_name": "The Many", "gang_type": "Orlock",
                                         "gangers": gangers}}), "utf-8")
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_import(pilot)
        await pilot.press(*str(path), "ctrl+s")
        await pilot.pause()
        error = str(app.screen.query_one("#import-error").render())
        assert "lists 20000 fighters; a gang holds at most 300 in munda-tui" in error
        assert type(app.screen).__name__ == "ImportGangScreen"
        assert app.handle.campaign.gangs == []
    with Store(data_dir).open_campaign(slug) as h:
        assert h.campaign.gangs == []


async def test_rating_difference_reason_shown(make_app, data_dir, tmp_path) -> None:
    text = (FIXTURES / "157849.json").read_text("utf-8").replace(
        '"gang_rating":"1715"', '"gang_rating":"1850"')
    assert '"1850"' in text
    path = tmp_path / "older.json"
    path.write_text(text, "utf-8")
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_import(pilot)
        await pilot.press(*str(path), "enter")
        preview = str(app.screen.query_one("#preview").render())
        assert "computed 1715, file 1850" in preview
        assert "the file still counts the dead" in preview
        await pilot.press("h")  # Psychic Familiar: Hanger-on
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.handle.campaign.gangs[0].rating == 1715


async def test_unknown_type_names_asked_once_each_and_remembered(make_app, data_dir, tmp_path) -> None:
    """The real export with its Propagandist (a Hanger-on the app knows) given a type
    name no gang list has: every fighter keeps its type name and gets a role; the two
    names the app cannot place are asked once each (Psychic Familiar covers three
    fighters), the answers are kept in the campaign and not asked again."""
    import json

    from munda_tui.rules.core.model import FighterType

    raw = json.loads((FIXTURES / "157849.json").read_text("utf-8"))
    for fighter in raw["gang"]["gangers"]:
        if fighter["type"] == "Propagandist":
            fighter["type"] = "Guild Go-between"
    export = tmp_path / "157849.json"
    export.write_text(json.dumps(raw), "utf-8")
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_import(pilot)
        await pilot.press(*str(export), "enter")
        await pilot.pause()
        roles = app.screen.query_one("#roles")
        assert [str(o.prompt) for o in roles.options] == [
            "Psychic Familiar (3: Cherub Alpha II, Cherub Beta, Cherub Alpha) → ?",
            "Guild Go-between (1: Guilder Contact) → ?",
        ]
        assert app.screen.focused is roles
        await pilot.press("ctrl+s")  # refused while a name has no role
        assert "Give each fighter type a role first (2 left" in str(
            app.screen.query_one("#import-error").render())
        # b: Brute for the first (the cursor moves on to the next unanswered), then
        # changed: up, h Hanger-on, and h for the second
        await pilot.press("b", "up", "h", "h")
        assert [str(o.prompt).rsplit("→ ", 1)[1] for o in roles.options] == ["Hanger-on", "Hanger-on"]
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, "CampaignScreen")
        gang = app.handle.campaign.gangs[0]
        # the file's order; its dead are the gang's fallen (seed 004, Delete Dead Fighters)
        order = [r["name"] for r in raw["gang"]["gangers"]]
        everyone = sorted(gang.fighters + gang.fallen, key=lambda f: order.index(f.name))
        assert [f.label for f in everyone] == [r["type"] for r in raw["gang"]["gangers"]]
        by = {f.name: f.type for f in everyone}
        assert by["Maxath-Ja"] is FighterType.LEADER  # Cult Alpha
        assert by["Cherub Beta"] is FighterType.HANGER_ON and by["Guilder Contact"] is FighterType.HANGER_ON
        assert app.handle.campaign.fighter_roles == {
            "psychic familiar": FighterType.HANGER_ON, "guild go-between": FighterType.HANGER_ON}
        # the next import of a gang with those names asks nothing
        await pilot.press("i")
        await wait_for_screen(pilot, "ImportGangScreen")
        await pilot.press(*str(export), "enter")
        await pilot.pause()
        assert app.screen.query_one("#roles").display is False
    with Store(data_dir).open_campaign(slug) as h:
        assert h.campaign.fighter_roles["psychic familiar"] is FighterType.HANGER_ON


def test_campaign_summary_report_snapshot(snap_compare, make_app, data_dir) -> None:
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.rules.core.model import BattleSummary, Standing

    c = demo_campaign()
    c.battles.append(BattleSummary(1, "2026-03-01", "Ambush", ["venom-sisters", "iron-skulls"],
                                   "iron-skulls", "done", {"iron-skulls": Standing(1300, 7, 90)}))
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, {"report": {"battlefield": "Zone Mortalis",
                                     "changes": ["The Iron Skulls: Reputation +2"]}})

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("tab", "v")
        await wait_for_screen(pilot, "ReportScreen")

    assert snap_compare(make_app(campaign="demo"), terminal_size=SIZE, run_before=run_before)


async def test_hostile_files_on_the_import_screen_get_a_short_message(make_app, data_dir, tmp_path) -> None:
    import json

    gang = json.loads((FIXTURES / "157849.json").read_text())
    inner = gang["gang"] if "gang" in gang else gang
    hostile = {
        "deep.json": '{"gang": ' + "[" * 5000 + "]" * 5000 + "}",
        "digits.json": (FIXTURES / "157849.json").read_text().replace('"credits":', '"credits": ' + "9" * 5000 + ', "x":', 1),
        "surrogate.json": json.dumps({**gang, **({"gang": {**inner, "gang_name": "A \ud800"}} if "gang" in gang else {"gang_name": "A \ud800"})}),
        "long.json": json.dumps({**gang, **({"gang": {**inner, "gang_name": "N" * 10_000}} if "gang" in gang else {"gang_name": "N" * 10_000})}),
    }
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_import(pilot)
        for name, text in hostile.items():
            path = tmp_path / name
            path.write_text(text, encoding="utf-8")
            from textual.widgets import Input

            app.screen.query_one(Input).value = str(path)
            await pilot.press("enter")
            await pilot.pause()
            error = str(app.screen.query_one("#import-error").render())
            assert error and len(error) < 400 + len(str(path)), name
            assert "9" * 100 not in error and "N" * 100 not in error
            assert type(app.screen).__name__ == "ImportGangScreen"
        assert app.handle.campaign.gangs == []
