"""A small, fast TOML 1.0 writer for plain data.

Used for battle files (the hot path: one save per battle event), where
tomlkit is too slow and comments need not survive. Plain data means dicts with
string keys, lists, str, int (64-bit), float, bool. Lists whose items are all
non-empty dicts become arrays of tables (``[[battle.events]]``); other lists
and dicts inside lists are written inline. The output reads back with
``tomllib`` to the same data (tested with hypothesis).
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Mapping
from typing import Any

from .files import MAX_KEY_CHARS, MAX_NESTING

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
_INT_MIN = -(2**63)
_INT_MAX = 2**63 - 1

_ESCAPES = {
    "\\": "\\\\",
    '"': '\\"',
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}
_NEEDS_ESCAPE = re.compile(r'[\\"\x00-\x1f\x7f]')


class TomlEmitError(TypeError):
    """The data is not plain TOML data; names the offending key path."""


class WouldNotReadBack(TomlEmitError):
    """Plain data the guarded reader would refuse (nested too deep, a key too long):
    never written (the store says so as a SaveError)."""


def _escape_char(m: re.Match[str]) -> str:
    ch = m.group(0)
    return _ESCAPES.get(ch) or f"\\u{ord(ch):04x}"


def quote(text: str) -> str:
    """A TOML basic string."""
    if _NEEDS_ESCAPE.search(text):
        text = _NEEDS_ESCAPE.sub(_escape_char, text)
    return f'"{text}"'


def key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else quote(k)


def _where(path: tuple[str, ...]) -> str:
    return ".".join(path) or "(top)"


#: ``fast``: strings are not checked for lone surrogates one by one while :func:`dumps`
#: writes (it checks the whole text at once, and writes again checking each to say where)
_MODE = threading.local()


def _check_str(s: str, path: tuple[str, ...]) -> None:
    if getattr(_MODE, "fast", False):
        return
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise TomlEmitError(f"{_where(path)}: string is not valid Unicode (lone surrogate)") from None


def scalar(value: object, path: tuple[str, ...] = ()) -> str:
    """An inline TOML value (scalars, inline arrays, inline tables)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        _check_str(value, path)
        return quote(value)
    if isinstance(value, int):
        if not _INT_MIN <= value <= _INT_MAX:
            raise TomlEmitError(f"{_where(path)}: integer {value} is outside TOML's 64-bit range")
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        text = repr(value)
        if "." not in text and "e" not in text:
            text += ".0"
        return text
    if isinstance(value, Mapping):
        if len(path) > MAX_NESTING:  # (an empty one too: the reader counts it)
            _too_deep(path)
        if not value:
            return "{}"
        parts = []
        for k, v in value.items():
            _check_key(k, path)
            parts.append(f"{key(k)} = {scalar(v, (*path, k))}")
        return "{ " + ", ".join(parts) + " }"
    if isinstance(value, (list, tuple)):
        if len(path) > MAX_NESTING:
            _too_deep(path)
        if not value:
            return "[]"
        return "[" + ", ".join(scalar(v, (*path, str(i))) for i, v in enumerate(value)) + "]"
    raise TomlEmitError(f"{_where(path)}: {type(value).__name__} is not plain TOML data")


def _too_deep(path: tuple[str, ...]) -> None:
    """What the reader refuses (``files.data_shape_problem``) is never written."""
    raise WouldNotReadBack(f"{_where(path[:2])}...: nested more than {MAX_NESTING} deep; the file would not read back")


def _check_key(k: object, path: tuple[str, ...]) -> None:
    if not isinstance(k, str):
        raise TomlEmitError(f"{_where(path)}: key {k!r} is not a string")
    if len(k) > MAX_KEY_CHARS:
        raise WouldNotReadBack(f"{_where(path)}: a key of {len(k)} characters (at most {MAX_KEY_CHARS}); the file would not read back")
    _check_str(k, (*path, "<key>"))


