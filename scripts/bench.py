"""The benchmark behind docs/performance.md (issue 8).

Run by hand from the repository (never by CI; not shipped in the package)::

    .venv/bin/python scripts/bench.py              # every figure
    .venv/bin/python -m scripts.bench --only saves --runs 20

It prints one line per figure:

* start-up: process start to Textual's ``Ready`` (the first frame) for
  ``munda-tui --demo`` headless at 120x40, against a bare Textual app (Header,
  Label, Footer) started the same way, alternating the two; medians and ratio;
* key latency in the battle tracker (2x15 fighters, 300 logged events): from
  the key's action handler to the refreshed frame (``call_after_refresh``);
* saves: a generated campaign of 12 gangs x 20 fighters and 300 battles: open,
  save after one event, the files' total size; the same save in a battle file commented
  by hand (200 and 1,000 events; its comments kept);
* peak memory (RSS) of the ``--demo`` run.

Nothing here runs at import time, and the module imports no Textual at the top,
so the script costs nothing until it measures. The test data comes from
``scripts/generate.py``, which the tests share.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import threading
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

#: the repository: its munda_tui is the one measured (also by the child processes),
#: even where another copy is installed in the environment
REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

SIZE = (120, 40)

GOALS = {
    "startup_ratio": 1.25,
    "key_p95_ms": 16.7,
    "open_ms": 150.0,
    "save_ms": 30.0,
    "rss_mb": 120.0,
    "campaign_ratio": 1.25,  # the league's campaign screen / the 12-gang one
    "battle_open_ms": 100.0,
    "step_p95_ms": 16.7,
    "league_rss_mb": 150.0,
    "merge_ms": 1000.0,  # issue 27: a league's merge, without the network
    # issue 33: a key's cost does not grow with the log (the tracker appends to a journal)
    "key_growth_ratio": 1.10,
    "sync_ratio": 2.0,  # issue 30.9: a whole sync / a plain git pull + push of the same change
    "fold_ms": 1000.0,  # issue 30.9: a 2,000-battle league's records folded from scratch
}

# --- helpers ------------------------------------------------------------------------------


def percentile(values: Sequence[float], p: float) -> float:
    """The p-th percentile (0..100), linear between the closest ranks."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    k = (len(ordered) - 1) * p / 100
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def verdict(value: float, goal: float) -> str:
    return f"(goal <= {goal:g}) {'ok' if value <= goal else 'MISS'}"


def machine() -> dict[str, str]:
    """CPU model, cores, OS, Python and Textual versions."""
    from importlib.metadata import version

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "textual": version("textual"),
    }


# --- start-up and peak memory ---------------------------------------------------------------

#: The child process. Identical for every app: it patches App.run to run headless
#: at 120x40 and App.on_ready (posted after the first frame) to record the time
#: since the parent's perf_counter_ns just before the spawn (CLOCK_MONOTONIC on
#: Linux, shared across processes). With a target screen (``MUNDA_BENCH_TARGET``)
#: it then records the first frame of that screen: the first frame itself if the
#: target is the first screen, else the frame after the target screen is shown.
CHILD = r"""
import json, os, sys, time
T0 = int(os.environ["MUNDA_BENCH_T0"])
KIND = sys.argv[1]
TARGET = os.environ.get("MUNDA_BENCH_TARGET", "")
result = {}
from textual.app import App

_run = App.run

def run(self, *args, **kwargs):
    kwargs.update(headless=True, size=(int(os.environ["MUNDA_BENCH_W"]), int(os.environ["MUNDA_BENCH_H"])))
    return _run(self, *args, **kwargs)

def on_ready(self):
    result["ready_ns"] = time.perf_counter_ns() - T0
    result["ready_cpu_ns"] = time.process_time_ns()
    result["ready_screen"] = type(self.screen).__name__
    if not TARGET:
        self.exit()
        return
    if type(self.screen).__name__ == TARGET:  # the first frame was the asked-for screen's
        result["target_ns"], result["target_cpu_ns"] = result["ready_ns"], result["ready_cpu_ns"]
        usable(self)
        return
    deadline = time.monotonic() + 60
    def shown():
        result["target_ns"] = time.perf_counter_ns() - T0
        result["target_cpu_ns"] = time.process_time_ns()
        usable(self)
    def poll():
        if type(self.screen).__name__ == TARGET:
            timer.stop()
            self.call_after_refresh(shown)
        elif time.monotonic() > deadline:
            timer.stop()
            result["error"] = "no " + TARGET + ", at " + type(self.screen).__name__
            self.exit()
    timer = self.set_interval(0.002, poll)

def usable(app):
    # a screen shown before all it needs is loaded says so (``settling``: keys wait);
    # the time it takes keys is measured too (the campaign decoded after its first frame)
    def ready():
        if not getattr(app.screen, "settling", False):
            result["usable_ns"] = time.perf_counter_ns() - T0
            check.stop()
            then(app)
    check = app.set_interval(0.001, ready)

def then(app):
    # MUNDA_BENCH_BATTLES: battles to open one after the other (each shown, then left)
    # before leaving, so the peak memory covers them too
    todo = [int(n) for n in os.environ.get("MUNDA_BENCH_BATTLES", "").split(",") if n]
    if not todo:
        app.exit()
        return
    base = app.screen
    state = {"opened": False}
    deadline = time.monotonic() + 60
    def step():
        if time.monotonic() > deadline:  # never hang the bench: say where it stopped
            timer.stop()
            result["error"] = "battles not all opened, at " + type(app.screen).__name__
            app.exit()
            return
        if not state["opened"]:
            if app.screen is base:
                app.open_battle(todo[0])
                state["opened"] = True
        elif app.screen is not base and app.screen.is_mounted:
            state["opened"] = False
            todo.pop(0)
            # the battle's screen and whatever it opened over itself (the start-of-game
            # curtain of a battle not yet begun)
            while app.screen is not base and len(app.screen_stack) > 1:
                app.pop_screen()
            if not todo:
                timer.stop()
                app.call_after_refresh(app.exit)
    timer = app.set_interval(0.05, step)

App.run = run
App.on_ready = on_ready

if KIND == "bare":
    from textual.widgets import Footer, Header, Label

    class Bare(App):
        def compose(self):
            yield Header()
            yield Label("Hello")
            yield Footer()

    Bare().run()
else:
    from munda_tui.cli import main
    main(json.loads(os.environ["MUNDA_BENCH_ARGV"]))

try:  # this process's own peak (VmHWM): ru_maxrss would also count the parent's pages
    # from before the exec (vfork), i.e. the size of the bench, not of the app
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                result["hwm_kb"] = int(line.split()[1])
except OSError:
    pass
with open(os.environ["MUNDA_BENCH_OUT"], "w") as out:
    json.dump(result, out)
"""


@dataclass(frozen=True)
class Start:
    """One way to start munda-tui: its arguments, the screen it asks for, its data dir
    (None: a fresh throw-away dir each run, as ``--demo``'s first run)."""

    argv: tuple[str, ...]
    target: str
    data_dir: Path | None = None
    battles: tuple[int, ...] = ()  # then opened one after the other, before leaving


def startup_once(kind: str, workdir: Path, size: tuple[int, int] = SIZE,
                 start: Start | None = None) -> dict[str, Any]:
    """Start one child: ``"bare"``, or munda-tui as ``start`` says (default: ``--demo``);
    its times (ms) and peak RSS (MB)."""
    if kind != "bare" and start is None:
        start = Start(("--demo",), "CampaignScreen")
    workdir.mkdir(parents=True, exist_ok=True)
    run_dir = Path(tempfile.mkdtemp(prefix=f"{kind}-", dir=workdir))
    out = run_dir / "result.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MUNDA_TUI_")}
    (run_dir / "tmp").mkdir()
    (run_dir / "config").mkdir()
    if os.environ.get("MUNDA_TUI_LOG_DIR"):
        env["MUNDA_TUI_LOG_DIR"] = os.environ["MUNDA_TUI_LOG_DIR"]  # (see main)
    env.update(
        TMPDIR=str(run_dir / "tmp"),  # --demo's throw-away data dir goes here
        MUNDA_TUI_CONFIG_DIR=str(run_dir / "config"),
        MUNDA_BENCH_OUT=str(out),
        MUNDA_BENCH_W=str(size[0]),
        MUNDA_BENCH_H=str(size[1]),
        PYTHONPATH=os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]),
    )
    if start is not None:
        env["MUNDA_BENCH_ARGV"] = json.dumps(list(start.argv))
        env["MUNDA_BENCH_TARGET"] = start.target
        if start.data_dir is not None:
            env["MUNDA_TUI_DATA_DIR"] = str(start.data_dir)
        env["MUNDA_BENCH_BATTLES"] = ",".join(str(n) for n in start.battles)
    t0 = time.perf_counter_ns()
    env["MUNDA_BENCH_T0"] = str(t0)
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, kind],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    # a child that never ends would hang the bench (and its test): killed after 180 s
    watchdog = threading.Timer(180, proc.kill)
    watchdog.start()
    try:
        stderr = proc.stderr.read()
    finally:
        watchdog.cancel()
    proc.stderr.close()
    _pid, status, usage = os.wait4(proc.pid, 0)  # the child's own rusage
    proc.returncode = os.waitstatus_to_exitcode(status)
    try:
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(
                f"{kind} start-up run failed ({proc.returncode}): "
                f"{stderr.decode(errors='replace')[-2000:]}"
            )
        result = json.loads(out.read_text())
        if "error" in result:
            raise RuntimeError(f"{kind} start-up run: {result['error']}")
    finally:
        shutil.rmtree(run_dir, ignore_errors=True)
    figures: dict[str, Any] = {
        "ready_ms": result["ready_ns"] / 1e6,
        "ready_cpu_ms": result["ready_cpu_ns"] / 1e6,  # the child's CPU time (user + system)
        "ready_screen": result["ready_screen"],
        # Linux: kilobytes; VmHWM where /proc has it (ru_maxrss counts the bench's own
        # pages from before the exec)
        "rss_mb": result.get("hwm_kb", usage.ru_maxrss) / 1024,
    }
    if "usable_ns" in result:
        figures["usable_ms"] = result["usable_ns"] / 1e6
    if "target_ns" in result:
        figures["target_ms"] = result["target_ns"] / 1e6
        figures["target_cpu_ms"] = result["target_cpu_ns"] / 1e6
    else:  # the bare app: its first frame is the screen it shows
        figures["target_ms"], figures["target_cpu_ms"] = figures["ready_ms"], figures["ready_cpu_ms"]
    return figures


