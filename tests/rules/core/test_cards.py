from __future__ import annotations

import random

import pytest

from munda_tui.rules.core.cards import Card, CardError, parse_card, standard_deck


def test_deck_has_52_cards_and_two_jokers() -> None:
    deck = standard_deck()
    assert len(deck) == 54
    assert len(set(deck)) == 54
    assert sum(c.is_joker for c in deck) == 2
    assert {c.code for c in deck} >= {"AS", "10H", "KC", "QD", "JOKER1", "JOKER2"}


def test_shuffle_is_deterministic_for_a_seed() -> None:
    a, b = standard_deck(), standard_deck()
    random.Random(3).shuffle(a)
    random.Random(3).shuffle(b)
    assert a == b and a != standard_deck()


@pytest.mark.parametrize(
    "text, code",
    [
        ("AS", "AS"), ("as", "AS"), ("10h", "10H"), ("Q♦", "QD"), ("queen of diamonds", "QD"),
        ("joker", "JOKER1"), ("Joker 2", "JOKER2"), ("ace of spades", "AS"), ("7 c", "7C"),
        ("K♣", "KC"), ("ten of hearts", "10H"), ("J♠", "JS"),
    ],
)
def test_parse_card_names(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize(
    "text, message",
    [("", "type a card"), ("ZZ", "is not a card"), ("11h", "not a rank"), ("ace of stars", "not a suit")],
)
def test_bad_card_names_are_refused(text: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        parse_card(text)


def test_card_labels() -> None:
    assert Card("A", "spades").label == "A♠"
    assert Card("10", "hearts").long_name == "10 of Hearts"
    assert Card("Joker", "", 2).label == "Joker"
