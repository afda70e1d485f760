"""The league question as a player meets it (issue 30.2): the Arbitrator's choice after a
sync found the same credits spent on two laptops, at 100x32 and at 80x24 (snapshots)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from munda_tui.saves import Store
from munda_tui.saves.league import init, join, sync
from league_support import a_minute_ago, bare_remote, league
from support import wait_for_screen, wait_until

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


class _on_the_8th_of_august:
    """Records made inside are dated 2026-08-08 (the snapshot names the edit's date)."""

    def __enter__(self) -> None:
        import calendar
        import time

        self.real = real = time.gmtime
        start = calendar.timegm((2026, 8, 8, 19, 0, 0))
        began = time.time()

        def then(secs: float | None = None) -> time.struct_time:  # (now, or a minute ago)
            return real(start + ((time.time() if secs is None else secs) - began))

        time.gmtime = then  # type: ignore[assignment]

    def __exit__(self, *_exc: object) -> None:
        import time

        time.gmtime = self.real  # type: ignore[assignment]


def _credits_spent_twice(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every credit of Gang 01 spent at home (by Ana) and shared; 10 of the same spent at
    the club (by Bo), a minute later."""
    remote = bare_remote(tmp_path / "remote.git")
    store = Store(data_dir)
    with store.create_campaign(league(2)) as handle:
        init(handle, str(remote))
    home = Store(tmp_path / "home")
    join(home, str(remote))
    monkeypatch.setenv("MUNDA_PLAYER", "Ana")
    with _on_the_8th_of_august(), a_minute_ago(), home.open_campaign("club-league") as handle:
        handle.campaign.gang("gang-01").credits = 0
        handle.save()
        sync(handle)
    monkeypatch.setenv("MUNDA_PLAYER", "Bo")
    with _on_the_8th_of_august(), store.open_campaign("club-league") as handle:
        handle.campaign.gang("gang-01").credits -= 10
        handle.save()


def _footer_keys(app) -> list[str]:  # type: ignore[no-untyped-def]
    """The keys the question screen's footer shows (the help's ``?`` aside)."""
    from textual.widgets._footer import FooterKey

    return [k.key for k in app.screen.query(FooterKey) if k.display and k.key != "question_mark"]


async def _sync_to_the_question(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    await wait_for_screen(pilot, "CampaignScreen")
    await wait_until(pilot, lambda: app.screen.query_one("#league-hint").display, "the league hint")
    await pilot.press("g")
    await wait_for_screen(pilot, "QuestionScreen", timeout=60)  # (git's sync: slow on a loaded machine)
    # the footer follows the highlighted question (its answers once the list is filled)
    await wait_until(pilot, lambda: set(_footer_keys(app)) & set("vkmla"), "the question's answers")
    await pilot.pause()


@pytest.mark.parametrize("size", [(100, 32), (80, 24)], ids=["100x32", "80x24"])
def test_the_league_question_snapshot(snap_compare, make_app, data_dir: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    _credits_spent_twice(data_dir, tmp_path, monkeypatch)
    assert snap_compare(make_app(campaign="club-league"), terminal_size=size,
                        run_before=_sync_to_the_question)


def _two_pack_versions(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35.7: the league's pack test-club made version 2 at home (by Ana) and shared;
    Bo's laptop (the app's) adds a scenario table to its version 1, not yet synced. The
    pack is TEST DATA."""
    remote = bare_remote(tmp_path / "remote.git")
    store = Store(data_dir)
    with store.create_campaign(league(2)) as handle:
        init(handle, str(remote))
        folder = handle.path / "packs" / "test-club"
        folder.mkdir(parents=True)
        (folder / "pack.toml").write_text('id = "test-club"\ntitle = "Test club"\nversion = "1"\n',
                                          encoding="utf-8")
        (folder / "counters.toml").write_text('[[counters]]\nid = "test_scrap"\nname = "Test scrap"\n',
                                              encoding="utf-8")
        sync(handle)
    home = Store(tmp_path / "home")
    join(home, str(remote))
    monkeypatch.setenv("MUNDA_PLAYER", "Ana")
    with home.open_campaign("club-league") as handle:
        folder = handle.path / "packs" / "test-club"
        (folder / "pack.toml").write_text('id = "test-club"\ntitle = "Test club"\nversion = "2"\n',
                                          encoding="utf-8")
        sync(handle)
    monkeypatch.setenv("MUNDA_PLAYER", "Bo")
    folder = data_dir / "campaigns" / "club-league" / "packs" / "test-club"
    (folder / "counters.toml").write_text('[[counters]]\nid = "test_scrap"\nname = "Test scrap"\n'
                                          '\n[[counters]]\nid = "test_bits"\nname = "Test bits"\n',
                                          encoding="utf-8")


@pytest.mark.parametrize("size", [(100, 32), (80, 24)], ids=["100x32", "80x24"])
def test_the_pack_question_snapshot(snap_compare, make_app, data_dir: Path, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """A pack of two versions, as the sync leaves it: a league question (the league's
    version and the one set aside, the rule until the answer), not a conflict to pick."""
    _two_pack_versions(data_dir, tmp_path, monkeypatch)
    async def to_the_question(pilot) -> None:  # type: ignore[no-untyped-def]
        await _sync_to_the_question(pilot)
        await pilot.app.workers.wait_for_complete()  # (the league hint behind, worked out by git)
        pilot.app.clear_notifications()  # (the sync's words: the Pilot test reads them; a
        await pilot.pause()  # toast's time on screen is the machine's load, not the app's)

    with _on_the_8th_of_august():
        assert snap_compare(make_app(campaign="club-league"), terminal_size=size,
                            run_before=to_the_question)


async def test_a_pack_of_two_versions_is_answered_from_the_question_screen(
        make_app, data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """By keyboard: g syncs (it goes through: no o/t conflict as on main), the question
    screen lists the pack; until answered this laptop keeps its version (its two counters
    in force, the league's one); v is refused (not a pack's answer); a takes the set-aside
    version for the league, the packs in force follow, and the other laptop plays the
    same once both have synced."""
    _two_pack_versions(data_dir, tmp_path, monkeypatch)
    app = make_app(campaign="club-league")
    async with app.run_test(size=(100, 32)) as pilot:
        await _sync_to_the_question(pilot)
        screen = app.screen
        detail = str(screen.query_one("#question-detail").render())
        assert "Pack test-club: version 2 and version 1" in detail
        assert "each laptop keeps its version: this laptop plays version 1 (set aside)" in detail
        from munda_tui.rules.campaign.counters import counters

        assert [c.id for c in counters(app.rule_data)] == ["test_scrap", "test_bits"]  # Bo's
        assert _footer_keys(app) == ["l", "a", "escape"]  # a pack's answers only (not v/k/m)
        await pilot.press("v")
        await pilot.pause()
        assert app.screen is screen and len(app.handle.questions) == 1  # refused
        await pilot.press("a")
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.handle.questions == []
        assert [c.id for c in counters(app.rule_data)] == ["test_scrap", "test_bits"]
        assert app.packs.packs[0].path == str(app.handle.path / "packs" / "test-club")
        gangs = app.screen.query_one("#gangs")
        assert "counter:test_bits" in [str(k.value) for k in gangs.columns]
        said = len(app._notifications)
        await pilot.press("g")
        await wait_until(pilot, lambda: any("shared" in str(n.message) for n in list(app._notifications)[said:]),
                         "the sync's words", timeout=60)
    home = Store(tmp_path / "home")
    with home.open_campaign("club-league") as handle:
        sync(handle)
        assert handle.questions == []
        text = (handle.path / "packs" / "test-club" / "counters.toml").read_text(encoding="utf-8")
        assert "test_bits" in text
        assert not (handle.path / "packs" / ".versions").exists()
