"""The tracker saves each key as one line of the battle's journal, and the battle file a
player reads holds every event once the tracker is left."""

from __future__ import annotations

from munda_tui.saves import battle_log
from munda_tui.saves.folder import load_battle_data

from .test_battle import SIZE, battle_log as saved_log, make_battle, open_battle


async def test_each_key_is_one_journal_line_and_leaving_folds_it(make_app, data_dir) -> None:  # type: ignore[no-untyped-def]
    make_battle(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        path = app.handle.battle_path(1)
        journal = battle_log.path_of(path)
        in_file = load_battle_data(path)["battle"]["log"]  # the new battle's start, saved whole
        assert [e["kind"] for e in in_file] == ["start"]
        await pilot.press("x", "x", "x", "u")  # four keys: four lines, the file as it was
        assert len(journal.read_text(encoding="utf-8").splitlines()) == 4
        assert load_battle_data(path)["battle"]["log"] == in_file
        assert [e.kind for e in saved_log(data_dir, app)] == ["start", "xp", "xp"]
        await pilot.press("escape")  # back to the campaign: the journal folded
        await pilot.pause()
        assert not journal.exists()
        assert [e["kind"] for e in load_battle_data(path)["battle"]["log"]] == ["start", "xp", "xp"]
