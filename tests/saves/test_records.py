"""Records on disk (issue 30): every save that changes a gang writes the record that
explains it, the gang files are the fold of the records, an old campaign migrates on
open (nothing lost, twice the same), a hand edit becomes an edit record."""

from __future__ import annotations

import os
import re
import shutil
import sys
import tomllib
from pathlib import Path

import pytest

from munda_tui.rules.history.fold import fold
from munda_tui.saves import records
from munda_tui.saves.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from league_support import league, play  # noqa: E402


def _names(handle) -> list[str]:
    return sorted(os.listdir(handle.path / records.RECORDS_DIR))


def _fold_of_files(handle):
    refs = records.handle_refs(handle)
    recs, problems = records.read_records(handle.path, refs.number_of)
    assert problems == []
    return fold(recs, records.FileCodec(refs))


def _gang_files(handle) -> dict:
    out = {}
    for name in os.listdir(handle.gangs_dir):
        data = tomllib.loads((handle.gangs_dir / name).read_text())
        data.pop("schema_version")
        out[data["id"]] = data
    return out


@pytest.fixture
def store(tmp_path):
    return Store(tmp_path / "data")


def test_saves_write_records_and_the_gang_files_are_their_fold(store):
    h = store.prepare_campaign(league(4))
    h.write_prepared()
    assert [n.split("-start-")[0] for n in _names(h)] == ["0000-00-00"] * 4
    a, b = h.campaign.gangs[0].id, h.campaign.gangs[1].id
    play(h, a, b, 5, "2026-08-03")
    [battle] = [n for n in _names(h) if n.startswith("2026-08-03-")]
    data = tomllib.loads((h.path / "records" / battle).read_text())
    assert data["kind"] == "battle" and data["battle"] == h.battle_path(1).stem
    assert data["changes"] and all(c["gang"] in (a, b) for c in data["changes"])
    assert data["by"]
    h.campaign.gangs[0].credits += 10
    h.campaign.gangs[0].fighters[0].xp += 3
    h.save()
    edit = tomllib.loads((h.path / "records" / _names(h)[-1]).read_text())
    assert edit["kind"] == "edit" and edit["gang"] == a
    assert {"op": "add", "path": ["credits"], "amount": 10} in edit["changes"]
    assert _fold_of_files(h).gangs == _gang_files(h)
    h.close()


def test_an_old_campaign_migrates_on_open_with_nothing_lost_and_twice_the_same(store):
    h = store.prepare_campaign(league(3))
    h.write_prepared()
    play(h, h.campaign.gangs[0].id, h.campaign.gangs[1].id, 5, "2026-08-03")
    slug, directory = h.slug, h.path
    before = h.campaign
    h.close()
    shutil.rmtree(directory / "records")  # (a campaign made before records)
    shutil.rmtree(directory / ".cache")
    with store.open_campaign(slug) as h:
        assert h.campaign == before
        first = _names(h)
        assert len([n for n in first if "-start-" in n]) == 3
        assert len([n for n in first if "-applied-" in n]) == 1  # (its place among the battles)
        assert _fold_of_files(h).gangs == _gang_files(h)
        assert h._records.battles == [h.battle_path(1).stem]
    shutil.rmtree(directory / "records")
    shutil.rmtree(directory / ".cache")
    with store.open_campaign(slug) as h:
        assert _names(h) == first  # (a kill mid-way and again: the same files)
    with store.open_campaign(slug) as h:
        assert _names(h) == first and h.campaign == before


def test_a_hand_edit_becomes_an_edit_record_said_on_screen(store):
    h = store.prepare_campaign(league(2))
    h.write_prepared()
    slug, gid = h.slug, h.campaign.gangs[0].id
    path = h.gangs_dir / h._gang_files[gid]
    h.close()
    text = path.read_text()
    assert "credits = " in text
    path.write_text(text.replace("credits = ", "credits = 9", 1))
    said: list[str] = []
    store.on_notice = said.append
    with store.open_campaign(slug) as h:
        credits = h.campaign.gang(gid).credits
        assert str(credits).startswith("9")
        last = tomllib.loads((h.path / "records" / _names(h)[-1]).read_text())
        assert last["kind"] == "edit" and last["note"].startswith("hand edit")
        assert said == [f"gangs/{path.name} was edited outside munda-tui: recorded as a roster edit"]
        count = len(_names(h))
    shutil.rmtree(path.parent.parent / ".cache")
    with store.open_campaign(slug) as h:  # (taken in once: the fold gives the file now)
        assert len(_names(h)) == count and h.campaign.gang(gid).credits == credits
    assert len(said) == 1


def test_a_hand_edit_by_more_than_a_save_holds_is_recorded_as_the_value(store):
    """A gang's order edited by hand to the end of TOML's range: the edit record said the
    difference (beyond 64 bits: the record could not be written, the open ended in a
    traceback; check's fuzz found it). It says the new value instead, and reads back."""
    h = store.prepare_campaign(league(2))
    h.write_prepared()
    slug, gid = h.slug, h.campaign.gangs[1].id  # (its order is 1: the lowest minus 1 is out)
    path = h.gangs_dir / h._gang_files[gid]
    h.close()
    text = path.read_text()
    assert "\norder = 1\n" in text
    order = -(2**63)
    path.write_text(re.sub(r"\norder = -?\d+", f"\norder = {order}", text, count=1))
    with store.open_campaign(slug) as h:
        last = tomllib.loads((h.path / "records" / _names(h)[-1]).read_text())
        assert last["kind"] == "edit"
        assert {"op": "set", "path": ["order"], "value": order} in last["changes"]
    shutil.rmtree(path.parent.parent / ".cache")
    with store.open_campaign(slug):
        assert tomllib.loads(path.read_text())["order"] == order


def test_an_edit_that_would_add_beyond_a_save_is_a_question_not_a_file():
    from munda_tui.rules.history.fold import PatchError, apply_op

    with pytest.raises(PatchError) as error:
        apply_op({"order": 2**63 - 2}, {"op": "add", "path": ["order"], "amount": 5})
    assert error.value.kind == "range" and "more than a save can hold" in error.value.why


def test_records_a_sync_brought_rewrite_the_gang_file(store):
    h = store.prepare_campaign(league(2))
    h.write_prepared()
    slug, gid = h.slug, h.campaign.gangs[0].id
    was = h.campaign.gang(gid).credits
    h.campaign.gang(gid).credits += 7
    h.save()
    data = tomllib.loads((h.path / "records" / _names(h)[-1]).read_text())
    h.close()
    # another laptop's edit of the same gang arrives (its gang file not: the fold writes it)
    from munda_tui.saves import tomlemit

    data["id"] = data["id"][:-8] + "ffffffff"
    data["by"] = "the club's laptop"
    (store.campaign_dir(slug) / "records" / f"{data['date']}-{data['id']}.toml").write_text(tomlemit.dumps(data))
    with store.open_campaign(slug) as h2:
        assert h2.campaign.gang(gid).credits == was + 14
        assert _fold_of_files(h2).gangs == _gang_files(h2)
        assert h2.questions == []


def test_an_unchanged_campaign_opens_without_folding(store, monkeypatch):
    h = store.prepare_campaign(league(2))
    h.write_prepared()
    slug = h.slug
    h.close()
    with store.open_campaign(slug):
        pass

    def never(*_a, **_k):
        raise AssertionError("folded again")

    monkeypatch.setattr(records, "read_records", never)
    with store.open_campaign(slug):
        pass
