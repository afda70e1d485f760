"""The folder that merges (campaign schema 2): one file per gang, one per battle under a
name no two laptops choose, the settings alone in campaign.toml; the old folder migrated
in one transaction (a kill at any moment leaves a campaign that opens whole)."""

from __future__ import annotations

import copy
import os
import random
import signal
import time
import tomllib
from pathlib import Path

import pytest

from munda_tui.rules.core.model import BattleSummary
from munda_tui.saves import Store, codec, journal, tomlemit, tomllayout, tomldoc
from munda_tui.saves.check import check_paths
from munda_tui.saves.folder import load_campaign_dir

from support import kills


def _battle(n: int) -> dict:
    return {"setup": {}, "battle": {"log": [{"kind": "start", "round": n}], "seen": {}},
            "report": {"markdown": f"# Battle {n}\n"}}


def write_old_folder(data_dir: Path, campaign, battles: dict[int, dict], slug: str = "old") -> Path:
    """A campaign folder as munda-tui wrote it before the split (schema 1)."""
    directory = data_dir / "campaigns" / slug
    (directory / "battles").mkdir(parents=True)
    campaign = copy.deepcopy(campaign)
    campaign.id = slug
    data = codec.campaign_to_data(campaign)
    data["schema_version"] = 1
    (directory / "campaign.toml").write_text(tomllayout.dumps(data, tomldoc.CAMPAIGN_LAYOUT), encoding="utf-8")
    for n, body in battles.items():
        (directory / "battles" / f"{n:04d}.toml").write_text(tomlemit.dumps(codec.battle_to_data(body)), encoding="utf-8")
    return directory


def _old_league(full_campaign, battles: int = 3):
    campaign = copy.deepcopy(full_campaign)
    campaign.battles = [BattleSummary(n, f"2026-02-{n % 28 + 1:02d}", "Stand-off", [g.id for g in campaign.gangs[:2]],
                                      status="done") for n in range(1, battles + 1)]
    return campaign, {n: _battle(n) for n in range(1, battles + 1)}


def test_an_old_folder_is_split_on_open_and_keeps_a_backup(store, full_campaign):
    campaign, battles = _old_league(full_campaign)
    directory = write_old_folder(store.data_dir, campaign, battles)
    old_text = (directory / "campaign.toml").read_text()
    campaign.id = "old"
    with store.open_campaign("old") as handle:
        assert handle.campaign == campaign
        assert handle.battle_numbers() == [1, 2, 3]
        assert [handle.load_battle(n) for n in (1, 2, 3)] == [battles[n] for n in (1, 2, 3)]
        names = sorted(p.name for p in handle.battles_dir.iterdir())
    # the settings alone in campaign.toml, a file per gang, a battle file per battle with
    # its number and summary, named by its date and a random part; nothing numbered left
    data = tomllib.loads((directory / "campaign.toml").read_text())
    assert data["schema_version"] == 2 and "gangs" not in data and "battles" not in data
    assert sorted(p.name for p in (directory / "gangs").iterdir()) == sorted(f"{g.id}.toml" for g in campaign.gangs)
    assert len(names) == 3 and all(n[:11] in ("2026-02-02-", "2026-02-03-", "2026-02-04-") for n in names)
    one = tomllib.loads((directory / "battles" / names[0]).read_text())
    assert one["number"] == 1 and one["summary"]["status"] == "done" and "number" not in one["summary"]
    # a gang names a battle by its file (Krag's injury of battle 2), never by the number a
    # league's merge may change (read back as 2 above)
    two = next(n for n in names if tomllib.loads((directory / "battles" / n).read_text())["number"] == 2)
    skulls = tomllib.loads((directory / "gangs" / "iron-skulls.toml").read_text())
    assert skulls["fighters"][0]["injuries"][0]["battle"] == two.removesuffix(".toml")
    # the old files kept, byte for byte
    assert (directory / ".backups" / "campaign.toml.schema1.bak").read_text() == old_text
    assert sorted(p.name for p in (directory / ".backups" / "battles").iterdir()) == [
        "0001.toml.schema1.bak", "0002.toml.schema1.bak", "0003.toml.schema1.bak"]
    assert not (directory / journal.JOURNAL_FILE).exists()
    assert check_paths([directory]) == []
    with store.open_campaign("old") as handle:  # opens as it was left, nothing migrated again
        assert handle.campaign == campaign
        assert [handle.load_battle(n) for n in (1, 2, 3)] == [battles[n] for n in (1, 2, 3)]
    assert load_campaign_dir(directory)[0] == campaign
    assert len(list((directory / ".backups").glob("campaign.toml.schema1*"))) == 1


