"""Comments in a battle file survive the app's next save (the README promises it).

Battle files are written by the fast writer (``tomlemit``: the tracker saves on every
key), which writes data, not comments. A file someone commented by hand is updated in
place with tomlkit instead (``tomldoc.merge``: unchanged parts keep their comments), as
campaign.toml is; the text is used only if it reads back through the guarded reader as
the data (else the fast writer's text is, and the commented version stays in the
backups). What each battle file held as last seen (its stat and, if it had comments,
its tomlkit document) is kept here, so a comment-free file costs one ``stat`` a save.
"""

from __future__ import annotations

import os
import re
import threading
from pathlib import Path
from typing import Any

#: path -> (the file's stat key as last seen, its tomlkit document or None: no comments)
_SEEN: dict[str, tuple[tuple[int, int, int], Any]] = {}
_LOCK = threading.Lock()

# strings, so that a "#" inside one is no comment (as store.has_comments)
_STRINGS = r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\''


def has_comments(text: str) -> bool:
    return "#" in text and "#" in re.sub(_STRINGS, "", text)


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
        doc = seen[1]
        if doc is None:
            return fast_text, None  # (the hot path: no comments to keep)
    else:
        from .errors import SaveError
        from .files import read_text

        try:
            old = read_text(path)
        except SaveError:
            return fast_text, None
        if not has_comments(old):
            return fast_text, None
        import tomlkit

        from .files import parse_text

        try:
            parse_text(path, old)  # the guarded reader first: tomlkit has no guards
            doc = tomlkit.parse(old)
        except Exception:  # noqa: BLE001 - refused, or tomlkit disagrees: the fast writer's text
            return fast_text, None
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
