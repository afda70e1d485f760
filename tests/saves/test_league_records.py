"""Issue 30 through git: a league question from the command line (`league answer`), the
sync's words for this laptop's held-back battle, a finished battle that cannot be
stripped of its secrets refused by name while the rest syncs, battle numbers from the
records' order on every laptop."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from munda_tui.saves import Store
from munda_tui.saves.league import init, join, sync

from league_support import a_minute_ago, bare_remote, league, play

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _two(tmp_path: Path, gangs: int = 2) -> tuple[Store, Store]:
    remote = bare_remote(tmp_path / "remote.git")
    ana = Store(tmp_path / "ana")
    with ana.create_campaign(league(gangs)) as handle:
        init(handle, str(remote))
    bo = Store(tmp_path / "bo")
    join(bo, str(remote))
    return ana, bo


def test_upkeep_below_zero_is_asked_told_to_its_laptop_and_answered_from_the_command_line(
        tmp_path: Path, monkeypatch, capsys) -> None:
    from munda_tui.cli import main

    ana, bo = _two(tmp_path)
    with a_minute_ago(), bo.open_campaign("club-league") as handle:  # every credit paid at home (first)
        handle.campaign.gang("gang-01").credits = 0
        handle.save()
        assert sync(handle).pushed
    with ana.open_campaign("club-league") as handle:  # 20 of the same credits at the club
        handle.campaign.gang("gang-01").credits -= 20
        handle.save()
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "ana"))
    assert main(["sync", "club-league"]) == 0
    out = capsys.readouterr().out
    assert "Your roster edit of" in out and "Gang 01: credits -20 waits for the Arbitrator (credits would be -20)" in out
    assert "1 league question(s) for the Arbitrator: munda-tui league answer club-league" in out
    assert main(["league", "answer", "club-league"]) == 0
    listed = capsys.readouterr().out
    assert "1. Roster edit of" in listed and "Gang 01: credits -20 (credits would be -20): void | amount" in listed
    assert main(["league", "answer", "club-league", "1", "keep"]) == 1
    assert "the rules do not allow 'keep' here" in capsys.readouterr().err
    assert main(["league", "answer", "club-league", "1", "amount", "0"]) == 0
    assert "0 question(s) left" in capsys.readouterr().out
    assert main(["sync", "club-league"]) == 0  # the answer shared
    with bo.open_campaign("club-league") as handle:
        sync(handle)
        assert handle.questions == [] and handle.campaign.gang("gang-01").credits == 0
    with ana.open_campaign("club-league") as handle:
        assert handle.questions == [] and handle.campaign.gang("gang-01").credits == 0


def test_a_finished_battle_that_cannot_be_stripped_is_refused_and_the_rest_syncs(tmp_path: Path) -> None:
    ana, bo = _two(tmp_path, 4)
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        play(handle, "gang-03", "gang-04", 2, "2026-12-02")
        broken, fine = handle.battle_path(1), handle.battle_path(2)
    broken.write_text(broken.read_text() + "\n[report\n")  # a hand edit's typo
    with ana.open_campaign("club-league") as handle:
        result = sync(handle)
        assert result.pushed
        [said] = result.refused
        assert said.startswith(f"battles/{broken.name} is not shared: its unrevealed Sub-plots")
    shared = subprocess.run(["git", "-C", str(tmp_path / "remote.git"), "ls-tree", "-r", "--name-only", "main"],
                            capture_output=True, text=True, check=True).stdout.split()
    assert f"battles/{fine.name}" in shared and f"battles/{broken.name}" not in shared


def test_battle_numbers_follow_the_records_order_on_every_laptop(tmp_path: Path) -> None:
    """bo entered 12-09's battle, then 12-03's (numbers 1 and 2 there); ana's 12-08
    battle arrives numbered 1 too. On both laptops, whichever synced first, the battles
    are numbered by date: 12-03 is 1, 12-08 is 2, 12-09 is 3 (numbered by the files, 12-03
    stayed 2 and 12-09 became 3 after 12-08)."""
    ana, bo = _two(tmp_path, 6)
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-08")
        assert sync(handle).pushed
    with bo.open_campaign("club-league") as handle:
        play(handle, "gang-03", "gang-04", 2, "2026-12-09")
        play(handle, "gang-05", "gang-06", 3, "2026-12-03")
        assert sync(handle).pushed
        want = [(1, "2026-12-03"), (2, "2026-12-08"), (3, "2026-12-09")]
        assert [(b.number, b.date) for b in handle.campaign.battles] == want
    with ana.open_campaign("club-league") as handle:
        assert sync(handle).pushed
        assert [(b.number, b.date) for b in handle.campaign.battles] == want


def test_reports_discord_and_exports_say_the_number_a_battle_has_now(tmp_path: Path, monkeypatch, capsys) -> None:
    """Issue 30.4: a report says the number of its battle when it is shown, not the one
    it had when it was saved. Ana's battle was her Battle 1; Bo's, played earlier the same
    evening, comes first in the league: after the sync two reports must not both say
    "Battle 1", in Markdown, in Discord messages or in an export."""
    import tomllib

    from munda_tui.cli import main

    ana, bo = _two(tmp_path, gangs=4)
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-02")
    with bo.open_campaign("club-league") as handle:
        play(handle, "gang-03", "gang-04", 2, "2026-12-01")
        assert sync(handle).pushed
    with ana.open_campaign("club-league") as handle:
        assert sync(handle).pushed
        numbers = {b.date: b.number for b in handle.campaign.battles}
        from munda_tui.rules.stages.commit import apply_postbattle

        # the post-battle screen of a battle already applied shows its saved report so
        assert (apply_postbattle(handle, 2) or "").startswith("# Battle 2: Gang 01 vs Gang 02")
    assert numbers == {"2026-12-01": 1, "2026-12-02": 2}
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "ana"))
    titles = {}
    for n in (1, 2):
        assert main(["report", "club-league", "--battle", str(n)]) == 0
        titles[n] = capsys.readouterr().out.splitlines()[0]
        assert main(["report", "club-league", "--battle", str(n), "--format", "discord"]) == 0
        assert f"Battle {n}: " in capsys.readouterr().out
    assert titles == {1: "# Battle 1: Gang 03 vs Gang 04", 2: "# Battle 2: Gang 01 vs Gang 02"}
    out = tmp_path / "club.munda.toml"
    assert main(["export", "club-league", "-o", str(out)]) == 0
    exported = tomllib.loads(out.read_text())
    heads = {b["number"]: b["data"]["report"]["blocks"][0]["text"] for b in exported["battles"]}
    assert heads == {1: "Battle 1: Gang 03 vs Gang 04", 2: "Battle 2: Gang 01 vs Gang 02"}
