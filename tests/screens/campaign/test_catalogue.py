"""Catalogues (#15): hiring by type with completion, copying a fighter, a one-line
profile, catalogue packs (and a malformed one), the key counts of a whole gang."""

from __future__ import annotations

from pathlib import Path

from munda_tui.rules.core.model import Campaign
from munda_tui.saves import Store
from munda_tui.saves.catalogue import load_campaign_catalogue
from support import wait_for_screen

SIZE = (100, 32)

# A club's pack, as another player exported it. Test data only: munda-tui ships no
# House lists, and these names and numbers are made up for the test.
PACK = '''format = "munda-tui-pack"
name = "Test club list"

[[fighter_types]]
name = "Boss"
role = "Leader"
cost = 120
profile = "5 3+ 3+ 3 3 2 3+ 2 6+ 6+ 7+ 7+"
equipment = ["Pistol", "Blade"]

[[fighter_types]]
name = "Champ"
role = "Champion"
cost = 90
profile = "5 3+ 4+ 3 3 2 3+ 1 7+ 6+ 7+ 7+"
equipment = ["Rifle"]

[[fighter_types]]
name = "Grunt"
role = "Ganger"
cost = 50
profile = "5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 8+ 8+"
equipment = ["Rifle", "Vest"]

[[fighter_types]]
name = "Kid"
role = "Juve"
cost = 25
profile = "5 5+ 5+ 3 3 1 3+ 1 8+ 8+ 9+ 9+"
equipment = ["Pistol"]

[[fighter_types]]
name = "Sharp"
role = "Specialist"
cost = 60
profile = "5 4+ 3+ 3 3 1 4+ 1 7+ 7+ 8+ 8+"
equipment = ["Rifle", "Grenade"]

[[items]]
name = "Pistol"
cost = 10
kind = "weapon"

[[items]]
name = "Blade"
cost = 15
kind = "weapon"

[[items]]
name = "Rifle"
cost = 20
kind = "weapon"

[[items]]
name = "Vest"
cost = 10
kind = "armour"

[[items]]
name = "Grenade"
cost = 25
kind = "consumable"
rarity = "Rare (8)"
'''


def empty_campaign(data_dir: Path) -> str:
    Store(data_dir).create_campaign(Campaign(id="club", name="Club")).close()
    return "club"


class Keys:
    """Presses keys and counts them (the figure the issue asks for)."""

    def __init__(self, pilot) -> None:  # type: ignore[no-untyped-def]
        self.pilot = pilot
        self.count = 0

    async def __call__(self, *keys: str) -> None:
        for key in keys:
            await self.pilot.press(key)
            await self.pilot.pause()
            self.count += 1

    async def text(self, text: str) -> None:
        await self(*[{" ": "space", ",": "comma", "+": "plus"}.get(c, c) for c in text])


# name, Tab over the type, Tab to the credits (their 0 selected: typing replaces it)
GANG_KEYS = ["a", *"Kin", "tab", "tab", *"1000", "ctrl+s"]


async def make_gang(keys: Keys) -> None:
    await keys(*GANG_KEYS)
    await wait_for_screen(keys.pilot, "CampaignScreen")
    await keys("r")
    await wait_for_screen(keys.pilot, "RosterScreen")


