"""The watchers read typed parameters: every card's spec in watchers.toml is read by its
kind, and a key or a value the kind cannot read is refused, never ignored."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from munda_tui.rules.battle import watch
from munda_tui.rules.battle.watch import KINDS, SpecError, make_watcher, read_spec, watcher_table


def test_every_card_of_the_watchers_table_is_read_by_its_kind() -> None:
    for card, data in watcher_table().items():
        spec = read_spec(data)
        assert isinstance(spec, KINDS[data["kind"]].spec_type), card
        for key, value in data.items():  # what the file says is what the watcher reads
            got = getattr(spec, key)
            assert (list(got) if isinstance(got, tuple) else got) == value, (card, key)


def test_a_parameter_left_out_takes_the_kinds_default() -> None:
    spec = read_spec({"kind": "takedowns_in_round"})
    assert (spec.count, spec.by, spec.at) == (3, "any", "event")  # type: ignore[attr-defined]


def test_an_unknown_key_is_refused_with_what_it_may_have_meant() -> None:
    with pytest.raises(SpecError, match=r"takedowns_in_round: unknown key 'cuont' \(did you mean 'count'\?\)"):
        read_spec({"kind": "takedowns_in_round", "cuont": 3})


def test_a_value_of_the_wrong_type_is_refused_naming_the_key() -> None:
    with pytest.raises(SpecError, match="takedowns_in_round: count: '3' is not a whole number"):
        read_spec({"kind": "takedowns_in_round", "count": "3"})
    with pytest.raises(SpecError, match="traits_any: .* is not a list of texts"):
        read_spec({"kind": "takedown", "traits_any": "Melee"})
    with pytest.raises(SpecError, match="reward_at"):
        read_spec({"kind": "takedown", "reward_at": "later"})


def test_an_unknown_kind_is_refused_with_what_it_may_have_meant() -> None:
    with pytest.raises(SpecError, match=r"unknown watcher kind 'takedwon' \(did you mean 'takedown'\?\)"):
        make_watcher("us", {"kind": "takedwon"})


def test_no_watcher_reads_its_parameters_by_a_string() -> None:
    """Each kind reads its spec's typed fields: no ``.get("...")`` on a spec, no ``p("...")``."""
    tree = ast.parse(Path(watch.__file__).read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr in ("p", "get") and isinstance(n.func.value, ast.Attribute)
             and n.func.value.attr == "spec"]
    assert not calls
    assert not any(isinstance(n, ast.FunctionDef) and n.name == "p" for n in ast.walk(tree))
