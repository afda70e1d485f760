"""Start-up straight to the screen asked for: ``--demo`` and ``--campaign NAME`` show
the campaign as the first screen (the demo prepared in memory, written after the
first frame), ``munda-tui`` the list; the list goes below a campaign when asked for."""

from __future__ import annotations

from pathlib import Path

from munda_tui.app import MundaApp
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.saves import Store
from support import wait_for_screen, wait_until

SIZE = (100, 30)


def _names(app) -> list[str]:  # type: ignore[no-untyped-def]
    return [type(s).__name__ for s in app.screen_stack]


def test_the_demo_is_the_first_screen_before_any_disk_write(tmp_path: Path, config_dir: Path) -> None:
    fresh = tmp_path / "throw-away"
    app = MundaApp(fresh, config_dir, seed=1, demo=True)
    screen = app.get_default_screen()
    assert type(screen).__name__ == "CampaignScreen"
    assert app.handle is not None and not app.handle.written
    assert not fresh.exists()  # nothing written for the first frame
    app.close_campaign()  # a handle closed before its worker ran is written then
    assert (fresh / "campaigns" / "demo" / "campaign.toml").is_file()


async def test_demo_start_writes_after_the_first_frame(tmp_path: Path, config_dir: Path) -> None:
    fresh = tmp_path / "throw-away"
    app = MundaApp(fresh, config_dir, seed=1, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        assert _names(app) == ["CampaignScreen"]
        await app.workers.wait_for_complete()
        assert app.handle.written
        assert (fresh / "campaigns" / "demo" / "campaign.toml").is_file()
        await pilot.press("escape")  # to the list, which takes the bottom of the stack
        await wait_for_screen(pilot, "HomeScreen")
        assert _names(app) == ["HomeScreen"] and app.handle is None
        assert app.screen.query_one("#campaigns").row_count == 1
        await pilot.press("enter")
        await wait_for_screen(pilot, "CampaignScreen")
        assert _names(app) == ["HomeScreen", "CampaignScreen"]


async def test_demo_start_opens_the_demo_a_data_dir_has(make_app, data_dir: Path) -> None:
    with Store(data_dir).create_campaign(demo_campaign()) as handle:
        handle.campaign.gangs[0].credits = 321
        handle.save()
    app = make_app(demo=False, campaign=None)
    app._demo = True
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.handle.written and app.handle.campaign.gangs[0].credits == 321
    assert [i.slug for i in Store(data_dir).list_campaigns()] == ["demo"]


async def test_campaign_start_then_another_campaign_and_a_battle(make_app, data_dir: Path) -> None:
    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()
    other = demo_campaign()
    other.id, other.name = "second", "Second league"
    store.create_campaign(other).close()
    app = make_app(campaign="second")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        assert _names(app) == ["CampaignScreen"] and app.handle.slug == "second"
        await pilot.press("n")  # a new battle's set-up sits above the campaign
        await wait_for_screen(pilot, "PreBattleScreen")
        assert _names(app) == ["CampaignScreen", "PreBattleScreen"]
        app.open_campaign("demo")  # from the command palette: the other campaign
        await wait_for_screen(pilot, "CampaignScreen")
        assert _names(app) == ["CampaignScreen"] and app.handle.slug == "demo"
        await pilot.press("escape")
        await wait_for_screen(pilot, "HomeScreen")
        assert _names(app) == ["HomeScreen"]


async def test_campaign_start_on_a_locked_campaign_says_so_on_the_list(make_app, data_dir: Path) -> None:
    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()
    with Store(data_dir).open_campaign("demo"):
        app = make_app(campaign="demo")
        async with app.run_test(size=SIZE) as pilot:
            await wait_for_screen(pilot, "ErrorScreen")
            assert _names(app) == ["HomeScreen", "ErrorScreen"]
            assert app.handle is None


async def test_campaign_start_on_a_missing_campaign_says_so(make_app) -> None:
    app = make_app(campaign="nowhere")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "ErrorScreen")
        assert _names(app) == ["HomeScreen", "ErrorScreen"]
        assert "no campaign folder 'nowhere'" in str(app.screen.query_one("#dialog-message").render())


