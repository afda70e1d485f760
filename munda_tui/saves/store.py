"""The store: campaign folders in the data dir, and an open campaign's handle.

Layout (``saves.folder``: the folder that merges)::

    <data>/campaigns/<slug>/campaign.toml      settings only (tomlkit keeps comments)
    <data>/campaigns/<slug>/gangs/<id>.toml    one gang: roster, stash, territories
    <data>/campaigns/<slug>/battles/<date>-<random>.toml  one battle: its number and
                                               summary, then the stages' parts
    <data>/campaigns/<slug>/.lock              held while open
    <data>/campaigns/<slug>/.backups/          last 5 versions of each file

A campaign is locked while a handle is open; every write is atomic and keeps
the previous version as a backup. A file that does not load is never written
over: opening it raises SaveError, and :meth:`Store.newest_loadable_backup`
and :meth:`Store.restore_backup` offer the way back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import gc
import json
import os
import pickle
import re
import shutil
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any


from . import battle_log, cache, codec, folder, tomlemit
from .atomic import (
    _link_or_copy,
    atomic_write_bytes,
    atomic_write_text,
    backups_of,
    clean_stale_temps,
    guarded_write,
    pid_alive,
    sync_pending_dirs,
)
from .codec import ValidationError

if TYPE_CHECKING:  # tomlkit is imported when a campaign is first saved, not at start-up
    import tomlkit

    from .records import Keeper
from .errors import CampaignLocked, SaveError, WriteFailed
from .files import (
    BACKUPS_DIR,
    BATTLES_DIR,
    CAMPAIGN_FILE,
    CAMPAIGNS_DIR,
    GANGS_DIR,
    battle_file_name,
    battle_number,
    file_kind,
    load_battle_file,
    load_campaign_file,
    parse_text,
    read_text,
)
from .loading import load_any
from .lock import Lock
from ..rules.core import limits as limits
from ..rules.core.model import Campaign, slugify, unique_id
from ..rules.core.stage import summary_of

_SLUG_OK = re.compile(r"^[a-z0-9][a-z0-9-]*$")

#: Folder names a campaign's slug never takes: the app's own folders (a campaign
#: called "Battles" would be mistaken for a battles folder) and the device names
#: Windows reserves (``con``, ``nul``, ``com1``...), which no folder there may have.
RESERVED_SLUGS: frozenset[str] = frozenset(
    {BATTLES_DIR, CAMPAIGNS_DIR, "backups", "tables", "lock", "config", "tmp"}
    | {"con", "prn", "aux", "nul"}
    | {f"com{i}" for i in range(10)}
    | {f"lpt{i}" for i in range(10)}
)
#: Longest slug (folder name) made from a campaign's name.
SLUG_MAX = 48
_STAGING_RE = re.compile(r"^\.creating-(\d+)-[0-9a-f]+$")


def campaign_slug(base: str, taken: set[str]) -> str:
    """A folder name for a new campaign: from ``base``, short, never reserved or taken."""
    slug = slugify(base)[:SLUG_MAX].strip("-") or "campaign"
    return unique_id(slug, set(taken) | RESERVED_SLUGS)


@dataclass
class CampaignInfo:
    """One campaign folder, as the home screen lists it."""

    slug: str
    name: str
    path: Path  # the campaign.toml
    error: str | None = None  # why it does not load (``path:line:col: message``)
    gangs: list[str] = field(default_factory=list)  # gang names
    battles: int = 0

    @property
    def dir(self) -> Path:
        return self.path.parent


def campaign_dir_of(path: Path) -> Path:
    """The campaign folder a campaign/battle file (or one of its backups) belongs to."""
    path = Path(path)
    parts = path.parent.parts
    if BACKUPS_DIR in parts:
        return Path(*parts[: parts.index(BACKUPS_DIR)])
    if path.name == CAMPAIGN_FILE:
        return path.parent
    if path.parent.name in (BATTLES_DIR, GANGS_DIR):
        return path.parent.parent
    return path.parent


def backup_dir_of(path: Path) -> Path:
    """Where the backups of a campaign or battle file are kept."""
    path = Path(path)
    root = campaign_dir_of(path)
    rel = path.parent.relative_to(root)
    return root / BACKUPS_DIR / rel


def _keep_aside(path: Path, backup_dir: Path, label: str) -> Path:
    """Keep a copy of ``path`` in ``backup_dir`` as ``<name>.<label>[-n].bak`` (never pruned)."""
    with guarded_write(backup_dir):
        backup_dir.mkdir(parents=True, exist_ok=True)
        target = backup_dir / f"{path.name}.{label}.bak"
        n = 2
        while target.exists():
            target = backup_dir / f"{path.name}.{label}-{n}.bak"
            n += 1
        _link_or_copy(path, target)
    return target


class Store:
    """All campaigns in one data dir."""

    def __init__(self, data_dir: Path | str) -> None:
        self.data_dir = Path(data_dir)
        self.campaigns_dir = self.data_dir / CAMPAIGNS_DIR
        self._open: dict[Path, CampaignHandle] = {}
        #: told what the player must know of a save (a hand edit made while the campaign
        #: was open, replaced by the app's save and kept aside); the app shows it
        self.on_notice: Callable[[str], None] | None = None
        #: the campaigns as last listed (None: to be read again), see :meth:`listed`
        self._listed: list[CampaignInfo] | None = None
        # On start: temp files whose writer is gone (an open campaign is
        # cleaned fully when it is opened, under its lock).
        clean_stale_temps(self.campaigns_dir)
        self._clean_staging()

    def _clean_staging(self) -> None:
        """Remove half-made campaign folders (``.creating-<pid>-*``) whose maker is gone."""
        try:
            entries = list(os.scandir(self.campaigns_dir))
        except OSError:
            return
        for entry in entries:
            m = _STAGING_RE.match(entry.name)
            if m and int(m.group(1)) != os.getpid() and not pid_alive(int(m.group(1))):
                shutil.rmtree(entry.path, ignore_errors=True)

    # --- campaigns ------------------------------------------------------------

    def campaign_dir(self, slug: str) -> Path:
        if not isinstance(slug, str) or not _SLUG_OK.fullmatch(slug):
            raise ValueError(f"not a campaign slug: {slug!r}")
        return self.campaigns_dir / slug

    def listed(self) -> list[CampaignInfo]:
        """The campaigns as :meth:`list_campaigns` last read them, read now only when this
        store changed one since (made, opened, saved, restored or deleted one) or never
        read them: for the command palette, which asks each time it opens, without
        reading every campaign folder each time."""
        if self._listed is None:
            return self.list_campaigns()
        return list(self._listed)

    def _changed_a_campaign(self) -> None:
        self._listed = None

    def list_campaigns(self) -> list[CampaignInfo]:
        """Every campaign folder, sorted by name; ``error`` set for those that do not load."""
        self._listed = None
        infos: list[CampaignInfo] = []
        try:
            entries = sorted(os.scandir(self.campaigns_dir), key=lambda e: e.name)
        except (FileNotFoundError, NotADirectoryError):
            return []
        for entry in entries:
            if entry.name.startswith(".") or not entry.is_dir():
                continue
            path = Path(entry.path) / CAMPAIGN_FILE
            try:
                summary = folder.campaign_summary(path)
            except SaveError as error:
                infos.append(CampaignInfo(entry.name, entry.name, path, error=str(error)))
                continue
            infos.append(
                CampaignInfo(
                    entry.name,
                    summary["name"],
                    path,
                    gangs=list(summary["gangs"]),
                    battles=summary["battles"],
                )
            )
        infos.sort(key=lambda i: (i.name.casefold(), i.slug))
        self._listed = list(infos)
        return infos

    def create_campaign(
        self, campaign: Campaign, battles: dict[int, dict[str, Any]] | None = None
    ) -> CampaignHandle:
        """Write a new campaign folder (with ``battles``' files) and open it (locked).

        The folder's slug comes from ``campaign.id`` (or its name), is made unique and
        never one of :data:`RESERVED_SLUGS`; ``campaign.id`` is set to it. Everything is
        validated first and written into a hidden ``.creating-*`` folder that is renamed
        into place at the end, so the campaign appears whole or not at all (also when
        two programs create the same name at once: each gets its own folder).
        SaveError (WriteFailed for a disk fault) if it cannot be made.
        """
        self._changed_a_campaign()
        where = self.campaigns_dir / (slugify(campaign.id or campaign.name)[:SLUG_MAX] or "campaign") / CAMPAIGN_FILE
        original_id = campaign.id
        campaign.id = campaign.id or "new"
        try:
            codec.campaign_from_data(codec.campaign_to_data(campaign))
        except ValidationError as error:
            campaign.id = original_id
            raise SaveError(where, 1, 1, f"not created: {error}") from None
        campaign.id = original_id
        texts: dict[str, str] = {}
        for number, data in sorted((battles or {}).items()):
            if type(number) is not int or not 0 <= number <= limits.BATTLE_MAX:
                raise SaveError(where, 1, 1, f"not created: battle number {limits.show_number(number) if type(number) is int else number!r} "
                                             f"is out of range (0 to {limits.BATTLE_MAX})")
        try:
            texts.update(_folder_texts(campaign, battles or {}))
        except (TypeError, ValueError) as error:
            raise SaveError(where, 1, 1, f"not created: {error}") from None
        with guarded_write(self.campaigns_dir):
            self.campaigns_dir.mkdir(parents=True, exist_ok=True)
        staging = self.campaigns_dir / f".creating-{os.getpid()}-{os.urandom(4).hex()}"
        try:
            with guarded_write(staging):
                staging.mkdir()
            for rel, text in texts.items():
                atomic_write_text(staging / rel, text, sync_dir_later=True)
            base = campaign.id or campaign.name
            for _attempt in range(1000):
                with guarded_write(self.campaigns_dir):
                    taken = {p.name for p in self.campaigns_dir.iterdir()}
                slug = campaign_slug(base, taken)
                campaign.id = slug
                atomic_write_text(staging / CAMPAIGN_FILE, _fresh_campaign_text(campaign))
                try:
                    os.rename(staging, self.campaigns_dir / slug)
                except OSError as error:
                    if (self.campaigns_dir / slug).exists():
                        continue  # made by another program meanwhile: the next name
                    raise WriteFailed(self.campaigns_dir / slug, str(error.strerror or error)) from None
                break
            else:  # pragma: no cover - a thousand programs racing for one name
                raise WriteFailed(self.campaigns_dir, "no free folder name for the campaign")
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            campaign.id = original_id
            raise
        from .atomic import fsync_dir

        with guarded_write(self.campaigns_dir):
            fsync_dir(self.campaigns_dir)
        handle = self.open_campaign(slug)
        handle.campaign = campaign  # the caller's object stays the open campaign
        return handle

    def prepare_campaign(self, campaign: Campaign) -> CampaignHandle:
        """A new campaign's handle with nothing written yet (the demo's first frame
        comes before any disk work): :meth:`CampaignHandle.write_prepared` (from a
        worker) creates its folder, lock and file from a copy of ``campaign`` as it is
        now; any save or close of the handle does so first if it has not happened."""
        taken = set(os.listdir(self.campaigns_dir)) if self.campaigns_dir.is_dir() else set()
        slug = campaign_slug(campaign.id or campaign.name, taken)
        campaign.id = slug
        handle = CampaignHandle(self, slug, campaign, None, None)
        # a deep copy; pickle's C code makes the demo's in 0.4 ms, deepcopy in 2 (before
        # the first frame)
        handle._prepared = pickle.loads(pickle.dumps(campaign, pickle.HIGHEST_PROTOCOL))
        return handle

    def open_campaign(self, slug: str) -> CampaignHandle:
        """Open and lock a campaign. CampaignLocked if it is open elsewhere,
        SaveError if its campaign.toml does not load (the file is left as it is)."""
        return self.begin_open(slug).finish()

    def begin_open(self, slug: str) -> "Opening":
        """The first half of :meth:`open_campaign`: the campaign locked and its file
        read, with the campaign screen's overview if the cache has one for this text
        (``Opening.overview``); ``Opening.finish()`` decodes it (or ``cancel()``).
        CampaignLocked, or SaveError for a folder or file that cannot be read."""
        self._changed_a_campaign()
        try:
            directory = self.campaign_dir(slug)
        except ValueError as error:
            raise SaveError(self.campaigns_dir / str(slug), 1, 1, str(error)) from None
        path = directory / CAMPAIGN_FILE
        if not directory.is_dir():
            raise SaveError(path, 1, 1, f"no campaign folder {slug!r} in {self.campaigns_dir}")
        lock = Lock.acquire(directory)
        paused = _collector_paused()  # (until the opening is finished or cancelled)
        paused.__enter__()
        try:
            from .journal import roll_forward

            roll_forward(directory)  # a save or migration killed after its commit point
            clean_stale_temps(directory, all_temps=True)
            text = read_text(path)
            read = folder.read_folder(directory, text)  # (its key: once, for both)
            overview = cache.read_overview(path, text, read.key)
        except BaseException:
            paused.__exit__()
            lock.release()
            raise
        return Opening(self, slug, path, text, lock, overview, read.key, read, paused)

    def _finish_open(self, opening: "Opening") -> CampaignHandle:
        path, lock = opening.path, opening.lock
        try:
            read = opening.read
            if read is not None and read.split:
                found = folder.load_folder_cached(read)
                campaign = found.campaign
                campaign.id = opening.slug  # the folder name is the campaign's id
                handle = CampaignHandle(self, opening.slug, campaign, found.text, lock)
                handle._adopt(found, read)
                if read.key and cache.read_overview(path, read.text, read.key) is None:
                    cache.remember_views(path, read.key, campaign)
                handle._open_records()
            else:
                loaded = cache.load_campaign(path, opening.text, opening.key)
                if loaded.version >= folder.SPLIT_VERSION:
                    raise SaveError(path, 1, 1, "schema_version 2 without the folder's gang "
                                    "and battle files: write it as `schema_version = 2` on a line of its own")
                campaign = loaded.campaign
                campaign.id = opening.slug
                handle = CampaignHandle(self, opening.slug, campaign, loaded.text, lock)
                handle._migrate(loaded.version)
                handle._open_records()
        except BaseException:
            lock.release()
            raise
        self._open[path.parent] = handle
        return handle

    def delete_campaign(self, slug: str) -> None:
        """Remove a campaign folder (CampaignLocked if it is open in another instance)."""
        self._changed_a_campaign()
        directory = self.campaign_dir(slug)
        handle = self._open.get(directory)
        if handle is not None:
            handle.close()
        if not directory.exists():
            raise FileNotFoundError(f"no campaign folder {slug!r}")
        lock = Lock.acquire(directory)
        graveyard = self.campaigns_dir / f".deleted-{slug}-{os.urandom(4).hex()}"
        try:
            with guarded_write(directory):
                os.replace(directory, graveyard)
        finally:
            lock.release()
        shutil.rmtree(graveyard, ignore_errors=True)

    # --- backups ----------------------------------------------------------------

    def backups(self, path: Path) -> list[Path]:
        """Backups of a campaign or battle file: newest first, then the copies
        kept before a schema migration."""
        path = Path(path)
        bdir = backup_dir_of(path)
        rotated = backups_of(path, bdir)
        try:
            kept = sorted(bdir.glob(f"{glob_escape(path.name)}.schema*.bak"), key=lambda p: p.stat().st_mtime_ns, reverse=True) if bdir.is_dir() else []
        except OSError:
            kept = []
        return rotated + kept

    def newest_loadable_backup(self, path: Path) -> Path | None:
        """The newest backup of ``path`` that loads, or None."""
        kind = file_kind(Path(path))
        for backup in self.backups(path):
            try:
                load_any(backup, kind)
            except SaveError:
                continue
            return backup
        return None

    def restore_backup(self, backup: Path, path: Path) -> None:
        """Put ``backup`` back as ``path``. The current file (if any) is kept
        aside in the backups as ``<name>.broken[-n].bak``, so nothing is lost."""
        self._changed_a_campaign()
        path, backup = Path(path), Path(backup)
        kind = file_kind(path)
        load_any(backup, kind)  # SaveError: refuse to restore a backup that does not load
        directory = campaign_dir_of(path)
        handle = self._open.get(directory)
        lock = None if handle is not None and not handle.closed else Lock.acquire(directory)
        try:
            data = backup.read_bytes()
            if path.exists():
                _keep_aside(path, backup_dir_of(path), "broken")
            atomic_write_bytes(path, data)
        finally:
            if lock is not None:
                lock.release()
        if handle is not None and not handle.closed:
            handle.reload()  # (everything read again: a restore is no edit from outside)

    def _forget(self, handle: CampaignHandle) -> None:
        if self._open.get(handle.path) is handle:
            del self._open[handle.path]


from .folder import has_comments  # noqa: E402 (kept here: tests and callers use it)


class _collector_paused:
    """Python's cyclic collector paused while a campaign is read and decoded (a league's
    is ~30,000 new tables and objects, none of them garbage: the ~80 collections they set
    off, two of them full, scanned every object the program has: ~40-60 ms of an open in
    a running program), then as it was. The app freezes what it holds once the campaign
    is open (``collector.Collector.campaign_opened``): the young collection the open's
    objects would have had never comes."""

    def __enter__(self) -> None:
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was:
            gc.enable()


def _fresh_campaign_text(campaign: Campaign) -> str:
    """campaign.toml's text for a new campaign (no file to merge into)."""
    from . import tomldoc

    data = folder.settings_of(codec.campaign_to_data(campaign))
    text = tomldoc.build_document(data, tomldoc.CAMPAIGN_LAYOUT).as_string()
    return text if _reads_back(text, data) else tomlemit.dumps(data)


