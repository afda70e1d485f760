"""Crash-safe file writes, backups and stale temp clean-up.

A write goes to a temp file in the same directory, is flushed and fsynced,
then ``os.replace``-d over the target and the directory is fsynced. Before the
replace, the previous version is hard-linked (copied where links are not
possible) into a backup directory; the last ``keep`` versions of each file are
kept there as ``<name>.<sequence>.bak`` (the highest sequence is the newest).

Temp files are named ``.<name>.<pid>.<random>.tmp``; :func:`clean_stale_temps`
removes the ones whose writer is gone.
"""

from __future__ import annotations

import errno
import os
import re
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .errors import WriteFailed, disk_reason

KEEP_BACKUPS = 5

_TEMP_RE = re.compile(r"^\..+\.(\d+)\.[0-9a-f]+\.tmp$")
_BACKUP_RE = re.compile(r"^(?P<name>.+)\.(?P<seq>\d+)\.bak$")


@contextmanager
def guarded_write(path: Path | str) -> Iterator[None]:
    """The one place a write's OSError becomes a :class:`WriteFailed` with its reason.

    Every write of the saves (a file, a backup, the lock, a new folder) runs inside it,
    so a full disk or a read-only folder reaches the screens as one kind of error that
    says why and leaves the previous version in place.
    """
    try:
        yield
    except WriteFailed:
        raise
    except OSError as error:
        raise WriteFailed(path, disk_reason(error, path)) from None
    except UnicodeEncodeError:
        raise WriteFailed(path, "the text holds a character that cannot be saved (a lone surrogate)") from None


def temp_path_for(path: Path) -> Path:
    # os.urandom(n).hex() is secrets.token_hex(n), without importing secrets (and hmac) to start
    return path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")


def is_temp_file(path: Path) -> bool:
    return _TEMP_RE.match(path.name) is not None


def fsync_dir(directory: Path) -> None:
    """Make a rename or link in ``directory`` durable (no-op where unsupported)."""
    if os.name == "nt":  # pragma: no cover - directories cannot be opened there
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError as error:  # pragma: no cover - some filesystems refuse
        if error.errno not in (errno.EINVAL, errno.ENOTSUP):
            raise
    finally:
        os.close(fd)


class _DirSyncer:
    """Fsyncs directories on a background thread, off the key path.

    A battle event's file is written, fsynced and renamed before the screen moves
    on (so kill -9 or a crash of the app never loses it); making the *rename*
    survive a power cut needs the directory fsynced too, which is what this does a
    moment later. Until then a power cut leaves the previous, complete version.
    """

    def __init__(self) -> None:
        self._pending: set[Path] = set()
        self._cond = threading.Condition()
        self._busy = False
        self._thread: threading.Thread | None = None

    def soon(self, directory: Path) -> None:
        with self._cond:
            self._pending.add(directory)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="munda-dir-sync", daemon=True)
                self._thread.start()
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending:
                    if not self._cond.wait(timeout=5.0):
                        self._thread = None
                        return
                batch, self._pending = self._pending, set()
                self._busy = True
            try:
                for directory in batch:
                    try:
                        fsync_dir(directory)
                    except OSError:  # pragma: no cover - the folder went away
                        pass
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()

    def wait(self) -> None:
        """Block until every directory asked for so far is fsynced."""
        with self._cond:
            batch, self._pending = self._pending, set()
        for directory in batch:
            try:
                fsync_dir(directory)
            except OSError:  # pragma: no cover
                pass
        with self._cond:
            while self._busy:
                self._cond.wait()


_DIR_SYNCER = _DirSyncer()


def sync_pending_dirs() -> None:
    """Finish the deferred directory fsyncs (on closing a campaign)."""
    _DIR_SYNCER.wait()


def backups_of(path: Path, backup_dir: Path) -> list[Path]:
    """The rotated backups of ``path`` in ``backup_dir``, newest first."""
    found: list[tuple[int, Path]] = []
    try:
        entries = list(os.scandir(backup_dir))
    except (FileNotFoundError, NotADirectoryError):
        return []
    for entry in entries:
        m = _BACKUP_RE.match(entry.name)
        if m and m.group("name") == path.name:
            found.append((int(m.group("seq")), Path(entry.path)))
    found.sort(reverse=True)
    return [p for _, p in found]


