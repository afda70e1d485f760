"""The playing-card deck: 52 cards and two Jokers, and reading card names."""

from __future__ import annotations

import re
from dataclasses import dataclass

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("spades", "hearts", "clubs", "diamonds")
GLYPHS = {"spades": "♠", "hearts": "♥", "clubs": "♣", "diamonds": "♦", "": "🃏"}
RANK_NAMES = {
    "A": "Ace", "J": "Jack", "Q": "Queen", "K": "King",
    **{str(n): str(n) for n in range(2, 11)},
}


class CardError(ValueError):
    """A card name a player typed that is not a card."""


@dataclass(frozen=True, order=True)
class Card:
    rank: str  # "A", "2".."10", "J", "Q", "K" or "Joker"
    suit: str = ""  # "spades", "hearts", "clubs", "diamonds"; "" for a Joker
    index: int = 0  # 1 or 2 for the two Jokers

    @property
    def is_joker(self) -> bool:
        return self.rank == "Joker"

    @property
    def code(self) -> str:
        if self.is_joker:
            return f"JOKER{self.index}"
        return f"{self.rank}{self.suit[0].upper()}"

    @property
    def glyph(self) -> str:
        return GLYPHS[self.suit]

    @property
    def label(self) -> str:
        """Short form for screens: 'A♠', '10♥', 'Joker'."""
        return "Joker" if self.is_joker else f"{self.rank}{self.glyph}"

    @property
    def long_name(self) -> str:
        if self.is_joker:
            return "Joker"
        return f"{RANK_NAMES[self.rank]} of {self.suit.capitalize()}"

    def __str__(self) -> str:
        return self.label


def standard_deck() -> list[Card]:
    """The 54 cards in a fixed order; shuffle with ``rng.shuffle``."""
    cards = [Card(rank, suit) for suit in SUITS for rank in RANKS]
    cards += [Card("Joker", "", 1), Card("Joker", "", 2)]
    return cards


_SUIT_WORDS = {
    "s": "spades", "spade": "spades", "spades": "spades", "♠": "spades", "♤": "spades",
    "h": "hearts", "heart": "hearts", "hearts": "hearts", "♥": "hearts", "♡": "hearts",
    "c": "clubs", "club": "clubs", "clubs": "clubs", "♣": "clubs", "♧": "clubs",
    "d": "diamonds", "diamond": "diamonds", "diamonds": "diamonds", "♦": "diamonds",
    "♢": "diamonds",
}
_RANK_WORDS = {
    "a": "A", "ace": "A", "1": "A",
    "j": "J", "jack": "J", "knave": "J",
    "q": "Q", "queen": "Q",
    "k": "K", "king": "K",
    "t": "10", "ten": "10",
    **{str(n): str(n) for n in range(2, 11)},
    "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9",
}


def parse_card(text: str) -> Card:
    """Read a card a player typed: ``AS``, ``10h``, ``Q♦``, ``queen of diamonds``,
    ``joker`` (``joker 2`` for the second Joker)."""
    raw = text.strip().lower()
    if not raw:
        raise CardError("type a card, e.g. AS, 10h, Q♦, queen of diamonds or joker")
    m = re.fullmatch(r"(?:red |black |big |little )?joker\s*([12])?", raw)
    if m or raw in ("jk", "jkr", "jo"):
        return Card("Joker", "", int(m.group(1) or 1) if m else 1)
    m = re.fullmatch(r"(\w+)\s+of\s+(\w+)", raw)
    if m:
        rank_word, suit_word = m.groups()
    else:
        compact = raw.replace(" ", "")
        m = re.fullmatch(r"(\d+|[ajqkt])(\D.*)", compact)
        if not m:
            raise CardError(
                f"{text.strip()!r} is not a card: use rank then suit, e.g. AS, 10h, Q♦, "
                "queen of diamonds, or joker"
            )
        rank_word, suit_word = m.groups()
    rank = _RANK_WORDS.get(rank_word)
    if rank is None:
        raise CardError(f"{rank_word!r} is not a rank (A, 2-10, J, Q, K)")
    suit = _SUIT_WORDS.get(suit_word)
    if suit is None:
        raise CardError(f"{suit_word!r} is not a suit (spades, hearts, clubs, diamonds)")
    return Card(rank, suit)
