"""Comments in a battle file survive the app's next save (the README promises it).

Battle files are written by the fast writer (``tomlemit``: the tracker saves on every
key), which writes data, not comments. A file someone commented by hand keeps them: the
comments are read once from its text (:func:`read_comments`: each whole-line comment with
the statement it stands before, each end-of-line comment with the statement it ends,
those after the last statement at the end) and put back into the fast writer's text of
every save (:func:`place`), at the same statements: a table's header, a key of a table
or of the n-th element of an array of tables. A comment whose statement is gone goes
before the next statement that is still there. The fast writer's text reads back as its
data (its own guarantee); a comment line, or a comment after a value that ends on its
line, changes no data, and the comments were read from a text the guarded reader took:
the first text written with them is read back through the guarded reader to be sure, and
the saves after it (the same comments, placed the same way) are not parsed again (a
1,000-event log: ~30 ms a parse, ~2 ms a placement). What this cannot place (a comment
inside a value written over several lines, a multi-line string) is updated in place with
tomlkit instead (``tomldoc.merge``), as before, and used only if it reads back.

What each battle file held as last seen (its stat and, if it had comments, where they
go) is kept here, so a comment-free file costs one ``stat`` a save.
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: path -> (the file's stat key as last seen, its comments (or the tomlkit document of
#: a file whose comments only tomlkit places), or None: no comments)
_SEEN: dict[str, tuple[tuple[int, int, int], Any]] = {}
_LOCK = threading.Lock()

# strings, so that a "#" inside one is no comment (as store.has_comments)
_STRINGS = r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\''

_BARE = r"[A-Za-z0-9_-]+"
_BASIC = r'"(?:[^"\\\n]|\\.)*"'
_LITERAL = r"'[^'\n]*'"
_PART = re.compile(rf"{_BARE}|{_BASIC}|{_LITERAL}")
_KEY = re.compile(rf"[ \t]*((?:{_BARE}|{_BASIC}|{_LITERAL})(?:[ \t]*\.[ \t]*(?:{_BARE}|{_BASIC}|{_LITERAL}))*)[ \t]*")
# what a value's line holds that matters here: strings (skipped), brackets, a comment
_TOKENS = re.compile(rf'"""|\'\'\'|{_BASIC}|{_LITERAL}|[#\[\]{{}}]')

#: a statement: ("h", its table's path) for a header, ("k", its table's path, its key's
#: parts) for a key; an array of tables' element is its path's index (0, 1, ...)
Anchor = tuple[Any, ...]


def has_comments(text: str) -> bool:
    return "#" in text and "#" in re.sub(_STRINGS, "", text)


@dataclass
class Comments:
    """A battle file's comments, each at its statement."""

    #: the lines before a statement: comment lines, with the blank lines among and after them
    before: dict[Anchor, list[str]] = field(default_factory=dict)
    #: the end of a statement's line: the spaces and the comment after its value
    after: dict[Anchor, str] = field(default_factory=dict)
    #: the lines after the last statement
    tail: list[str] = field(default_factory=list)
    #: the text they were read from or last placed in (its statements' order, read again
    #: only when a commented statement is gone)
    source: str = ""
    #: placed in a text read back through the guarded reader (see the module's words)
    checked: bool = False


class _Unplaceable(ValueError):
    """A comment this module cannot put back (tomlkit places it)."""


def _key_part(part: str) -> str:
    if part[0] == '"':
        if "\\" not in part:
            return part[1:-1]
        import tomllib

        return str(tomllib.loads(f"k = {part}")["k"])
    if part[0] == "'":
        return part[1:-1]
    return part


def _key(text: str) -> tuple[str, ...]:
    return tuple(_key_part(m.group()) for m in _PART.finditer(text))


