"""The campaign's records on disk (issue 30): ``records/<date>-<id>.toml``.

Each applied battle, roster edit, new or removed gang and answered league question is
a record file, written once and never changed (``rules.history.fold`` says what each
holds and how they fold). The gang files are the fold of the records: this module
keeps them so.

- :func:`records_for_save`: what a save of the campaign adds (the handle writes the
  record files in the same transaction as the gang files they explain).
- :class:`Keeper.open`: at every open, a folder without records gets each gang's
  starting record (the migration: the current gang file, nothing lost; kill-safe, a
  starting record's id is its content's, so doing it twice makes the same files); a
  gang file that differs from the fold is a hand edit (an edit record, said on screen)
  or a file the fold moved on from (the records a sync brought: written again).
- the fold's result is cached in ``.cache/records.json`` keyed by the records'
  listing and the gang files' texts: an unchanged campaign opens without folding.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import os
import socket
import time
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..rules.history import fold as folding
from ..rules.history.fold import START_DATE, Question, Record
from ..rules.core import model as m
from . import codec, tomlemit
from .errors import SaveError, WriteFailed
from .files import RECORDS_DIR, toml_loads
from .folder import PlaceholderRefs
RECORD_VERSION = 1
CACHE_FILE = "records.json"
CACHE_VERSION = 1
_KEYS = ("id", "date", "kind", "by", "gang", "data", "battle", "changes", "assumed", "after", "target",
         "index", "answer", "amount", "note")
_ALLOWED = frozenset(_KEYS) | {"schema_version"}


# --- a record as a file ------------------------------------------------------------------


def file_name(r: Record) -> str:
    return f"{r.date}-{r.id}.toml"


def to_data(r: Record, stem_of: Any = None) -> dict[str, Any]:
    """A record's file data (``stem_of``: a battle number's file stem, for the changes)."""
    out: dict[str, Any] = {"schema_version": RECORD_VERSION, "id": r.id, "date": r.date, "kind": r.kind}
    if r.by:
        out["by"] = r.by
    if r.note:
        out["note"] = r.note
    if r.gang:
        out["gang"] = r.gang
    if r.battle:
        out["battle"] = r.battle
    if r.after:
        out["after"] = dict(r.after)
    if r.kind == "correction":
        out.update(target=r.target, index=r.index, answer=r.answer, amount=r.amount)
    if r.assumed:
        out["assumed"] = dict(r.assumed)
    if r.data is not None:
        out["data"] = dict(r.data)
    if r.changes:
        changes = [dict(c) for c in r.changes]
        if stem_of is not None:
            for c in changes:
                if type(c.get("battle")) is int:
                    stem = stem_of(c["battle"])
                    if stem is not None:
                        c["battle"] = stem
        out["changes"] = changes
    return out


def from_data(data: Mapping[str, Any], number_of: Any = None) -> Record:
    """A record from its file's data (ValueError naming what is wrong)."""
    if data.get("schema_version") != RECORD_VERSION:
        raise ValueError(f"schema_version {data.get('schema_version')!r}: this munda-tui reads records of "
                         f"version {RECORD_VERSION}")
    kind = data.get("kind")
    if kind not in folding.KINDS:
        raise ValueError(f"kind {kind!r} is not one of {', '.join(folding.KINDS)}")
    for key in ("id", "date"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ValueError(f"{key}: expected a text")
    for key in ("by", "gang", "battle", "target", "answer", "note"):
        if not isinstance(data.get(key, ""), str):
            raise ValueError(f"{key}: expected a text")
    for key in ("index", "amount"):
        if type(data.get(key, 0)) is not int:
            raise ValueError(f"{key}: expected an integer")
    for key in ("after", "assumed"):
        value = data.get(key, {})
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise ValueError(f"{key}: expected a table of texts")
    changes = data.get("changes", [])
    if not isinstance(changes, list) or not all(isinstance(c, dict) for c in changes):
        raise ValueError("changes: expected a list of tables")
    if kind in ("start",) and not isinstance(data.get("data"), dict):
        raise ValueError("data: a starting record holds the gang")
    if kind in ("start", "edit", "remove") and not data.get("gang"):
        raise ValueError("gang: expected the gang's id")
    if not _ALLOWED.issuperset(data):
        raise ValueError(f"unknown key {sorted(set(data) - _ALLOWED)[0]!r}")
    if number_of is not None and kind == "battle":
        changes = [{**c, "battle": number_of(c["battle"])} if isinstance(c.get("battle"), str) else c
                   for c in changes]
    return Record(id=data["id"], date=data["date"], kind=kind, by=data.get("by", ""), gang=data.get("gang", ""),
                  data=data.get("data"), battle=data.get("battle", ""), changes=tuple(changes),
                  assumed=dict(data.get("assumed", {})), after=dict(data.get("after", {})),
                  target=data.get("target", ""), index=data.get("index", 0), answer=data.get("answer", ""),
                  amount=data.get("amount", 0), note=data.get("note", ""))


def record_text(r: Record, stem_of: Any = None) -> str:
    return tomlemit.dumps(to_data(r, stem_of))


def listing(directory: Path) -> list[tuple[str, int, int]]:
    """(name, size, mtime) of each record file, by name."""
    out = []
    try:
        with os.scandir(directory / RECORDS_DIR) as entries:
            for e in entries:
                if e.name.endswith(".toml") and not e.name.startswith("."):
                    st = e.stat()
                    out.append((e.name, st.st_size, st.st_mtime_ns))
    except (FileNotFoundError, NotADirectoryError):
        pass
    out.sort()
    return out


PARSED_FILE = "records-parsed.json"  # .cache/: each record file's data, by its name and stat


def read_records(directory: Path, number_of: Any = None,
                 names: Iterable[str] | None = None) -> tuple[list[Record], list[str]]:
    named, problems = read_named(directory, number_of, names)
    return list(named.values()), problems


def read_named(directory: Path, number_of: Any = None,
               names: Iterable[str] | None = None) -> tuple[dict[str, Record], list[str]]:
    """Every record of the folder, and the files that do not load (``path:line:col:
    why``, left out of the fold). A record file read before (the same size and mtime)
    is taken from ``.cache/records-parsed.json``: a sync that brought 10 records parses
    10 files, not the league's 2,000."""
    from .atomic import atomic_write_text

    records: dict[str, Record] = {}
    problems: list[str] = []
    cache_path = directory / ".cache" / PARSED_FILE
    try:
        known = _json(cache_path.read_bytes())
        if not isinstance(known, dict) or known.get("v") != CACHE_VERSION:
            known = {}
    except (OSError, ValueError):
        known = {}
    seen_files = known.get("files")
    files: dict[str, Any] = seen_files if isinstance(seen_files, dict) else {}
    listed = listing(directory)
    if names is not None:
        wanted = set(names)
        listed = [e for e in listed if e[0] in wanted]
    fresh: dict[str, Any] = {}
    changed = False
    folder = directory / RECORDS_DIR
    for name, size, mtime in listed:
        path = folder / name
        seen = files.get(name)
        if isinstance(seen, list) and len(seen) == 3 and seen[0] == size and seen[1] == mtime:
            data = seen[2]
        else:
            changed = True
            try:
                data = toml_loads(path.read_text(encoding="utf-8"))
            except FileNotFoundError:
                continue
            except tomllib.TOMLDecodeError as error:
                line, col = getattr(error, "lineno", 1), getattr(error, "colno", 1)
                problems.append(f"{path}:{line}:{col}: {getattr(error, 'msg', str(error))}")
                continue
            except (UnicodeDecodeError, OSError) as error:
                problems.append(f"{path}:1:1: {error}")
                continue
        fresh[name] = [size, mtime, data]
        try:
            records[name] = from_data(data, number_of)
        except ValueError as error:
            problems.append(f"{path}:1:1: {error}")
    if names is None and (changed or len(fresh) != len(files)):
        try:
            cache_path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(cache_path, json.dumps({"v": CACHE_VERSION, "files": fresh}))
        except (OSError, WriteFailed, ValueError, TypeError):
            pass
    return records, problems


FOLD_FILE = "fold-state.json"  # .cache/: the last fold put aside, to fold on from (a sync)
FOLD_VERSION = 1


def text_digest(text: str) -> str:
    """A gang file's text, in short (the kept fold's ``texts``)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def blob_id(data: bytes) -> str:
    """A file's git blob id (what ``git hash-object`` says of ``data``)."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def kept_fold(directory: Path) -> dict[str, Any] | None:
    """The last fold put aside (``league_records.fold_on``): ``records`` (each record
    file it folded: name -> blob id) and ``state``; None when there is none that reads."""
    try:
        data = _json((directory / ".cache" / FOLD_FILE).read_bytes())
    except (OSError, ValueError):
        return None
    if (not isinstance(data, dict) or data.get("v") != FOLD_VERSION or not isinstance(data.get("records"), dict)
            or not isinstance(data.get("state"), dict)):
        return None
    return data


def keep_fold(directory: Path, folded_records: Mapping[str, str] | None, state: Mapping[str, Any] | None,
              gang_texts: Mapping[str, str] | None = None) -> None:
    """Put the fold aside (see :func:`kept_fold`) with the gang files' texts it made or
    kept (``gang_texts``: path -> text; their digests); a fold that cannot be (a record
    not in the file its name says) leaves none, so the next sync folds every record."""

    import msgspec

    from .atomic import atomic_write_bytes

    path = directory / ".cache" / FOLD_FILE
    try:
        if folded_records is None or state is None:
            path.unlink(missing_ok=True)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        texts = {p: text_digest(t) for p, t in (gang_texts or {}).items()}
        atomic_write_bytes(path, msgspec.json.encode({"v": FOLD_VERSION, "records": folded_records, "state": state,
                                                      "texts": texts}),
                           durable=False)  # (a cache: lost, the next sync folds every record)
    except (OSError, WriteFailed, ValueError, TypeError):
        pass


def _json(raw: bytes) -> Any:
    """JSON's data (ValueError where it is not JSON): msgspec's decoder, several times
    json's speed on the 2,000 records' data, json's where msgspec does not take it (NaN)."""
    import msgspec

    try:
        return msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return json.loads(raw)


# --- ids, dates, who -------------------------------------------------------------------------


def player() -> str:
    """Who made a record: the player's name if set (MUNDA_PLAYER), else user@laptop."""
    named = os.environ.get("MUNDA_PLAYER", "").strip()
    if named:
        return named[:80]
    try:
        user = getpass.getuser()
    except Exception:  # noqa: BLE001 - no user name known: the laptop's alone
        user = ""
    host = socket.gethostname().split(".")[0]
    return f"{user}@{host}" if user else host


def today() -> str:
    return time.strftime("%Y-%m-%d", time.gmtime())


_MADE: dict[str, str] = {}  # date -> the last id this process made for it


def new_key(date: str, after: Iterable[tuple[str, str]]) -> tuple[str, str]:
    """(date, id) for a new record: its id the time it is made (UTC) and a random part, so
    a laptop's records sort as it made them (two of one date made within a second too:
    the later one's id after the earlier's); never before a record it was made on top of
    (``after``: their keys)."""
    stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime())
    key = (date or today(), f"{stamp}{os.urandom(4).hex()}")
    last = _MADE.get(key[0])
    for head in [*after, *([(key[0], last)] if last is not None else [])]:
        if key <= head:
            base = head[1][:14]
            bumped = str(int(base) + 1) if base.isdigit() else stamp
            key = (head[0], f"{bumped}{os.urandom(4).hex()}")
    _MADE[key[0]] = max(key[1], _MADE.get(key[0], ""))
    return key