def ensure_bytecode() -> None:
    """Byte-compile munda_tui as ``pip install`` does, so both apps start from bytecode.

    Textual's modules were compiled when pip installed them; an editable install (or
    PYTHONDONTWRITEBYTECODE=1) leaves munda_tui as source, and compiling ~40 modules on
    every start would be measured as start-up. A player's install has the bytecode.
    """
    import compileall

    import munda_tui

    compileall.compile_dir(str(Path(munda_tui.__file__).parent), quiet=1)


def startup_data(root: Path) -> Path:
    """The data dir of the ``munda-tui`` and ``--campaign`` starts: a player's two
    campaigns, the demo and a long one (12 gangs x 20 fighters, 300 battles)."""
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.saves import Store
    from scripts.generate import league_campaign

    data = root / "data"
    store = Store(data)
    store.create_campaign(demo_campaign()).close()
    store.create_campaign(league_campaign(12, 20, 300)).close()
    return data


def starts(data: Path) -> dict[str, Start]:
    """kind -> how it starts: the three ways to the screen the player asked for."""
    return {
        "demo": Start(("--demo",), "CampaignScreen"),
        "list": Start((), "HomeScreen", data),
        "campaign": Start(("--campaign", "long-campaign"), "CampaignScreen", data),
    }


def measure_startup(runs: int, workdir: Path) -> dict[str, list[dict[str, Any]]]:
    """Round-robin over bare and every start (one warm-up each, not counted), the order
    rotated each round so no kind always follows another."""
    ensure_bytecode()
    ways = starts(startup_data(workdir))
    kinds = ["bare", *ways]
    runs_by_kind: dict[str, list[dict[str, Any]]] = {k: [] for k in kinds}
    for kind in kinds:
        startup_once(kind, workdir / "runs", start=ways.get(kind))
    for i in range(runs):
        order = kinds[i % len(kinds):] + kinds[: i % len(kinds)]
        for kind in order:
            runs_by_kind[kind].append(startup_once(kind, workdir / "runs", start=ways.get(kind)))
    return runs_by_kind


# --- key latency in the battle tracker ---------------------------------------------------------

#: the common actions, as a player presses them: move the cursor, change a state,
#: conditions, XP, activation, VP, phase, undo/redo, switch crews
KEY_SCRIPT = (
    "down", "p", "x", "space", "down", "a", "b", "b", "down", "e", "x", "u",
    "down", "z", "z", "i", "i", "up", "space", "v", "u", "U", "right", "down",
    "p", "a", "x", "space", "down", "b", "b", "left", "n", "up", "e", "a",
)

HANDS = {"red-blades": ["escher:A", "escher:2"], "grey-hammers": ["goliath:A", "goliath:2"]}


@dataclass
class KeyTiming:
    action: str
    ms: float  # the key's action handler to the refreshed frame (wall clock)
    handler_ms: float  # of which the handler itself (the event recorded and saved)
    cpu_ms: float  # this thread's CPU time over the same span (no fsync, no other processes)


async def key_latency(
    data_dir: Path,
    config_dir: Path,
    *,
    keys: int = 240,
    per_side: int = 15,
    events: int = 300,
    pace: float = 0.03,
    size: tuple[int, int] = SIZE,
    battle: tuple[str, int] | None = None,
) -> list[KeyTiming]:
    """A timing per key: the key's action handler to the refreshed frame.

    The battle is ``scripts.generate.generated_battle_file`` (Sub-plot hands dealt so
    the watchers run), or ``battle`` = (campaign slug, battle number) already saved
    in ``data_dir``. Keys are fed with Pilot but not timed by it: the app's
    ``_dispatch_action`` is wrapped so the clock starts when the key's action
    starts and stops in a ``call_after_refresh`` callback, i.e. after the frame
    that shows the change. Keys come ``pace`` seconds apart (a fast player), so
    Textual's 60 fps frame pacing does not hold a key back for the previous frame.
    """
    from munda_tui.app import MundaApp
    from munda_tui.saves import Store
    from munda_tui.screens.battle.screen import BattleScreen
    from scripts.generate import generated_battle_file

    if battle is None:
        campaign, data = generated_battle_file(seed=1, per_side=per_side, events=events, hands=HANDS)
        store = Store(data_dir)
        with store.create_campaign(campaign) as handle:
            handle.save_battle(1, data)
            battle = (handle.slug, 1)
    slug, number = battle
    app = MundaApp(data_dir, config_dir, seed=1, campaign=slug, today="2026-01-15")
    timings: list[KeyTiming] = []
    async with app.run_test(size=size) as pilot:
        await _until(pilot, lambda: app.handle is not None and type(app.screen).__name__ == "CampaignScreen")
        app.open_battle(number)
        await _until(pilot, lambda: isinstance(app.screen, BattleScreen))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        if len(screen.battle.log) != events:
            raise RuntimeError(f"the battle holds {len(screen.battle.log)} events, not {events}")
        timings = await timed_keys(pilot, lambda i: KEY_SCRIPT[i % len(KEY_SCRIPT)], keys, pace)
    return timings


async def _until(pilot: Any, ready: Any, tries: int = 500) -> None:
    for _ in range(tries):
        if ready():
            return
        await pilot.pause()
    raise RuntimeError(f"timed out, at {type(pilot.app.screen).__name__}")


async def timed_keys(pilot: Any, key_of: Any, keys: int, pace: float,
                     before: Any = None) -> list[KeyTiming]:
    """Press ``key_of(i)`` for i in range(keys), each timed from its action handler to
    the frame after it (see :func:`key_latency`); ``before(i)`` (untimed) runs first and
    may return False to stop. The screen must stay the same."""
    app = pilot.app
    screen = app.screen
    dispatch = app._dispatch_action
    done = asyncio.Event()
    started: list[tuple[str, int]] = []
    timings: list[KeyTiming] = []

    def frame_shown(action: str, t0: int, c0: int, handler_ns: int) -> None:
        timings.append(KeyTiming(action, (time.perf_counter_ns() - t0) / 1e6,
                                 handler_ns / 1e6, (time.thread_time_ns() - c0) / 1e6))
        done.set()

    async def timed(namespace: Any, action_name: str, params: Any) -> bool:
        t0, c0 = time.perf_counter_ns(), time.thread_time_ns()
        started.append((action_name, t0))
        handled = await dispatch(namespace, action_name, params)
        app.call_after_refresh(frame_shown, action_name, t0, c0, time.perf_counter_ns() - t0)
        return handled

    app._dispatch_action = timed
    try:
        for i in range(keys):
            if before is not None:
                if before(i) is False:
                    break
                # what ``before`` did (an answer, untimed) is shown and looked at before
                # the timed key, as after a timed key: pressed at once, the key came
                # within that frame's interval and waited for Textual's next frame tick
                # (up to 1/60 s), which no player's two keys are close enough to meet
                await asyncio.sleep(pace)
            key = key_of(i)
            done.clear()
            count = len(started)
            await pilot.press(key)
            if len(started) == count:
                raise RuntimeError(f"key {key!r} ran no action on {type(app.screen).__name__}")
            await asyncio.wait_for(done.wait(), timeout=10)
            if app.screen is not screen:
                raise RuntimeError(f"key {key!r} left {type(screen).__name__} for {type(app.screen).__name__}")
            await asyncio.sleep(pace)
    finally:
        app._dispatch_action = dispatch
    return timings


