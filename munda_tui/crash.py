"""The last line of defence: an error nothing else caught becomes a crash file.

Every expected problem (a save that does not load, a full disk, a bad number) has its
own message where it happens. Should anything still escape, the player sees a short
note instead of a traceback: where the traceback was written (the user log folder of
platformdirs, or ``MUNDA_TUI_LOG_DIR``), and that their saves are intact (every save
is written whole or not at all, so a crash cannot leave half of one). The program then
exits with :data:`CRASH_EXIT` (non-zero).
"""

from __future__ import annotations

import datetime
import os
import sys
import traceback
from pathlib import Path

#: The exit status after a crash (EX_SOFTWARE).
CRASH_EXIT = 70


def log_dir() -> Path:
    """Where crash files go: ``MUNDA_TUI_LOG_DIR``, else the user log folder."""
    env = os.environ.get("MUNDA_TUI_LOG_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_log_dir("munda-tui", appauthor=False))


def write_crash_file(error: BaseException, where: str = "") -> Path | None:
    """Write ``error``'s traceback to a new crash file; its path (None if even that fails)."""
    from . import __version__

    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    text = (
        f"munda-tui {__version__} crashed{f' in {where}' if where else ''} at "
        f"{datetime.datetime.now().isoformat(timespec='seconds')}\n"
        f"python {sys.version.split()[0]} on {sys.platform}; argv {sys.argv[1:]!r}\n\n"
        + "".join(traceback.format_exception(type(error), error, error.__traceback__))
    )
    try:
        directory = log_dir()
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"crash-{stamp}-{os.getpid()}.txt"
        n = 2
        while path.exists():
            path = directory / f"crash-{stamp}-{os.getpid()}-{n}.txt"
            n += 1
        path.write_text(text, encoding="utf-8", errors="replace")
    except OSError:
        return None
    return path


def crash_message(path: Path | None, error: BaseException | None = None) -> str:
    """What the player reads after a crash."""
    what = f" ({type(error).__name__})" if error is not None else ""
    where = (
        f"The details are in {path}; please attach that file to a bug report."
        if path is not None
        else "The details could not be written to the log folder."
    )
    return (
        f"munda-tui stopped on an unexpected error{what}. {where}\n"
        "Your saves are intact: every save is written whole or not at all, and the "
        "last one made before the error is on disk."
    )


def report_crash(error: BaseException, where: str = "") -> int:
    """Write the crash file, tell the player on stderr; the exit status to return."""
    path = write_crash_file(error, where)
    try:
        print(crash_message(path, error), file=sys.stderr)
    except (OSError, ValueError):  # pragma: no cover - stderr gone
        pass
    return CRASH_EXIT