def start_record(gang_id: str, data: Mapping[str, Any], by: str = "", note: str = "") -> Record:
    """A gang's starting record: its id is its content's, so the same roster started
    on two laptops (a league migrating on each) is one file."""
    body = {k: v for k, v in data.items() if k != "schema_version"}
    digest = hashlib.sha256(json.dumps([gang_id, body], sort_keys=True, default=str).encode()).hexdigest()[:16]
    return Record(id=f"start-{digest}", date=START_DATE, kind="start", gang=gang_id, data=body, by=by, note=note)


# --- the gangs as the fold holds them --------------------------------------------------------


class Refs(PlaceholderRefs):
    """Battles named by file stem in records and gang files, and by number in memory
    (a name no battle of the campaign has: a number of its own below 0)."""


@dataclass
class FileCodec:
    """:class:`rules.history.fold.GangCodec` for gang files."""

    refs: Refs

    def decode(self, data: Mapping[str, Any]) -> m.Gang:
        from .folder import gang_refs_from_file

        body = {k: v for k, v in data.items() if k not in ("schema_version", "order")}
        gang = codec.from_data(m.Gang, gang_refs_from_file(body, self.refs.number_of))
        codec._unique(gang.fighters, "id", ("fighters",), "fighter")
        return gang  # type: ignore[no-any-return]

    def encode(self, gang: m.Gang, order: int) -> dict[str, Any]:
        from .folder import gang_file_data

        data = gang_file_data(gang, order, self.refs.stem_of)
        data.pop("schema_version", None)
        return data


