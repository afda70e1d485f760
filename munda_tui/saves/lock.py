"""The campaign lock: a ``.lock`` file holding the owner's pid and host name.

On POSIX the file is also ``flock``-ed while held, so the kernel releases it
when the owner dies. A lock is taken over when it is stale: nobody holds the
``flock`` and the pid it names (on this host) is no longer running. A lock
naming another host is respected (a campaign folder shared over a network or
a sync tool); the message says how to clear it by hand.
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

from .atomic import guarded_write, pid_alive
from .errors import CampaignLocked

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = ".lock"


def hostname() -> str:
    return socket.gethostname()


def read_lock(path: Path) -> tuple[int | None, str]:
    """(pid, host) named in a lock file; (None, "") when unreadable."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None, ""
    pid: int | None = None
    host = ""
    for line in text.splitlines():
        key, _, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if key == "pid" and value.isdigit():
            pid = int(value)
        elif key == "host":
            host = value
    return pid, host


class Lock:
    """A held campaign lock. Release with :meth:`release` (idempotent)."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path = path
        self._fd = fd
        self.held = True

    @classmethod
    def acquire(cls, directory: Path) -> Lock:
        """Take the lock: CampaignLocked if it is held, WriteFailed if it cannot be
        written (a read-only or full disk, a folder named ``.lock``)."""
        path = Path(directory) / LOCK_NAME
        with guarded_write(path):
            if fcntl is None:  # pragma: no cover - Windows
                return cls._acquire_pidfile(path)
            return cls._acquire_flock(path)

    @classmethod
    def _acquire_flock(cls, path: Path) -> Lock:
        assert fcntl is not None
        for _attempt in range(10):
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                pid, host = read_lock(path)
                raise CampaignLocked(path, pid, host) from None
            try:
                same_file = os.path.samestat(os.fstat(fd), os.stat(path))
            except FileNotFoundError:
                same_file = False
            if not same_file:  # the previous owner removed it meanwhile: retry
                os.close(fd)
                continue
            pid, host = read_lock(path)
            if pid is not None and host and host != hostname():
                fcntl.flock(fd, fcntl.LOCK_UN)
                os.close(fd)
                raise CampaignLocked(path, pid, host)
            lock = cls(path, fd)
            try:
                lock._write_owner()
            except OSError:
                lock.release()
                raise
            return lock
        raise CampaignLocked(path, message=f"Could not take the lock {path}; try again.")  # pragma: no cover

    @classmethod
    def _acquire_pidfile(cls, path: Path) -> Lock:  # pragma: no cover - Windows
        for _attempt in range(10):
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                pid, host = read_lock(path)
                if pid is not None and (host and host != hostname() or pid_alive(pid)):
                    raise CampaignLocked(path, pid, host) from None
                try:
                    path.unlink()
                except FileNotFoundError:
                    pass
                continue
            lock = cls(path, fd)
            lock._write_owner()
            return lock
        raise CampaignLocked(path, message=f"Could not take the lock {path}; try again.")

    def _write_owner(self) -> None:
        assert self._fd is not None
        data = f"pid={os.getpid()}\nhost={hostname()}\n".encode()
        os.ftruncate(self._fd, 0)
        os.pwrite(self._fd, data, 0) if hasattr(os, "pwrite") else os.write(self._fd, data)

    def release(self) -> None:
        if not self.held:
            return
        self.held = False
        try:
            self.path.unlink()
        except OSError:  # gone already, or a read-only folder: the flock is what counts
            pass
        if self._fd is not None:
            if fcntl is not None:
                try:
                    fcntl.flock(self._fd, fcntl.LOCK_UN)
                except OSError:  # pragma: no cover
                    pass
            os.close(self._fd)
            self._fd = None

    def __del__(self) -> None:  # pragma: no cover - safety net
        if getattr(self, "held", False) and getattr(self, "_fd", None) is not None:
            try:
                os.close(self._fd)  # type: ignore[arg-type]
            except OSError:
                pass
