"""Errors the saves raise, and how a problem is placed at a line and column."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from .codec import KeyPath, ValidationError

if TYPE_CHECKING:  # tomllib loads when a file is parsed: an unchanged campaign opens from the cache
    import tomllib


class SaveError(Exception):
    """A save that does not read, parse or validate. It is never overwritten.

    ``str(error)`` is ``path:line:column: message`` (line and column 1-based).
    """

    def __init__(self, path: Path | str, line: int, column: int, message: str) -> None:
        self.path = Path(path)
        self.line = line
        self.column = column
        self.message = message
        super().__init__(f"{self.path}:{line}:{column}: {message}")


class WriteFailed(SaveError, OSError):
    """A file could not be written (full disk, read-only folder, a folder where a file
    should be...). The previous version of the file is untouched.

    ``str(error)`` is ``path: not saved: reason``; ``reason`` alone is for a dialog.
    """

    def __init__(self, path: Path | str, reason: str) -> None:
        self.path = Path(path)
        self.line = 0
        self.column = 0
        self.reason = reason
        self.message = f"not saved: {reason}"
        Exception.__init__(self, f"{self.path}: not saved: {reason}")


def disk_reason(error: OSError, path: Path | str | None = None) -> str:
    """What an OSError from a write means, in words a player can act on."""
    where = Path(error.filename) if error.filename else (Path(path) if path is not None else None)
    said = f" ({error.strerror})" if error.strerror else ""
    return _reason(error, where) + said


def _reason(error: OSError, where: Path | None) -> str:
    import errno

    code = error.errno
    if code in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        return "the disk is full (free some space, then try again)"
    if code == errno.EROFS:
        return "the data folder is on a read-only disk"
    if code in (errno.EACCES, errno.EPERM):
        return f"permission denied{f' for {where}' if where else ''}"
    if code == errno.EISDIR or isinstance(error, IsADirectoryError):
        return f"{where or 'the path'} is a folder where a file should be (move it away)"
    if code in (errno.ENOTDIR, errno.EEXIST) or isinstance(error, (NotADirectoryError, FileExistsError)):
        return f"{where or 'a path'} is a file where a folder should be (move it away)"
    if code == errno.ENAMETOOLONG:
        return "the file name is too long for this disk"
    return "the file system refused the write" if error.strerror else str(error)


class CampaignLocked(Exception):
    """The campaign is open in another munda-tui (its ``.lock`` is held)."""

    def __init__(self, lock_path: Path | str, pid: int | None = None, host: str = "", message: str = "") -> None:
        self.path = Path(lock_path)
        self.pid = pid
        self.host = host
        if not message:
            who = f"pid {pid}" if pid else "another program"
            if host:
                who += f" on {host}"
            message = (
                f"Campaign '{self.path.parent.name}' is open in another munda-tui ({who}). "
                f"Close it there first. If that program is no longer running, delete {self.path}."
            )
        self.message = message
        super().__init__(message)


# (patterns compiled on first use, by re's own cache: only a broken file needs them)
_AT_RE = r"\s*\(at line (\d+), column (\d+)\)\s*$"
_AT_END_RE = r"\s*\(at end of document\)\s*$"


def decode_error(path: Path, data: bytes, error: UnicodeDecodeError) -> SaveError:
    start = error.start
    line = data.count(b"\n", 0, start) + 1
    column = start - (data.rfind(b"\n", 0, start) + 1) + 1
    return SaveError(path, line, column, f"not valid UTF-8 text (byte 0x{data[start]:02x})")


def parse_error(path: Path, text: str, error: tomllib.TOMLDecodeError) -> SaveError:
    message = str(error)
    m = re.search(_AT_RE, message)
    if m:
        line, column = int(m.group(1)), int(m.group(2))
        message = message[: m.start()]
    else:
        lines = text.split("\n")
        line, column = len(lines), len(lines[-1]) + 1
        message = re.sub(_AT_END_RE, "", message)
        if re.search(_AT_END_RE, str(error)):
            message += " (at the end of the file)"
    return SaveError(path, line, column, f"TOML syntax: {message}")


# --- placing a key path in the text --------------------------------------------

_KEY_LINE = r'^(\s*)((?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\'))*)\s*='
_KEY_PART = r'\s*([A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')\s*(?:\.|$)'


def _dotted(text: str) -> tuple[str, ...] | None:
    parts: list[str] = []
    pos = 0
    text = text.strip()
    while pos < len(text):
        m = re.compile(_KEY_PART).match(text, pos)
        if m is None:
            return None
        raw = m.group(1)
        if raw.startswith('"') and "\\" not in raw:  # a basic string without escapes
            raw = raw[1:-1]
        elif raw.startswith('"'):
            import tomllib

            try:
                raw = tomllib.loads(f"k = {raw}")["k"]
            except tomllib.TOMLDecodeError:
                return None
        elif raw.startswith("'"):
            raw = raw[1:-1]
        parts.append(raw)
        pos = m.end()
    return tuple(parts) if parts else None


def key_positions(text: str) -> dict[KeyPath, tuple[int, int]]:
    """Where each table header and key starts: {key path: (line, column)}.

    A best-effort scan for placing validation errors; it follows ``[table]``
    and ``[[array]]`` headers and ``key = value`` lines, skipping multi-line
    strings.
    """
    positions: dict[KeyPath, tuple[int, int]] = {}
    counts: dict[tuple[str, ...], int] = {}
    prefix: KeyPath = ()
    in_string: str | None = None

    def indexed(keys: tuple[str, ...]) -> KeyPath:
        out: list[str | int] = []
        for i, k in enumerate(keys):
            out.append(k)
            n = counts.get(keys[: i + 1])
            if n is not None:
                out.append(n)
        return tuple(out)

    for lineno, line in enumerate(text.split("\n"), 1):
        if in_string is not None:
            if line.count(in_string) % 2 == 1:
                in_string = None
            continue
        stripped = line.lstrip()
        col = len(line) - len(stripped) + 1
        if stripped.startswith("[["):
            end = stripped.find("]]")
            keys = _dotted(stripped[2:end]) if end > 0 else None
            if keys:
                counts[keys] = counts.get(keys, -1) + 1
                for other in list(counts):
                    if len(other) > len(keys) and other[: len(keys)] == keys:
                        del counts[other]
                prefix = indexed(keys)
                positions.setdefault(prefix, (lineno, col))
            continue
        if stripped.startswith("["):
            end = stripped.find("]")
            keys = _dotted(stripped[1:end]) if end > 0 else None
            if keys:
                prefix = indexed(keys)
                positions.setdefault(prefix, (lineno, col))
            continue
        m = re.match(_KEY_LINE, line)
        if m:
            keys = _dotted(m.group(2))
            if keys:
                positions.setdefault((*prefix, *keys), (lineno, col))
            rest = line[m.end():]
            for quote in ('"""', "'''"):
                if rest.count(quote) % 2 == 1:
                    in_string = quote
                    break
    return positions


def locate(text: str, keypath: KeyPath) -> tuple[int, int]:
    """The line and column of ``keypath`` (or its nearest enclosing key) in ``text``."""
    positions = key_positions(text)
    for n in range(len(keypath), 0, -1):
        pos = positions.get(tuple(keypath[:n]))
        if pos is not None:
            return pos
    return (1, 1)


def validation_error(path: Path, text: str | None, error: ValidationError) -> SaveError:
    line, column = locate(text, error.keypath) if text is not None else (1, 1)
    return SaveError(path, line, column, str(error))