def body(data: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A gang file's data as the fold holds it (no schema_version)."""
    if data is None:
        return None
    return {k: v for k, v in data.items() if k != "schema_version"}


@dataclass
class Battle:
    """A battle applied by a save: its file stem, date and post-battle changes."""

    stem: str
    date: str
    changes: list[dict[str, Any]]
    number: int = 0


def records_for_save(before: Mapping[str, dict[str, Any] | None], after: Mapping[str, dict[str, Any] | None],
                     battles: list[Battle], heads: Mapping[str, tuple[str, str]], refs: Refs,
                     by: str = "") -> list[Record]:
    """The records a save makes: ``before``/``after`` each changed gang's file data
    (None: no gang), ``battles`` the battles applied by it. Each battle's changes are
    its record; what else changed (a roster edit) an edit record per gang, so the fold
    of the records gives ``after`` exactly."""
    out: list[Record] = []
    heads = dict(heads)
    state: dict[str, dict[str, Any] | None] = {g: body(d) for g, d in before.items()}
    by = by or player()
    fcodec = FileCodec(refs)
    for battle in battles:
        changes = [c for c in battle.changes if isinstance(c, dict)]
        named = {str(c.get(k)) for c in changes for k in ("gang", "to_gang", "from_gang") if c.get(k)}
        involved = [g for g in sorted(named) if state.get(g) is not None]
        date, rid = new_key(battle.date, [heads[g] for g in involved if g in heads])
        assumed = folding.assumed_statuses({g: state[g] or {} for g in involved}, changes)
        record = Record(id=rid, date=date, kind="battle", by=by, battle=battle.stem, changes=tuple(changes),
                        assumed=assumed, after={g: heads[g][1] for g in involved if g in heads},
                        note=f"battle {battle.number}" if battle.number else "")
        out.append(record)
        mini = [start_record(g, state[g] or {}) for g in involved]
        result = folding.fold([*mini, record], fcodec)
        for g in involved:
            if g in result.gangs:
                state[g] = result.gangs[g]
            heads[g] = record.key
    for gid in sorted(set(before) | set(after)):
        was, now = state.get(gid), body(after.get(gid))
        if was == now:
            continue
        if now is None:
            date, rid = new_key(today(), [heads[gid]] if gid in heads else [])
            out.append(Record(id=rid, date=date, kind="remove", by=by, gang=gid, note="gang removed"))
            continue
        if was is None:
            out.append(start_record(gid, now, by))
            continue
        date, rid = new_key(today(), [heads[gid]] if gid in heads else [])
        out.append(Record(id=rid, date=date, kind="edit", by=by, gang=gid, changes=tuple(folding.diff(was, now)),
                          after={gid: heads[gid][1]} if gid in heads else {}, note="roster edited"))
        heads[gid] = (date, rid)
    return out


# --- the keeper: records and gang files agree -------------------------------------------------


@dataclass
class Keeper:
    """What the open campaign knows of its records."""

    directory: Path
    heads: dict[str, tuple[str, str]] = field(default_factory=dict)
    questions: list[Question] = field(default_factory=list)
    battles: list[str] = field(default_factory=list)  # stems in fold order
    battle_keys: dict[str, tuple[str, str]] = field(default_factory=dict)  # stem -> its record's key
    problems: list[str] = field(default_factory=list)  # record files that do not load
    notices: list[str] = field(default_factory=list)  # said on screen once (hand edits taken in)
    answered: list[tuple[Record, Record]] = field(default_factory=list)
    #: gang file name -> digest of its text as the fold and the files last agreed (this
    #: session's saves included; None: not known yet, the cache's then)
    agreed: dict[str, str] | None = None
    #: a league merge's fold of the records it wrote (``saves.league``), taken by the next
    #: read of the campaign instead of folding them again where the folder is as the
    #: merge wrote it (the record files it folded, the gang files it made)
    preset: "Preset | None" = None
    #: what .cache/records.json says while nothing changed since it was read or written
    #: (the close does not write it again): the gang files' digests
    _clean: dict[str, str] | None = None

    def agree(self, gang_texts: Mapping[str, str]) -> None:
        self.agreed = {n: _hash(t) for n, t in gang_texts.items()}

    @property
    def cache_path(self) -> Path:
        return self.directory / ".cache" / CACHE_FILE

    def _read_cache(self) -> dict[str, Any] | None:
        try:
            data = _json(self.cache_path.read_bytes())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and data.get("v") == CACHE_VERSION else None

    def remember(self, gang_texts: Mapping[str, str]) -> None:
        """Cache the fold for the records and gang files as they are now (nothing
        written when the cache says so already: nothing changed since it was read)."""
        from .atomic import atomic_write_text

        gangs = {n: _hash(t) for n, t in sorted(gang_texts.items())}
        if self._clean is not None and self._clean == gangs:
            return
        data = {"v": CACHE_VERSION, "key": _listing_key(listing(self.directory)),
                "gangs": gangs,
                "heads": {g: list(k) for g, k in self.heads.items()},
                "questions": [asdict(q) for q in self.questions], "battles": self.battles,
                "battle_keys": {s: list(k) for s, k in self.battle_keys.items()},
                "problems": self.problems}
        try:
            self.cache_path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self.cache_path, json.dumps(data))
            self._clean = gangs
        except (OSError, WriteFailed, ValueError):
            pass

    def changed(self) -> None:
        """The fold moved on (a save's records, an answer): the cache is written again."""
        self._clean = None

    def cached(self, gang_texts: Mapping[str, str]) -> bool:
        """True (and the cache's fold taken) when the records and gang files are as
        the cache knows them."""
        data = self._read_cache()
        if data is None or data.get("key") != _listing_key(listing(self.directory)):
            return False
        if data.get("gangs") != {n: _hash(t) for n, t in sorted(gang_texts.items())}:
            return False
        try:
            self.heads = {g: (k[0], k[1]) for g, k in data["heads"].items()}
            self.questions = [Question(**{**q, "choices": tuple(q["choices"])}) for q in data["questions"]]
            self.battles = list(data["battles"])
            self.battle_keys = {s: (k[0], k[1]) for s, k in (data.get("battle_keys") or {}).items()}
            self.problems = list(data.get("problems") or [])
        except (KeyError, TypeError, IndexError):
            return False
        self._clean = dict(data["gangs"])
        self.agreed = dict(self._clean)  # (the texts' digests, worked out above)
        return True

    def last_gangs(self) -> dict[str, str]:
        data = self._read_cache()
        gangs = (data or {}).get("gangs")
        return dict(gangs) if isinstance(gangs, dict) else {}

    def adopt(self, result: folding.Fold, problems: list[str]) -> None:
        self._clean = None
        self.heads = dict(result.heads)
        self.questions = list(result.questions)
        self.battles = list(result.battles)
        self.battle_keys = dict(result.battle_keys)
        self.problems = list(problems)
        self.answered = list(result.answered)


