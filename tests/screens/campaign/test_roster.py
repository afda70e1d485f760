"""Roster screen: snapshots (roster, fighter form with errors) and Pilot tests of
the edits a player makes between battles, each saved at once."""

from __future__ import annotations

import json
from pathlib import Path

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import FighterStatus
from munda_tui.rules.campaign.yaktribe import gang_from_yaktribe
from munda_tui.saves import Store
from support import wait_for_screen

SIZE = (100, 32)
FIXTURE = Path(__file__).parents[2] / "fixtures" / "yaktribe" / "157849.json"


def seed(data_dir: Path) -> str:
    c = demo_campaign()
    c.gangs.append(gang_from_yaktribe(json.loads(FIXTURE.read_text("utf-8"))).gang)
    Store(data_dir).create_campaign(c).close()
    return c.id




async def open_roster(pilot, downs: int = 0) -> None:  # type: ignore[no-untyped-def]
    await wait_for_screen(pilot, "CampaignScreen")
    await pilot.press(*["down"] * downs, "r")
    await wait_for_screen(pilot, "RosterScreen")


def saved(data_dir: Path, slug: str):  # type: ignore[no-untyped-def]
    with Store(data_dir).open_campaign(slug) as h:
        return h.campaign


def no_blink(app) -> None:  # type: ignore[no-untyped-def]
    """A steady cursor, so a snapshot does not depend on the blink timer."""
    from textual.widgets import Input

    for widget in app.screen.query(Input):
        widget.cursor_blink = False


