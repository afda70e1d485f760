"""The fold (issue 30): records in any order give the same gangs; a record that cannot
apply by the rules stops at the clash as a league question; an answer is a record."""

from __future__ import annotations

import copy
import random

import pytest

from munda_tui.rules.history.fold import (
    AMOUNT, KEEP, VOID, Record, apply_patch, diff, fold,
)
from munda_tui.saves.records import FileCodec, Refs


def _gang(gid: str = "g1", credits: int = 50) -> dict:
    return {"order": 0, "id": gid, "name": f"Gang {gid}", "type": "Goliath", "credits": credits, "reputation": 3,
            "fighters": [{"id": "f1", "name": "Crazy Thom", "type": "Leader", "xp": 1, "equipment": [{"name": "Autogun"}]},
                         {"id": "f2", "name": "Bull", "type": "Ganger", "xp": 0}]}


CODEC = FileCodec(Refs({}))


def start(gid: str = "g1", credits: int = 50) -> Record:
    return Record(id=f"start-{gid}", date="0000-00-00", kind="start", gang=gid, data=_gang(gid, credits))


def battle(rid: str, date: str, *changes: dict, assumed: dict | None = None) -> Record:
    return Record(id=rid, date=date, kind="battle", battle=f"{date}-{rid}", changes=tuple(changes),
                  assumed=assumed or {"f1": "active", "f2": "active"})


def test_a_patch_gives_the_edited_gang_back_and_merges_with_a_battle():
    before = _gang()
    after = copy.deepcopy(before)
    after["credits"] -= 15
    after["fighters"][0]["equipment"].append({"name": "Lasgun", "cost": 15})
    after["fighters"][1]["name"] = "Big Bull"
    after["fighters"].append({"id": "f3", "name": "New", "type": "Juve"})
    ops = diff(before, after)
    assert apply_patch(before, ops)[0] == after
    assert {"op": "add", "path": ["credits"], "amount": -15} in ops
    # the same edit on a gang that won 30 credits meanwhile keeps both
    moved = copy.deepcopy(before)
    moved["credits"] += 30
    assert apply_patch(moved, ops)[0]["credits"] == 65


def test_the_fold_is_the_same_in_any_order_and_both_battles_apply():
    records = [start(), start("g2"),
               battle("a1", "2026-08-03", {"kind": "xp", "gang": "g1", "fighter": "f1", "amount": 2},
                      {"kind": "credits", "gang": "g1", "amount": 30}),
               battle("b1", "2026-08-08", {"kind": "injury", "gang": "g1", "fighter": "f2", "name": "Eye Injury"},
                      {"kind": "xp", "gang": "g1", "fighter": "f1", "amount": 1})]
    first = fold(records, CODEC)
    for seed in range(5):
        shuffled = list(records)
        random.Random(seed).shuffle(shuffled)
        assert fold(shuffled, CODEC).gangs == first.gangs
    g1 = first.gangs["g1"]
    assert g1["credits"] == 80
    assert g1["fighters"][0]["xp"] == 4
    assert g1["fighters"][1]["injuries"][0]["name"] == "Eye Injury"
    assert first.questions == []
    assert first.battles == ["2026-08-03-a1", "2026-08-08-b1"]


def test_death_in_the_earlier_battle_then_xp_in_the_later_is_a_question():
    dies = battle("a1", "2026-08-03", {"kind": "status", "gang": "g1", "fighter": "f2", "status": "dead"},
                  {"kind": "bury", "gang": "g1", "fighter": "f2"})
    earns = battle("b1", "2026-08-08", {"kind": "credits", "gang": "g1", "amount": 5},
                   {"kind": "xp", "gang": "g1", "fighter": "f2", "amount": 3},
                   {"kind": "xp", "gang": "g1", "fighter": "f1", "amount": 1})
    result = fold([start(), dies, earns], CODEC)
    [q] = result.questions
    assert (q.record, q.index, q.kind, q.fighter, q.battle) == ("b1", 1, "fell", "f2", "2026-08-08-b1")
    assert q.choices == (VOID,)
    assert q.other == "2026-08-03-a1"
    assert "Bull" in q.what and "+3 XP" in q.what
    g1 = result.gangs["g1"]
    assert g1["credits"] == 55  # (the changes before the clash applied)
    assert g1["fighters"][0]["xp"] == 1  # (the rest wait for the answer)
    void = Record(id="c1", date="2026-09-01", kind="correction", target="b1", index=1, answer=VOID)
    answered = fold([start(), dies, earns, void], CODEC)
    assert answered.questions == []
    assert answered.gangs["g1"]["fighters"][0]["xp"] == 2
    assert "b1" in answered.applied


