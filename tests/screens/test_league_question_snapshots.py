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


async def _sync_to_the_question(pilot) -> None:  # type: ignore[no-untyped-def]
    app = pilot.app
    await wait_for_screen(pilot, "CampaignScreen")
    await wait_until(pilot, lambda: app.screen.query_one("#league-hint").display, "the league hint")
    await pilot.press("g")
    await wait_for_screen(pilot, "QuestionScreen")
    await pilot.pause()


@pytest.mark.parametrize("size", [(100, 32), (80, 24)], ids=["100x32", "80x24"])
def test_the_league_question_snapshot(snap_compare, make_app, data_dir: Path, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    _credits_spent_twice(data_dir, tmp_path, monkeypatch)
    assert snap_compare(make_app(campaign="club-league"), terminal_size=size,
                        run_before=_sync_to_the_question)
