"""No traceback, ever (issue 13), through the app headless: mutated campaign.toml and
battle files of every battle status, a missing battle file, disk faults at the app's
one guarded write place, and every screen under NO_COLOR=1 / 80x24 / textual-ansi.

The fuzz examples are bounded (``MUNDA_FUZZ_EXAMPLES``, 2 per kind by default, derandomized) so the
suite stays fast; raise it by hand for a longer run.
"""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from harden_support import STATUSES, make_campaign
from munda_tui.saves import SaveError
from munda_tui.saves.files import load_battle_file, load_campaign_file

EXAMPLES = int(os.environ.get("MUNDA_FUZZ_EXAMPLES", "2"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get("MUNDA_FUZZ_RANDOM"), database=None,
                suppress_health_check=list(HealthCheck))


# --- mutations of a file's text ---------------------------------------------------------

def _lines(text: str) -> list[str]:
    return text.split("\n")


@st.composite
def mutation(draw: st.DrawFn) -> tuple[str, int, str]:
    kind = draw(st.sampled_from([
        "garbage-line", "drop-line", "unknown-key", "huge-number", "truncate", "bad-utf8",
        "duplicate-line", "wrong-type", "deep-key", "empty",
    ]))
    return kind, draw(st.integers(0, 10**6)), draw(st.sampled_from(["x", "]]", "= =", "[[setup", '"\\ud800"']))


def mutate(raw: bytes, m: tuple[str, int, str]) -> bytes:
    kind, pick, word = m
    text = raw.decode("utf-8")
    lines = _lines(text)
    i = pick % len(lines)
    if kind == "garbage-line":
        lines[i] = word
    elif kind == "drop-line":
        del lines[i]
    elif kind == "unknown-key":  # a key no part knows, inside whatever table is open there
        lines.insert(i + 1, 'note = "x"')
    elif kind == "huge-number":
        nums = [j for j, line in enumerate(lines) if line.rstrip()[-1:].isdigit() and "=" in line]
        if nums:
            j = nums[pick % len(nums)]
            lines[j] = lines[j].split("=")[0] + "= 99999999999999999999"
        else:
            lines.append("schema_version = 99999999999999999999")
    elif kind == "truncate":
        return raw[: pick % max(len(raw), 1)]
    elif kind == "bad-utf8":
        k = pick % max(len(raw), 1)
        return raw[:k] + b"\xff\xfe" + raw[k:]
    elif kind == "duplicate-line":
        lines.insert(i, lines[i])
    elif kind == "wrong-type":
        keyed = [j for j, line in enumerate(lines) if " = " in line]
        if keyed:
            j = keyed[pick % len(keyed)]
            lines[j] = lines[j].split(" = ")[0] + " = [1, 2]"
    elif kind == "deep-key":
        lines.insert(i, ".".join("k" for _ in range(5000)) + " = 1")
    elif kind == "empty":
        return b""
    return "\n".join(lines).encode("utf-8")


def _loads(path: Path) -> bool:
    try:
        (load_campaign_file if path.name == "campaign.toml" else load_battle_file)(path)
    except SaveError:
        return False
    return True


def _message_on_screen(app: Any) -> bool:
    from munda_tui.screens.common.dialogs import ConfirmScreen, ErrorScreen

    return any(isinstance(s, (ErrorScreen, ConfirmScreen)) for s in app.screen_stack)


async def _open(app: Any, battle: bool, size: tuple[int, int] = (100, 32)) -> bool:
    """Open the campaign (and battle 1, as ``o`` on the campaign screen does) headless.
    Returns whether a message (an error or a restore offer) was shown. Any exception
    escaping the app fails the test when run_test exits."""
    async with app.run_test(size=size) as pilot:
        for _ in range(3):
            await pilot.pause()
        if battle and app.handle is not None:
            app.open_battle(1)
            for _ in range(4):
                await pilot.pause()
        shown = _message_on_screen(app)
        await pilot.press("escape")
        await pilot.pause()
        if app.handle is not None:  # the rest of the campaign stays usable
            assert app.handle.campaign.gangs
    return shown


def _run(kind: str, m: tuple[str, int, str] | None) -> None:
    from munda_tui.app import MundaApp

    root = Path(tempfile.mkdtemp(prefix="munda-fuzz-"))
    try:
        data, config = root / "data", root / "config"
        config.mkdir()
        battle_path = make_campaign(data, "battle" if kind == "campaign" else kind)
        target = battle_path.parents[1] / "campaign.toml" if kind == "campaign" else battle_path
        if m is None:
            target.unlink()
            after: bytes | None = None
        else:
            after = mutate(target.read_bytes(), m)
            target.write_bytes(after)
        broken = m is None or not _loads(target)
        app = MundaApp(data, config, seed=1, campaign="demo", today="2026-01-15")
        shown = asyncio.run(_open(app, battle=kind != "campaign"))
        assert app.crash_file is None
        if broken:
            if m is not None or kind in ("battle",):
                assert shown, f"{kind} {m}: no message for a file that does not load"
            if after is not None:
                assert target.read_bytes() == after, f"{kind} {m}: the bad file was changed"
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("kind", ["campaign", *STATUSES])
@FUZZ
@given(m=mutation())
@example(m=("wrong-type", 155, "x"))  # found by a long run: a list where a name was, in the log
def test_a_mutated_file_never_escapes_always_says_so_and_is_kept(kind: str, m: tuple[str, int, str]) -> None:
    _run(kind, m)


@pytest.mark.parametrize("m", [
    ("unknown-key", 0, ""),  # the issue's own case: an unknown key in a crew entry, below
], ids=["crew-note"])
@pytest.mark.parametrize("status", STATUSES)
def test_an_unknown_crew_key_is_named_for_every_status(status: str, m: tuple[str, int, str]) -> None:
    from munda_tui.app import MundaApp

    root = Path(tempfile.mkdtemp(prefix="munda-crew-"))
    try:
        path = make_campaign(root / "data", status)
        (root / "config").mkdir()
        text = path.read_text()
        head = text.index("[[setup.sides.crew]]")
        cut = text.index("\n", head) + 1
        text = text[:cut] + 'note = "x"\n' + text[cut:]
        path.write_text(text)
        app = MundaApp(root / "data", root / "config", seed=1, campaign="demo", today="2026-01-15")

        async def go() -> str:
            async with app.run_test(size=(100, 32)) as pilot:
                await pilot.pause()
                app.open_battle(1)
                await pilot.pause()
                await pilot.pause()
                from munda_tui.screens.common.dialogs import ConfirmScreen

                assert isinstance(app.screen, ConfirmScreen)  # the backup is offered
                return app.screen.detail

        detail = asyncio.run(go())
        assert "setup.sides[0].crew[0].note: unknown key 'note'" in detail
        assert f"{path.name}:{text[:cut].count(chr(10)) + 1}:1:" in detail
        assert path.read_text() == text
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("status", ["battle"])
def test_a_deleted_battle_file_offers_its_backup_and_restores_it(status: str, data_dir, config_dir, make_app) -> None:
    path = make_campaign(data_dir, status)
    path.unlink()
    app = make_app(campaign="demo")

    async def go() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            app.open_battle(1)
            await pilot.pause()
            from munda_tui.screens.common.dialogs import ConfirmScreen

            assert isinstance(app.screen, ConfirmScreen)
            assert "the battle file is missing" in app.screen.detail
            await pilot.press("y")
            for _ in range(4):
                await pilot.pause()
            assert type(app.screen).__name__ == "BattleScreen"

    asyncio.run(go())
    assert path.exists()


def test_a_missing_battle_file_of_a_battle_under_way_is_said() -> None:
    _run("battle", None)


# --- disk faults at the app's guarded place ------------------------------------------------------


def _full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    from munda_tui.saves import atomic

    def full(*args: object, **kw: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "_atomic_write", full)


def test_n_on_a_full_disk_says_why_and_stays_on_the_campaign(data_dir, make_app, monkeypatch) -> None:
    make_campaign(data_dir, "done")
    app = make_app(campaign="demo")
    before = (data_dir / "campaigns" / "demo" / "campaign.toml").read_bytes()

    async def go() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert type(app.screen).__name__ == "CampaignScreen"
            _full_disk(monkeypatch)
            await pilot.press("n")
            await pilot.pause()
            from munda_tui.screens.common.dialogs import ErrorScreen

            assert isinstance(app.screen, ErrorScreen)
            assert "the disk is full" in app.screen.message and "Nothing was lost" in app.screen.message
            assert [b.number for b in app.campaign.battles] == [1]
            await pilot.press("escape")
            await pilot.pause()
            assert type(app.screen).__name__ == "CampaignScreen"

    asyncio.run(go())
    assert (data_dir / "campaigns" / "demo" / "campaign.toml").read_bytes() == before


def test_a_post_battle_step_on_a_full_disk_is_taken_back(data_dir, make_app, monkeypatch) -> None:
    path = make_campaign(data_dir, "post-battle")
    app = make_app(campaign="demo")

    async def go() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            app.open_battle(1)
            for _ in range(3):
                await pilot.pause()
            screen = app.screen
            assert type(screen).__name__ == "PostBattleScreen"
            step = screen.seq.draft["step"]
            saved = path.read_bytes()
            _full_disk(monkeypatch)
            screen.seq.roll_for_me(app.rng) if screen.seq.pending is not None and screen.seq.pending.kind == "roll" else screen.seq.advance()
            screen._changed()
            await pilot.pause()
            from munda_tui.screens.common.dialogs import ErrorScreen

            assert isinstance(app.screen, ErrorScreen) and "the disk is full" in app.screen.message
            assert screen.seq.draft["step"] == step  # the player is where the last save left them
            assert path.read_bytes() == saved

    asyncio.run(go())


def test_opening_a_campaign_whose_lock_is_a_folder(data_dir, make_app) -> None:
    make_campaign(data_dir, "done")
    (data_dir / "campaigns" / "demo" / ".lock").mkdir()
    app = make_app(campaign="demo")

    async def go() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await pilot.pause()
            from munda_tui.screens.common.dialogs import ErrorScreen

            assert isinstance(app.screen, ErrorScreen)
            assert ".lock is a folder where a file should be" in app.screen.message
            assert app.handle is None

    asyncio.run(go())


def test_an_error_escaping_a_screen_writes_a_crash_file(data_dir, make_app, tmp_path, monkeypatch) -> None:
    from munda_tui.screens.home.home import HomeScreen

    def boom(self: object) -> None:
        raise RuntimeError("a bug nobody caught")

    monkeypatch.setattr(HomeScreen, "action_new", boom, raising=False)
    app = make_app()

    async def go() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            await pilot.press("n")
            await pilot.pause()

    with pytest.raises(RuntimeError):  # run_test re-raises it for the test
        asyncio.run(go())
    assert app.crash_file is not None and app.crash_file.parent == tmp_path / "log"
    assert "RuntimeError: a bug nobody caught" in app.crash_file.read_text()
    assert app.return_code == 1


def test_the_tui_exits_non_zero_after_a_crash(monkeypatch, tmp_path) -> None:
    from munda_tui.app import MundaApp
    from munda_tui.cli import main

    def crashed_run(self: MundaApp) -> None:  # what _handle_exception leaves behind
        self.crash_file = tmp_path / "log" / "crash-x.txt"

    monkeypatch.setattr(MundaApp, "run", crashed_run)
    assert main([]) == 70