def measure_keys(keys: int, workdir: Path, **kwargs: Any) -> list[KeyTiming]:
    root = Path(tempfile.mkdtemp(prefix="keys-", dir=workdir))
    try:
        (root / "data").mkdir()
        (root / "config").mkdir()
        return asyncio.run(key_latency(root / "data", root / "config", keys=keys, **kwargs))
    finally:
        shutil.rmtree(root, ignore_errors=True)


# --- saves -------------------------------------------------------------------------------------

def dir_size(path: Path, skip: Iterable[str] = ()) -> tuple[int, int]:
    """(bytes, files) under ``path``, leaving out top-level folders named in ``skip``."""
    total = files = 0
    for p in path.rglob("*"):
        if p.is_file() and p.relative_to(path).parts[0] not in skip:
            total += p.stat().st_size
            files += 1
    return total, files


def measure_saves(
    data_dir: Path,
    *,
    gangs: int = 12,
    fighters: int = 20,
    battles: int = 300,
    events: int = 300,
    opens: int = 20,
    saves: int = 30,
) -> dict[str, Any]:
    """Open and save times (ms) of a generated campaign, and its size on disk.

    Every battle file holds an ``events``-event log; the save is the tracker's:
    load the last battle, record one event, ``handle.update_battle`` its ``battle`` part.
    """
    from munda_tui.rules.battle.events import XpEvent
    from munda_tui.rules.battle.record import BattleRecord
    from munda_tui.saves import Store
    from scripts.generate import battle_data, league_campaign

    campaign = league_campaign(gangs, fighters, battles)
    store = Store(data_dir)
    with store.create_campaign(campaign) as handle:
        slug = handle.slug
        # Generating a log costs far more than saving it: build each distinct one once.
        for n in range(1, battles + 1):
            handle.save_battle(n, battle_data(handle.campaign, n, events))
    folder = store.campaign_dir(slug)
    size, files = dir_size(folder, skip=(".backups", ".cache"))
    campaign_size = campaign_bytes(folder)

    open_ms = []
    for _ in range(opens):
        t0 = time.perf_counter_ns()
        handle = store.open_campaign(slug)
        open_ms.append((time.perf_counter_ns() - t0) / 1e6)
        handle.close()

    save_ms = []
    with store.open_campaign(slug) as handle:
        number = handle.battle_numbers()[-1]
        data = handle.load_battle(number)
        record = BattleRecord.from_data(data["battle"])
        battle = record.battle
        for i in range(saves):
            key = next(k for k, f in battle.state.fighters.items() if f.gang == battle.state.gangs[i % 2])
            battle.log_event(XpEvent(fighter=key, amount=1))
            t0 = time.perf_counter_ns()
            # what BattleScreen._save does
            handle.update_battle(number, "battle", record.to_data(), checked=True)
            save_ms.append((time.perf_counter_ns() - t0) / 1e6)
    return {
        "open_ms": open_ms,
        "save_ms": save_ms,
        "size_bytes": size,
        "files": files,
        "campaign_bytes": campaign_size,
        "battle_events": len(battle.log),
    }


#: the hand-written comments the commented battle file's figure adds (issue 26 item 18:
#: they survive the app's saves): one at the top, one before the tracker's table, one
#: after a value of the log's first event, and one at the end
BATTLE_COMMENTS = ("# notes from the table: played at Ann's",
                   "# the tracker's log below",
                   "  # the first event, as Bo remembers it",
                   "# end of the file")


def comment_battle_file(path: Path) -> None:
    """Add :data:`BATTLE_COMMENTS` to a battle file as a player would, by hand."""
    lines = path.read_text(encoding="utf-8").split("\n")
    top, before, after, end = BATTLE_COMMENTS
    at = lines.index("[battle]")
    first = next(i for i, line in enumerate(lines) if i > at and line.startswith("kind = "))
    lines[first] += after
    lines.insert(at, before)
    lines.insert(0, top)
    path.write_text("\n".join(lines).rstrip("\n") + "\n" + end + "\n", encoding="utf-8")


def measure_commented_saves(data_dir: Path, events: Sequence[int] = (200, 1000),
                            saves: int = 20) -> list[dict[str, Any]]:
    """The tracker's save (one event recorded, ``update_battle`` of its ``battle`` part) in
    a battle file commented by hand (:func:`comment_battle_file`), for each log length in
    ``events``, and the same save in the same file without comments, the two taken in turn
    (a loaded machine slows both alike): their times (ms), and whether every comment was
    still in the commented file after its last save."""
    from munda_tui.rules.battle.events import XpEvent
    from munda_tui.rules.battle.record import BattleRecord
    from munda_tui.saves import Store
    from scripts.generate import write_generated_battle

    out = []
    for n in events:
        runs = {}
        for kind in ("commented", "plain"):
            store = Store(data_dir / f"{kind}-{n}")
            handle = store.open_campaign(write_generated_battle(store, events=n))
            if kind == "commented":
                comment_battle_file(handle.battle_path(1))
            runs[kind] = (handle, BattleRecord.from_data(handle.load_battle(1)["battle"]), [])
        try:
            for i in range(saves):
                for handle, record, times in runs.values():
                    state = record.battle.state
                    key = next(k for k, f in state.fighters.items() if f.gang == state.gangs[i % 2])
                    record.battle.log_event(XpEvent(fighter=key, amount=1))
                    t0 = time.perf_counter_ns()
                    handle.update_battle(1, "battle", record.to_data(), checked=True)
                    times.append((time.perf_counter_ns() - t0) / 1e6)
            text = runs["commented"][0].battle_path(1).read_text(encoding="utf-8")
        finally:
            for handle, _record, _times in runs.values():
                handle.close()
        out.append({"events": len(runs["commented"][1].battle.log), "save_ms": runs["commented"][2],
                    "plain_ms": runs["plain"][2],
                    "kept": all(c.strip() in text for c in BATTLE_COMMENTS)})
    return out


def report_commented_saves(results: list[dict[str, Any]]) -> list[str]:
    return [f"saves, save after one event in a battle file commented by hand ({r['events']}-event "
            f"battle): median {_ms(statistics.median(r['save_ms']))}, p95 "
            f"{_ms(percentile(r['save_ms'], 95))} over {len(r['save_ms'])} (the same file without "
            f"comments: median {_ms(statistics.median(r['plain_ms']))}); comments kept: "
            f"{'yes' if r['kept'] else 'NO'} {verdict(statistics.median(r['save_ms']), GOALS['save_ms'])}"
            for r in results]


# --- a league ----------------------------------------------------------------------------------


@dataclass
class League:
    """A generated league on disk (see ``scripts.generate.write_league``)."""

    data_dir: Path
    slug: str
    post: int  # the battle waiting for its post-battle sequence
    live: int  # the battle in the tracker
    gangs: int
    fighters: int
    battles: int
    events: int
    tracker_events: int
    size_bytes: int = 0
    files: int = 0
    campaign_bytes: int = 0
    seconds: float = 0.0  # to generate it

    @property
    def what(self) -> str:
        return f"{self.gangs} gangs x {self.fighters} fighters, {self.battles} battles"


def prepare_league(root: Path, gangs: int, fighters: int, battles: int, events: int = 300,
                   tracker_events: int = 1000, keep: Path | None = None) -> League:
    """Generate the league into ``root`` (once per bench run: reused if already there).

    With ``keep`` (``--keep DIR``) the league is generated into ``keep`` once, left
    untouched there, and copied into ``root`` for each run (the bench changes it: the
    tracker records keys, the wizard saves its draft): a league takes ~1 minute to
    generate and a second to copy."""
    from munda_tui.saves import Store
    from scripts.generate import write_league

    name = f"league-{gangs}x{fighters}x{battles}x{events}x{tracker_events}"
    data = root / name
    ready = data / "league.json"
    if ready.exists():
        d = json.loads(ready.read_text())
        return League(**{**d, "data_dir": Path(d["data_dir"])})
    if keep is not None:
        kept = prepare_league(keep, gangs, fighters, battles, events, tracker_events)
        shutil.copytree(keep / name, data, ignore=shutil.ignore_patterns("league.json"))
        league = League(**{**kept.__dict__, "data_dir": data})
        ready.write_text(json.dumps({**league.__dict__, "data_dir": str(data)}))
        return league
    t0 = time.perf_counter()
    hands = {"first": HANDS["red-blades"], "second": HANDS["grey-hammers"]}
    slug, post, live = write_league(Store(data), gangs, fighters, battles, events, tracker_events, hands)
    folder = Store(data).campaign_dir(slug)
    size, files = dir_size(folder, skip=(".backups", ".cache"))
    league = League(data, slug, post, live, gangs, fighters, battles, events, tracker_events,
                    size, files, campaign_bytes(folder), time.perf_counter() - t0)
    ready.write_text(json.dumps({**league.__dict__, "data_dir": str(data)}))
    return league


