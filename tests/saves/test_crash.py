"""Kill a saving process with SIGKILL at random moments: every file on disk
must load and hold either the old or the new state, never a mix or a torn file.
"""

from __future__ import annotations

import copy
import os
import random
import signal
import sys
import time
from pathlib import Path

import pytest

from munda_tui.saves import Store
from munda_tui.saves.atomic import KEEP_BACKUPS, is_temp_file
from munda_tui.saves.files import load_campaign_file
from munda_tui.saves.folder import load_battle_data, load_campaign_dir, load_gang_file
from munda_tui.saves.journal import roll_forward

from support import kills

KILLS = kills(210)

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork and SIGKILL")


def _states(campaign):
    del campaign.gangs[1].fighters[3:]  # smaller files: more kills per second
    a = copy.deepcopy(campaign)
    b = copy.deepcopy(campaign)
    b.gangs[0].credits += 1000
    b.gangs[0].fighters[0].xp += 7
    b.gangs[1].fighters.pop()
    b.notes = "state B " * 50
    battle_a = {"extra": {"scenario": "Sneak Attack"}, "battle": {"events": [{"kind": "start", "n": i} for i in range(40)]}}
    battle_b = {"extra": {"scenario": "Stand-off"}, "battle": {"events": [{"kind": "ooa", "note": "x" * 40, "n": i} for i in range(120)]}}
    return (a, battle_a), (b, battle_b)


def _saver(data_dir: Path, slug: str, states, ready: int, k: int) -> None:
    """The child: open the campaign and save B, A, B, A ... (starting with the
    state that is not on disk) until killed."""
    handle = Store(data_dir).open_campaign(slug)
    handle.campaign_text()  # warm up (parses the document) so kills land in saves
    os.write(ready, b"o")
    while True:
        campaign, battle = states[k % 2]
        handle.campaign = copy.deepcopy(campaign)
        handle.save()
        handle.save_battle(1, battle)
        os.write(ready, b"s")
        k += 1


def test_sigkill_while_saving_leaves_old_or_new_state(store, full_campaign):
    rng = random.Random(20260115)
    (camp_a, battle_a), (camp_b, battle_b) = states = _states(full_campaign)
    with store.create_campaign(copy.deepcopy(camp_a)) as handle:
        handle.save_battle(1, battle_a)
        slug, directory = handle.slug, handle.path
    camp_a.id = camp_b.id = slug
    seen = {"campaign": set(), "battle": set()}
    temps_left = 0
    on_disk_b = False
    checked: set[tuple[int, int, int]] = set()
    for i in range(KILLS):
        ready, done = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            status = 1
            try:
                os.close(ready)
                _saver(store.data_dir, slug, states, done, 0 if on_disk_b else 1)
            except BaseException:  # noqa: BLE001
                import traceback

                traceback.print_exc()
            finally:
                os._exit(status)
        os.close(done)
        try:
            assert os.read(ready, 1) == b"o", "the saving process did not start"
            if i % 10 == 0:  # now and then, let one save complete first
                assert os.read(ready, 1) == b"s"
            time.sleep(rng.uniform(0.0, 0.020))  # a seeded, random moment
        finally:
            os.kill(pid, signal.SIGKILL)
            os.close(ready)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL

        temps_left += sum(1 for p in directory.rglob("*") if is_temp_file(p))
        campaign_file = directory / "campaign.toml"
        roll_forward(directory)  # what the next open does first (a save's commit point passed)
        campaign, files = load_campaign_dir(directory)
        assert campaign in (camp_a, camp_b), f"kill {i}: the campaign's files are neither state"
        on_disk_b = campaign == camp_b
        seen["campaign"].add(on_disk_b)
        battle = load_battle_data(files[1])
        assert battle in (battle_a, battle_b), f"kill {i}: the battle file is neither state"
        seen["battle"].add(battle == battle_b)
        for original in (campaign_file, files[1]):
            assert len(store.backups(original)) <= KEEP_BACKUPS, f"kill {i}: more than {KEEP_BACKUPS} backups"
        for backup in (directory / ".backups").rglob("*.bak"):
            st = backup.stat()
            if (st.st_ino, st.st_size, st.st_mtime_ns) in checked:
                continue
            checked.add((st.st_ino, st.st_size, st.st_mtime_ns))
            if backup.parent.name == "battles":
                # ({}: the battle's file as the campaign made it, its summary alone)
                assert load_battle_data(backup) in (battle_a, battle_b, {})
            elif backup.parent.name == "gangs":
                # (it names a battle by the battle's file: numbered as the folder numbers it)
                by_file = {path.stem: n for n, path in files.items()}
                assert load_gang_file(backup, number_of=by_file.get) in camp_a.gangs + camp_b.gangs
            else:
                assert load_campaign_file(backup).campaign.notes in (camp_a.notes, camp_b.notes)
        if i % 50 == 49:
            # the dead saver's lock is taken over and its temp files cleaned up
            with Store(store.data_dir).open_campaign(slug):
                assert not any(is_temp_file(p) for p in directory.rglob("*"))
    print(f"{KILLS} kills, {temps_left} torn temp files found (and ignored) after them", file=sys.stderr)
    assert seen == {"campaign": {False, True}, "battle": {False, True}}
    with store.open_campaign(slug) as handle:
        assert handle.campaign in (camp_a, camp_b)
        # backup_file prunes to 4 before it links the fifth: the last kill, at a random
        # moment, may have fallen between the two (the version it was keeping is still
        # campaign.toml itself, so nothing is lost); never more than 5
        assert len(store.backups(handle.file)) in (KEEP_BACKUPS - 1, KEEP_BACKUPS)
        on_disk = handle.campaign
        handle.campaign = copy.deepcopy(camp_a if on_disk == camp_b else camp_b)
        handle.save()  # one save that runs to its end: the rotation is whole again
        assert len(store.backups(handle.file)) == 5
        assert load_campaign_file(store.backups(handle.file)[0]).campaign.notes == on_disk.notes
