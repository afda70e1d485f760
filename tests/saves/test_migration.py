"""Schema versions: older files are migrated after a backup, newer ones refused."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from munda_tui.rules.core.model import Equipment, FighterStatus, GangType
from munda_tui.saves import SaveError
from munda_tui.saves.check import check_paths
from munda_tui.saves.codec import MIGRATIONS, SCHEMA_VERSIONS, migrate

# The pre-release format (schema_version 0), as a player might have it.
V0 = (Path(__file__).parent / "v0_campaign.toml").read_text(encoding="utf-8")


def _write_campaign(store, slug: str, text: str):
    directory = store.campaigns_dir / slug
    directory.mkdir(parents=True)
    path = directory / "campaign.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_version_0_is_migrated_after_a_backup(store):
    assert 0 in MIGRATIONS["campaign"] and SCHEMA_VERSIONS["campaign"] == 2
    path = _write_campaign(store, "tuesday", V0)
    with store.open_campaign("tuesday") as handle:
        c = handle.campaign
        assert (c.id, c.name, c.notes) == ("tuesday", "Tuesday Night Sump", "Started before munda-tui 0.1")
        assert c.settings.post_battle_ruleset == "turf-war-2017"
        skulls, sisters = c.gangs
        assert (skulls.type, skulls.credits, skulls.reputation) == (GangType.GOLIATH, 140, 6)
        assert [t.name for t in skulls.territories] == ["Old Ruins", "Drinking Hole"]
        krag = skulls.fighter("krag")
        assert (krag.xp, krag.status) == (11, FighterStatus.RECOVERY)
        assert krag.equipment == [Equipment("Renderizer", 60), Equipment("Frag grenades", 30), Equipment("Lucky charm", None)]
        assert skulls.fighter("brak").status is FighterStatus.ACTIVE
        assert (sisters.type, sisters.credits, sisters.fighters) == (GangType.ESCHER, 20, [])
        assert c.battles == []
        assert skulls.rating == 130 + 90 + 60
    # the original is kept, byte for byte, and never pruned by rotation
    kept = path.parent / ".backups" / "campaign.toml.schema0.bak"
    assert kept.read_text(encoding="utf-8") == V0
    # the file now has the current schema (the settings; each gang a file of its own);
    # the player's comments survive: on the settings in campaign.toml, on a gang in its file
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert data["schema_version"] == 2 and "campaign" not in data and "gangs" not in data
    assert "# Tuesday club campaign" in text
    assert sorted(p.name for p in (path.parent / "gangs").iterdir()) == ["sisters.toml", "skulls.toml"]
    assert 'name = "Iron Skulls"  # Bo\'s gang' in kept.read_text(encoding="utf-8")
    skulls_text = (path.parent / "gangs" / "skulls.toml").read_text(encoding="utf-8")
    assert 'name = "Iron Skulls"  # Bo\'s gang' in skulls_text
    assert 'name = "Krag"  # the boss' in skulls_text
    with store.open_campaign("tuesday") as handle:
        for credits in range(8):
            handle.campaign.gangs[0].credits = credits
            handle.save()
        assert kept in store.backups(path)
    assert kept.read_text(encoding="utf-8") == V0


def test_migration_is_a_pure_function(store):
    data = tomllib.loads(V0)
    before = tomllib.loads(V0)
    new, version = migrate(data, "campaign")
    assert version == 0 and new["schema_version"] == 2
    assert data == before


def test_a_bad_version_0_file_is_reported_and_untouched(store):
    text = V0.replace('status = "In Recovery"', 'status = "Sulking"')
    path = _write_campaign(store, "tuesday", text)
    with pytest.raises(SaveError, match="unknown status 'Sulking'") as caught:
        store.open_campaign("tuesday")
    assert caught.value.path == path
    assert path.read_text(encoding="utf-8") == text
    assert not (path.parent / ".backups").exists()


def test_newer_schema_is_refused_and_never_written(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        path = handle.file
        handle.save_battle(1, {"extra": {"a": 1}})
        battle = handle.battle_path(1)
    newer = path.read_text(encoding="utf-8").replace("schema_version = 2", "schema_version = 3", 1)
    path.write_text(newer, encoding="utf-8")
    with pytest.raises(SaveError) as caught:
        store.open_campaign("demo")
    error = caught.value
    assert "newer munda-tui" in error.message and "schema_version 3" in error.message
    assert (error.line, error.column) == (1, 1)
    assert path.read_text(encoding="utf-8") == newer
    assert not (path.parent / ".lock").exists()
    [info] = store.list_campaigns()
    assert "newer munda-tui" in info.error
    assert check_paths([path]) == [str(error)]

    # a newer battle file in an openable campaign: refused on load and on save
    path.write_text(newer.replace("schema_version = 3", "schema_version = 2", 1), encoding="utf-8")
    battle_newer = battle.read_text().replace("schema_version = 1", "schema_version = 5")
    battle.write_text(battle_newer)
    with store.open_campaign("demo") as handle:
        with pytest.raises(SaveError, match="newer munda-tui"):
            handle.load_battle(1)
        with pytest.raises(SaveError, match="newer munda-tui"):
            handle.save_battle(1, {"extra": {"b": 2}})
    assert battle.read_text() == battle_newer


@pytest.mark.parametrize(
    ("line", "message"),
    [("", "missing schema_version"), ('schema_version = "1"', "schema_version: expected an integer"), ("schema_version = -1", "unknown schema_version -1")],
)
def test_missing_or_odd_schema_version(store, line, message):
    path = _write_campaign(store, "odd", f'{line}\nid = "odd"\nname = "Odd"\n')
    with pytest.raises(SaveError, match=message):
        store.open_campaign("odd")


def test_a_campaign_saved_with_a_dead_fighter_on_the_roster_opens(store):
    """Saves written before the fallen were kept hold the dead on the roster with status
    "dead". Seed 004, Delete Dead Fighters: "All dead fighters are removed from the gang's
    roster now": the file opens, the fighter is among the gang's fallen, and the next save
    writes them there ([[gangs.fallen]]), read back the same."""
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.saves import codec, tomldoc, tomllayout

    data = codec.campaign_to_data(demo_campaign())
    data["schema_version"] = 1  # (the whole campaign in campaign.toml, as it was then)
    skulls = next(g for g in data["gangs"] if g["id"] == "iron-skulls")
    del skulls["fallen"]
    thug = next(f for f in skulls["fighters"] if f["id"] == "thug-varro")
    thug.update(status="dead", status_why="Memorable Death", status_battle=3)
    path = _write_campaign(store, "old", tomllayout.dumps(data, tomldoc.CAMPAIGN_LAYOUT))
    assert "[[gangs.fallen]]" not in path.read_text(encoding="utf-8")
    with store.open_campaign("old") as handle:
        g = handle.campaign.gang("iron-skulls")
        assert "thug-varro" not in [f.id for f in g.fighters]
        assert [(f.id, f.status_why, f.status_battle) for f in g.fallen] == [
            ("thug-varro", "Memorable Death", 3)]
        handle.save()
    assert "[[fallen]]" in (path.parent / "gangs" / "iron-skulls.toml").read_text(encoding="utf-8")
    with store.open_campaign("old") as handle:
        assert [f.id for f in handle.campaign.gang("iron-skulls").fallen] == ["thug-varro"]