def test_upkeep_below_zero_is_a_question_and_an_amount_answers_it():
    a = battle("a1", "2026-08-03", {"kind": "credits", "gang": "g1", "amount": -40})
    b = battle("b1", "2026-08-04", {"kind": "credits", "gang": "g1", "amount": -40})
    result = fold([start(credits=55), a, b], CODEC)
    [q] = result.questions
    assert q.kind == "credits" and q.choices == (VOID, AMOUNT) and q.record == "b1"
    assert result.gangs["g1"]["credits"] == 15
    fixed = Record(id="c1", date="2026-09-01", kind="correction", target="b1", index=0, answer=AMOUNT, amount=-15)
    assert fold([start(credits=55), a, b, fixed], CODEC).gangs["g1"]["credits"] == 0


def test_recovery_then_acting_in_a_battle_fought_from_the_same_roster_is_a_question():
    hurt = battle("a1", "2026-08-03", {"kind": "status", "gang": "g1", "fighter": "f1", "status": "recovery"})
    fights = battle("b1", "2026-08-04", {"kind": "xp", "gang": "g1", "fighter": "f1", "amount": 2})
    result = fold([start(), hurt, fights], CODEC)
    [q] = result.questions
    assert q.kind == "unavailable" and KEEP in q.choices
    keep = Record(id="c1", date="2026-09-01", kind="correction", target="b1", index=0, answer=KEEP)
    kept = fold([start(), hurt, fights, keep], CODEC)
    assert kept.questions == [] and kept.gangs["g1"]["fighters"][0]["xp"] == 3
    # made after the Recovery on the same laptop: no question
    later = battle("b2", "2026-08-04", {"kind": "xp", "gang": "g1", "fighter": "f1", "amount": 2},
                   assumed={"f1": "recovery"})
    assert fold([start(), hurt, later], CODEC).questions == []


def test_a_fighter_hired_twice_is_a_question():
    hire = {"kind": "hire", "gang": "g1", "data": {"id": "f9", "name": "Rook", "type": "Juve", "cost": 20}}
    result = fold([start(), battle("a1", "2026-08-03", hire), battle("b1", "2026-08-04", hire)], CODEC)
    [q] = result.questions
    assert q.kind == "twice" and q.record == "b1"


def test_an_edit_of_a_fighter_who_fell_meanwhile_is_a_question():
    dies = battle("a1", "2026-08-03", {"kind": "bury", "gang": "g1", "fighter": "f2"})
    before = _gang()
    after = copy.deepcopy(before)
    after["fighters"][1]["equipment"] = [{"name": "Lasgun"}]
    edit = Record(id="e1", date="2026-08-05", kind="edit", gang="g1", changes=tuple(diff(before, after)))
    result = fold([start(), dies, edit], CODEC)
    [q] = result.questions
    assert q.record == "e1" and q.fighter == "f2" and q.record_kind == "edit"


def test_two_starting_rosters_of_one_gang_ask_which():
    other = Record(id="start-zz", date="0000-00-00", kind="start", gang="g1", data=_gang(credits=99))
    result = fold([start(), other], CODEC)
    [q] = result.questions
    assert q.kind == "start"
    keep = Record(id="c1", date="2026-09-01", kind="correction", target="start-zz", index=0, answer=KEEP)
    assert fold([start(), other, keep], CODEC).gangs["g1"]["credits"] == 99


@pytest.mark.parametrize("kind", ["remove"])
def test_a_removed_gang_leaves_the_fold(kind):
    gone = Record(id="r1", date="2026-08-03", kind=kind, gang="g1")
    assert "g1" not in fold([start(), gone], CODEC).gangs
