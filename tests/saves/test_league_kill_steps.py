"""kill -9 at every step of a sync (issue 30.10): before each git process it starts and
before each file it renames into place (every write of the campaign's is a rename), the
sync is killed with the git it runs (as closing the terminal does). After each, the
campaign opens with its shared files either as before the sync or exactly as the sync
that was not killed left them, and the next sync ends where that one did.

(test_league_faults.py kills at random moments, mid-git too; this one walks every step.)"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from munda_tui.saves import Store
from munda_tui.saves.league import init, join, sync

from league_support import bare_remote, league, play

pytestmark = [pytest.mark.skipif(shutil.which("git") is None, reason="needs git"),
              pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")]

SHARED = ("gangs/", "battles/", "records/", "campaign")


def _shared(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*.toml"))
            if str(p.relative_to(directory)).startswith(SHARED)}


def _said_numbers(directory: Path) -> dict[str, int]:
    """The number each battle file says (by its name without .toml)."""
    import tomllib

    return {p.stem: tomllib.loads(p.read_text(encoding="utf-8"))["number"]
            for p in sorted((directory / "battles").glob("*.toml"))}


def _git(directory: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(directory), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


class Steps:
    """Counts the sync's steps (a git process started, a file renamed into place) and
    kills the process group before step ``kill_at`` (0: never)."""

    def __init__(self, kill_at: int = 0) -> None:
        self.kill_at, self.count = kill_at, 0
        self.kinds: list[str] = []  # "git" or "rename", step by step
        self.popen: Any = subprocess.Popen
        self.replace: Any = os.replace

    def step(self) -> None:
        self.count += 1
        if self.count == self.kill_at:
            os.killpg(0, signal.SIGKILL)
            time.sleep(60)

    def __enter__(self) -> "Steps":
        steps, popen, replace = self, self.popen, self.replace

        class Counted(popen):  # type: ignore[misc, valid-type]
            def __init__(self, *args: Any, **kw: Any) -> None:
                steps.kinds.append("git")
                steps.step()
                super().__init__(*args, **kw)

        def counted_replace(*args: Any, **kw: Any) -> Any:
            steps.kinds.append("rename")
            steps.step()
            return replace(*args, **kw)

        subprocess.Popen = Counted  # type: ignore[misc]
        os.replace = counted_replace
        return self

    def __exit__(self, *_exc: object) -> None:
        subprocess.Popen = self.popen  # type: ignore[misc]
        os.replace = self.replace


def _steps_to_kill(kinds: list[str]) -> list[int]:
    """Every step with MUNDA_TUI_THOROUGH=1. In the README's suite (CI's three-minute goal:
    every step is two syncs, ~40 s on an idle machine): the first and the last of each run
    of renames into place (where the campaign goes from before to after) and the step
    after each run, the last step, and every sixth other (a git process: most of a sync's
    steps, where a kill leaves the files as they were)."""
    from support import THOROUGH

    every = range(1, len(kinds) + 1)
    if THOROUGH:
        return list(every)

    def kind(n: int) -> str:
        return kinds[n - 1] if 1 <= n <= len(kinds) else ""

    edges = {n for n in every if kind(n) == "rename" and (kind(n - 1) != "rename" or kind(n + 1) != "rename")}
    return sorted(edges | {n + 1 for n in edges if kind(n + 1) not in ("rename", "")}
                  | {n for n in every if n % 6 == 1} | {len(kinds)})


def _copy(base: Path, to: Path) -> Path:
    shutil.copytree(base, to, symlinks=True)
    directory = to / "ana" / "campaigns" / "club-league"
    _git(directory, "remote", "set-url", "origin", str(to / "remote.git"))
    return directory


def test_kill_9_at_every_step_of_a_sync_leaves_before_or_after(tmp_path: Path) -> None:
    base = tmp_path / "base"
    remote = bare_remote(base / "remote.git")
    ana = Store(base / "ana")
    with ana.create_campaign(league(4)) as handle:
        init(handle, str(remote))
    bo = Store(base / "bo")
    join(bo, str(remote))
    with bo.open_campaign("club-league") as handle:  # Bo's battle in the league
        play(handle, "gang-03", "gang-04", 2, "2026-12-02")
        assert sync(handle).pushed
    with ana.open_campaign("club-league") as handle:  # Ana's, not yet synced: a merge
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        before = _shared(handle.path)
        numbers_before = handle.battle_numbers_by_stem()

    clean = _copy(base, tmp_path / "clean")
    with Store(tmp_path / "clean" / "ana").open_campaign("club-league") as handle, Steps() as steps:
        assert sync(handle).pushed
    with Store(tmp_path / "clean" / "ana").open_campaign("club-league") as handle:
        numbers_after = handle.battle_numbers_by_stem()
    total = steps.count
    after = _shared(clean)
    assert total >= 10 and after != before
    assert numbers_after != numbers_before  # (the merge renumbers a battle: the window's case)
    assert _said_numbers(clean) == numbers_after

    seen = {"before": 0, "after": 0}
    for n in _steps_to_kill(steps.kinds):
        run = tmp_path / f"kill{n}"
        directory = _copy(base, run)
        pid = os.fork()
        if pid == 0:  # the sync, killed before its step n
            try:
                os.setpgid(0, 0)  # its own group: the kill takes the git it runs too
                handle = Store(run / "ana").open_campaign("club-league")
                with Steps(n):
                    sync(handle)
            finally:
                os._exit(3)
        _pid, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status), f"step {n} of {total}: the sync ended before it"
        for _ in range(500):  # (every git of the group gone)
            try:
                os.killpg(pid, 0)
            except (ProcessLookupError, PermissionError):
                break
            time.sleep(0.01)
        with Store(run / "ana").open_campaign("club-league") as handle:  # opens: rolled back or forward
            now = _shared(directory)
            # before or after, nothing between: the battles the merge renumbered are
            # written with their new numbers in the merge's own transaction (a sync once
            # saved them after it, and a kill between left their files saying their old
            # numbers until the next save or sync)
            assert now in (before, after), (
                f"killed before step {n} of {total}: neither as before nor as after: "
                f"{sorted(k for k in set(now) | set(after) if now.get(k) != after.get(k))}")
            seen["before" if now == before else "after"] += 1
            assert handle.battle_numbers_by_stem() == (numbers_before if now == before else numbers_after)
            assert _said_numbers(directory) == handle.battle_numbers_by_stem()
            result = sync(handle)  # the next sync finishes the job
            assert not result.conflicts and handle.questions == []
            assert sorted(b.date for b in handle.campaign.battles) == ["2026-12-01", "2026-12-02"]
        assert _shared(directory) == after, f"killed before step {n}: the next sync ended elsewhere"
        assert _git(run / "remote.git", "rev-parse", "main") in _git(directory, "rev-list", "HEAD")
        shutil.rmtree(run)
    assert seen["before"] and seen["after"], seen
    print(f"kill -9 before {sum(seen.values())} of the {total} steps: {seen}")
