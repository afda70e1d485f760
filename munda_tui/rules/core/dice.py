"""Dice expressions: every roll written in the seeds.

Grammar (case-insensitive, spaces ignored)::

    expr   := term (("+" | "-") term)*
    term   := factor (("x" | "*" | "×") factor)*
    factor := NUMBER | DICE | "(" expr ")"
    DICE   := [N] "D" SIDES [("kh" | "kl") K]

``D66`` is two D6 read as tens and units. ``3D6kh2`` rolls three D6 and keeps
the highest two: "roll an extra D6 and discard the lowest" turns ``2D6`` into
``3D6kh2``. ``x`` binds tighter than ``+``/``-``: ``50+3D6x5`` is 50 + (3D6)×5.

A roll takes an explicit ``random.Random`` or the faces of real dice, records
the expression, every die's face and the total.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

MAX_DICE = 50
#: Longest dice expression read (every real one is a few characters).
MAX_EXPRESSION = 200
ALLOWED_SIDES = (2, 3, 6, 10, 12, 20, 66)


class DiceError(ValueError):
    """A malformed expression or wrong dice faces, with a player-readable message."""


# --- the expression tree -------------------------------------------------------


@dataclass(frozen=True)
class _Num:
    value: int

    def dice(self) -> list[int]:
        return []

    def evaluate(self, faces: list[int]) -> int:
        return self.value

    def bounds(self) -> tuple[int, int]:
        return self.value, self.value

    def text(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class _Dice:
    count: int
    sides: int  # 66 for D66
    keep: str = ""  # "", "h" or "l"
    keep_n: int = 0

    def dice(self) -> list[int]:
        per = [6, 6] if self.sides == 66 else [self.sides]
        return per * self.count

    def _values(self, faces: list[int]) -> list[int]:
        if self.sides == 66:
            return [faces.pop(0) * 10 + faces.pop(0) for _ in range(self.count)]
        return [faces.pop(0) for _ in range(self.count)]

    def evaluate(self, faces: list[int]) -> int:
        values = self._values(faces)
        if self.keep:
            values = sorted(values, reverse=self.keep == "h")[: self.keep_n]
        return sum(values)

    def bounds(self) -> tuple[int, int]:
        n = self.keep_n if self.keep else self.count
        lo, hi = (11, 66) if self.sides == 66 else (1, self.sides)
        return n * lo, n * hi

    def text(self) -> str:
        count = "" if self.count == 1 else str(self.count)
        keep = f"k{self.keep}{self.keep_n}" if self.keep else ""
        return f"{count}D{self.sides}{keep}"


@dataclass(frozen=True)
class _BinOp:
    op: str  # "+", "-", "x"
    left: "_Node"
    right: "_Node"

    def dice(self) -> list[int]:
        return self.left.dice() + self.right.dice()

    def evaluate(self, faces: list[int]) -> int:
        a = self.left.evaluate(faces)
        b = self.right.evaluate(faces)
        if self.op == "+":
            return a + b
        if self.op == "-":
            return a - b
        return a * b

    def bounds(self) -> tuple[int, int]:
        alo, ahi = self.left.bounds()
        blo, bhi = self.right.bounds()
        if self.op == "+":
            return alo + blo, ahi + bhi
        if self.op == "-":
            return alo - bhi, ahi - blo
        products = [alo * blo, alo * bhi, ahi * blo, ahi * bhi]
        return min(products), max(products)

    def text(self) -> str:
        def wrap(node: _Node, tight: bool) -> str:
            t = node.text()
            if tight and isinstance(node, _BinOp) and node.op in "+-":
                return f"({t})"
            return t

        if self.op == "x":
            return f"{wrap(self.left, True)}x{wrap(self.right, True)}"
        right = self.right.text()
        if self.op == "-" and isinstance(self.right, _BinOp) and self.right.op in "+-":
            right = f"({right})"
        return f"{self.left.text()}{self.op}{right}"


_Node = _Num | _Dice | _BinOp
"""A node of the expression tree."""


# --- parsing ------------------------------------------------------------------

_TOKEN = re.compile(
    r"\s*(?:(?P<dice>(?P<count>\d*)[dD](?P<sides>\d+)(?:[kK](?P<keep>[hHlL])(?P<keep_n>\d+))?)"
    r"|(?P<num>\d+)|(?P<op>[-+xX*×()]))"
)


def _tokenize(text: str) -> list[tuple[str, object]]:
    tokens: list[tuple[str, object]] = []
    pos = 0
    text = text.strip()
    if not text:
        raise DiceError("empty dice expression")
    if len(text) > MAX_EXPRESSION:
        raise DiceError(f"a dice expression of {len(text)} characters is far too long (at most {MAX_EXPRESSION})")
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            bad = text[pos:].strip()[:1] or text[pos:pos + 1]
            raise DiceError(
                f"cannot read {text if len(text) <= 40 else text[:37] + '...'!r}: unexpected {bad!r} at position {pos + 1}"
            )
        pos = m.end()
        if any(len(g or "") > 6 for g in (m.group("count"), m.group("sides"), m.group("keep_n"), m.group("num"))):
            raise DiceError(f"{m.group(0).strip()[:12]}...: a number far too large for dice")
        if m.group("dice"):
            count = int(m.group("count") or 1)
            sides = int(m.group("sides"))
            if sides not in ALLOWED_SIDES:
                raise DiceError(f"D{sides} is not a die munda-tui knows (D3, D6, D66 ...)")
            if count < 1 or count > MAX_DICE:
                raise DiceError(f"{count}D{sides}: roll between 1 and {MAX_DICE} dice")
            keep = (m.group("keep") or "").lower()
            keep_n = int(m.group("keep_n") or 0)
            if keep and not 1 <= keep_n <= count:
                raise DiceError(
                    f"{m.group('dice')}: can keep between 1 and {count} dice, not {keep_n}"
                )
            tokens.append(("dice", _Dice(count, sides, keep, keep_n)))
        elif m.group("num") is not None:
            tokens.append(("num", _Num(int(m.group("num")))))
        else:
            op = m.group("op")
            op = "x" if op in "xX*×" else op
            tokens.append(("op", op))
        while pos < len(text) and text[pos].isspace():
            pos += 1
    return tokens


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.tokens = _tokenize(text)
        self.i = 0

    def peek(self) -> tuple[str, object] | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> tuple[str, object]:
        tok = self.peek()
        if tok is None:
            raise DiceError(f"{self.text!r} ends too early")
        self.i += 1
        return tok

    def expr(self) -> _Node:
        node = self.term()
        while (tok := self.peek()) and tok[0] == "op" and tok[1] in ("+", "-"):
            self.take()
            node = _BinOp(str(tok[1]), node, self.term())
        return node

    def term(self) -> _Node:
        node = self.factor()
        while (tok := self.peek()) and tok == ("op", "x"):
            self.take()
            node = _BinOp("x", node, self.factor())
        return node

    def factor(self) -> _Node:
        kind, value = self.take()
        if isinstance(value, (_Num, _Dice)):
            return value
        if value == "(":
            node = self.expr()
            if self.take() != ("op", ")"):
                raise DiceError(f"{self.text!r}: missing ')'")
            return node
        raise DiceError(f"{self.text!r}: expected a number or dice, found {value!r}")


@dataclass(frozen=True)
class Expression:
    source: str
    _tree: _Node = field(repr=False, compare=False)

    @property
    def dice(self) -> list[int]:
        """Sides of every physical die, in the order faces are read."""
        return self._tree.dice()

    @property
    def minimum(self) -> int:
        return self._tree.bounds()[0]

    @property
    def maximum(self) -> int:
        return self._tree.bounds()[1]

    @property
    def canonical(self) -> str:
        return self._tree.text()

    def evaluate(self, faces: list[int]) -> int:
        check_faces(self, faces)
        return self._tree.evaluate(list(faces))

    def distribution(self) -> dict[int, Fraction]:
        """Exact distribution of totals, by enumerating every face."""
        sides = self.dice
        counts: Counter[int] = Counter()
        for faces in itertools.product(*(range(1, s + 1) for s in sides)):
            counts[self._tree.evaluate(list(faces))] += 1
        total = sum(counts.values())
        return {k: Fraction(v, total) for k, v in sorted(counts.items())}

    def __str__(self) -> str:
        return self.source


_CACHE: dict[str, Expression] = {}


def parse(text: str) -> Expression:
    """Parse a dice expression; raises DiceError naming what is wrong."""
    if not isinstance(text, str):
        raise DiceError(f"a dice expression must be text, not {type(text).__name__}")
    cached = _CACHE.get(text)
    if cached is not None:
        return cached
    parser = _Parser(text)
    tree = parser.expr()
    if (extra := parser.peek()) is not None:
        raise DiceError(f"{text!r}: unexpected {extra[1]!r} after a complete roll")
    expr = Expression(text.strip(), tree)
    _CACHE[text] = expr
    return expr


def check_faces(expr: Expression, faces: list[int]) -> None:
    sides = expr.dice
    if len(faces) != len(sides):
        need = len(sides)
        raise DiceError(
            f"{expr.source} needs {need} {'die' if need == 1 else 'dice'}"
            f"{' (D66 is two D6: tens then units)' if '66' in expr.source else ''},"
            f" got {len(faces)}"
        )
    for i, (face, s) in enumerate(zip(faces, sides), start=1):
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= s:
            raise DiceError(f"die {i} of {expr.source}: {face!r} is not a D{s} face (1-{s})")


@dataclass(frozen=True)
class Roll:
    expression: str
    faces: tuple[int, ...]
    total: int
    entered: bool = False  # True when the faces came from real dice

    def __str__(self) -> str:
        faces = ", ".join(str(f) for f in self.faces)
        return f"{self.expression} [{faces}] = {self.total}"

    def to_data(self) -> dict[str, object]:
        return {
            "expression": self.expression,
            "faces": list(self.faces),
            "total": self.total,
            "entered": self.entered,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Roll":
        return cls(
            str(data["expression"]),
            tuple(int(f) for f in data.get("faces", []) or []),
            int(data["total"]),
            bool(data.get("entered", False)),
        )


def roll(expression: str | Expression, rng: random.Random) -> Roll:
    """Roll with the given RNG (always explicit, so tests can seed it)."""
    expr = expression if isinstance(expression, Expression) else parse(expression)
    faces = [rng.randint(1, s) for s in expr.dice]
    return Roll(expr.source, tuple(faces), expr._tree.evaluate(list(faces)))


def roll_faces(expression: str | Expression, faces: list[int] | tuple[int, ...]) -> Roll:
    """A roll from real dice: the faces in the order of ``parse(expr).dice``."""
    expr = expression if isinstance(expression, Expression) else parse(expression)
    faces = list(faces)
    total = expr.evaluate(faces)
    return Roll(expr.source, tuple(faces), total, entered=True)


def parse_faces(expression: str | Expression, text: str) -> list[int]:
    """Read faces typed by a player: ``"3 5"``, ``"3,5"``; ``"35"`` for one D66.

    Raises DiceError for anything that is not whole numbers of the right count
    and range.
    """
    expr = expression if isinstance(expression, Expression) else parse(expression)
    raw = [t for t in re.split(r"[\s,;/]+", text.strip()) if t]
    if not raw:
        raise DiceError(f"type the faces of {expr.source}, e.g. {' '.join('3' for _ in expr.dice)}")
    sides = expr.dice
    # "35" for a D66, or "3456" for D6s typed without spaces
    if len(raw) == 1 and len(sides) > 1 and raw[0].isdigit() and len(raw[0]) == len(sides):
        raw = list(raw[0])
    faces: list[int] = []
    for token in raw:
        if not token.lstrip("-").isdigit() or len(token) > 6:
            shown = token if len(token) <= 12 else token[:9] + "..."
            raise DiceError(f"{shown!r} is not a number of a die face: type the faces shown on the dice")
        faces.append(int(token))
    check_faces(expr, faces)
    return faces
