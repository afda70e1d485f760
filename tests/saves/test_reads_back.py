"""What the app writes it reads back (issue 26, item 14): a battle file the app saves
loads again through the uncached path (``munda-tui check``, an open without the cache),
and what the reader refuses is refused at load, never saved as a file that is then
refused."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.prebattle.scenario import new_setup
from munda_tui.saves import SaveError, Store
from munda_tui.saves.check import check_paths
from munda_tui.saves.files import MAX_NESTING, load_battle_file, read_text
from munda_tui.saves.tomlemit import TomlEmitError, dumps

DOTTED = ".".join("a" for _ in range(70))
DEEP_INLINE = "x = " + "{ a = " * 70 + "1" + " }" * 70


def _setup() -> dict:  # type: ignore[type-arg]
    return new_setup(1, "venom-sisters", "iron-skulls").to_data()


def test_an_unknown_inline_table_nested_70_deep_is_refused_at_load(tmp_path) -> None:
    """It loaded, and the next save wrote it as a 70-part header that check (and any open
    without the cache) refused. Now the load refuses it, with where and why, and nothing
    is written over it."""
    with Store(tmp_path / "saves").create_campaign(demo_campaign()) as h:
        h.update_battle(1, "setup", _setup())
        path = h.battle_path(1)
        text = path.read_text(encoding="utf-8") + "\n[notes]\n" + DEEP_INLINE + "\n"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(SaveError) as caught:
            h.load_battle(1)
        line = text.split("\n").index(DEEP_INLINE) + 1
        assert str(caught.value) == f"{path}:{line}:1: notes.x: tables or arrays nested more than {MAX_NESTING} deep; refused"
        with pytest.raises(SaveError):
            h.update_battle(1, "report", {"markdown": "# Battle 1"})
        # data that came in before the reader's guards (a parse cache of an older version)
        # is refused by the save with a message, never written as a file the reader refuses
        deep: dict = {"b": 1}  # type: ignore[type-arg]
        for _ in range(MAX_NESTING):
            deep = {"a": deep}
        with pytest.raises(SaveError, match="not saved: notes.a...: nested more than 64 deep"):
            h.save_battle(1, {"notes": deep})
        assert path.read_text(encoding="utf-8") == text
        assert path.read_text(encoding="utf-8") == text
        assert check_paths([path]) == [str(caught.value)]


def test_the_writer_never_writes_what_the_reader_refuses() -> None:
    deep: dict = {"b": 1}  # type: ignore[type-arg]
    for _ in range(MAX_NESTING):
        deep = {"a": deep}
    with pytest.raises(TomlEmitError, match="nested more than 64 deep"):
        dumps({"notes": deep})
    with pytest.raises(TomlEmitError, match="nested more than 64 deep"):
        dumps({"notes": {"x": [deep]}})
    with pytest.raises(TomlEmitError, match="a key of 1001 characters"):
        dumps({"notes": {"x": {"k" * 1001: 1}}})
    assert tomllib.loads(dumps({"notes": deep["a"]})) == {"notes": deep["a"]}  # 64 deep: written


@pytest.mark.parametrize("text", [DOTTED, "[" * 100, "{" * 100, "a = " + "k" * 1200 + " = 1", "k" * 1200 + "]"],
                         ids=["dotted", "brackets", "braces", "long-key", "long-header"])
def test_text_that_looks_like_a_shape_is_saved_and_read_back(tmp_path, text) -> None:
    """A note may say "a.a.a..." or "[[[[": the shape check read it as a 70-part key or
    100 brackets and refused the file the app had just written."""
    with Store(tmp_path / "saves").create_campaign(demo_campaign()) as h:
        h.update_battle(1, "report", {"markdown": text})
        h.update_battle(1, "notes", {"lines": [text, f"'{text}'", f'"{text}"'], "ml": f"\n{text}\n"})
        assert load_battle_file(h.battle_path(1))[0]["report"]["markdown"] == text
        assert check_paths([h.battle_path(1)]) == []


TRICKY = st.sampled_from([DOTTED, "[" * 70, "{" * 70, "k" * 1001 + " = 1", "\n" + "k" * 1001 + "]",
                          '"""', "'''", "#", '\\"', "a.b", '"' + DOTTED + '"'])