def _answer(seq: Any, rng: random.Random) -> None:
    """Answer the post-battle wizard's question as a hurried player would."""
    p = seq.pending
    if p.kind == "roll":
        seq.roll_for_me(rng)
    elif p.kind == "choice":
        seq.answer(p.default)
    elif p.kind == "multi":
        seq.answer(p.default or [])
    elif p.kind == "number":
        seq.answer(p.default if p.default is not None else max(0, p.minimum or 0))
    else:
        seq.answer(p.default or "Something")


async def _settle(pilot: Any) -> None:
    """Let a screen finish mounting (its widgets' own mount work) before leaving it."""
    for _ in range(3):
        await pilot.pause()


def _campaign_at_rest(app: Any, filled: int = 0) -> bool:
    """The campaign screen is shown with every row of its two tables (a league's 2,000
    battles are added a frame apart after its first frame; each return to the screen
    fills them again): a player opening a battle from it has looked at it for longer
    than that. ``filled``: its fill count when it was left (it refills once shown)."""
    from munda_tui.screens.campaign.campaign import CampaignScreen

    screen = app.screen
    if not isinstance(screen, CampaignScreen) or not screen.is_mounted or screen._fill <= filled:
        return False
    c = screen.campaign
    try:
        return (screen.query_one("#gangs").row_count == len(c.gangs)
                and screen.query_one("#battles").row_count == len(c.battles))
    except Exception:  # not composed yet
        return False


async def _frame_after(app: Any, act: Any, shown: Any, cpu: list[float] | None = None) -> float:
    """ms from ``act()`` to the frame after ``shown()`` first holds (polled without delay);
    the app thread's CPU time over the same span is appended to ``cpu``."""
    done = asyncio.Event()
    stamp: list[int] = []
    c0 = time.thread_time_ns()
    t0 = time.perf_counter_ns()
    act()
    for _ in range(100_000):
        if shown():
            break
        await asyncio.sleep(0)
    else:
        raise RuntimeError(f"never shown, at {type(app.screen).__name__}")
    app.call_after_refresh(lambda: (stamp.extend((time.perf_counter_ns(), time.thread_time_ns())), done.set()))
    await asyncio.wait_for(done.wait(), timeout=30)
    if cpu is not None:
        cpu.append((stamp[1] - c0) / 1e6)
    return (stamp[0] - t0) / 1e6


async def league_in_app(league: League, config_dir: Path, *, runs: int = 10, keys: int = 240,
                        steps: int = 60, pace: float = 0.03, size: tuple[int, int] = SIZE) -> dict[str, Any]:
    """In one app on the league: the campaign screen's first frame (the campaign open,
    and opened from the list), opening a battle (the tracker, the post-battle wizard, a
    finished battle's report), key latency in the tracker, step changes in the wizard."""
    from munda_tui.app import MundaApp
    from munda_tui.screens.battle.screen import BattleScreen
    from munda_tui.screens.campaign.campaign import CampaignScreen
    from munda_tui.screens.home.home import HomeScreen
    from munda_tui.screens.postbattle.screen import PostBattleScreen

    timed = ("campaign_ms", "campaign_open_ms", "tracker_open_ms", "wizard_open_ms", "report_open_ms")
    out: dict[str, Any] = {k: [] for k in timed}
    out.update({k + "_cpu": [] for k in timed})
    app = MundaApp(league.data_dir, config_dir, seed=1, today="2026-01-15")
    async with app.run_test(size=size) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, HomeScreen))
        out["campaign_keys_ms"] = []
        for _ in range(runs):  # from the list: open the campaign and show it
            t0 = time.perf_counter_ns()
            out["campaign_open_ms"].append(await _frame_after(
                app, lambda: app.open_campaign(league.slug),
                lambda: isinstance(app.screen, CampaignScreen) and app.screen.is_mounted,
                out["campaign_open_ms_cpu"]))
            # shown from its overview, it takes keys once decoded (after that frame)
            await _until(pilot, lambda: not app.screen.settling)
            out["campaign_keys_ms"].append((time.perf_counter_ns() - t0) / 1e6)
            await _settle(pilot)
            app.action_go_home()
            await pilot.pause()
        app.open_campaign(league.slug)
        await _until(pilot, lambda: isinstance(app.screen, CampaignScreen))
        for _ in range(runs):  # the campaign open: its screen alone
            await _settle(pilot)
            app.pop_screen()
            await _settle(pilot)
            out["campaign_ms"].append(await _frame_after(
                app, app._show_campaign,
                lambda: isinstance(app.screen, CampaignScreen) and app.screen.is_mounted,
                out["campaign_ms_cpu"]))
            await pilot.pause()
        await _until(pilot, lambda: _campaign_at_rest(app))
        for key, number, cls in (("tracker_open_ms", league.live, BattleScreen),
                                 ("wizard_open_ms", league.post, PostBattleScreen),
                                 ("report_open_ms", 1, PostBattleScreen)):
            for _ in range(runs):
                filled = app.screen._fill
                out[key].append(await _frame_after(
                    app, lambda n=number: app.open_battle(n),
                    lambda c=cls: isinstance(app.screen, c) and app.screen.is_mounted,
                    out[key + "_cpu"]))
                await _settle(pilot)
                app.pop_screen()
                await _until(pilot, lambda: _campaign_at_rest(app, filled))
        # key latency in the tracker
        app.open_battle(league.live)
        await _until(pilot, lambda: isinstance(app.screen, BattleScreen) and app.screen.is_mounted)
        await pilot.pause()
        tracker = app.screen
        out["tracker_events"] = len(tracker.battle.log)
        out["tracker_fighters"] = len(tracker.battle.state.fighters)
        out["keys"] = await timed_keys(pilot, lambda i: KEY_SCRIPT[i % len(KEY_SCRIPT)], keys, pace)
        filled = app.screen_stack[-2]._fill
        app.pop_screen()
        await _until(pilot, lambda: _campaign_at_rest(app, filled))
        out.update(await wizard_steps(app, pilot, league, steps, pace))
    return out


async def wizard_steps(app: Any, pilot: Any, league: League, steps: int, pace: float) -> dict[str, Any]:
    """Step changes in the post-battle wizard: answer (untimed), Enter to the next step,
    at the end b back to the first, and on again; from a campaign screen, back to it."""
    from munda_tui.screens.postbattle.screen import PostBattleScreen

    out: dict[str, Any] = {}
    app.open_battle(league.post)
    await _until(pilot, lambda: isinstance(app.screen, PostBattleScreen) and app.screen.is_mounted)
    await pilot.pause()
    wizard = app.screen
    seq = wizard.seq
    direction = {"key": "enter"}
    rng = random.Random(1)

    def before(i: int) -> bool:
        for _ in range(200):
            if seq.pending is None:
                break
            _answer(seq, rng)
            wizard._changed()
        else:
            return False
        if seq.at_end:
            direction["key"] = "b"
        elif seq.current == 0 or not any(st.status != "skipped" for st in seq.states[: seq.current]):
            direction["key"] = "enter"
        return True

    out["steps"] = await timed_keys(pilot, lambda i: direction["key"], steps, pace, before)
    out["wizard_steps"] = len(seq.steps)
    app.pop_screen()
    await pilot.pause()
    return out


async def steps_in_app(league: League, config_dir: Path, *, rounds: int = 10, steps: int = 60,
                       pace: float = 0.03, size: tuple[int, int] = SIZE) -> list[dict[str, Any]]:
    """Only the post-battle wizard's step changes (``--only steps``): ``rounds`` times
    opened from the campaign screen, ``steps`` step changes each."""
    from munda_tui.app import MundaApp
    from munda_tui.screens.campaign.campaign import CampaignScreen
    from munda_tui.screens.home.home import HomeScreen

    app = MundaApp(league.data_dir, config_dir, seed=1, today="2026-01-15")
    out = []
    async with app.run_test(size=size) as pilot:
        await _until(pilot, lambda: isinstance(app.screen, HomeScreen))
        app.open_campaign(league.slug)
        await _until(pilot, lambda: isinstance(app.screen, CampaignScreen))
        await _until(pilot, lambda: _campaign_at_rest(app))
        for _ in range(rounds):
            filled = app.screen._fill
            out.append(await wizard_steps(app, pilot, league, steps, pace))
            await _until(pilot, lambda: _campaign_at_rest(app, filled))
    return out


