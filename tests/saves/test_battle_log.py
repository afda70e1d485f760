"""The tracker's journal (saves.battle_log): one line appended a key, folded into the
battle file at a stage move, when the tracker is left and at the close; a crash at any
byte keeps every event whose append completed."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from support import examples, kills

from munda_tui.saves import Store, battle_log
from munda_tui.saves.folder import load_battle_data
from scripts.generate import write_generated_battle

# --- the lines: delta and apply -----------------------------------------------------------


def _ev(n: int) -> dict[str, Any]:
    return {"kind": "xp", "fighter": f"g/f{n}", "amount": 1 + n % 3}


@st.composite
def histories(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A battle part as the tracker changes it key by key: events recorded, undone and
    redone, owners' looks, a key set and taken away."""
    part: dict[str, Any] = {"log": [_ev(0)], "redo": []}
    out = [part]
    n = 1
    for op in draw(st.lists(st.sampled_from(["rec", "rec", "rec", "undo", "redo", "seen", "walk", "drop"]),
                            max_size=40)):
        log, redo = list(part["log"]), list(part.get("redo", []))
        new = dict(part)
        if op == "rec":
            log.append(_ev(n))
            n += 1
            redo = []
        elif op == "undo" and len(log) > 1:
            redo.append(log.pop())
        elif op == "redo" and redo:
            log.append(redo.pop())
        elif op == "seen":
            new["seen"] = {"g": [f"card{draw(st.integers(0, 3))}"]}
        elif op == "walk":
            new["start_walked"] = True
        elif op == "drop":
            new.pop("seen", None)
        new["log"], new["redo"] = log, redo
        out.append(new)
        part = new
    return out


@given(histories(), st.data())
@settings(max_examples=examples(150), deadline=None)
def test_the_journal_gives_every_state_and_again_on_any_folded_one(states: list[dict[str, Any]],
                                                                    data: st.DataObject) -> None:
    lines = [battle_log.delta(a, b) for a, b in zip(states, states[1:])]
    kept = [line for line in lines if line is not None]
    for j in range(len(states)):  # the file as folded at state 0, then lines 1..j
        assert battle_log.apply(states[0], [x for x in lines[:j] if x is not None]) == states[j]
    # a crash after the fold and before the journal was removed: the lines again, on the
    # folded file, give the same part (nothing doubled, nothing lost)
    k = data.draw(st.integers(0, len(states) - 1))
    assert battle_log.apply(states[k], kept) == states[-1]


def test_nothing_changed_is_no_line() -> None:
    part = {"log": [_ev(1)], "seen": {"g": ["a"]}}
    assert battle_log.delta(part, dict(part)) is None


