"""Every gang family Yaktribe offers, not only the six Houses (issue 25): a hand-made
export of each (tests/fixtures/yaktribe/families, see its README) imports with every
Leader and Champion given its role, and without a question where every type name is
in data/fighter_roles.toml. The roles are the ones the gang lists publish, each with
its book (the file's comments say where each comes from)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from munda_tui.rules.campaign.career import export_section
from munda_tui.rules.core.model import Campaign, FighterType, GangType
from munda_tui.rules.campaign.yaktribe import fighter_type_from_label, gang_from_yaktribe
from munda_tui.saves import Store
from munda_tui.saves.importer import RolesNeeded, import_yaktribe

FAMILIES = Path(__file__).parents[2] / "fixtures" / "yaktribe" / "families"

L, C, P, S, G, J = (FighterType.LEADER, FighterType.CHAMPION, FighterType.PROSPECT,
                    FighterType.SPECIALIST, FighterType.GANGER, FighterType.JUVE)
B, H, HG, BH = (FighterType.BRUTE, FighterType.HANGER_ON, FighterType.HIRED_GUN,
                FighterType.BOUNTY_HUNTER)

#: fixture -> each fighter's role, in the file's order
EXPECTED: dict[str, list[FighterType]] = {
    # Book of Judgement p31-32: Palanite Captain Leader, Sergeant Champion, Patrolman
    # Ganger, Rookie Juve; Subjugator Sergeant Champion (Gyrinx)
    "palanite-enforcers": [L, C, C, G, S, J],
    # The Book of Ruin p38, p41: "one Leader ... a Cult Adept or a Cult Alpha"; the
    # Hybrid Acolytes act as Champions; "Neophyte Hybrids and Aberrants advance in the
    # same way as Gangers"
    "genestealer-cult": [L, C, C, G, G, S, G],
    # The Book of Ruin p25: "one Leader (Cult Demagogue)"; Disciple, Witch: Champions
    "chaos-cult": [L, C, C, G, S],
    # The Book of Ruin (Gyrinx): Butcher Leader, Cutter Champion, Skinner, Initiate
    "corpse-grinder-cult": [L, C, C, G, J],
    # Book of the Outlands pp10-20
    "ash-wastes-nomads": [L, C, C, P, G, J],
    # Book of the Outlands pp28-34
    "squat-prospectors": [L, C, G, S, J],
    # Book of Peril p17: Hunt Leader, Hunt Champion, Hunters
    "venators": [L, C, C, G, S],
    # Book of the Outcast pp18-30: Leader, Champion, and Hive Scum as its Gangers
    "outcasts": [L, C, G, G],
    # House of Chains p132: "Ogryn Overboss (Leader)"; Underboss Champion (Gyrinx)
    "slave-ogryns": [L, C, G, G],
    # House of Chains pp46-56: the Bully is the Goliath Juve, the Bruiser the Ganger
    "goliath": [L, C, C, P, G, J],
    # an Orlock gang hiring: Propagandist, Fixer (Book of Judgement pp88-90), Slopper,
    # Rogue Doc, Ammo-Jack (Hangers-on), Ambot and Servitor Ogryn (Brutes: Book of the
    # Outcast pp44-46), a House Agent and Hive Scum (Hired Guns), a Bounty Hunter
    "hangers-on-and-brutes": [L, C, H, H, H, H, H, B, B, HG, HG, BH],
}


def load(name: str) -> dict:
    return json.loads((FAMILIES / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("family", sorted(EXPECTED))
def test_every_fighter_of_the_family_gets_its_role_without_a_question(family: str) -> None:
    result = gang_from_yaktribe(load(family))
    got = [(f.label, f.type) for f in result.gang.fighters]
    assert [role for _, role in got] == EXPECTED[family], got
    assert result.unknown_types == {}
    leaders = [f for f in result.gang.fighters if f.type is L]
    assert len(leaders) == 1  # every gang list has one Leader


def test_every_family_imports_into_one_campaign_without_a_question(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    with store.create_campaign(Campaign(id="every-gang", name="Every Gang")) as handle:
        for family in sorted(EXPECTED):
            import_yaktribe(handle, FAMILIES / f"{family}.json")  # RolesNeeded if asked
        assert len(handle.campaign.gangs) == len(EXPECTED)
        assert handle.campaign.fighter_roles == {}  # nothing had to be asked
        # Spyrers: no source for their names' roles, so the question stays
        with pytest.raises(RolesNeeded) as asked:
            import_yaktribe(handle, FAMILIES / "spyrers.json")
        assert list(asked.value.result.unknown_types) == ["Orrus", "Jakara", "Malcadon", "Yeld"]


def test_a_name_means_its_own_gang_s_role() -> None:
    # Hive Scum are the Outcasts' Gangers (Book of the Outcast p30), Hired Guns elsewhere
    assert fighter_type_from_label("Hive Scum", gang="Outcasts") is G
    assert fighter_type_from_label("Hive Scum", gang="Orlock") is HG
    assert fighter_type_from_label("Hive Scum") is HG


def test_spellings_and_prefixes_as_the_books_and_managers_write_them() -> None:
    assert fighter_type_from_label("Kha\u2019tragi Chieftain") is L  # curly apostrophe
    assert fighter_type_from_label("Tarh'nuki Dust Rider") is P  # the book's spelling
    assert fighter_type_from_label("House Escher Khymerix") is B  # House of Blades p56
    assert fighter_type_from_label("Goliath 'Zerker") is B  # House of Chains p70
    assert fighter_type_from_label("Escher Gang Queen") is L
    assert fighter_type_from_label("Queen") is L  # House of Blades p32 (Gyrinx: Champion)
    # no source: asked, never guessed
    for name in ("Psychic Familiar", "Chaos Spawn", "Orrus", "Iron Rider", "Cyber-mastiff"):
        assert fighter_type_from_label(name) is None, name


def test_rules_export_lists_each_gang_list_with_its_book() -> None:
    roles = export_section()["fighter_roles"]
    books = {entry["gang"]: entry["book"] for entry in roles["lists"]}
    for gang in ("Palanite Enforcers", "Genestealer Cults", "Helot Chaos Cults",
                 "Corpse Grinder Cults", "Slave Ogryns", "Venators", "Ash Wastes Nomads",
                 "Ironhead Squat Prospectors", "Underhive Outcasts", "Hangers-on (any gang)",
                 "Brutes (any gang)"):
        assert books[gang], gang
    assert books["Slave Ogryns"].startswith("House of Chains")
    assert all(entry["source"] for entry in roles["lists"])
    assert roles["gangs"][0]["types"] == {"hive scum": "Ganger"}


def test_the_books_names_of_the_gang_lists_are_read() -> None:
    raw = load("ash-wastes-nomads")
    raw["gang"]["gang_type"] = "Ash Wastes Nomads"  # Book of the Outlands
    result = gang_from_yaktribe(raw)
    assert result.gang.type is GangType.ASH_WASTE_NOMADS
    assert not any("not one the app knows" in w for w in result.warnings)
    raw = load("chaos-cult")
    raw["gang"]["gang_type"] = "Helot Chaos Cult"  # The Book of Ruin p25
    assert gang_from_yaktribe(raw).gang.type is GangType.CHAOS_CULTISTS