@dataclass
class Preset:
    """A league merge's fold (``saves.league``): the records it folded (their file
    names, the problems of those that do not load) and the gang files it made."""

    fold: folding.Fold
    problems: list[str]
    records: set[str]  # record file names
    gang_texts: dict[str, str]  # gang file name -> text


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:24]


def _listing_key(items: list[tuple[str, int, int]]) -> str:
    return hashlib.sha256(json.dumps(items).encode()).hexdigest()[:32]


def save_error(path: Path, error: Exception) -> SaveError:
    return SaveError(path, 1, 1, str(error))


__all__ = ["Battle", "FileCodec", "Keeper", "RECORDS_DIR", "Refs", "file_name", "from_data", "listing",
           "new_key", "player", "read_records", "record_text", "records_for_save", "start_record", "to_data"]


# --- the open campaign's side (``store.CampaignHandle`` calls these) ----------------------------


def handle_refs(handle: Any) -> Refs:
    from .folder import battle_stem

    names = {**handle._new_names, **handle._battle_files}
    return Refs({battle_stem(name): n for n, name in names.items()})


def _current(handle: Any) -> dict[str, dict[str, Any]]:
    """Each gang's file data as the handle read or wrote it."""
    from . import cache

    out: dict[str, dict[str, Any]] = {}
    for gid, name in handle._gang_files.items():
        data = handle._gang_data.get(name)
        if data is None and name in handle._gang_texts:
            data = cache.parsed(handle.gangs_dir / name, handle._gang_texts[name])
        if data is not None:
            out[gid] = body(data) or {}
    return out