def test_a_torn_last_line_and_a_hand_edit_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "b.events"
    battle_log.append(path, {"keep": 1, "log": [_ev(1)]})
    battle_log.append(path, {"set": {"start_walked": True}})
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"keep": 2, "log": [{"kind"')  # a crash in the middle of an append
    assert battle_log.read(path) == [{"keep": 1, "log": [_ev(1)]}, {"set": {"start_walked": True}}]
    path.write_bytes(whole + b'{"what": 1}\n' + whole)  # a line that is not the journal's
    assert len(battle_log.read(path)) == 2
    assert battle_log.read(tmp_path / "none.events") == []


# --- the handle: append, load, fold ---------------------------------------------------------


def _battle(data_dir: Path, events: int = 20) -> tuple[Store, str]:
    store = Store(data_dir)
    return store, write_generated_battle(store, per_side=3, events=events)


def test_a_key_appends_one_line_and_the_close_folds_it(data_dir: Path) -> None:
    store, slug = _battle(data_dir)
    with store.open_campaign(slug) as handle:
        part = handle.load_battle(1)["battle"]
        start = len(part["log"])
        handle.journal_battle(1, part)  # the tracker's first save: the whole part
        path = handle.battle_path(1)
        journal = battle_log.path_of(path)
        text = path.read_text(encoding="utf-8")
        for i in range(5):
            part = {**part, "log": part["log"] + [_ev(100 + i)]}
            handle.journal_battle(1, part)
        assert len(journal.read_text(encoding="utf-8").splitlines()) == 5
        assert path.read_text(encoding="utf-8") == text  # the battle file is not rewritten
        assert len(handle.load_battle(1)["battle"]["log"]) == start + 5
    assert not journal.exists()  # folded at the close
    assert len(load_battle_data(path)["battle"]["log"]) == start + 5


def test_a_journal_left_by_a_crash_is_read_at_the_next_load(data_dir: Path) -> None:
    store, slug = _battle(data_dir)
    handle = store.open_campaign(slug)
    part = handle.load_battle(1)["battle"]
    handle.journal_battle(1, part)
    handle.journal_battle(1, {**part, "log": part["log"] + [_ev(1)], "start_walked": True})
    journal = battle_log.path_of(handle.battle_path(1))
    lines = journal.read_bytes()
    handle.close()  # (folded: put the journal back as a crash would have left it)
    with store.open_campaign(slug) as again:
        again.update_battle(1, "battle", part, checked=True)
        journal.write_bytes(lines)
    with store.open_campaign(slug) as again:
        got = again.load_battle(1)["battle"]
        assert got["log"][-1] == _ev(1) and got["start_walked"] is True
        again.fold_battle_log(1)
        assert not journal.exists()
        assert again.load_battle(1)["battle"] == got


def test_the_journal_is_folded_every_so_many_lines(data_dir: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(battle_log, "FOLD_EVERY", 3)
    store, slug = _battle(data_dir)
    with store.open_campaign(slug) as handle:
        part = handle.load_battle(1)["battle"]
        handle.journal_battle(1, part)
        journal = battle_log.path_of(handle.battle_path(1))
        for i in range(3):
            part = {**part, "log": part["log"] + [_ev(i)]}
            handle.journal_battle(1, part)
        assert not journal.exists()  # the third line was a fold
        assert load_battle_data(handle.battle_path(1))["battle"]["log"][-1] == _ev(2)


def _appender(data_dir: Path, slug: str, ack: int, base: int) -> None:
    """The child: open the campaign and record events one by one, saying each saved."""
    handle = Store(data_dir).open_campaign(slug)
    part = handle.load_battle(1)["battle"]
    handle.journal_battle(1, part)
    os.write(ack, b"o")
    i = 0
    while True:
        part = {**part, "log": part["log"] + [_ev(base + i)]}
        handle.journal_battle(1, part)
        os.write(ack, b"s")
        i += 1


def test_kill_dash_nine_while_keys_are_saved_keeps_every_completed_one(data_dir: Path) -> None:
    store, slug = _battle(data_dir)
    with store.open_campaign(slug) as handle:
        start = len(handle.load_battle(1)["battle"]["log"])
    rng = random.Random(20261203)
    for kill in range(kills(12)):
        base = 1000 * (kill + 1)
        ready, done = os.pipe()
        pid = os.fork()
        if pid == 0:  # child
            try:
                os.close(ready)
                _appender(data_dir, slug, done, base)
            finally:
                os._exit(1)
        os.close(done)
        acked = 0
        try:
            assert os.read(ready, 1) == b"o"
            if kill % 4 == 0:  # now and then one save surely done first
                acked += os.read(ready, 1).count(b"s")
            time.sleep(rng.uniform(0.0, 0.03))
        finally:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            while chunk := os.read(ready, 4096):  # every save the child said was done
                acked += chunk.count(b"s")
            os.close(ready)
        with Store(data_dir).open_campaign(slug) as handle:
            log = handle.load_battle(1)["battle"]["log"]
        added = log[start:]
        # every save that returned is there; the one under way when killed may be too
        assert len(added) in (acked, acked + 1), f"kill {kill}: {len(added)} events for {acked} saved"
        assert added == [_ev(base + i) for i in range(len(added))]  # in order, none torn
        start = len(log)
