"""Post-battle changes: one frozen type per kind, applying and describing it, and one codec."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import msgspec
import pytest

from munda_tui.rules.postbattle import changes as pc
from munda_tui.rules.campaign.demo import demo_campaign

RULES = Path(pc.__file__).resolve().parents[1]


def test_every_kind_a_resolver_records_is_a_change_type() -> None:
    source = "".join(p.read_text(encoding="utf-8") for p in RULES.rglob("*.py"))
    recorded = set(re.findall(r"\.change\(\(?([A-Z]\w+)[(\s]", source))
    assert len(recorded) > 20
    assert sorted(recorded - {cls.__name__ for cls in pc.CHANGES.values()}) == []


def test_every_change_type_is_in_the_union_the_codec_reads() -> None:
    members = set(typing.get_args(pc.Change))
    assert members == set(pc.ChangeBase.__subclasses__()) == set(pc.CHANGES.values())
    assert len(pc.CHANGES) == len(members)  # (one tag per type)


def test_a_change_applies_and_is_said_by_its_type() -> None:
    c = demo_campaign()
    gang = c.gangs[0]
    before = gang.credits
    ch = pc.Credits(gang=gang.id, amount=30, why="Income")
    pc.apply_change(c, ch)
    assert gang.credits == before + 30
    assert pc.describe_change(pc.Words("", " (Income)", lambda g: g), ch) == "+30 credits (Income)"
    with pytest.raises(AttributeError):
        ch.amount = 3  # type: ignore[misc]  (frozen)


def test_the_codec_writes_the_kind_first_and_only_the_fields_set() -> None:
    ch = pc.Reputation(gang="g", amount=-2, why="", step="income", floor=False)
    data = pc.change_to_data(ch)
    assert list(data) == ["kind", "gang", "amount", "why", "step", "floor"]
    assert data == {"kind": "reputation", "gang": "g", "amount": -2, "why": "", "step": "income",
                    "floor": False}
    assert pc.change_from_data(data) == ch
    bare = pc.change_from_data({"kind": "reputation", "gang": "g", "amount": 1})
    assert pc.change_to_data(bare) == {"kind": "reputation", "gang": "g", "amount": 1}


def test_an_unknown_kind_or_a_wrong_field_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match="no_such_kind"):
        pc.change_from_data({"kind": "no_such_kind", "gang": "g"})
    with pytest.raises(ValueError, match="amount"):
        pc.change_from_data({"kind": "credits", "gang": "g", "amount": "lots"})
    with pytest.raises(msgspec.ValidationError, match="gang"):
        pc.change_from_data({"kind": "credits", "amount": 3})
