"""A league through git: a bare remote in a temp folder, clones that play their own
battles through the rules engine with fixed dice, syncs in any order."""

from __future__ import annotations

import copy
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from munda_tui.rules.core.model import BattleSummary
from munda_tui.saves import Store
from munda_tui.saves.league import LeagueError, init, join, sync

from league_support import league, play

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


#: each clone's battles: (challenger, challenged, date); no gang on two clones
TABLES = {
    "ana": [("gang-01", "gang-02", "2026-12-01"), ("gang-02", "gang-01", "2026-12-08")],
    "bo": [("gang-03", "gang-04", "2026-12-01"), ("gang-04", "gang-03", "2026-12-02"),
           ("gang-03", "gang-04", "2026-12-09")],
    "cy": [("gang-05", "gang-06", "2026-12-03")],
}


def _shared_files(directory: Path) -> dict[str, bytes]:
    names = subprocess.run(["git", "-C", str(directory), "ls-files", "-z"], capture_output=True,
                           check=True).stdout.decode().split("\0")
    return {n: (directory / n).read_bytes() for n in names if n}


def _battles_named(campaign):
    """The campaign's gangs with each battle they name (a fighter's status, a Lasting
    Injury) told by what the battle is (date, gangs) instead of its number: a battle's
    number is the one its table gave it, and one that two tables both gave is moved at
    the merge, the gangs' references with it."""
    which = {b.number: (b.date, tuple(b.gangs)) for b in campaign.battles}
    gangs = copy.deepcopy(sorted(campaign.gangs, key=lambda g: g.id))
    for g in gangs:
        for f in [*g.fighters, *g.fallen]:
            f.status_battle = which.get(f.status_battle, f.status_battle)
            for i in f.injuries:
                i.battle = which.get(i.battle, i.battle)
    return gangs


def test_three_clones_sync_in_any_order_and_end_byte_identical(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    first = Store(tmp_path / "ana")
    with first.create_campaign(league()) as handle:
        result = init(handle, str(remote))
        assert result.pushed and result.committed
    stores = {"ana": first}
    for who in ("bo", "cy"):
        stores[who] = Store(tmp_path / who)
        assert join(stores[who], str(remote)) == "club-league"
    # each table plays its own battles, offline
    seed = 0
    for who, battles in TABLES.items():
        with stores[who].open_campaign("club-league") as handle:
            for a, b, date in battles:
                seed += 1
                play(handle, a, b, seed, date)
    # what one laptop playing all of them holds
    one = Store(tmp_path / "one")
    with one.create_campaign(league()) as handle:
        seed = 0
        for who, battles in TABLES.items():
            for a, b, date in battles:
                seed += 1
                play(handle, a, b, seed, date)
        expected = copy.deepcopy(handle.campaign)
    order = list(stores)
    rng = random.Random(2027)
    for _round in range(2):  # once to share, once to receive what was shared later
        rng.shuffle(order)
        for who in order:
            with stores[who].open_campaign("club-league") as handle:
                result = sync(handle)
                assert result.pushed and not result.conflicts, (who, result)
    files = {who: _shared_files(s.campaign_dir("club-league")) for who, s in stores.items()}
    assert files["ana"] == files["bo"] == files["cy"]
    assert len([n for n in files["ana"] if n.startswith("battles/")]) == 6
    for who, store in stores.items():
        with store.open_campaign("club-league") as handle:
            c = handle.campaign
            assert [b.number for b in c.battles] == [1, 2, 3, 4, 5, 6], who
            assert sorted((b.date, tuple(b.gangs), b.winner) for b in c.battles) == sorted(
                (b.date, tuple(b.gangs), b.winner) for b in expected.battles)
            assert _battles_named(c) == _battles_named(expected), who
            # (the dice give each table a fighter who names a battle: checked, not vacuous)
            assert sum(1 for g in c.gangs for f in g.fighters if f.status_battle
                       or any(i.battle for i in f.injuries)) == 3
            assert c.settings == expected.settings
        log = subprocess.run(["git", "-C", str(store.campaign_dir("club-league")), "log", "--format=%s"],
                             capture_output=True, check=True, text=True).stdout
        assert "Battle 1 (2026-12-01) Gang 01 vs Gang 02: post-battle applied" in log


def test_a_battle_in_progress_and_unrevealed_subplots_are_never_shared(tmp_path: Path) -> None:
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    store = Store(tmp_path / "ana")
    with store.create_campaign(league(2)) as handle:
        init(handle, str(remote))
        number = play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        data = handle.load_battle(number)
        data["setup"]["subplots"] = True
        data["setup"]["sides"][0]["hand"] = ["escher:Q"]  # never revealed
        handle.save_battle(number, data)
        live = handle.campaign.next_battle_number()
        handle.campaign.battles.append(BattleSummary(live, "2026-12-02", status="battle",
                                                     gangs=["gang-01", "gang-02"]))
        handle.save()
        live_file = handle.battle_path(live).name
        assert sync(handle).pushed
        hidden = handle.load_battle(number)["setup"]["sides"][0]
    assert hidden["hand"] == []  # the shared file holds no hidden card ...
    clone = Store(tmp_path / "bo")
    join(clone, str(remote))
    shared = _shared_files(clone.campaign_dir("club-league"))
    assert not any(b"escher:Q" in body for body in shared.values())
    assert f"battles/{live_file}" not in shared  # ... and no battle in progress
    with clone.open_campaign("club-league") as handle:
        assert [b.number for b in handle.campaign.battles] == [1]


def test_without_git_a_clear_message_and_the_rest_works(tmp_path: Path, monkeypatch) -> None:
    store = Store(tmp_path / "data")
    with store.create_campaign(league(2)) as handle:
        monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))
        with pytest.raises(LeagueError, match="git is not installed"):
            init(handle, str(tmp_path / "remote.git"))
        assert not (handle.path / ".git").exists()
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
    with store.open_campaign("club-league") as handle:
        assert [b.status for b in handle.campaign.battles] == ["done"]


