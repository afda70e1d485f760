"""Sub-plot effects handed to the post-battle sequence: who rolls twice on the Lasting
Injury table and keeps the higher result."""

from __future__ import annotations

from munda_tui.rules.battle import Event, replay
from munda_tui.rules.setup import BattleSetup
from munda_tui.rules.subplot_effects import two_injury_rolls
from munda_tui.rules.battle import outcome
from tests.rules.test_watch import down, end, k, ooa, start, state


def reveal(card, gang="us"):
    return Event("reveal", gang=gang, card=card)


def test_chemical_solutions_every_fighter_taken_out_after_the_reveal() -> None:
    """'For the rest of the game, your fighters ... must roll twice on the Lasting Injury
    table and accept the higher result if taken Out of Action.'"""
    st = replay([start(), ooa("u1"), reveal("unforgiving-underhive:K"), ooa("u2"),
                 down("u3"), Event("recovery", fighter=k("u3"), result="out_of_action"),
                 ooa("t1"), end()])
    assert two_injury_rolls(st) == {"us/u2": "unforgiving-underhive:K",
                                    "us/u3": "unforgiving-underhive:K"}
    # the outcome carries it to the wizard
    setup = BattleSetup(number=1, challenger="us", challenged="them")
    fo = {f.fighter: f for f in outcome(st, setup, {"unforgiving-underhive:K": "Chemical Solutions"}).fighters}
    assert fo["u2"].injury_rolls == 2 and fo["u2"].injury_rolls_why == "Chemical Solutions"
    assert fo["u1"].injury_rolls == 1 and fo["t1"].injury_rolls == 1


def test_divine_possession_the_leader_or_champion_taken_out_again() -> None:
    """'if the fighter is taken Out of Action again during this battle ... two Lasting
    Injury rolls are made against them and the higher result is applied.'"""
    log = [start(), ooa("uc", by="t1"), reveal("cawdor:K"), state("uc", "active"),
           ooa("uc", by="t2"), ooa("u1"), end()]
    assert two_injury_rolls(replay(log)) == {"us/uc": "cawdor:K"}
    # kept in play and never taken out again: one roll (none at all, they stand)
    assert two_injury_rolls(replay(log[:4] + [end()])) == {}
    # not revealed: one roll
    assert two_injury_rolls(replay([start(), ooa("uc", by="t1"), end()])) == {}
