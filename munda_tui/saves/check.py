"""``munda-tui check [PATH]``: does every save load?

Read-only: no lock is taken, nothing is migrated or written.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from .errors import SaveError
from .files import BACKUPS_DIR, BATTLES_DIR, CAMPAIGN_FILE, CAMPAIGNS_DIR, CONFIG_FILE, battle_number
from .loading import load_any
from .paths import default_data_dir


def _campaign_files(directory: Path) -> list[Path]:
    files = [directory / CAMPAIGN_FILE]
    if (directory / "catalogue.toml").is_file():  # the campaign's catalogue (saves.catalogue)
        files.append(directory / "catalogue.toml")
    battles = directory / BATTLES_DIR
    if battles.is_dir():
        for name in sorted(os.listdir(battles)):
            p = battles / name
            if not name.startswith(".") and p.is_file() and battle_number(p) is not None:
                files.append(p)
    return files


def files_to_check(path: Path) -> list[Path]:
    """The save files under ``path`` (a file, a campaign folder, a campaigns
    folder or the data dir). Backups, temp files and the lock are skipped."""
    path = Path(path)
    if not path.is_dir():
        return [path]
    if (path / CAMPAIGN_FILE).exists() or path.parent.name == CAMPAIGNS_DIR:
        return _campaign_files(path)
    root = path / CAMPAIGNS_DIR if (path / CAMPAIGNS_DIR).is_dir() else path
    files: list[Path] = []
    if root is not path and (path / CONFIG_FILE).is_file():
        files.append(path / CONFIG_FILE)
    for name in sorted(os.listdir(root)):
        sub = root / name
        if name.startswith(".") or name == BACKUPS_DIR or not sub.is_dir():
            continue
        files.extend(_campaign_files(sub))
    return files


def _export_problem(file: Path) -> str | None:
    """For a campaign export (``munda-tui export``): "" when it imports, else why not;
    None when the file is not an export (its first line says so)."""
    try:
        with open(file, "rb") as fh:
            head = fh.read(200)
    except OSError:
        return None
    first = head.split(b"\n", 1)[0].replace(b" ", b"").replace(b"'", b'"')
    if first != b'format="munda-tui-campaign"':
        return None
    from .export import ExportError, read_export

    try:
        read_export(file)
    except ExportError as error:
        text = str(error)
        return text if text.startswith(f"{file}:") and text[len(str(file)) + 1:][:1].isdigit() \
            else f"{file}:1:1: {text.removeprefix(f'{file}: ')}"
    return ""


def check_paths(paths: Iterable[Path | str] | None = None) -> list[str]:
    """``path:line:col: message`` for every save under ``paths`` that does not
    load (empty when all load). No paths: the data dir."""
    targets = [Path(p) for p in paths or []]
    if not targets:
        data_dir = default_data_dir()
        if not data_dir.exists():  # nothing saved yet
            return []
        targets = [data_dir]
    problems: list[str] = []
    for target in targets:
        if not target.exists():
            problems.append(str(SaveError(target, 1, 1, "no such file or folder")))
            continue
        for file in files_to_check(target):
            export = _export_problem(file) if file.is_file() else None
            if export is not None:  # an export file: does it import?
                if export:
                    problems.append(export)
                continue
            try:
                load_any(file)
            except SaveError as error:
                problems.append(str(error))
    return problems