def _folder_texts(campaign: Campaign, battles: dict[int, dict[str, Any]]) -> dict[str, str]:
    """The gang and battle files of a new campaign folder (relative path -> text): a
    file for every gang, for every battle summary and every battle of ``battles``."""
    texts: dict[str, str] = {}
    summaries: dict[int, Any] = {}
    for s in campaign.battles:  # (the first listed with a number, as rules.stage finds it)
        summaries.setdefault(s.number, s)
    taken: set[str] = set()
    stems: dict[int, str] = {}
    for number in sorted(set(summaries) | set(battles)):
        summary = summaries.get(number)
        name = folder.new_battle_file_name(summary.date if summary else "", taken)
        taken.add(name)
        stems[number] = folder.battle_stem(name)
        try:
            texts[f"{BATTLES_DIR}/{name}"] = tomlemit.dumps(
                folder.battle_plain(number, summary, battles.get(number, {})))
        except (TypeError, ValueError) as error:
            raise ValueError(f"battle {number}: {error}") from None
    for order, gang in enumerate(campaign.gangs):
        texts[f"{GANGS_DIR}/{folder.gang_file_name(gang.id)}"] = folder.gang_text(gang, order, stems.get)
    return texts


def glob_escape(name: str) -> str:
    return re.sub(r"([\[\]\*\?])", r"[\1]", name)


