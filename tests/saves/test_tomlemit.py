"""The fast battle-file writer: what it writes, tomllib reads back the same."""

from __future__ import annotations

import math
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.saves.tomlemit import TomlEmitError, dumps, quote

keys = st.text(max_size=12)
scalars = (
    st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=30)
)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4),
    max_leaves=25,
)
documents = st.dictionaries(keys, values, max_size=6)


@settings(max_examples=examples(200), deadline=None)
@given(documents)
def test_round_trips_through_tomllib(doc):
    assert tomllib.loads(dumps(doc)) == doc


@given(st.text())
def test_any_string_round_trips(text):
    assert tomllib.loads(f"k = {quote(text)}")["k"] == text
    assert tomllib.loads(dumps({text: 1}))[text] == 1


def test_event_log_is_written_as_an_array_of_tables():
    text = dumps({"battle": {"round": 2, "events": [{"kind": "ooa", "who": "Krag"}, {"kind": "end"}]}})
    assert text == (
        "[battle]\nround = 2\n\n"
        '[[battle.events]]\nkind = "ooa"\nwho = "Krag"\n\n'
        '[[battle.events]]\nkind = "end"\n'
    )


def test_escapes_and_special_floats():
    text = dumps({"s": 'a"b\\c\n\t\x00\x7f é', "f": [1.0, -0.0, 1e300, math.inf, -math.inf], "dotted.key": 1, "": 2})
    assert tomllib.loads(text) == {"s": 'a"b\\c\n\t\x00\x7f é', "f": [1.0, -0.0, 1e300, math.inf, -math.inf], "dotted.key": 1, "": 2}
    assert '"dotted.key" = 1' in text
    assert math.isnan(tomllib.loads(dumps({"x": math.nan}))["x"])


@pytest.mark.parametrize(
    ("data", "where"),
    [
        ({"a": {"b": object()}}, "a.b"),
        ({"a": [1, {"c": 2**64}]}, "a.1.c"),
        ({"a": {1: 2}}, "a"),
        ({"s": "\ud800"}, "s"),
        ({"t": (1, None)}, "t.1"),
    ],
)
def test_non_plain_data_is_refused_naming_the_key(data, where):
    with pytest.raises(TomlEmitError, match=rf"^{__import__('re').escape(where)}"):
        dumps(data)


def test_a_300_event_battle_survives_300_saves(store, demo_campaign):
    """Every event saved as it happens; the file always reads back whole.

    Its speed is measured by ``python -m munda_tui.bench`` (saves), never here.
    """
    events = [
        {"kind": "injury", "round": i // 20 + 1, "gang": "venom-sisters", "fighter": f"sister-{i % 8}",
         "result": "Seriously Injured", "roll": "D6 [4] = 4", "note": f"event {i}", "undoable": True}
        for i in range(300)
    ]
    data = {"extra": {"scenario": "Sneak Attack", "attacker": "venom-sisters"}, "battle": {"events": []}}
    with store.create_campaign(demo_campaign) as handle:
        for i, event in enumerate(events):
            data["battle"]["events"].append(event)
            handle.save_battle(1, data)
            if i % 100 == 99:
                assert handle.load_battle(1) == data
        assert handle.load_battle(1) == data


def test_keys_that_look_bare_but_are_not():
    for k in ("0\n", "a b", "a.b", "é", "", "a\t"):
        assert tomllib.loads(dumps({k: 1})) == {k: 1}


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(documents, min_size=1, max_size=5), st.data())
def test_the_memo_writes_the_same_text(docs, data):
    """dumps with a memo (update_battle's) writes what dumps without one writes, over a
    series of documents sharing tables (each one's tables kept or changed at random)."""
    memo: dict = {}  # type: ignore[type-arg]
    previous: dict = {}  # type: ignore[type-arg]
    for doc in docs:
        mixed = {k: (previous[k] if k in previous and data.draw(st.booleans()) else v)
                 for k, v in doc.items()}
        assert dumps(mixed, memo) == dumps(mixed)
        previous = mixed


def test_the_memo_tells_true_from_1_and_1_from_1_0():
    memo: dict = {}  # type: ignore[type-arg]
    for value in (1, True, 1.0, 1, [1], (1,), {"a": 1}):
        doc = {"schema_version": 1, "part": {"v": value}, "log": [{"n": value}]}
        assert dumps(doc, memo) == dumps(doc)
    with pytest.raises(TomlEmitError):
        dumps({"part": {"v": None}}, memo)
    assert memo == {}  # forgotten after a refusal


@settings(max_examples=examples(100), deadline=None)
@given(st.lists(documents, min_size=1, max_size=5), st.data())
def test_the_memo_of_a_changed_part_writes_the_same_text(docs, data):
    """update_battle's part (the tracker's growing log): its arrays of tables are written
    item by item from the memo; the text is what dumps writes without one."""
    memo: dict = {}  # type: ignore[type-arg]
    log: list = []  # type: ignore[type-arg]
    for doc in docs:
        log = log + [d for d in [dict(doc)] if d][: 1]  # one more item (a non-empty table)
        if data.draw(st.booleans()) and log:
            log = log[:-1] + [{**log[-1], "changed": True}]  # the last item changed
        part = {"round": len(log), "log": list(log), "sides": {"a": {"vp": 1}}}
        whole = {"schema_version": 1, "setup": {"x": 1}, "battle": part}
        assert dumps(whole, memo, frozenset({"battle"})) == dumps(whole)


def test_a_growing_log_reuses_each_event_s_lines():
    memo: dict = {}  # type: ignore[type-arg]
    events = [{"kind": "xp", "n": i} for i in range(5)]
    for n in range(1, 6):
        doc = {"schema_version": 1, "battle": {"log": events[:n]}}
        assert dumps(doc, memo, frozenset({"battle"})) == dumps(doc)
    assert len(memo[("items", "battle")]["log"]) == 5
    with pytest.raises(TomlEmitError):  # a refused value is still refused, and forgotten
        dumps({"battle": {"log": [{"kind": None}]}}, memo, frozenset({"battle"}))
    assert memo == {}
