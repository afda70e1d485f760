"""Saved pre-battle set-ups that the snapshot tests open at their step.

Each state is battle 1's file (its stages) as the pre-battle screen saved it
when a player walked the demo campaign by keyboard to the start of that step (seed 11).
Opening a saved set-up gives the same picture as replaying the keys from the start, in a
fraction of the time; the full keyboard walk stays a Pilot test in ``test_prebattle.py``.

Regenerate the files after a change to the set-up format (and look at the diff):

    python tests/prebattle_states.py
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

STATES = Path(__file__).resolve().parent / "screens" / "states"

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
BOTH_CREWS = CREWS + ["y", "e", "2", "enter", "space", "down", "space", "l", "down", "enter", "down", "space",
                      "d", "n", "y", "r", "space", "down", "space", "down", "space", "d", "n"]

#: state name -> the keys (from the campaign screen) that reach the start of its step
CHECKPOINTS: dict[str, list[str]] = {
    "scenario": SCENARIO,
    "pitch-black": PITCH_BLACK,
    "subplots": SUBPLOTS,
    "side-jobs": BOTH_CREWS,
}


def state_path(name: str) -> Path:
    return STATES / f"prebattle-{name}.toml"


def seed_state(data_dir: Path, name: str) -> str:
    """Write the demo campaign and the saved set-up ``name`` as its battle 1; the slug."""
    import tomllib

    from support import ensure_demo  # the demo written once per process, then copied
    from munda_tui.rules.core.model import BattleSummary
    from munda_tui.saves import Store

    slug = ensure_demo(data_dir)
    text = state_path(name).read_text(encoding="utf-8")
    setup = tomllib.loads(text)["setup"]
    with Store(data_dir).open_campaign(slug) as handle:
        handle.campaign.battles.append(
            BattleSummary(number=1, date="2026-01-15", status="setup",
                          gangs=[setup["challenger"], setup["challenged"]], scenario=setup.get("objective", ""))
        )
        handle.save()
        data = tomllib.loads(text)
        data.pop("schema_version", None)
        handle.save_battle(1, data)  # (its file holds its number and summary too)
    return slug


async def _walk(name: str, keys: list[str]) -> str:
    from munda_tui.app import MundaApp
    from support import ensure_demo, wait_for_screen  # (the demo written once per process, then copied)

    with tempfile.TemporaryDirectory() as tmp:
        data, config = Path(tmp, "data"), Path(tmp, "config")
        data.mkdir()
        config.mkdir()
        app = MundaApp(data, config, seed=11, today="2026-01-15", campaign=ensure_demo(data))
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for_screen(pilot, "CampaignScreen")
            for key in keys:
                await pilot.press(key)
                await pilot.pause()
            assert app.handle is not None
            from munda_tui.saves import codec, tomlemit

            return tomlemit.dumps(codec.battle_to_data(app.handle.load_battle(1)))


def main() -> int:
    STATES.mkdir(exist_ok=True)
    for name, keys in CHECKPOINTS.items():
        text = asyncio.run(_walk(name, keys))
        state_path(name).write_text(text, encoding="utf-8")
        print(f"wrote {state_path(name)}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main())
