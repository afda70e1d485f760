"""A sync that goes wrong leaves the campaign as it was, or fully synced, never half:
kill -9 at any moment, a remote that refuses, a remote that is no git repository, a
remote of another campaign; two syncs at once are refused (the campaign's lock)."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from munda_tui.saves import CampaignLocked, Store
from munda_tui.saves.league import LeagueError, init, join, sync

from league_support import bare_remote, league, play, two_laptops
from support import kills

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _git(directory: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(directory), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def _state(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*.toml"))
            if ".backups" not in p.parts and ".cache" not in p.parts and ".git" not in p.parts}


def _league_on_two(tmp_path: Path) -> tuple[Path, Store, Store]:
    return two_laptops(tmp_path)  # type: ignore[no-any-return]


def test_a_remote_that_is_not_a_git_repository(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    nothing = tmp_path / "just-a-folder"
    nothing.mkdir()
    with store.create_campaign(league(2)) as handle:
        before = _state(handle.path)
        with pytest.raises(LeagueError, match="could not push the league") as caught:
            init(handle, str(nothing))
        assert "The campaign is unchanged" in str(caught.value)
        assert not (handle.path / ".git").exists() and not (handle.path / ".gitignore").exists()
        assert _state(handle.path) == before
    # a league whose remote became a plain folder (a USB stick swapped)
    remote, ana, _bo = _league_on_two(tmp_path / "two")
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        _git(handle.path, "remote", "set-url", "origin", str(nothing))
        before = _state(handle.path)
        with pytest.raises(LeagueError, match="could not fetch") as caught:
            sync(handle)
        assert "sync again" in str(caught.value)
        assert _state(handle.path) == before
        _git(handle.path, "remote", "set-url", "origin", str(remote))
        assert sync(handle).pushed  # and once the remote is back, it goes


def test_a_remote_of_another_campaign_is_refused(tmp_path: Path) -> None:
    remote, ana, _bo = _league_on_two(tmp_path / "one")
    other_remote = bare_remote(tmp_path / "other.git")
    other = Store(tmp_path / "other")
    with other.create_campaign(league(2)) as handle:
        init(handle, str(other_remote))
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        _git(handle.path, "remote", "set-url", "origin", str(other_remote))
        before, head = _state(handle.path), _git(handle.path, "rev-parse", "HEAD")
        with pytest.raises(LeagueError, match="another campaign's league"):
            sync(handle)
        assert _state(handle.path) == before
        # its history gained this laptop's own battle, nothing of the other campaign's
        assert _git(handle.path, "log", "--format=%s", f"{head}..HEAD").splitlines() == [
            "Battle 1 (2026-12-01) Gang 01 vs Gang 02: post-battle applied"]


def test_a_remote_that_refuses_the_push(tmp_path: Path) -> None:
    remote, ana, bo = _league_on_two(tmp_path)
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'the league is closed for the night' >&2\nexit 1\n")
    hook.chmod(0o755)
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        with pytest.raises(LeagueError, match="closed for the night"):
            sync(handle)
        # nothing lost: the battle is recorded here, and shared at the next sync
        assert _git(handle.path, "status", "--porcelain", "--", "gangs", "battles") == ""
        hook.unlink()
        assert sync(handle).pushed
    with bo.open_campaign("club-league") as handle:
        sync(handle)
        assert [b.status for b in handle.campaign.battles] == ["done"]


def test_two_syncs_at_once_are_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    from munda_tui.cli import main

    _remote, ana, _bo = _league_on_two(tmp_path)
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "ana"))
    with ana.open_campaign("club-league"):  # the app has it open (or a sync runs)
        with pytest.raises(CampaignLocked):
            Store(tmp_path / "ana").open_campaign("club-league")
        assert main(["sync", "club-league"]) == 1
        assert "Close it in munda-tui first" in capsys.readouterr().err
    assert main(["sync", "club-league"]) == 0


def test_a_ref_locked_for_a_moment_is_waited_for(tmp_path: Path, monkeypatch) -> None:
    """A git of a sync killed a moment ago may still hold the remote-tracking ref: the
    next sync waits for it instead of saying the remote cannot be reached."""
    from munda_tui.saves import git as git_module

    _remote, ana, bo = _league_on_two(tmp_path)
    with bo.open_campaign("club-league") as handle:
        play(handle, "gang-03", "gang-04", 2, "2026-12-02")
        assert sync(handle).pushed
    with ana.open_campaign("club-league") as handle:
        lock = handle.path / ".git" / "refs" / "remotes" / "origin" / "main.lock"
        lock.parent.mkdir(parents=True, exist_ok=True)
        lock.write_text("")
        waits: list[float] = []

        def the_other_git_finishes(seconds: float) -> None:
            waits.append(seconds)
            lock.unlink(missing_ok=True)

        monkeypatch.setattr(git_module.time, "sleep", the_other_git_finishes)
        sync(handle)
        assert waits and len(handle.campaign.battles) == 1


def _sync_until_killed(data_dir: Path, ready: int) -> None:
    handle = Store(data_dir).open_campaign("club-league")
    os.write(ready, b"o")
    sync(handle)
    os.write(ready, b"d")
    time.sleep(60)


def _group_gone(pgid: int) -> None:
    """Wait (bounded) until every process of the killed group has exited: a git the sync
    was starting holds a copy of the campaign lock's descriptor until it dies (between
    its fork and its exec), after the sync's own process is reaped."""
    for _ in range(500):
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return
        time.sleep(0.01)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")
