"""A battle file that does not load is never silently absent (issue 34): the campaign
screen lists it under the battles with its file and line and its newest backup that
loads, `b` restores that backup (asking first), and a new battle does not take its
number."""

from __future__ import annotations

import itertools

import pytest

from munda_tui.saves import Store
from campaign_support import seed
from support import wait_for_screen

SIZE = (100, 32)


@pytest.fixture
def fixed_names(monkeypatch):
    """Battle file names that are the same on every run (for the snapshot)."""
    counter = itertools.count(0xA00000)
    monkeypatch.setattr("munda_tui.saves.folder.os.urandom", lambda n: next(counter).to_bytes(n, "big"))


def _break_battle_two(data_dir) -> tuple[str, object]:
    """Seed the campaign with a history, save it again (a backup of each battle file),
    then break battle 2's summary by hand: its file and the line of the value."""
    slug = seed(data_dir)
    store = Store(data_dir)
    with store.open_campaign(slug) as handle:
        handle.campaign.battles[1].scenario = "Stand-off (replayed)"
        handle.save()
        path = handle.battle_path(2)
    text = path.read_text()
    assert 'date = "2026-01-08"' in text
    path.write_text(text.replace('date = "2026-01-08"', "date = 8", 1))
    line = next(i for i, row in enumerate(path.read_text().splitlines(), 1) if row.startswith("date = "))
    return slug, (path, line)


async def test_a_battle_left_out_is_listed_and_its_backup_restored(make_app, data_dir, fixed_names) -> None:
    from munda_tui.screens.common.dialogs import ConfirmScreen

    slug, (path, line) = _break_battle_two(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        screen = app.screen
        battles = screen.query_one("#battles")
        assert [battles.get_row_at(i)[0] for i in range(battles.row_count)] == ["4", "3", "1"]
        note = screen.query_one("#left-out")
        said = str(note.render())
        assert note.display and f"battles/{path.name}:{line}:" in said and "summary.date" in said
        assert f"b restores its newest backup that loads: {path.name}.000001.bak" in said
        assert app.handle.next_battle_number() == 5
        await pilot.press("b")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen) and f"{path}:{line}:" in app.screen.detail
        await pilot.press("y")
        for _ in range(3):
            await pilot.pause()
        assert app.screen is screen and not note.display
        assert [battles.get_row_at(i)[0] for i in range(battles.row_count)] == ["4", "3", "2", "1"]
        assert app.handle.campaign.battles[1].scenario == "Stand-off"
    assert (data_dir / "campaigns" / slug / ".backups" / "battles").is_dir()
    assert list((data_dir / "campaigns" / slug / ".backups" / "battles").glob(f"{path.name}.broken*.bak"))


async def test_no_new_battle_takes_a_left_out_number(make_app, data_dir, fixed_names) -> None:
    slug, (path, _line) = _break_battle_two(data_dir)
    # battle 2 is left out: it keeps its number; the new battle is 5
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.new_battle() == 5
    with Store(data_dir).open_campaign(slug) as handle:
        assert [b.number for b in handle.campaign.battles] == [1, 3, 4, 5]
        assert [lo.number for lo in handle.left_out()] == [2]
        assert path.read_text().count("date = 8") == 1  # never written over


def test_left_out_snapshot(snap_compare, make_app, data_dir, fixed_names) -> None:
    slug, _where = _break_battle_two(data_dir)

    async def on_campaign(pilot) -> None:  # type: ignore[no-untyped-def]
        await wait_for_screen(pilot, "CampaignScreen")

    assert snap_compare(make_app(campaign=slug), terminal_size=SIZE, run_before=on_campaign)


async def test_a_left_out_battle_whose_number_cannot_be_read_keeps_it(make_app, data_dir, fixed_names) -> None:
    """A left-out file with no readable number and no backup (the newest battle's, 4):
    a new battle took 4, its identity. Now the screen says its number cannot be read
    and a new battle is refused, naming the file, until it loads or leaves battles/."""
    from munda_tui.screens.common.dialogs import ErrorScreen

    slug = seed(data_dir)
    with Store(data_dir).open_campaign(slug) as handle:
        path = handle.battle_path(4)
    for backup in (data_dir / "campaigns" / slug / ".backups").rglob(f"{path.name}*"):
        backup.unlink()
    path.write_text(path.read_text().replace("number = 4", 'number = "four"', 1))
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        said = str(app.screen.query_one("#left-out").render())
        assert f"battles/{path.name}:" in said and "battle number cannot be read" in said
        await pilot.press("n")
        await wait_for_screen(pilot, "ErrorScreen")
        assert isinstance(app.screen, ErrorScreen)
        assert str(path) in app.screen.message and "no new battle is numbered" in app.screen.message
        assert [b.number for b in app.handle.campaign.battles] == [1, 2, 3]
    with Store(data_dir).open_campaign(slug) as handle:
        assert [b.number for b in handle.campaign.battles] == [1, 2, 3]
    path.write_text(path.read_text().replace('number = "four"', "number = 4\n[summary]\nx = [", 1))
    with Store(data_dir).open_campaign(slug) as handle:  # broken further down: its number read
        assert [lo.number for lo in handle.left_out()] == [4] and handle.next_battle_number() == 5
