"""Keys read in one burst (a fast player, a laggy terminal, keys typed while the app was
busy): a key that opens a screen and the next one that leaves it arrive before the
screen has set itself up. Nothing may end the app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import events

import postbattle_support as S
from support import wait_for_screen, wait_until

PACKAGE = Path(__file__).resolve().parents[2] / "munda_tui"


async def _settled(pilot: Any) -> None:
    """Until every key of the burst has gone to its screen (none held), and a little after."""
    app = pilot.app
    await wait_until(pilot, lambda: not app._held_keys and app._screen_ready(), "the keys let go")
    for _ in range(5):
        await pilot.pause()


async def test_enter_then_escape_on_a_battle_in_one_burst(make_app: Any, data_dir: Path) -> None:
    """Enter selects the battle (its message still on its way) and Escape, in one burst:
    Escape used to close the campaign first, and the selection, arriving after, opened
    a battle of no campaign. Escape now waits for everything Enter set off: the battle
    opens, Escape leaves it, and the campaign screen is back, as the keys say."""
    slug = S.seed_battle(data_dir, tracker=False)
    app = make_app(campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("tab")  # the battles table
        await _settled(pilot)
        app.post_message(events.Key("enter", "\r"))
        app.post_message(events.Key("escape", "\x1b"))
        await _settled(pilot)
        assert app.crash_file is None and app.is_running
        assert [type(s).__name__ for s in app.screen_stack] == ["CampaignScreen"]
        assert app.handle is not None


async def test_a_battle_left_before_its_screen_is_set_up(make_app: Any, data_dir: Path) -> None:
    """The tracker, the post-battle sequence and a set-up, each taken off the stack the
    moment it was put on: taken down once set up, the campaign screen shown again."""
    slug = S.seed_battle(data_dir, tracker=False)
    app = make_app(campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        before = app.handle.battle_path(1).read_bytes()
        app.open_battle(1)  # the post-battle sequence
        app.pop_screen()
        await _settled(pilot)
        assert app.crash_file is None and type(app.screen).__name__ == "CampaignScreen"
        assert app.handle.battle_path(1).read_bytes() == before  # nothing started
        app.post_message(events.Key("n", "n"))  # a new battle's set-up, and away at once
        app.post_message(events.Key("escape", "\x1b"))
        await _settled(pilot)
        assert app.crash_file is None and type(app.screen).__name__ == "CampaignScreen"
        app.open_battle(1)
        await wait_for_screen(pilot, "PostBattleScreen")  # and it still opens as ever
        assert app.screen.seq is not None


def test_every_screen_uses_this_header() -> None:
    """Textual's Header lets a NoMatches out when its screen is taken down at once."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "header.py" and path.parent.name == "widgets":
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("from textual.widgets import") and \
                    "Header" in [n.strip() for n in line.split("import", 1)[1].split(",")]:
                offenders.append(f"{path.relative_to(PACKAGE)}: {line}")
    assert offenders == []


