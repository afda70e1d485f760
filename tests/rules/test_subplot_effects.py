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


def test_work_for_the_docs_walked_at_the_lasting_injuries_step() -> None:
    """Work for the Docs: 'For each fighter, friendly or enemy, that went Out of Action but
    did not die ... you gain D3x10 credits.' Revealed in the battle, walked by the wizard
    once the Lasting Injuries are known."""
    import random

    from postbattle_support import ESCHER, GOLIATH, demo_outcome, drive, make_seq
    from munda_tui.rules.outcome import EndState

    o = demo_outcome()
    for fo in o.fighters:
        if fo.fighter == "vexa-nightshade":
            fo.end_state = EndState.OUT_OF_ACTION
    o.subplots_revealed = ["noble-whims:K"]
    o.subplots_revealed_by = {ESCHER: ["noble-whims:K"]}
    pid = "subplot:noble-whims:K:" + ESCHER
    faces = {f"injury:{GOLIATH}:dak-cinderfist": [6, 6],  # Memorable Death: no credits
             f"injury:{ESCHER}:vexa-nightshade": [1, 1],  # lives
             f"{pid}:{ESCHER}/vexa-nightshade": [2],
             f"fate:{ESCHER}:lys-venom": [1], f"fate:{ESCHER}:mara-quill": [6],
             f"injury:{ESCHER}:lys-venom": [1, 2], f"{pid}:{ESCHER}/lys-venom": [3]}
    seq = drive(make_seq(outcome=o), random.Random(2), until="lasting-injuries", faces=faces)
    lines = " ".join(seq.state.lines)
    assert "Work for the Docs: Vexa Nightshade lived, D3x10 [2] = 20" in lines
    assert "Work for the Docs: Lys Venom lived, D3x10 [3] = 30" in lines  # Fate of the Fallen
    assert "+50 credits (Sub-plot: Work for the Docs)" in lines
    assert "Dak Cinderfist lived" not in lines
    # not revealed: nothing walked
    o.subplots_revealed, o.subplots_revealed_by = [], {}
    seq = drive(make_seq(outcome=o), random.Random(2), until="lasting-injuries", faces=faces)
    assert "Work for the Docs" not in " ".join(seq.state.lines)