class _Tables:
    """Where a header puts the statements after it: its path, each array of tables
    along it at the index of its element (the last one begun)."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, ...], int] = {}

    def header(self, keys: tuple[str, ...], array: bool) -> tuple[Any, ...]:
        counts = self.counts
        if array:
            counts[keys] = counts.get(keys, 0) + 1
            n = len(keys)
            for deeper in [d for d in counts if len(d) > n and d[:n] == keys]:
                del counts[deeper]  # (a new element begins its own arrays)
        resolved: list[Any] = []
        for i, k in enumerate(keys):
            resolved.append(k)
            index = counts.get(keys[: i + 1])
            if index is not None:
                resolved.append(index - 1)
        return tuple(resolved)


def read_comments(text: str) -> Comments:
    """The comments of ``text`` (a battle file the guarded reader took), each at the
    statement it goes with; _Unplaceable for one inside a value of several lines."""
    return _read(text)[0]


def _read(text: str) -> tuple[Comments, list[Anchor]]:
    """:func:`read_comments`, and the statements of ``text`` in their order."""
    out = Comments(source=text)
    order: list[Anchor] = []
    tables = _Tables()
    table: tuple[Any, ...] = ()
    pending: list[str] = []
    depth = 0  # inside a value written over several lines (an array)
    anchor: Anchor = ()
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        if depth:
            for token in _TOKENS.finditer(line):
                tok = token.group()
                if tok in ('"""', "'''"):
                    raise _Unplaceable("a multi-line string")
                if tok == "#":
                    raise _Unplaceable("a comment inside a value of several lines")
                if tok in "[{":
                    depth += 1
                elif tok in "]}":
                    depth -= 1
            continue
        stripped = line.lstrip(" \t")
        if not stripped or stripped[0] == "#":
            pending.append(line)
            continue
        if stripped[0] == "[":
            array = stripped.startswith("[[")
            head = _KEY.match(stripped, 2 if array else 1)
            if head is None:
                raise _Unplaceable(f"a header: {line}")
            table = tables.header(_key(head.group(1)), array)
            anchor = ("h", table)
            end = stripped.index("]", head.end()) + (2 if array else 1)
            rest = stripped[end:]
        else:
            kv = _KEY.match(stripped)
            if kv is None or stripped[kv.end():kv.end() + 1] != "=":
                raise _Unplaceable(f"a line: {line}")
            anchor = ("k", table, _key(kv.group(1)))
            rest = stripped[kv.end() + 1:]
            for token in _TOKENS.finditer(rest):
                tok = token.group()
                if tok in ('"""', "'''"):
                    raise _Unplaceable("a multi-line string")
                if tok == "#":
                    rest = rest[token.start():]
                    break
                if tok in "[{":
                    depth += 1
                elif tok in "]}":
                    depth -= 1
            else:
                rest = ""
            if depth:  # (rest: a comment at the end of the value's first line)
                if rest:
                    raise _Unplaceable("a comment inside a value of several lines")
                order.append(anchor)
                _keep(out, anchor, pending)
                pending = []
                continue
        order.append(anchor)
        _keep(out, anchor, pending)
        pending = []
        comment = rest.lstrip(" \t")
        if comment:
            if comment[0] != "#":
                raise _Unplaceable(f"a line: {line}")
            out.after[anchor] = _suffix(line, rest)
    while pending and not pending[-1].strip():
        pending.pop()  # (the last line's newline)
    _keep(out, None, pending)
    return out, order


def _suffix(line: str, rest: str) -> str:
    """The spaces and the comment at the end of ``line`` (``rest`` ends it)."""
    comment = rest.lstrip(" \t")
    before = line[: len(line) - len(comment)]
    return line[len(before.rstrip(" \t")):]


def _keep(out: Comments, anchor: Anchor | None, pending: list[str]) -> None:
    """The lines before a statement (``None``: the end), if they hold a comment, without
    the blank lines before the first comment."""
    start = next((i for i, ln in enumerate(pending) if ln.strip()), None)
    if start is None:
        return
    block = pending[start:]
    if anchor is None:
        out.tail = block
    else:
        out.before[anchor] = block


