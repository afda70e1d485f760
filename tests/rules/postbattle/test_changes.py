"""Post-battle changes: one handler per kind, applying and describing it."""

from __future__ import annotations

import re
from pathlib import Path

from munda_tui.rules.postbattle import changes as pc
from munda_tui.rules.campaign.demo import demo_campaign

RULES = Path(pc.__file__).resolve().parents[1]


def test_every_kind_a_resolver_records_has_its_handler() -> None:
    source = "".join(p.read_text(encoding="utf-8") for p in RULES.rglob("*.py"))
    recorded = set(re.findall(r'change\(kind="([a-z_]+)"', source))
    assert len(recorded) > 20
    assert sorted(recorded - set(pc.CHANGES)) == []


def test_a_change_applies_and_is_said_by_the_same_handler() -> None:
    c = demo_campaign()
    gang = c.gangs[0]
    before = gang.credits
    ch = {"kind": "credits", "gang": gang.id, "amount": 30, "why": "Income"}
    pc.apply_change(c, ch)
    assert gang.credits == before + 30
    assert pc.describe_change(pc.Words("", " (Income)", lambda g: g), ch) == "+30 credits (Income)"


def test_a_new_kind_is_one_registration() -> None:
    c = demo_campaign()
    gang = c.gangs[0]
    try:
        @pc.change("test_rep_double", lambda w, ch: f"Reputation doubled{w.why}")
        def _double(t: pc.Target, ch: dict) -> None:  # type: ignore[type-arg]
            t.gang.reputation *= 2

        rep = gang.reputation
        pc.apply_change(c, {"kind": "test_rep_double", "gang": gang.id})
        assert gang.reputation == rep * 2
        assert pc.describe_change(pc.Words("", "", str), {"kind": "test_rep_double"}) == "Reputation doubled"
    finally:
        pc.CHANGES.pop("test_rep_double", None)


def test_an_unknown_kind_is_refused_and_said_as_recorded() -> None:
    c = demo_campaign()
    ch = {"kind": "no_such_kind", "gang": c.gangs[0].id}
    try:
        pc.apply_change(c, ch)
    except ValueError as error:
        assert "no_such_kind" in str(error)
    else:  # pragma: no cover
        raise AssertionError("an unknown change applied")
    assert pc.describe_change(pc.Words("", " (why)", str), ch) == "no_such_kind (why)"