def _two_laptops(tmp_path: Path):
    """A league on two laptops; the same gang then changed on both: a roster edit at home
    (bo: gang-01's credits) and a battle at the club (ana: gang-01 vs gang-02)."""
    from league_support import bare_remote

    remote = bare_remote(tmp_path / "remote.git")
    ana = Store(tmp_path / "ana")
    with ana.create_campaign(league(2)) as handle:
        init(handle, str(remote))
    bo = Store(tmp_path / "bo")
    join(bo, str(remote))
    with bo.open_campaign("club-league") as handle:
        handle.campaign.gang("gang-01").credits += 1000  # the roster edit at home
        handle.save()
        assert sync(handle).pushed
        home = copy.deepcopy(handle.campaign.gang("gang-01"))
    with ana.open_campaign("club-league") as handle:
        before = copy.deepcopy(handle.campaign.gang("gang-01"))
        play(handle, "gang-01", "gang-02", 7, "2026-12-01")
        club = copy.deepcopy(handle.campaign.gangs)
    return ana, bo, before, home, club


def test_the_same_gang_changed_on_two_laptops_keeps_both_with_no_question(tmp_path) -> None:
    """Issue 30: a roster edit at home and a battle at the club on the same gang merge as
    records: both kept, no question, the same gang on both laptops."""
    ana, bo, before, home, club = _two_laptops(tmp_path)
    directory = ana.campaign_dir("club-league")
    with ana.open_campaign("club-league") as handle:
        result = sync(handle)
        assert result.pushed and not result.conflicts and result.questions == 0 and result.yours == []
        merged = handle.campaign.gang("gang-01")
        club01 = next(g for g in club if g.id == "gang-01")
        # the league's edit (+1000 credits) and this laptop's battle, both
        assert merged.credits == home.credits + (club01.credits - before.credits)
        assert [f.xp for f in merged.fighters] == [f.xp for f in club01.fighters]
        assert [b.number for b in handle.campaign.battles] == [1]
    log = subprocess.run(["git", "-C", str(directory), "log", "--format=%s%n%b"], capture_output=True,
                         text=True, check=True).stdout
    assert "roster edited" in log and "post-battle applied" in log
    with bo.open_campaign("club-league") as handle:
        assert sync(handle).pushed
        assert handle.campaign.gang("gang-01") == merged
    assert _shared_files(directory) == _shared_files(bo.campaign_dir("club-league"))


def test_a_gang_names_its_battle_after_the_merge_moves_it(tmp_path) -> None:
    """Both laptops number their battle 1; the later one (ana's) is moved to 2 at the
    merge. Gang 02's fighter put into Recovery by ana's battle names battle 2 after the
    merge, and the roster edit of Gang 02 made at home is kept beside it."""
    from league_support import bare_remote

    remote = bare_remote(tmp_path / "remote.git")
    ana = Store(tmp_path / "ana")
    with ana.create_campaign(league(4)) as handle:
        init(handle, str(remote))
    bo = Store(tmp_path / "bo")
    join(bo, str(remote))
    with bo.open_campaign("club-league") as handle:
        play(handle, "gang-03", "gang-04", 1, "2026-12-01")
        handle.campaign.gang("gang-02").credits += 100  # a roster edit at home
        handle.save()
        assert sync(handle).pushed
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 7, "2026-12-05")  # gang-02's f02: Recovery, battle 1
        club = handle.campaign.gang("gang-02").credits
        assert handle.campaign.gang("gang-02").fighter("f02").status_battle == 1
        stem = handle.battle_path(1).stem
        result = sync(handle)
        assert result.pushed and not result.conflicts
        c = handle.campaign
        assert [(b.number, b.date) for b in c.battles] == [(1, "2026-12-01"), (2, "2026-12-05")]
        assert handle.battle_path(2).stem == stem
        f02 = c.gang("gang-02").fighter("f02")
        assert (f02.status.value, f02.status_battle) == ("recovery", 2)
        assert c.gang("gang-02").credits == club + 100
        text = (handle.path / "gangs" / "gang-02.toml").read_text()
        assert f'status_battle = "{stem}"' in text  # by its file: the number may move again
    with bo.open_campaign("club-league") as handle:
        assert sync(handle).pushed
        assert handle.campaign.gang("gang-02").fighter("f02").status_battle == 2
