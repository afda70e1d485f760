"""Charts: a sparkline per gang for Gang Rating, Reputation and credits, from
the standings after each finished battle, then now; readable at 80x24."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Sparkline

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import BattleSummary, Campaign, Standing
from munda_tui.saves import Store
from support import wait_for_screen

ESC, GOL = "venom-sisters", "iron-skulls"


def history() -> Campaign:
    c = demo_campaign()
    figures = [  # battle, winner, Venom (rating, rep, credits), Skulls (...)
        (1, ESC, (890, 5, 60), (1100, 4, 90)),
        (2, GOL, (940, 6, 35), (1180, 5, 150)),
        (3, ESC, (1010, 7, 110), (1205, 5, 40)),
        (4, "", (1060, 7, 80), (1270, 6, 75)),
        (5, GOL, (1040, 6, 95), (1300, 7, 20)),
    ]
    for n, winner, esc, gol in figures:
        c.battles.append(BattleSummary(
            n, f"2026-02-{n:02d}", "Sneak Attack", [ESC, GOL], winner, "done",
            {ESC: Standing(*esc), GOL: Standing(*gol)},
        ))
    c.battles.append(BattleSummary(6, "2026-02-06", "", [ESC, GOL], "", "battle"))
    return c


def seed(data_dir: Path, campaign: Campaign) -> str:
    Store(data_dir).create_campaign(campaign).close()
    return campaign.id


async def open_charts(pilot) -> None:  # type: ignore[no-untyped-def]
    await wait_for_screen(pilot, "CampaignScreen")
    await pilot.press("c")
    await wait_for_screen(pilot, "ChartsScreen")


def test_charts_snapshot_80x24(snap_compare, make_app, data_dir) -> None:
    slug = seed(data_dir, history())
    assert snap_compare(make_app(campaign=slug), terminal_size=(80, 24), run_before=open_charts)


def test_charts_snapshot_one_metric(snap_compare, make_app, data_dir) -> None:
    slug = seed(data_dir, history())
    assert snap_compare(make_app(campaign=slug), terminal_size=(100, 32),
                        press=["3"], run_before=open_charts)


def test_charts_no_battles_snapshot(snap_compare, make_app, data_dir) -> None:
    slug = seed(data_dir, demo_campaign())
    assert snap_compare(make_app(campaign=slug), terminal_size=(80, 24), run_before=open_charts)


async def test_chart_data_per_gang(make_app, data_dir) -> None:
    c = history()
    slug = seed(data_dir, c)
    app = make_app(campaign=slug)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_charts(pilot)
        screen = app.screen
        rating = screen.query_one(f"#spark-rating-{ESC}", Sparkline)
        assert list(rating.data) == [890, 940, 1010, 1060, 1040, c.gang(ESC).rating]
        credits = screen.query_one(f"#spark-credits-{GOL}", Sparkline)
        assert list(credits.data) == [90, 150, 40, 75, 20, 60]
        rep = screen.query_one(f"#spark-reputation-{GOL}", Sparkline)
        assert list(rep.data) == [4, 5, 5, 6, 7, 6]
        assert rating.region.width >= 20  # a readable line at 80 columns
        await pilot.press("2")
        assert not screen.query_one("#metric-rating").display
        assert screen.query_one("#metric-reputation").display
        await pilot.press("0")
        assert screen.query_one("#metric-rating").display


async def test_the_fallen_are_shown_under_the_charts(make_app, data_dir) -> None:
    """Seed 004, Delete Dead Fighters: "All dead fighters are removed from the gang's
    roster now"; the gang's history keeps them, and the charts name them."""
    from munda_tui.widgets.plain import Static

    c = history()
    thug = c.gang(GOL).bury("thug-varro")
    thug.status_why, thug.status_battle = "Memorable Death", 3
    slug = seed(data_dir, c)
    app = make_app(campaign=slug)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_charts(pilot)
        block = app.screen.query_one("#charts-fallen")
        texts = [str(s.render()) for s in block.query(Static)]
    assert "The Iron Skulls: Thug Varro (battle 3: Memorable Death)" in texts
