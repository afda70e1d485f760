"""Issue #25 (items 1, 2, 7, 10, 11): Turf War 2017 and the 2023 Lasting Injury table,
each test quoting the seed sentence it follows (or the reading it makes, listed in
``munda-tui rules export``)."""

from __future__ import annotations

from typing import Any

import pytest

from munda_tui.rules import postbattle as pb
from munda_tui.rules.battle import (
    OUT_OF_ACTION,
    SERIOUSLY_INJURED,
    Battle,
    Event,
    default_setup,
    outcome,
    start_event,
)
from munda_tui.rules.demo import demo_campaign

import postbattle_support as S

ESCHER, GOLIATH = S.ESCHER, S.GOLIATH
VEXA = f"{ESCHER}/vexa-nightshade"


def logged_battle() -> tuple[Any, Any]:
    """Vexa Seriously Injures a Goliath, then takes him and another Out of Action."""
    c = demo_campaign()
    setup = default_setup(c, 1, ESCHER, GOLIATH)
    b = Battle([start_event(setup, c)])
    b.record(Event("state", fighter=f"{GOLIATH}/dak-cinderfist", state=SERIOUSLY_INJURED,
                   attacker=VEXA))
    b.record(Event("state", fighter=f"{GOLIATH}/dak-cinderfist", state=OUT_OF_ACTION,
                   attacker=VEXA))
    b.record(Event("state", fighter=f"{GOLIATH}/thug-varro", state=OUT_OF_ACTION, attacker=VEXA))
    o = outcome(b.state, setup)
    o.winner = ESCHER
    return c, o


# --- item 2: Kills and XP awards in Turf War 2017 ------------------------------------------


@pytest.mark.parametrize("ruleset", ["gang-war", "turf-war-2017"])
def test_kills_counted_and_xp_awards_offered_in_both_rulesets(ruleset: str) -> None:
    # seed 002, End of Battle Events: "double check that details such as XP gained for
    # taking opponents Out of Action have been annotated correctly" -- the same sentence
    # as seed 004's Wrap Up: the same log gives the same Kills and XP in both rulesets.
    c, o = logged_battle()
    c.settings.xp_awards = {"seriously_injured": 1, "out_of_action": 2}  # the Arbitrator's
    seq = S.make_seq(ruleset, outcome=o, campaign=c)
    while seq.pending is None or not seq.pending.id.startswith("xp:"):
        assert seq.pending is None and not seq.at_end, "the XP awards were never offered"
        seq.advance()
    assert seq.pending.id == f"xp:{ESCHER}"
    assert seq.step["id"] == ("wrap-up" if ruleset == "gang-war" else "end-of-battle")
    seq.answer("accept")
    vexa = seq.work.gang(ESCHER).fighter("vexa-nightshade")
    assert vexa.kills == 2
    assert vexa.xp == 6 + 1 + 2 * 2


# --- item 7: Show of Force is a D6 under Turf War 2017 ----------------------------------------


def at_actions(ruleset: str, c: Any = None) -> pb.PostBattle:
    import random

    seq = S.make_seq(ruleset, campaign=c)
    return S.drive(seq, random.Random(1), until="post-battle-actions")


def show_of_force(seq: pb.PostBattle, face: int) -> int:
    """Vexa, Oona and Tessa make a Show of Force; the D6 shows ``face``: the change in
    Reputation."""
    before = seq.work.gang(ESCHER).reputation
    seq.add_entry(f"act|{ESCHER}|vexa-nightshade")
    seq.answer("show-of-force")
    seq.answer(["oona-vale", "tessa-gloom"])
    assert seq.pending is not None and seq.pending.kind == "roll"
    assert seq.pending.dice == "D6"
    label, table = seq.pending.label, pb.table_lines(seq, seq.pending)
    seq.answer({"faces": [face], "entered": True})
    assert seq.pending is None
    show_of_force.label, show_of_force.table = label, table  # type: ignore[attr-defined]
    return seq.work.gang(ESCHER).reputation - before


def test_turf_war_show_of_force_rolls_a_d6_on_the_chart() -> None:
    # seed 002, Show of Force: "Roll a D6 on the Show of Force chart to determine the
    # outcome." -- no fighters added (seed 004's Gang War roll: "Roll a D6 and add the
    # number of fighters participating in the Show of Force"). A 6 on the borrowed Gang War
    # chart is Backlash (6-7), not 6 + 3 = 9, Successful Flex.
    seq = at_actions("turf-war-2017")
    assert show_of_force(seq, 6) == -1
    assert "fighters" not in show_of_force.label  # type: ignore[attr-defined]
    assert "+ fighters" not in show_of_force.table[0]  # type: ignore[attr-defined]
    assert any("6: Backlash: lose 1 Reputation." in line for line in seq.state.lines)
    # the reading says so, in the rules export's readings and on the action
    from munda_tui.rules.readings import note, reading

    r = reading("turf-borrowed-rules")
    assert "Roll a D6 and add the number of fighters participating in the Show of Force" in r.seed
    assert "Show of Force" in r.app
    from munda_tui.rules.postbattle_core import get_action

    detail = pb.action_detail(get_action("turf-war-2017", "show-of-force"))
    assert note("turf-borrowed-rules") in detail


def test_gang_war_show_of_force_still_adds_the_fighters() -> None:
    # seed 004: "Roll a D6 and add the number of fighters participating in the Show of Force"
    seq = at_actions("gang-war")
    assert show_of_force(seq, 6) == 1  # 6 + 3 = 9: Successful Flex
    assert "+ 3 fighters" in show_of_force.label  # type: ignore[attr-defined]
    assert "+ fighters" in show_of_force.table[0]  # type: ignore[attr-defined]
