"""A league from the campaign screen: the footer hint of what is not yet shared, the
sync key, and the Arbitrator's choice on the conflict screen (Pilot)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from munda_tui.saves import Store
from munda_tui.saves.league import init, join, sync
from league_support import a_minute_ago, bare_remote, league, play
from support import wait_for_screen, wait_until

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
SIZE = (100, 32)


def _text(app, selector: str) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one(selector).render())


async def test_a_league_question_is_shown_after_the_sync_and_answered(make_app, data_dir: Path, tmp_path: Path) -> None:
    """Issue 30: the same credits spent on two laptops. The sync keeps both edits as
    records; the later one would take Gang 01 below 0 credits, so it waits for the
    Arbitrator's answer on the league question screen; voiding it is a record."""
    remote = bare_remote(tmp_path / "remote.git")
    store = Store(data_dir)
    with store.create_campaign(league(2)) as handle:
        init(handle, str(remote))
        credits = handle.campaign.gang("gang-01").credits
    assert credits > 10
    home = Store(tmp_path / "home")
    join(home, str(remote))
    with a_minute_ago(), home.open_campaign("club-league") as handle:  # every credit spent at home, shared
        handle.campaign.gang("gang-01").credits = 0
        handle.save()
        sync(handle)
    with store.open_campaign("club-league") as handle:  # 10 of the same credits spent at the club
        handle.campaign.gang("gang-01").credits -= 10
        handle.save()
    app = make_app(campaign="club-league")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await wait_until(pilot, lambda: app.screen.query_one("#league-hint").display, "the league hint")
        await pilot.press("g")
        await wait_for_screen(pilot, "QuestionScreen")
        detail = _text(app, "#question-detail")
        assert "Gang 01: credits -10" in detail and "credits would be -10" in detail
        assert "v void it" in _text(app, "#question-hint") and "k keep" not in _text(app, "#question-hint")
        assert app.handle.campaign.gang("gang-01").credits == 0  # (as far as it applies)
        # the footer: this question's answers, keeping it dimmed (not a pack's l/a)
        from textual.widgets._footer import FooterKey

        def answers() -> dict[str, bool | None]:
            shown = {k.key: k.has_class("-disabled") for k in app.screen.query(FooterKey) if k.display}
            return {k: shown.get(k) for k in "vkmla"}

        want = {"v": False, "k": True, "m": False, "l": None, "a": None}
        # (the footer follows the list once it is filled: a frame later on a loaded machine)
        await wait_until(pilot, lambda: answers() == want, f"the footer's answers {want}")
        await pilot.press("k")  # the rules do not allow keeping it: nothing changes
        await pilot.pause()
        assert type(app.screen).__name__ == "QuestionScreen" and app.handle.questions
        await pilot.press("v")
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.handle.questions == []
        assert app.handle.campaign.gang("gang-01").credits == 0
        answers = [p for p in (app.handle.path / "records").iterdir() if "correction" in p.read_text()]
        assert len(answers) == 1


async def test_escape_leaves_the_question_open_and_the_hint_says_so(make_app, data_dir: Path, tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "remote.git")
    store = Store(data_dir)
    with store.create_campaign(league(2)) as handle:
        init(handle, str(remote))
    home = Store(tmp_path / "home")
    join(home, str(remote))
    with a_minute_ago(), home.open_campaign("club-league") as handle:
        handle.campaign.gang("gang-02").credits = 0
        handle.save()
        sync(handle)
    with store.open_campaign("club-league") as handle:
        handle.campaign.gang("gang-02").credits -= 5
        handle.save()
    app = make_app(campaign="club-league")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("g")
        await wait_for_screen(pilot, "QuestionScreen")
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        await wait_until(pilot, lambda: "1 league question" in _text(app, "#league-hint"), "the hint: " + _text(app, "#league-hint"))
        assert "Q answers" in _text(app, "#league-hint")
        await pilot.press("Q")
        await wait_for_screen(pilot, "QuestionScreen")