async def test_a_league_fills_its_tables_after_the_first_frame(make_app, data_dir: Path) -> None:
    from scripts.generate import league_campaign

    Store(data_dir).create_campaign(league_campaign(30, 2, 450)).close()
    app = make_app(campaign="long-campaign")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        gangs, battles = app.screen.query_one("#gangs"), app.screen.query_one("#battles")
        await wait_until(pilot, lambda: gangs.row_count == 30 and battles.row_count == 450,
                         "30 gangs and 450 battles listed")
        assert (gangs.row_count, battles.row_count) == (30, 450)
        assert battles.coordinate_to_cell_key(battles.cursor_coordinate).row_key.value == "450"
        assert battles.get_row_at(449)[0] == "1"  # the oldest battle, in its place
        assert gangs.get_row_at(29)[0] == "Gang 30"


async def test_an_open_campaign_is_kept_out_of_the_collectors_scans(make_app, data_dir: Path) -> None:
    import gc

    from munda_tui.collector import GC_DEFAULT

    Store(data_dir).create_campaign(demo_campaign()).close()
    gc.unfreeze()
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        assert gc.get_freeze_count() > 0
        # and a full collection only after 100 younger ones (not 10) while it is open
        assert gc.get_threshold()[2] == 100
        await pilot.press("escape")
        await wait_for_screen(pilot, "HomeScreen")
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == GC_DEFAULT


async def test_a_closed_campaign_is_collected_while_the_list_is_up(make_app, data_dir: Path,
                                                                   monkeypatch) -> None:
    """Its objects are collected once the list is up (IDLE_COLLECT_AFTER), not in the
    next opening; a campaign open again by then is not held up by it."""
    import asyncio
    import gc

    from munda_tui import collector as collector_module

    Store(data_dir).create_campaign(demo_campaign()).close()
    collected = []
    monkeypatch.setattr(collector_module, "IDLE_COLLECT_AFTER", 0.05)
    monkeypatch.setattr(collector_module.gc, "collect", lambda *a: collected.append(type(app.screen).__name__))
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("escape")
        await wait_for_screen(pilot, "HomeScreen")
        await asyncio.sleep(0.1)
        await pilot.pause()
        assert collected == ["HomeScreen"]
        await pilot.press("enter")
        await wait_for_screen(pilot, "CampaignScreen")
        app._collect_when_idle()  # (a timer of a campaign closed before this one opened)
        assert collected == ["HomeScreen"]
    assert gc.isenabled()


async def test_campaigns_reopened_at_once_keep_one_closed_campaign_uncollected_at_most(
        make_app, data_dir: Path, monkeypatch) -> None:
    """Closed and opened again before the collector ran on the list: the collector is
    paused from the close until the next campaign is open (no full collection before
    its first frame), and the second such close is collected when the next one opens."""
    import gc

    from munda_tui import collector as collector_module

    Store(data_dir).create_campaign(demo_campaign()).close()
    collected = []
    monkeypatch.setattr(collector_module, "IDLE_COLLECT_AFTER", 60)  # (never, in this test)
    monkeypatch.setattr(collector_module.gc, "collect", lambda *a: collected.append(app.collector.uncollected))
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        for closes in (1, 2):
            await pilot.press("escape")
            await wait_for_screen(pilot, "HomeScreen")
            assert not gc.isenabled() and app.collector.uncollected == closes
            await pilot.press("enter")
            await wait_for_screen(pilot, "CampaignScreen")
            assert gc.isenabled()
        assert collected == [2] and app.collector.uncollected == 0
    assert gc.isenabled()


async def test_the_collector_paused_for_start_up_resumes_after_the_first_frame(
        make_app, data_dir: Path, config_dir: Path, monkeypatch) -> None:
    """The command pauses the cyclic collector until the first frame (cli._run_app):
    the demo prepared before it and a campaign decoded after its overview both find it
    still paused; it resumes once the campaign is open, start-up's objects frozen."""
    import gc

    from munda_tui.screens.campaign.campaign import CampaignScreen
    from scripts.generate import league_campaign

    Store(data_dir).create_campaign(league_campaign(3, 2, 10)).close()
    during: list[tuple[str, bool]] = []
    attach, compose = CampaignScreen.attach, CampaignScreen.compose

    def spy_attach(self, handle):  # type: ignore[no-untyped-def]
        during.append(("decoded", gc.isenabled()))
        attach(self, handle)

    def spy_compose(self):  # type: ignore[no-untyped-def]
        during.append(("composed", gc.isenabled()))
        return compose(self)

    monkeypatch.setattr(CampaignScreen, "attach", spy_attach)
    monkeypatch.setattr(CampaignScreen, "compose", spy_compose)
    for kind in ("demo", "overview"):
        during.clear()
        gc.unfreeze()
        gc.disable()  # (as the command does)
        try:
            if kind == "demo":  # (prepared in memory before the first frame: --demo)
                app = MundaApp(data_dir / "demo-data", config_dir, seed=1, demo=True,
                               today="2026-01-15", collector_paused=True)
            else:
                app = make_app(campaign="long-campaign", collector_paused=True)
            async with app.run_test(size=SIZE) as pilot:
                await wait_for_screen(pilot, "CampaignScreen")
                await pilot.pause()
                assert app.handle is not None
                assert gc.isenabled() and gc.get_freeze_count() > 0
        finally:
            gc.enable()
        expected = [("composed", False)] + ([("decoded", False)] if kind == "overview" else [])
        assert during == expected, kind