async def test_keys_after_one_that_opens_a_screen_wait_for_it(make_app: Any, data_dir: Path) -> None:
    """Escape (the list of campaigns), Enter (the campaign again) and r (its roster) in
    one burst: r reached the campaign screen before it had its tables and ended the app;
    it now waits for that screen and opens the roster."""
    slug = S.seed_battle(data_dir, tracker=False)
    app = make_app(campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        for key, character in (("escape", "\x1b"), ("enter", "\r"), ("r", "r")):
            app.post_message(events.Key(key, character))
        await wait_for_screen(pilot, "RosterScreen")
        assert app.crash_file is None and app.handle is not None



async def _burst_to_the_roster(folder: Path, hold: bool) -> tuple[bool, str, Any]:
    """Escape (the list), Enter (the campaign again) and r (its roster) in one burst, with
    the key-order workaround in force or not: (the app ended, the screen on top, its
    crash file)."""
    from munda_tui.app import MundaApp

    data_dir, config_dir = folder / "data", folder / "config"
    config_dir.mkdir(parents=True)
    slug = S.seed_battle(data_dir, tracker=False)
    app = MundaApp(data_dir, config_dir, seed=1, today="2026-01-15", campaign=slug)
    app.HOLD_KEYS = hold
    top = ""
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for_screen(pilot, "CampaignScreen")
            for key, character in (("escape", "\x1b"), ("enter", "\r"), ("r", "r")):
                app.post_message(events.Key(key, character))
            still = 0
            for _ in range(400):  # (up to 20 s: the roster set up, or the app ended)
                await pilot.pause(0.05)
                top = type(app.screen).__name__ if app.is_running else ""
                if not app.is_running or (top == "RosterScreen" and app.screen.is_mounted):
                    break
                # (without the workaround r went elsewhere: no need to wait the 20 s)
                settled = not hold and top == "CampaignScreen" and app.handle is not None
                still = still + 1 if settled else 0
                if still >= 20:
                    break
            for _ in range(5):  # (its set-up run: a key acting on it too early ends the app)
                await pilot.pause()
            top = type(app.screen).__name__ if app.is_running else ""
            ended = not app.is_running
    except Exception as error:  # the app ended on the error (run_test raises it at the end)
        return True, f"ended on {type(error).__name__}", app.crash_file
    return ended, top, app.crash_file


async def test_the_key_order_workaround_keeps_a_burst_in_order(tmp_path: Path) -> None:
    """Issue 33.5: the Textual key-order workaround (munda_tui.key_order, Textual issue
    #6605) is what keeps a burst in order, run both ways. With it, the burst ends on the
    roster; without it (``HOLD_KEYS`` off), r reaches a screen not set up yet and the
    burst goes wrong. When a Textual upgrade breaks the workaround the first half fails;
    when one fixes #6605 itself, the second half fails: key_order.py can then go (its
    module says how), and the pin on Textual can move either way."""
    ended, top, crash = await _burst_to_the_roster(tmp_path / "on", hold=True)
    assert not ended and top == "RosterScreen" and crash is None, (
        f"the key-order workaround no longer keeps a burst in order (ended: {ended}, on "
        f"{top}): a Textual upgrade broke munda_tui.key_order")
    ended, top, crash = await _burst_to_the_roster(tmp_path / "off", hold=False)
    assert ended or top != "RosterScreen", (
        "without the key-order workaround the burst still ended on the roster: Textual keeps "
        "keys in order itself now (issue #6605 fixed?); munda_tui.key_order may go")


async def test_pre_battle_steps_in_one_burst(make_app: Any, data_dir: Path) -> None:
    """n, Esc, n, n and Esc in one burst from the scenario rolls: each step's panel
    was mounted while the last was still being taken down (the same id twice) or taken
    down before its own set-up ran (no battlefield list): both ended the app (random
    bursts found it), and this burst ended at the gangs step. Each key now waits for the
    step before it, and the flow ends where the keys took it."""
    from prebattle_states import seed_state

    slug = seed_state(data_dir, "pitch-black")
    app = make_app(campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        app.open_battle(1)
        await wait_for_screen(pilot, "PreBattleScreen")
        screen = app.screen
        start = screen.step
        for key, char in [("escape", "\x1b"), ("escape", "\x1b"), ("n", "n"),
                          ("escape", "\x1b"), ("escape", "\x1b"), ("n", "n"), ("n", "n")]:
            app.post_message(events.Key(key, char))
        await _settled(pilot)
        assert app.crash_file is None and app.is_running
        # pitch black -> scenario -> battlefield -> scenario -> battlefield -> gangs
        # -> battlefield -> scenario
        assert start == "pitch_black" and screen.step == "scenario"
        assert screen.panel.id == f"step-{screen.step}" and not screen.settling
        assert len(screen.query_one("#pb-body").children) == 1


async def test_a_key_after_one_that_asks_in_a_worker_reaches_the_question(make_app: Any,
                                                                          data_dir: Path) -> None:
    """The tracker asks its questions from workers: s (Seriously Injured, asks by whom) and
    Enter (skips who and how) in one burst. Enter arrived before the worker had pushed its
    question and was lost on the tracker; it now waits for the question (the screen is
    ``settling`` meanwhile) and records the event; x after it acts on the tracker."""
    from phone_support import make_battle, open_battle

    make_battle(data_dir, {})
    app = make_app(campaign="demo")
    async with app.run_test(size=(100, 32)) as pilot:
        await open_battle(pilot)
        screen = app.screen
        start = len(screen.battle.log)
        screen.action_down("seriously_injured")  # its worker has not asked yet:
        assert app._screen_ready() is False  # a key now waits for the question
        await wait_for_screen(pilot, "AttackScreen")
        await pilot.press("escape")  # (cancelled: nothing recorded)
        await wait_for_screen(pilot, "BattleScreen")
        await wait_until(pilot, lambda: app._screen_ready(), "the tracker takes keys again")
        for key, character in (("s", "s"), ("enter", "\r"), ("x", "x")):
            app.post_message(events.Key(key, character))
        await _settled(pilot)
        await wait_until(pilot, lambda: len(screen.battle.log) == start + 2, "two events")
        assert [e.kind for e in screen.battle.log[start:]] == ["state", "xp"]
        assert app.screen is screen and app.crash_file is None


async def test_a_key_held_past_two_seconds_is_given_back(make_app: Any, data_dir: Path) -> None:
    """A key held for 2 s (a loaded machine: the screen it waited for took that long) is
    given back at once. Its release was a ``set_timer(0)``, whose task in Textual 8.2 ends
    on a ZeroDivisionError (Textual issue #6370) and never called back: the key, and every
    key after it, waited for ever (test_keys_after_one_that_opens_a_screen_wait_for_it
    failed so under load, on the campaign screen)."""
    import time

    slug = S.seed_battle(data_dir, tracker=False)
    app = make_app(campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await _settled(pilot)
        app._held_keys.append(events.Key("r", "r"))
        app._held_since = time.monotonic() - 3
        app._release_when_ready()
        await wait_for_screen(pilot, "RosterScreen")
        assert not app._held_keys and app.crash_file is None