def _migrated_battles(handle: Any) -> list[Record]:
    """Each battle applied before the campaign kept records, as a record with no changes
    (they are in the starting rosters): its place in the order of battles, the number it
    had. Its id is its number's and its file's, so two laptops migrating a league (whose
    numbers agree) make the same file."""
    from .folder import battle_stem

    out = []
    for s in handle.campaign.battles:
        name = handle._battle_files.get(s.number)
        if str(s.status) != "done" or name is None:
            continue
        stem = battle_stem(name)
        # (before every dated record, in the numbers the battles had: a campaign keeps them)
        out.append(Record(id=f"applied-{s.number:05d}-{hashlib.sha256(stem.encode()).hexdigest()[:10]}", date=START_DATE,
                          kind="battle", battle=stem, note="applied before the campaign kept records: its "
                          "changes are in the starting rosters"))
    return out


def on_open(handle: Any, backup_dir_of: Any) -> None:
    """The records and the gang files brought to agree as the campaign opens (see the
    module's text); ``handle.store.on_notice`` hears of every hand edit taken in."""
    from . import folder
    from .folder import gang_file_name, gang_text_and_data
    from .journal import Transaction

    keeper: Keeper = handle._records
    preset, keeper.preset = keeper.preset, None
    if (preset is not None and preset.gang_texts == handle._gang_texts
            and preset.records == {name for name, _size, _mtime in listing(handle.path)}):
        # (a league merge folded exactly these records into exactly these gang files:
        # its fold is taken, not worked out again)
        keeper.adopt(preset.fold, preset.problems)
        if not numbered_as(handle, keeper.battles):
            _read_again(handle, keeper.battles)
        keeper.agree(handle._gang_texts)
        keeper.remember(handle._gang_texts)
        return
    if keeper.cached(handle._gang_texts):  # (and the gang files' digests agreed)
        if not numbered_as(handle, keeper.battles):
            _read_again(handle, keeper.battles)
        return
    refs = handle_refs(handle)
    named, problems = read_named(handle.path, refs.number_of)
    recs = list(named.values())
    current = _current(handle)
    new: list[Record] = []
    by = player()
    if not any(r.kind == "start" for r in recs) and (current or handle.campaign.battles):
        have = {r.id for r in recs}
        for gid, data in current.items():
            new.append(start_record(gid, data, by, "the gang as it was when the campaign began keeping records"))
        new += [r for r in _migrated_battles(handle) if r.id not in have]
    result, state = folding.fold_state([*recs, *new], FileCodec(refs))
    last = keeper.agreed if keeper.agreed is not None else keeper.last_gangs()
    known = {r.gang for r in [*recs, *new] if r.gang}
    rewrite: dict[str, dict[str, Any]] = {}
    deletes: list[str] = []
    edits: list[Record] = []
    for gid in sorted(set(result.gangs) | set(current)):
        want, have_data = result.gangs.get(gid), current.get(gid)
        if want == have_data:
            continue
        name = handle._gang_files.get(gid) or gang_file_name(gid)
        text = handle._gang_texts.get(name)
        ours = text is not None and last.get(name) == _hash(text)
        heads = [result.heads[gid]] if gid in result.heads else []
        if have_data is None:
            if name in last:  # a gang file deleted by hand: the gang leaves the campaign
                date, rid = new_key(today(), heads)
                edits.append(Record(id=rid, date=date, kind="remove", by=by, gang=gid, note=f"gangs/{name} deleted by hand"))
                keeper.notices.append(f"gangs/{name} was deleted outside munda-tui: recorded as the gang leaving "
                                      "the campaign")
            else:
                assert want is not None
                rewrite[gid] = want
        elif want is None:
            if gid in known and ours:
                deletes.append(name)
            else:
                edits.append(start_record(gid, have_data, by, f"gangs/{name} added by hand"))
                keeper.notices.append(f"gangs/{name} was added outside munda-tui: recorded as a new gang")
        elif ours:
            rewrite[gid] = want
        else:
            date, rid = new_key(today(), heads)
            edits.append(Record(id=rid, date=date, kind="edit", by=by, gang=gid,
                                changes=tuple(folding.diff(want, have_data)), after={gid: heads[0][1]} if heads else {},
                                note=f"hand edit of gangs/{name}"))
            keeper.notices.append(f"gangs/{name} was edited outside munda-tui: recorded as a roster edit")
    if edits:
        new += edits
        result, state = folding.fold_state([*recs, *new], FileCodec(refs))
    if new or rewrite or deletes:
        tx = Transaction(handle.path)
        for r in new:
            path = handle.path / RECORDS_DIR / file_name(r)
            if not path.exists():
                tx.write(path, record_text(r, refs.stem_of))
        for gid, data in rewrite.items():
            name = handle._gang_files.get(gid) or gang_file_name(gid)
            full = {"schema_version": codec.SCHEMA_VERSIONS[codec.GANG], **data}
            text = gang_text_and_data(None, int(data.get("order", 0)), handle._gang_texts.get(name), data=full)[0]  # type: ignore[arg-type]
            tx.write(handle.gangs_dir / name, text, backup_dir_of(handle.gangs_dir / name))
        for name in deletes:
            tx.delete(handle.gangs_dir / name, backup_dir_of(handle.gangs_dir / name))
        if tx:
            tx.commit()
    keeper.adopt(result, problems)
    if rewrite or deletes or not numbered_as(handle, keeper.battles):
        _read_again(handle, keeper.battles)
    _keep_fold(handle.path, named, new, state, {f"gangs/{n}": t for n, t in handle._gang_texts.items()})
    keeper.agree(handle._gang_texts)
    keeper.remember(handle._gang_texts)
    notice = handle.store.on_notice
    if notice is not None:
        for line in keeper.notices:
            notice(line)
        keeper.notices.clear()