def test_the_command_resumes_the_collector_however_the_app_ends(monkeypatch) -> None:
    import argparse
    import gc

    from munda_tui import cli

    def fails(args):  # type: ignore[no-untyped-def]
        assert not gc.isenabled()
        raise RuntimeError("the app failed")

    monkeypatch.setattr(cli, "_run_tui", fails)
    try:
        cli._run_app(argparse.Namespace())
    except RuntimeError:
        pass
    assert gc.isenabled()


def _rows(screen) -> list[list[object]]:  # type: ignore[no-untyped-def]
    rows = []
    for table in ("#gangs", "#battles"):
        t = screen.query_one(table)
        rows.append([t.get_row_at(i) for i in range(t.row_count)])
    return rows


async def test_a_campaign_shows_its_overview_then_the_same_rows_decoded(
        make_app, data_dir: Path, monkeypatch) -> None:
    """``--campaign NAME`` opened before: its first frame is the cached overview, the
    campaign is decoded after it (keys wait meanwhile), and the decoded campaign's
    rows are the rows the first frame showed."""
    from munda_tui.screens.campaign.campaign import CampaignScreen
    from scripts.generate import league_campaign

    Store(data_dir).create_campaign(league_campaign(4, 2, 30)).close()
    seen: dict[str, object] = {}
    attach = CampaignScreen.attach

    def spy(self, handle):  # type: ignore[no-untyped-def]
        seen["before"] = _rows(self)
        seen["title"] = str(self.query_one("#campaign-title").render())
        seen["keys wait"] = not self.app._screen_ready()
        attach(self, handle)
        seen["after"] = _rows(self)

    monkeypatch.setattr(CampaignScreen, "attach", spy)
    app = make_app(campaign="long-campaign")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.pause()
        assert app.handle is not None and app.screen.handle is app.handle
        assert app._screen_ready()
        assert seen["keys wait"] is True
        assert "4 gangs, 30 battles" in seen["title"]
        gangs, battles = seen["before"]
        assert len(gangs) == 4 and len(battles) == 15  # half the terminal's lines, first
        assert seen["after"] == seen["before"]
        assert _rows(app.screen)[1][:15] == battles and len(_rows(app.screen)[1]) == 30
        await pilot.press("r")  # the first key, on the decoded campaign
        await wait_for_screen(pilot, "RosterScreen")


async def test_a_campaign_that_does_not_decode_after_its_overview(make_app, data_dir: Path,
                                                                  monkeypatch) -> None:
    """The overview was shown, then the campaign did not load (this version cannot
    decode it): the list of campaigns, the reason and the backups, as at any start,
    and the campaign is not left locked."""
    from munda_tui.saves import folder

    Store(data_dir).create_campaign(demo_campaign()).close()

    def broken(read):  # type: ignore[no-untyped-def]
        raise SaveError(read.directory / "campaign.toml", 3, 1, "a value this version cannot read")

    from munda_tui.saves.errors import SaveError

    monkeypatch.setattr(folder, "load_folder_cached", broken)  # (the open's decode)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(30):
            if "HomeScreen" in _names(app) and len(app.screen_stack) > 1:
                break
            await pilot.pause()
        assert _names(app)[0] == "HomeScreen" and app.handle is None
        assert "a value this version cannot read" in " ".join(
            str(w.render()) for w in app.screen.query("Static"))
    monkeypatch.undo()
    Store(data_dir).open_campaign("demo").close()  # not locked