def _is_table_array(value: object) -> bool:
    return (
        isinstance(value, (list, tuple))
        and len(value) > 0
        and all(isinstance(v, Mapping) and v for v in value)
    )


def _emit_table(
    table: Mapping[str, object],
    path: tuple[str, ...],
    hpath: tuple[str, ...],
    header: str | None,
    out: list[str],
) -> None:
    """Emit one table; ``path`` names it in errors (with array indexes),
    ``hpath`` is its header's key path (without them)."""
    if header is not None:
        if len(path) > MAX_NESTING:
            _too_deep(path)
        if out:
            out.append("")
        out.append(header)
    subtables: list[tuple[str, Mapping[str, object]]] = []
    arrays: list[tuple[str, list[Mapping[str, object]]]] = []
    for k, v in table.items():
        _check_key(k, path)
        if isinstance(v, Mapping) and v:
            subtables.append((k, v))
        elif _is_table_array(v):
            arrays.append((k, v))  # type: ignore[arg-type]
        else:
            out.append(f"{key(k)} = {scalar(v, (*path, k))}")
    for k, v in subtables:
        hsub = (*hpath, k)
        _emit_table(v, (*path, k), hsub, "[" + ".".join(key(p) for p in hsub) + "]", out)
    for k, items in arrays:
        hsub = (*hpath, k)
        head = "[[" + ".".join(key(p) for p in hsub) + "]]"
        for i, item in enumerate(items):
            _emit_table(item, (*path, k, str(i)), hsub, head, out)


#: what :func:`dumps` remembers of a document between two writes: a top-level table's
#: key -> (the JSON of its value, the lines written for it); ("items", key) -> for each
#: array of tables in that (changed) table, the JSON of each item -> its lines
EmitMemo = dict[Any, Any]

_JSON = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _fingerprint(value: object) -> str | None:
    """The exact JSON of plain data (types kept apart: ``true``, ``1`` and ``1.0`` differ;
    lists and tuples, which TOML writes alike, do not); None if JSON cannot hold it.
    (JSON would also write a non-string key as a string; a document's tables come from
    tomllib or the codec, whose keys are strings, and a table first written with such a
    key is refused by the writer and never remembered.)"""
    try:
        return _JSON.encode(value)
    except (TypeError, ValueError):
        return None


def _emit_changed(table: Mapping[str, object], k: str, out: list[str],
                  known: dict[str, dict[str, list[str]]]) -> dict[str, dict[str, list[str]]]:
    """:func:`_emit_table` of the top-level table ``k`` known to have changed (the
    tracker's ``battle``, whose log grows by one event per save): not compared whole, but
    each item of its arrays of tables is written once and then taken from ``known`` (by
    its exact JSON) while it stays the same. Returns what to remember for the next call."""
    path = (k,)
    if out:
        out.append("")
    out.append("[" + key(k) + "]")
    subtables: list[tuple[str, Mapping[str, object]]] = []
    arrays: list[tuple[str, list[Mapping[str, object]]]] = []
    for sk, v in table.items():
        _check_key(sk, path)
        if isinstance(v, Mapping) and v:
            subtables.append((sk, v))
        elif _is_table_array(v):
            arrays.append((sk, v))  # type: ignore[arg-type]
        else:
            out.append(f"{key(sk)} = {scalar(v, (*path, sk))}")
    for sk, v in subtables:
        hsub = (*path, sk)
        _emit_table(v, hsub, hsub, "[" + ".".join(key(p) for p in hsub) + "]", out)
    remember: dict[str, dict[str, list[str]]] = {}
    for sk, items in arrays:
        hsub = (*path, sk)
        head = "[[" + ".".join(key(p) for p in hsub) + "]]"
        old, new = known.get(sk, {}), remember.setdefault(sk, {})
        for i, item in enumerate(items):
            fp = _fingerprint(item)
            lines = old.get(fp) if fp is not None else None
            if lines is None:
                lines = []
                _emit_table(item, (*path, sk, str(i)), hsub, head, lines)
            if fp is not None:
                new[fp] = lines
            out.append("")  # (out holds the table's header: _emit_table would add it)
            out.extend(lines)
    return remember


