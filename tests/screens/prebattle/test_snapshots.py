"""Snapshots of every pre-battle step, the dice prompt and the summary.

Each picture opens a saved set-up at its step (``tests/prebattle_states.py``) and presses only
the keys of that step, instead of replaying the whole walk from the campaign screen; the
whole walk by keyboard is the Pilot test in ``test_prebattle.py``.
"""

from __future__ import annotations

import pytest
from prebattle_states import BOTH_CREWS, CREWS, PITCH_BLACK, ROLLED, SCENARIO, SUBPLOTS, seed_state
from support import wait_for_screen

SIZE = (100, 32)

ROLLING = ROLLED[len(SCENARIO):]
CREW_PICKING = CREWS[len(SUBPLOTS):] + ["y", "e", "2", "enter", "space", "down", "space", "l", "down", "enter",
                                        "down", "space"]
SIDE_JOBS_PICKED = ["r", "down", "enter", "down", "enter"]
assert BOTH_CREWS[len(SUBPLOTS):len(SUBPLOTS) + len(CREW_PICKING)] == CREW_PICKING


def _from_campaign(keys):
    async def run(pilot) -> None:
        await wait_for_screen(pilot, "CampaignScreen")
        for k in keys:
            await pilot.press(k)
            await pilot.pause()

    return run


def _from_state(keys):
    async def run(pilot) -> None:
        await wait_for_screen(pilot, "CampaignScreen")
        pilot.app.open_battle(1)
        await wait_for_screen(pilot, "PreBattleScreen")
        for k in keys:
            await pilot.press(k)
            await pilot.pause()

    return run


@pytest.mark.parametrize(
    "keys",
    [
        pytest.param(["n"], id="gangs"),
        pytest.param(["n", "n", "down"], id="battlefield"),
    ],
)
def test_prebattle_snapshot_new_battle(snap_compare, make_app, keys) -> None:
    assert snap_compare(make_app(seed=11, demo=True), terminal_size=SIZE, run_before=_from_campaign(keys))


@pytest.mark.parametrize(
    ("state", "keys"),
    [
        pytest.param("scenario", [], id="scenario-empty"),
        pytest.param("scenario", ["enter"], id="dice-prompt"),
        pytest.param("scenario", ["enter", "e", "9", "enter"], id="dice-prompt-bad-face"),
        pytest.param("scenario", ["enter", "c"], id="dice-prompt-choose"),
        pytest.param("scenario", ROLLING + ["up", "up"], id="scenario-rolled-crew"),
        pytest.param("pitch-black", [], id="pitch-black"),
        pytest.param("pitch-black", ["down", "enter", "e", "3", "enter"], id="pitch-black-rolled"),
        pytest.param("subplots", CREW_PICKING, id="crew-picking"),
        pytest.param("subplots", CREW_PICKING + ["d"], id="crew-dealt"),
        pytest.param("subplots", ["enter", "y", "e", "2", "enter", "space", "down", "space", "down", "space", "t"],
                     id="crew-real-cards"),
        pytest.param("side-jobs", [], id="side-jobs"),
        pytest.param("side-jobs", ["enter"], id="side-jobs-pick"),
        pytest.param("side-jobs", SIDE_JOBS_PICKED, id="side-jobs-picked"),
        pytest.param("subplots", [], id="subplots"),
        pytest.param("side-jobs", SIDE_JOBS_PICKED + ["n"], id="summary"),
        pytest.param("side-jobs", SIDE_JOBS_PICKED + ["n", "pagedown"], id="summary-crews"),
    ],
)
def test_prebattle_snapshot(snap_compare, make_app, data_dir, state, keys) -> None:
    slug = seed_state(data_dir, state)
    app = make_app(seed=11, campaign=slug)
    assert snap_compare(app, terminal_size=SIZE, run_before=_from_state(keys))


def test_prebattle_snapshot_table_files(snap_compare, make_app, config_dir) -> None:
    """An Arbitrator's table file in use and a broken one, reported with path and line."""
    tables = config_dir / "tables"
    tables.mkdir()
    (tables / "cycle2-objectives.toml").write_text(
        'table = "objective"\n[[entries]]\nroll = "6"\nname = "Loot the Vaults"\ntext = "Grab it."\n'
    )
    (tables / "broken.toml").write_text('table = "crew"\n[[entries]]\nroll = "7"\nname = "x"\ntext = "y"\n')
    app = make_app(seed=11, demo=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=_from_campaign(["n"]))


@pytest.mark.parametrize(("state", "detail"), [("scenario", "#sc-scroll"), ("side-jobs", "#sj-scroll")])
async def test_the_detail_beside_the_list_is_readable_at_80_columns(make_app, data_dir, state,
                                                                   detail) -> None:
    # at 80x24 the list's fixed 56 columns left the table / Side Job text ~20 columns,
    # a few words a line
    slug = seed_state(data_dir, state)
    app = make_app(seed=11, campaign=slug)
    async with app.run_test(size=(80, 24)) as pilot:
        await _from_state([])(pilot)
        assert app.screen.query_one(detail).size.width >= 28
