"""The benchmark behind the README's Performance section (issue 8).

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
  save after one event, the files' total size;
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
import shutil
import statistics
import subprocess
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

#: The child process. Identical for both apps: it patches App.run to run headless
#: at 120x40 and App.on_ready (posted after the first frame) to record the time
#: since the parent's perf_counter_ns just before the spawn (CLOCK_MONOTONIC on
#: Linux, shared across processes). The demo then waits for the campaign screen
#: (what `--demo` opens) so the peak RSS covers a real first screen.
CHILD = r"""
import json, os, sys, time
T0 = int(os.environ["MUNDA_BENCH_T0"])
KIND = sys.argv[1]
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
    if KIND != "demo":
        self.exit()
        return
    deadline = time.monotonic() + 20
    def shown():
        result["campaign_ns"] = time.perf_counter_ns() - T0
        self.exit()
    def poll():
        if type(self.screen).__name__ == "CampaignScreen":
            timer.stop()
            self.call_after_refresh(shown)
        elif time.monotonic() > deadline:
            timer.stop()
            result["error"] = "no campaign screen, at " + type(self.screen).__name__
            self.exit()
    timer = self.set_interval(0.002, poll)

App.run = run
App.on_ready = on_ready

if KIND == "demo":
    from munda_tui.cli import main
    main(["--demo"])
else:
    from textual.widgets import Footer, Header, Label

    class Bare(App):
        def compose(self):
            yield Header()
            yield Label("Hello")
            yield Footer()

    Bare().run()

with open(os.environ["MUNDA_BENCH_OUT"], "w") as out:
    json.dump(result, out)
"""


def startup_once(kind: str, workdir: Path, size: tuple[int, int] = SIZE) -> dict[str, Any]:
    """Start one child (``"demo"`` or ``"bare"``); its times (ms) and peak RSS (MB)."""
    workdir.mkdir(parents=True, exist_ok=True)
    run_dir = Path(tempfile.mkdtemp(prefix=f"{kind}-", dir=workdir))
    out = run_dir / "result.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MUNDA_TUI_")}
    (run_dir / "tmp").mkdir()
    (run_dir / "config").mkdir()
    env.update(
        TMPDIR=str(run_dir / "tmp"),  # --demo's throw-away data dir goes here
        MUNDA_TUI_CONFIG_DIR=str(run_dir / "config"),
        MUNDA_BENCH_OUT=str(out),
        MUNDA_BENCH_W=str(size[0]),
        MUNDA_BENCH_H=str(size[1]),
        PYTHONPATH=os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]),
    )
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
    stderr = proc.stderr.read()
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
        "rss_mb": usage.ru_maxrss / 1024,  # Linux: kilobytes
    }
    if "campaign_ns" in result:
        figures["campaign_ms"] = result["campaign_ns"] / 1e6
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


def measure_startup(runs: int, workdir: Path) -> dict[str, list[dict[str, Any]]]:
    """Alternate demo and bare runs (one warm-up each, not counted)."""
    ensure_bytecode()
    runs_by_kind: dict[str, list[dict[str, Any]]] = {"demo": [], "bare": []}
    startup_once("bare", workdir)
    startup_once("demo", workdir)
    for i in range(runs):
        order = ("demo", "bare") if i % 2 == 0 else ("bare", "demo")
        for kind in order:
            runs_by_kind[kind].append(startup_once(kind, workdir))
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
) -> list[KeyTiming]:
    """A timing per key: the key's action handler to the refreshed frame.

    The battle is ``scripts.generate.generated_battle_file`` (Sub-plot hands dealt so
    the watchers run). Keys are fed with Pilot but not timed by it: the app's
    ``_dispatch_action`` is wrapped so the clock starts when the key's action
    starts and stops in a ``call_after_refresh`` callback, i.e. after the frame
    that shows the change. Keys come ``pace`` seconds apart (a fast player), so
    Textual's 60 fps frame pacing does not hold a key back for the previous frame.
    """
    from munda_tui.app import MundaApp
    from munda_tui.saves import Store
    from munda_tui.screens.battle.screen import BattleScreen
    from scripts.generate import generated_battle_file

    campaign, data = generated_battle_file(seed=1, per_side=per_side, events=events, hands=HANDS)
    store = Store(data_dir)
    with store.create_campaign(campaign) as handle:
        handle.save_battle(1, data)
        slug = handle.slug
    app = MundaApp(data_dir, config_dir, seed=1, campaign=slug, today="2026-01-15")
    timings: list[KeyTiming] = []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.open_battle(1)
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, BattleScreen):
            raise RuntimeError(f"the battle tracker did not open ({type(screen).__name__})")
        if len(screen.battle.log) != events:
            raise RuntimeError(f"the battle holds {len(screen.battle.log)} events, not {events}")

        dispatch = app._dispatch_action
        done = asyncio.Event()
        started: list[tuple[str, int]] = []

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

        app._dispatch_action = timed  # type: ignore[method-assign]
        try:
            for i in range(keys):
                key = KEY_SCRIPT[i % len(KEY_SCRIPT)]
                done.clear()
                before = len(started)
                await pilot.press(key)
                if len(started) == before:
                    raise RuntimeError(f"key {key!r} ran no action on {type(app.screen).__name__}")
                await asyncio.wait_for(done.wait(), timeout=5)
                if app.screen is not screen:
                    raise RuntimeError(f"key {key!r} left the tracker for {type(app.screen).__name__}")
                await asyncio.sleep(pace)
        finally:
            app._dispatch_action = dispatch  # type: ignore[method-assign]
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
    load the last battle, record one event, ``handle.save_battle`` the whole dict.
    """
    from munda_tui.rules.battle import Battle, Event
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
    size, files = dir_size(folder, skip=(".backups",))
    campaign_size = (folder / "campaign.toml").stat().st_size

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
        battle = Battle.from_data(data["battle"])
        for i in range(saves):
            key = next(k for k, f in battle.state.fighters.items() if f.gang == battle.state.gangs[i % 2])
            battle.record(Event("xp", fighter=key, amount=1))
            t0 = time.perf_counter_ns()
            data["battle"] = battle.to_data()  # what BattleScreen._save does
            handle.save_battle(number, data)
            save_ms.append((time.perf_counter_ns() - t0) / 1e6)
    return {
        "open_ms": open_ms,
        "save_ms": save_ms,
        "size_bytes": size,
        "files": files,
        "campaign_bytes": campaign_size,
        "battle_events": len(battle.log),
    }