def report_steps(rounds: list[dict[str, Any]], lg: League) -> list[str]:
    """Each round's step-change p50 and p95 (wall and the app thread's CPU), and their medians."""
    med = statistics.median
    lines = []
    figures = []
    for i, r in enumerate(rounds):
        ms, cpu = [t.ms for t in r["steps"]], [t.cpu_ms for t in r["steps"]]
        f = (percentile(ms, 50), percentile(ms, 95), percentile(cpu, 50), percentile(cpu, 95))
        figures.append(f)
        lines.append(f"steps [{lg.what}] round {i + 1}: {len(ms)} step changes, p50 {_ms(f[0])} "
                     f"(CPU {_ms(f[2])}), p95 {_ms(f[1])} (CPU {_ms(f[3])})")
    p50, p95, c50, c95 = (med(f[k] for f in figures) for k in range(4))
    lines.append(f"league [{lg.what}] post-battle wizard step change ({rounds[0]['wizard_steps']} "
                 f"steps), medians of {len(rounds)} rounds: p50 {_ms(p50)} (CPU {_ms(c50)}), p95 "
                 f"{_ms(p95)} (CPU {_ms(c95)}) {verdict(p95, GOALS['step_p95_ms'])}")
    return lines


def league_saves(league: League, *, opens: int = 20, saves: int = 30, campaign_saves: int = 5) -> dict[str, Any]:
    """Open the league (``Store.open_campaign``); the tracker's autosave after one event
    in its long battle; a campaign save after a small change."""
    from munda_tui.rules.battle.events import XpEvent
    from munda_tui.rules.battle.record import BattleRecord
    from munda_tui.saves import Store

    store = Store(league.data_dir)
    open_ms = []
    open_cpu = []  # this thread's CPU time: what the open costs, apart from a loaded machine
    for _ in range(opens):
        t0, c0 = time.perf_counter_ns(), time.thread_time_ns()
        handle = store.open_campaign(league.slug)
        open_ms.append((time.perf_counter_ns() - t0) / 1e6)
        open_cpu.append((time.thread_time_ns() - c0) / 1e6)
        handle.close()
    save_ms: list[float] = []
    fsync_ms: list[float] = []
    campaign_ms: list[float] = []
    real_fsync = os.fsync
    waited = [0]

    def fsync(fd: int) -> None:  # the time the disk takes to make a write durable
        t = time.perf_counter_ns()
        real_fsync(fd)
        waited[0] += time.perf_counter_ns() - t

    with store.open_campaign(league.slug) as handle:
        data = handle.load_battle(league.live)
        record = BattleRecord.from_data(data["battle"])
        battle = record.battle
        os.fsync = fsync
        try:
            for i in range(saves):
                key = next(k for k, f in battle.state.fighters.items() if f.gang == battle.state.gangs[i % 2])
                battle.log_event(XpEvent(fighter=key, amount=1))
                waited[0] = 0
                t0 = time.perf_counter_ns()
                # what BattleScreen._save does
                handle.update_battle(league.live, "battle", record.to_data(), checked=True)
                save_ms.append((time.perf_counter_ns() - t0) / 1e6)
                fsync_ms.append(waited[0] / 1e6)
        finally:
            os.fsync = real_fsync
        for i in range(campaign_saves):
            handle.campaign.gangs[i % len(handle.campaign.gangs)].credits += 5
            t0 = time.perf_counter_ns()
            handle.save()
            campaign_ms.append((time.perf_counter_ns() - t0) / 1e6)
    return {"open_ms": open_ms, "open_cpu_ms": open_cpu, "save_ms": save_ms, "fsync_ms": fsync_ms,
            "campaign_save_ms": campaign_ms, "battle_events": len(battle.log)}


def measure_league(root: Path, gangs: int, fighters: int, battles: int, *, events: int = 300,
                   tracker_events: int = 1000, runs: int = 10, keys: int = 240, steps: int = 60,
                   rss_runs: int = 3, keep: Path | None = None) -> dict[str, Any]:
    league = prepare_league(root, gangs, fighters, battles, events, tracker_events, keep)
    config = Path(tempfile.mkdtemp(prefix="config-", dir=root))
    result: dict[str, Any] = {"league": league}
    result.update(asyncio.run(league_in_app(league, config, runs=runs, keys=keys, steps=steps)))
    result.update(league_saves(league))  # after: its events would lengthen the tracker's battle
    # the peak memory of a player's session: the campaign, its battle in the tracker, the
    # post-battle sequence and a finished battle's report
    start = Start(("--campaign", league.slug), "CampaignScreen", league.data_dir,
                  (league.live, league.post, 1))
    ensure_bytecode()
    result["process"] = [startup_once("league", root / "runs", start=start) for _ in range(rss_runs)]
    return result


# --- the report ----------------------------------------------------------------------------------


