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
