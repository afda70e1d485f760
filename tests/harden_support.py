"""A campaign with battle 1 at each status, for the no-traceback and terminal tests
(importable: pytest puts tests/ on sys.path)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.battle.events import Battle, default_setup, outcome, outcome_to_data, start_event
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import BattleSummary
from munda_tui.saves import Store

V, G = "venom-sisters", "iron-skulls"
STATUSES = ("setup", "battle", "post-battle", "done")


def battle_data(status: str) -> dict[str, Any]:
    """A real battle file of battle 1 at ``status``."""
    c = demo_campaign()
    setup = default_setup(c, 1, V, G)
    setup.objective = "Sabotage"
    if status == "setup":
        setup.complete, setup.step = False, "battlefield"
        return {"setup": setup.to_data()}
    b = Battle([start_event(setup, c)])
    data: dict[str, Any] = {"setup": setup.to_data(), "battle": b.to_data()}
    if status in ("post-battle", "done"):
        data["battle"]["outcome"] = outcome_to_data(outcome(b.state, setup, {}))
        data["postbattle"] = pb.new_draft("gang-war")
    if status == "done":
        data["report"] = {"markdown": "# Battle 1\n"}
    return data


def make_campaign(data_dir: Path, status: str) -> Path:
    """The demo campaign with battle 1 at ``status``; the battle file's path."""
    c = demo_campaign()
    c.battles.append(BattleSummary(1, date="2026-01-15", gangs=[V, G], status=status, scenario="Sabotage"))
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, {**battle_data(status), "earlier": {"saved": True}})
        h.save_battle(1, battle_data(status))  # so a backup that loads exists
        return h.battle_path(1)
