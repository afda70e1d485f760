"""A profile as the game writes it: target numbers (3+) where worse is higher."""

from __future__ import annotations

import pytest

from munda_tui.rules.core import profile as p
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.saves import codec


def test_values_are_shown_as_the_game_writes_them():
    assert p.format_value("ws", 3) == "3+"
    assert p.format_value("ld", 7) == "7+"
    assert p.format_value("m", 5) == "5"
    assert p.format_value("bs", None) == "-"
    assert p.format_profile({"m": 5, "ws": 3, "bs": 4, "ld": 7}) == (
        "M 5 WS 3+ BS 4+ S - T - W - I - A - Ld 7+ Cl - Wil - Int -"
    )


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [("ws", "3+", 3), ("ws", "3", 3), ("ws", " 4 + ", 4), ("ld", "12+", 12), ("m", "5", 5),
     ("bs", "-", None)],
)
def test_parse_value(key, text, value):
    assert p.parse_value(key, text) == value


@pytest.mark.parametrize(
    ("key", "text", "message"),
    [
        # (issue 31: a value beyond the usual range is kept; only what cannot be read as a
        # characteristic, from 1 (1+) to 99 (99+), is refused)
        ("ws", "0+", "WS is a target number from 1+ to 99+ (found 0+)"),
        ("bs", "100+", "BS is a target number from 1+ to 99+ (found 100+)"),
        ("cl", "-2+", "Cl is a target number like 3+ (found '-2+')"),
        ("m", "0", "M is a number from 1 to 99 (found 0)"),
        ("t", "4+", "T is a plain number, not a target number (found '4+')"),
        ("ws", "", "WS is required (or - for none)"),
    ],
)
def test_impossible_values_are_refused_with_a_clear_message(key, text, message):
    with pytest.raises(p.ProfileError) as err:
        p.parse_value(key, text)
    assert str(err.value) == message


def test_worse_target_number_is_higher():
    prof = {"ws": 4, "bs": 3, "m": 5, "ld": 8}
    lines = p.apply(prof, [("ws", -1), ("m", -1), ("ld", +1)], clamp=False)
    assert prof == {"ws": 5, "bs": 3, "m": 4, "ld": 7}
    assert lines == ["WS 4+ -> 5+", "M 5 -> 4", "Ld 8+ -> 7+"]


def test_apply_refuses_or_clamps_at_the_limit():
    prof = {"ws": 6, "m": 1}
    with pytest.raises(p.ProfileError):
        p.apply(prof, [("m", -1)], clamp=False)
    assert prof == {"ws": 6, "m": 1}  # left as it was
    assert p.apply(prof, [("ws", -1)], clamp=True) == ["WS 6+ -> 6+ (at its limit)"]
    # a characteristic the fighter does not have stays '-'
    assert p.apply(prof, [("bs", -1)], clamp=True) == ["BS - (none): unchanged"]
    assert "bs" not in prof


def test_parse_effect_reads_the_injury_tables_texts():
    assert p.parse_effect("-1 Leadership, -1 Cool") == [("ld", -1), ("cl", -1)]
    assert p.parse_effect("-1 Intelligence, -1 Willpower") == [("int", -1), ("wil", -1)]
    assert p.parse_effect("-1 Ballistic Skill") == [("bs", -1)]
    assert p.parse_effect("+1 WS and +2 M") == [("ws", 1), ("m", 2)]
    assert p.parse_effect("\u22121 BS, \u20131 Cool") == [("bs", -1), ("cl", -1)]
    assert p.parse_effect("goes into Recovery") == []
    assert p.parse_effect("D3 XP, goes into Recovery") == []


def test_parse_profile_line():
    assert p.parse_profile("5 3+ 4+ 3 3 1 4 1 7+ 7+ 8+ 8+") == {
        "m": 5, "ws": 3, "bs": 4, "s": 3, "t": 3, "w": 1, "i": 4, "a": 1,
        "ld": 7, "cl": 7, "wil": 8, "int": 8,
    }
    assert p.parse_profile("M5 WS3+ BS - Ld 7+") == {"m": 5, "ws": 3, "ld": 7}
    with pytest.raises(p.ProfileError, match="11 values; a profile has 12"):
        p.parse_profile("5 3+ 4+ 3 3 1 4 1 7+ 7+ 8+")


def test_saved_with_plus_and_older_integers_still_read():
    campaign = demo_campaign()
    data = codec.campaign_to_data(campaign)
    vexa = data["gangs"][0]["fighters"][0]["characteristics"]
    assert vexa == {"m": 5, "ws": "3+", "bs": "3+", "s": 3, "t": 3, "w": 2, "i": "3+", "a": 2,
                    "ld": "6+", "cl": "6+", "wil": "7+", "int": "7+"}
    assert codec.campaign_from_data(data) == campaign
    # what earlier versions wrote: bare integers, 0 for a characteristic the fighter lacks
    vexa.update(ws=3, bs=0, i=3)  # (Initiative was once written as a plain number)
    back = codec.campaign_from_data(data).gangs[0].fighters[0].characteristics
    assert back["ws"] == 3 and "bs" not in back and back["i"] == 3


def test_initiative_is_a_target_number():
    """A Fighter card prints Initiative as 4+ and an Initiative test is a D6 roll: +1
    Initiative (an advancement) makes 4+ into 3+, -1 makes it 5+; 7+ cannot be rolled."""
    from munda_tui.rules.core import profile as pr

    p = pr.parse_profile("5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 7+ 7+")
    assert p["i"] == 4 and pr.format_value("i", p["i"]) == "4+"
    assert pr.parse_profile("5 4+ 4+ 3 3 1 4 1 7+ 7+ 7+ 7+")["i"] == 4  # the + may be left out
    assert pr.apply(p, [("i", 1)], clamp=False) == ["I 4+ -> 3+"]
    assert pr.apply(p, [("i", -2)], clamp=False) == ["I 3+ -> 5+"]
    # 7+ is beyond the usual 2+ to 6+ but kept (issue 31: the game can reach it)
    assert pr.parse_value("i", "7+") == 7 and pr.unusual("i", 7) == "I 7+ is beyond the usual 2+ to 6+"
    assert pr.encode(p)["i"] == "5+"