def _link_or_copy(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def backup_file(path: Path, backup_dir: Path, keep: int = KEEP_BACKUPS) -> Path | None:
    """Keep the current version of ``path`` as the newest backup; prune to ``keep``.

    Returns the backup's path, or None when ``path`` does not exist.
    """
    if not path.exists():
        return None
    backup_dir.mkdir(parents=True, exist_ok=True)
    existing = backups_of(path, backup_dir)
    seq = 1
    if existing:
        m = _BACKUP_RE.match(existing[0].name)
        assert m is not None
        seq = int(m.group("seq")) + 1
    target = backup_dir / f"{path.name}.{seq:06d}.bak"
    # Prune first, to keep - 1, then link the new one: a crash between the two leaves
    # fewer backups, never more than ``keep`` (and a crash earlier left extra ones,
    # which this prunes too).
    for old in existing[max(keep - 1, 0):]:
        try:
            old.unlink()
        except FileNotFoundError:  # pragma: no cover - pruned by someone else
            pass
    _link_or_copy(path, target)
    return target


def atomic_write_bytes(
    path: Path,
    data: bytes,
    *,
    backup_dir: Path | None = None,
    keep: int = KEEP_BACKUPS,
    durable: bool = True,
    sync_dir_later: bool = False,
) -> None:
    """Replace ``path`` with ``data`` so that a crash leaves the old or the new file.

    With ``backup_dir`` the previous version is kept there (last ``keep``).
    ``sync_dir_later`` hands the directory fsync to a background thread (the
    battle tracker's per-event saves, which sit on the key path).
    """
    path = Path(path)
    with guarded_write(path):
        _atomic_write(path, data, backup_dir, keep, durable, sync_dir_later)


def _atomic_write(
    path: Path, data: bytes, backup_dir: Path | None, keep: int, durable: bool, sync_dir_later: bool
) -> None:
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    tmp = temp_path_for(path)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
    try:
        try:
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if backup_dir is not None:
            backup_file(path, backup_dir, keep)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise
    if durable:
        if sync_dir_later:
            _DIR_SYNCER.soon(directory)
        else:
            fsync_dir(directory)


def atomic_write_text(path: Path, text: str, **kwargs: object) -> None:
    with guarded_write(path):
        data = text.encode("utf-8")
    atomic_write_bytes(path, data, **kwargs)  # type: ignore[arg-type]


def pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    if os.name == "nt":  # pragma: no cover
        import ctypes

        handle = ctypes.windll.kernel32.OpenProcess(0x1000, False, pid)  # type: ignore[attr-defined]
        if not handle:
            return False
        ctypes.windll.kernel32.CloseHandle(handle)  # type: ignore[attr-defined]
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:  # pragma: no cover
        return False
    return True


def clean_stale_temps(directory: Path, *, recursive: bool = True, all_temps: bool = False) -> list[Path]:
    """Remove temp files left by writers that died mid-write.

    A temp file is stale when its writer's pid is no longer running, or always
    with ``all_temps`` (the caller holds the lock, so nobody else writes here).
    Returns the removed paths.
    """
    removed: list[Path] = []
    if not directory.is_dir():
        return removed
    walker = os.walk(directory) if recursive else [(str(directory), [], os.listdir(directory))]
    for root, dirs, files in walker:
        if os.path.basename(root) == ".git":
            dirs[:] = []  # (a league's git: only its top holds a file of ours, the sync's mark)
        for name in files:
            if name[:1] != "." or not name.endswith(".tmp"):  # (the regex for the few that may be)
                continue
            m = _TEMP_RE.match(name)
            if m is None:
                continue
            pid = int(m.group(1))
            if all_temps or pid != os.getpid() and not pid_alive(pid):
                p = Path(root) / name
                try:
                    p.unlink()
                    removed.append(p)
                except OSError:  # gone already, or a read-only folder: left for later
                    pass
    return removed
