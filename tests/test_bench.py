"""Smoke tests of the benchmark's building blocks (scripts/bench.py) on tiny inputs.

No timing is asserted: the benchmark is run by hand (``python scripts/bench.py``);
these only prove its parts still work against the app, the rules and the saves.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts import bench
from scripts.generate import league_campaign


def test_percentile_interpolates_between_ranks() -> None:
    assert bench.percentile([3.0, 1.0, 2.0], 50) == 2.0
    assert bench.percentile([1.0, 2.0, 3.0, 4.0], 95) == pytest.approx(3.85)
    assert bench.percentile([5.0], 95) == 5.0
    with pytest.raises(ValueError):
        bench.percentile([], 50)


def test_league_campaign_has_the_asked_shape() -> None:
    campaign = league_campaign(gangs=3, fighters=7, battles=5)
    assert len(campaign.gangs) == 3
    assert [len(g.fighters) for g in campaign.gangs] == [7, 7, 7]
    assert len({g.id for g in campaign.gangs}) == 3
    assert [b.number for b in campaign.battles] == [1, 2, 3, 4, 5]
    gang_ids = {g.id for g in campaign.gangs}
    for b in campaign.battles:
        assert len(set(b.gangs)) == 2 and set(b.gangs) <= gang_ids
        assert set(b.standings) == set(b.gangs)
    # the same seed builds the same campaign
    assert league_campaign(gangs=3, fighters=7, battles=5) == campaign


def test_measure_saves_runs_once(tmp_path: Path) -> None:
    s = bench.measure_saves(tmp_path, gangs=2, fighters=3, battles=2, events=12, opens=1, saves=1)
    assert len(s["open_ms"]) == 1 and len(s["save_ms"]) == 1
    # campaign.toml, two gang files, two battle files and their records (issue 30: two
    # gangs started, two battles applied)
    assert s["files"] == 9
    assert s["size_bytes"] > s["campaign_bytes"] > 0
    assert s["battle_events"] == 13  # the 12 generated and the one recorded before the save
    folder = tmp_path / "campaigns" / "long-campaign"
    assert len(list((folder / "battles").iterdir())) == 2
    assert sorted(p.name for p in (folder / "gangs").iterdir()) == ["gang-01.toml", "gang-02.toml"]
    lines = bench.report_saves(s, 2, 3, 2)
    assert len(lines) == 3 and "open campaign" in lines[0]


async def test_key_latency_times_each_key_to_its_frame(data_dir: Path, config_dir: Path) -> None:
    timings = await bench.key_latency(
        data_dir, config_dir, keys=8, per_side=4, events=20, pace=0
    )
    assert [t.action for t in timings][1:3] == ["set_state", "xp"]  # keys "p", "x"
    assert len(timings) == 8
    for t in timings:
        assert t.ms >= t.handler_ms >= 0 and t.cpu_ms >= 0
    lines = bench.report_keys(timings)
    assert lines[0].startswith("key latency p50")


def test_startup_children_reach_the_asked_for_screen(tmp_path: Path) -> None:
    ways = bench.starts(bench.startup_data(tmp_path))
    bare = bench.startup_once("bare", tmp_path / "runs")
    assert bare["ready_ms"] > 0 and bare["rss_mb"] > 0 and bare["target_ms"] == bare["ready_ms"]
    runs = {}
    for kind, start in ways.items():
        run = runs[kind] = bench.startup_once(kind, tmp_path / "runs", start=start)
        assert run["ready_screen"] == start.target  # the asked-for screen is the first frame
        assert run["target_ms"] == run["ready_ms"] > 0
    assert list((tmp_path / "runs").iterdir()) == []  # the runs' throw-away dirs are gone
    lines = bench.report_startup({"bare": [bare], **{k: [r] for k, r in runs.items()}})
    assert len(lines) == 5 and all("MISS" in line or "ok" in line for line in lines[1:])


def test_a_tiny_league_measures_every_figure(tmp_path: Path) -> None:
    r = bench.measure_league(tmp_path, 3, 4, 4, events=12, tracker_events=30, runs=1, keys=4,
                             steps=4, rss_runs=1)
    league = r["league"]
    # campaign.toml, 3 gangs, 4 battles, and the records (issue 30): 3 gangs started, 2
    # battles applied
    assert (league.post, league.live, league.files) == (3, 4, 13)
    assert r["tracker_events"] == 30 and len(r["keys"]) == 4 and len(r["steps"]) == 4
    assert r["battle_events"] > 30  # the autosaves ran after the keys, on the same battle
    assert bench.prepare_league(tmp_path, 3, 4, 4, 12, 30) == league  # generated once per run
    lines = bench.report_league(r, {**r, "campaign_ms": [10.0], "campaign_ms_cpu": [5.0]})
    assert len(lines) == 12 and all(("ok" in l or "MISS" in l) for l in lines[1:2] + lines[4:-2])
    assert any("post-battle wizard step change" in line for line in lines)
    [growth] = bench.report_growth(r, r)
    assert growth.startswith("growth 4 -> 4 battles")


def test_main_prints_one_line_per_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--only", "saves", "--battles", "2", "--events", "10",
                       "--commented-events", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("machine: ") and "Textual" in lines[0]
    assert len(lines) == 6 and lines[-1].startswith("load average")
    assert "commented by hand (" in lines[-2] and "comments kept: yes" in lines[-2]


def test_a_kept_league_is_generated_once_and_each_run_works_on_a_copy(tmp_path: Path) -> None:
    keep = tmp_path / "keep"
    first = bench.prepare_league(tmp_path / "run1", 3, 4, 4, 12, 30, keep=keep)
    kept = keep / first.data_dir.name
    assert first.data_dir == tmp_path / "run1" / kept.name and kept.is_dir()
    battle = sorted((first.data_dir / "campaigns" / first.slug / "battles").iterdir())[-1]
    battle.write_text("changed by a run")  # a run changes its copy, never the kept league
    second = bench.prepare_league(tmp_path / "run2", 3, 4, 4, 12, 30, keep=keep)
    assert second.data_dir == tmp_path / "run2" / kept.name
    assert (second.data_dir / "campaigns" / second.slug / "battles" / battle.name).read_text() \
        != "changed by a run"
    assert (second.slug, second.post, second.live, second.files) == (first.slug, first.post, first.live, first.files)


def test_a_tiny_league_merge_is_measured(tmp_path: Path) -> None:
    """Issue 27's figure: a league on two laptops, new battles on each, the merge timed."""
    import shutil

    import pytest

    if shutil.which("git") is None:
        pytest.skip("needs git")
    r = bench.measure_merge(tmp_path, gangs=8, fighters=3, battles=6, new=2, events=6)
    assert r["merged_battles"] == 10 and r["received"] >= 1
    assert set(r["parts_ms"]) == {"_merge", "_commit_files", "_bring_files_to", "reload"}
    line, fold, cold, unchanged, opened = bench.report_merge(r)
    assert line.startswith("league merge [8x6, 2 new battles on each of two laptops]: the merge ")
    assert len(r["open_ms"]) == 10 and opened.startswith("league merged [8x6] open the campaign: median ")
    assert "(goal <= 1000)" in line
    # issue 30.9: the fold from scratch of records with battles' changes (not the migration's empty ones)
    assert r["history_records"] == 6 and r["fold"]["records"] == r["fold"]["app_records"] == 8 + 6
    assert fold.startswith("league fold from scratch [8x6, 14 records, 6 of them battles], as the app folds")
    assert cold.startswith("league fold from scratch, cold [8x6, 14 records: every file read and parsed")
    assert "(goal <= 1000)" in fold and "(goal <= 1000)" in cold and "(goal <= 150)" in unchanged
    # --keep: the league with its records generated once, copied for the next run
    kept = tmp_path / "kept"
    first = bench.measure_merge(tmp_path / "one", gangs=4, fighters=2, battles=3, new=1, events=4, keep=kept)
    again = bench.measure_merge(tmp_path / "two", gangs=4, fighters=2, battles=3, new=1, events=4, keep=kept)
    assert first["history_records"] == again["history_records"] == 3
    assert first["merged_battles"] == again["merged_battles"] == 5


def test_measure_commented_saves_runs_once(tmp_path: Path) -> None:
    [r] = bench.measure_commented_saves(tmp_path, events=(12,), saves=1)
    assert r["events"] == 13 and len(r["save_ms"]) == len(r["plain_ms"]) == 1
    assert r["kept"]  # every comment written by hand is still in the file after the save
    [line] = bench.report_commented_saves([r])
    assert "commented by hand (13-event battle)" in line and "comments kept: yes" in line


def test_key_growth_compares_a_short_and_a_long_battle() -> None:
    short = [bench.KeyTiming("xp", 10.0, 2.0, 3.0) for _ in range(20)]
    long = [bench.KeyTiming("xp", 10.5, 2.2, 3.1) for _ in range(20)]
    lines = bench.report_key_growth(short, long, (20, 2000))
    assert "at 20 events: 10.0 ms" in lines[0] and "at 2,000 events: 10.5 ms" in lines[0]
    assert lines[1].startswith("key latency growth") and "1.05x" in lines[1] and "ok" in lines[1]
    assert "MISS" in bench.report_key_growth(short, [bench.KeyTiming("xp", 12.0, 2, 3)] * 20, (20, 2000))[1]
