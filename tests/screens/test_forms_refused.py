"""Every form, refused for each of its reasons, keeps every field as typed (issue 26).

A refused form stays open with its reason and everything typed, and nothing refused is
saved anywhere: a field the rules refuse, a hire the Stash cannot pay, a fourth weapon,
a name taken, a save that fails. Each case types into the form, submits it, and checks
the form is still on top with the same values, the reason said, and the campaign on
disk (and its catalogue) unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Select, TextArea

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.saves import Store
from munda_tui.saves.catalogue import CATALOGUE_FILE
from support import wait_for_screen

SIZE = (100, 32)
V = "venom-sisters"


def seed(data_dir: Path) -> str:
    c = demo_campaign()
    Store(data_dir).create_campaign(c).close()
    return c.id


def on_disk(data_dir: Path, slug: str = "demo") -> str:
    """The campaign's files as saved (campaign, gangs and catalogue)."""
    folder = Path(data_dir) / "campaigns" / slug
    assert (folder / "campaign.toml").exists()
    return "".join(p.read_text("utf-8") for p in
                   [*sorted(folder.glob("*.toml")), *sorted(folder.glob("gangs/*.toml"))])


def fields(app) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """Every field of the form on top, by id, as it holds it now."""
    out = {}
    for w in app.screen.query("Input, Select, TextArea"):
        if isinstance(w, Input):
            out[w.id] = w.value
        elif isinstance(w, Select):
            out[w.id] = str(w.value)
        elif isinstance(w, TextArea):
            out[w.id] = w.text
    return out


def screen_text(app) -> str:  # type: ignore[no-untyped-def]
    from textual.widgets import Static

    return "\n".join(str(w.render()) for w in app.screen.query(Static) if w.display)


async def type_into(pilot, selector: str, text: str) -> None:  # type: ignore[no-untyped-def]
    widget = pilot.app.screen.query_one(selector)
    widget.focus()
    await pilot.pause()
    if isinstance(widget, Input):
        await pilot.press("end", "ctrl+u")
    await pilot.press(*text)


async def refused(pilot, keys: tuple[str, ...], form: str, reason: str, data_dir: Path,  # type: ignore[no-untyped-def]
                  slug: str = "demo") -> None:
    """Submit with ``keys``: the form stays, every field as it was, ``reason`` said,
    nothing saved."""
    app = pilot.app
    before, disk = fields(app), on_disk(data_dir, slug)
    await pilot.press(*keys)
    await pilot.pause()
    if type(app.screen).__name__ == "ErrorScreen":  # a failed save says why first
        await pilot.press("escape")
        await pilot.pause()
    assert type(app.screen).__name__ == form
    assert fields(app) == before
    assert reason in screen_text(app), screen_text(app)
    assert on_disk(data_dir, slug) == disk


class SaveFails:
    """The campaign's save fails (a full disk, a folder gone read-only)."""

    def __init__(self, app) -> None:  # type: ignore[no-untyped-def]
        self.handle = app.handle

    def __enter__(self) -> None:
        def fail() -> None:
            raise OSError(28, "No space left on device")

        self.handle.save = fail

    def __exit__(self, *exc) -> None:  # type: ignore[no-untyped-def]
        del self.handle.save


async def open_roster(pilot) -> None:  # type: ignore[no-untyped-def]
    await wait_for_screen(pilot, "CampaignScreen")
    await pilot.press("r")
    await wait_for_screen(pilot, "RosterScreen")


# --- the roster's forms ------------------------------------------------------------------


async def test_new_fighter_form(make_app, data_dir) -> None:
    seed(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        await pilot.press("a")
        await wait_for_screen(pilot, "FighterFormScreen")
        await type_into(pilot, "#f-name", "Lys Venom")  # taken
        await type_into(pilot, "#f-label", "Gang Sister")
        await type_into(pilot, "#f-cost", "200")
        await type_into(pilot, "#f-skills", "Sprint, Dodge")
        await type_into(pilot, "#f-notes", "from the sump")
        await refused(pilot, ("ctrl+s",), "FighterFormScreen", "already has a fighter", data_dir)
        await type_into(pilot, "#f-name", "Neo Kesh")
        # the Stash holds 85
        await refused(pilot, ("ctrl+s",), "FighterFormScreen", "the Stash holds 85", data_dir)
        await type_into(pilot, "#f-cost", "20")
        with SaveFails(app):
            await refused(pilot, ("ctrl+s",), "FighterFormScreen",
                          "The campaign could not be saved", data_dir)
        assert "Neo Kesh" not in [f.name for f in app.handle.campaign.gang(V).fighters]
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, "RosterScreen")
    assert "Neo Kesh" in on_disk(data_dir)


