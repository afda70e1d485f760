"""rules.catalogue: learning, completion, one-line profiles and equipment, packs (#15)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as hs
from support import examples

from munda_tui.rules.campaign import catalogue as cat
from munda_tui.rules.core.model import Equipment, Fighter, FighterType, Gang
from munda_tui.rules.core.profile import ProfileError
from munda_tui.rules.campaign.roster import RosterError


def test_learning_keeps_what_is_known_and_fills_a_missing_cost() -> None:
    c = cat.Catalogue()
    pistol = Equipment("Pistol", None)
    pistol.set_kind("weapon")
    f = Fighter("a", "Ana", FighterType.LEADER, label="Boss", cost=120,
                characteristics={"m": 5}, equipment=[pistol])
    assert c.learn_fighter(f)
    assert c.type("boss").role is FighterType.LEADER and c.type("Boss").equipment == ["Pistol"]
    assert c.item("pistol").cost is None and c.item("Pistol").kind == "weapon"
    assert c.learn_item(Equipment("Pistol", 10))  # a cost it lacked
    assert c.item("Pistol").cost == 10
    f.cost = 999
    assert not c.learn_fighter(f)  # a known type keeps what it has
    assert c.type("Boss").cost == 120
    plain = Fighter("b", "Bo", FighterType.JUVE)  # no gang name for the type: its role
    c.learn_fighter(plain)
    assert c.type("Juve") is not None


def test_completion_prefix_then_word_then_inside() -> None:
    names = ["Gang Sister", "Little Sister", "Sister Superior", "Gang Queen"]
    assert cat.complete(names, "sis") == ["Sister Superior", "Gang Sister", "Little Sister"]
    assert cat.complete(names, "  GANG ") == ["Gang Sister", "Gang Queen"]
    assert cat.complete(names, "een") == ["Gang Queen"]
    assert cat.complete(names, "") == names


@pytest.mark.parametrize("text,words", [
    ("5 4+ 4+ 3 3 1 4+ x 7+ 7+ 7+ 7+", "value 8 (A, Attacks)"),
    ("5 0+ 4+ 3 3 1 4+ 1 7+ 7+ 7+ 7+", "value 2 (WS, Weapon Skill): WS is a target number"),
    ("5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 7+", "11 values; a profile has 12"),
    ("5 4+ 4+ 3+ 3 1 4+ 1 7+ 7+ 7+ 7+", "value 4 (S, Strength): S is a plain number"),
    ("", "11 values" if False else "0 values"),
])
def test_a_one_line_profile_error_names_the_value(text, words) -> None:
    with pytest.raises(ProfileError, match=words.replace("(", r"\(").replace(")", r"\)")
                       .replace("+", r"\+")):
        cat.parse_profile_line(text)


def test_one_line_profiles_as_cards_print_them() -> None:
    want = {"m": 5, "ws": 4, "bs": 4, "s": 3, "t": 3, "w": 1, "i": 4, "a": 1, "ld": 7,
            "cl": 7, "wil": 7, "int": 7}
    assert cat.parse_profile_line("5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 7+ 7+") == want
    assert cat.parse_profile_line("544331417777") == want
    assert cat.parse_profile_line("M5 WS4+") == {"m": 5, "ws": 4}
    assert "i" not in cat.parse_profile_line("5 4+ 4+ 3 3 1 - 1 7+ 7+ 7+ 7+")


def test_an_equipment_line() -> None:
    c = cat.Catalogue(items=[cat.ItemEntry("Pistol", 10, "weapon"),
                             cat.ItemEntry("Power sword", 50, "weapon")])
    names, new = cat.parse_equipment_line("pi, Knife 5, Rifle 25 w, Maul 30 u, Vest 10 armour", c)
    assert names == ["Pistol", "Knife", "Rifle", "Maul", "Vest"]
    assert [(i.name, i.cost, i.kind) for i in new] == [
        ("Knife", 5, "weapon"), ("Rifle", 25, "weapon"), ("Maul", 30, "Unwieldy weapon"),
        ("Vest", 10, "armour")]
    with pytest.raises(ValueError, match="'Axe' is not in the catalogue yet: give its cost"):
        cat.parse_equipment_line("Pistol, Axe", c)


def test_hiring_pays_everything_or_nothing() -> None:
    c = cat.catalogue_from_data({
        "fighter_types": [{"name": "Boss", "role": "Leader", "cost": 100,
                           "equipment": ["Pistol", "Pistol", "Pistol", "Rifle"]}],
        "items": [{"name": "Pistol", "cost": 10, "kind": "weapon"},
                  {"name": "Rifle", "cost": 20, "kind": "weapon"}]})
    g = Gang("g", "G", credits=1000)
    with pytest.raises(RosterError, match="the limit is 3"):  # four weapons: refused whole
        cat.hire(g, c, c.fighter_types[0], "Ana")
    assert g.fighters == [] and g.credits == 1000
    c.fighter_types[0].equipment = ["Pistol", "Rifle"]
    ana = cat.hire(g, c, c.fighter_types[0], "Ana")
    assert g.credits == 870 and ana.label == "Boss" and ana.type is FighterType.LEADER
    g.credits = 100
    with pytest.raises(RosterError, match="costs 130 credits; the Stash holds 100"):
        cat.copy_fighter(g, ana, "Bea")
    assert len(g.fighters) == 1 and g.credits == 100


def test_a_pack_round_trips() -> None:
    c = cat.Catalogue("Club", [cat.TypeEntry("Boss", FighterType.LEADER, 120,
                                             cat.parse_profile_line("544331417777"), ["Pistol"])],
                      [cat.ItemEntry("Pistol", 10, "weapon", "Common"),
                       cat.ItemEntry("Relic", None, "wargear")])
    again = cat.catalogue_from_data(cat.catalogue_to_data(c))
    assert again == c


@pytest.mark.parametrize("data,where,words", [
    ({"format": "other"}, ("format",), "expected format"),
    ({"fighter_types": [{"name": "A", "role": "Boss"}]}, ("fighter_types", 0, "role"),
     "unknown role"),
    ({"fighter_types": [{"name": "A"}, {"name": "a"}]}, ("fighter_types", 1, "name"),
     "given twice"),
    ({"items": [{"name": "A", "cost": -1}]}, ("items", 0, "cost"), "0 or more"),
    ({"items": [{"name": "A", "kind": "gun"}]}, ("items", 0, "kind"), "unknown kind"),
    ({"items": [{"name": "A", "colour": "red"}]}, ("items", 0, "colour"), "unknown key"),
    ({"fighter_types": [{"name": "A", "profile": {"ws": "100+"}}]},
     ("fighter_types", 0, "profile"), "target number"),
])
def test_a_bad_pack_says_where(data, where, words) -> None:
    with pytest.raises(cat.CatalogueError, match=words) as info:
        cat.catalogue_from_data(data)
    assert info.value.keypath == where


_scalars = hs.one_of(hs.none(), hs.booleans(), hs.integers(-5, 200), hs.text(max_size=8))
_values = hs.recursive(_scalars, lambda inner: hs.lists(inner, max_size=3)
                       | hs.dictionaries(hs.text(max_size=6), inner, max_size=3), max_leaves=8)


@settings(max_examples=examples(150), deadline=None)
@given(hs.dictionaries(hs.sampled_from(["format", "name", "fighter_types", "items", "x"]),
                       _values, max_size=4))
def test_any_pack_data_loads_or_says_why(data) -> None:
    try:
        cat.catalogue_from_data(data)
    except cat.CatalogueError as error:
        assert error.message


_type_entry = hs.dictionaries(hs.sampled_from(["name", "role", "cost", "profile", "equipment"]),
                              _values, max_size=5)
_item_entry = hs.dictionaries(hs.sampled_from(["name", "cost", "kind", "rarity"]), _values,
                              max_size=4)


@settings(max_examples=examples(200), deadline=None)
@given(hs.lists(_type_entry, max_size=3), hs.lists(_item_entry, max_size=3))
def test_any_entries_load_or_say_why(types, items) -> None:
    try:
        c = cat.catalogue_from_data({"fighter_types": types, "items": items})
    except cat.CatalogueError as error:
        assert error.message and error.keypath
    else:
        assert cat.catalogue_from_data(cat.catalogue_to_data(c)) == c