def test_two_laptops_new_battles_never_share_a_file_and_a_shared_number_is_moved(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        for date in ("2026-03-01", "2026-03-01"):
            handle.campaign.battles.append(BattleSummary(handle.campaign.next_battle_number(), date))
            handle.save()
        first, second = handle.battle_path(1), handle.battle_path(2)
        slug, directory = handle.slug, handle.path
    assert first.name != second.name and first.name.startswith("2026-03-01-")
    # another laptop's battle 2 arrives (as git brings it): two files say "number = 2"
    other = directory / "battles" / "2026-03-02-abcdef.toml"
    other.write_text(second.read_text().replace('date = "2026-03-01"', 'date = "2026-03-02"'))
    with store.open_campaign(slug) as handle:
        assert [(b.number, b.date) for b in handle.campaign.battles] == [
            (1, "2026-03-01"), (2, "2026-03-01"), (3, "2026-03-02")]
        assert handle.battle_path(3) == other
        handle.save()  # the file is told its new number, as every laptop tells it
    assert tomllib.loads(other.read_text())["number"] == 3
    with store.open_campaign(slug) as handle:
        assert [b.number for b in handle.campaign.battles] == [1, 2, 3]


def test_a_save_of_several_files_is_all_or_nothing(store, full_campaign, monkeypatch):
    with store.create_campaign(copy.deepcopy(full_campaign)) as handle:
        slug, directory = handle.slug, handle.path
    before = load_campaign_dir(directory)[0]

    def change(handle):
        handle.campaign.gangs[0].credits += 100
        handle.campaign.gangs[1].credits += 100
        handle.campaign.notes = "changed"

    # the journal never written (a full disk): nothing changed, the side files swept
    real_write = journal.atomic_write_text
    monkeypatch.setattr(journal, "atomic_write_text", lambda *a, **k: (_ for _ in ()).throw(OSError(28, "No space left on device")))
    with store.open_campaign(slug) as handle:
        change(handle)
        with pytest.raises(Exception, match="No space"):
            handle.save()
    monkeypatch.setattr(journal, "atomic_write_text", real_write)
    assert load_campaign_dir(directory)[0] == before
    assert not [p for p in directory.rglob("*.jnew")]
    # the journal written, then the process dies before a rename: the next open finishes
    monkeypatch.setattr(journal, "roll_forward", lambda root: True)
    with store.open_campaign(slug) as handle:
        change(handle)
        expected = copy.deepcopy(handle.campaign)
        handle.save()
        assert (directory / journal.JOURNAL_FILE).exists()
    monkeypatch.undo()
    assert load_campaign_dir(directory)[0] == before  # (the files themselves: not yet)
    with store.open_campaign(slug) as handle:
        assert handle.campaign == expected
    assert not (directory / journal.JOURNAL_FILE).exists()
    assert not [p for p in directory.rglob("*.jnew")]


def _migrate_until_killed(data_dir: Path, ready: int) -> None:
    os.write(ready, b"o")
    Store(data_dir).open_campaign("old").close()
    os.write(ready, b"d")
    time.sleep(60)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_a_kill_during_the_migration_leaves_a_campaign_that_opens(store, full_campaign, tmp_path):
    """SIGKILL at random moments of the migration: the folder then opens, every time,
    as the whole campaign with every battle, never half old and half new."""
    campaign, battles = _old_league(full_campaign, battles=80)
    expected = copy.deepcopy(campaign)
    expected.id = "old"
    template = write_old_folder(tmp_path / "template", campaign, battles)
    # how long one migration takes here, to spread the kills over it
    t0 = time.perf_counter()
    timing = Store(tmp_path / "timing")
    import shutil

    shutil.copytree(template, tmp_path / "timing" / "campaigns" / "old")
    timing.open_campaign("old").close()
    duration = time.perf_counter() - t0
    rng = random.Random(27)
    outcomes = {"old": 0, "new": 0, "journal": 0}
    runs = kills(24)
    for i in range(runs):
        directory = store.campaigns_dir / "old"
        shutil.rmtree(directory, ignore_errors=True)
        shutil.copytree(template, directory)
        ready, done = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            try:
                os.close(ready)
                _migrate_until_killed(store.data_dir, done)
            finally:
                os._exit(1)
        os.close(done)
        try:
            assert os.read(ready, 1) == b"o"
            if i % 8 == 7 or i == runs - 1:  # now and then, let the migration end first (on a loaded
                assert os.read(ready, 1) == b"d"  # machine it outlasts the timing run)
            time.sleep(0.0 if i == 0 else rng.uniform(0.0, duration * 1.1))
        finally:
            os.kill(pid, signal.SIGKILL)
            os.close(ready)
        os.waitpid(pid, 0)
        version = tomllib.loads((directory / "campaign.toml").read_text())["schema_version"]
        outcomes["journal" if (directory / journal.JOURNAL_FILE).exists() else "new" if version == 2 else "old"] += 1
        with Store(store.data_dir).open_campaign("old") as handle:
            assert handle.campaign == expected, f"kill {i}"
            assert handle.battle_numbers() == list(range(1, 81)), f"kill {i}"
            assert [handle.load_battle(n) for n in (1, 40, 80)] == [battles[n] for n in (1, 40, 80)]
        assert not [p for p in directory.rglob("*.jnew")]
        assert not list((directory / "battles").glob("0*.toml")), f"kill {i}: old battle files left"
        assert (directory / ".backups" / "battles" / "0080.toml.schema1.bak").exists()
    assert outcomes["old"] and outcomes["new"], outcomes


def test_a_hand_edit_of_a_gang_file_while_open_is_kept_aside_and_said(store, full_campaign):
    notices: list[str] = []
    store.on_notice = notices.append
    with store.create_campaign(copy.deepcopy(full_campaign)) as handle:
        path = handle.path / "gangs" / "iron-skulls.toml"
        edited = path.read_text().replace("credits = 120", "credits = 9", 1)
        path.write_text(edited)
        handle.campaign.gang("iron-skulls").notes = "changed in the app"
        handle.campaign.gang("venom-sisters").notes = "and another gang"  # (two files: one transaction)
        handle.save()
    kept = handle.path / ".backups" / "gangs" / "iron-skulls.toml.edited.bak"
    assert kept.read_text() == edited
    assert notices and notices[0].startswith("gangs/iron-skulls.toml was changed outside munda-tui")


def test_every_field_of_a_gang_that_names_a_battle_is_marked_so(tmp_path):
    """A field of a gang (or of what it holds) that names a battle by number is written
    by its battle's file (saves.folder): the model marks it ``BATTLE_REF``; a new such
    field left unmarked would go stale at a league's merge."""
    import dataclasses
    import typing

    from munda_tui.rules.core import model as m

    def walk(cls, seen):
        for f in dataclasses.fields(cls):
            if "battle" in f.name:
                yield cls.__name__, f.name, bool(f.metadata.get("battle"))
            for arg in typing.get_args(typing.get_type_hints(cls)[f.name]):
                if dataclasses.is_dataclass(arg) and arg not in seen:
                    seen.add(arg)
                    yield from walk(arg, seen)

    found = list(walk(m.Gang, {m.Gang}))
    assert ("Fighter", "status_battle", True) in found and ("LastingInjury", "battle", True) in found
    assert all(marked for _cls, _name, marked in found), found


def test_a_new_battle_file_is_named_after_the_summary_the_stages_move(store, demo_campaign):
    """Two summaries listed with one number (in memory: a save refuses it): the battle's
    file takes the date of the one ``rules.core.stage.summary_of`` finds, the first, as
    the stages move and the folder's read keeps (the earlier date keeps a shared number)."""
    from munda_tui.rules.core.stage import summary_of

    with store.create_campaign(demo_campaign) as handle:
        n = handle.campaign.next_battle_number()
        handle.campaign.battles += [BattleSummary(n, "2026-01-01"), BattleSummary(n, "2026-05-05")]
        assert summary_of(handle.campaign, n).date == "2026-01-01"
        assert handle.battle_path(n).name.startswith("2026-01-01-")


def test_comments_on_a_gang_in_the_old_campaign_toml_move_into_its_file(store, full_campaign):
    """The migration carries a hand-written comment in a gang's part of the old
    campaign.toml (a line of its own, one after a value, one on a fighter) into the gang's
    own file, where the next saves keep it."""
    campaign, battles = _old_league(full_campaign)
    directory = write_old_folder(store.data_dir, campaign, battles)
    path = directory / "campaign.toml"
    text = path.read_text()
    assert text.count('[[gangs]]\nid = "iron-skulls"') == 1 and text.count('name = "Krag Ironjaw"\n') == 1
    text = text.replace('[[gangs]]\nid = "iron-skulls"', '[[gangs]]\n# Bo\'s gang, since week 3\nid = "iron-skulls"')
    text = text.replace('name = "Krag Ironjaw"\n', 'name = "Krag Ironjaw"  # the boss\n')
    path.write_text(text)
    campaign.id = "old"
    with store.open_campaign("old") as handle:
        assert handle.campaign == campaign
        gang_file = handle.gangs_dir / "iron-skulls.toml"
        moved = gang_file.read_text()
        assert "# Bo's gang, since week 3\n" in moved and 'name = "Krag Ironjaw"  # the boss\n' in moved
        assert "# Bo's gang" not in (handle.gangs_dir / "venom-sisters.toml").read_text()
        handle.campaign.gang("iron-skulls").credits += 5
        handle.save()
        saved = gang_file.read_text()
        assert "# Bo's gang, since week 3\n" in saved and 'name = "Krag Ironjaw"  # the boss\n' in saved
        assert tomllib.loads(saved)["credits"] == campaign.gang("iron-skulls").credits + 5
    with store.open_campaign("old") as handle:
        assert handle.campaign.gang("iron-skulls").credits == campaign.gang("iron-skulls").credits + 5


def test_the_battle_index_is_checked_against_the_files(store, demo_campaign):
    """The battle index (.cache/battles.json: each file's summary by its inode, size and
    time, and a digest of them all) is derived: a file changed behind it is read again,
    an index that is torn, of the first format or names a summary it cannot give is
    rebuilt, and the campaign is always what the files say."""
    import json

    with store.create_campaign(demo_campaign) as handle:
        for date in ("2026-03-01", "2026-03-02", "2026-03-03"):
            handle.campaign.battles.append(BattleSummary(handle.campaign.next_battle_number(), date))
            handle.save()
        slug, directory, second = handle.slug, handle.path, handle.battle_path(2)
        dates = [b.date for b in handle.campaign.battles]
    index = directory / ".cache" / "battles.json"

    def opened():
        with store.open_campaign(slug) as h:
            return [b.date for b in h.campaign.battles]

    assert opened() == dates
    kept = json.loads(index.read_text())
    assert kept["v"] == 3 and isinstance(kept["digest"], str)
    assert all(isinstance(item[5], str) for item in kept["files"].values())
    second.write_text(second.read_text().replace('date = "2026-03-02"', 'date = "2026-04-02"'))
    assert opened() == [dates[0], "2026-04-02", dates[2]]  # changed behind the index: read
    for body in ("{torn", json.dumps({**kept, "files": {n: [*item[:5], "{not json", None]
                                                         for n, item in kept["files"].items()}}),
                 json.dumps({"salt": kept["salt"], "files": {n: [*item[:5], json.loads(item[5]), None]
                                                            for n, item in kept["files"].items()}})):
        index.write_text(body)
        assert opened() == [dates[0], "2026-04-02", dates[2]]
        assert json.loads(index.read_text())["v"] == 3


def test_a_save_leaves_the_files_of_gangs_it_did_not_change_as_they_are(store, full_campaign):
    """A save writes the gang files whose gang changed, nothing else: a gang file laid out
    by hand (its keys in another order, no comment) keeps its bytes while its gang is as
    the file says (in a league: no change to share, nothing for another laptop to merge)."""
    with store.create_campaign(full_campaign) as handle:
        slug, gangs_dir = handle.slug, handle.gangs_dir
    path = gangs_dir / "venom-sisters.toml"
    text = path.read_text()
    lines = text.split("\n[", 1)
    head = lines[0].splitlines()
    by_hand = "\n".join([head[0], *reversed(head[1:])]) + "\n\n[" + lines[1]
    assert by_hand != text and tomllib.loads(by_hand) == tomllib.loads(text)
    path.write_text(by_hand)
    skulls = gangs_dir / "iron-skulls.toml"
    with store.open_campaign(slug) as handle:
        handle.campaign.gang("iron-skulls").credits += 7
        handle.save()
        handle.campaign.gang("venom-sisters").credits += 1
        assert path.read_text() == by_hand  # (not its gang's change yet)
        assert tomllib.loads(skulls.read_text())["credits"] == full_campaign.gang("iron-skulls").credits + 7
        handle.save()
    assert tomllib.loads(path.read_text())["credits"] == full_campaign.gang("venom-sisters").credits + 1
    with store.open_campaign(slug) as handle:
        assert handle.campaign.gang("venom-sisters").credits == full_campaign.gang("venom-sisters").credits + 1


def test_the_collector_is_paused_while_a_campaign_is_read_then_as_it_was(store, demo_campaign, monkeypatch):
    """A campaign's read makes thousands of objects, none of them garbage: Python's
    cyclic collector waits from the read to the end of the decode, then is as it was
    (also after an opening cancelled, or a campaign that does not load)."""
    import gc

    from munda_tui.saves import folder

    with store.create_campaign(demo_campaign) as handle:
        slug = handle.slug
    seen = []
    real = folder.load_folder_cached  # (the open's decode: from .cache/decoded.json or the files)
    monkeypatch.setattr(folder, "load_folder_cached", lambda read: (seen.append(gc.isenabled()), real(read))[1])
    assert gc.isenabled()
    store.open_campaign(slug).close()
    assert seen == [False] and gc.isenabled()
    opening = store.begin_open(slug)
    assert not gc.isenabled()
    opening.cancel()
    assert gc.isenabled()
    gc.disable()
    try:
        store.open_campaign(slug).close()
        assert not gc.isenabled()  # (paused by its caller: left paused)
    finally:
        gc.enable()
    (store.campaign_dir(slug) / "campaign.toml").write_text("schema_version = 2\nname = [")
    with pytest.raises(Exception):
        store.open_campaign(slug)
    assert gc.isenabled()


def test_a_read_again_copies_a_gang_as_it_was_and_decodes_one_whose_battle_moved() -> None:
    """A sync's read after the merge (``store.reload``) copies each gang whose file is
    as the open read it (issue 30.9: not decoded again), but decodes again a gang that
    names a battle whose number moved, and never hands out the open's own object."""
    from munda_tui.rules.core.model import Fighter, Gang, LastingInjury
    from munda_tui.saves.folder import DecodedGangs

    gang = Gang(id="g1", name="Goliaths", fighters=[Fighter(id="f1", name="Thom",
                                                          injuries=[LastingInjury("Eye Injury", battle=3)])])
    raw = {"schema_version": 1, "order": 2, "id": "g1", "name": "Goliaths",
           "fighters": [{"id": "f1", "name": "Thom", "injuries": [{"name": "Eye Injury", "battle": "b3"}]}]}
    decoded = DecodedGangs({"g1.toml": "text"}, {"g1.toml": gang}, {"b3": 3})
    place, copy_ = decoded.copy("g1.toml", "text", raw, {"b3": 3}.get, None)
    assert place == 2 and copy_ == gang and copy_ is not gang
    assert copy_.fighters[0] is not gang.fighters[0]
    assert decoded.copy("g1.toml", "text", raw, {"b3": 4}.get, None) is None  # (its battle renumbered)
    assert decoded.copy("g1.toml", "other text", raw, {"b3": 3}.get, None) is None  # (its file changed)
    assert decoded.copy("g2.toml", "text", raw, {"b3": 3}.get, None) is None