def _keep_fold(directory: Path, named: Mapping[str, Record], new: list[Record], state: dict[str, Any],
               gang_texts: Mapping[str, str]) -> None:
    """The open's fold put aside for the next sync to fold on from (``kept_fold``), with
    each record file's blob id (the files read again: an open that folds reads them)."""
    blobs: dict[str, str] = {}
    for name, r in [*named.items(), *((file_name(r), r) for r in new)]:
        if name != file_name(r):
            keep_fold(directory, None, None)
            return
        try:
            blobs[name] = blob_id((directory / RECORDS_DIR / name).read_bytes())
        except OSError:
            keep_fold(directory, None, None)
            return
    keep_fold(directory, blobs, state, gang_texts)


def numbered_as(handle: Any, order: list[str]) -> bool:
    """True when the open campaign numbers its applied battles in the records' order
    (issue 30.4: the same numbers on every laptop, whichever synced first)."""
    from .folder import battle_stem

    here = {battle_stem(name): n for n, name in handle._battle_files.items()}
    numbers = [here[s] for s in order if s in here]
    return numbers == sorted(numbers) and len(set(here.values())) == len(here)


def _read_again(handle: Any, order: list[str]) -> None:
    handle._read_again(order)


def save_records(handle: Any, campaign: m.Campaign, changed: Mapping[str, tuple[dict[str, Any] | None, dict[str, Any] | None]],
                 stem_of: Any, rewritten: set[int] | None = None) -> list[tuple[Path, str, Record]]:
    """The record files a save writes: ``changed`` each changed gang's (before, after)
    file data; the battles moved to done by this save (among ``rewritten``: the battles
    whose summary this save writes) are read from their files."""
    from .folder import battle_stem

    battles: list[Battle] = []
    for s in campaign.battles:
        if str(s.status) != "done" or (rewritten is not None and s.number not in rewritten):
            continue
        was = handle._summaries.get(s.number)
        try:
            done_before = was is not None and json.loads(was).get("status") == "done"
        except ValueError:
            done_before = False
        if done_before:
            continue
        stem = stem_of(s.number)
        if stem is None:
            continue
        try:
            data = handle._load_whole(s.number) if s.number in handle._battle_files else {}
        except (KeyError, SaveError):
            data = {}
        commit = ((data.get("postbattle") or {}).get("commit") or {}) if isinstance(data, dict) else {}
        changes = [dict(c) for c in commit.get("changes") or [] if isinstance(c, dict)]
        battles.append(Battle(stem, s.date, changes, s.number))
    if not changed and not battles:
        return []
    refs = handle_refs(handle)
    for s in campaign.battles:  # (a battle named for the first time by this save)
        stem = stem_of(s.number)
        if stem is not None and stem not in refs.numbers:
            refs.numbers[stem], refs.stems[s.number] = s.number, stem
    before = {g: b for g, (b, _a) in changed.items()}
    after = {g: a for g, (_b, a) in changed.items()}
    for battle in battles:  # (a gang a battle names but did not change: as it is)
        for c in battle.changes:
            for k in ("gang", "to_gang", "from_gang"):
                gid = c.get(k)
                if isinstance(gid, str) and gid not in before:
                    name = handle._gang_files.get(gid)
                    data = _current(handle).get(gid) if name else None
                    before[gid] = after[gid] = data
    made = records_for_save(before, after, battles, handle._records.heads, refs)
    del battle_stem
    return [(handle.path / RECORDS_DIR / file_name(r), record_text(r, refs.stem_of), r) for r in made]