def _load() -> str:
    """The 1-minute load average: other processes on the machine slow every figure."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:  # pragma: no cover - not on every platform
        return "unknown"


def _ms(v: float) -> str:
    return f"{v:.1f} ms"


#: start kind -> what the line says it measures
STARTS_SAID = {
    "demo": "munda-tui --demo to its campaign screen",
    "list": "munda-tui to the list of campaigns",
    "campaign": "munda-tui --campaign long-campaign (12 gangs, 300 battles) to its screen",
}


def report_startup(runs_by_kind: dict[str, list[dict[str, Any]]]) -> list[str]:
    bare = runs_by_kind["bare"]
    mb = statistics.median(r["target_ms"] for r in bare)
    cb = statistics.median(r["target_cpu_ms"] for r in bare)
    lines = [f"start-up, bare Textual app (Header, Label, Footer) to its first frame: median "
             f"{_ms(mb)} (CPU {_ms(cb)}) over {len(bare)} runs"]
    for kind, said in STARTS_SAID.items():
        runs = runs_by_kind.get(kind)
        if not runs:
            continue
        md = statistics.median(r["target_ms"] for r in runs)
        cd = statistics.median(r["target_cpu_ms"] for r in runs)
        first = sorted({r["ready_screen"] for r in runs})
        ratio = md / mb
        usable = [r["usable_ms"] for r in runs if "usable_ms" in r]
        keys = f"; keys taken from {_ms(statistics.median(usable))}" if usable else ""
        lines.append(f"start-up, {said}: median {_ms(md)}, ratio to bare {ratio:.2f} "
                     f"{verdict(ratio, GOALS['startup_ratio'])}; CPU {_ms(cd)}, ratio {cd / cb:.2f}; "
                     f"first frame: {', '.join(first)}{keys}")
    demo = runs_by_kind.get("demo") or []
    if demo:
        rss = max(r["rss_mb"] for r in demo)
        lines.append(f"peak RSS, munda-tui --demo: {rss:.1f} MB (max of {len(demo)} runs) "
                     f"{verdict(rss, GOALS['rss_mb'])}; bare Textual app "
                     f"{max(r['rss_mb'] for r in bare):.1f} MB")
    return lines


def report_keys(timings: list[KeyTiming]) -> list[str]:
    ms = [t.ms for t in timings]
    p50, p95 = percentile(ms, 50), percentile(ms, 95)
    by_action: dict[str, list[float]] = {}
    for t in timings:
        by_action.setdefault(t.action, []).append(t.ms)
    slowest = max(by_action, key=lambda a: statistics.median(by_action[a]))
    handler = [t.handler_ms for t in timings]
    cpu = [t.cpu_ms for t in timings]
    return [
        f"key latency p50, battle tracker 2x15 fighters 300 events: {_ms(p50)} over {len(ms)} keys",
        f"key latency p95: {_ms(p95)} {verdict(p95, GOALS['key_p95_ms'])}",
        f"key latency, of which the handler (record + save): p50 {_ms(percentile(handler, 50))}, "
        f"p95 {_ms(percentile(handler, 95))}",
        f"key latency, CPU time of the app thread: p50 {_ms(percentile(cpu, 50))}, "
        f"p95 {_ms(percentile(cpu, 95))}",
        f"key latency max: {_ms(max(ms))}; slowest action by median: {slowest} "
        f"{_ms(statistics.median(by_action[slowest]))}",
    ]


def report_key_growth(short: list[KeyTiming], long: list[KeyTiming], events: tuple[int, int]) -> list[str]:
    """The tracker's key p95 in a short and a long battle, and their ratio: a key's cost
    must not grow with the log."""
    p_short = percentile([t.ms for t in short], 95)
    p_long = percentile([t.ms for t in long], 95)
    h_short = percentile([t.handler_ms for t in short], 95)
    h_long = percentile([t.handler_ms for t in long], 95)
    ratio = p_long / p_short if p_short else float("inf")
    return [
        f"key latency p95 at {events[0]:,} events: {_ms(p_short)} (handler {_ms(h_short)}); at "
        f"{events[1]:,} events: {_ms(p_long)} (handler {_ms(h_long)}) {verdict(p_long, GOALS['key_p95_ms'])}",
        f"key latency growth, p95 at {events[1]:,} / at {events[0]:,} events: {ratio:.2f}x "
        f"{verdict(ratio, GOALS['key_growth_ratio'])}",
    ]


def report_saves(s: dict[str, Any], gangs: int, fighters: int, battles: int) -> list[str]:
    what = f"{gangs} gangs x {fighters} fighters, {battles} battles"
    open_med, save_med = statistics.median(s["open_ms"]), statistics.median(s["save_ms"])
    return [
        f"saves, open campaign ({what}): median {_ms(open_med)} over {len(s['open_ms'])} "
        f"{verdict(open_med, GOALS['open_ms'])}",
        f"saves, save after one event ({s['battle_events']}-event battle): median {_ms(save_med)}, "
        f"p95 {_ms(percentile(s['save_ms'], 95))} over {len(s['save_ms'])} {verdict(save_med, GOALS['save_ms'])}",
        f"saves, files' total size: {s['size_bytes'] / 1e6:.2f} MB in {s['files']} files "
        f"(campaign.toml and gang files {s['campaign_bytes'] / 1e3:.0f} kB; backups and caches not counted)",
    ]


def campaign_bytes(folder: Path) -> int:
    """campaign.toml's size and its gang files' (``saves.folder``)."""
    gangs = folder / "gangs"
    return (folder / "campaign.toml").stat().st_size + sum(
        p.stat().st_size for p in (gangs.iterdir() if gangs.is_dir() else ()) if p.suffix == ".toml")


def measure_merge(root: Path, gangs: int = 50, fighters: int = 30, battles: int = 2000,
                  new: int = 5, events: int = 30, keep: Path | None = None) -> dict[str, Any]:
    """A league of ``gangs`` x ``battles`` on two laptops (a bare remote in ``root``: no
    network); ``new`` battles applied on each laptop between its own gangs, then laptop A
    syncs (pushes) and laptop B syncs, which merges. Times B's sync as a whole and its
    merge alone (the in-memory merge, the merged files written as one transaction and the
    campaign read again: the sync without git's fetch and push). With ``keep``
    (``--keep DIR``) the league with its records is generated into ``keep`` once and
    copied for each run."""
    import subprocess

    from munda_tui.rules.core.model import BattleSummary
    from munda_tui.rules.core.status import BattleStatus
    from munda_tui.saves import Store, league as lg
    from scripts.generate import write_league

    t0 = time.perf_counter()
    remote = root / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    kept = keep / f"merge-{gangs}x{fighters}x{battles}x{events}" if keep is not None else None
    if kept is not None and (kept / "merge.json").exists():
        shutil.copytree(kept / "a", root / "a", symlinks=True)
        a = Store(root / "a")
        slug, history = json.loads((kept / "merge.json").read_text())
    else:
        a = Store(root / "a")
        slug, _post, _live = write_league(a, gangs, fighters, battles, events, events)
        with a.open_campaign(slug) as handle:
            for s in handle.campaign.battles:  # every battle finished: every one is shared
                s.status = BattleStatus.DONE
            handle.save()
        history = give_records_history(a, slug)
        if kept is not None:
            shutil.rmtree(kept, ignore_errors=True)
            shutil.copytree(root / "a", kept / "a", symlinks=True)
            (kept / "merge.json").write_text(json.dumps([slug, history]))
    fold = measure_fold(a.campaign_dir(slug))
    unchanged, unchanged_cpu = [], []  # the campaign opened unchanged (its fold cached), before it is a league
    for _ in range(10):
        t, c = time.perf_counter(), time.thread_time()
        a.open_campaign(slug).close()
        unchanged.append((time.perf_counter() - t) * 1000)
        unchanged_cpu.append((time.thread_time() - c) * 1000)
    with a.open_campaign(slug) as handle:
        lg.init(handle, str(remote))
    b = Store(root / "b")
    lg.join(b, str(remote))
    generated = time.perf_counter() - t0

    def play(store: Store, first: int) -> None:
        with store.open_campaign(slug) as handle:
            c = handle.campaign
            for i in range(new):
                x, y = c.gangs[(first + 2 * i) % len(c.gangs)], c.gangs[(first + 2 * i + 1) % len(c.gangs)]
                c.battles.append(BattleSummary(c.next_battle_number(), "2027-01-01", "Generated",
                                               [x.id, y.id], x.id, BattleStatus.DONE))
                x.credits += 10
                x.fighters[0].xp += 2
                y.fighters[1].xp += 1
                handle.save()

    play(a, 0)  # gangs 1-10 on laptop A
    play(b, 2 * new)  # gangs 11-20 on laptop B
    with a.open_campaign(slug) as handle:
        lg.sync(handle)
    plain = plain_pull_push(root, b.campaign_dir(slug), remote)
    parts: dict[str, float] = {}
    real = {name: getattr(lg, name) for name in ("_merge", "_commit_files", "_bring_files_to")}

    def timed(name: str):  # type: ignore[no-untyped-def]
        def run(*args: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            try:
                return real[name](*args, **kw)
            finally:
                parts[name] = parts.get(name, 0.0) + time.perf_counter() - t
        return run

    with b.open_campaign(slug) as handle:
        for name in real:
            setattr(lg, name, timed(name))
        reload = handle.reload

        def timed_reload() -> None:
            t = time.perf_counter()
            reload()
            parts["reload"] = parts.get("reload", 0.0) + time.perf_counter() - t

        handle.reload = timed_reload  # type: ignore[method-assign]
        try:
            t, c = time.perf_counter(), time.thread_time()
            result = lg.sync(handle)
            total = time.perf_counter() - t
            total_cpu = time.thread_time() - c
        finally:
            for name, fn in real.items():
                setattr(lg, name, fn)
        merged = len(handle.campaign.battles)
    opens, cpu = [], []  # the merged league opened again (a git repository now), as a player does
    for _ in range(10):
        t, c = time.perf_counter(), time.thread_time()
        b.open_campaign(slug).close()
        opens.append(time.perf_counter() - t)
        cpu.append(time.thread_time() - c)
    return {"gangs": gangs, "battles": battles, "new": new, "total_ms": total * 1000, "total_cpu_ms": total_cpu * 1000,
            "merge_ms": sum(parts.values()) * 1000, "parts_ms": {k: v * 1000 for k, v in parts.items()},
            "merged_battles": merged, "received": len(result.received), "generated_s": generated,
            "history_records": history, "fold": fold, "unchanged_open_ms": unchanged,
            "unchanged_open_cpu_ms": unchanged_cpu,
            "plain_ms": plain * 1000, "sync_ratio": total / plain if plain else 0.0,
            "open_ms": [x * 1000 for x in opens], "open_cpu_ms": [x * 1000 for x in cpu]}


def give_records_history(store: Any, slug: str) -> int:
    """Make the generated league one that kept records from its start (issue 30): each
    gang's starting record as generated, then a battle record for each finished battle
    (an XP for a fighter of each gang, 5 credits to the winner), the gang files written
    as their fold. A league migrated on open has one empty record per battle (its
    changes are in the starting rosters), which folds for nothing: the fold and the sync
    are measured on the records a league played with munda-tui has. The records made."""
    from munda_tui.rules.history.fold import Record
    from munda_tui.saves import records as rec
    from munda_tui.saves.folder import battle_stem
    from munda_tui.saves.league_records import fold_texts

    with store.open_campaign(slug) as handle:  # (the migration: each gang's starting record)
        path = handle.path
        files = dict(handle._battle_files)
        done = [(s.number, s.date, list(s.gangs), s.winner) for s in handle.campaign.battles
                if str(s.status) == "done" and s.number in files]
        active = {g.id: [f.id for f in g.fighters if str(f.status) == "active"] for g in handle.campaign.gangs}
    records_dir = path / "records"
    for old in records_dir.glob("*.toml"):  # (the battles' own: written below, with changes)
        if "-start-" not in old.name:
            old.unlink()
    made = 0
    for number, _date, gangs, winner in done:
        changes: list[dict[str, Any]] = []
        for gid in gangs:
            if active.get(gid):
                fid = active[gid][number % len(active[gid])]
                changes.append({"kind": "xp", "gang": gid, "fighter": fid, "amount": 1, "why": "bench"})
        if winner:
            changes.append({"kind": "credits", "gang": winner, "amount": 5, "why": "bench"})
        # (dated in the battles' order: the generator's dates go round a year every 336
        # battles, and records sort by date first: the fold would renumber 2,000 battles)
        year, day = 2000 + (number - 1) // 336, (number - 1) % 336
        r = Record(id=f"{number:08d}bench", date=f"{year}-{day // 28 + 1:02d}-{day % 28 + 1:02d}", kind="battle",
                   battle=battle_stem(files[number]), changes=tuple(changes), by="bench", note=f"battle {number}")
        (records_dir / rec.file_name(r)).write_text(rec.record_text(r), encoding="utf-8")
        made += 1
    texts = {f"records/{p.name}": p.read_text(encoding="utf-8") for p in records_dir.glob("*.toml")}
    old_gangs = {f"gangs/{p.name}": p.read_text(encoding="utf-8") for p in (path / "gangs").glob("*.toml")}
    folded = fold_texts(path, texts, old_gangs)
    if folded.fold.questions or folded.problems:
        raise SystemExit(f"the bench's records do not fold cleanly: {folded.fold.questions[:1]} {folded.problems[:1]}")
    for name, text in folded.gangs.items():
        (path / name).write_text(text, encoding="utf-8")
    shutil.rmtree(path / ".cache", ignore_errors=True)
    store.open_campaign(slug).close()  # (the fold agreed with the files, cached)
    return made


def measure_fold(folder: Path, runs: int = 5) -> dict[str, Any]:
    """Folding the league from scratch (issue 30.9: at most 1 s), two ways. Cold: every
    record file read and parsed (no .cache), folded into the gangs, each gang file's text
    made and checked to load (``league_records.fold_texts`` with no gang files to
    compare). As the app folds from scratch (an open whose fold cache does not match,
    a sync's merge): the records' data through ``.cache/records-parsed.json`` (each file
    by its name, size and mtime: a file not known there is parsed), every record folded
    again, each gang compared with its file and made, written and loaded only where the
    fold changed it (``records.read_named`` and ``fold_texts``)."""
    from munda_tui.saves import folder as folder_module
    from munda_tui.saves.league_records import fold_texts
    from munda_tui.saves.records import Refs, read_named

    records_dir = folder / "records"
    fold_s, cpu, app_s, app_cpu = [], [], [], []
    count = app_count = 0
    read_named(folder, Refs({}).number_of)  # (the parsed records cached, as every open leaves them)
    for _ in range(runs):
        folder_module._PARSED.clear()  # (cold: no gang text this process parsed before)
        t, c = time.perf_counter(), time.thread_time()
        texts = {f"records/{p.name}": p.read_text(encoding="utf-8") for p in records_dir.glob("*.toml")}
        folded = fold_texts(folder, texts, {})
        fold_s.append(time.perf_counter() - t)
        cpu.append(time.thread_time() - c)
        count = len(folded.records)
        t, c = time.perf_counter(), time.thread_time()
        refs = Refs({})
        known, _problems = read_named(folder, refs.number_of)
        gangs = {f"gangs/{p.name}": p.read_text(encoding="utf-8") for p in (folder / "gangs").glob("*.toml")}
        folded = fold_texts(folder, {}, gangs, {f"records/{n}": r for n, r in known.items()}, refs)
        app_s.append(time.perf_counter() - t)
        app_cpu.append(time.thread_time() - c)
        app_count = len(folded.records)
    return {"records": count, "fold_ms": [x * 1000 for x in fold_s], "fold_cpu_ms": [x * 1000 for x in cpu],
            "app_records": app_count, "app_fold_ms": [x * 1000 for x in app_s],
            "app_fold_cpu_ms": [x * 1000 for x in app_cpu]}


def plain_pull_push(root: Path, folder: Path, remote: Path) -> float:
    """Seconds of a plain ``git pull`` + ``git push`` of the same change as laptop B's sync
    (B's changes committed as one commit first, not timed), on copies of B's folder and of
    the remote: what a player who knows git would wait for (issue 30.9's yardstick)."""
    import subprocess

    copy, remote_copy = root / "plain" / folder.name, root / "plain" / "remote.git"
    shutil.copytree(folder, copy, symlinks=True)
    shutil.copytree(remote, remote_copy, symlinks=True)

    def run(*args: str) -> None:
        subprocess.run(["git", "-C", str(copy), "-c", "user.name=bench", "-c", "user.email=bench@x", *args],
                       check=True, capture_output=True)

    run("remote", "set-url", "origin", str(remote_copy))
    run("add", "-A")
    run("commit", "-q", "-m", "the same change, by hand")
    t = time.perf_counter()
    run("pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    run("push", "-q", "origin", "HEAD:main")
    return time.perf_counter() - t


def report_merge(r: dict[str, Any]) -> list[str]:
    parts = ", ".join(f"{k.strip('_')} {_ms(v)}" for k, v in r["parts_ms"].items())
    return [f"league merge [{r['gangs']}x{r['battles']}, {r['new']} new battles on each of two laptops]: "
            f"the merge {_ms(r['merge_ms'])} {verdict(r['merge_ms'], GOALS['merge_ms'])} ({parts}); "
            f"the whole sync with a local remote {_ms(r['total_ms'])} (this process's CPU "
            f"{_ms(r['total_cpu_ms'])}, git's not counted), {r['sync_ratio']:.1f}x a plain git pull + "
            f"push of the same change ({_ms(r['plain_ms'])}) {verdict(r['sync_ratio'], GOALS['sync_ratio'])}; "
            f"{r['merged_battles']} battles after it "
            f"(generated in {r['generated_s']:.0f} s)",
            f"league fold from scratch [{r['gangs']}x{r['battles']}, {r['fold']['app_records']} records, "
            f"{r['history_records']} of them battles], as the app folds (parsed records cached, gangs compared "
            f"with their files): median {_ms(statistics.median(r['fold']['app_fold_ms']))} over "
            f"{len(r['fold']['app_fold_ms'])} {verdict(statistics.median(r['fold']['app_fold_ms']), GOALS['fold_ms'])}; "
            f"CPU median {_ms(statistics.median(r['fold']['app_fold_cpu_ms']))}",
            f"league fold from scratch, cold [{r['gangs']}x{r['battles']}, {r['fold']['records']} records: every "
            f"file read and parsed, every gang text made and loaded]: median "
            f"{_ms(statistics.median(r['fold']['fold_ms']))} over {len(r['fold']['fold_ms'])} "
            f"{verdict(statistics.median(r['fold']['fold_ms']), GOALS['fold_ms'])}; "
            f"CPU median {_ms(statistics.median(r['fold']['fold_cpu_ms']))}",
            f"league [{r['gangs']}x{r['battles']}] open the campaign unchanged (records kept): median "
            f"{_ms(statistics.median(r['unchanged_open_ms']))} over {len(r['unchanged_open_ms'])} "
            f"{verdict(statistics.median(r['unchanged_open_ms']), GOALS['open_ms'])}; CPU median "
            f"{_ms(statistics.median(r['unchanged_open_cpu_ms']))}",
            f"league merged [{r['gangs']}x{r['battles']}] open the campaign: median "
            f"{_ms(statistics.median(r['open_ms']))} over {len(r['open_ms'])} (first {_ms(r['open_ms'][0])}) "
            f"{verdict(statistics.median(r['open_ms']), GOALS['open_ms'])}; CPU median "
            f"{_ms(statistics.median(r['open_cpu_ms']))}"]


def report_league(r: dict[str, Any], base: dict[str, Any] | None) -> list[str]:
    """One line per league figure; ``base``: the 12-gang league's figures (the campaign
    screen's goal is a ratio to its campaign screen)."""
    lg: League = r["league"]
    p95 = lambda v: percentile(v, 95)  # noqa: E731
    med = statistics.median
    w = f"[{lg.what}]"
    lines = [
        f"league {w} files: {lg.size_bytes / 1e6:.1f} MB in {lg.files} files (campaign.toml and gangs "
        f"{lg.campaign_bytes / 1e3:.0f} kB), generated in {lg.seconds:.0f} s",
        f"league {w} open campaign: median {_ms(med(r['open_ms']))} over {len(r['open_ms'])} "
        f"{verdict(med(r['open_ms']), GOALS['open_ms'])}; CPU median {_ms(med(r['open_cpu_ms']))}, "
        f"min {_ms(min(r['open_cpu_ms']))}",
    ]
    cm, cc = med(r["campaign_ms"]), med(r["campaign_ms_cpu"])
    if base is not None and base is not r:
        ratio = cm / med(base["campaign_ms"])
        lines.append(f"league {w} campaign screen first frame (campaign open): median {_ms(cm)} "
                     f"(CPU {_ms(cc)}), {ratio:.2f}x the 12-gang figure {verdict(ratio, GOALS['campaign_ratio'])}; "
                     f"CPU ratio {cc / med(base['campaign_ms_cpu']):.2f}")
    else:
        lines.append(f"league {w} campaign screen first frame (campaign open): median {_ms(cm)} (CPU {_ms(cc)})")
    lines.append(f"league {w} open the campaign from the list to its first frame: median "
                 f"{_ms(med(r['campaign_open_ms']))} (CPU {_ms(med(r['campaign_open_ms_cpu']))}); "
                 f"keys taken from {_ms(med(r['campaign_keys_ms']))}")
    for key, said in (("tracker_open_ms", f"a battle in the tracker ({r['tracker_events']} events)"),
                      ("wizard_open_ms", "a battle's post-battle sequence"),
                      ("report_open_ms", "a finished battle's report")):
        lines.append(f"league {w} open {said} to its first frame: median {_ms(med(r[key]))} "
                     f"(CPU {_ms(med(r[key + '_cpu']))}), max {_ms(max(r[key]))} "
                     f"{verdict(med(r[key]), GOALS['battle_open_ms'])}")
    keys = [t.ms for t in r["keys"]]
    lines.append(f"league {w} tracker key latency, {r['tracker_fighters']} fighters, "
                 f"{r['tracker_events']}+ events: p50 {_ms(percentile(keys, 50))}, p95 {_ms(p95(keys))} "
                 f"over {len(keys)} keys {verdict(p95(keys), GOALS['key_p95_ms'])}; handler "
                 f"(record + autosave) p95 {_ms(p95([t.handler_ms for t in r['keys']]))}; CPU p95 "
                 f"{_ms(p95([t.cpu_ms for t in r['keys']]))}")
    steps = [t.ms for t in r["steps"]]
    lines.append(f"league {w} post-battle wizard step change ({r['wizard_steps']} steps): p50 "
                 f"{_ms(percentile(steps, 50))}, p95 {_ms(p95(steps))} over {len(steps)} "
                 f"{verdict(p95(steps), GOALS['step_p95_ms'])}; CPU p95 {_ms(p95([t.cpu_ms for t in r['steps']]))}")
    lines.append(f"league {w} autosave after one event ({r['battle_events']}-event battle): median "
                 f"{_ms(med(r['save_ms']))}, p95 {_ms(p95(r['save_ms']))} over {len(r['save_ms'])} "
                 f"{verdict(p95(r['save_ms']), GOALS['save_ms'])}; of which the fsync: median "
                 f"{_ms(med(r['fsync_ms']))}, p95 {_ms(p95(r['fsync_ms']))}")
    cs = r["campaign_save_ms"]
    lines.append(f"league {w} campaign save (a gang changed) after a change: first {_ms(cs[0])}, then median "
                 f"{_ms(med(cs[1:] or cs))}")
    proc = r["process"]
    rss = max(p["rss_mb"] for p in proc)
    lines.append(f"league {w} munda-tui --campaign to its screen (process start): median "
                 f"{_ms(med(p['target_ms'] for p in proc))}; peak RSS with its tracker, post-battle "
                 f"sequence and a report opened after: {rss:.1f} MB (max of {len(proc)}) "
                 f"{verdict(rss, GOALS['league_rss_mb'])}")
    return lines


def report_growth(small: dict[str, Any], big: dict[str, Any]) -> list[str]:
    """How each league figure grows from the smaller to the larger history."""
    med = statistics.median
    p95 = lambda v: percentile(v, 95)  # noqa: E731
    figures = [
        ("open", med(small["open_ms"]), med(big["open_ms"])),
        ("campaign screen", med(small["campaign_ms"]), med(big["campaign_ms"])),
        ("open tracker", med(small["tracker_open_ms"]), med(big["tracker_open_ms"])),
        ("open wizard", med(small["wizard_open_ms"]), med(big["wizard_open_ms"])),
        ("open report", med(small["report_open_ms"]), med(big["report_open_ms"])),
        ("key p95", p95([t.ms for t in small["keys"]]), p95([t.ms for t in big["keys"]])),
        ("step p95", p95([t.ms for t in small["steps"]]), p95([t.ms for t in big["steps"]])),
        ("autosave p95", p95(small["save_ms"]), p95(big["save_ms"])),
        ("campaign save", med(small["campaign_save_ms"]), med(big["campaign_save_ms"])),
        ("peak RSS (MB)", max(p["rss_mb"] for p in small["process"]), max(p["rss_mb"] for p in big["process"])),
    ]
    a, b = small["league"].battles, big["league"].battles
    return [f"growth {a} -> {b} battles ({b / a:.1f}x the history): "
            + "; ".join(f"{name} {x:.1f} -> {y:.1f} ({y / x:.2f}x)" for name, x, y in figures)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/bench.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["startup", "keys", "saves", "league", "steps", "merge"], action="append",
                        help="run only these figures (repeatable)")
    parser.add_argument("--runs", type=int, default=10, help="start-up runs of each app (default 10)")
    parser.add_argument("--keys", type=int, default=240, help="keys pressed in the tracker (default 240)")
    parser.add_argument("--battles", type=int, default=300, help="battles in the saves campaign")
    parser.add_argument("--events", type=int, default=300, help="events per battle log")
    parser.add_argument("--commented-events", default="200,1000",
                        help="log lengths of the battle files commented by hand (comma-separated)")
    parser.add_argument("--league", default="12x20x300,50x30x300,50x30x2000",
                        help="leagues as GANGSxFIGHTERSxBATTLES, comma-separated (the first is the "
                        "base of the campaign screen's goal; default %(default)s)")
    parser.add_argument("--tracker-events", type=int, default=1000,
                        help="events in the league's battle in the tracker (default 1000)")
    parser.add_argument("--steps", type=int, default=60, help="post-battle step changes (default 60)")
    parser.add_argument("--keep", type=Path, default=None, metavar="DIR",
                        help="generate the leagues into DIR once and reuse them in later runs "
                        "(each run works on a copy)")
    args = parser.parse_args(argv)
    only = set(args.only or ["startup", "keys", "saves", "league", "merge"])  # steps: part of league
    m = machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['os']}, Python {m['python']}, "
          f"Textual {m['textual']}; load average {_load()}", flush=True)
    # an app that crashes here writes its crash file beside the bench's runs, never into
    # the user's own log folder; kept (and said) only if there is one
    log_dir = Path(tempfile.mkdtemp(prefix="munda-bench-log-"))
    before = os.environ.get("MUNDA_TUI_LOG_DIR")
    os.environ["MUNDA_TUI_LOG_DIR"] = str(log_dir)
    try:
        return _run_parts(args, only, log_dir)
    finally:
        if before is None:
            os.environ.pop("MUNDA_TUI_LOG_DIR", None)
        else:
            os.environ["MUNDA_TUI_LOG_DIR"] = before
        crashes = sorted(log_dir.glob("*"))
        if crashes:
            print(f"crash files written during the run: {', '.join(str(c) for c in crashes)}",
                  flush=True)
        else:
            shutil.rmtree(log_dir, ignore_errors=True)


def _run_parts(args: argparse.Namespace, only: set[str], log_dir: Path) -> int:
    with tempfile.TemporaryDirectory(prefix="munda-bench-") as tmp:
        work = Path(tmp)
        if "startup" in only:
            for line in report_startup(measure_startup(args.runs, work / "startup")):
                print(line, flush=True)
        if "keys" in only:
            (work / "keys").mkdir()
            for line in report_keys(measure_keys(args.keys, work / "keys", events=args.events)):
                print(line, flush=True)
            sizes = (20, 2000)
            grown = []
            for n in sizes:
                (work / f"keys-{n}").mkdir()
                grown.append(measure_keys(args.keys, work / f"keys-{n}", events=n))
            for line in report_key_growth(grown[0], grown[1], sizes):
                print(line, flush=True)
        if "saves" in only:
            (work / "saves").mkdir()
            s = measure_saves(work / "saves", battles=args.battles, events=args.events)
            for line in report_saves(s, 12, 20, args.battles):
                print(line, flush=True)
            sizes = [int(n) for n in args.commented_events.split(",") if n.strip()]
            for line in report_commented_saves(measure_commented_saves(work / "saves", sizes)):
                print(line, flush=True)
        if "league" in only:
            (work / "league").mkdir()
            results = []
            for spec in args.league.split(","):
                gangs, fighters, battles = (int(x) for x in spec.lower().split("x"))
                r = measure_league(work / "league", gangs, fighters, battles, events=args.events,
                                   tracker_events=args.tracker_events, runs=args.runs,
                                   keys=args.keys, steps=args.steps, keep=args.keep)
                for line in report_league(r, results[0] if results else None):
                    print(line, flush=True)
                results.append(r)
            same = [r for r in results[1:] if (r["league"].gangs, r["league"].fighters)
                    == (results[-1]["league"].gangs, results[-1]["league"].fighters)]
            if len(same) >= 2:
                for line in report_growth(same[0], same[-1]):
                    print(line, flush=True)
        if "steps" in only:  # the post-battle step changes alone, on the last league given
            (work / "steps").mkdir()
            gangs, fighters, battles = (int(x) for x in args.league.split(",")[-1].lower().split("x"))
            league = prepare_league(work / "steps", gangs, fighters, battles, args.events,
                                    args.tracker_events, args.keep)
            config = Path(tempfile.mkdtemp(prefix="config-", dir=work / "steps"))
            rounds = asyncio.run(steps_in_app(league, config, rounds=args.runs, steps=args.steps))
            for line in report_steps(rounds, league):
                print(line, flush=True)
        if "merge" in only:  # a league on two laptops, 5 new battles on each, merged
            (work / "merge").mkdir()
            gangs, _fighters, battles = (int(x) for x in args.league.split(",")[-1].lower().split("x"))
            for line in report_merge(measure_merge(work / "merge", gangs, 30, battles, keep=args.keep)):
                print(line, flush=True)
    print(f"load average at the end: {_load()}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