def title(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#gang-title").render())


def summary(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#gang-summary").render())


def test_roster_snapshot(snap_compare, make_app, data_dir) -> None:
    slug = seed(data_dir)
    assert snap_compare(make_app(campaign=slug), terminal_size=SIZE, run_before=open_roster)


def test_roster_snapshot_yaktribe_80x24(snap_compare, make_app, data_dir) -> None:
    slug = seed(data_dir)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await open_roster(pilot, downs=2)

    assert snap_compare(make_app(campaign=slug), terminal_size=(80, 24), run_before=run_before)


def test_fighter_form_error_snapshot(snap_compare, make_app, data_dir) -> None:
    slug = seed(data_dir)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await open_roster(pilot)
        await pilot.press("a")
        await wait_for_screen(pilot, "FighterFormScreen")
        # a name taken already, negative XP, a word for WS
        await pilot.press(*"lys venom", "tab", "tab", "tab", "tab", "tab", "tab", *"-3")
        for _ in range(4):
            await pilot.press("tab")
        await pilot.press(*"high", "ctrl+s")
        no_blink(pilot.app)

    assert snap_compare(make_app(campaign=slug), terminal_size=SIZE, run_before=run_before)


async def test_form_errors_beside_fields_and_nothing_saved(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        await pilot.press("a")
        await wait_for_screen(pilot, "FighterFormScreen")
        await pilot.press(*"lys venom", "tab", "tab", "tab", "tab", *"ten", "tab", "tab", *"-3",
                          "ctrl+s")
        form = app.screen
        assert "already has a fighter named Lys Venom" in str(form.query_one("#e-name").render())
        assert "not a whole number" in str(form.query_one("#e-cost").render())
        assert "cannot be negative" in str(form.query_one("#e-xp").render())
        assert not form.query_one("#e-kills").display
        assert app.focused is form.query_one("#f-name")
        await pilot.press("escape")
        await wait_for_screen(pilot, "RosterScreen")
    assert len(saved(data_dir, slug).gang("venom-sisters").fighters) == 9


async def test_add_fighter_and_equipment_rating_changes(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        assert "Gang Rating 1075" in title(app)
        await pilot.press("a")
        await wait_for_screen(pilot, "FighterFormScreen")
        await pilot.press(*"Nyx Cinder", "tab", "tab", *"Little Sister", "tab", "tab", *"25")
        # paid (left as bought: from the Stash), XP, Advancements, Kills, M, WS
        await pilot.press("tab", "tab", "tab", "tab", "tab", *"5", "tab", *"5+", "ctrl+s")
        await wait_for_screen(pilot, "RosterScreen")
        assert "Gang Rating 1100" in title(app)
        # hiring takes the cost from the Stash: 85 - 25; wealth = rating + Stash at once
        assert "Stash 60 cr · Wealth 1160" in summary(app)
        table = app.screen.query_one("#fighters")
        assert table.get_row_at(table.cursor_row)[0].plain == "Nyx Cinder"
        await pilot.press("plus")
        await wait_for_screen(pilot, "EquipmentFormScreen")
        # name, kind (wargear -> weapon), cost, quantity; bought: 2 x 10 from the Stash
        await pilot.press(*"Autopistol", "tab", "enter", "up", "up", "up", "enter")
        await pilot.press("tab", *"10", "tab", "end", "ctrl+u", "2", "ctrl+s")
        await wait_for_screen(pilot, "RosterScreen")
        assert "Gang Rating 1120" in title(app)
        assert "Stash 40 cr · Wealth 1160" in summary(app)
        await pilot.press("plus", *"Relic", "enter")  # bought needs a cost: refused
        assert "enter its cost" in str(app.screen.query_one("#e-cost").render())
        assert app.focused is app.screen.query_one("#f-cost")  # the field to fix
        await pilot.press("tab", "tab")  # quantity, paid
        await pilot.press("enter", "down", "enter", "ctrl+s")  # free: cost unknown, adds nothing
        await wait_for_screen(pilot, "RosterScreen")
        assert "Gang Rating 1120" in title(app)
        assert "Stash 40 cr" in summary(app)
    gang = saved(data_dir, slug).gang("venom-sisters")
    nyx = gang.fighter("nyx-cinder")
    assert nyx.characteristics == {"m": 5, "ws": 5}
    assert [(e.name, e.cost, e.qty, e.kind) for e in nyx.equipment] == [
        ("Autopistol", 10, 2, "weapon"), ("Relic", None, 1, "wargear")]
    assert gang.rating == 1120 and gang.credits == 40


async def test_move_equipment_via_stash(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        # Vexa's Needle pistol (25) to the Stash
        await pilot.press("m")
        assert "Gang Rating 1050" in title(app)
        # Tab to the equipment, then the Stash; give its first item (a Lasgun, 15)
        # to the fighter selected in the roster (Vexa)
        await pilot.press("tab", "tab")
        assert app.focused is app.screen.query_one("#stash")
        await pilot.press("m")
        assert "Gang Rating 1065" in title(app)
        await pilot.press("x")  # remove the Stash's first item: asks first
        await wait_for_screen(pilot, "ConfirmScreen")
        await pilot.press("n")
        await wait_for_screen(pilot, "RosterScreen")
        assert len(app.handle.campaign.gang("venom-sisters").stash) == 2  # kept
        await pilot.press("x", "y")  # removed: the rating is unchanged
        await wait_for_screen(pilot, "RosterScreen")
        assert "Gang Rating 1065" in title(app)
    gang = saved(data_dir, slug).gang("venom-sisters")
    assert [e.name for e in gang.fighter("vexa-nightshade").equipment] == [
        "Stiletto sword", "Mesh armour", "Lasgun"]
    assert [e.name for e in gang.stash] == ["Needle pistol"]


async def test_retire_and_delete_ask_first(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        await pilot.press("R")
        await wait_for_screen(pilot, "ConfirmScreen")
        await pilot.press("n")
        await wait_for_screen(pilot, "RosterScreen")
        assert "Gang Rating 1075" in title(app)
        await pilot.press("R", "y")
        await wait_for_screen(pilot, "RosterScreen")
        assert "Gang Rating 885" in title(app)  # Vexa (190) retired
        # "All retiring fighters are removed from the gang's roster now" (issue 31): not
        # dimmed in the table, named apart; the cursor is on Sable Thorn, the first row now
        table = app.screen.query_one("#fighters")
        assert table.row_count == 8
        assert "Left the roster: Vexa Nightshade (retired)" in str(
            app.screen.query_one("#gang-summary").render())
        await pilot.press("d", "y")  # delete Sable Thorn (240)
        await wait_for_screen(pilot, "RosterScreen")
        assert "Gang Rating 645" in title(app)
    gang = saved(data_dir, slug).gang("venom-sisters")
    assert "vexa-nightshade" not in [f.id for f in gang.fighters]
    assert gang.member("vexa-nightshade").status is FighterStatus.RETIRED
    assert "sable-thorn" not in [f.id for f in gang.fighters]
    assert [e.name for e in gang.stash][-3:] == ["Needle pistol", "Stiletto sword", "Mesh armour"]


async def test_edit_gang_and_territories(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot, downs=1)  # the Iron Skulls, 1285
        await pilot.press("g")
        await wait_for_screen(pilot, "GangFormScreen")
        for _ in range(2):  # name, type, credits
            await pilot.press("tab")
        await pilot.press("end", "ctrl+u", *"lots", "ctrl+s")
        assert "not a whole number" in str(app.screen.query_one("#e-credits").render())
        await pilot.press("end", "ctrl+u", *"140", "tab", "tab", "end", "ctrl+u", *"9", "tab")
        await pilot.press(*"Crossfire", "enter", *"Lucky Shot", "ctrl+s")
        await wait_for_screen(pilot, "RosterScreen")
        await pilot.press("t")
        await wait_for_screen(pilot, "TerritoriesScreen")
        await pilot.press("k")  # Slag Furnace: Turf -> Special, +50
        await pilot.press("a")
        await wait_for_screen(pilot, "TerritoryFormScreen")
        await pilot.press(*"toll crossing", "enter")
        assert "already holds" in str(app.screen.query_one("#e-name").render())
        await pilot.press("end", "ctrl+u", *"Wastes", "enter")
        await wait_for_screen(pilot, "TerritoriesScreen")
        await pilot.press("escape")
        await wait_for_screen(pilot, "RosterScreen")
        assert "Gang Rating 1335" in title(app)
    gang = saved(data_dir, slug).gang("iron-skulls")
    assert (gang.credits, gang.reputation) == (140, 9)
    assert gang.tactics == ["Crossfire", "Lucky Shot"]
    assert [(t.name, t.kind.value) for t in gang.territories] == [
        ("Slag Furnace", "special"), ("Toll Crossing", "turf"), ("Wastes", "turf")]


async def test_sort_by_rating(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        for _ in range(6):  # roster order -> name -> type -> status -> XP -> Adv -> rating
            await pilot.press("o")
        table = app.screen.query_one("#fighters")
        ratings = [int(table.get_row_at(i)[5].plain) for i in range(table.row_count)]
        assert ratings == sorted(ratings, reverse=True)
        assert "sorted by rating" in str(app.screen.query_one("#gang-summary").render())
        await pilot.press("O")
        ratings = [int(table.get_row_at(i)[5].plain) for i in range(table.row_count)]
        assert ratings == sorted(ratings)


async def test_the_stash_panel_says_it_is_the_equipment(make_app, data_dir) -> None:
    # the header says "Stash N cr" for the credits; the panel's figure is the items' worth
    # ("Stash (0 cr)" under "Stash 500 cr" read as a contradiction)
    from textual.widgets import Label

    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        shown = str(app.screen.query_one("#stash-title", Label).render())
        assert shown.startswith("Stash equipment (") and shown.endswith(" cr)")


async def test_the_footer_asking_while_the_screen_is_taken_down_is_no_crash(make_app, data_dir) -> None:
    """QA run: 'munda-tui stopped on an unexpected error (NoMatches)': the footer asked the
    roster which keys apply (check_action) once its table was gone; home likewise."""
    from textual.widgets import DataTable

    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        roster = app.screen
        await roster.query_one("#fighters").remove()
        assert roster.check_action("copy_fighter", ()) is False
        assert roster.check_action("edit_item", ()) is True
        assert roster.active_bindings  # what the footer reads: no NoMatches
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(10):
            await pilot.pause()
        home = app.screen
        await home.query_one(DataTable).remove()
        assert home.check_action("open_campaign", ()) is False
        assert home.active_bindings