async def test_escape_on_the_conflict_screen_leaves_everything(make_app, data_dir: Path, tmp_path: Path) -> None:
    """The campaign's settings changed on both laptops: the Arbitrator picks a side (gangs
    never conflict: they are the fold of their records)."""
    remote = bare_remote(tmp_path / "remote.git")
    store = Store(data_dir)
    with store.create_campaign(league(2)) as handle:
        init(handle, str(remote))
    home = Store(tmp_path / "home")
    join(home, str(remote))
    with home.open_campaign("club-league") as handle:
        handle.campaign.notes = "home"
        handle.save()
        sync(handle)
    with store.open_campaign("club-league") as handle:
        handle.campaign.notes = "club"
        handle.save()
    app = make_app(campaign="club-league")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("g")
        await wait_for_screen(pilot, "ConflictScreen")
        assert "replay" not in _text(app, "#conflict-hint")  # no battle to re-apply
        await pilot.press("p")
        await pilot.pause()
        assert "not chosen yet" in str(app.screen.query_one("#conflict-list").get_option_at_index(0).prompt)
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.handle.campaign.notes == "club"


def _club_with_a_battle_to_share(data_dir: Path, tmp_path: Path) -> Path:
    remote = bare_remote(tmp_path / "remote.git")
    store = Store(data_dir)
    with store.create_campaign(league(2)) as handle:
        init(handle, str(remote))
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
    return remote


async def test_the_league_menu_says_what_waits_who_synced_and_moves_the_remote(
        make_app, data_dir: Path, tmp_path: Path) -> None:
    import subprocess

    remote = _club_with_a_battle_to_share(data_dir, tmp_path)
    moved = tmp_path / "moved.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(remote), str(moved)], check=True)
    app = make_app(campaign="club-league")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("l")
        await wait_for_screen(pilot, "PickOneScreen")
        await pilot.press("2")  # what is not yet shared
        await wait_for_screen(pilot, "LeagueTextScreen")
        text = _text(app, "#league-text")
        assert "Changed here since the last sync" in text and "Battle 1 (2026-12-01): applied" in text
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("l", "3")  # the history
        await wait_for_screen(pilot, "LeagueTextScreen")
        assert "League started: Club League" in _text(app, "#league-text")
        await pilot.press("enter")
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("l", "4")  # the remote: shown, and moved
        await wait_for_screen(pilot, "LineScreen")
        field = app.screen.query_one("#dialog-input")
        assert field.value == str(remote)
        field.value = ""
        await pilot.press(*str(moved))
        await pilot.press("enter")
        await wait_for_screen(pilot, "CampaignScreen")
        await wait_until(pilot, lambda: any("now syncs with" in n.message for n in app._notifications),
                         "the remote changed")
        await pilot.press("l", "1")  # and the sync goes there
        await wait_until(pilot, lambda: any("Synced: " in n.message for n in app._notifications), "synced")
    out = subprocess.run(["git", "-C", str(moved), "log", "--format=%s", "main"], capture_output=True,
                         text=True, check=True).stdout
    assert "Battle 1 (2026-12-01) Gang 01 vs Gang 02: post-battle applied" in out


async def test_g_on_a_campaign_that_is_no_league_offers_to_make_one(make_app, data_dir: Path, tmp_path: Path) -> None:
    remote = bare_remote(tmp_path / "remote.git")
    Store(data_dir).create_campaign(league(2)).close()
    app = make_app(campaign="club-league")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("g")
        await wait_for_screen(pilot, "LineScreen")
        assert "league init" not in _text(app, ".dialog-detail")  # no advice sending elsewhere
        await pilot.press(*str(remote), "enter")
        await wait_until(pilot, lambda: any("is a league, shared through" in n.message
                                            for n in app._notifications), "the league made")
        await wait_until(pilot, lambda: "nothing new to share" in _text(app, "#league-hint"), "the hint")
    assert (data_dir / "campaigns" / "club-league" / ".git").is_dir()


def _hanging_ssh(tmp_path: Path) -> Path:
    """An ssh whose remote never answers (batch mode or not)."""
    tool = tmp_path / "bin" / "ssh"
    tool.parent.mkdir(parents=True, exist_ok=True)
    tool.write_text("#!/bin/sh\nexec sleep 120\n")
    tool.chmod(0o755)
    return tool


