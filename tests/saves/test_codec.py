"""Validation names the key path; errors are placed at the right line."""

from __future__ import annotations

import copy

import pytest

from munda_tui.rules.core.model import Campaign, Equipment
from munda_tui.saves.codec import ValidationError, campaign_from_data, campaign_to_data, format_keypath, to_data
from munda_tui.saves.errors import key_positions, locate


@pytest.fixture
def data(full_campaign):
    return campaign_to_data(full_campaign)


def _error(data) -> str:
    with pytest.raises(ValidationError) as caught:
        campaign_from_data(data)
    return str(caught.value)


def test_compact_records_leave_defaults_out():
    assert to_data(Equipment("Knife", 5)) == {"name": "Knife", "cost": 5}
    assert to_data(Equipment("Box", None, qty=2, spent=True)) == {"name": "Box", "qty": 2, "spent": True}


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["gangs"][0]["fighters"][1].__setitem__("id", "krag"), "gangs[0].fighters[1].id: duplicate fighter id 'krag'"),
        (lambda d: d["gangs"][2].__setitem__("id", "iron-skulls"), "gangs[2].id: duplicate gang id 'iron-skulls'"),
        (lambda d: d["gangs"][1]["fighters"][0].__setitem__("id", ""), "gangs[1].fighters[0].id: fighter id must not be empty"),
        (lambda d: d["battles"][1].__setitem__("number", 1), "battles[1].number: duplicate battle number 1"),
        # seed 004: "Reputation cannot fall below 0." (a Turf War 2017 campaign may: test_fidelity_turf_war)
        (lambda d: (d["gangs"][0].__setitem__("reputation", -2), d["settings"].__setitem__("post_battle_ruleset", "gang-war")), "gangs[0].reputation: Reputation is never below 0 under Gang War (found -2)"),
        (lambda d: d["gangs"][0]["fighters"][0].__setitem__("xp", True), "gangs[0].fighters[0].xp: expected an integer, found a boolean (true)"),
        (lambda d: d["gangs"][0]["fighters"][0].__setitem__("has_mutations", 1), "gangs[0].fighters[0].has_mutations: expected a boolean (true/false), found an integer (1)"),
        (lambda d: d["gangs"][0]["fighters"][0]["equipment"][1].__setitem__("qty", "2"), "gangs[0].fighters[0].equipment[1].qty: expected an integer, found a string ('2')"),
        (lambda d: d["gangs"][0]["fighters"][0]["equipment"][0].pop("name"), "gangs[0].fighters[0].equipment[0]: missing key 'name'"),
        (lambda d: d["gangs"][0]["fighters"][0].__setitem__("skills", "Headbutt"), "gangs[0].fighters[0].skills: expected an array, found a string ('Headbutt')"),
        (lambda d: d["gangs"][0]["fighters"][0]["characteristics"].__setitem__("ws", "100+"), "gangs[0].fighters[0].characteristics.ws: WS is a target number from 1+ to 99+ (found 100+)"),
        (lambda d: d["gangs"][0]["fighters"][0]["characteristics"].__setitem__("ws", "three"), "gangs[0].fighters[0].characteristics.ws: WS is a target number like 3+ (found 'three')"),
        (lambda d: d["gangs"][0]["fighters"][0]["characteristics"].__setitem__("m", "5"), "gangs[0].fighters[0].characteristics.m: expected an integer, found '5'"),
        (lambda d: d["gangs"][0]["fighters"][0]["characteristics"].__setitem__("m", -1), "gangs[0].fighters[0].characteristics.m: M is a number from 1 to 99 (found -1)"),
        (lambda d: d["gangs"][0]["fighters"][0]["characteristics"].__setitem__("luck", 3), "gangs[0].fighters[0].characteristics.luck: unknown characteristic 'luck' (known: m, ws, bs, s, t, w, i, a, ld, cl, wil, int)"),
        (lambda d: d["battles"][0]["standings"]["iron-skulls"].pop("rating"), "battles[0].standings.iron-skulls: missing key 'rating'"),
        # (an id a pack may supply loads, and is said where used: tests/saves/test_packs.py)
        (lambda d: d["settings"].__setitem__("post_battle_ruleset", "Turf War"), "settings.post_battle_ruleset: unknown value 'Turf War'; expected one of 'gang-war', 'turf-war-2017'"),
        (lambda d: d.__setitem__("gangs", {}), "gangs: expected an array, found a table"),
        (lambda d: d["gangs"].__setitem__(1, "x"), "gangs[1]: expected a table, found a string ('x')"),
    ],
)
def test_validation_errors_name_the_key_path(data, change, expected):
    change(data)
    assert _error(data) == expected


def test_format_keypath():
    assert format_keypath(("gangs", 1, "fighters", 3, "xp")) == "gangs[1].fighters[3].xp"
    assert format_keypath(()) == "(top)"


def test_decoding_does_not_change_the_input(data, full_campaign):
    before = copy.deepcopy(data)
    assert campaign_from_data(data) == full_campaign
    assert data == before


def test_key_positions_follow_headers_and_arrays():
    text = (
        'name = "x"\n'
        '[settings]\n'
        '  "quoted key" = 1\n'
        'notes = """\n'
        '[[gangs]]\n'
        'id = "not a header, inside a string"\n'
        '"""\n'
        '[[gangs]]\n'
        'id = "a"\n'
        '[[gangs.fighters]]\n'
        'id = "f"\n'
        '[[gangs]]\n'
        'id = "b"\n'
        '[[gangs.fighters]]\n'
        'a.b = 2\n'
    )
    pos = key_positions(text)
    assert pos[("name",)] == (1, 1)
    assert pos[("settings", "quoted key")] == (3, 3)
    assert pos[("settings", "notes")] == (4, 1)
    assert pos[("gangs", 0)] == (8, 1)
    assert pos[("gangs", 0, "fighters", 0, "id")] == (11, 1)
    assert pos[("gangs", 1, "id")] == (13, 1)
    assert pos[("gangs", 1, "fighters", 0, "a", "b")] == (15, 1)
    assert locate(text, ("gangs", 1, "fighters", 0, "xp")) == (14, 1)
    assert locate(text, ("missing",)) == (1, 1)


def test_campaign_defaults_for_missing_keys():
    campaign = campaign_from_data({"schema_version": 2, "id": "c", "name": "C"})
    assert campaign == Campaign(id="c", name="C")


def test_every_model_record_has_a_codec():
    """Fields added to the model later must be types the codec reads."""
    import dataclasses

    from munda_tui.rules.core import model as model
    from munda_tui.saves.codec import _fields_of

    records = [o for o in vars(model).values() if isinstance(o, type) and dataclasses.is_dataclass(o)]
    assert model.Campaign in records
    for record in records:
        _fields_of(record)


def test_tuples_and_literals():
    from typing import Literal

    from munda_tui.saves.codec import from_data

    assert from_data(tuple[int, ...], [1, 2]) == (1, 2)
    assert from_data(Literal["a", "b"], "b") == "b"
    with pytest.raises(ValidationError, match=r"x: unknown value 'c'; expected one of 'a', 'b'"):
        from_data(Literal["a", "b"], "c", ("x",))
    with pytest.raises(ValidationError, match=r"x\[1\]: expected an integer"):
        from_data(tuple[int, ...], [1, "2"], ("x",))
