"""The one codec of the rules' typed records (issue 33): the battle's events and the
post-battle changes are frozen msgspec structs, tagged unions whose tag is their ``kind``.

:func:`to_data` makes a struct plain data (dicts, lists, text, numbers: what TOML and JSON
hold), the tag first, then its fields in the order declared, leaving out what the struct
leaves out (a default, or ``UNSET``); :func:`from_data` reads plain data back into a type,
checking every field (``msgspec.ValidationError``, a ValueError, naming what is wrong).
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

import msgspec

_T = TypeVar("_T")

_ENCODER = msgspec.json.Encoder()


def to_data(value: msgspec.Struct) -> dict[str, Any]:
    """A struct as plain data (tuples as lists)."""
    data: dict[str, Any] = msgspec.json.decode(_ENCODER.encode(value))
    return data


def from_data(data: Any, type_: type[_T]) -> _T:
    """Plain data as ``type_``: ValueError naming what is wrong."""
    return msgspec.convert(data, type_)


def from_data_as(data: Any, union: Any) -> Any:
    """Plain data as one of ``union``'s types, by its tag (ValueError naming what is wrong)."""
    return msgspec.convert(data, union)


_WHAT = {"int": "an integer", "str": "a string", "bool": "a boolean", "array": "an array",
         "object": "a table", "float": "a number", "null": "nothing"}


def where(error: ValueError) -> tuple[tuple[str | int, ...], str]:
    """A decoding error as (the key path inside the data, the message in a save's words):
    msgspec's "Expected `int`, got `str` - at `$.rewards[0].amount`" is
    (("rewards", 0, "amount"), "expected an integer, found a string")."""
    text = str(error)
    path: tuple[str | int, ...] = ()
    m = re.search(r" - at `\$([^`]*)`$", text)
    if m:
        text = text[:m.start()]
        path = tuple(int(i) if i is not None and i != "" else k
                     for k, i in re.findall(r"\.(\w+)|\[(\d+)\]", m.group(1)))
    m = re.fullmatch(r"Expected `(\w+)[^`]*`, got `(\w+)`", text)
    if m:
        text = f"expected {_WHAT.get(m.group(1), m.group(1))}, found {_WHAT.get(m.group(2), m.group(2))}"
    elif text.startswith("Object missing required field "):
        text = "missing key " + text.removeprefix("Object missing required field ").replace("`", "'")
    return path, text