def _parse_doc(text: str) -> tomlkit.TOMLDocument | None:
    """tomlkit's view of a file tomllib already accepted (None if tomlkit disagrees)."""
    import tomlkit

    try:
        return tomlkit.parse(text)
    except Exception:  # noqa: BLE001 - fall back to a fresh document on save
        return None


def _stat_key(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


class Opening:
    """A campaign on its way to open (:meth:`Store.begin_open`): locked, its file read.

    ``overview`` is what the campaign screen shows first (``rules.overview``), from
    the cache, when it was written for this very text; None otherwise. ``finish()``
    decodes the text read (never the file again) into the open campaign's handle, or
    raises SaveError and lets the lock go; ``cancel()`` lets it go unopened."""

    def __init__(self, store: Store, slug: str, path: Path, text: str, lock: Lock,
                 overview: dict[str, Any] | None, key: str | None = None,
                 read: "folder.FolderRead | None" = None, paused: "_collector_paused | None" = None) -> None:
        self.store, self.slug, self.path, self.text, self.lock = store, slug, path, text, lock
        self.overview = overview
        self.key = key  # (the folder's cache key, worked out once)
        self.read = read  # what was read of the folder
        self._done = False
        self._paused = paused  # the collector, paused since the read began

    def _resume(self) -> None:
        paused, self._paused = self._paused, None
        if paused is not None:
            paused.__exit__()

    def finish(self) -> "CampaignHandle":
        if self._done:
            raise RuntimeError("this opening is over")
        self._done = True
        try:
            return self.store._finish_open(self)
        finally:
            self._resume()

    def cancel(self) -> None:
        self._resume()
        if not self._done:
            self._done = True
            self.lock.release()

    def __del__(self) -> None:  # (an opening dropped unfinished: the collector as it was)
        try:
            self._resume()
        except Exception:  # noqa: BLE001 - (at the interpreter's exit: nothing to restore)
            pass


class CampaignHandle:
    """An open, locked campaign. Mutate ``campaign`` and call :meth:`save`."""

    def __init__(
        self,
        store: Store,
        slug: str,
        campaign: Campaign,
        text: str | None,
        lock: Lock | None,
    ) -> None:
        self.store = store
        self.slug = slug
        self.campaign = campaign
        self.path = store.campaign_dir(slug)  # the campaign folder
        self.file = self.path / CAMPAIGN_FILE
        self.battles_dir = self.path / BATTLES_DIR
        # The file's text as loaded; parsed with tomlkit only when first saved.
        self._doc: tomlkit.TOMLDocument | None = None
        self._doc_text = text
        self._doc_stat = _stat_key(self.file) if text is not None else None
        self._lock = lock  # None while prepared and not yet written (Store.prepare_campaign)
        self._prepared: Campaign | None = None
        self._parsed: tuple[str, dict[str, Any] | None] | None = None  # the last text made
        self._prepare_lock = threading.Lock()
        self._closed = False
        # battle number -> the file's stat when we last read or wrote it
        self._verified: dict[int, tuple[int, int, int] | None] = {}
        # path -> (its text as we last wrote it, or first read it, and its stat then): a
        # file whose stat differs at our next write was changed from outside meanwhile
        self._written: dict[Path, tuple[str, tuple[int, int, int] | None]] = {}
        if text is not None:
            self._written[self.file] = (text, self._doc_stat)
        # battle number -> (the file's stat after our write, its text, the JSON of its
        # data): the battle being played reopens without a parse; cached on disk later
        self._battle_memo: dict[int, tuple[tuple[int, int, int] | None, str, str]] = {}
        # (number, the battle file's text, the JSON of its checked data): the last loaded
        self._valid_battle: tuple[int, str, str] | None = None
        # (number, what tomlemit remembers of its file's parts): update_battle's last
        self._emit_memo: tuple[int, tomlemit.EmitMemo] = (0, {})
        # (number, the file's stat after update_battle wrote it, each top-level part's
        # JSON and a private copy of its data, None until needed): the next update of that battle keeps the
        # parts it does not replace without reading the file again (a post-battle step
        # parsed the tracker's 1,000-event log and wrote its JSON twice: ~1.5 ms a step)
        self._parts: tuple[int, tuple[int, int, int] | None, dict[str, tuple[str, Any | None]]] | None = None
        # The folder (``saves.folder``): which file holds what, as it is on disk.
        self.gangs_dir = self.path / GANGS_DIR
        self._gang_files: dict[str, str] = {}  # gang id -> file name
        self._gang_texts: dict[str, str] = {}  # file name -> its text on disk
        self._gang_data: dict[str, dict[str, Any]] = {}  # file name -> what that text reads as
        # (the campaign, its gangs' and battles' plain data): what campaign_text made of
        # it, for the save that follows (each gang and summary worked out once)
        self._made: tuple[Campaign, list[Any], list[Any]] | None = None
        self._gang_order: dict[str, int] = {}
        self._battle_files: dict[int, str] = {}  # number -> file name (files on disk)
        self._new_names: dict[int, str] = {}  # number -> the name its first write takes
        self._summaries: dict[int, str | None] = {}  # number -> JSON of its file's [summary]
        self._numbers: dict[int, int] = {}  # number -> the number its file says, if not it
        self._problem_entries: list[folder.BattleEntry] = []
        self._battles_written = False  # (the battle index is written at the close if so)
        self.problems: list[str] = []  # battle files that do not load, left out
        #: battle number -> its journal's problem (``path:line:col``) at its last load: the
        #: lines from there on left out (``battle_log.load``)
        self.journal_problems: dict[int, str] = {}
        # battle number -> (its ``battle`` part as on disk: the file and its journal, the
        # journal's lines since the last fold): the tracker's saves append to the journal
        self._journal: dict[int, tuple[dict[str, Any], int]] = {}
        self._left_out: list[folder.LeftOut] | None = None  # (worked out when first asked)
        self._keeper: Keeper | None = None  # (made when first needed: not before the first frame)
        #: the last league sync's finished battles not shared, and why (``saves.league``)
        self.league_refused: list[str] = []

    @property
    def _records(self) -> Keeper:
        """What the open campaign knows of its records (``saves.records.Keeper``, the fold
        of ``records/``, issue 30); its module is read when first needed, after the first
        frame of a campaign opened at start-up."""
        if self._keeper is None:
            from . import records

            self._keeper = records.Keeper(self.path)
        return self._keeper

    @property
    def questions(self) -> list[Any]:
        """The league questions open: the fold's (``rules.history.fold.Question``), then
        each pack version set aside by a sync (``saves.league_packs.PackQuestion``)."""
        from .league_packs import questions as pack_questions

        return [*self._records.questions, *pack_questions(self.path)]

    def _read_again(self, order: list[str] | None = None) -> None:
        """The folder read again after the records moved it on (``saves.records``): the
        gang files the fold wrote, the battles numbered in the records' order (a battle
        file that says another number is written with its new one at the next save)."""
        text = read_text(self.file)
        read = folder.read_folder(self.path, text)
        found = folder.load_folder(read, battle_order=order)
        found.campaign.id = self.slug
        self.campaign = found.campaign  # (new values: screens read them through the handle)
        self._doc, self._doc_text, self._doc_stat = None, found.text, _stat_key(self.file)
        self._forget_battles()
        self._adopt(found, read)
        self._written[self.file] = (found.text, self._doc_stat)

    def answer_question(self, question: Any, choice: str, amount: int = 0) -> None:
        """The Arbitrator's answer to a league question: a correction record, the gangs
        folded again (``saves.records.answer``)."""
        from . import records
        from .league_packs import PackQuestion, answer as answer_pack

        self._check_open()
        if isinstance(question, PackQuestion):  # (a pack's two versions: shared files)
            answer_pack(self.path, question, choice)
            return
        records.answer(self, question, choice, amount)

    def battle_numbers_by_stem(self) -> dict[str, int]:
        """Each battle's number by its file's name (without .toml)."""
        return {folder.battle_stem(name): n for n, name in self._battle_files.items()}

    def _open_records(self) -> None:
        """The records and the gang files brought to agree (``saves.records.on_open``)."""
        from . import records

        records.on_open(self, backup_dir_of)

    def _adopt(self, found: folder.LoadedFolder, read: folder.FolderRead | None = None) -> None:
        """Take over what :func:`folder.load_folder` found of the files."""
        self._gang_files = dict(found.gang_files)
        self._gang_texts = dict(found.gang_texts)
        self._gang_data = dict(found.gang_data)
        self._gang_order = dict(found.gang_order)
        self._battle_files = dict(found.battle_files)
        self._summaries = dict(found.summaries)
        self._numbers = dict(found.numbers)
        self.problems = list(found.problems)
        for name, text in self._gang_texts.items():  # (a hand edit while open is found at the save)
            path = self.gangs_dir / name
            self._written[path] = (text, _stat_key(path))
        if read is not None:
            self._problem_entries = [e for e in read.battles if e.error is not None or e.number is None]
        self._left_out = None

    def left_out(self) -> list[folder.LeftOut]:
        """The battle files this open left out (they do not load, or are missing with
        backups kept): each names its file and line, the number it keeps and its newest
        backup that loads. The campaign screen lists them; no new battle takes one's
        number (:meth:`next_battle_number`), nor can a save write over one."""
        if self._left_out is None:
            self._left_out = folder.left_out(self.path, self._problem_entries, self.store.newest_loadable_backup,
                                             self.store.backups)
        return self._left_out

    def next_battle_number(self) -> int:
        """The next battle's number: after every battle, the left-out ones too."""
        number = self.campaign.next_battle_number()
        if self._problem_entries:
            number = max([number, *(lo.number + 1 for lo in self.left_out() if lo.number is not None)])
        return number

    def _refuse_left_out(self, number: int) -> None:
        """SaveError (the left-out file's) when ``number`` is a left-out battle's: it is
        neither read nor written over until its file loads again."""
        if self._problem_entries and number not in self._battle_files:
            kept = {lo.number: lo for lo in self.left_out() if lo.number is not None}.get(number)
            if kept is not None:
                raise kept.save_error()

    def _migrate(self, version: int) -> None:
        """An old folder (the whole campaign in campaign.toml, ``battles/0007.toml``)
        becomes the split one in one transaction (``saves.journal``): a kill before its
        commit leaves the old folder as it was, after it the next open finishes it. The
        old files are kept in the backups (``<name>.schema<version>.bak``)."""
        from .journal import Transaction

        campaign = self.campaign
        old_text = self._doc_text  # (the comments written in a gang's part go to its file)
        sections = folder.gang_sections(old_text) if old_text is not None else {}
        settings_text = self.campaign_text()
        tx = Transaction(self.path)
        _keep_aside(self.file, backup_dir_of(self.file), f"schema{version}")
        old: dict[int, Path] = {}
        try:
            for entry in os.scandir(self.battles_dir):
                n = battle_number(Path(entry.name))
                if n is not None and not entry.name.startswith("."):
                    old[n] = Path(entry.path)
        except (FileNotFoundError, NotADirectoryError):
            pass
        # split battle files already there (a restored campaign.toml): taken over
        present = {e.number: e.name for e in folder.scan_battles(self.path) if e.number is not None}
        summaries = {s.number: s for s in campaign.battles}
        taken = set(present.values())
        gone: set[int] = set()  # the old battle files that do not load
        for number in sorted(set(summaries) | set(old)):
            summary = summaries.get(number)
            data: dict[str, Any] = {}
            bname = present.get(number)
            source = old.get(number)
            if source is None and bname is not None:
                source = self.battles_dir / bname
            if source is not None:
                try:
                    data, _v = load_battle_file(source)
                except SaveError as error:  # left where it is for the player to look at
                    self.problems.append(str(error))
                    data = {}
                    if number in old:  # left out now as at every later open: named, its
                        # number kept, its summary not listed as a battle that loads
                        self._problem_entries.append(folder.BattleEntry(source.name, None, None, str(error)))
                        self._left_out = None
                        gone.add(number)
                        continue
                else:
                    if number in old:
                        _keep_aside(source, backup_dir_of(source), f"schema{version}")
                        tx.delete(source)
            if bname is None:
                bname = folder.new_battle_file_name(summary.date if summary else "", taken)
                taken.add(bname)
            plain = folder.battle_plain(number, summary, data)
            tx.write(self.battles_dir / bname, tomlemit.dumps(plain))
            self._battle_files[number] = bname
            self._summaries[number] = folder.summary_json(summary)

        if gone:  # (new values: the campaign without them; the one read is not changed)
            campaign = self.campaign = replace(
                campaign, battles=[b for b in campaign.battles if b.number not in gone])

        def stem_of(number: int) -> str | None:  # a gang names a battle by its file
            bname = self._battle_files.get(number)
            return None if bname is None else folder.battle_stem(bname)

        for order, gang in enumerate(campaign.gangs):
            name = folder.gang_file_name(gang.id)
            text = folder.gang_text_and_data(gang, order, sections.get(gang.id), stem_of)[0]
            tx.write(self.gangs_dir / name, text)
            self._gang_files[gang.id], self._gang_texts[name], self._gang_order[gang.id] = name, text, order
            self._gang_data.pop(name, None)
        tx.write(self.file, settings_text)  # (the switch: campaign.toml says version 2)
        self._battles_written = True
        tx.commit(durable=False)
        self._doc, self._doc_text, self._doc_stat = None, settings_text, _stat_key(self.file)
        self._written[self.file] = (settings_text, self._doc_stat)
        self._cache(settings_text)

    # --- life cycle -------------------------------------------------------------

    @property
    def closed(self) -> bool:
        return self._closed if self._lock is None else not self._lock.held

    @property
    def written(self) -> bool:
        """False for a prepared campaign whose folder is not written yet."""
        return self._lock is not None

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError(f"campaign {self.slug!r} is closed")
        if self._lock is None:
            self.write_prepared()

    def write_prepared(self) -> None:
        """Create a prepared campaign's folder, lock and campaign.toml (from the copy
        taken when it was prepared); nothing if it is written already. Safe to call
        from a worker thread while the app runs: saves wait for it."""
        self.store._changed_a_campaign()
        with self._prepare_lock:
            if self._lock is not None or self._closed:
                return
            prepared, store = self._prepared, self.store
            assert prepared is not None
            try:
                codec.campaign_from_data(codec.campaign_to_data(prepared))
            except ValidationError as error:
                raise SaveError(self.file, 1, 1, f"not created: {error}") from None
            with guarded_write(self.path):
                store.campaigns_dir.mkdir(parents=True, exist_ok=True)
                self.path.mkdir()
            lock = Lock.acquire(self.path)
            try:
                text = self._text_of(prepared)
                self._write_folder(prepared, text)
                self._doc_stat = _stat_key(self.file)
            except BaseException:
                lock.release()
                raise
            self._lock, self._prepared = lock, None
            store._open[self.path] = self
            self._cache(text)

    def close(self) -> None:
        """Release the lock (idempotent), once every save is durable. A prepared
        campaign is written first."""
        if self._lock is None and not self._closed:
            try:
                self.write_prepared()
            finally:
                self._closed = True
        if self._lock is None or not self._lock.held:
            return
        self.fold_battle_logs()
        self._flush_battle_memos()
        if self._battles_written:
            try:  # (a cache: the next open reads no battle file this one wrote)
                folder.write_index(self.path, {name: (self._numbers.get(n, n), self._summaries.get(n))
                                               for n, name in self._battle_files.items()},
                                   self._problem_entries)
            except (OSError, ValueError):
                pass
        self._records.remember(self._gang_texts)
        sync_pending_dirs()
        self._lock.release()
        self.store._forget(self)

    def __enter__(self) -> CampaignHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def reload(self) -> None:
        """Read campaign.toml again (after a restore); SaveError if it does not load."""
        self._check_open()
        text = read_text(self.file)
        read = folder.read_folder(self.path, text)
        if not read.split:  # an old campaign.toml put back: migrated again
            loaded = cache.load_campaign(self.file, text)
            loaded.campaign.id = self.slug
            self.campaign = loaded.campaign
            self._doc, self._doc_text, self._doc_stat = None, loaded.text, _stat_key(self.file)
            self._forget_battles()
            self._migrate(loaded.version)
            self._open_records()
            return
        by_id = {g.id: g for g in self.campaign.gangs}
        decoded = folder.DecodedGangs(  # (a gang whose file is as read: copied, not decoded again)
            {name: text for name, text in self._gang_texts.items()},
            {name: by_id[gid] for gid, name in self._gang_files.items() if gid in by_id},
            {folder.battle_stem(name): n for n, name in self._battle_files.items()})
        found = folder.load_folder(read, decoded=decoded)  # (the next open writes .cache/decoded.json: not the sync)
        found.campaign.id = self.slug
        self.campaign = found.campaign
        self._doc = None
        self._doc_text = found.text
        self._doc_stat = _stat_key(self.file)
        self._forget_battles()
        self._adopt(found, read)
        self._written[self.file] = (found.text, self._doc_stat)
        self._open_records()

    def _forget_battles(self) -> None:
        self._verified.clear()
        self._battle_memo.clear()
        self._valid_battle = None
        self._parts = None
        self._written.clear()
        self._gang_files, self._gang_texts, self._gang_order = {}, {}, {}
        self._gang_data = {}
        self._battle_files, self._summaries, self._numbers = {}, {}, {}

    # --- the campaign file ------------------------------------------------------

    def campaign_text(self) -> str:
        """The TOML text :meth:`save` would write now."""
        return self._text_of(self.campaign)

    def _text_of(self, campaign: Campaign) -> str:
        from . import tomldoc

        data = codec.campaign_to_data(campaign)
        try:
            codec.campaign_from_data(data)
        except ValidationError as error:
            raise SaveError(self.file, 1, 1, f"not saved: {error}") from None
        self._made = (campaign, data.get("gangs") or [], data.get("battles") or [])
        data = folder.settings_of(data)  # (the gangs and battles have files of their own)
        if self._comment_free():
            # nothing to keep: the text tomlkit would build, without tomlkit (which
            # takes seconds on a league's file); it reads back as ``data`` (tested)
            from . import tomllayout

            text = tomllayout.dumps(data, tomldoc.CAMPAIGN_LAYOUT)
            self._parsed = (text, data)
            return text
        doc = self._base_doc()
        if doc is None:
            doc = tomldoc.build_document(data, tomldoc.CAMPAIGN_LAYOUT)
        else:
            tomldoc.merge(doc, data, (), tomldoc.CAMPAIGN_LAYOUT)
        text = doc.as_string()
        parsed = _reads_back(text, data)
        if parsed is None:
            doc = tomldoc.build_document(data, tomldoc.CAMPAIGN_LAYOUT)
            text = doc.as_string()
            parsed = _reads_back(text, data)
            if parsed is None:  # pragma: no cover - tomlkit slip
                doc = None
                text = tomlemit.dumps(data)
        self._doc = doc
        self._parsed = (text, parsed)
        return text

    def _comment_free(self) -> bool:
        """True when campaign.toml holds no comment to keep (or does not exist yet)."""
        if self._doc is not None:  # tomlkit is already keeping this file's comments
            return False
        current = _stat_key(self.file)
        if current is None:
            return True
        text = self._doc_text
        if text is None or current != self._doc_stat:
            try:
                text = read_text(self.file)
            except SaveError:
                return False
        return not has_comments(text)

    def _base_doc(self) -> tomlkit.TOMLDocument | None:
        """The document to update: ours, or the file's if it was edited meanwhile."""
        if self._doc is None and self._doc_text is not None:
            self._doc = _parse_doc(self._doc_text)
            self._doc_text = None
        current = _stat_key(self.file)
        if current is None or current == self._doc_stat:
            return self._doc
        try:
            text = read_text(self.file)
            parse_text(self.file, text)  # the guarded reader: the shape first
        except SaveError:
            return self._doc
        return _parse_doc(text) or self._doc

    def commit(self, campaign: Campaign) -> None:
        """The owner commits values (issue 33.4): ``campaign``, new values a stage move or
        an edit built (never the handle's own object changed in place), written in one
        transaction (every file that changed, or none: ``saves.journal``) and then
        adopted as :attr:`campaign`. When the write fails (SaveError, OSError: raised) the
        old values stand, on disk and in memory."""
        self._check_open()
        old = self.campaign
        self.campaign = campaign
        try:
            self.save()
        except BaseException:
            self.campaign = old
            raise

    def save(self) -> None:
        """Write campaign.toml atomically; comments in unchanged parts are kept
        and the previous version goes to the backups."""
        self.store._changed_a_campaign()
        self._check_open()
        text = self.campaign_text()
        current = _stat_key(self.file)
        if current is not None and current != self._doc_stat:
            try:  # edited from outside since we read it: keep it if it is broken
                load_campaign_file(self.file)
            except SaveError:
                _keep_aside(self.file, backup_dir_of(self.file), "broken")
        self._write_folder(self.campaign, text)
        self._doc_stat = _stat_key(self.file)
        if self._doc is None:
            self._doc_text = text
        self._cache(text)

    def _write_folder(self, campaign: Campaign, text: str) -> None:
        """Write every file of the folder that changed: campaign.toml (``text``), the
        gang files, the battle files whose summary changed. One file: written as it is;
        more: one transaction (``saves.journal``), all or none."""
        writes: list[tuple[Path, str]] = []
        deletes: list[Path] = []
        last = self._written.get(self.file)
        if not (last is not None and last[0] == text and last[1] == _stat_key(self.file)) and not (
                text == self._doc_text and self._doc_stat is not None and self._doc_stat == _stat_key(self.file)):
            writes.append((self.file, text))
        gang_names: dict[str, str] = {}
        parsed: dict[Path, dict[str, Any]] = {}
        # A gang keeps its ``order`` (a file changed only when its gang did), a new one
        # comes after the others; a list put in another order is numbered afresh.
        next_order = max(self._gang_order.values(), default=-1) + 1
        orders: dict[str, int] = {}
        for gang in campaign.gangs:
            order = self._gang_order.get(gang.id)
            if order is None:
                order, next_order = next_order, next_order + 1
            orders[gang.id] = order
        keys = [(orders[g.id], g.id) for g in campaign.gangs]
        if any(a >= b for a, b in zip(keys, keys[1:])):
            orders = {g.id: i for i, g in enumerate(campaign.gangs)}
        summaries: dict[int, Any] = {}
        for s in campaign.battles:  # (the first listed with a number, as rules.stage finds it)
            summaries.setdefault(s.number, s)
        if self._problem_entries:  # a new battle never takes a left-out one's number
            for number in summaries:
                if number not in self._new_names:
                    self._refuse_left_out(number)
                    if number not in self._battle_files:  # a new battle: none while a
                        # left-out file's number is unknown (it could be this one)
                        unknown = [lo for lo in self.left_out() if lo.number is None]
                        if unknown:
                            raise unknown[0].unnumbered_error()

        def stem_of(number: int) -> str | None:  # a gang names a battle by its file
            name = self._battle_files.get(number) or self._new_names.get(number)
            if name is None and number in summaries:
                name = self._name_for(number, summaries[number])
            return None if name is None else folder.battle_stem(name)

        changed: dict[str, tuple[dict[str, Any] | None, dict[str, Any] | None]] = {}  # (records)
        made, self._made = self._made, None
        plains = made[1] if made is not None and made[0] is campaign and len(made[1]) == len(campaign.gangs) else None
        for i, gang in enumerate(campaign.gangs):
            gname = self._gang_files.get(gang.id) or folder.gang_file_name(gang.id)
            order = orders[gang.id]
            gang_names[gang.id] = gname
            fdata = folder.gang_file_data(gang, order, stem_of, plains[i] if plains is not None else None)
            if gname in self._gang_texts and fdata == self._gang_before(gname) \
                    and (self.gangs_dir / gname).exists():
                continue  # (what its file reads as already: not written out again to compare)
            gtext, gdata = folder.gang_text_and_data(gang, order, self._gang_texts.get(gname), data=fdata)
            if self._gang_texts.get(gname) != gtext or not (self.gangs_dir / gname).exists():
                writes.append((self.gangs_dir / gname, gtext))
                parsed[self.gangs_dir / gname] = gdata
                changed[gang.id] = (self._gang_before(gname), gdata)
        for gang_id, old_name in self._gang_files.items():
            if gang_id not in gang_names and old_name not in gang_names.values():
                deletes.append(self.gangs_dir / old_name)
                changed[gang_id] = (self._gang_before(old_name), None)
        battle_writes: list[tuple[int, str, str | None, dict[str, Any], Any]] = []
        plain_summaries: dict[int, dict[str, Any]] = {}  # (campaign_text's data of each)
        if made is not None and made[0] is campaign and len(made[2]) == len(campaign.battles):
            for s, plain in zip(campaign.battles, made[2]):
                plain_summaries.setdefault(s.number, plain)
        for number in sorted(set(summaries) | {n for n, js in self._summaries.items() if js is not None}):
            summary = summaries.get(number)
            plain = plain_summaries.get(number)
            js = (folder.summary_json(summary) if plain is None or summary is None
                  else cache.as_json({k: v for k, v in plain.items() if k != folder.NUMBER}))
            name = self._battle_files.get(number)
            if name is not None and self._summaries.get(number) == js and number not in self._numbers:
                continue
            if summary is None and name is None:
                continue
            data: dict[str, Any] = {}
            if name is not None:
                try:
                    data = self._load_whole(number)
                except KeyError:
                    data = {}
                except SaveError as error:  # a battle file broken from outside: left alone
                    self.problems.append(str(error))
                    continue
            else:
                name = self._name_for(number, summary)
            plain = folder.battle_plain(number, summary, data)
            from . import battle_comments  # a file commented by hand keeps its comments

            btext, bdoc = battle_comments.text_to_write(self.battles_dir / name, tomlemit.dumps(plain), plain)
            writes.append((self.battles_dir / name, btext))
            battle_writes.append((number, name, js, plain, bdoc))
        from . import records

        made_records = records.save_records(self, campaign, changed, stem_of, {w[0] for w in battle_writes})
        writes += [(path, rtext) for path, rtext, _r in made_records]
        if not writes and not deletes:
            return
        if len(writes) == 1 and not deletes:
            path, wtext = writes[0]
            self._write(path, wtext, sync_dir_later=path.parent == self.battles_dir)
        else:
            from .journal import Transaction

            tx = Transaction(self.path)
            for path, wtext in writes:
                last, now = self._written.get(path), _stat_key(path)
                if last is not None and now is not None and last[1] != now:
                    self._outside_edit(path, last[0], wtext)  # (a hand edit meanwhile: kept aside)
                tx.write(path, wtext, backup_dir_of(path))
            for path in deletes:
                tx.delete(path, backup_dir_of(path))
            tx.commit()
            for path, wtext in writes:
                self._written[path] = (wtext, _stat_key(path))
        for path, wtext in writes:
            if path.parent == self.gangs_dir:
                self._gang_texts[path.name] = wtext
                self._gang_data[path.name] = parsed[path]
                cache.remember_parse(path, wtext, parsed[path])  # (reads back as its data)
        for path in deletes:
            self._gang_texts.pop(path.name, None)
            self._gang_data.pop(path.name, None)
        self._gang_files, self._gang_order = gang_names, orders
        records.saved(self, [r for _p, _t, r in made_records])
        for number, name, js, plain, bdoc in battle_writes:
            path = self.battles_dir / name
            from . import battle_comments

            battle_comments.written(path, bdoc)
            self._battle_files[number] = name
            self._new_names.pop(number, None)
            self._summaries[number] = js
            self._numbers.pop(number, None)
            self._verified[number] = _stat_key(path)
            if self._parts is not None and self._parts[0] == number:
                self._parts = None
            if self._valid_battle is not None and self._valid_battle[0] == number:
                self._valid_battle = None
            self._emit_memo = (0, {}) if self._emit_memo[0] == number else self._emit_memo
            self._remember_battle(number, path, self._written[path][0], plain)

    def _gang_before(self, name: str) -> dict[str, Any] | None:
        """A gang file's data as we last read or wrote it (None: a new file)."""
        data = self._gang_data.get(name)
        if data is None and name in self._gang_texts:
            try:
                data = cache.parsed(self.gangs_dir / name, self._gang_texts[name])
            except SaveError:
                data = None
            else:  # (an open from .cache/decoded.json parses a gang's text when first asked)
                self._gang_data[name] = data
        return data

    def _name_for(self, number: int, summary: Any = None) -> str:
        """The file name battle ``number`` has, or takes when first written."""
        name = self._battle_files.get(number) or self._new_names.get(number)
        if name is None:
            if summary is None:
                summary = self._summary_of(number)
            taken = set(self._battle_files.values()) | set(self._new_names.values())
            name = folder.new_battle_file_name(summary.date if summary is not None else "", taken)
            self._new_names[number] = name
        return name

    def _summary_of(self, number: int) -> Any:
        return summary_of(self.campaign, number)

    def _folder_key(self, text: str) -> str:
        """The key :func:`folder.read_folder` works out for the files as we left them."""
        gangs = sorted((name, t) for name, t in self._gang_texts.items())
        entries = [folder.BattleEntry(name, self._numbers.get(n, n), None) for n, name in self._battle_files.items()]
        entries += self._problem_entries
        entries.sort(key=lambda e: e.name)
        by_name = {name: n for n, name in self._battle_files.items()}
        jsons = {name: self._summaries.get(n) for name, n in by_name.items()}
        return folder.folder_key(text, gangs, folder.battles_digest(entries, jsons))

    def _cache(self, text: str) -> None:
        """Remember what campaign.toml now holds (``saves.cache``): the next open is fast."""
        made, self._parsed = self._parsed, None
        if made is not None and made[0] == text and made[1] is not None:
            cache.remember_parse(self.file, text, made[1])
        cache.remember_views(self.file, self._folder_key(text), self.campaign)

    def _write(self, path: Path, text: str, *, sync_dir_later: bool = False) -> None:
        """Atomic write with a backup, skipped when the file already holds ``text``
        (so saving twice does not push real versions out of the backups)."""
        last = self._written.get(path)
        now = _stat_key(path)
        if last is not None and last[0] == text and last[1] == now:
            return
        if last is not None and now is not None and last[1] != now:
            self._outside_edit(path, last[0], text)
        atomic_write_text(path, text, backup_dir=backup_dir_of(path), sync_dir_later=sync_dir_later)
        self._written[path] = (text, _stat_key(path))

    def _outside_edit(self, path: Path, ours: str, text: str) -> None:
        """``path`` changed since we last read or wrote it (``ours``) and ``text`` is about
        to replace it: if that drops a change made from outside (a hand edit while the
        campaign is open), the changed file is kept aside and the player told. A change
        ``text`` keeps (a battle file's other parts, read again before the save; a comment)
        is no loss and says nothing."""
        try:
            current = read_text(path)
        except SaveError:
            return
        if current == ours or current == text:
            return
        try:  # the top-level tables the outside change touched: does ``text`` keep them?
            mine, theirs, new = (parse_text(path, t) for t in (ours, current, text))
        except SaveError:
            return  # a broken edit: kept aside as such by the caller
        touched = [k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k)]
        if all(new.get(k) == theirs.get(k) for k in touched):
            return
        kept = _keep_aside(path, backup_dir_of(path), "edited")
        try:
            where = path.relative_to(self.path)
        except ValueError:  # pragma: no cover - a file of the campaign is in its folder
            where = path
        message = (f"{where} was changed outside munda-tui while the campaign was open; the "
                   f"app's save replaced that change. The changed file is kept as "
                   f"{kept.relative_to(self.path) if kept.is_relative_to(self.path) else kept}.")
        notice = self.store.on_notice
        if notice is not None:
            notice(message)

    # --- battle files -------------------------------------------------------------

    def battle_path(self, number: int) -> Path:
        """Battle ``number``'s file (``battles/<date>-<random>.toml``; for a battle not
        written yet, the name its first write takes)."""
        if type(number) is not int or number < 0:
            raise ValueError(f"not a battle number: {number!r}")
        return self.battles_dir / self._name_for(number)

    def battle_numbers(self) -> list[int]:
        """Numbers of the battle files on disk, ascending."""
        missing = {e.name for e in self._problem_entries if e.summary is not None or e.number is not None}
        if not missing:
            return sorted(self._battle_files)
        return sorted(n for n, name in self._battle_files.items()
                      if name not in missing or (self.battles_dir / name).exists())

    def load_battle(self, number: int) -> dict[str, Any]:
        """A battle file's data (without ``schema_version``, its number and summary:
        the summary is ``campaign.battles``').

        KeyError if there is no such file; SaveError if it does not load.
        """
        data = self._load_whole(number)
        data.pop(folder.NUMBER, None)
        data.pop(folder.SUMMARY, None)
        # the tracker's saves since the file was last written (a crash, or open), checked
        # as `munda-tui check` checks them: a line that is not one, or whose change the
        # file would not load with, is left out with the lines after it, and said
        part, problem = battle_log.load(battle_log.path_of(self.battle_path(number)), data.get("battle") or {})
        if part is not None:
            data["battle"] = part
        if problem is not None:
            self.journal_problems[number] = str(problem)
        else:
            self.journal_problems.pop(number, None)
        return data

    # --- the tracker's journal (saves.battle_log) -------------------------------------

    def journal_battle(self, number: int, data: dict[str, Any]) -> None:
        """Save the tracker's record (the ``battle`` part, the rules' own model written
        out) by appending what changed to the battle's journal: one line a key, whatever
        the log's length. The first save of a battle, and every
        :data:`battle_log.FOLD_EVERY` lines, writes the whole part into the battle file
        instead (:meth:`update_battle`). WriteFailed when the disk refuses (nothing of
        the line counts; the file and journal as they were)."""
        self._check_open()
        known = self._journal.get(number)
        if known is None or known[1] + 1 >= battle_log.FOLD_EVERY:
            self.update_battle(number, "battle", data, checked=True)
            return
        line = battle_log.delta(known[0], data)
        if line is None:
            return
        battle_log.append(battle_log.path_of(self.battle_path(number)), line)
        self._journal[number] = (data, known[1] + 1)

    def fold_battle_log(self, number: int) -> None:
        """Write the battle's journal into its file (the TOML a player reads) and remove
        it: when the battle moves on, when the tracker is left, when the campaign closes."""
        self._check_open()
        known = self._journal.get(number)
        if known is not None and known[1]:
            self.update_battle(number, "battle", known[0], checked=True)
        elif known is None and battle_log.path_of(self.battle_path(number)).exists():
            whole = self.load_battle(number)  # (a journal left by a crash)
            self.update_battle(number, "battle", whole.get("battle") or {}, checked=True)

    def fold_battle_logs(self) -> None:
        """Every journal this handle wrote, folded (at the close: a failure leaves the
        journal, read again at the next load)."""
        for number in list(self._journal):
            try:
                self.fold_battle_log(number)
            except (SaveError, OSError, KeyError, ValueError):
                pass

    def _load_whole(self, number: int) -> dict[str, Any]:
        self._check_open()
        self._refuse_left_out(number)
        path = self.battle_path(number)
        if not path.exists():
            raise KeyError(f"no battle {number} in {self.slug!r}")
        memo = self._battle_memo.get(number)
        raw: dict[str, Any] | None = None
        if memo is not None and memo[0] == _stat_key(path):
            text, raw_json = memo[1], memo[2]
        else:
            text, raw_json = read_text(path), None
        valid = self._valid_battle
        if valid is not None and valid[0] == number and valid[1] == text:
            # the same text loaded and validated a moment ago (opening a battle checks its
            # file, then its screen loads it): a fresh copy of that data, not a second check
            self._verified[number] = _stat_key(path)
            self._written[path] = (text, self._verified[number])
            again = json.loads(valid[2])
            again.pop("schema_version", None)  # (the JSON of what update_battle wrote has it)
            return again
        if raw_json is not None:
            raw = json.loads(raw_json)
        else:
            raw = cache.read_battle(path, text)
            if raw is None:
                raw = parse_text(path, text)
                as_json = cache.battle_json(raw)
                if as_json is not None:
                    cache.write_battle(path, text, as_json)
        data, version = load_battle_file(path, text, data=raw)
        if version < codec.SCHEMA_VERSIONS[codec.BATTLE]:  # pragma: no cover - no battle migrations yet
            _keep_aside(path, backup_dir_of(path), f"schema{version}")
            atomic_write_text(path, tomlemit.dumps(codec.battle_to_data(data)), backup_dir=backup_dir_of(path))
            text = read_text(path)
        self._verified[number] = _stat_key(path)
        self._written[path] = (text, self._verified[number])  # what the app now holds
        valid_json = cache.battle_json(data)
        self._valid_battle = None if valid_json is None else (number, text, valid_json)
        return data

    def update_battle(self, number: int, part: str, data: Any, *,
                      checked: bool = False) -> None:
        """Replace one part of a battle file and keep the others (``load_battle`` gives
        the whole).

        Each stage owns one top-level table (``setup`` the pre-battle flow, ``battle`` the
        tracker, ``postbattle`` the wizard, ``report`` the report): this is the one place
        that loads the file, changes that table and saves it back. A battle without a file
        yet gets one; a file that does not load raises SaveError and is never written over.
        ``checked``: the part is the rules' own model written out (the tracker's record,
        saved on every key: its events were checked as they were recorded), not checked
        again here (a 1,000-event log took ~10 ms a key).
        """
        path = self.battle_path(number)
        known = self._parts_of(number, path)
        if known is None:  # not the battle updated last, or its file changed since
            ours = self._written.get(path)
            try:
                whole = self.load_battle(number)  # no parse while the memo of our last write holds
            except KeyError:
                whole = {}
            if ours is not None:  # (what we wrote last: an outside edit of this part is found at the write)
                self._written[path] = ours
            known = self._parts_from(whole)
        else:  # a part kept as JSON alone (the last one written) is read only when needed
            whole = {}
            for k, (js, kept) in list(known.items()):
                if k != part and kept is None:
                    kept = json.loads(js)
                    known[k] = (js, kept)
                whole[k] = kept
        new_json = cache.battle_json(data)
        whole[part] = data
        if self._emit_memo[0] != number:
            self._emit_memo = (number, {})
        self._parts = None  # until this write is done
        fingerprints = None
        if known is not None and new_json is not None:
            known = dict(known)  # (the part keeps its place: the file's order is kept)
            # its JSON alone: read into a copy of ours if a later update keeps it (the
            # tracker replaces its record on every key: never read back)
            known[part] = (new_json, None)
            fingerprints = {k: js for k, (js, _copy) in known.items()}
        self.save_battle(number, whole, _memo=self._emit_memo[1], _fresh=frozenset({part}),
                         _fingerprints=fingerprints)
        if part == "battle":  # the whole record is in the file now: its journal is done
            journal = battle_log.path_of(path)
            if self.journal_problems.pop(number, None) is not None and journal.exists():
                _keep_aside(journal, backup_dir_of(journal), "broken")  # (its lines left out)
            battle_log.remove(journal)
            self._journal[number] = (data, 0)
        if known is not None and fingerprints is not None:
            self._parts = (number, _stat_key(path), known)
        # The other parts were checked as they loaded: the new one alone is checked now,
        # so the next load of this very text (the next step's) is not a second check of
        # the whole file. One that fails is found by that load, as without this.
        remembered = self._battle_memo.get(number)
        if remembered is not None and part != "schema_version":
            from . import battle_schema

            try:
                if not checked:
                    battle_schema.check_part(part, data)
            except ValidationError:
                pass
            else:
                self._valid_battle = (number, remembered[1], remembered[2])

    def _parts_of(self, number: int, path: Path) -> dict[str, tuple[str, Any | None]] | None:
        """The parts :meth:`update_battle` kept of battle ``number`` (JSON, private copy)
        while its file is the one it wrote, else None."""
        parts = self._parts
        if parts is None or parts[0] != number or parts[1] is None or parts[1] != _stat_key(path):
            return None
        return parts[2]

    @staticmethod
    def _parts_from(whole: dict[str, Any]) -> dict[str, tuple[str, Any | None]] | None:
        """Each part's JSON and the data itself (``whole`` is a fresh load, ours alone);
        None if one cannot be written as JSON (then nothing is kept)."""
        out: dict[str, tuple[str, Any | None]] = {}
        for k, v in whole.items():
            js = cache.battle_json(v)
            if js is None:
                return None
            out[k] = (js, v)
        return out

    def save_battle(self, number: int, data: dict[str, Any], *,
                    _memo: tomlemit.EmitMemo | None = None,
                    _fresh: frozenset[str] = frozenset(),
                    _fingerprints: dict[str, str] | None = None) -> None:
        """Write a battle file atomically (plain data only; TypeError otherwise).

        An existing file that does not load and was not read in this session
        is never written over (SaveError). One that was broken by an edit from
        outside after it was read is kept as ``<name>.broken.bak`` first.
        (``_memo``: :meth:`update_battle`'s, so the parts it keeps are not written again,
        nor the unchanged items of the part it replaced, ``_fresh``; ``_fingerprints``:
        the JSON of every part of ``data``, known to it.)
        """
        self._check_open()
        self._refuse_left_out(number)
        path = self.battle_path(number)
        if self._parts is not None and self._parts[0] == number:
            self._parts = None  # (update_battle keeps them again once written)
        js = self._summaries.get(number)
        plain = folder.battle_plain(number, None if js is None else json.loads(js), data)
        if _fingerprints is not None:
            _fingerprints = dict(_fingerprints)
            if js is not None:
                _fingerprints[folder.SUMMARY] = js
        try:
            text = tomlemit.dumps(plain, _memo, _fresh, _fingerprints)
        except tomlemit.WouldNotReadBack as error:  # (data read before the reader's guards)
            raise SaveError(path, 1, 1, f"not saved: {error}") from None
        if path.exists():
            known = self._verified.get(number)
            if known is None:
                self.load_battle(number)
            elif known != _stat_key(path):
                try:
                    load_battle_file(path)
                except SaveError:
                    _keep_aside(path, backup_dir_of(path), "broken")
        from . import battle_comments  # a file commented by hand keeps its comments

        text, doc = battle_comments.text_to_write(path, text, plain)
        self._write(path, text, sync_dir_later=True)
        battle_comments.written(path, doc)
        self._verified[number] = _stat_key(path)
        whole_json = None
        if _fingerprints is not None and all(k in _fingerprints for k in plain if k not in ("schema_version", folder.NUMBER)):
            whole_json = "{" + ",".join(  # what cache.battle_json(plain) gives, from its parts
                json.dumps(k, ensure_ascii=False) + ":" + (
                    json.dumps(v) if k in ("schema_version", folder.NUMBER) else _fingerprints[k])
                for k, v in plain.items()) + "}"
        self._battle_files[number] = path.name
        self._new_names.pop(number, None)
        self._summaries.setdefault(number, js)
        self._remember_battle(number, path, text, plain, whole_json)

    def _remember_battle(self, number: int, path: Path, text: str, plain: dict[str, Any],
                         as_json: str | None = None) -> None:
        """Keep the saved battle's data (as JSON: a copy, lists as tomllib gives them;
        ``as_json`` when the caller has it already)."""
        self._battles_written = True
        if as_json is None:
            as_json = cache.battle_json(plain)
        self._flush_battle_memos(keep=number)
        if as_json is None:
            self._battle_memo.pop(number, None)
        else:
            self._battle_memo[number] = (_stat_key(path), text, as_json)

    def _flush_battle_memos(self, keep: int | None = None) -> None:
        """Write the remembered battles (but ``keep``) to the cache on disk."""
        for n in [n for n in self._battle_memo if n != keep]:
            stat, text, as_json = self._battle_memo.pop(n)
            path = self.battle_path(n)
            if stat is not None and stat == _stat_key(path):
                cache.write_battle(path, text, as_json)

    def delete_battle(self, number: int) -> None:
        """Remove a battle file (its last version stays in the backups)."""
        self._check_open()
        path = self.battle_path(number)
        self._battles_written = True
        if path.exists():
            _keep_aside(path, backup_dir_of(path), "deleted")
            with guarded_write(path):
                path.unlink()
            self._written.pop(path, None)
        battle_log.remove(battle_log.path_of(path))
        self._journal.pop(number, None)
        self._battle_files.pop(number, None)
        self._new_names.pop(number, None)
        self._summaries.pop(number, None)
        self._numbers.pop(number, None)
        self._verified.pop(number, None)
        self._battle_memo.pop(number, None)
        if self._parts is not None and self._parts[0] == number:
            self._parts = None
        if self._valid_battle is not None and self._valid_battle[0] == number:
            self._valid_battle = None


def _reads_back(text: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """What tomllib reads from ``text`` if that is ``data``, else None."""
    import tomllib

    from . import tomldoc
    from .files import toml_loads

    try:
        parsed = toml_loads(text)
    except tomllib.TOMLDecodeError:
        return None
    return parsed if tomldoc.same(parsed, data) else None


__all__ = ["CampaignHandle", "CampaignInfo", "CampaignLocked", "SaveError", "Store"]
