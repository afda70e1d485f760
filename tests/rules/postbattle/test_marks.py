"""A post-battle answer walks the steps from the one it changes (issue 33.3): the sequence
keeps a mark before each step it walked and starts again from the last mark the draft
still agrees with. Replaying every step from the start stays the check: after any input
(an answer, a roll, a re-roll, an entry added, a step on or back, an undo), a sequence
made anew from the same draft says the same, step by step."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings, strategies as st

from munda_tui.rules.postbattle import sequence as pb

from postbattle_support import answer_default, drive, make_seq
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


def _resumed(seq: pb.PostBattle) -> pb.PostBattle:
    """The sequence after a crash: made anew from its draft as saved (plain data: the
    battle file's ``postbattle`` table holds lists, tables, strings and numbers)."""
    draft = json.loads(json.dumps(seq.draft))
    return pb.PostBattle(seq.base, seq.number, draft, seq.tracker_outcome, setup=seq.setup,
                         item_kinds=seq.item_kinds, data=seq.data)


def _walk_checked(ruleset: str, moves: list[int], seed: int) -> None:
    """Inputs at random (``moves``; 0 mod 9: a crash and a resume, the sequence going on
    from the one made anew), each checked against the sequence replayed from its draft."""
    seq = make_seq(ruleset)
    rng = random.Random(seed)
    for move in moves:
        if move % 9 == 0:
            seq = _resumed(seq)
        else:
            _move(seq, move, rng)
        _same_as_anew(seq)


@pytest.mark.parametrize("ruleset", RULESETS)
@settings(max_examples=examples(30), deadline=None)
@given(moves=st.lists(st.integers(0, 80), min_size=10, max_size=150), seed=st.integers(0, 99))
def test_inputs_undos_and_resumes_applied_step_by_step_are_the_sequence_replayed(
        ruleset: str, moves: list[int], seed: int) -> None:
    _walk_checked(ruleset, moves, seed)


def _back_forgets_the_step(seq: pb.PostBattle) -> bool:
    """A broken step back: the mark *before* the step gone back to taken as the state
    after it (the step's own changes lost)."""
    i = seq.current - 1
    while i >= 0 and seq.states[i].status == "skipped":
        i -= 1
    if i < 1 or seq._marks[i] is None:
        return False
    seq.draft["step"] = seq.steps[i]["id"]
    seq._restore(seq._marks[i], i)  # type: ignore[arg-type]
    seq.states[i].status = "current"
    seq.current = i
    return True


def _advance_skips_the_mark(seq: pb.PostBattle) -> None:
    """A broken step on: the next step walked on a stale mark kept from an earlier walk."""
    after = seq.current + 1
    seq.states[seq.current].status = "done"
    seq.draft["step"] = seq.steps[after]["id"]
    mark = seq._marks[after]
    if mark is not None:
        seq._restore(mark, after)
    seq._walk(after, after, marked=mark is not None)


@pytest.mark.parametrize("broken", ["back", "advance"])
def test_the_replay_check_catches_a_broken_incremental_apply(
        broken: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above is not one that cannot fail: with a step back or a step on that
    applies the wrong kept state, it fails."""
    if broken == "back":
        monkeypatch.setattr(pb.PostBattle, "back", _back_forgets_the_step)
    else:
        monkeypatch.setattr(pb.PostBattle, "advance", lambda seq: (
            seq.pending is None and not seq.at_end and _advance_skips_the_mark(seq)))
    failed = 0
    for seed in range(12):
        moves = random.Random(seed).choices(range(1, 81), k=120)
        try:
            _walk_checked("gang-war", [m for m in moves if m % 9], seed)
        except AssertionError:
            failed += 1
    assert failed >= 3, failed


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_step_back_walks_nothing(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Back to a step walked before takes the state kept after it: no step is walked."""
    walked: list[str] = []
    for name, resolve in dict(pb.RESOLVERS).items():
        monkeypatch.setitem(pb.RESOLVERS, name,
                            lambda walk, resolve=resolve: walked.append(walk.step["id"]) or resolve(walk))
    seq = make_seq(ruleset)
    drive(seq, random.Random(2), until=seq.steps[-1]["id"])
    backs = 0
    while True:
        walked.clear()
        if not seq.back():
            break
        backs += 1
        assert walked == [], walked
        _same_as_anew(seq)
    assert backs > 5


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_input_walks_only_the_steps_it_changes(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
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
            # an answer walks its own step again, from the mark before it, and on from there
            assert walked[0] == before, (before, walked)
        else:
            seq.advance()
            # a step on walks on from the sequence as it is: the step left is not walked again
            assert before not in walked, (before, walked)
        inputs += 1
        assert walked[-1] == seq.step["id"], (before, walked)  # to the step it leaves it on
        assert len(walked) == len(set(walked))
    assert inputs > 15
    _same_as_anew(seq)
