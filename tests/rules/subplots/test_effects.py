"""Sub-plot effects handed to the post-battle sequence: who rolls twice on the Lasting
Injury table and keeps the higher result."""

from __future__ import annotations

from munda_tui.rules.battle.events import RecoveryEvent, RevealEvent

from munda_tui.rules.battle.events import Event, replay
from munda_tui.rules.prebattle.setup import BattleSetup
from munda_tui.rules.subplots.effects import two_injury_rolls
from munda_tui.rules.battle.events import outcome
from tests.rules.battle.test_watch import down, end, k, ooa, start, state


def reveal(card, gang="us"):
    return RevealEvent(gang=gang, card=card)


def test_chemical_solutions_every_fighter_taken_out_after_the_reveal() -> None:
    """'For the rest of the game, your fighters ... must roll twice on the Lasting Injury
    table and accept the higher result if taken Out of Action.'"""
    st = replay([start(), ooa("u1"), reveal("unforgiving-underhive:K"), ooa("u2"),
                 down("u3"), RecoveryEvent(fighter=k("u3"), result="out_of_action"),
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
    from munda_tui.rules.core.outcome import EndState

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


def _captured_outcome():
    """The Venom Sisters (Escher) capture Dak Cinderfist: Seriously Injured at the end,
    Captured on the Fate of the Fallen roll."""
    from postbattle_support import ESCHER, GOLIATH, demo_outcome
    from munda_tui.rules.core.outcome import EndState

    o = demo_outcome()
    for fo in o.fighters:
        if fo.fighter in ("lys-venom", "mara-quill"):
            fo.end_state = EndState.STANDING
        if fo.fighter == "dak-cinderfist":
            fo.end_state = EndState.SERIOUSLY_INJURED
    return o, ESCHER, GOLIATH


def _run_to_lasting_injuries(hand, use_house=True, answers=None, faces=None):
    """The sequence up to the end of the Lasting Injuries step; ``answers``: prompt id ->
    answer; returns (sequence, the ids of the prompts asked)."""
    import random

    from postbattle_support import answer_default, make_seq

    o, escher, goliath = _captured_outcome()
    seq = make_seq(outcome=o)
    seq.setup = {"sides": [{"gang": escher, "use_house_deck": use_house, "hand": hand},
                           {"gang": goliath, "use_house_deck": False, "hand": ["goliath:5"]}]}
    faces = {f"fate:{goliath}:dak-cinderfist": [3], **(faces or {})}  # 3: Captured
    rng, asked = random.Random(3), []
    for _ in range(500):
        p = seq.pending
        if seq.step["id"] not in ("wrap-up", "consumables", "end-of-battle",
                                  "seriously-injured", "lasting-injuries"):
            break  # past the Lasting Injuries (skipped when it has nothing to do)
        if p is None:
            if seq.step["id"] == "lasting-injuries":
                break
            seq.advance()
            continue
        asked.append((p.id, p.label))
        if p.id in (answers or {}):
            seq.answer(answers[p.id])
        elif p.kind == "roll" and p.id in faces:
            seq.answer({"faces": faces[p.id], "entered": True})
        else:
            answer_default(seq, rng)
    return seq, asked, escher, goliath


def test_a_dark_fate_asked_at_a_capture_then_injury_return_and_reputation() -> None:
    """A Dark Fate: 'should your gang capture an enemy fighter. You may immediately roll on
    the Lasting Injury table for the captured fighter and apply the results. On any result
    other than Memorable Death, the fighter is then returned to its own gang, and your own
    gang gains D3 Reputation.'"""
    from postbattle_support import ESCHER, GOLIATH

    key = f"{GOLIATH}/dak-cinderfist"
    seq, asked, _, _ = _run_to_lasting_injuries(
        ["escher:4"], answers={f"subplot:escher:4:{ESCHER}:{key}": "yes"},
        faces={f"subplot:escher:4:{key}:injury": [1, 1], f"subplot:escher:4:{key}:rep": [2]})
    assert dict(asked)[f"subplot:escher:4:{ESCHER}:{key}"] == (
        "The Venom Sisters captured Dak Cinderfist: does The Venom Sisters reveal a Sub-plot now?")
    lines = " ".join(seq.state.lines)
    assert "The Venom Sisters reveal A Dark Fate" in lines
    assert "Dak Cinderfist: Lasting Injury 11" in lines
    assert "is returned to The Iron Skulls; The Venom Sisters gain 2 Reputation" in lines
    # Memorable Death: not returned, no Reputation
    seq, _, _, _ = _run_to_lasting_injuries(
        ["escher:4"], answers={f"subplot:escher:4:{ESCHER}:{key}": "yes"},
        faces={f"subplot:escher:4:{key}:injury": [6, 6]})
    assert "Memorable Death - no Reputation" in " ".join(seq.state.lines)


def test_a_dark_fate_is_asked_whatever_the_hand_holds_and_never_without_the_deck() -> None:
    from postbattle_support import ESCHER, GOLIATH

    ask = f"subplot:escher:4:{ESCHER}:{GOLIATH}/dak-cinderfist"
    runs = [_run_to_lasting_injuries(hand) for hand in (["escher:4"], ["escher:9"])]
    assert ask in dict(runs[0][1]) and runs[0][1] == runs[1][1]  # the same questions
    assert runs[0][0].state.lines == runs[1][0].state.lines  # the same words
    seq, asked, _, _ = _run_to_lasting_injuries(["escher:4"], use_house=False)
    assert ask not in dict(asked)


def test_sumptown_shakedown_counts_a_coup_de_grace_as_out_cold() -> None:
    """Sumptown Shakedown: 'the fighter taken Out of Action automatically counts the result
    on the Lasting Injury table as 12-26 Out Cold' - no roll for them."""
    import random

    from postbattle_support import ESCHER, GOLIATH, demo_outcome, drive, make_seq
    from munda_tui.rules.subplots.effects import fixed_injuries

    log = [start(), ooa("t1", by="u1", action="coup_de_grace"), reveal("orlock:2"),
           ooa("t2", by="u2", action="fight"), ooa("t3", by="u2", action="coup_de_grace"), end()]
    st = replay(log)
    assert fixed_injuries(st) == {"them/t1": ("Out Cold", "orlock:2"),
                                  "them/t3": ("Out Cold", "orlock:2")}
    assert fixed_injuries(replay([start(), ooa("t1", by="u1", action="coup_de_grace"), end()])) == {}
    o = demo_outcome()
    for fo in o.fighters:
        if fo.fighter == "dak-cinderfist":
            fo.injury_result, fo.injury_result_why = "Out Cold", "Sumptown Shakedown"
    seq = drive(make_seq(outcome=o), random.Random(1), until="lasting-injuries")
    lines = " ".join(seq.state.lines)
    assert "Dak Cinderfist: no Lasting Injury roll, the result counts as Out Cold " \
           "(Sumptown Shakedown)" in lines
    assert "Dak Cinderfist: Lasting Injury 12-26 Out Cold" in lines
    assert f"injury:{GOLIATH}:dak-cinderfist" not in str(seq.draft)  # never asked
    assert f"injury:{ESCHER}:lys-venom" in str(seq.draft)  # the others roll as usual


def test_cards_shown_before_round_1_count_as_revealed_in_the_outcome() -> None:
    """Shadowing (Noble Whims Q) revealed in the start-of-the-battle walk, Contempt for the
    Weak at Choose Crew, and a card revealed in the tracker are all revealed in the
    outcome (the report and the post-battle's "holds a card not yet revealed" read it);
    Dead of Night's secret number leaves its card hidden."""
    from munda_tui.rules.prebattle.setup import SideSetup
    from munda_tui.rules.subplots.decks import shown_before_round_1

    setup = BattleSetup(number=1, challenger="us", challenged="them", sides=[
        SideSetup(gang="us", hand=["noble-whims:Q", "escher:2", "goliath:J"],
                  subplot_choices={"noble-whims:Q": "them/t1", "goliath:J": "2"}),
        SideSetup(gang="them", hand=["delaque:10", "noble-whims:6"],
                  subplot_choices={"delaque:10": "8"}),
    ])
    assert shown_before_round_1(setup.sides[0].hand, setup.sides[0].subplot_choices) == [
        "noble-whims:Q", "goliath:J"]
    assert shown_before_round_1(setup.sides[1].hand, setup.sides[1].subplot_choices) == []
    st = replay([start(), reveal("escher:2"), reveal("noble-whims:Q"), end()])
    o = outcome(st, setup)
    assert o.subplots_revealed_by == {"us": ["noble-whims:Q", "goliath:J", "escher:2"]}
    assert o.subplots_revealed == ["noble-whims:Q", "goliath:J", "escher:2"]
    # nothing revealed in the tracker: the start walk's card still counts
    o = outcome(replay([start(), end()]), setup)
    assert o.subplots_revealed_by == {"us": ["noble-whims:Q", "goliath:J"]}
    assert "delaque:10" not in o.subplots_revealed
