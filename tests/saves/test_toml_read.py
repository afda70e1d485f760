"""The fast TOML reader (issue 30.9): ``files.toml_loads`` reads every text as tomllib
does (the same data, in the same key order, the same errors), rtoml's speed where rtoml
reads it alike."""

from __future__ import annotations

import json
import math
import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.core.typed import from_data_as
from munda_tui.rules.postbattle.changes import Change
from munda_tui.saves.files import toml_loads
from munda_tui.saves.tomlemit import dumps

# (a dependency since issue 30.9: a worktree whose environment predates it installs it
# with `pip install -e '.[test]'`; until then these tests say so instead of failing)
rtoml = pytest.importorskip("rtoml", reason="rtoml is not installed: pip install -e '.[test]'")


def _read(loads, text, errors=tomllib.TOMLDecodeError):  # type: ignore[no-untyped-def]
    try:
        return ("data", json.dumps(loads(text), default=repr))  # (the key order too)
    except errors as error:
        return ("error", str(error))


#: texts rtoml reads otherwise than tomllib (TOML 1.1's additions, which tomllib
#: refuses; a carriage return kept; another tzinfo; an out-of-range float refused)
DIFFER = [
    "a = {b = 1,}",
    "a = {b = 1, c = {d = 2},\n e = 3}",
    'a = "\\e"',
    'a = "\\x41"',
    "t = 12:30",
    "d = 1979-05-27T07:32",
    "d = 1979-05-27T07:32:00Z",
    "d = 2020-01-01T10:00:00+02:00",
    'a = """a\r\nb"""',
    "a = 1e400",
]


@pytest.mark.parametrize("text", DIFFER)
def test_reads_as_tomllib_where_rtoml_reads_otherwise(text):
    assert _read(rtoml.loads, text, Exception) != _read(tomllib.loads, text)  # (so the case is real)
    assert _read(toml_loads, text) == _read(tomllib.loads, text)


@pytest.mark.parametrize("text", [
    "x = 1\nx = 2", "[a]\nb = 1\n[a]\nc = 2", "a = 1__0", 'a = "\x00"', "a = [1,", "= 1", "a = 1.0e",
    'a = "x" # c\x01', "[[a]]\n[a]",
])
def test_refusals_are_tomllib_s(text):
    with pytest.raises(tomllib.TOMLDecodeError) as want:
        tomllib.loads(text)
    with pytest.raises(tomllib.TOMLDecodeError) as got:
        toml_loads(text)
    assert str(got.value) == str(want.value)


keys = st.text(max_size=8)
scalars = (
    st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=examples(300), deadline=None)
@given(st.dictionaries(keys, values, max_size=6))
def test_what_the_app_writes_reads_back_alike(doc):
    text = dumps(doc)
    assert _read(toml_loads, text) == _read(tomllib.loads, text)


@settings(max_examples=examples(300), deadline=None)
@given(st.text(alphabet=st.sampled_from(list('ab=1."\'[]{},:\n\r\\ #-_etxT0+Z')), max_size=40))
def test_any_text_reads_alike(text):
    assert _read(toml_loads, text) == _read(tomllib.loads, text)


def test_floats_read_alike():
    text = "f = [1.0, -0.0, 1e300, inf, -inf, nan]"
    got, want = toml_loads(text)["f"], tomllib.loads(text)["f"]
    assert got[:5] == want[:5] and math.isnan(got[5])


@pytest.mark.parametrize("data", [
    {"kind": "xp", "gang": "g", "fighter": "f1", "amount": 1, "why": "bench"},
    {"kind": "xp", "gang": "g", "fighter": "f1", "amount": "1"},
    {"kind": "xp", "gang": "g"},
    {"kind": "nope", "gang": "g"},
    {"kind": ["xp"], "gang": "g"},
    {"gang": "g"},
    {"kind": "credits", "gang": "g", "amount": 5, "extra": 1},
])
def test_a_change_is_read_by_its_tag_as_through_the_union(data):
    import msgspec

    def read(union):  # type: ignore[no-untyped-def]
        try:
            return from_data_as(data, union) if union is not None else msgspec.convert(data, Change)
        except msgspec.ValidationError as error:
            return f"error: {error}"

    assert read(Change) == read(None)
