"""The campaign file's fast writer: tomlkit's text, without tomlkit; read back the same."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.saves import codec, tomldoc, tomllayout
from munda_tui.saves.tomlemit import TomlEmitError
from scripts.generate import league_campaign

LAYOUT = tomldoc.Layout(tables=frozenset({("t",)}), arrays={("a",): "id", ("a", "b"): "id"})

TRICKY = {
    "s": 'he said "hi"\\ \t é \x01 \x7f',
    "m": 'line1\nline2 """ \\ end',
    "m2": "a\n",
    "m3": 'two\nends "',
    "f": 1.5,
    "n": -3,
    "e": [],
    "inl": {"k": [1, {"z": 1}], "q q": {}, "": 0},
    "t": {"s": 1, "sub": {"a": 1}},
    "a": [{"id": 1, "l": [{"a": 1}], "b": [{"id": "x"}]}, {}],
    "after": 2,
}


@pytest.mark.parametrize("data", [
    TRICKY,
    codec.campaign_to_data(demo_campaign()),
    codec.campaign_to_data(league_campaign(3, 6, 8)),
], ids=["tricky", "demo", "league"])
def test_the_text_tomlkit_builds(data) -> None:
    layout = LAYOUT if data is TRICKY else tomldoc.CAMPAIGN_LAYOUT
    text = tomllayout.dumps(data, layout)
    assert text == tomldoc.build_document(data, layout).as_string()
    assert tomldoc.same(tomllib.loads(text), data)


keys = st.text(max_size=8)
scalars = st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1) | st.text(max_size=20)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=3) | st.dictionaries(keys, children, max_size=3),
    max_leaves=20,
)
tables = st.dictionaries(keys, values, max_size=4)
documents = st.fixed_dictionaries(
    {"t": tables, "a": st.lists(tables, max_size=3)}, optional={"x": values}
)


@settings(max_examples=examples(150), deadline=None)
@given(documents)
def test_reads_back_as_the_data(doc) -> None:
    text = tomllayout.dumps(doc, LAYOUT)
    assert tomldoc.same(tomllib.loads(text), doc)


def test_not_plain_data_is_refused_with_its_place() -> None:
    with pytest.raises(TomlEmitError, match="a.b"):
        tomllayout.dumps({"a": {"b": None}}, LAYOUT)
    with pytest.raises(TomlEmitError, match="surrogate"):
        tomllayout.dumps({"m": "x\n\ud800"}, LAYOUT)