def saved(handle: Any, made: list[Record]) -> None:
    """The records of a save are on disk: the heads move on."""
    keeper: Keeper = handle._records
    keeper.agree(handle._gang_texts)
    if made:
        keeper.changed()
    for r in made:
        if r.kind == "remove":
            keeper.heads.pop(r.gang, None)
        elif r.kind in ("start", "edit"):
            keeper.heads[r.gang] = r.key
        elif r.kind == "battle":
            for c in r.changes:
                for k in ("gang", "to_gang", "from_gang"):
                    if isinstance(c.get(k), str):
                        keeper.heads[c[k]] = r.key
            if r.battle and r.battle not in keeper.battle_keys:
                keeper.battle_keys[r.battle] = r.key
                keeper.battles = sorted(keeper.battle_keys, key=lambda s: keeper.battle_keys[s])


def answer(handle: Any, question: Question, choice: str, amount: int = 0) -> Record:
    """The Arbitrator's answer to a league question, as a correction record (every
    laptop folds the same answer once it is shared); the gangs folded again. ValueError
    for a choice the question does not offer."""
    from .atomic import atomic_write_text

    if choice not in question.choices:
        raise ValueError(f"{choice!r} is not a choice here ({', '.join(question.choices)})")
    keeper: Keeper = handle._records
    date, rid = new_key(today(), list(keeper.heads.values()))
    r = Record(id=rid, date=date, kind="correction", by=player(), target=question.record, index=question.index,
               answer=choice, amount=amount if choice == folding.AMOUNT else 0,
               note=f"answer: {question.what}: {choice}")
    (handle.path / RECORDS_DIR).mkdir(exist_ok=True)
    atomic_write_text(handle.path / RECORDS_DIR / file_name(r), record_text(r))
    handle._open_records()  # (folded again: the gang files written from the fold)
    return r
