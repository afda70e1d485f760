"""Issue 30.9: a sync does its work once. The merge's fold is the campaign's (the
campaign read after it does not fold the same records again), each gang text a sync
checks is parsed once, records made within one second sort as they were made (the
laptop's own battles are not renumbered at its next open), and an open and close of an
unchanged campaign writes no cache. (The figures: scripts/bench.py --only merge.)"""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from munda_tui.saves import Store
from munda_tui.saves.league import sync

from league_support import league, play, two_laptops

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _merge_ready(tmp_path: Path) -> tuple[Store, Store]:
    """Ana's battle pushed, Bo's not yet: Bo's sync merges."""
    _remote, ana, bo = two_laptops(tmp_path)
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-02")
        assert sync(handle).pushed
    with bo.open_campaign("club-league") as handle:
        play(handle, "gang-03", "gang-04", 1, "2026-12-01")
    return ana, bo


def test_a_merge_folds_the_records_once_and_parses_each_gang_text_once(tmp_path: Path, monkeypatch) -> None:
    from munda_tui.rules.history import fold as folding
    from munda_tui.saves import folder

    _ana, bo = _merge_ready(tmp_path)
    folds: list[int] = []
    real_fold, real_parse = folding.fold, folder.parse_text
    parsed: Counter[str] = Counter()

    real_state, real_on = folding.fold_state, folding.fold_on
    on: list[int] = []

    def counted_fold(*args: Any, **kw: Any) -> Any:
        folds.append(1)
        return real_fold(*args, **kw)

    def counted_state(*args: Any, **kw: Any) -> Any:
        folds.append(1)
        return real_state(*args, **kw)

    def counted_on(*args: Any, **kw: Any) -> Any:
        folds.append(1)
        on.append(len(list(args[1])))
        return real_on(*args, **kw)

    def counted_parse(path: Path, text: str) -> Any:
        if path.parent.name == "gangs":
            parsed[text] += 1
        return real_parse(path, text)

    with bo.open_campaign("club-league") as handle:
        monkeypatch.setattr(folding, "fold", counted_fold)
        monkeypatch.setattr(folding, "fold_state", counted_state)
        monkeypatch.setattr(folding, "fold_on", counted_on)
        monkeypatch.setattr(folder, "parse_text", counted_parse)
        monkeypatch.setattr(folder, "_PARSED", {}, raising=False)  # (what this process parsed before: forgotten)
        result = sync(handle)
        monkeypatch.undo()
        assert result.pushed and len(result.received) >= 1
        assert len(folds) == 1, "the campaign read after the merge folded its records again"
        assert on == [2], "the merge did not fold on from the fold the open put aside (only the two new records)"
        assert parsed and max(parsed.values()) == 1, "a gang text was parsed more than once"
        taken = (handle.questions, handle._records.battles, handle._records.heads, handle._records.problems,
                 handle.battle_numbers_by_stem(), [g.credits for g in handle.campaign.gangs])
    shutil.rmtree(bo.campaign_dir("club-league") / ".cache")  # the same records folded afresh
    with bo.open_campaign("club-league") as handle:
        assert (handle.questions, handle._records.battles, handle._records.heads, handle._records.problems,
                handle.battle_numbers_by_stem(), [g.credits for g in handle.campaign.gangs]) == taken


def test_records_made_within_one_second_sort_as_they_were_made() -> None:
    from munda_tui.saves.records import new_key

    keys = [new_key("2026-12-01", []) for _ in range(40)]  # (the same second, most of them)
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert {k[0] for k in keys} == {"2026-12-01"}
    assert new_key("2026-11-30", [])[0] == "2026-11-30"  # (an earlier date keeps its date)


def test_an_unchanged_campaign_opened_and_closed_writes_no_fold_cache(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    with store.create_campaign(league(4)) as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
    store.open_campaign("club-league").close()
    cached = store.campaign_dir("club-league") / ".cache" / "records.json"
    before = cached.stat()
    store.open_campaign("club-league").close()
    after = cached.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    with store.open_campaign("club-league") as handle:  # a save that makes records: written again
        play(handle, "gang-03", "gang-04", 2, "2026-12-02")
    assert cached.stat().st_mtime_ns != before.st_mtime_ns
