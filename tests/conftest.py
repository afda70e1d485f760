"""Test isolation and shared fixtures.

Every test gets its own data and config dirs (never the player's real ones),
and the environment variables that point the app at them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def pytest_configure(config: pytest.Config) -> None:
    """Pilot's idle wait in 4 ms slices instead of 20 ms.

    After every key and every ``pilot.pause()`` Textual sleeps in slices until one passes
    with the process (nearly) idle (textual._wait.wait_for_idle, at least one slice, twice
    per key). At 20 ms a slice that was most of a Pilot test's time on an idle machine:
    a 200-key test slept 16 s for 4 s of work. The test is the same: it still waits until
    the app has no work left (5% of a slice, as before); it only looks more often.
    """
    try:
        from textual import _wait
    except ImportError:  # pragma: no cover - textual is a dependency
        return
    _wait.SLEEP_GRANULARITY = 0.004
    _wait.SLEEP_IDLE = _wait.SLEEP_GRANULARITY / 20.0
    _hand_out_one_at_a_time(config)
    _asserts_rewritten_once_before_the_workers(config)
    _press_waits_for_each_new_screen()
    _headless_frames_are_not_painted()
    _young_objects_collected_less_often()
    _stylesheets_parsed_once_per_worker()


def _asserts_rewritten_once_before_the_workers(config: pytest.Config) -> None:
    """With xdist, from a fresh clone: the test modules' asserts are rewritten (and
    munda_tui compiled) once, in two processes, before the workers start.

    Every worker collects every test module, and pytest rewrites a module's asserts when
    it first imports it (~6 s of CPU for the whole suite), then caches the result in
    ``__pycache__``. From a fresh clone the four workers start at once, each found no
    cache and each rewrote everything: ~24 s of CPU before the first test. Two
    collect-only runs over half the modules each fill the cache on both cores (a few
    seconds); the workers then read it. When the cache is there already (any run after
    the first) or Python may not write it (PYTHONDONTWRITEBYTECODE), nothing is done.
    """
    import subprocess
    import sys

    if (not config.pluginmanager.hasplugin("xdist") or hasattr(config, "workerinput")
            or not config.getoption("numprocesses", None) or config.option.collectonly
            or sys.dont_write_bytecode):
        return
    from _pytest.assertion.rewrite import PYC_TAIL  # the cache's own name for a module

    tests = sorted(p for p in (REPO / "tests").rglob("test_*.py") if "__pycache__" not in p.parts)
    cold = [p for p in tests if not (p.parent / "__pycache__" / (p.name[:-3] + PYC_TAIL)).exists()]
    if len(cold) < 20:
        return
    runs = [subprocess.Popen([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist",
                              *map(str, cold[i::2])], cwd=REPO, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL) for i in range(2)]
    for run in runs:
        run.wait()


def _hand_out_one_at_a_time(config: pytest.Config) -> None:
    """With xdist, a test goes to whichever worker is free, one at a time (unless the
    command line says ``--maxschedchunk``).

    By default xdist's ``load`` scheduler first hands each worker a run of ~110
    consecutive tests: the first worker got mypy, the import contracts, the tmux test and
    the first hundred screens' tests, one after another, while the others could not take
    any of them. One at a time, the long tests at the head of the order (``_FIRST``)
    spread over the workers and no queue is left behind one slow test at the end.
    """
    if config.pluginmanager.hasplugin("xdist") and config.getoption("maxschedchunk", None) is None:
        config.option.maxschedchunk = 1


def _press_waits_for_each_new_screen() -> None:
    """``pilot.press("h", "enter", ...)``: a key that brings up (or closes) a screen lets
    the next key go only once that screen is mounted and laid out (``support.settle``).

    Between two keys of one call Textual only waits for the process to look idle, and on a
    busy machine a process that is waiting for a CPU looks idle too: the next key reached a
    dialog not yet mounted (or the screen beneath) and was lost. 90 presses in 47 tests of
    tests/screens (and the snapshots' ``press=``) cross a screen change like this. Keys that
    stay on one screen go as before (Textual's own wait between keys), so the cost is one
    settle per screen change.
    """
    from textual.pilot import Pilot

    textual_press = Pilot.press

    async def press(self: Pilot, *keys: str) -> None:  # type: ignore[type-arg]
        from support import settle, unmounted

        app = self.app
        for i, key in enumerate(keys):
            if i == len(keys) - 1:
                await textual_press(self, key)
                return
            before = app.screen_stack
            await app._press_keys([key])  # what Textual does for each key of the call
            if app.screen_stack != before or unmounted(app.screen):
                await settle(self)

    press.__doc__ = textual_press.__doc__
    Pilot.press = press  # type: ignore[method-assign]


def _young_objects_collected_less_often() -> None:
    """Python's cyclic collector looks at the youngest objects after 20,000 new ones
    instead of 700.

    A Pilot test makes hundreds of thousands of short-lived objects (Textual's segments,
    strips, styles and messages for every key), and at 700 the collector ran ~4,500
    times per worker over the screens' tests, ~8% of their CPU. The app's own collector
    settings (munda_tui/collector.py) take these thresholds as the defaults they start
    from and put back, as they take the interpreter's on a player's machine.
    """
    import gc

    gc.set_threshold(20_000, *gc.get_threshold()[1:])


def _headless_frames_are_not_painted() -> None:
    """In a headless Pilot test the top screen's frames are laid out but not painted.

    After each change Textual's compositor paints the changed regions of the top screen
    into segments for the terminal, and a headless app then throws them away
    (``App._display`` writes nothing when headless): a fifth to a quarter of a Pilot
    test's CPU. Layout, focus, messages and every widget's state go on as before; what
    a test reads as the picture is painted in full when asked (``support.screen_text``,
    the snapshots' ``export_screenshot``), from the same widgets, so it is the same
    picture. The real terminal (tests/e2e, tmux) paints every frame.
    """
    from textual.screen import Screen

    paint = Screen._compositor_refresh

    def refresh(self: Screen) -> None:  # type: ignore[type-arg]
        app = self.app
        if app.is_headless and not app.is_inline and self is app.screen:
            self._dirty_widgets.clear()
            self._compositor._dirty_regions.clear()
            app._update_mouse_over(self)
            return
        paint(self)

    Screen._compositor_refresh = refresh  # type: ignore[method-assign]


def _stylesheets_parsed_once_per_worker() -> None:
    """A stylesheet's CSS is parsed once per test worker, not once per app.

    Textual keeps the rules it parsed in each ``Stylesheet``'s own cache, so every app a
    Pilot test starts parses the app's CSS and the ``DEFAULT_CSS`` of every widget class it
    mounts again: a fifth of a bare app's start-up, and most of the first frame of each new
    screen. The parsed rules depend only on the CSS text, where it was read from, its
    scope and order, and the theme's variables; with all of them in the key, the rules
    are shared by every app in the worker. The apps get the same rules (the snapshots
    compare the pictures), parsed once.
    """
    from textual.css.stylesheet import Stylesheet

    parse = Stylesheet._parse_rules
    shared: dict[tuple[Any, ...], Any] = {}

    def parse_rules(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                    tie_breaker: int = 0, scope: str = "") -> Any:
        key = (css, read_from, is_default_rules, tie_breaker, scope,
               tuple(sorted(self._variables.items())))
        try:
            return shared[key]
        except KeyError:
            rules = shared[key] = parse(self, css, read_from, is_default_rules, tie_breaker, scope)
            return rules

    Stylesheet._parse_rules = parse_rules  # type: ignore[method-assign]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    """With ``MUNDA_TUI_CPU_REPORT=FILE``, each test's CPU seconds (its own and its child
    processes': the CLI, git, the savers killed) are appended to FILE as
    ``seconds<TAB>test id``: what the suite costs, by test, on a machine whatever its
    load (wall times under xdist say how busy the other workers were). docs/development.md
    says how to read it."""
    import os

    report = os.environ.get("MUNDA_TUI_CPU_REPORT")
    if not report:
        return (yield)
    import resource

    def used() -> float:
        me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime

    start = used()
    try:
        return (yield)
    finally:
        with open(report, "a", encoding="utf-8") as out:
            out.write(f"{used() - start:.3f}\t{item.nodeid}\n")


def pytest_unconfigure(config: pytest.Config) -> None:
    """Freeze the heap before pytest's last clean-up collects it five times over.

    At the end of a session pytest runs ``gc.collect()`` five times to report exceptions
    raised in finalizers of objects still in cycles. After a few dozen Pilot tests the
    heap holds millions of objects (Textual's caches, the apps ``MundaApp`` kept out of
    the collector with ``gc.freeze`` and released again), and those five passes cost
    each xdist worker 2-4 s of CPU at the very end of the run, when every worker ends
    at once. Frozen, they scan nothing; the process exits right after. (Each test's own
    finalizer errors are still reported with that test.)
    """
    import gc

    gc.freeze()


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    data = tmp_path / "data"
    config = tmp_path / "config"
    data.mkdir()
    config.mkdir()
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(data))
    monkeypatch.setenv("MUNDA_TUI_CONFIG_DIR", str(config))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    monkeypatch.setenv("MUNDA_TUI_LOG_DIR", str(tmp_path / "log"))
    return {"data": data, "config": config}


@pytest.fixture(autouse=True)
def notices_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    """A notice goes at the player's next key once shown for a second (MundaApp's
    NOTICE_READ_SECONDS): a loaded machine would make that depend on time. Tests read
    notices after keys, so they stay; tests/screens/test_club_evening.py sets it to check
    that they go."""
    from munda_tui.app import MundaApp

    monkeypatch.setattr(MundaApp, "NOTICE_READ_SECONDS", float("inf"))


@pytest.fixture
def data_dir(isolated_dirs: dict[str, Path]) -> Path:
    return isolated_dirs["data"]


@pytest.fixture
def config_dir(isolated_dirs: dict[str, Path]) -> Path:
    return isolated_dirs["config"]


@pytest.fixture
def demo_campaign():  # type: ignore[no-untyped-def]
    from munda_tui.rules.campaign.demo import demo_campaign as build

    return build()


@pytest.fixture
def make_app(data_dir: Path, config_dir: Path) -> Callable[..., Any]:
    """Build a MundaApp on the test's dirs: ``make_app(seed=1, demo=True)``.

    ``demo=True`` saves the demo campaign first and opens it at start.
    """

    def build(*, seed: int = 1, demo: bool = False, today: str = "2026-01-15", **kwargs: Any) -> Any:
        from munda_tui.app import MundaApp

        if demo:
            from support import ensure_demo  # the demo written once per process, then copied

            kwargs.setdefault("campaign", ensure_demo(data_dir))
        return MundaApp(data_dir, config_dir, seed=seed, today=today, **kwargs)

    return build


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"the shared rules folder is not beside the repo ({SHARED})")
    return SHARED


#: the order tests are handed to the xdist workers (one each in turn, then one more to
#: whichever runs low): first the long ones that mostly wait on another process (mypy and
#: the import contracts, the terminal end-to-end test, the crash test's children, the
#: benchmark's children, the phone page in a browser) so the screens' tests use the cores
#: meanwhile and none of them is left running alone at the end; then the screens; then the
#: phone page in a real browser (on a fresh machine .ci/run installs Chromium in the
#: background while the suite runs: by then it is there); the many short saves and rules
#: tests last, so the workers run dry at about the same time
_FIRST = ("test_types.py", "test_layers.py", "e2e/", "saves/test_crash.py",
          "saves/test_league_kill_steps.py", "test_bench.py", "phone/", "screens/", "phone/test_browser.py", "saves/")


def _weight(item: pytest.Item) -> int:
    path = item.nodeid.split("::", 1)[0].removeprefix("tests/")
    # the longest prefix that matches: phone/test_browser.py goes after the screens
    matches = [(len(prefix), i) for i, prefix in enumerate(_FIRST) if path.startswith(prefix)]
    return max(matches)[1] if matches else len(_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_weight)  # stable: within a group, the files keep their own order
