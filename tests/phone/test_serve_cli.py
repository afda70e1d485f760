"""`munda-tui serve CAMPAIGN` beside a tracker: links behind curtains, pages follow the
battle file, a finished battle's links answer 404, the campaign is never written."""

from __future__ import annotations

import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from munda_tui.rules.battle.events import Battle, Event, start_event
from munda_tui.rules.core.model import BattleSummary
from munda_tui.saves import Store

from phone_support import G, THREE_DOWN, V, battle, get, status_and_body

REPO = Path(__file__).resolve().parents[2]


def files_of(directory: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_mtime_ns, p.stat().st_size)
            for p in sorted(directory.rglob("*")) if p.is_file()}


def make_campaign(data_dir: Path) -> tuple[Path, object, object]:
    c, setup, b = battle()
    c.battles.append(BattleSummary(1, date="2026-01-15", gangs=[V, G], status="battle"))
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, {"setup": setup.to_data(), "battle": b.to_data()})
    return data_dir / "campaigns" / c.id, setup, c


def test_serve_shows_links_follows_the_battle_and_retires_it(data_dir: Path) -> None:
    directory, setup, c = make_campaign(data_dir)
    env = {**os.environ, "MUNDA_TUI_DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "munda_tui", "serve", "demo", "--bind", "127.0.0.1:0",
         "--for-seconds", "30"],
        cwd=REPO, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True)
    lines: "queue.Queue[str]" = queue.Queue()
    threading.Thread(target=lambda: [lines.put(x) for x in proc.stdout], daemon=True).start()  # type: ignore[union-attr]

    def read_until(pattern: str, timeout: float = 30.0) -> list[str]:
        seen = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.1)
            except queue.Empty:
                continue
            seen.append(line)
            if re.search(pattern, line):
                return seen
        raise AssertionError(f"no {pattern!r} in:\n{''.join(seen)}")

    try:
        assert proc.stdin is not None
        before = read_until(r"Serving the hands of battle 1 on 127\.0\.0\.1:\d+")
        assert not any("/h/" in line for line in before)  # no link before a curtain
        urls = {}
        for gang in (V, G):
            proc.stdin.write("\n")  # the player is alone at the screen
            proc.stdin.flush()
            shown = read_until(r"http://127\.0\.0\.1:\d+/h/")
            urls[gang] = next(re.search(r"http://\S+", x).group(0) for x in shown if "/h/" in x)
            assert sum("/h/" in x for x in shown) == 1  # only this player's link
            proc.stdin.write("\n")  # hide it
            proc.stdin.flush()
        read_until(r"follow battle 1 live")
        port = int(urls[V].split(":")[2].split("/")[0])
        path = {g: "/" + u.split("/", 3)[3] for g, u in urls.items()}
        v_page = status_and_body(get(port, path[V]))[2].decode()
        assert "Murder Run" in v_page and "Pit Fight" not in v_page
        g_page = status_and_body(get(port, path[G]))[2].decode()
        assert "Pit Fight" in g_page and "Murder Run" not in g_page

        # the tracker (here: the store) logs three enemies down: the page follows
        with Store(data_dir).open_campaign("demo") as h:
            data = h.load_battle(1)
            b = Battle.from_data(data["battle"])
            for ev in THREE_DOWN:
                b.log_event(ev)
            h.save_battle(1, {**data, "battle": b.to_data()})
        deadline = time.monotonic() + 3
        while "Met: you may reveal it" not in get(port, path[V]).decode():
            assert time.monotonic() < deadline, "the page never showed the card met"
            time.sleep(0.1)

        quiet = files_of(directory)
        time.sleep(1.2)  # a few polls: serve only reads
        assert files_of(directory) == quiet

        # the battle is finished: its links answer 404 and serve waits for the next one
        with Store(data_dir).open_campaign("demo") as h:
            h.campaign.battles[-1].status = "post-battle"
            h.save()
        read_until(r"Battle 1 is finished")
        for gang in (V, G):
            status, headers, body = status_and_body(get(port, path[gang]))
            assert (status, body) == (404, b"")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(10) == 0
        rest = proc.stdout.read() if proc.stdout else ""  # type: ignore[union-attr]
        assert proc.stderr is not None and proc.stderr.read() == ""
        assert "no longer work" in "".join(list(lines.queue)) + rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)


def test_serve_without_a_battle_in_the_tracker_says_so(data_dir: Path) -> None:
    c, setup, b = battle()
    with Store(data_dir).create_campaign(c):
        pass
    env = {**os.environ, "MUNDA_TUI_DATA_DIR": str(data_dir)}
    out = subprocess.run(
        [sys.executable, "-m", "munda_tui", "serve", "demo", "--bind", "127.0.0.1:0",
         "--battle", "4"], cwd=REPO, env=env, capture_output=True, text=True, timeout=30,
        stdin=subprocess.DEVNULL)
    assert out.returncode == 1
    assert "battle 4 is not being fought in the tracker" in out.stderr
    out = subprocess.run(
        [sys.executable, "-m", "munda_tui", "serve", "nowhere"], cwd=REPO, env=env,
        capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert out.returncode == 1 and "no campaign 'nowhere'" in out.stderr
    out = subprocess.run(
        [sys.executable, "-m", "munda_tui", "serve", "demo", "--bind", "my-laptop"], cwd=REPO,
        env=env, capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert out.returncode == 2 and "is not an IP address" in out.stderr
