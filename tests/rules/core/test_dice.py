from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.core.dice import DiceError, parse, parse_faces, roll, roll_faces

SEED_EXPRESSIONS = [
    "D3", "D6", "2D6", "D66", "3D6", "2D3", "D6x10", "2D6x10", "4D6x10", "D3x25", "D3x50",
    "D6x15", "D3+1", "(D3+1)x10", "(2D3+1)x10", "(D6+1)x5", "2D3-1", "50+3D6x5", "10+D3x5",
    "1D6-1D6", "2D6-1", "2D6+1", "(1D6-1D3)x5", "3D6kh2", "2D6x10", "1",
]


@pytest.mark.parametrize("text", SEED_EXPRESSIONS)
def test_every_seed_expression_parses(text: str) -> None:
    expr = parse(text)
    assert expr.minimum <= expr.maximum


@given(st.sampled_from(SEED_EXPRESSIONS), st.integers(0, 2**32))
def test_rolls_stay_within_bounds(text: str, seed: int) -> None:
    expr = parse(text)
    r = roll(text, random.Random(seed))
    assert expr.minimum <= r.total <= expr.maximum
    assert len(r.faces) == len(expr.dice)
    assert all(1 <= f <= s for f, s in zip(r.faces, expr.dice))
    # the recorded faces reproduce the total
    assert roll_faces(text, list(r.faces)).total == r.total


@given(st.sampled_from(SEED_EXPRESSIONS), st.data())
@settings(max_examples=examples(200))
def test_entered_faces_give_a_total_within_bounds(text: str, data: st.DataObject) -> None:
    expr = parse(text)
    faces = [data.draw(st.integers(1, s)) for s in expr.dice]
    r = roll_faces(text, faces)
    assert expr.minimum <= r.total <= expr.maximum
    assert r.entered


def test_d3_distribution_is_uniform() -> None:
    assert parse("D3").distribution() == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}


def test_d6_distribution_is_uniform() -> None:
    assert parse("D6").distribution() == {n: Fraction(1, 6) for n in range(1, 7)}


def test_2d6_distribution_is_triangular() -> None:
    dist = parse("2D6").distribution()
    assert dist == {t: Fraction(6 - abs(7 - t), 36) for t in range(2, 13)}


def test_d66_is_tens_and_units() -> None:
    dist = parse("D66").distribution()
    assert sorted(dist) == [10 * t + u for t in range(1, 7) for u in range(1, 7)]
    assert set(dist.values()) == {Fraction(1, 36)}
    assert roll_faces("D66", [3, 5]).total == 35


def test_keep_highest_discards_the_lowest() -> None:
    assert roll_faces("3D6kh2", [1, 5, 4]).total == 9
    assert roll_faces("3D6kl2", [1, 5, 4]).total == 5
    assert parse("3D6kh2").minimum == 2 and parse("3D6kh2").maximum == 12


def test_precedence_multiplication_binds_tighter() -> None:
    assert roll_faces("50+3D6x5", [1, 2, 3]).total == 50 + 6 * 5
    assert roll_faces("(D3+1)x10", [2]).total == 30
    assert roll_faces("1D6-1D6", [2, 5]).total == -3
    assert roll_faces("(1D6-1D3)x5", [6, 1]).total == 25


def test_roll_records_expression_faces_and_total() -> None:
    r = roll_faces("2D6", [3, 4])
    assert (r.expression, r.faces, r.total) == ("2D6", (3, 4), 7)
    assert str(r) == "2D6 [3, 4] = 7"


def test_same_seed_same_roll() -> None:
    assert roll("4D6x10", random.Random(7)) == roll("4D6x10", random.Random(7))


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ("2D7", "D7"),
        ("D6+", "ends too early"),
        ("(D3+1", "ends too early"),
        ("D3)", "unexpected"),
        ("2D6 banana", "unexpected"),
        ("3D6kh4", "keep"),
    ],
)
def test_malformed_expressions_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        parse(text)


def test_wrong_faces_are_refused_with_a_reason() -> None:
    with pytest.raises(DiceError, match="7 is not a D6 face"):
        roll_faces("2D6", [7, 1])
    with pytest.raises(DiceError, match="needs 2 dice, got 1"):
        roll_faces("2D6", [1])
    with pytest.raises(DiceError, match="not a D3 face"):
        roll_faces("D3", [4])


def test_typed_faces() -> None:
    assert parse_faces("D66", "35") == [3, 5]
    assert parse_faces("2D6", "3, 5") == [3, 5]
    with pytest.raises(DiceError, match="not a number"):
        parse_faces("D6", "six")
    with pytest.raises(DiceError, match="needs 1 die"):
        parse_faces("D6", "3 4")
