"""``munda-tui check [PATH]``: does every save load?

Each file is known by its place, and checked as the app reads it: ``config.toml`` (the
config; what the app says of its keymap and theme through ``config_check``), Arbitrator
table files in ``<config>/tables/`` or ``<campaign>/tables/`` (applied in the app's
order onto the packaged tables), packs in ``<config>/packs/`` and a campaign's
``catalogue.toml``, ``campaign.toml``, gang files in ``gangs/``, battle files in
``battles/`` and the tracker's journals beside them (``<stem>.events``), campaign exports.
Read-only: no lock is taken, nothing is migrated or written.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import SaveError
from .files import (_BATTLE_ID_NAME as _ID_NAME, BACKUPS_DIR, BATTLES_DIR, CAMPAIGN_FILE, CAMPAIGNS_DIR,
                    CONFIG_FILE, GANGS_DIR, is_battle_file_name)
from .battle_log import SUFFIX as JOURNAL_SUFFIX
from .loading import load_any
from .paths import default_config_dir, default_data_dir

if TYPE_CHECKING:
    from .config import Config

#: what the app says of a config the codec loaded (its keymap, its theme): problems as
#: ``path:line:col: message`` (given by the command, which knows Textual; see cli)
ConfigCheck = Callable[[Path, "Config", str], list[str]]

TABLES_DIR = "tables"
PACKS_DIR = "packs"


def _toml_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.toml") if p.is_file() and not p.name.startswith("."))


def _is_config_dir(path: Path) -> bool:
    if (path / CAMPAIGN_FILE).exists() or (path / CAMPAIGNS_DIR).is_dir():
        return False
    try:
        if path.resolve() == default_config_dir().resolve():
            return True
    except OSError:
        pass
    return (path / CONFIG_FILE).is_file()


def _pack_manifests(folder: Path) -> list[Path]:
    """Each pack folder's ``pack.toml`` (the pack is checked whole, in the app's order)."""
    if not folder.is_dir():
        return []
    return sorted(p / "pack.toml" for p in folder.iterdir()
                  if p.is_dir() and not p.name.startswith(".") and p.name != BACKUPS_DIR)


def _config_files(directory: Path) -> list[Path]:
    files = [directory / CONFIG_FILE] if (directory / CONFIG_FILE).is_file() else []
    return (files + _toml_files(directory / TABLES_DIR) + _toml_files(directory / PACKS_DIR)
            + _pack_manifests(directory / PACKS_DIR))


def _campaign_files(directory: Path) -> list[Path]:
    from .folder import gang_file_names

    files = [directory / CAMPAIGN_FILE]
    if (directory / "catalogue.toml").is_file():  # the campaign's catalogue (saves.catalogue)
        files.append(directory / "catalogue.toml")
    files.extend(_toml_files(directory / TABLES_DIR))  # the campaign's Arbitrator tables
    files.extend(_pack_manifests(directory / PACKS_DIR))  # the campaign's packs
    # the folder that merges (saves.folder): one file a gang, listed as the open lists them
    files.extend(directory / GANGS_DIR / name for name in gang_file_names(directory))
    battles = directory / BATTLES_DIR
    if battles.is_dir():
        for name in sorted(os.listdir(battles)):
            p = battles / name
            if not name.startswith(".") and is_battle_file_name(name) and (p.is_file() or _ID_NAME.match(name)):
                files.append(p)
            elif not name.startswith(".") and name.endswith(JOURNAL_SUFFIX) and p.is_file():
                files.append(p)  # the tracker's journal (saves.battle_log)
    return files


def files_to_check(path: Path) -> list[Path]:
    """The save files under ``path`` (a file, a campaign folder, a campaigns
    folder or the data dir). Backups, temp files and the lock are skipped."""
    path = Path(path)
    if not path.is_dir():
        return [path]
    if _is_config_dir(path):
        return _config_files(path)
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


def _table_problems(file: Path) -> list[str]:
    """An Arbitrator table file, as the app applies it: after the config's tables (for a
    campaign's), each file in its folder's order; this file's problems."""
    from .overrides import load_scenario_tables

    folder = file.parent.parent
    if (folder / CAMPAIGN_FILE).exists() or folder.parent.name == CAMPAIGNS_DIR:
        config_dir: Path | None = default_config_dir()
        campaign_dir: Path | None = folder
    else:
        config_dir, campaign_dir = folder, None
    _tables, problems = load_scenario_tables(config_dir, campaign_dir)
    mine = [p for p in problems if Path(p.path) == file]
    return [f"{p.path}:{p.line or 1}:{p.col or 1}: {f'[{p.key}] ' if p.key else ''}{p.message}"
            for p in mine]


def _roots_of(folder: Path) -> tuple[Path | None, Path | None]:
    """(the config dir, the campaign dir) whose packs (or tables) a file in ``folder``
    (a config or campaign folder) is read with."""
    if (folder / CAMPAIGN_FILE).exists() or folder.parent.name == CAMPAIGNS_DIR:
        return default_config_dir(), folder
    return folder, None


def _pack_problems(manifest: Path) -> list[str]:
    """A pack folder, as the app reads it: after the packs before it (the player's, then
    the campaign's); its files' problems."""
    from .packs import load_packs

    pack = manifest.parent
    config_dir, campaign_dir = _roots_of(pack.parent.parent)
    problems = load_packs(config_dir, campaign_dir).problems
    return [p for p in problems if p.startswith(f"{pack}{os.sep}")]