async def test_fighter_edit_form(make_app, data_dir) -> None:
    seed(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        await pilot.press("e")
        await wait_for_screen(pilot, "FighterFormScreen")
        await type_into(pilot, "#f-name", "Kira Ashfall")  # another's name
        await type_into(pilot, "#f-notes", "scarred")
        await refused(pilot, ("ctrl+s",), "FighterFormScreen", "already has a fighter", data_dir)
        await type_into(pilot, "#f-name", "Vexa the Grim")
        with SaveFails(app):
            await refused(pilot, ("ctrl+s",), "FighterFormScreen",
                          "The campaign could not be saved", data_dir)
        # nothing refused stays in memory either
        assert app.handle.campaign.gang(V).fighter("vexa-nightshade").name == "Vexa Nightshade"


async def test_new_item_form(make_app, data_dir) -> None:
    seed(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)  # Vexa Nightshade: two weapons
        await pilot.press("plus")
        await wait_for_screen(pilot, "EquipmentFormScreen")
        await type_into(pilot, "#f-name", "Heavy flamer")
        await type_into(pilot, "#f-cost", "lots")
        await refused(pilot, ("ctrl+s",), "EquipmentFormScreen", "field to fix", data_dir)
        await type_into(pilot, "#f-cost", "200")
        app.screen.query_one("#f-kind", Select).value = "Unwieldy weapon"
        await pilot.pause()
        # a third and fourth weapon slot
        await refused(pilot, ("ctrl+s",), "EquipmentFormScreen", "the limit is 3", data_dir)
        app.screen.query_one("#f-kind", Select).value = "wargear"
        await pilot.pause()
        await refused(pilot, ("ctrl+s",), "EquipmentFormScreen", "the Stash holds 85", data_dir)
        await type_into(pilot, "#f-cost", "20")
        with SaveFails(app):
            await refused(pilot, ("ctrl+s",), "EquipmentFormScreen",
                          "The campaign could not be saved", data_dir)
        gang = app.handle.campaign.gang(V)
        assert gang.credits == 85 and len(gang.fighter("vexa-nightshade").equipment) == 3


async def test_item_edit_form(make_app, data_dir) -> None:
    seed(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        await pilot.press("tab")  # Vexa's items: the Needle pistol
        await pilot.press("i")
        await wait_for_screen(pilot, "EquipmentFormScreen")
        app.screen.query_one("#f-kind", Select).value = "Unwieldy weapon"
        await pilot.pause()
        await type_into(pilot, "#f-cost", "x")
        await refused(pilot, ("ctrl+s",), "EquipmentFormScreen", "field to fix", data_dir)
        await type_into(pilot, "#f-cost", "25")
        with SaveFails(app):
            await refused(pilot, ("ctrl+s",), "EquipmentFormScreen",
                          "The campaign could not be saved", data_dir)
        await pilot.press("ctrl+s")  # 2 + 1 slots: within the limit, saved
        await wait_for_screen(pilot, "RosterScreen")
        app.screen.query_one("#gear").focus()
        await pilot.press("down", "i")  # the Stiletto sword: Unwieldy too would make 4
        await wait_for_screen(pilot, "EquipmentFormScreen")
        assert fields(app)["f-name"] == "Stiletto sword"
        app.screen.query_one("#f-kind", Select).value = "Unwieldy weapon"
        await pilot.pause()
        await refused(pilot, ("ctrl+s",), "EquipmentFormScreen", "the limit is 3", data_dir)


async def test_gang_form(make_app, data_dir) -> None:
    seed(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        await pilot.press("g")
        await wait_for_screen(pilot, "GangFormScreen")
        await type_into(pilot, "#f-name", "The Iron Skulls")  # the other gang's
        await type_into(pilot, "#f-player", "Ana B")
        await type_into(pilot, "#f-notes", "grudge against the Skulls")
        await refused(pilot, ("ctrl+s",), "GangFormScreen", "field", data_dir)
        await type_into(pilot, "#f-name", "The Venom Queens")
        with SaveFails(app):
            await refused(pilot, ("ctrl+s",), "GangFormScreen",
                          "The campaign could not be saved", data_dir)
        assert app.handle.campaign.gang(V).name == "The Venom Sisters"


async def test_territory_form(make_app, data_dir) -> None:
    seed(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        await pilot.press("t")
        await wait_for_screen(pilot, "TerritoriesScreen")
        await pilot.press("a")
        await wait_for_screen(pilot, "TerritoryFormScreen")
        await type_into(pilot, "#f-name", "Old Mine")
        with SaveFails(app):
            await refused(pilot, ("ctrl+s",), "TerritoryFormScreen",
                          "The campaign could not be saved", data_dir)
        assert "Old Mine" not in [t.name for t in app.handle.campaign.gang(V).territories]
        await pilot.press("ctrl+s")
        await wait_for_screen(pilot, "TerritoriesScreen")
        await pilot.press("a")
        await wait_for_screen(pilot, "TerritoryFormScreen")
        await type_into(pilot, "#f-name", "Old Mine")  # held already
        await refused(pilot, ("ctrl+s",), "TerritoryFormScreen", "Old Mine", data_dir)


# --- hiring ------------------------------------------------------------------------------

NEW_TYPE = {"#h-type": "Sump Stalker", "#h-name": "Gor", "#h-role": "Ganger",
            "#h-cost": "20", "#h-profile": "5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 7+ 7+",
            "#h-equipment": "Knife 5, Sword 10, Axe 10, Club 5"}


async def test_a_refused_hire_keeps_every_field_and_saves_nothing(make_app, data_dir) -> None:
    """Issue 26.3: a hire over the weapon limit, or that the Stash cannot pay, closed the
    dialog and lost type, name, role, cost, profile and equipment; the refused type was
    still saved to the catalogue, so the next hire was refused again."""
    seed(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        await pilot.press("h")
        await wait_for_screen(pilot, "HireScreen")
        for selector in NEW_TYPE:
            await type_into(pilot, selector, NEW_TYPE[selector])
            await pilot.press("enter")
        await pilot.pause()
        # four weapons: refused by the rules when hired
        assert type(app.screen).__name__ == "HireScreen"
        assert {f"#{k}": v for k, v in fields(app).items()} == NEW_TYPE
        assert "the limit is 3" in screen_text(app) and "nothing hired" in screen_text(app)
        assert "Sump Stalker" not in on_disk(data_dir)
        assert app.screen_stack[-2].own_catalogue.type("Sump Stalker") is None
        # the Stash cannot pay: said before anything changes
        await type_into(pilot, "#h-cost", "90")
        app.screen.query_one("#h-equipment").focus()
        await refused(pilot, ("enter",), "HireScreen", "the Stash holds 85", data_dir)
        await type_into(pilot, "#h-cost", "20")
        await type_into(pilot, "#h-equipment", "Knife 5, Sword 10")
        with SaveFails(app):
            await refused(pilot, ("enter",), "HireScreen", "The campaign could not be saved",
                          data_dir)
        assert app.screen_stack[-2].own_catalogue.type("Sump Stalker") is None
        await pilot.press("enter")
        await wait_for_screen(pilot, "RosterScreen")
    assert "Gor" in on_disk(data_dir)
    assert "Sump Stalker" in (Path(data_dir) / "campaigns" / "demo" / CATALOGUE_FILE).read_text("utf-8")


async def test_a_hire_of_a_known_type_the_stash_cannot_pay(make_app, data_dir) -> None:
    seed(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        await pilot.press("h")
        await wait_for_screen(pilot, "HireScreen")
        await type_into(pilot, "#h-type", "Gang Queen")  # Vexa's type: 190 with her gear
        await pilot.press("enter")
        await type_into(pilot, "#h-name", "Queen Two")
        await refused(pilot, ("enter",), "HireScreen", "the Stash holds 85", data_dir)


async def test_copy_fighter_refused(make_app, data_dir) -> None:
    seed(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_roster(pilot)
        await pilot.press("c")  # Vexa Nightshade: more than the Stash holds
        await wait_for_screen(pilot, "LineScreen")
        await type_into(pilot, "#dialog-input", "Kira Ashfall")
        await refused(pilot, ("enter",), "LineScreen", "is taken", data_dir)
        await type_into(pilot, "#dialog-input", "Vexa Two")
        await refused(pilot, ("enter",), "LineScreen", "the Stash holds 85", data_dir)


# --- the campaign and the home screen ---------------------------------------------------


async def test_new_gang_form(make_app, data_dir) -> None:
    seed(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("a")
        await wait_for_screen(pilot, "GangFormScreen")
        await type_into(pilot, "#f-name", "The Venom Sisters")  # taken
        await type_into(pilot, "#f-credits", "500")
        await type_into(pilot, "#f-player", "Cas")
        await refused(pilot, ("ctrl+s",), "GangFormScreen", "field", data_dir)
        await type_into(pilot, "#f-name", "Sump Rats")
        with SaveFails(app):
            await refused(pilot, ("ctrl+s",), "GangFormScreen",
                          "The campaign could not be saved", data_dir)
        assert "Sump Rats" not in [g.name for g in app.handle.campaign.gangs]


async def test_new_campaign_form(make_app, data_dir, monkeypatch) -> None:
    seed(data_dir)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "HomeScreen")
        await pilot.press("n")
        await wait_for_screen(pilot, "NewCampaignScreen")
        await type_into(pilot, "#name", "Demo")  # taken: the demo's folder
        await refused(pilot, ("enter",), "NewCampaignScreen", "exists already", data_dir)
        await type_into(pilot, "#name", "x" * 61)
        await refused(pilot, ("enter",), "NewCampaignScreen", "too long", data_dir)
        await type_into(pilot, "#name", "Spring Sump Wars")

        def fail(campaign):  # type: ignore[no-untyped-def]
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(app.store, "create_campaign", fail)
        await refused(pilot, ("enter",), "NewCampaignScreen", "could not be created", data_dir)


async def test_import_gang_refused_keeps_the_path(make_app, data_dir) -> None:
    seed(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("i")
        await wait_for_screen(pilot, "ImportGangScreen")
        path = str(Path(data_dir) / "missing.json")
        await pilot.press(*path)
        await refused(pilot, ("enter",), "ImportGangScreen", "missing.json", data_dir)
