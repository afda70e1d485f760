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
    assert s["files"] == 3  # campaign.toml and two battle files
    assert s["size_bytes"] > s["campaign_bytes"] > 0
    assert s["battle_events"] == 13  # the 12 generated and the one recorded before the save
    folder = tmp_path / "campaigns" / "long-campaign"
    assert sorted(p.name for p in (folder / "battles").iterdir()) == ["0001.toml", "0002.toml"]
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


@pytest.mark.parametrize("kind", ["bare", "demo"])
def test_startup_child_reaches_its_first_frame(kind: str, tmp_path: Path) -> None:
    run = bench.startup_once(kind, tmp_path / "runs")
    assert run["ready_ms"] > 0 and run["rss_mb"] > 0
    if kind == "demo":  # it goes on to the demo campaign's screen
        assert run["campaign_ms"] >= run["ready_ms"]
    else:
        assert "campaign_ms" not in run
    assert list((tmp_path / "runs").iterdir()) == []  # the run's throw-away dirs are gone


def test_main_prints_one_line_per_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["--only", "saves", "--battles", "2", "--events", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("machine: ") and "Textual" in lines[0]
    assert len(lines) == 5 and lines[-1].startswith("load average")
