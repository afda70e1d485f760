"""`league undo` (issue 30.8): this laptop's last sync taken back where it was not
pushed, voided by corrections where it was (every laptop folds the same)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from munda_tui.cli import main
from munda_tui.saves import Store
from munda_tui.saves.league import LeagueError, init, join, sync, undo
from munda_tui.saves.league_undo import last, plan

from league_support import bare_remote, league, play

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _two(tmp_path: Path) -> tuple[Path, Store, Store]:
    remote = bare_remote(tmp_path / "remote.git")
    ana = Store(tmp_path / "ana")
    with ana.create_campaign(league(4)) as handle:
        init(handle, str(remote))
    bo = Store(tmp_path / "bo")
    join(bo, str(remote))
    return remote, ana, bo


def _files(handle) -> dict[str, bytes]:  # type: ignore[no-untyped-def]
    root = handle.path
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.toml"))
            if not str(p.relative_to(root)).startswith((".", "catalogue"))}


def _close_remote(remote: Path) -> Path:
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'closed for the night' >&2\nexit 1\n")
    hook.chmod(0o755)
    return hook


def test_a_sync_not_pushed_is_taken_back_to_what_this_laptop_had(tmp_path: Path, monkeypatch, capsys) -> None:
    remote, ana, bo = _two(tmp_path)
    with bo.open_campaign("club-league") as handle:  # Bo's battle reaches the league
        play(handle, "gang-03", "gang-04", 5, "2026-12-01")
        assert sync(handle).pushed
    with ana.open_campaign("club-league") as handle:  # Ana's, at the club
        play(handle, "gang-01", "gang-02", 1, "2026-12-02")
        before = _files(handle)
    hook = _close_remote(remote)
    with ana.open_campaign("club-league") as handle:
        with pytest.raises(LeagueError, match="refused"):
            sync(handle)  # merged here (Bo's battle in), not pushed
        assert len(handle.campaign.battles) == 2 and _files(handle) != before
        noted = last(handle.path)
        assert noted is not None and not noted.pushed
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "ana"))
    assert main(["league", "undo", "club-league"]) == 0
    out = capsys.readouterr().out
    assert "was not pushed: the campaign goes back to what it was before it" in out
    assert "Taken back here: " in out and "Battle 1 (2026-12-01) Gang 03 vs Gang 04: post-battle applied" in out
    assert "Taken back: the campaign is as it was before that sync." in out
    with ana.open_campaign("club-league") as handle:
        assert _files(handle) == before  # Ana's battle kept, Bo's gone again
        assert [b.date for b in handle.campaign.battles] == ["2026-12-02"]
    assert main(["league", "undo", "club-league"]) == 0
    assert "was undone already (taken back)" in capsys.readouterr().out
    assert main(["check", str(tmp_path / "ana")]) == 0
    hook.unlink()
    with ana.open_campaign("club-league") as handle:  # the next sync brings Bo's battle again
        assert sync(handle).pushed
        assert sorted(b.date for b in handle.campaign.battles) == ["2026-12-01", "2026-12-02"]
        ana_files = _files(handle)
    with bo.open_campaign("club-league") as handle:
        sync(handle)
        assert _files(handle) == ana_files


def test_taking_back_refuses_when_a_file_it_writes_changed_since(tmp_path: Path) -> None:
    remote, ana, bo = _two(tmp_path)
    with bo.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-04", 5, "2026-12-01")
        assert sync(handle).pushed
    _close_remote(remote)
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-02", "gang-03", 1, "2026-12-02")
        with pytest.raises(LeagueError):
            sync(handle)
        handle.campaign.gang("gang-01").credits += 5  # an edit after the sync
        handle.save()
        edited = _files(handle)
        with pytest.raises(LeagueError, match="changed here since the sync"):
            undo(handle)
        assert _files(handle) == edited


def test_a_pushed_sync_is_voided_by_corrections_every_laptop_folds(tmp_path: Path, monkeypatch, capsys) -> None:
    remote, ana, bo = _two(tmp_path)
    with ana.open_campaign("club-league") as handle:
        gangs_before = {g.id: (g.credits, [(f.id, f.xp, str(f.status)) for f in g.fighters])
                        for g in handle.campaign.gangs}
        play(handle, "gang-01", "gang-02", 1, "2026-12-02")
        after_battle = {g.id: (g.credits, [(f.id, f.xp, str(f.status)) for f in g.fighters])
                        for g in handle.campaign.gangs}
        assert after_battle != gangs_before
        assert sync(handle).pushed
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "ana"))
    assert main(["league", "undo", "club-league"]) == 0  # said, not done
    out = capsys.readouterr().out
    assert "was pushed: the other laptops may have it already" in out and "Battle 1:" in out
    leader = out.split("Battle 1: ", 1)[1].split(":", 1)[0]
    assert leader and leader.strip() and "+2 XP" in out  # each change named with its fighter
    assert "Nothing recorded yet: `munda-tui league undo club-league --yes`" in out
    with ana.open_campaign("club-league") as handle:
        now = {g.id: (g.credits, [(f.id, f.xp, str(f.status)) for f in g.fighters]) for g in handle.campaign.gangs}
        assert now == after_battle
    assert main(["league", "undo", "club-league", "--yes"]) == 0
    out = capsys.readouterr().out
    assert "correction(s); shared at the next sync" in out
    with ana.open_campaign("club-league") as handle:
        now = {g.id: (g.credits, [(f.id, f.xp, str(f.status)) for f in g.fighters]) for g in handle.campaign.gangs}
        assert now == gangs_before  # the battle's results no longer count
        assert [b.number for b in handle.campaign.battles] == [1]  # the battle stays listed
        assert handle.questions == []
        assert plan(handle).kind == "nothing"
        assert sync(handle).pushed
        ana_files = _files(handle)
    with bo.open_campaign("club-league") as handle:
        sync(handle)
        assert _files(handle) == ana_files
    assert main(["check", str(tmp_path / "ana")]) == 0


def test_nothing_to_undo_is_said(tmp_path: Path, monkeypatch, capsys) -> None:
    _remote, ana, _bo = _two(tmp_path)
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "ana"))
    assert main(["league", "undo", "club-league"]) == 0
    assert "No sync of this laptop to undo" in capsys.readouterr().out
    with Store(tmp_path / "solo").create_campaign(league(2)):
        pass
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "solo"))
    assert main(["league", "undo", "club-league"]) == 1
    assert "is not a league: there is no sync to undo" in capsys.readouterr().err