keys = st.text(max_size=8) | st.sampled_from(["a", "a.b", '"', "'", "k" * 1000, DOTTED])
scalars = (st.booleans() | st.integers(min_value=-(2**63), max_value=2**63 - 1)
           | st.floats(allow_nan=False) | st.text(max_size=20) | TRICKY
           | st.lists(TRICKY, max_size=3).map("".join))
values = st.recursive(scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(keys, c, max_size=3),
                      max_leaves=12)


@st.composite
def nested(draw: st.DrawFn) -> object:
    """A value wrapped in tables and arrays, up to a few past what the reader takes."""
    value = draw(values)
    for _ in range(draw(st.integers(0, MAX_NESTING + 3))):
        kind = draw(st.sampled_from(["table", "array", "tables"]))
        value = {draw(keys): value} if kind == "table" else [value] if kind == "array" else [{"k": value}]
    return value


@pytest.fixture(scope="module")
def one_campaign(tmp_path_factory):  # type: ignore[no-untyped-def]
    """One open campaign for every example (a battle number each): a campaign made per
    example cost most of the test's time."""
    with Store(tmp_path_factory.mktemp("saves")).create_campaign(demo_campaign()) as h:
        yield h, iter(range(1, 10_000))


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(part=st.sampled_from(["notes", "report", "extra"]), value=nested(), markdown=scalars)
def test_every_battle_file_the_app_saves_loads_back_uncached(one_campaign, part, value, markdown) -> None:
    h, numbers = one_campaign
    number = next(numbers)
    h.update_battle(number, "setup", _setup())
    path = h.battle_path(number)
    before = read_text(path)
    data = {"markdown": markdown} if part == "report" and isinstance(markdown, str) else {"v": value}
    try:
        h.update_battle(number, part, data)
    except SaveError as error:  # refused, saying why: nothing written
        assert "the file would not read back" in str(error)
        assert read_text(path) == before
        return
    loaded, _version = load_battle_file(path)  # the text, parsed and checked: no cache
    assert loaded == {"number": number, "setup": _setup(), part: data}  # (its number: saves.folder)
    assert check_paths([path]) == []


@pytest.mark.parametrize("text", [DOTTED, "[" * 100, "k" * 1200 + " = 1", "k" * 1200 + "]", "[ " + "k" * 1200 + ".x"],
                         ids=["dotted", "brackets", "long-key", "long-header", "long-dotted-header"])
def test_notes_that_look_like_a_shape_are_saved_and_read_back_in_campaign_toml(tmp_path, text) -> None:
    """campaign.toml writes a note of several lines as a multi-line string: a line of it
    that looked like a 1,200-character key was refused as one at the next open."""
    from munda_tui.saves.files import load_campaign_file

    store = Store(tmp_path / "saves")
    with store.create_campaign(demo_campaign()) as h:
        h.campaign.notes = f"first line\n{text}\nlast line"
        h.campaign.gangs[0].notes = f"{text}\n{text}"
        h.save()
        assert load_campaign_file(h.file).campaign.notes == h.campaign.notes
        assert check_paths([h.file]) == []


def test_an_empty_table_or_array_at_the_limit_counts_as_deep() -> None:
    """Found by the test above: the writer let an empty array 65 deep through ("[]" was
    written before the depth was looked at) and the reader refused the file."""
    deep: object = []  # 65 deep: notes, v, and 63 arrays around it
    for _ in range(MAX_NESTING - 1):
        deep = [deep]
    with pytest.raises(TomlEmitError, match="nested more than 64 deep"):
        dumps({"notes": {"v": deep}})
    with pytest.raises(TomlEmitError, match="nested more than 64 deep"):
        dumps({"notes": {"v": _wrap({}, MAX_NESTING - 1)}})
    assert tomllib.loads(dumps({"notes": {"v": _wrap({}, MAX_NESTING - 2)}}))  # 64 deep: written


def _wrap(value: object, times: int) -> object:
    for _ in range(times):
        value = {"a": value}
    return value