def _settings_problems(file: Path, campaign: object) -> list[str]:
    """A campaign's settings a pack supplies that no pack in force has (issue 35: the
    campaign opens, and says so)."""
    from ..rules.packs.settings import settings_not_in_force
    from .codec import ValidationError
    from .errors import validation_error
    from .files import read_text
    from .packs import load_packs

    settings = getattr(campaign, "settings", None)
    if settings is None:
        return []
    data = load_packs(default_config_dir(), file.parent).data
    missing = settings_not_in_force(settings, data)
    if not missing:
        return []
    text = read_text(file)
    return [str(validation_error(file, text, ValidationError(("settings", name), message)))
            for name, _value, message in missing]


def _campaign_settings_problems(file: Path) -> list[str]:
    """A campaign.toml that loads: its settings no pack in force has (issue 35)."""
    try:
        loaded = load_any(file)
    except SaveError:  # (said by the folder's own check)
        return []
    return _settings_problems(file, loaded)


def _kind(file: Path) -> str:
    """What a file is, by its place."""
    if file.name == CONFIG_FILE:
        return "config"
    if file.name == "pack.toml" and file.parent.parent.name == PACKS_DIR:
        return "pack"
    if file.parent.name == TABLES_DIR and file.suffix == ".toml":
        return "table"
    return "save"


def _journal_problems(file: Path) -> list[str]:
    """The tracker's journal (``battles/<stem>.events``), read as the app folds it into
    its battle file (``battle_log.load``): its first line that is not a journal line, or
    whose change the battle file would not load with. (A battle file that does not load
    is said on its own; its journal is then read onto an empty record.)"""
    from . import battle_log
    from .files import load_battle_file

    battle = file.with_suffix(".toml")
    try:
        part = load_battle_file(battle)[0].get("battle") or {}
    except SaveError:
        part = {}
    _applied, problem = battle_log.load(file, part if isinstance(part, dict) else {})
    return [] if problem is None else [str(problem)]


def check_file(file: Path, config_check: ConfigCheck | None = None,
               notes: list[str] | None = None) -> list[str]:
    """``path:line:col: message`` for what the app would say of ``file``: what does not
    load. What the app says of a file that loads (a setting whose pack is not in force:
    the campaign opens and says so) goes into ``notes`` when given."""
    if file.suffix == JOURNAL_SUFFIX:
        return _journal_problems(file)
    kind = _kind(file)
    if kind == "table":
        return _table_problems(file)
    if kind == "pack":
        return _pack_problems(file)
    export = _export_problem(file) if file.is_file() else None
    if export is not None:  # an export file: does it import?
        return [export] if export else []
    try:
        loaded = load_any(file)
    except SaveError as error:
        return [str(error)]
    if file.name == CAMPAIGN_FILE:
        if notes is not None:
            notes.extend(_settings_problems(file, loaded))
        return []
    if kind == "config" and config_check is not None:
        from .files import read_text

        try:
            text = read_text(file)
        except SaveError as error:  # pragma: no cover - it was read a moment ago
            return [str(error)]
        return config_check(file, loaded, text)
    return []


def check_paths(paths: Iterable[Path | str] | None = None,
                config_check: ConfigCheck | None = None,
                notes: list[str] | None = None) -> list[str]:
    """``path:line:col: message`` for every save under ``paths`` that does not
    load (empty when all load), as the app's open refuses it. No paths: the data dir.

    ``notes`` (when given) gets what the app says of a file that does load: a campaign
    setting whose pack is not in force on this computer (issue 35: the campaign opens and
    names the pack), at the setting's line."""
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
        folders: dict[Path, dict[Path, list[str]] | None] = {}
        files = files_to_check(target)
        for file in files:
            folder = _campaign_of(file)
            if folder is not None and folder not in folders:
                folders[folder] = _folder_problems(folder)
        seen: set[Path] = set()
        listed = set(files)
        for file in files:
            folder = _campaign_of(file)
            found = folders.get(folder) if folder is not None else None
            if folder is None or found is None:  # not a campaign's file, or of the old
                problems.extend(check_file(file, config_check, notes))  # layout: checked alone
                continue
            if target.is_dir() and folder not in seen:  # what the open says of a file
                seen.add(folder)                        # not listed (a battle file missing)
                for other, said in found.items():
                    if other not in listed:
                        problems.extend(said)
            if file.name == CAMPAIGN_FILE and not found.get(file) and notes is not None:
                notes.extend(_campaign_settings_problems(file))  # it loads: its settings a pack supplies (35)
            if file in found:
                problems.extend(found[file])
            elif file.parent.name == BATTLES_DIR:  # its number and summary passed: its stages,
                problems.extend(check_file(file, config_check))  # as loading the battle reads them
            elif file.parent.name != GANGS_DIR and file.name != CAMPAIGN_FILE:
                problems.extend(check_file(file, config_check))
    return problems


def _campaign_of(file: Path) -> Path | None:
    """The campaign folder a save file of the split layout belongs to (None: another file)."""
    if file.name == CAMPAIGN_FILE and file.parent.is_dir():
        return file.parent
    if file.parent.name in (GANGS_DIR, BATTLES_DIR) and (file.parent.parent / CAMPAIGN_FILE).exists():
        return file.parent.parent
    return None


def _folder_problems(folder: Path) -> dict[Path, list[str]] | None:
    """A campaign folder's problems by file, as the open says them (``saves.folder``:
    campaign.toml, the gang files, the battle files' number and summary); None for a
    folder of the old layout (its files are checked alone)."""
    from .folder import check_folder

    found = check_folder(folder)
    if found is None:
        return None
    out: dict[Path, list[str]] = {}
    for file, problem in found[1]:
        out.setdefault(file, []).append(problem)
    return out