def test_a_kill_during_a_sync_leaves_the_campaign_as_before_or_synced(tmp_path: Path) -> None:
    """SIGKILL at random moments of a sync that merges the other laptop's battle with
    this one's: after it, the campaign opens with its files either as before the sync or
    as the merge, and the next sync ends with both battles, as if nothing happened."""
    base = tmp_path / "base"
    remote, ana, bo = _league_on_two(base)
    with bo.open_campaign("club-league") as handle:
        play(handle, "gang-03", "gang-04", 2, "2026-12-02")
        assert sync(handle).pushed
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        before = _state(handle.path)
    t0 = time.perf_counter()
    timing = tmp_path / "timing"
    shutil.copytree(base, timing, symlinks=True)
    _git(timing / "ana" / "campaigns" / "club-league", "remote", "set-url", "origin", str(timing / "remote.git"))
    with Store(timing / "ana").open_campaign("club-league") as handle:
        sync(handle)
        merged = _state(handle.path)
    duration = time.perf_counter() - t0
    rng = random.Random(4)
    seen = {"before": 0, "merged": 0}
    runs = kills(14)
    for i in range(runs):
        run = tmp_path / f"run{i}"
        shutil.copytree(base, run, symlinks=True)
        directory = run / "ana" / "campaigns" / "club-league"
        _git(directory, "remote", "set-url", "origin", str(run / "remote.git"))
        ready, done = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            try:
                os.setpgid(0, 0)  # its own group: the kill takes the git it runs too
                os.close(ready)
                _sync_until_killed(run / "ana", done)
            finally:
                os._exit(1)
        os.close(done)
        try:
            assert os.read(ready, 1) == b"o"
            if i % 7 == 6 or i == runs - 1:  # now and then, let the sync end first (on a loaded
                assert os.read(ready, 1) == b"d"  # machine it outlasts the timing run)
            time.sleep(0.0 if i == 0 else rng.uniform(0.0, duration))
        finally:
            # as closing the terminal does: munda-tui and the git it runs die together
            # (a git left running would still be changing refs under the next sync)
            os.killpg(pid, signal.SIGKILL)
            os.close(ready)
        os.waitpid(pid, 0)
        _group_gone(pid)
        with Store(run / "ana").open_campaign("club-league") as handle:  # opens: rolls forward
            from munda_tui.saves.league import _resume

            for stale in ("index.lock", "HEAD.lock"):
                (directory / ".git" / stale).unlink(missing_ok=True)
            _resume(directory)
            now = _state(directory)
            shared = {k: v for k, v in now.items() if k.startswith(("gangs/", "battles/", "records/", "campaign"))}
            # the battle files: ana's own always; bo's only with the whole merge
            names = {k for k in shared if k.startswith("battles/")}
            if names == {k for k in before if k.startswith("battles/")}:
                assert shared == {k: v for k, v in before.items() if k in shared}, f"kill {i}: half"
                seen["before"] += 1
            else:
                assert len(names) == 2, f"kill {i}"
                seen["merged"] += 1
            result = sync(handle)  # and the next sync finishes the job
            assert result.pushed and not result.conflicts
            assert sorted(b.date for b in handle.campaign.battles) == ["2026-12-01", "2026-12-02"]
            assert [b.number for b in handle.campaign.battles] == [1, 2]
        final = _state(directory)
        assert {k for k in final if k.startswith("battles/")} == {k for k in merged if k.startswith("battles/")}
        assert {k: v for k, v in final.items() if k.startswith("gangs/")} == \
            {k: v for k, v in merged.items() if k.startswith("gangs/")}
    assert seen["before"] and seen["merged"], seen