_HEADER = re.compile(r"^\[[^\n]*", re.M)


def _header_keys(line: str) -> tuple[tuple[str, ...], bool]:
    array = line[1] == "["
    inner = line[2:-2] if array else line[1:-1]
    return (tuple(inner.split(".")) if '"' not in inner else _key(inner)), array


def _line_key(line: str) -> tuple[str, ...]:
    if line[0] == '"':
        m = _PART.match(line)
        assert m is not None
        return (_key_part(m.group()),)
    return (line[: line.index(" = ")],)


def _anchors(fast_text_lines: list[str]) -> list[Anchor | None]:
    """The statement of each line of the fast writer's text (None: a blank line): its
    headers and ``key = value`` lines, one a line, keys bare or quoted."""
    tables = _Tables()
    table: tuple[Any, ...] = ()
    out: list[Anchor | None] = []
    for line in fast_text_lines:
        if not line:
            out.append(None)
        elif line[0] == "[":
            table = tables.header(*_header_keys(line))
            out.append(("h", table))
        else:
            out.append(("k", table, _line_key(line)))
    return out


def _find(text: str, wanted: set[Anchor]) -> dict[Anchor, int]:
    """Where each statement of ``wanted`` begins in the fast writer's ``text`` (the offset
    of its line; a statement not there is left out). Only the headers are read, and the
    lines of the tables a wanted key is in: a 1,000-event log is not walked line by line."""
    headers: set[tuple[Any, ...]] = set()
    keys: dict[tuple[Any, ...], set[tuple[str, ...]]] = {}
    for a in wanted:
        if a[0] == "h":
            headers.add(a[1])
        else:
            keys.setdefault(a[1], set()).add(a[2])
    relevant: set[tuple[str, ...]] = set()  # the headers on the way to a wanted table
    for table in headers | set(keys):
        plain = tuple(k for k in table if isinstance(k, str))
        relevant.update(plain[: i + 1] for i in range(len(plain)))
    found: dict[Anchor, int] = {}

    def section(table: tuple[Any, ...], start: int, end: int) -> None:
        want = keys.get(table)
        if not want:
            return
        at = start
        for line in text[start:end].split("\n"):
            if line and line[0] != "[":
                k = _line_key(line)
                if k in want:
                    found[("k", table, k)] = at
            at += len(line) + 1

    matches = list(_HEADER.finditer(text))
    section((), 0, matches[0].start() if matches else len(text))
    tables = _Tables()
    parsed: dict[str, tuple[tuple[str, ...], bool]] = {}
    for i, m in enumerate(matches):
        line = m.group()
        head = parsed.get(line)
        if head is None:
            head = parsed[line] = _header_keys(line)
        if head[0] not in relevant:
            continue
        table = tables.header(*head)
        if table in headers:
            found[("h", table)] = m.start()
        section(table, m.end() + 1, matches[i + 1].start() if i + 1 < len(matches) else len(text))
    return found


def _carry(comments: Comments, fast_text: str) -> Comments:
    """The comments with those of statements gone moved: before the next statement still
    there in the order they were read, else to the end (one that ended a line gone: on a
    line of its own)."""
    order = _read(comments.source)[1]
    lines = fast_text.split("\n")
    there = {a for a in _anchors(lines) if a is not None}
    carried: list[str] = []
    out = Comments(tail=list(comments.tail), source=comments.source, checked=comments.checked)
    for anchor in order:
        block = comments.before.get(anchor)
        end = comments.after.get(anchor)
        if anchor in there:
            if carried or block:
                out.before[anchor] = carried + (block or [])
                carried = []
            if end:
                out.after[anchor] = end
        else:
            carried += (block or []) + ([end.lstrip(" \t")] if end else [])
    out.tail = carried + out.tail
    return out


