"""Backups (last 5 versions), stale temp files, failed writes, restoring."""

from __future__ import annotations

import os
import tomllib

import pytest

from munda_tui.saves import SaveError
from munda_tui.saves.atomic import atomic_write_text, backup_file, backups_of, clean_stale_temps


def _credits(path) -> int:
    return tomllib.loads(path.read_text())["credits"]


def _gang_file(handle, i=0):
    return handle.path / "gangs" / f"{handle.campaign.gangs[i].id}.toml"


def test_campaign_backups_keep_the_last_five_versions(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        for credits in range(1, 9):
            handle.campaign.gangs[0].credits = credits
            handle.save()
        gang_file = _gang_file(handle)
        backups = store.backups(gang_file)
        assert len(backups) == 5
        assert len(list((handle.path / ".backups" / "gangs").iterdir())) == 5
        assert not (handle.path / ".backups" / "campaign.toml.000001.bak").exists()  # unchanged
        # newest first: the versions before the current one (8)
        assert [_credits(b) for b in backups] == [7, 6, 5, 4, 3]
        assert _credits(gang_file) == 8


def test_battle_backups_keep_the_last_five_versions(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        for n in range(10):
            handle.save_battle(3, {"battle": {"n": n}})
        backups = store.backups(handle.battle_path(3))
        assert [b.parent.name for b in backups] == ["battles"] * 5
        assert [tomllib.loads(b.read_text())["battle"]["n"] for b in backups] == [8, 7, 6, 5, 4]


def test_backup_file_rotation_and_names(tmp_path):
    target = tmp_path / "x.toml"
    bdir = tmp_path / ".backups"
    assert backup_file(target, bdir) is None
    for i in range(7):
        atomic_write_text(target, f"v = {i}\n", backup_dir=bdir)
    names = [p.name for p in backups_of(target, bdir)]
    assert names == [f"x.toml.{n:06d}.bak" for n in (6, 5, 4, 3, 2)]
    assert target.read_text() == "v = 6\n"


def test_stale_temp_files_are_cleaned_when_a_campaign_opens(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        handle.save_battle(1, {"setup": {}})
        directory = handle.path
    stale = [
        directory / ".campaign.toml.999999999.0a1b2c3d.tmp",
        directory / "battles" / ".0001.toml.12345.deadbeef.tmp",
    ]
    for p in stale:
        p.write_text("half a file")
    keep = directory / "notes.txt"
    keep.write_text("players' notes")
    with store.open_campaign("demo"):
        assert not any(p.exists() for p in stale)
        assert keep.exists()


def test_clean_stale_temps_spares_live_writers(tmp_path):
    live = tmp_path / f".config.toml.{os.getppid()}.00000000.tmp"
    dead = tmp_path / ".config.toml.999999999.00000000.tmp"
    other = tmp_path / ".hidden.tmp"
    for p in (live, dead, other):
        p.write_text("x")
    assert clean_stale_temps(tmp_path) == [dead]
    assert live.exists() and other.exists()
    assert clean_stale_temps(tmp_path, all_temps=True) == [live]


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path, monkeypatch):
    target = tmp_path / "campaign.toml"
    target.write_text("old = 1\n")

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError, match="No space"):
        atomic_write_text(target, "new = 2\n", backup_dir=tmp_path / ".backups")
    assert target.read_text() == "old = 1\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_broken_campaign_is_never_overwritten_and_a_backup_is_offered(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        for credits in (10, 20, 30):
            handle.campaign.gangs[0].credits = credits
            handle.save()
        path = _gang_file(handle)
    newest_backup = store.backups(path)[0]
    # the newest backup is broken too; the one before it loads
    newest_backup.unlink()
    newest_backup.write_text("this is not TOML")
    broken = path.read_bytes().replace(b"credits = 30", b"credits = thirty")
    path.write_bytes(broken)
    with pytest.raises(SaveError) as caught:
        store.open_campaign("demo")
    error = caught.value
    assert error.path == path
    assert (error.line, error.column) > (1, 1)
    assert path.read_bytes() == broken
    [info] = store.list_campaigns()
    assert info.error == str(error)

    good = store.newest_loadable_backup(path)
    assert good == store.backups(path)[1]
    assert _credits(good) == 10
    store.restore_backup(good, path)
    with store.open_campaign("demo") as handle:
        assert handle.campaign.gangs[0].credits == 10
    # the broken file is kept aside, not lost
    kept = path.parent.parent / ".backups" / "gangs" / f"{path.name}.broken.bak"
    assert kept.read_bytes() == broken


def test_restore_refuses_a_backup_that_does_not_load(store, demo_campaign, tmp_path):
    with store.create_campaign(demo_campaign) as handle:
        path = handle.file
    bad = tmp_path / "bad.toml"
    bad.write_text("schema_version = 1\n")
    before = path.read_bytes()
    with pytest.raises(SaveError, match="missing key"):
        store.restore_backup(bad, path)
    assert path.read_bytes() == before


def test_no_loadable_backup(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        assert store.newest_loadable_backup(handle.file) is None


def test_broken_battle_file_is_not_overwritten_and_can_be_restored(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        handle.save_battle(2, {"battle": {"events": [{"kind": "start"}]}})
        handle.save_battle(2, {"battle": {"events": [{"kind": "start"}, {"kind": "ooa"}]}})
        path = handle.battle_path(2)
    path.write_text('schema_version = 1\n[battle]\nevents = [{kind = "start"},\n')
    broken = path.read_bytes()
    with store.open_campaign("demo") as handle:
        with pytest.raises(SaveError) as caught:
            handle.load_battle(2)
        assert caught.value.path == path
        with pytest.raises(SaveError):
            handle.save_battle(2, {"battle": {}})
        assert path.read_bytes() == broken
        backup = store.newest_loadable_backup(path)
        assert backup is not None
        store.restore_backup(backup, path)  # works while the campaign is open
        assert handle.load_battle(2) == {"battle": {"events": [{"kind": "start"}]}}
        handle.save_battle(2, {"battle": {}})
        assert handle.load_battle(2) == {"battle": {}}


def test_delete_battle_keeps_a_copy(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        handle.save_battle(4, {"extra": {"x": 1}})
        name = handle.battle_path(4).name
        handle.delete_battle(4)
        assert handle.battle_numbers() == []
        assert (handle.path / ".backups" / "battles" / f"{name}.deleted.bak").exists()


def test_files_broken_from_outside_while_open_are_kept_aside(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        handle.save_battle(1, {"battle": {"n": 1}})
        handle.battle_path(1).write_text("broken = [")
        handle.save_battle(1, {"battle": {"n": 2}})
        assert handle.load_battle(1) == {"battle": {"n": 2}}
        name = handle.battle_path(1).name
        assert (handle.path / ".backups" / "battles" / f"{name}.broken.bak").read_text() == "broken = ["

        handle.file.write_text("also broken = [")
        handle.campaign.gangs[0].credits = 1
        handle.save()
        assert (handle.path / ".backups" / "campaign.toml.broken.bak").read_text() == "also broken = ["
    with store.open_campaign("demo") as handle:
        assert handle.campaign.gangs[0].credits == 1


def test_store_start_cleans_temps_of_dead_writers(store, demo_campaign):
    from munda_tui.saves import Store

    with store.create_campaign(demo_campaign) as handle:
        directory = handle.path
    dead = directory / ".campaign.toml.999999999.0a1b2c3d.tmp"
    live = directory / f".campaign.toml.{os.getppid()}.0a1b2c3d.tmp"
    dead.write_text("x")
    live.write_text("x")
    Store(store.data_dir)
    assert not dead.exists() and live.exists()


def test_battle_saves_sync_their_folder_in_the_background(store, demo_campaign, monkeypatch):
    """The per-event save renames before returning; the folder fsync follows on a
    thread, and closing the campaign waits for it."""
    from munda_tui.saves import atomic

    synced = []
    real = atomic.fsync_dir
    monkeypatch.setattr(atomic, "fsync_dir", lambda d: (synced.append(d), real(d)))
    handle = store.create_campaign(demo_campaign)
    synced.clear()
    handle.save_battle(1, {"battle": {"events": [{"kind": "round"}]}})
    assert handle.load_battle(1) == {"battle": {"events": [{"kind": "round"}]}}
    handle.close()
    assert handle.battle_path(1).parent in synced
