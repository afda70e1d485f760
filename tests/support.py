"""Helpers shared by the Pilot tests (importable: pytest puts tests/ on sys.path)."""

from __future__ import annotations

import os


async def wait_for_screen(pilot, name: str, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    """Pause until the screen class ``name`` is showing, has finished mounting and takes
    keys (a campaign shown from its overview: once decoded).

    Bounded by time, not by a count of pauses: a pause returns as soon as the app is
    idle, and timers (a held key is released by one) do not count as work, so on a
    loaded machine (the CI's 4 workers on 2 cores) a count ran out while the app was
    still on its way."""
    import time

    deadline = time.monotonic() + timeout
    while type(pilot.app.screen).__name__ != name:
        if time.monotonic() > deadline:
            raise AssertionError(f"{name} never showed (on {type(pilot.app.screen).__name__})")
        await pilot.pause(0.002)
    await pilot.pause()  # let the screen finish mounting (its tables fill on mount)
    while getattr(pilot.app.screen, "settling", False) and time.monotonic() < deadline:
        await pilot.pause(0.002)


async def wait_until(pilot, ready, what: str, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    """Pause until ``ready()`` is true (a table filled after the first frame, a footer
    updated), bounded by time for the reason ``wait_for_screen`` is; AssertionError
    saying ``what`` never came."""
    import time

    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: never, in {timeout} s")
        await pilot.pause(0.002)


_DEMO_TEMPLATE: dict[str, object] = {}


def ensure_demo(data_dir):  # type: ignore[no-untyped-def]
    """``munda_tui.saves.demo.ensure_demo(data_dir)``, built once per test process and copied.

    Writing the demo's campaign.toml (tomlkit) cost a tenth of a short Pilot test's CPU,
    in hundreds of tests. The real function writes it once into a private folder; after
    that an absent demo is copied from there, byte for byte the files it would write (they
    depend only on the demo campaign). Anything else (a demo already there, a data folder
    that is not a plain empty place) goes to the real function.
    """
    import atexit
    import shutil
    import tempfile
    from pathlib import Path

    from munda_tui.saves.demo import ensure_demo as real

    data_dir = Path(data_dir)
    if "slug" not in _DEMO_TEMPLATE:
        root = Path(tempfile.mkdtemp(prefix="munda-demo-"))
        atexit.register(shutil.rmtree, root, True)
        _DEMO_TEMPLATE["slug"] = real(root)
        _DEMO_TEMPLATE["root"] = root
    slug = str(_DEMO_TEMPLATE["slug"])
    target = data_dir / "campaigns" / slug
    if data_dir.is_dir() and not target.exists() and not target.is_symlink():
        shutil.copytree(Path(str(_DEMO_TEMPLATE["root"])) / "campaigns" / slug, target)
        return slug
    return real(data_dir)


async def settle(pilot, timeout: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    """Pause until the app has nothing left to do, however slow the machine is.

    ``pilot.pause()`` waits for the messages queued so far, then for the process to look
    idle (Textual compares CPU time with wall time over a few ms). On a busy machine a
    process that is only waiting for a CPU looks idle too, so a pause can end with a new
    screen half mounted, or a layout pass (a scrollbar that appeared, a card row mounted)
    still to come. This waits for the state instead: every message queue of the app and
    of the showing screen's widgets empty, every widget mounted, no layout, repaint or
    recompose pending; twice in a row, with a drain of the queues between.
    """
    import asyncio
    from time import monotonic

    app = pilot.app
    deadline = monotonic() + timeout
    quiet = 0
    while quiet < 2:
        if monotonic() > deadline:
            raise AssertionError(f"the app did not settle in {timeout:.0f} s (on {type(app.screen).__name__})")
        await pilot.pause()  # drain the queues, then lay out and paint what is pending
        await asyncio.sleep(0)
        screen = app.screen
        pumps = [app, *screen.walk_children(with_self=True)]
        busy = bool(screen._dirty_widgets) or any(_pending(p) for p in pumps)
        quiet = 0 if busy else quiet + 1


#: what a widget (or the screen) still has to do when one of these is set
_FLAGS = ("_layout_required", "_repaint_required", "_scroll_required", "_recompose_required",
          "_refresh_styles_required")


def _pending(pump) -> bool:  # type: ignore[no-untyped-def]
    if pump._message_queue.qsize() or pump._next_callbacks or not pump._is_mounted:
        return True
    return any(getattr(pump, flag, False) for flag in _FLAGS)


def unmounted(screen) -> bool:  # type: ignore[no-untyped-def]
    """Whether ``screen`` or a widget in it has not finished mounting yet."""
    return not screen._is_mounted or any(not w._is_mounted for w in screen.walk_children())


def screen_text(app) -> str:  # type: ignore[no-untyped-def]
    """Everything the terminal shows now, as plain text (the top screen and any screens
    showing beneath it), read from Textual's compositor: for text assertions where the
    picture is not the point."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False)
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    return console.export_text()


async def open_saved_battle(pilot, number: int = 1, screen: str = "PreBattleScreen") -> None:  # type: ignore[no-untyped-def]
    """Once the campaign screen shows, open battle ``number`` as a player would and wait
    for the screen that continues it (the set-up by default)."""
    await wait_for_screen(pilot, "CampaignScreen")
    pilot.app.open_battle(number)
    await wait_for_screen(pilot, screen)


async def new_battle(pilot) -> None:  # type: ignore[no-untyped-def]
    """Once the campaign screen shows, press n (a new battle) and wait for its set-up."""
    await wait_for_screen(pilot, "CampaignScreen")
    await pilot.press("n")
    await wait_for_screen(pilot, "PreBattleScreen")


# --- property tests' examples -------------------------------------------------------------

#: ``MUNDA_TUI_THOROUGH=1`` runs every property test with all the examples it names.
THOROUGH = os.environ.get("MUNDA_TUI_THOROUGH", "") not in ("", "0")


def examples(n: int) -> int:
    """How many examples a property test that names ``n`` runs in this suite.

    The README's suite (and so CI, which has a three-minute goal on two cores) runs a
    third of them, at least 10: hypothesis draws new ones on every run, so the runs
    together still search as wide, while one run stays fast. ``MUNDA_TUI_THOROUGH=1``
    (docs/development.md) runs all ``n``, as before a release or after changing a codec.
    """
    return n if THOROUGH or n <= 10 else max(10, n // 3)


def kills(n: int) -> int:
    """How many kill -9s a crash test that names ``n`` makes in this suite: a third, at
    least 4, for the reason :func:`examples` gives (each kill starts, kills and reopens a
    process: those tests were a tenth of the suite's CPU). The moments are drawn from
    a seeded RNG over the operation's measured length, and each test still forces its
    own edge cases (a kill at once, a run let to its end); ``MUNDA_TUI_THOROUGH=1`` makes
    all ``n``."""
    return n if THOROUGH else max(4, n // 3)
