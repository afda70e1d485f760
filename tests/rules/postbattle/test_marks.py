"""A post-battle answer walks the steps from the one it changes (issue 33.3): the sequence
keeps a mark before each step it walked and starts again from the last mark the draft
still agrees with. Replaying every step from the start stays the check: after any input
(an answer, a roll, a re-roll, an entry added, a step on or back, an undo), a sequence
made anew from the same draft says the same, step by step."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from munda_tui.rules.postbattle import sequence as pb

from postbattle_support import answer_default, make_seq
from support import examples

RULESETS = ["gang-war", "turf-war-2017"]


def _seen(seq: pb.PostBattle) -> Any:
    """Everything of a sequence a screen, a report or the commit reads."""
    gangs = [seq.work.gang(g) for g in seq.outcome.gangs]
    return (seq.current, seq.draft["step"], seq.outcome, seq.facts, gangs, seq.changes(),
            [(s.id, s.status, s.reason, s.lines, s.changes, None if s.pending is None else
              (s.pending.id, s.pending.kind, [(o.id, o.enabled) for o in s.pending.options]))
             for s in seq.states],
            sorted(seq.walked.items()), seq.can_undo())


def _same_as_anew(seq: pb.PostBattle) -> None:
    anew = pb.PostBattle(seq.base, seq.number, copy.deepcopy(seq.draft), seq.tracker_outcome,
                         setup=seq.setup, item_kinds=seq.item_kinds, data=seq.data)
    assert _seen(seq) == _seen(anew)


def _move(seq: pb.PostBattle, move: int, rng: random.Random) -> None:
    """One input a player could make here (``move`` picks which, among those possible)."""
    moves = []
    if seq.pending is not None:
        moves.append(lambda: answer_default(seq, rng))
    elif not seq.at_end:
        moves.append(seq.advance)
    moves.append(seq.back)
    if seq.can_undo():
        moves.append(seq.undo)
    options = [o for o in seq.entry_options() if o.enabled] if seq.pending is None else []
    if options:
        moves.append(lambda: seq.add_entry(options[move % len(options)].id))
    last = seq.last_roll()
    if last is not None:
        faces = list(pb.roll_dice(last.dice, rng).faces)
        moves.append(lambda: seq.reroll({"faces": faces, "entered": True}, "a die fell off the table"))
    try:
        moves[move % len(moves)]()
    except pb.PostBattleError:
        pass  # (refused: the sequence says why and is as it was)


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=examples(30), deadline=None)
@given(moves=st.lists(st.integers(0, 50), min_size=10, max_size=120), seed=st.integers(0, 99))
def test_a_sequence_walked_from_its_marks_is_the_sequence_walked_anew(ruleset: str, moves: list[int],
                                                                      seed: int) -> None:
    seq = make_seq(ruleset)
    rng = random.Random(seed)
    for move in moves:
        _move(seq, move, rng)
        _same_as_anew(seq)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_answer_walks_only_the_step_it_answers(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole sequence to its end, each input walking the steps from the one it
    changes: every step is walked about once per input in it, not once per input
    before it (a league's 26 steps replayed at each answer: issue 33.3)."""
    walked: list[str] = []
    resolvers = dict(pb.RESOLVERS)
    for name, resolve in resolvers.items():
        monkeypatch.setitem(pb.RESOLVERS, name,
                            lambda walk, resolve=resolve: walked.append(walk.step["id"]) or resolve(walk))
    seq = make_seq(ruleset)
    rng = random.Random(5)
    inputs = 0
    while not (seq.pending is None and seq.at_end):
        walked.clear()
        before = seq.step["id"]
        if seq.pending is not None:
            answer_default(seq, rng)
        else:
            seq.advance()
        inputs += 1
        # from the step the input was on, to the step it leaves the sequence on
        assert walked[0] == before and walked[-1] == seq.step["id"], (before, walked)
        assert len(walked) == len(set(walked))
    assert inputs > 15
    _same_as_anew(seq)
