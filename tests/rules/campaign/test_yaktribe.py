"""Yaktribe import on the real export (fixtures/yaktribe/157849.json) and on
malformed data."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from munda_tui.rules.core.model import (
    CHARACTERISTICS,
    FighterStatus,
    FighterType,
    GangType,
    TerritoryKind,
)
from munda_tui.rules.campaign.yaktribe import (
    YaktribeError,
    assign_roles,
    compare_rating,
    fighter_type_from_label,
    gang_from_yaktribe,
    roles_question,
    split_gang_notes,
)

# a copy of ../shared/fixtures/yaktribe/157849.json (see its README)
FIXTURE = Path(__file__).parents[2] / "fixtures" / "yaktribe" / "157849.json"


@pytest.fixture
def raw() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.fixture
def imported(raw):
    return gang_from_yaktribe(raw)


def test_gang_fields(imported, raw):
    g = imported.gang
    assert g.name == "Max's Marauders"
    assert g.id == "max-s-marauders"
    assert g.type is GangType.GENESTEALER_CULTISTS
    assert g.credits == 30 and isinstance(g.credits, int)
    assert g.reputation == 16
    assert [t.name for t in g.territories] == ["Settlement"]
    assert all(t.kind is TerritoryKind.TURF for t in g.territories)
    assert g.stash == []
    assert imported.source_id == "157849"
    assert imported.campaign_name == "Taikkuus' Campaign"
    assert "Genestealer Cult" in g.notes and "Law Abiding" in g.notes
    assert "Gang Rating in the file: 1715" in g.notes


def test_gang_tactics_from_notes_with_crlf(imported):
    tactics = imported.gang.tactics
    assert len(tactics) == 14
    assert tactics[0] == "Bait and Switch"
    assert "...Click!" in tactics
    assert tactics[-1] == "Ricochet"
    assert not any("\r" in t or "\n" in t for t in tactics)


def test_every_fighter_kept_with_type_label(imported, raw):
    # the file's order; its dead are the gang's fallen (seed 004, Delete Dead Fighters)
    order = [r["name"] for r in raw["gang"]["gangers"]]
    fighters = sorted(imported.gang.fighters + imported.gang.fallen, key=lambda f: order.index(f.name))
    assert len(fighters) == 18 == len(raw["gang"]["gangers"])
    assert [f.name for f in fighters] == [r["name"] for r in raw["gang"]["gangers"]]
    assert [f.label for f in fighters] == [r["type"] for r in raw["gang"]["gangers"]]
    assert len({f.id for f in fighters}) == 18
    by = {f.name: f for f in fighters}
    assert by["Maxath-Ja"].type is FighterType.LEADER
    assert by["Nesh-Tei"].type is FighterType.CHAMPION
    # "Neophyte Hybrids and Aberrants advance in the same way as Gangers" (The Book of
    # Ruin p41, as necroraw quotes it): an Aberrant is a Ganger, not a Brute
    assert by["Speaks-with-Blades"].type is FighterType.GANGER
    assert by["Wuja-Shei"].type is FighterType.SPECIALIST
    assert by["Uta-Rah"].type is FighterType.GANGER
    # a Propagandist is a Hanger-on (Book of Judgement p90)
    assert by["Guilder Contact"].label == "Propagandist"
    assert by["Guilder Contact"].type is FighterType.HANGER_ON
    # a type name the app cannot place is kept and asked once: a Psychic Familiar is
    # an Exotic Beast, a category the app has no role for
    assert imported.unknown_types == {
        "Psychic Familiar": ["Cherub Alpha II", "Cherub Beta", "Cherub Alpha"],
    }
    assert "Psychic Familiar: Cherub Alpha II, Cherub Beta, Cherub Alpha" in roles_question(imported)
    assign_roles(imported, {"psychic familiar": FighterType.HANGER_ON})
    assert not imported.needs_roles
    assert by["Cherub Beta"].type is FighterType.HANGER_ON
    assert by["Cherub Alpha"] in imported.gang.fallen  # dead in the file: among the fallen,
    assert by["Cherub Alpha"].type is FighterType.HANGER_ON  # given the role all the same
    assert [f.label for f in fighters] == [r["type"] for r in raw["gang"]["gangers"]]


def test_fighter_fields(imported):
    by = {f.name: f for f in imported.gang.fighters}
    max_ = by["Maxath-Ja"]
    assert max_.characteristics == {
        "m": 6, "ws": 3, "bs": 3, "s": 4, "t": 4, "w": 2, "i": 3, "a": 2,
        "ld": 3, "cl": 5, "wil": 5, "int": 4,
    }
    assert set(max_.characteristics) == set(CHARACTERISTICS)
    assert max_.cost == 405 and max_.xp == 0 and max_.advancements == 2
    assert max_.skills == ["Gunfighter"]
    assert max_.notes == "these are some ganger notes"
    blades = by["Speaks-with-Blades"]
    assert blades.xp == 4 and blades.advancements == 1
    assert [i.name for i in blades.injuries] == ["Out Cold"]
    assert [i.name for i in by["Otumi-Raj"].injuries] == ["Head Injury", "Grievous Injury"]
    assert by["Wuja-Shei"].skills == []


def test_statuses(imported):
    by = {f.name: f for f in imported.gang.fighters + imported.gang.fallen}
    assert by["Maxath-Ja"].status is FighterStatus.ACTIVE
    assert by["Waku-Tah"].status is FighterStatus.RECOVERY
    assert by["Cherub Alpha"].status is FighterStatus.DEAD
    assert by["Newest Guy"].status is FighterStatus.DEAD
    counts = {}
    for f in imported.gang.fighters:
        counts[f.status] = counts.get(f.status, 0) + 1
    assert counts == {FighterStatus.ACTIVE: 14, FighterStatus.RECOVERY: 1}
    # seed 004, Delete Dead Fighters: "All dead fighters are removed from the gang's roster
    # now": the file's dead are the gang's fallen, not on the roster
    assert [f.status for f in imported.gang.fallen] == [FighterStatus.DEAD] * 3
    assert {"Cherub Alpha", "Newest Guy"} <= {f.name for f in imported.gang.fallen}


def test_equipment_cost_unknown_not_zero(imported):
    by = {f.name: f for f in imported.gang.fighters}
    items = by["Maxath-Ja"].equipment
    assert [(e.name, e.qty) for e in items] == [
        ("Power Sword", 1), ("Autopistol", 1), ("Plasma Pistol", 2),
        ("Armored undersuit", 1), ("Mesh Armor", 1), ("Third Arm", 1),
        ("Psychic Familiar", 1),
    ]
    assert all(e.cost is None for f in imported.gang.fighters for e in f.equipment)
    assert by["Maxath-Ja"].unknown_costs[0] == "Power Sword"
    total = sum(len(f.equipment) for f in imported.gang.fighters + imported.gang.fallen)
    assert any(f"{total} equipment lines have no cost" in n for n in imported.notes)


def test_rating_matches_file_with_reason(imported):
    check = imported.rating
    assert check.file == 1715
    assert check.computed == 1715 == imported.gang.rating
    assert check.matches
    assert "15 fighters" in check.reason and "3 dead" in check.reason


def test_rating_difference_explained_by_special_territory(imported):
    gang = imported.gang
    gang.territories[0].kind = TerritoryKind.SPECIAL
    check = compare_rating(gang, 1715)
    assert check.computed == 1765 and check.difference == 50
    assert "Special" in check.reason and "Settlement" in check.reason


def test_rating_difference_explained_by_dead_counted(raw):
    # a file that counted the dead in its rating: 1715 + 0 + 90 + 45
    raw["gang"]["gang_rating"] = "1850"
    check = gang_from_yaktribe(raw).rating
    assert check.difference == -135
    assert "dead" in check.reason and "Has-too-many-Arms" in check.reason


def test_rating_difference_explained_by_captured(raw):
    raw["gang"]["gangers"][0]["status"] = "Captured"
    check = gang_from_yaktribe(raw).rating
    assert check.computed == 1715 - 405
    assert "Captured" in check.reason and "Maxath-Ja" in check.reason


def test_rating_difference_unexplained(raw):
    raw["gang"]["gang_rating"] = "1700"
    check = gang_from_yaktribe(raw).rating
    assert check.difference == 15
    assert "no simple cause" in check.reason


def test_foreign_and_malformed(raw):
    with pytest.raises(YaktribeError, match="not a Yaktribe gang export"):
        gang_from_yaktribe([1, 2, 3])
    with pytest.raises(YaktribeError, match="not a Yaktribe gang export"):
        gang_from_yaktribe({"name": "a package.json", "version": "1.0"})
    bad = copy.deepcopy(raw)
    bad["gang"]["credits"] = "lots"
    with pytest.raises(YaktribeError, match="credits: 'lots' is not a whole number"):
        gang_from_yaktribe(bad)
    bad = copy.deepcopy(raw)
    bad["gang"]["gangers"][2]["xp"] = "x"
    with pytest.raises(YaktribeError, match="Nesh-Tei"):
        gang_from_yaktribe(bad)
    bad = copy.deepcopy(raw)
    bad["gang"]["gangers"][1]["equipment"] = "Lasgun"
    with pytest.raises(YaktribeError, match="expected a list"):
        gang_from_yaktribe(bad)
    bad = copy.deepcopy(raw)
    bad["gang"]["gangers"][0]["ws"] = True
    with pytest.raises(YaktribeError, match="WS"):
        gang_from_yaktribe(bad)
    bad = copy.deepcopy(raw)
    bad["gang"]["credits"] = "-5"
    with pytest.raises(YaktribeError, match="negative"):
        gang_from_yaktribe(bad)


def test_input_not_mutated_and_unwrapped_accepted(raw):
    before = copy.deepcopy(raw)
    a = gang_from_yaktribe(raw)
    assert raw == before
    b = gang_from_yaktribe(raw["gang"])
    assert a.gang == b.gang


def test_gang_id_avoids_taken_ids(raw):
    assert gang_from_yaktribe(raw, taken_ids={"max-s-marauders"}).gang.id == "max-s-marauders-2"


def test_split_gang_notes_keeps_sentences_as_notes():
    tactics, rest = split_gang_notes(
        "Crossfire\r\nWe lost the last three games, revenge is coming.\r\n\r\nLucky Shot\r\n"
    )
    assert tactics == ["Crossfire", "Lucky Shot"]
    assert rest == "We lost the last three games, revenge is coming."


def test_house_type_names_as_yaktribe_writes_them():
    # data/fighter_roles.toml: an Orlock Road Captain is the Leader ...
    assert fighter_type_from_label("Road Captain") is FighterType.LEADER
    assert fighter_type_from_label("Orlock Road Sergeant") is FighterType.CHAMPION
    assert fighter_type_from_label("Gunner") is FighterType.GANGER
    assert fighter_type_from_label("Wrecker") is FighterType.PROSPECT
    assert fighter_type_from_label("Greenhorn") is FighterType.JUVE
    assert fighter_type_from_label("Forge Tyrant") is FighterType.LEADER
    assert fighter_type_from_label("Gang Queen") is FighterType.LEADER
    assert fighter_type_from_label("Little Sister") is FighterType.JUVE
    # ... a remembered answer wins, and nothing is guessed for a name unknown
    assert fighter_type_from_label("Propagandist", {"propagandist": FighterType.HANGER_ON}) \
        is FighterType.HANGER_ON
    assert fighter_type_from_label("Ratling Sniper") is None


def test_gang_type_with_a_book_suffix_and_html_entities(raw):
    raw = copy.deepcopy(raw)
    raw["gang"]["gang_type"] = "Orlock (HoI)"
    raw["gang"]["gang_name"] = "Max&rsquo;s &amp; Co &ldquo;Iron&rdquo;"
    raw["gang"]["gangers"][0]["name"] = "Big &amp; Bad"
    g = gang_from_yaktribe(raw).gang
    assert g.type is GangType.ORLOCK
    assert g.name == "Max’s & Co “Iron”"
    assert g.fighters[0].name == "Big & Bad"


def test_fighter_type_words():
    assert fighter_type_from_label("Neophyte Hybrid Specialist") is FighterType.SPECIALIST
    assert fighter_type_from_label("Escher Juve") is FighterType.JUVE
    assert fighter_type_from_label("Psychic Familiar") is None


def test_newer_exports_give_cost_and_traits_per_item(raw):
    raw = copy.deepcopy(raw)
    gear = raw["gang"]["gangers"][0]["equipment"]
    gear[0].update(cost="50", traits=["Parry", "Power"])
    gear[1].update(cost="10", traits="Rapid Fire (1), Sidearm")
    gear.append({"name": "Heavy Stubber", "qty": "1", "cost": "130",
                 "traits": [{"name": "Rapid Fire (2)"}, {"name": "Unwieldy"}]})
    g = gang_from_yaktribe(raw).gang
    items = g.fighters[0].equipment
    assert [(i.name, i.cost, i.kind) for i in items[:3]] == [
        ("Power Sword", 50, "weapon"), ("Autopistol", 10, "weapon"),
        ("Plasma Pistol", None, "wargear")]  # no traits in the file: kind not known
    assert (items[-1].name, items[-1].cost, items[-1].kind) == ("Heavy Stubber", 130, "Unwieldy weapon")
    assert g.fighters[0].weapon_count == 1 + 1 + 2


def test_old_exports_say_the_kinds_are_to_set(imported):
    assert any("does not say which items are weapons" in n for n in imported.notes)
