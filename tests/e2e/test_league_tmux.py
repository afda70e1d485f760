"""Two laptops of a league in real terminals (tmux): a battle applied on each, both
apps open at once, each syncs with g from its campaign screen, and both then show both
battles and the standings over them."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from munda_tui.saves import Store
from munda_tui.saves.league import init, join

from league_support import bare_remote, league, play
from .tmux_driver import Tmux, tmux_available

pytestmark = pytest.mark.skipif(not tmux_available() or shutil.which("git") is None,
                                reason="needs tmux and git")


def test_two_apps_on_two_clones_sync_and_both_show_both_battles(tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "remote.git")
    laptops = {who: tmp_path / who for who in ("ana", "bo")}
    for who, root in laptops.items():
        (root / "config").mkdir(parents=True)
    ana = Store(laptops["ana"] / "data")
    with ana.create_campaign(league(4)) as handle:
        init(handle, str(remote))
    bo = Store(laptops["bo"] / "data")
    join(bo, str(remote))
    with ana.open_campaign("club-league") as handle:  # the club's table
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
    with bo.open_campaign("club-league") as handle:  # a battle at home
        play(handle, "gang-03", "gang-04", 2, "2026-12-02")
    apps = {who: Tmux(f"munda-league-{who}-{os.getpid()}", root / "data", root / "config")
            for who, root in laptops.items()}
    try:
        for tmux in apps.values():  # both open at once
            tmux.start("--campaign", "club-league", "--data-dir", str(tmux.data_dir))
        for tmux in apps.values():
            tmux.wait_for("Club League", "1 battle, ", "changed since the last sync: g syncs")
        apps["ana"].send("g")
        apps["ana"].wait_for("Synced: 1 change shared, 0 received")
        apps["bo"].send("g")
        screen = apps["bo"].wait_for("4 gangs, 2 battles", "nothing new to share")
        assert "2026-12-01" in screen and "2026-12-02" in screen
        apps["ana"].send("g")
        screen = apps["ana"].wait_for("4 gangs, 2 battles", "2026-12-02", "nothing new to share")
        # the standings over both battles: each winner 1/0/0, each loser 0/1/0
        rows = [line for line in screen.splitlines() if "Gang 0" in line and "/" in line]
        records = sorted(r for line in rows for r in line.split() if r.count("/") == 2)
        assert records == ["0/1/0", "0/1/0", "1/0/0", "1/0/0"], screen
        for tmux in apps.values():
            tmux.send("C-q")
            tmux.wait_for("EXITED")
    finally:
        for tmux in apps.values():
            tmux.kill()
