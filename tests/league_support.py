"""A league for the tests: six generated gangs, and a battle played through the rules
engine with fixed dice and applied through the store (as the app's screens do)."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.stages.commit import commit
from munda_tui.rules.battle.events import OUT_OF_ACTION, Battle, Event, default_setup, outcome, start_event
from munda_tui.rules.core.dice import parse
from munda_tui.rules.core.model import BattleSummary


def league(gangs: int = 6):
    from scripts.generate import league_campaign

    c = league_campaign(gangs=gangs, fighters=5, battles=0, seed=3)
    c.id, c.name = "club-league", "Club League"
    c.settings.xp_awards = {"out_of_action": 2}
    return c


def play(handle, a: str, b: str, seed: int, date: str) -> int:
    """A battle between gangs ``a`` and ``b``: a's leader takes b's second fighter Out of
    Action, a wins; the Gang War sequence with dice from ``seed`` (fixed), applied."""
    c = handle.campaign
    number = c.next_battle_number()
    c.battles.append(BattleSummary(number=number, date=date, status="post-battle", gangs=[a, b]))
    handle.save()
    setup = default_setup(c, number, a, b)
    battle = Battle([start_event(setup, c)])
    battle.record(Event("state", fighter=f"{b}/f02", state=OUT_OF_ACTION, attacker=f"{a}/f01"))
    o = outcome(battle.state, setup)
    o.winner = a
    handle.update_battle(number, "setup", setup.to_data())
    handle.update_battle(number, "battle", battle.to_data())
    rng = random.Random(seed)
    seq = pb.PostBattle(c, number, pb.new_draft("gang-war"), o)
    for _ in range(500):
        p = seq.pending
        if p is not None:
            if p.kind == "roll":
                seq.answer({"faces": [rng.randint(1, s) for s in parse(p.dice).dice], "entered": True})
            else:
                seq.answer(p.default or ([] if p.kind == "multi" else p.default))
            continue
        if seq.at_end:
            break
        seq.advance()
    commit(handle, number, seq, date=date)
    return number



def bare_remote(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", str(path)], check=True)
    return path
