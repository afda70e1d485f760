"""Snapshots of every pre-battle step, the dice prompt and the summary."""

from __future__ import annotations

import pytest

SIZE = (100, 32)

GANGS = ["n"]
BATTLEFIELD = GANGS + ["n"]
SCENARIO = BATTLEFIELD + ["n"]
# Deployment from a real 5, Objective chosen outright (Object Lesson),
# Crew chosen (Escalating Engagement: the Hybrid 3+D3 reading note), side jobs chosen
ROLLED = SCENARIO + ["enter", "e", "5", "enter",
                     "down", "enter", "c", "down", "down", "down", "enter",
                     "down", "enter", "c", "enter",
                     "down", "enter", "c", "down", "down", "enter",  # Settle a Score
                     "down", "enter", "c", "down", "down", "down", "down", "down", "enter"]  # Protect the Future
PITCH_BLACK = ROLLED + ["n"]
PITCH_BLACK_ROLLED = PITCH_BLACK + ["down", "enter", "e", "3", "enter"]
SUBPLOTS = PITCH_BLACK_ROLLED + ["n"]
CREWS = SUBPLOTS + ["enter"]
CREW_PICKED = CREWS + ["y", "e", "2", "enter", "space", "down", "space", "l", "down", "enter", "down", "space"]
CREW_DEALT = CREW_PICKED + ["d"]
BOTH_CREWS = CREW_DEALT + ["n", "y", "r", "space", "down", "space", "down", "space", "d", "n"]
SIDE_JOBS_PICKED = BOTH_CREWS + ["enter", "enter", "down", "enter", "down", "enter"]
SUMMARY = SIDE_JOBS_PICKED + ["n"]


def _run_before(keys):
    async def run(pilot) -> None:
        for _ in range(20):
            await pilot.pause()
            if type(pilot.app.screen).__name__ == "CampaignScreen":
                break
        for k in keys:
            await pilot.press(k)
            await pilot.pause()

    return run


@pytest.mark.parametrize(
    "keys",
    [
        pytest.param(GANGS, id="gangs"),
        pytest.param(BATTLEFIELD + ["down"], id="battlefield"),
        pytest.param(SCENARIO, id="scenario-empty"),
        pytest.param(SCENARIO + ["enter"], id="dice-prompt"),
        pytest.param(SCENARIO + ["enter", "e", "9", "enter"], id="dice-prompt-bad-face"),
        pytest.param(SCENARIO + ["enter", "c"], id="dice-prompt-choose"),
        pytest.param(ROLLED + ["up", "up"], id="scenario-rolled-crew"),
        pytest.param(PITCH_BLACK, id="pitch-black"),
        pytest.param(PITCH_BLACK_ROLLED, id="pitch-black-rolled"),
        pytest.param(CREW_PICKED, id="crew-picking"),
        pytest.param(CREW_DEALT, id="crew-dealt"),
        pytest.param(CREWS + ["y", "e", "2", "enter", "space", "down", "space", "down", "space", "t"],
                     id="crew-real-cards"),
        pytest.param(BOTH_CREWS, id="side-jobs"),
        pytest.param(BOTH_CREWS + ["enter"], id="side-jobs-pick"),
        pytest.param(SIDE_JOBS_PICKED, id="side-jobs-picked"),
        pytest.param(SUBPLOTS, id="subplots"),
        pytest.param(SUMMARY, id="summary"),
        pytest.param(SUMMARY + ["pagedown"], id="summary-crews"),
    ],
)
def test_prebattle_snapshot(snap_compare, make_app, keys) -> None:
    assert snap_compare(make_app(seed=11, demo=True), terminal_size=SIZE, run_before=_run_before(keys))


def test_prebattle_snapshot_table_files(snap_compare, make_app, config_dir) -> None:
    """An Arbitrator's table file in use and a broken one, reported with path and line."""
    tables = config_dir / "tables"
    tables.mkdir()
    (tables / "cycle2-objectives.toml").write_text(
        'table = "objective"\n[[entries]]\nroll = "6"\nname = "Loot the Vaults"\ntext = "Grab it."\n'
    )
    (tables / "broken.toml").write_text('table = "crew"\n[[entries]]\nroll = "7"\nname = "x"\ntext = "y"\n')
    app = make_app(seed=11, demo=True)
    assert snap_compare(app, terminal_size=SIZE, run_before=_run_before(GANGS))
