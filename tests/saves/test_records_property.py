"""Issue 30's property: three laptops apply random battles and roster edits to shared
and disjoint gangs, answer some league questions, and sync in random orders (a sync is
the union of two laptops' record files, as the league's merge takes it). Once every
laptop has synced with every other, every laptop's gang files are byte-identical, every
record is folded or is an open question, and no record is lost. Runs in a few seconds:
the records and the fold, without git (the git side is tests/saves/test_league.py)."""

from __future__ import annotations

import copy
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.history.fold import VOID, Record, assumed_statuses, diff
from munda_tui.saves import records
from munda_tui.saves.league_records import fold_texts

GANGS = ("g1", "g2", "g3")
FIGHTERS = ("f1", "f2", "f3")


def _gang(gid: str) -> dict:
    return {"order": GANGS.index(gid), "id": gid, "name": f"Gang {gid}", "type": "Goliath", "credits": 60,
            "reputation": 2,
            "fighters": [{"id": f, "name": f"{gid}-{f}", "type": "Ganger", "xp": 0, "cost": 50} for f in FIGHTERS]}


class Laptop:
    def __init__(self, name: str, start: dict[str, str]) -> None:
        self.name = name
        self.files = dict(start)  # records/<name> -> text

    def folded(self):  # type: ignore[no-untyped-def]
        return fold_texts(Path("/nonexistent"), self.files, {})

    def add(self, r: Record) -> None:
        self.files[f"records/{records.file_name(r)}"] = records.record_text(r)


def _battle(laptop: Laptop, gang: str, fighter: str, kind: str, amount: int, date: str) -> None:
    folded = laptop.folded()
    data = {g: d for g, d in folded.fold.gangs.items()}
    if gang not in data:
        return
    changes: list[dict] = [{"kind": "credits", "gang": gang, "amount": amount}]
    if kind == "xp":
        changes.append({"kind": "xp", "gang": gang, "fighter": fighter, "amount": 2})
    elif kind == "dies":
        changes += [{"kind": "status", "gang": gang, "fighter": fighter, "status": "dead"},
                    {"kind": "bury", "gang": gang, "fighter": fighter}]
    elif kind == "recovery":
        changes.append({"kind": "status", "gang": gang, "fighter": fighter, "status": "recovery"})
    elif kind == "injury":
        changes.append({"kind": "injury", "gang": gang, "fighter": fighter, "name": "Eye Injury"})
    elif kind == "hire":
        changes.append({"kind": "hire", "gang": gang, "data": {"id": f"h{amount & 7}", "name": "Rook",
                                                                "type": "Juve", "cost": 20}})
    heads = [folded.fold.heads[gang]] if gang in folded.fold.heads else []
    day, rid = records.new_key(date, heads)
    laptop.add(Record(id=rid, date=day, kind="battle", by=laptop.name, battle=f"{day}-{rid[-6:]}",
                      changes=tuple(changes), assumed=assumed_statuses(data, changes)))


def _edit(laptop: Laptop, gang: str, fighter: str, amount: int) -> None:
    folded = laptop.folded()
    before = folded.fold.gangs.get(gang)
    if before is None:
        return
    after = copy.deepcopy(before)
    after["credits"] = max(0, after["credits"] - amount)
    for f in after["fighters"]:
        if f["id"] == fighter:
            f["equipment"] = [*f.get("equipment", []), {"name": f"Knife {amount}"}]
    heads = [folded.fold.heads[gang]] if gang in folded.fold.heads else []
    day, rid = records.new_key(records.today(), heads)
    laptop.add(Record(id=rid, date=day, kind="edit", by=laptop.name, gang=gang, changes=tuple(diff(before, after))))


def _answer(laptop: Laptop) -> None:
    qs = laptop.folded().fold.questions
    if qs:
        q = qs[0]
        day, rid = records.new_key(records.today(), [])
        laptop.add(Record(id=rid, date=day, kind="correction", by=laptop.name, target=q.record, index=q.index,
                          answer=VOID))


def _sync(a: Laptop, b: Laptop) -> None:
    union = {**a.files, **b.files}
    a.files, b.files = dict(union), dict(union)


step = st.one_of(
    st.tuples(st.just("battle"), st.integers(0, 2), st.sampled_from(GANGS[:2]), st.sampled_from(FIGHTERS),
              st.sampled_from(["xp", "dies", "recovery", "injury", "hire", "none"]), st.integers(-50, 40),
              st.sampled_from(["2026-08-01", "2026-08-02", "2026-08-03"])),
    st.tuples(st.just("disjoint"), st.integers(0, 2), st.sampled_from(FIGHTERS), st.integers(-5, 30)),
    st.tuples(st.just("edit"), st.integers(0, 2), st.sampled_from(GANGS), st.sampled_from(FIGHTERS),
              st.integers(0, 70)),
    st.tuples(st.just("answer"), st.integers(0, 2)),
    st.tuples(st.just("sync"), st.integers(0, 2), st.integers(0, 2)),
)


@settings(max_examples=examples(15), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(step, min_size=1, max_size=14), st.permutations([(0, 1), (1, 2), (0, 2)]))
def test_three_laptops_end_byte_identical_with_every_record_folded_or_asked(steps, order) -> None:
    start = {f"records/{records.file_name(r)}": records.record_text(r)
             for r in (records.start_record(g, _gang(g)) for g in GANGS)}
    laptops = [Laptop(name, start) for name in ("ana", "bo", "cy")]
    made: set[str] = set(start)
    for s in steps:
        kind, who = s[0], laptops[s[1]]
        if kind == "battle":
            _battle(who, s[2], s[3], s[4], s[5], s[6])
        elif kind == "disjoint":  # a laptop's own gang (g3 is only ever cy's)
            _battle(who, GANGS[2] if s[1] == 2 else GANGS[s[1]], s[2], "xp", s[3], "2026-08-04")
        elif kind == "edit":
            _edit(who, s[2], s[3], s[4])
        elif kind == "answer":
            _answer(who)
        else:
            _sync(who, laptops[s[2]])
        for laptop in laptops:
            made |= set(laptop.files)
    for a, b in [*order, *order]:  # (twice round: every laptop has every record)
        _sync(laptops[a], laptops[b])
    results = [laptop.folded() for laptop in laptops]
    assert results[0].gangs == results[1].gangs == results[2].gangs  # byte-identical gang files
    assert all(set(laptop.files) == made for laptop in laptops)  # nothing lost
    folded = results[0]
    assert folded.problems == []
    asked = {q.record for q in folded.fold.questions}
    for r in folded.records.values():
        assert r.kind == "correction" or r.id in folded.fold.applied or r.id in asked, r
    for text in folded.gangs.values():  # every gang file loads
        assert "credits = -" not in text
