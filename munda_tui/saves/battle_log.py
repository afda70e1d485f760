"""A battle's journal: the tracker's record appended, one line a key, not rewritten.

The tracker saves its record (the battle file's ``battle`` part: the log, the redo stack,
what each owner has seen...) after every key. Writing the whole part again made a key's
cost grow with the log (every event turned into TOML and the file rewritten). Instead,
each save appends one line to ``battles/<stem>.events`` beside the battle's file: what
changed since the line before, as JSON:

``{"keep": K, "log": [new events], "set": {other keys that changed}, "drop": [keys gone]}``

- ``keep``: the log's first K events are as before (an undo keeps fewer); ``log``: the
  events after them. ``set``/``drop``: the part's other keys, whole (they are small).
- Each line is absolute (keep K, then these): applying the journal again on a file that
  already holds some or all of it gives the same part, so a crash between folding the
  journal into the battle file and deleting it loses and doubles nothing.
- A line is written whole with one ``write`` and fsynced before the key returns: a crash
  at any byte leaves every line whose append completed, and at most a torn last line,
  which is left out when read (its key's save had not returned).

The journal is folded into the battle file (the TOML a player reads) when the battle
moves to another stage, when the tracker is left, when the campaign is closed or opened,
and every :data:`FOLD_EVERY` lines. It is never shared (the league's ignore list) and
never read by anything but :func:`apply`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .atomic import guarded_write

if TYPE_CHECKING:
    from .errors import SaveError

SUFFIX = ".events"
#: lines after which the journal is folded into the battle file (a bound on its size
#: and on the time an open spends applying it)
FOLD_EVERY = 500


def path_of(battle_file: Path) -> Path:
    """The journal beside a battle's file (``<stem>.events``)."""
    return battle_file.with_suffix(SUFFIX)


def delta(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    """The line that turns the part ``before`` into ``after`` (None: nothing changed).
    The log's events are compared by identity first (the record hands the same event
    data again while the event is unchanged), then by value."""
    old_log: list[Any] = before.get("log", []) or []
    new_log: list[Any] = after.get("log", []) or []
    keep = min(len(old_log), len(new_log))
    if old_log[:keep] != new_log[:keep]:  # (compared in C, each event by identity first)
        keep = next(i for i, (a, b) in enumerate(zip(old_log, new_log)) if a is not b and a != b)
    line: dict[str, Any] = {}
    if keep != len(old_log) or keep != len(new_log):
        line["keep"] = keep
        line["log"] = new_log[keep:]
    changed = {k: v for k, v in after.items() if k != "log" and (k not in before or before[k] != v)}
    dropped = [k for k in before if k != "log" and k not in after]
    if changed:
        line["set"] = changed
    if dropped:
        line["drop"] = dropped
    return line or None


def apply(part: dict[str, Any], lines: list[dict[str, Any]]) -> dict[str, Any]:
    """The part with the journal's lines applied in order (a new dict)."""
    out = dict(part)
    log = list(out.get("log", []) or [])
    for line in lines:
        if "keep" in line:
            log = log[: int(line["keep"])] + list(line.get("log", []))
        for k, v in (line.get("set") or {}).items():
            out[k] = v
        for k in line.get("drop") or []:
            out.pop(k, None)
    if log or "log" in out:
        out["log"] = log
    return out


def append(path: Path, line: dict[str, Any]) -> None:
    """One line added, whole, and on disk before this returns (WriteFailed when the
    disk refuses: nothing of it counts)."""
    data = (json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    with guarded_write(path):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            start = os.lseek(fd, 0, os.SEEK_END)
            try:
                written = os.write(fd, data)
                if written != len(data):  # a short write (a full disk): take it back
                    raise OSError(28, "No space left on device")
                os.fsync(fd)
            except OSError:
                os.ftruncate(fd, start)
                raise
        finally:
            os.close(fd)


def read(path: Path) -> list[dict[str, Any]]:
    """Every whole line of the journal (none when there is no journal). A torn last line
    (a crash in the middle of its append) is left out; so is everything after a line
    that is not a journal line (a hand edit), which is never applied."""
    return _scan(path)[0]


def _scan(path: Path) -> tuple[list[dict[str, Any]], "SaveError | None"]:
    """The journal's whole lines up to the first that is not a journal line, and that
    line's problem (``path:line:col``; None when every line is one)."""
    from .errors import SaveError

    try:
        raw = path.read_bytes()
    except OSError:  # (none, or unreadable: as before, nothing applied)
        return [], None
    out: list[dict[str, Any]] = []
    for number, chunk in enumerate(raw.split(b"\n")[:-1], 1):  # after the last newline: never whole
        try:
            line = json.loads(chunk.decode("utf-8"))
        except UnicodeDecodeError as error:
            return out, SaveError(path, number, error.start + 1, "not UTF-8")
        except json.JSONDecodeError as error:
            return out, SaveError(path, number, error.colno, f"not a journal line: {error.msg}")
        except ValueError as error:  # pragma: no cover - (json raises JSONDecodeError)
            return out, SaveError(path, number, 1, f"not a journal line: {error}")
        if not _well_formed(line):
            return out, SaveError(path, number, 1, "not a journal line: expected "
                                  '{"keep": N, "log": [...], "set": {...}, "drop": [...]}')
        out.append(line)
    return out, None


def load(path: Path, part: dict[str, Any]) -> tuple[dict[str, Any] | None, "SaveError | None"]:
    """The battle's ``battle`` part with its journal applied, as the app folds it (None:
    no line to apply), and
    the journal's first problem (``path:line:col: message``; None when there is none):
    a line that is not a journal line, or the first whose change makes a part the battle
    file would not load with (``battle_schema.check_part``). That line and every line
    after it are left out. ``munda-tui check`` says the same problem (``saves.check``)."""
    from . import battle_schema
    from .codec import ValidationError
    from .errors import SaveError

    lines, problem = _scan(path)
    if not lines:
        return None, problem

    def fine(count: int) -> ValidationError | None:
        try:
            battle_schema.check_part("battle", apply(part, lines[:count]))
        except ValidationError as error:
            return error
        except RecursionError:
            return ValidationError(("battle",), "nested too deeply")
        return None

    wrong = fine(len(lines))
    if wrong is None:
        return apply(part, lines), problem
    good, bad = 0, len(lines)  # the part before the journal loads (the file did): the
    while bad - good > 1:        # first line after which it does not, by halves
        middle = (good + bad) // 2
        said = fine(middle)
        if said is None:
            good = middle
        else:
            bad, wrong = middle, said
    assert wrong is not None
    return apply(part, lines[:good]), SaveError(
        path, bad, 1, f"{wrong} (after this line's change: it and the lines after it are left out)")


def _well_formed(line: Any) -> bool:
    if not isinstance(line, dict) or not set(line) <= {"keep", "log", "set", "drop"}:
        return False
    if "keep" in line and not (type(line["keep"]) is int and line["keep"] >= 0
                               and isinstance(line.get("log", []), list)):
        return False
    return isinstance(line.get("set", {}), dict) and isinstance(line.get("drop", []), list)


def remove(path: Path) -> None:
    try:
        path.unlink()
    except FileNotFoundError:
        pass


__all__ = ["FOLD_EVERY", "SUFFIX", "append", "apply", "delta", "load", "path_of", "read", "remove"]