def _emit_top(data: Mapping[str, object], out: list[str], memo: EmitMemo,
              fresh: frozenset[str] = frozenset(),
              fingerprints: Mapping[str, str] | None = None) -> None:
    """:func:`_emit_table` of the document, each top-level table's lines taken from
    ``memo`` when its value is exactly the one written last time (a battle file's
    tracker log is unchanged while the post-battle sequence saves its draft); the
    tables named in ``fresh`` changed: see :func:`_emit_changed`. ``fingerprints``: the
    caller's :func:`_fingerprint` of some tables (a battle file's parts, kept as JSON by
    the store), not computed again."""
    tables: list[tuple[str, object]] = []
    for k, v in data.items():
        _check_key(k, ())
        if (isinstance(v, Mapping) and v) or _is_table_array(v):
            tables.append((k, v))
        else:
            out.append(f"{key(k)} = {scalar(v, (k,))}")
    ordered = [kv for kv in tables if isinstance(kv[1], Mapping)] + \
              [kv for kv in tables if not isinstance(kv[1], Mapping)]
    seen: set[object] = set()
    for k, v in ordered:
        seen.add(k)
        if k in fresh and isinstance(v, Mapping):
            lines: list[str] = []
            memo[("items", k)] = _emit_changed(v, k, lines, memo.get(("items", k), {}))
            seen.add(("items", k))
            memo.pop(k, None)
            if out:
                out.append("")
            out.extend(lines)
            continue
        fp = fingerprints.get(k) if fingerprints is not None else None
        if fp is None:
            fp = _fingerprint(v)
        known = memo.get(k)
        if fp is not None and known is not None and known[0] == fp:
            if out:
                out.append("")
            out.extend(known[1])
            continue
        lines = []
        if isinstance(v, Mapping):
            _emit_table(v, (k,), (k,), "[" + key(k) + "]", lines)
        else:
            head = "[[" + key(k) + "]]"
            for i, item in enumerate(v):  # type: ignore[arg-type]
                _emit_table(item, (k, str(i)), (k,), head, lines)
        if out:
            out.append("")
        out.extend(lines)
        if fp is None:
            memo.pop(k, None)
        else:
            memo[k] = (fp, lines)
    for k in [k for k in memo if k not in seen]:
        del memo[k]


def dumps(data: Mapping[str, object], memo: EmitMemo | None = None,
          fresh: frozenset[str] = frozenset(),
          fingerprints: Mapping[str, str] | None = None) -> str:
    """TOML text for ``data``; raises TomlEmitError for non-plain data.

    ``memo`` (kept by the caller for one document, empty at first): top-level tables
    whose value is exactly the one of the last call are not written again, nor the items
    of the arrays of tables of those named in ``fresh`` (changed: not compared whole);
    ``fingerprints`` gives the exact JSON of some top-level tables (:func:`_emit_top`).
    The text is the same either way."""
    if not isinstance(data, Mapping):
        raise TomlEmitError(f"(top): a TOML document is a table, not {type(data).__name__}")
    out: list[str] = []
    _MODE.fast = True
    try:
        if memo is None:
            _emit_table(data, (), (), None, out)
        else:
            try:
                _emit_top(data, out, memo, fresh, fingerprints)
            except BaseException:
                memo.clear()
                raise
    finally:
        _MODE.fast = False
    text = "\n".join(out) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate somewhere: write again to name its key path
        if memo is not None:
            memo.clear()
        _emit_table(data, (), (), None, [])
        raise TomlEmitError("(top): string is not valid Unicode (lone surrogate)") from None
    return text
