"""Issue 30.9: a sync folds on from the fold it put aside (``fold_on``) instead of
folding every record again; the result is the full fold's, byte for byte. The full
fold (``fold``) is the check: random record sets (starts, battles over one or two gangs,
edits, removals, answers), split at a random point, folded on from the first part's
state (through JSON, as it is kept on disk) give what folding them all gives."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.history import fold as folding
from munda_tui.rules.history.fold import AMOUNT, KEEP, VOID, Record, diff, fold, fold_on, fold_state
from munda_tui.saves.records import FileCodec, Refs

CODEC = FileCodec(Refs({}))
GANGS = ("g1", "g2", "g3")
FIGHTERS = ("f1", "f2", "f3")
DATES = ("0000-00-00", "2026-08-01", "2026-08-02", "2026-08-03", "2026-08-04")


def _gang(gid: str, credits: int = 60) -> dict:
    return {"order": GANGS.index(gid), "id": gid, "name": f"Gang {gid}", "type": "Goliath", "credits": credits,
            "reputation": 2,
            "fighters": [{"id": f, "name": f"{gid}-{f}", "type": "Ganger", "xp": 0, "cost": 50,
                          "equipment": [{"name": "Autogun"}]} for f in FIGHTERS]}


def _change(kind: str, gang: str, fighter: str, amount: int, other: str) -> list[dict]:
    if kind == "credits":
        return [{"kind": "credits", "gang": gang, "amount": amount}]
    if kind == "xp":
        return [{"kind": "xp", "gang": gang, "fighter": fighter, "amount": abs(amount) % 5 + 1}]
    if kind == "dies":
        return [{"kind": "status", "gang": gang, "fighter": fighter, "status": "dead"},
                {"kind": "bury", "gang": gang, "fighter": fighter}]
    if kind == "recovery":
        return [{"kind": "status", "gang": gang, "fighter": fighter, "status": "recovery"}]
    if kind == "injury":
        return [{"kind": "injury", "gang": gang, "fighter": fighter, "name": "Eye Injury"}]
    if kind == "hire":
        return [{"kind": "hire", "gang": gang, "data": {"id": f"h{amount & 3}", "name": "Rook", "type": "Juve",
                                                          "cost": 20}}]
    return [{"kind": "credits", "gang": other, "amount": amount}]  # (the other gang's, in the same record)


change = st.tuples(st.sampled_from(["credits", "xp", "dies", "recovery", "injury", "hire", "other"]),
                   st.sampled_from(GANGS), st.sampled_from(FIGHTERS), st.integers(-70, 40), st.sampled_from(GANGS))
record = st.one_of(
    st.tuples(st.just("battle"), st.sampled_from(DATES[1:]), st.lists(change, min_size=0, max_size=3),
              st.sampled_from(["active", "recovery", None])),
    st.tuples(st.just("edit"), st.sampled_from(DATES[1:]), st.sampled_from(GANGS), st.sampled_from(FIGHTERS),
              st.integers(0, 80)),
    st.tuples(st.just("start"), st.sampled_from(GANGS), st.integers(0, 99)),
    st.tuples(st.just("remove"), st.sampled_from(DATES[1:]), st.sampled_from(GANGS)),
    st.tuples(st.just("answer"), st.sampled_from(DATES[1:]), st.integers(0, 40), st.integers(0, 3),
              st.sampled_from([VOID, KEEP, AMOUNT]), st.integers(-30, 30)),
)


def _records(steps: list[tuple]) -> list[Record]:
    out = [Record(id=f"start-{g}", date=DATES[0], kind="start", gang=g, data=_gang(g)) for g in GANGS]
    for n, s in enumerate(steps):
        rid = f"r{n:03d}"
        if s[0] == "battle":
            changes = [c for ch in s[2] for c in _change(*ch)]
            assumed = {c["fighter"]: s[3] for c in changes if c.get("fighter") and s[3]}
            out.append(Record(id=rid, date=s[1], kind="battle", battle=f"{s[1]}-{rid}", changes=tuple(changes),
                              assumed=assumed))
        elif s[0] == "edit":
            before = _gang(s[2])
            after = copy.deepcopy(before)
            after["credits"] = max(0, after["credits"] - s[4])
            for f in after["fighters"]:
                if f["id"] == s[3]:
                    f["equipment"] = [*f["equipment"], {"name": f"Knife {s[4]}"}]
            out.append(Record(id=rid, date=s[1], kind="edit", gang=s[2], changes=tuple(diff(before, after))))
        elif s[0] == "start":
            out.append(Record(id=f"start-{rid}", date=DATES[0], kind="start", gang=s[1], data=_gang(s[1], s[2])))
        elif s[0] == "remove":
            out.append(Record(id=rid, date=s[1], kind="remove", gang=s[2]))
        else:
            target = out[s[2] % len(out)]
            out.append(Record(id=rid, date=s[1], kind="correction", target=target.id, index=s[3], answer=s[4],
                              amount=s[5] if s[4] == AMOUNT else 0))
    return out


def _kept(state: dict) -> dict:
    return json.loads(json.dumps(state))  # (as .cache keeps it)


def _folded_on(records: list[Record], cut: int) -> tuple[folding.Fold, dict] | None:
    ordered = sorted(records, key=lambda r: r.key)
    before, after = ordered[:cut], ordered[cut:]
    _result, state = fold_state(before, CODEC)
    try:
        return fold_on(_kept(state), after, CODEC, {r.id: r for r in before}.__getitem__)
    except ValueError:
        return None  # (an answer to a record folded already: the caller folds them all)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example([("battle", "2026-08-01", [("dies", "g1", "f2", 0, "g1")], "active"),  # (the battle a fighter fell in,
          ("battle", "2026-08-03", [("xp", "g1", "f2", 1, "g1")], "active")], 4, 1)  # named in the question after)
@example([("battle", "2026-08-01", [("credits", "g1", "f2", 5, "g1")], None),  # (a gang a battle changed:
          ("edit", "2026-08-03", "g1", "f1", 10)], 4, 0)  # decoded again from its data)
@example([("battle", "2026-08-01", [("credits", "g1", "f2", -90, "g1")], None),  # (an answer folded, then
          ("answer", "2026-08-02", 3, 0, AMOUNT, -5), ("battle", "2026-08-03", [], None)], 5, 0)  # kept)
@example([("battle", "2026-08-01", [("credits", "g1", "f1", -60, "g1")], None),  # (an edit of a gang not
          ("edit", "2026-08-03", "g1", "f1", 10)], 4, 0)  # decoded yet that stops at a clash)
@given(st.lists(record, min_size=1, max_size=16), st.integers(0, 40), st.integers(0, 3))
def test_folding_on_from_a_kept_fold_gives_the_full_fold(steps, cut, extra) -> None:
    records = _records(steps)
    cut = cut % (len(records) + 1)
    full, full_state = fold_state(records, CODEC)
    assert fold(records, CODEC) == full
    on = _folded_on(records, cut)
    if on is None:
        ordered = sorted(records, key=lambda r: r.key)
        assert any(r.kind == "correction" and r.target in {x.id for x in ordered[:cut]} for r in ordered[cut:])
        return
    result, state = on
    assert result == full
    assert json.dumps(result.gangs) == json.dumps(full.gangs)  # (byte for byte, in the same order)
    assert _kept(state) == _kept(full_state)
    # and again on from that one (a second sync)
    more = [Record(id=f"z{n}", date="2026-09-01", kind="battle", battle=f"z{n}",
                   changes=({"kind": "credits", "gang": GANGS[(n + extra) % 3], "amount": 5},)) for n in range(extra)]
    again, _ = fold_on(_kept(state), more, CODEC, {r.id: r for r in records}.__getitem__)
    assert again == fold([*records, *more], CODEC)


def test_a_new_record_before_the_last_folded_one_or_an_answer_to_one_is_not_folded_on() -> None:
    records = _records([("battle", "2026-08-03", [("xp", "g1", "f1", 2, "g1")], "active")])
    _result, state = fold_state(records, CODEC)
    by_id = {r.id: r for r in records}
    early = Record(id="early", date="2026-08-01", kind="battle", battle="early",
                   changes=({"kind": "credits", "gang": "g1", "amount": 5},))
    with pytest.raises(ValueError):
        fold_on(state, [early], CODEC, by_id.__getitem__)
    answer = Record(id="zz", date="2026-09-01", kind="correction", target="r000", index=0, answer=VOID)
    with pytest.raises(ValueError):
        fold_on(state, [answer], CODEC, by_id.__getitem__)
    with pytest.raises(ValueError):
        fold_on({**state, "gangs": "nonsense"}, [], CODEC, by_id.__getitem__)
    with pytest.raises(ValueError):  # (a record it folded already)
        fold_on(state, [records[-1]], CODEC, by_id.__getitem__)