async def test_a_whole_gang_from_a_pack_in_at_most_60_keys(make_app, data_dir, config_dir,
                                                           capsys) -> None:
    (config_dir / "packs").mkdir()
    (config_dir / "packs" / "club.toml").write_text(PACK, encoding="utf-8")
    slug = empty_campaign(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await make_gang(keys)
        for letter, name in (("b", "Ana"), ("c", "Bea"), ("g", "Cyd"), ("k", "Dot"),
                             ("s", "Eve")):
            await keys("h")
            await wait_for_screen(pilot, "HireScreen")
            await keys(letter, "enter")  # the first match: a letter of the type's name
            await keys.text(name)
            await keys("enter")
            await wait_for_screen(pilot, "RosterScreen")
        await keys("c")  # a second Grunt... copied from the selected fighter (Eve, a Sharp)
        await wait_for_screen(pilot, "LineScreen")
        await keys.text("eve")  # her own name: taken in this gang, said in the dialog
        await keys("enter")
        assert "eve is taken in this gang." in app.screen.error
        await keys("backspace", "backspace", "backspace")
        await keys.text("Fay")
        await keys("enter")
        await wait_for_screen(pilot, "RosterScreen")
        gang = app.handle.campaign.gangs[0]
    by = {f.name: f for f in gang.fighters}
    assert list(by) == ["Ana", "Bea", "Cyd", "Dot", "Eve", "Fay"]
    assert [by[n].label for n in by] == ["Boss", "Champ", "Grunt", "Kid", "Sharp", "Sharp"]
    assert by["Ana"].type.value == "Leader" and by["Ana"].characteristics["ws"] == 3
    assert [i.name for i in by["Fay"].equipment] == ["Rifle", "Grenade"]
    items = {i.name: i for f in gang.fighters for i in f.equipment}
    assert set(items) == {"Pistol", "Blade", "Rifle", "Vest", "Grenade"}
    assert items["Vest"].kind == "armour" and items["Grenade"].kind == "consumable"
    spent = 145 + 110 + 80 + 35 + 105 + 105
    assert gang.credits == 1000 - spent and gang.rating == spent
    print(f"\nKEY COUNT with a pack: {keys.count}")
    assert keys.count <= 60, keys.count


async def test_a_whole_gang_from_an_empty_campaign_counted(make_app, data_dir, capsys) -> None:
    """Five new types and five new items, typed once each: the catalogue learns them."""
    slug = empty_campaign(data_dir)
    app = make_app(campaign=slug)
    types = [  # (type, role key, cost, profile as twelve digits, equipment)
        # an item known already completes from its first letter when no other known item
        # starts with it (R: Rifle); a new item is a weapon unless a kind letter follows
        # its cost (10a: armour, 25c: consumable)
        ("Leader", "", "120", "533332226677", "Pistol 10,Blade 15"),
        ("Champion", "", "90", "534332217677", "Rifle 20"),
        ("Ganger", "", "50", "544331317788", "R,Vest 10a"),
        ("Juve", "", "25", "555331318899", "P"),
        ("Specialist", "", "60", "543331317788", "R,Grenade 25c"),
    ]
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await make_gang(keys)
        for (type_name, _role, cost, profile, gear), name in zip(types, ["Ana", "Bea", "Cyd",
                                                                        "Dot", "Eve"]):
            await keys("h")
            await wait_for_screen(pilot, "HireScreen")
            await keys(type_name[0].lower(), "enter")  # a role's name: the role comes with it
            await keys.text(name)
            await keys("enter")
            await keys.text(cost)
            await keys("enter")
            await keys.text(profile)  # the twelfth digit moves on to the equipment
            assert app.focused.id == "h-equipment"
            await keys.text(gear)
            await keys("enter")
            await wait_for_screen(pilot, "RosterScreen")
        await keys("c")
        await wait_for_screen(pilot, "LineScreen")
        await keys.text("Fay")
        await keys("enter")
        await wait_for_screen(pilot, "RosterScreen")
        gang = app.handle.campaign.gangs[0]
        path = app.handle.path
    assert [f.label for f in gang.fighters] == ["Leader", "Champion", "Ganger", "Juve",
                                                "Specialist", "Specialist"]
    assert [f.type.value for f in gang.fighters][:5] == [t[0] for t in types]
    assert gang.fighters[0].characteristics["ws"] == 3 and gang.fighters[0].cost == 120
    learned = load_campaign_catalogue(path)
    assert learned.type_names() == [t[0] for t in types]
    assert {i.name: (i.cost, i.kind) for i in learned.items} == {
        "Pistol": (10, "weapon"), "Blade": (15, "weapon"), "Rifle": (20, "weapon"),
        "Vest": (10, "armour"), "Grenade": (25, "consumable")}
    print(f"\nKEY COUNT from an empty campaign: {keys.count}")
    # the goal was 150: what is typed (profiles, items, names, costs) is 151 keys alone;
    # see the README
    assert keys.count <= 183, keys.count


async def test_a_one_line_profile_with_an_error_names_the_field(make_app, data_dir) -> None:
    slug = empty_campaign(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await make_gang(keys)
        await keys("h")
        await wait_for_screen(pilot, "HireScreen")
        await keys.text("Boss")
        await keys("enter")
        await keys.text("Ana")
        await keys("enter")  # a new type: its role is asked
        await keys.text("le")
        await keys("enter")
        assert app.screen.query_one("#h-role").value == "Leader"
        await keys.text("120")
        await keys("enter")
        await keys.text("5 4+ 4+ 3 3 1 4+ x 7+ 7+ 7+ 7+")
        await keys("enter")
        error = str(app.screen.query_one("#hire-error").render())
        assert "value 8 (A, Attacks)" in error and "'x'" in error
        assert app.focused.id == "h-profile"  # nothing lost: fix it in place
        await keys("ctrl+u")
        await keys.text("5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 7+ 7+")
        await keys("enter")
        await keys.text("Knife")
        await keys("enter")  # a new item needs its cost: asked, nothing hired
        assert "give its cost" in str(app.screen.query_one("#hire-error").render())
        await keys.text(" 5")
        await keys("enter")
        await wait_for_screen(pilot, "RosterScreen")
        ana = app.handle.campaign.gangs[0].fighters[0]
    assert (ana.name, ana.label, ana.type.value, ana.cost) == ("Ana", "Boss", "Leader", 120)
    assert ana.characteristics == {"m": 5, "ws": 4, "bs": 4, "s": 3, "t": 3, "w": 1, "i": 4,
                                   "a": 1, "ld": 7, "cl": 7, "wil": 7, "int": 7}
    assert [(i.name, i.cost) for i in ana.equipment] == [("Knife", 5)]


async def test_a_profile_error_goes_once_the_line_is_being_fixed(make_app, data_dir) -> None:
    """QA walk: 'Profile: 11 values' stayed under the field after the twelfth value was
    typed, so the line looked still wrong."""
    slug = empty_campaign(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await make_gang(keys)
        await keys("h")
        await wait_for_screen(pilot, "HireScreen")
        for text in ("Boss", "Ana", "le", "120", "5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 7+"):
            await keys.text(text)
            await keys("enter")
        error = app.screen.query_one("#hire-error")
        assert str(error.render()).startswith("Profile: 11 values")
        await keys.text(" 7+")
        assert str(error.render()) == ""
        await keys("enter")
        assert app.focused.id == "h-equipment" and str(error.render()) == ""


async def test_the_fighter_keys_wait_for_a_fighter(make_app, data_dir) -> None:
    """QA walk: a new gang's roster offered Edit, Retire, Delete, Copy and Move item, and
    each did nothing: there was no fighter yet. They show once one is hired."""
    from textual.widgets._footer import FooterKey

    slug = empty_campaign(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await make_gang(keys)

        def footer() -> set[str]:
            return {str(k.description) for k in app.screen.query(FooterKey) if k.display}

        fighter_keys = {"Edit", "Retire", "Delete", "Copy", "Move item"}
        assert not footer() & fighter_keys and {"Add", "Hire"} <= footer()
        await keys("h")
        await wait_for_screen(pilot, "HireScreen")
        for text in ("Boss", "Ana", "le", "120", "5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 7+ 7+"):
            await keys.text(text)
            await keys("enter")
        await keys("enter")  # no equipment
        await wait_for_screen(pilot, "RosterScreen")
        assert [f.name for f in app.handle.campaign.gangs[0].fighters] == ["Ana"]
        assert {"Edit", "Retire", "Delete", "Copy"} <= footer()


async def test_a_malformed_pack_is_reported_and_the_good_ones_load(make_app, data_dir,
                                                                   config_dir) -> None:
    packs = config_dir / "packs"
    packs.mkdir()
    (packs / "club.toml").write_text(PACK, encoding="utf-8")
    (packs / "broken.toml").write_text(
        'format = "munda-tui-pack"\n\n[[items]]\nname = "Axe"\ncost = -5\n', encoding="utf-8")
    slug = empty_campaign(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await make_gang(keys)
        notes = [n.message for n in app._notifications]
        assert any("broken.toml:5:1: items[0].cost: a cost is a whole number" in m
                   for m in notes), notes
        assert app.screen.catalogue.type_names() == ["Boss", "Champ", "Grunt", "Kid", "Sharp"]


async def test_the_catalogue_screen_edits_deletes_and_exports_a_pack(make_app, data_dir,
                                                                     config_dir, tmp_path,
                                                                     snap_compare) -> None:
    from munda_tui.saves.catalogue import load_file

    (config_dir / "packs").mkdir()
    (config_dir / "packs" / "club.toml").write_text(PACK, encoding="utf-8")
    slug = empty_campaign(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await make_gang(keys)
        await keys("h", *"Brute", "enter", *"Ox", "enter", *"80", "enter",
                   *"433434317788", *"Maul 30 u,Vest", "enter")  # learned; 12 digits move on
        await wait_for_screen(pilot, "RosterScreen")
        await keys("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        await keys("k")
        await wait_for_screen(pilot, "CatalogueScreen")
        types = app.screen.query_one("#types")
        rows = [types.get_row_at(i) for i in range(types.row_count)]
        assert rows[0][:3] == ["Brute", "Brute", "80"] and rows[0][5] == "campaign"
        assert rows[1][0] == "Boss" and rows[1][5] == "pack: Test club list"
        await keys("down", "d")  # a pack's entry: changed in its file, not here
        assert type(app.screen).__name__ == "CatalogueScreen"
        await keys("up", "e")
        await wait_for_screen(pilot, "EntryScreen")
        await keys("tab", "tab", "ctrl+u", *"85", "tab", "ctrl+u", *"4 3+ 3+ 4 3 x", "enter")
        assert "profile:" in str(app.screen.query_one("#entry-error").render())
        await keys("ctrl+u", *"433434317788", "ctrl+s")
        await wait_for_screen(pilot, "CatalogueScreen")
        assert app.screen.own.type("Brute").cost == 85
        await keys("tab")  # the items: Maul, learned with its cost and kind
        items = app.screen.query_one("#items")
        assert items.get_row_at(0)[:3] == ["Maul", "Unwieldy weapon", "30"]
        out = tmp_path / "ours.toml"
        await keys("x")
        await wait_for_screen(pilot, "LineScreen")
        await keys("ctrl+u", *str(out), "enter")
        await wait_for_screen(pilot, "CatalogueScreen")
        await keys("d")
        await wait_for_screen(pilot, "ConfirmScreen")
        await keys("y")
        await wait_for_screen(pilot, "CatalogueScreen")
        assert app.screen.own.item("Maul") is None
    pack = load_file(out)  # the exported pack loads as a pack
    assert pack.type("Brute").cost == 85 and pack.item("Maul").kind == "Unwieldy weapon"
    assert pack.name == "Club"
    assert load_campaign_catalogue(app.handle.path if app.handle else
                                   data_dir / "campaigns" / slug).item("Maul") is None


def test_hire_and_catalogue_snapshots(snap_compare, make_app, data_dir, config_dir) -> None:
    (config_dir / "packs").mkdir()
    (config_dir / "packs" / "club.toml").write_text(PACK, encoding="utf-8")
    slug = empty_campaign(data_dir)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await make_gang(keys)
        await keys("h", "s")
        await wait_for_screen(pilot, "HireScreen")

    assert snap_compare(make_app(campaign=slug), terminal_size=SIZE, run_before=run_before)


def test_catalogue_screen_snapshot(snap_compare, make_app, data_dir, config_dir) -> None:
    (config_dir / "packs").mkdir()
    (config_dir / "packs" / "club.toml").write_text(PACK, encoding="utf-8")
    slug = empty_campaign(data_dir)

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("k")
        await wait_for_screen(pilot, "CatalogueScreen")

    assert snap_compare(make_app(campaign=slug), terminal_size=SIZE, run_before=run_before)


def test_an_imported_gang_is_learned(data_dir) -> None:
    from munda_tui.saves.importer import import_yaktribe

    fixture = Path(__file__).parents[2] / "fixtures" / "yaktribe" / "157849.json"
    slug = empty_campaign(data_dir)
    with Store(data_dir).open_campaign(slug) as h:
        import_yaktribe(h, fixture, assume_ganger=True)
        gang = h.campaign.gangs[0]
        learned = load_campaign_catalogue(h.path)
    alpha = next(f for f in gang.fighters if f.label == "Cult Alpha")
    entry = learned.type("Cult Alpha")
    assert entry is not None and entry.role == alpha.type and entry.cost == alpha.cost
    assert entry.profile == alpha.characteristics
    assert entry.equipment == [i.name for i in alpha.equipment]
    names = {i.name for f in gang.fighters for i in f.equipment}
    assert names <= set(learned.item_names())
    # the file's dead (the gang's fallen) are learned too: their types and items
    assert gang.fallen and {f.label for f in gang.fallen} <= set(learned.type_names())
    assert {i.name for f in gang.fallen for i in f.equipment} <= set(learned.item_names())


async def test_item_names_complete_from_the_catalogue_with_cost_and_kind(make_app, data_dir,
                                                                        config_dir) -> None:
    (config_dir / "packs").mkdir()
    (config_dir / "packs" / "club.toml").write_text(PACK, encoding="utf-8")
    slug = empty_campaign(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await make_gang(keys)
        await keys("h", "k", "enter", *"Dot", "enter")  # a Kid, with a Pistol
        await wait_for_screen(pilot, "RosterScreen")
        await keys("plus")
        await wait_for_screen(pilot, "EquipmentFormScreen")
        await keys("g", "r")
        matches = str(app.screen.query_one("#item-matches").render())
        assert "Grenade (consumable, 25 cr, Rare (8))" in matches
        await keys("enter")  # takes the catalogue's Grenade: its cost and kind, bought
        await wait_for_screen(pilot, "RosterScreen")
        dot = app.handle.campaign.gangs[0].fighters[0]
        assert [(i.name, i.cost, i.kind) for i in dot.equipment] == [
            ("Pistol", 10, "weapon"), ("Grenade", 25, "consumable")]
        assert app.handle.campaign.gangs[0].credits == 1000 - 25 - 10 - 25
        await keys("plus", *"Net", "tab", "tab", *"5", "ctrl+s")  # a new item: learned
        await wait_for_screen(pilot, "RosterScreen")
        assert app.screen.own_catalogue.item("Net").cost == 5


async def test_a_hire_the_stash_cannot_pay_is_refused_in_the_dialog(make_app, data_dir,
                                                                     config_dir) -> None:
    (config_dir / "packs").mkdir()
    (config_dir / "packs" / "club.toml").write_text(PACK, encoding="utf-8")
    slug = empty_campaign(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await keys("a", *"Kin", "tab", "tab", *"100", "ctrl+s")
        await wait_for_screen(pilot, "CampaignScreen")
        await keys("r")
        await wait_for_screen(pilot, "RosterScreen")
        await keys("h", "b", "enter", *"Ana", "enter")  # a Boss: 120 + 25 of equipment
        assert type(app.screen).__name__ == "HireScreen"  # still there, the name kept
        assert "costs 145 credits" in str(app.screen.query_one("#hire-error").render())
        assert app.screen.query_one("#h-name").value == "Ana"
        await keys("escape")
        await wait_for_screen(pilot, "RosterScreen")
        gang = app.handle.campaign.gangs[0]
        assert gang.fighters == [] and gang.credits == 100


def test_check_validates_a_pack_and_a_campaign_catalogue(data_dir, config_dir, capsys) -> None:
    from munda_tui.cli import main

    packs = config_dir / "packs"
    packs.mkdir()
    (packs / "good.toml").write_text(PACK, encoding="utf-8")
    bad = packs / "bad.toml"
    bad.write_text('[[fighter_types]]\nname = "X"\nprofile = "5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 7+"\n',
                   encoding="utf-8")
    assert main(["check", str(packs / "good.toml")]) == 0
    assert main(["check", str(bad)]) == 1
    out = capsys.readouterr()
    assert f"{bad}:3:1: fighter_types[0].profile: 11 values; a profile has 12" in out.out + out.err
    slug = empty_campaign(data_dir)
    (data_dir / "campaigns" / slug / "catalogue.toml").write_text('[[items]]\nname = 5\n',
                                                                  encoding="utf-8")
    assert main(["check", str(data_dir / "campaigns" / slug)]) == 1
    out = capsys.readouterr()
    assert "catalogue.toml:2:1: items[0].name: expected a string" in out.out + out.err


async def test_twelve_digits_move_on_and_an_enter_out_of_habit_hires_nothing_bare(
        make_app, data_dir) -> None:
    slug = empty_campaign(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await make_gang(keys)
        await keys("h")
        await wait_for_screen(pilot, "HireScreen")
        await keys("g", "enter", *"Cyd", "enter", *"50")
        await keys("enter", *"54433131778")
        assert app.focused.id == "h-profile"  # eleven digits: still typing
        await keys("8")
        assert app.focused.id == "h-equipment"
        await keys("enter")  # out of habit: asked, nothing hired
        assert type(app.screen).__name__ == "HireScreen"
        assert "Enter again to hire with none" in str(app.screen.query_one("#hire-error").render())
        await keys(*"Stub 10,Vest 10a,Rope 5g")
        gear = str(app.screen.query_one("#hire-gear").render())
        assert gear == ("Stub (weapon, 10 cr)  ·  Vest (armour, 10 cr)  ·  "
                        "Rope (wargear, 5 cr)"), gear
        await keys("enter")
        await wait_for_screen(pilot, "RosterScreen")
        cyd = app.handle.campaign.gangs[0].fighters[0]
    assert cyd.characteristics["ld"] == 7 and cyd.characteristics["int"] == 8
    assert [(i.name, i.kind) for i in cyd.equipment] == [
        ("Stub", "weapon"), ("Vest", "armour"), ("Rope", "wargear")]


async def test_a_bare_hire_after_twelve_digits_takes_a_second_enter(make_app, data_dir) -> None:
    slug = empty_campaign(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        keys = Keys(pilot)
        await make_gang(keys)
        await keys("h")
        await wait_for_screen(pilot, "HireScreen")
        await keys("j", "enter", *"Dot", "enter", *"25", "enter", *"555331318899", "enter",
                   "enter")
        await wait_for_screen(pilot, "RosterScreen")
        dot = app.handle.campaign.gangs[0].fighters[0]
    assert (dot.name, dot.equipment, dot.cost) == ("Dot", [], 25)