def place(comments: Comments, fast_text: str) -> tuple[str, Comments]:
    """The fast writer's text with ``comments`` at their statements, and the comments as
    they now stand in it (a comment whose statement is gone: before the next one still
    there, else at the end; one that ended a line gone: on a line of its own)."""
    wanted = set(comments.before) | set(comments.after)
    found = _find(fast_text, wanted)
    if len(found) < len(wanted):  # (a commented statement is gone: an event undone)
        comments = _carry(comments, fast_text)
        wanted = set(comments.before) | set(comments.after)
        found = _find(fast_text, wanted)
    text = fast_text
    for anchor, at in sorted(found.items(), key=lambda kv: kv[1], reverse=True):
        end = comments.after.get(anchor)
        if end:
            eol = text.find("\n", at)
            text = text[:eol] + end + text[eol:]
        block = comments.before.get(anchor)
        if block:
            text = text[:at] + "".join(ln + "\n" for ln in block) + text[at:]
    if comments.tail:
        text += "".join(ln + "\n" for ln in comments.tail)
    return text, Comments(before=comments.before, after=comments.after, tail=comments.tail,
                          source=text, checked=comments.checked)


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def text_to_write(path: Path, fast_text: str, data: dict[str, Any]) -> tuple[str, Any]:
    """The text to write for ``data`` (``fast_text``: the fast writer's) and what to hand
    to :func:`written` after the write."""
    key = str(path)
    now = _stat(path)
    if now is None:
        return fast_text, None
    with _LOCK:
        seen = _SEEN.get(key)
    if seen is not None and seen[0] == now:
        kept = seen[1]
        if kept is None:
            return fast_text, None  # (the hot path: no comments to keep)
    else:
        from .errors import SaveError
        from .files import parse_text, read_text

        try:
            old = read_text(path)
        except SaveError:
            return fast_text, None
        if not has_comments(old):
            return fast_text, None
        try:
            parse_text(path, old)  # the guarded reader first: the comments are of a text it takes
        except SaveError:
            return fast_text, None
        try:
            kept = read_comments(old)
        except _Unplaceable:
            kept = _tomlkit_doc(old)
            if kept is None:
                return fast_text, None
    if isinstance(kept, Comments):
        return _placed(path, kept, fast_text, data)
    return _merged(path, kept, fast_text, data)


def _placed(path: Path, comments: Comments, fast_text: str, data: dict[str, Any]) -> tuple[str, Any]:
    from . import tomldoc
    from .errors import SaveError
    from .files import parse_text

    text, placed = place(comments, fast_text)
    if not placed.checked:
        try:
            if not tomldoc.same(parse_text(path, text), data):
                return fast_text, None
        except SaveError:
            return fast_text, None  # (the commented version is the newest backup)
        placed.checked = True
    return text, placed


def _tomlkit_doc(old: str) -> Any:
    import tomlkit

    try:
        return tomlkit.parse(old)
    except Exception:  # noqa: BLE001 - tomlkit disagrees with the reader: the fast writer's text
        return None


def _merged(path: Path, doc: Any, fast_text: str, data: dict[str, Any]) -> tuple[str, Any]:
    """A file whose comments only tomlkit places: updated in place, used if it reads back."""
    from . import tomldoc
    from .errors import SaveError
    from .files import parse_text

    try:
        tomldoc.merge(doc, data, (), tomldoc.EVERY_TABLE_LAYOUT)
        text = doc.as_string()
        if tomldoc.same(parse_text(path, text), data):
            return text, doc
    except (SaveError, ValueError, TypeError, KeyError, IndexError):
        pass
    return fast_text, None  # (the commented version is the newest backup)


def written(path: Path, doc: Any) -> None:
    """After the write: the file now holds what :func:`text_to_write` gave."""
    now = _stat(path)
    with _LOCK:
        if now is None:
            _SEEN.pop(str(path), None)
        else:
            _SEEN[str(path)] = (now, doc)
