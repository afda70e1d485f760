"""Several files of one campaign folder replaced as one: all of them or none.

A campaign is a folder of files (``campaign.toml``, ``gangs/*.toml``,
``battles/*.toml``); a post-battle sequence changes two gangs and a battle at once,
the migration of an old folder every file. :class:`Transaction` writes each new
text to a side file (``.<name>.<random>.jnew``, never taken for a stale temp),
keeps the current versions in the backups, then writes the journal
(``<campaign>/.journal.json``: which side file becomes which file, which files go),
atomically: that write is the commit point. The renames follow; a kill before the
journal leaves the old files (the side files are swept on the next open), a kill
after it leaves a journal that :func:`roll_forward` finishes (every open of the
folder, under its lock, does so first). Paths in the journal are relative to the
campaign folder; a journal naming anything outside it is refused.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from .atomic import _link_or_copy, atomic_write_text, backup_file, fsync_dir, guarded_write

JOURNAL_FILE = ".journal.json"
_SIDE_RE = re.compile(r"^\..+\.[0-9a-f]{8}\.jnew$")


def _inside(root: Path, rel: str) -> Path:
    path = (root / rel)
    parts = Path(rel).parts
    if Path(rel).is_absolute() or ".." in parts or not parts:
        raise ValueError(f"journal path outside the campaign: {rel!r}")
    return path


@dataclass
class Transaction:
    """Files of the campaign folder ``root`` to replace or remove together."""

    root: Path
    writes: list[tuple[Path, bytes, Path | None]] = field(default_factory=list)  # path, data, backup dir
    deletes: list[tuple[Path, Path | None]] = field(default_factory=list)  # path, where a copy is kept

    def write(self, path: Path, text: str, backup_dir: Path | None = None) -> None:
        with guarded_write(path):
            self.writes.append((Path(path), text.encode("utf-8"), backup_dir))

    def delete(self, path: Path, keep_in: Path | None = None) -> None:
        self.deletes.append((Path(path), keep_in))

    def __bool__(self) -> bool:
        return bool(self.writes or self.deletes)

    def commit(self, *, durable: bool = True) -> None:
        """Write everything (WriteFailed for a disk fault: then nothing changed).

        ``durable``: fsync each side file (else one ``os.sync`` before the journal,
        for the migration's thousands of files)."""
        root = self.root
        sides: list[Path] = []
        entries: list[list[str]] = []
        try:
            for path, data, backup_dir in self.writes:
                with guarded_write(path):
                    path.parent.mkdir(parents=True, exist_ok=True)
                    side = path.with_name(f".{path.name}.{os.urandom(4).hex()}.jnew")
                    fd = os.open(side, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o644)
                    sides.append(side)
                    try:
                        view = memoryview(data)
                        while view:
                            view = view[os.write(fd, view):]
                        if durable:
                            os.fsync(fd)
                    finally:
                        os.close(fd)
                    if backup_dir is not None and path.exists():
                        backup_file(path, backup_dir)
                entries.append([str(side.relative_to(root)), str(path.relative_to(root))])
            deletes = []
            for path, keep_in in self.deletes:
                with guarded_write(path):
                    if keep_in is not None and path.exists():
                        keep_in.mkdir(parents=True, exist_ok=True)
                        target = keep_in / f"{path.name}.deleted.bak"
                        n = 2
                        while target.exists():
                            target = keep_in / f"{path.name}.deleted-{n}.bak"
                            n += 1
                        _link_or_copy(path, target)
                deletes.append(str(path.relative_to(root)))
            if not durable and hasattr(os, "sync"):
                os.sync()
            atomic_write_text(root / JOURNAL_FILE, json.dumps({"writes": entries, "deletes": deletes}))
        except BaseException:
            for side in sides:
                try:
                    side.unlink()
                except OSError:
                    pass
            raise
        roll_forward(root)


def roll_forward(root: Path) -> bool:
    """Finish a committed transaction left by a kill (or just written); sweep the side
    files of one that never committed. True if a journal was finished."""
    journal = root / JOURNAL_FILE
    try:
        text = journal.read_text(encoding="utf-8")
    except FileNotFoundError:
        _sweep(root)
        return False
    except OSError:
        return False
    try:
        plan = json.loads(text)
        writes = [(_inside(root, a), _inside(root, b)) for a, b in plan["writes"]]
        deletes = [_inside(root, p) for p in plan["deletes"]]
    except (ValueError, KeyError, TypeError):
        # not ours or torn (it is written atomically: never by us): kept aside, not obeyed
        with guarded_write(journal):
            os.replace(journal, root / f"{JOURNAL_FILE}.bad")
        _sweep(root)
        return False
    folders: set[Path] = set()
    with guarded_write(root):
        for side, target in writes:
            if side.exists():
                os.replace(side, target)
                folders.add(target.parent)
        for path in deletes:
            try:
                path.unlink()
                folders.add(path.parent)
            except FileNotFoundError:
                pass
        for folder in folders:
            fsync_dir(folder)
        journal.unlink()
        fsync_dir(root)
    _sweep(root)
    return True


def _sweep(root: Path) -> None:
    """Side files of transactions that never committed (no journal names them)."""
    for folder in (root, *(p for p in _subfolders(root))):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            if name[:1] == "." and name.endswith(".jnew") and _SIDE_RE.match(name):
                try:
                    (folder / name).unlink()
                except OSError:
                    pass


def _subfolders(root: Path) -> list[Path]:
    from .files import BATTLES_DIR, GANGS_DIR, RECORDS_DIR

    return [root / BATTLES_DIR, root / GANGS_DIR, root / RECORDS_DIR]
