"""Reading gang files from disk: the real Yaktribe export, and unreadable,
malformed or foreign files, which change nothing. Campaign export round trip."""

from __future__ import annotations

from pathlib import Path

import pytest

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import Campaign
from munda_tui.saves import Store
from munda_tui.saves.export import (
    CampaignSnapshot,
    ExportError,
    import_campaign,
    read_export,
    write_export,
)
from munda_tui.rules.core.model import FighterType
from munda_tui.saves.importer import GangImportError, RolesNeeded, import_yaktribe, read_yaktribe

ROLES = {"Psychic Familiar": FighterType.HANGER_ON}

FIXTURE = Path(__file__).parents[1] / "fixtures" / "yaktribe" / "157849.json"


def test_reads_the_real_export() -> None:
    result = read_yaktribe(FIXTURE)
    assert result.gang.name == "Max's Marauders"
    assert len(result.gang.fighters) == 15 and len(result.gang.fallen) == 3  # the dead: fallen
    assert result.rating.matches


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"   \n", "the file is empty"),
        (b"\xff\xfe\x00garbage", "not a text file"),
        (b'{"gang": {"gang_name": "x", ', "not valid JSON at line 1"),
        (b"[1, 2, 3]", "not a Yaktribe gang export"),
        (b'{"name": "munda", "version": "1.0.0", "dependencies": {}}', "not a Yaktribe gang export"),
        (b'{"gang": {"gang_name": "X", "gangers": [{"name": "A", "xp": "lots"}]}}', "'lots' is not a whole number"),
        (b'{"gang": {"gang_name": "X", "gangers": "none"}}', "gangers: expected a list"),
    ],
)
def test_bad_files_are_explained(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "gang.json"
    path.write_bytes(content)
    with pytest.raises(GangImportError, match=message):
        read_yaktribe(path)


def test_missing_and_folder(tmp_path: Path) -> None:
    with pytest.raises(GangImportError, match="no such file"):
        read_yaktribe(tmp_path / "nope.json")
    with pytest.raises(GangImportError, match="is a folder"):
        read_yaktribe(tmp_path)


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + FIXTURE.read_bytes())
    assert read_yaktribe(path).gang.name == "Max's Marauders"


def test_import_into_campaign_saves_and_bad_file_changes_nothing(tmp_path: Path, data_dir: Path) -> None:
    store = Store(data_dir)
    handle = store.create_campaign(Campaign(id="sump", name="Sump"))
    file = data_dir / "campaigns" / "sump" / "campaign.toml"
    before = file.read_bytes()
    bad = tmp_path / "bad.json"
    bad.write_text('{"gang": {"gang_name": "Broken", "gangers": [{"name": "A", "cost": "x"}]}}')
    with pytest.raises(GangImportError):
        import_yaktribe(handle, bad)
    assert handle.campaign.gangs == []
    assert file.read_bytes() == before
    # one type name in the real file has no role the app can tell: asked, nothing saved
    with pytest.raises(RolesNeeded) as asked:
        import_yaktribe(handle, FIXTURE)
    assert list(asked.value.result.unknown_types) == ["Psychic Familiar"]
    assert file.read_bytes() == before
    result = import_yaktribe(handle, FIXTURE, roles=ROLES)
    with pytest.raises(GangImportError, match="already has a gang named"):
        import_yaktribe(handle, FIXTURE)  # the roles are remembered: only the name clashes
    handle.close()
    with store.open_campaign("sump") as h:
        assert [g.name for g in h.campaign.gangs] == ["Max's Marauders"]
        gang = h.campaign.gangs[0]
        assert gang == result.gang  # every field survives the save
        assert gang.fighters[0].equipment[0].cost is None
        assert gang.rating == 1715
        assert h.campaign.fighter_roles == {"psychic familiar": FighterType.HANGER_ON}


def test_export_round_trip_with_battles(tmp_path: Path, data_dir: Path) -> None:
    store = Store(data_dir)
    campaign = demo_campaign()
    campaign.gangs.append(read_yaktribe(FIXTURE).gang)
    with store.create_campaign(campaign) as h:
        h.save_battle(1, {"report": {"markdown": "Ambush at the sump.", "loot": ["Lasgun"]}})
        path = write_export(h, tmp_path)
        original = h.campaign
    assert path == tmp_path / "demo.munda.toml"
    loaded, battles = read_export(path)
    assert loaded == original
    assert battles == {1: {"report": {"markdown": "Ambush at the sump.", "loot": ["Lasgun"]}}}
    # another player imports it: a new folder, the same campaign and battle files
    other = Store(tmp_path / "other")
    with import_campaign(other, path) as h2:
        assert h2.campaign.id == "demo"
        assert h2.campaign.gangs == original.gangs
        assert h2.load_battle(1)["report"]["loot"] == ["Lasgun"]
    with import_campaign(other, path) as h3:
        assert h3.campaign.id == "demo-2"


def test_snapshot_reads_a_locked_campaign(data_dir: Path) -> None:
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as h:
        h.save_battle(2, {"extra": {"scenario": "Ambush"}})
        snap = CampaignSnapshot(Store(data_dir), "demo")  # while the app holds the lock
        assert snap.campaign == h.campaign
        assert snap.battle_numbers() == [2]
        assert snap.load_battle(2) == {"extra": {"scenario": "Ambush"}}
        with pytest.raises(KeyError):
            snap.load_battle(3)


def test_read_export_refuses_foreign_files(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text('title = "a pyproject"\n')
    with pytest.raises(ExportError, match="not a munda-tui campaign export"):
        read_export(path)
    path.write_text("this is = = not toml")
    with pytest.raises(ExportError, match="not valid TOML"):
        read_export(path)
    path.write_text('format = "munda-tui-campaign"\n[campaign]\nschema_version = 1\nid = "x"\nname = "X"\nbogus = 1\n')
    with pytest.raises(ExportError, match="bogus"):
        read_export(path)
    with pytest.raises(ExportError, match="no such file"):
        read_export(tmp_path / "missing.toml")