# --- the report ----------------------------------------------------------------------------------


def _load() -> str:
    """The 1-minute load average: other processes on the machine slow every figure."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:  # pragma: no cover - not on every platform
        return "unknown"


def _ms(v: float) -> str:
    return f"{v:.1f} ms"


def report_startup(runs_by_kind: dict[str, list[dict[str, Any]]]) -> list[str]:
    demo = [r["ready_ms"] for r in runs_by_kind["demo"]]
    bare = [r["ready_ms"] for r in runs_by_kind["bare"]]
    md, mb = statistics.median(demo), statistics.median(bare)
    ratio = md / mb
    lines = [
        f"start-up, munda-tui --demo to first frame: median {_ms(md)} over {len(demo)} runs",
        f"start-up, bare Textual app to first frame: median {_ms(mb)} over {len(bare)} runs",
        f"start-up ratio demo/bare: {ratio:.2f} {verdict(ratio, GOALS['startup_ratio'])}",
    ]
    cd = statistics.median(r["ready_cpu_ms"] for r in runs_by_kind["demo"])
    cb = statistics.median(r["ready_cpu_ms"] for r in runs_by_kind["bare"])
    lines.append(f"start-up CPU time to first frame (less sensitive to other load): demo median "
                 f"{_ms(cd)}, bare median {_ms(cb)}, ratio {cd / cb:.2f}")
    campaign = [r["campaign_ms"] for r in runs_by_kind["demo"] if "campaign_ms" in r]
    if campaign:
        lines.append(f"start-up, munda-tui --demo to the campaign screen: median {_ms(statistics.median(campaign))}")
    rss = max(r["rss_mb"] for r in runs_by_kind["demo"])
    lines.append(f"peak RSS, munda-tui --demo: {rss:.1f} MB (max of {len(demo)} runs) "
                 f"{verdict(rss, GOALS['rss_mb'])}")
    lines.append(f"peak RSS, bare Textual app: {max(r['rss_mb'] for r in runs_by_kind['bare']):.1f} MB")
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


def report_saves(s: dict[str, Any], gangs: int, fighters: int, battles: int) -> list[str]:
    what = f"{gangs} gangs x {fighters} fighters, {battles} battles"
    open_med, save_med = statistics.median(s["open_ms"]), statistics.median(s["save_ms"])
    return [
        f"saves, open campaign ({what}): median {_ms(open_med)} over {len(s['open_ms'])} "
        f"{verdict(open_med, GOALS['open_ms'])}",
        f"saves, save after one event ({s['battle_events']}-event battle): median {_ms(save_med)}, "
        f"p95 {_ms(percentile(s['save_ms'], 95))} over {len(s['save_ms'])} {verdict(save_med, GOALS['save_ms'])}",
        f"saves, files' total size: {s['size_bytes'] / 1e6:.2f} MB in {s['files']} files "
        f"(campaign.toml {s['campaign_bytes'] / 1e3:.0f} kB; backups not counted)",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/bench.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=["startup", "keys", "saves"], action="append",
                        help="run only these figures (repeatable)")
    parser.add_argument("--runs", type=int, default=10, help="start-up runs of each app (default 10)")
    parser.add_argument("--keys", type=int, default=240, help="keys pressed in the tracker (default 240)")
    parser.add_argument("--battles", type=int, default=300, help="battles in the saves campaign")
    parser.add_argument("--events", type=int, default=300, help="events per battle log")
    args = parser.parse_args(argv)
    only = set(args.only or ["startup", "keys", "saves"])
    m = machine()
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['os']}, Python {m['python']}, "
          f"Textual {m['textual']}; load average {_load()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="munda-bench-") as tmp:
        work = Path(tmp)
        if "startup" in only:
            for line in report_startup(measure_startup(args.runs, work / "startup")):
                print(line, flush=True)
        if "keys" in only:
            (work / "keys").mkdir()
            for line in report_keys(measure_keys(args.keys, work / "keys", events=args.events)):
                print(line, flush=True)
        if "saves" in only:
            (work / "saves").mkdir()
            s = measure_saves(work / "saves", battles=args.battles, events=args.events)
            for line in report_saves(s, 12, 20, args.battles):
                print(line, flush=True)
    print(f"load average at the end: {_load()}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
