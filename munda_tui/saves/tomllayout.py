"""The text :func:`tomldoc.build_document` makes, written without tomlkit.

A league's campaign.toml (50 gangs of 30, 2,000 battles) takes tomlkit seconds
to parse and most of a second to write; this writes the same text (the same
layout: ``[sections]``, ``[[arrays of tables]]``, inline tables written as
tomlkit writes them) in a fraction of that. Used when the file has no comments
to keep (see ``CampaignHandle.save``); with comments, tomlkit updates it in place.
Tested to give tomlkit's text for the campaigns munda-tui writes, and text that
reads back to the same data for any plain data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .tomldoc import Layout, Path_, _is_table_list, _multiline_ok
from .tomlemit import TomlEmitError, key, quote, scalar


def _multiline(text: str, path: tuple[str, ...]) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise TomlEmitError(f"{'.'.join(path) or '(top)'}: string is not valid Unicode (lone surrogate)") from None
    body = text.replace("\\", "\\\\")
    out = []
    for ch in body:
        o = ord(ch)
        if ch == "\n" or ch == "\t" or (o >= 0x20 and o != 0x7F):
            out.append(ch)
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\f":
            out.append("\\f")
        else:
            out.append(f"\\u{o:04x}")
    body = "".join(out).replace('"""', '""\\"')
    return f'"""{body}"""'


_SCALARS = frozenset({int, bool, float})
_INT_MIN, _INT_MAX = -(2**63), 2**63 - 1
#: texts and keys written before (a league's 50 gang files say "Autogun" and "xp" some
#: thousand times): as they were written, not worked out again
_WRITTEN: dict[str, str] = {}
_KEYS: dict[str, str] = {}
_MEMO_LIMIT = 65536


def _key(k: str) -> str:
    written = _KEYS.get(k)
    if written is None:
        written = key(k)
        if len(_KEYS) < _MEMO_LIMIT:
            _KEYS[k] = written
    return written


def _inline(value: Any, path: tuple[str, ...]) -> str:
    kind = type(value)  # (the exact scalar types first: an ABC check of each is slow)
    if kind is str:
        written = _WRITTEN.get(value)
        if written is None:  # (a text that cannot be written raises: never remembered)
            written = _multiline(value, path) if _multiline_ok(value) else scalar(value, path)
            if len(_WRITTEN) < _MEMO_LIMIT and len(value) < 256 and value.isascii():
                _WRITTEN[value] = written
        return written
    if kind is int and _INT_MIN <= value <= _INT_MAX:
        return str(value)
    if kind in _SCALARS:
        return scalar(value, path)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_inline(v, (*path, k))}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        items = [_inline(v, (*path, str(i))) for i, v in enumerate(value)]
        if any(isinstance(v, Mapping) for v in value):
            return "[\n" + "".join(f"    {item},\n" for item in items) + "]"
        return "[" + ", ".join(items) + "]"
    if isinstance(value, str) and _multiline_ok(value):
        return _multiline(value, path)
    if isinstance(value, (dict, tuple)) or value is None:
        raise TomlEmitError(f"{'.'.join(path) or '(top)'}: {type(value).__name__} is not plain TOML data")
    return scalar(value, path)


def _table(value: Mapping[str, Any], path: Path_, layout: Layout, out: list[str]) -> None:
    later: list[tuple[str, Any]] = []
    for k, v in value.items():
        if not isinstance(k, str):
            raise TomlEmitError(f"{'.'.join(path) or '(top)'}: key {k!r} is not a string")
        sub = (*path, k)
        kind = type(v)
        if kind is str or kind in _SCALARS:
            out.append(f"{_key(k)} = {_inline(v, sub)}\n")
        elif (isinstance(v, Mapping) and sub in layout.tables) or (sub in layout.arrays and _is_table_list(v)):
            later.append((k, v))
        else:
            out.append(f"{_key(k)} = {_inline(v, sub)}\n")
    for k, v in later:
        sub = (*path, k)
        name = ".".join(key(p) for p in sub)
        if isinstance(v, Mapping):
            out.append(f"\n[{name}]\n")
            _table(v, sub, layout, out)
        else:
            for item in v:
                out.append(f"\n[[{name}]]\n")
                _table(item, sub, layout, out)


def dumps(data: Mapping[str, Any], layout: Layout) -> str:
    """``tomldoc.build_document(data, layout).as_string()``, fast."""
    out: list[str] = []
    _table(data, (), layout, out)
    text = "".join(out)
    return text[1:] if text.startswith("\n") else text