async def test_a_sync_waiting_on_the_network_stops_on_escape_and_ctrl_q_quits(
        make_app, data_dir: Path, tmp_path: Path, monkeypatch) -> None:
    import subprocess
    import time

    _club_with_a_battle_to_share(data_dir, tmp_path)
    folder = data_dir / "campaigns" / "club-league"
    subprocess.run(["git", "-C", str(folder), "remote", "set-url", "origin", "ssh://git@club/league.git"],
                   check=True)
    monkeypatch.setenv("GIT_SSH_COMMAND", str(_hanging_ssh(tmp_path)))
    app = make_app(campaign="club-league")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("g")
        await wait_for_screen(pilot, "SyncingScreen")
        await pilot.pause(0.3)
        t = time.perf_counter()
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        assert time.perf_counter() - t < 8
        await wait_until(pilot, lambda: any("Sync stopped" in n.message for n in app._notifications), "stopped")
        await pilot.press("g")
        await wait_for_screen(pilot, "SyncingScreen")
        await pilot.pause(0.3)
        t = time.perf_counter()
        await pilot.press("ctrl+q")
        for _ in range(200):
            if not app.is_running:
                break
            await pilot.pause(0.05)
    assert time.perf_counter() - t < 10
    out = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--", "gangs", "battles"],
                         capture_output=True, text=True, check=True).stdout
    assert out == ""  # the battle recorded, nothing lost; shared at the next sync


def _status_on_screen(data_dir: Path, tmp_path: Path) -> None:
    import subprocess

    _club_with_a_battle_to_share(data_dir, tmp_path)
    subprocess.run(["git", "-C", str(data_dir / "campaigns" / "club-league"), "remote", "set-url",
                    "origin", "/media/usb/league.git"], check=True)


async def _open_status(pilot) -> None:  # type: ignore[no-untyped-def]
    await wait_for_screen(pilot, "CampaignScreen")
    await pilot.press("l")
    await wait_for_screen(pilot, "PickOneScreen")
    await pilot.press("2")
    await wait_for_screen(pilot, "LeagueTextScreen")
    await pilot.pause()


def test_the_league_status_snapshot(snap_compare, make_app, data_dir: Path, tmp_path: Path) -> None:
    _status_on_screen(data_dir, tmp_path)
    assert snap_compare(make_app(campaign="club-league"), terminal_size=SIZE, run_before=_open_status)


def test_the_league_status_snapshot_80x24(snap_compare, make_app, data_dir: Path, tmp_path: Path) -> None:
    _status_on_screen(data_dir, tmp_path)
    assert snap_compare(make_app(campaign="club-league"), terminal_size=(80, 24), run_before=_open_status)


async def _open_menu(pilot) -> None:  # type: ignore[no-untyped-def]
    await wait_for_screen(pilot, "CampaignScreen")
    await pilot.press("l")
    await wait_for_screen(pilot, "PickOneScreen")
    await pilot.pause()


def test_the_league_menu_snapshot(snap_compare, make_app, data_dir: Path, tmp_path: Path) -> None:
    _status_on_screen(data_dir, tmp_path)
    assert snap_compare(make_app(campaign="club-league"), terminal_size=SIZE, run_before=_open_menu)


async def test_the_league_menu_undoes_a_pushed_sync_with_corrections(make_app, data_dir: Path, tmp_path: Path) -> None:
    """Issue 30.8 from the campaign screen: l, Undo, the plan said and asked; yes records
    the corrections (the battle's results no longer count); a second undo says so."""
    _club_with_a_battle_to_share(data_dir, tmp_path)
    store = Store(data_dir)
    with store.open_campaign("club-league") as handle:
        played = handle.campaign.gang("gang-01").fighters[0].xp
        assert sync(handle).pushed
    app = make_app(campaign="club-league")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("l", "5")
        await wait_for_screen(pilot, "ConfirmScreen")
        assert "Void what the last sync shared?" in _text(app, "#dialog-title")
        assert "Battle 1:" in _text(app, "#dialog-message")
        await pilot.press("y")
        await wait_for_screen(pilot, "CampaignScreen")
        await wait_until(pilot, lambda: any("correction(s); shared at the next sync" in n.message
                                            for n in app._notifications), "corrections recorded")
        handle = app.screen.handle
        assert handle.campaign.gang("gang-01").fighters[0].xp == played - 2  # the battle's 2 XP voided
        await pilot.press("l", "5")
        await wait_for_screen(pilot, "LeagueTextScreen")
        assert "undone already (corrected)" in _text(app, "#league-text")
