"""The campaign folder that merges (campaign schema 2): what each file holds.

::

    <campaign>/campaign.toml          settings only (name, notes, settings, roles)
    <campaign>/gangs/<gang-id>.toml   one gang: roster, stash, territories (``order``:
                                      its place in the list); a battle it names (a
                                      fighter's status, an injury) by the battle's file
    <campaign>/battles/<date>-<random>.toml
                                      one battle: ``number`` (its number for people),
                                      ``[summary]`` (the campaign's line for it: date,
                                      gangs, status, winner ...), then the stages' parts
    <campaign>/.cache/ .backups/ .lock  never shared (derived, or this machine's)

Two laptops that played different gangs change different files, and two new battles
never take the same file name, so git merges them without a question. Two battles
that both say number 7 (played apart) keep their files; the later (by date, then
name) is shown under the next free number, written into its file at the next save,
the same on every machine.

Reading a folder (:func:`read_folder`) reads campaign.toml and the gang files and
takes each battle's summary from an index in the cache (a file whose size, time or
inode changed is read again), and works out one key for all of it: the campaign
screen's overview and the list's summary are cached under that key.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules.core import model as m
from ..rules.core.limits import LimitError
from . import cache, codec
from .codec import ValidationError
from .errors import SaveError, validation_error
from .files import BATTLES_DIR, GANGS_DIR, _BATTLE_ID_NAME, parse_text, read_text
from .tomldoc import Layout

#: The campaign schema version from which the folder is split.
SPLIT_VERSION = 2
GANG_LAYOUT = Layout(arrays={("fighters",): "id", ("fallen",): "id"})
INDEX_FILE = "battles.json"
#: keys of a battle file that are the folder's, not a stage's
NUMBER, SUMMARY = "number", "summary"

_VERSION_LINE = re.compile(r"(?m)^[ \t]*schema_version[ \t]*=[ \t]*(\d+)[ \t]*(?:#.*)?$")
_SAFE_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
_WINDOWS = frozenset({"con", "prn", "aux", "nul"} | {f"com{i}" for i in range(10)}
                     | {f"lpt{i}" for i in range(10)})
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def text_version(text: str) -> int | None:
    """campaign.toml's ``schema_version`` as its text says (None if no such line)."""
    found = _VERSION_LINE.search(text)
    return int(found.group(1)) if found else None


def gang_file_name(gang_id: str) -> str:
    """The gang's file name: its id where that is a safe file name, else a slug of it
    with a digest (two ids never share a file)."""
    if _SAFE_NAME.fullmatch(gang_id) and gang_id not in _WINDOWS:
        return f"{gang_id}.toml"
    from hashlib import blake2b

    digest = blake2b(gang_id.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
    return f"{m.slugify(gang_id)[:40]}-{digest}.toml"


def new_battle_file_name(date: str, taken: set[str]) -> str:
    """A name no other laptop chooses: the battle's date and six random hex digits."""
    stem = date if _DATE.fullmatch(date) else "battle"
    while True:
        name = f"{stem}-{os.urandom(3).hex()}.toml"
        if name not in taken:
            return name


def summary_data(summary: m.BattleSummary) -> dict[str, Any]:
    """A battle file's ``[summary]``: the campaign's line for it, its number apart."""
    data = codec.to_data(summary)
    data.pop(NUMBER, None)
    return data


def summary_json(summary: m.BattleSummary | None) -> str | None:
    return None if summary is None else cache.as_json(summary_data(summary))


def battle_plain(number: int, summary: m.BattleSummary | dict[str, Any] | None,
                 data: dict[str, Any]) -> dict[str, Any]:
    """A battle file's whole data: schema, number, summary (a BattleSummary, or its
    file's table as it is), then the stages' parts."""
    out: dict[str, Any] = {"schema_version": codec.SCHEMA_VERSIONS[codec.BATTLE], NUMBER: number}
    if isinstance(summary, dict):
        out[SUMMARY] = summary
    elif summary is not None:
        out[SUMMARY] = summary_data(summary)
    out.update((k, v) for k, v in data.items() if k not in ("schema_version", NUMBER, SUMMARY))
    return out


def settings_of(data: dict[str, Any]) -> dict[str, Any]:
    """campaign.toml's data: the campaign's, without its gangs and battles."""
    return {k: v for k, v in data.items() if k not in ("gangs", "battles")}


_TOML_STRINGS = (  # compiled on first use (re's cache): not needed to start
    r'"""(?:[^"\\]|\\.|"(?!""))*"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'', re.S
)


def has_comments(text: str) -> bool:
    """Whether TOML ``text`` has a comment (a ``#`` outside every string)."""
    return "#" in text and "#" in re.compile(*_TOML_STRINGS).sub("", text)


# --- the battles a gang names ------------------------------------------------------------
#
# A fighter's ``status_battle`` and a Lasting Injury's ``battle`` (every field the model
# marks ``BATTLE_REF``) name a battle by its number, the one people see. A merge can give
# a battle another number (two laptops both made a battle 7), so a gang file names a
# battle that has a file by that file's name without ".toml" (``status_battle =
# "2026-12-01-a1b2c3"``), which never changes, and the number is worked out again from it
# when the folder is read. A number with no battle file (set by hand, imported) stays a
# number; a name whose battle file is gone reads as unknown (0, or no battle).

_RefPlan = tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]]
_REF_PLANS: dict[type, _RefPlan] = {}


def _ref_plan(cls: type) -> _RefPlan:
    """(field, default) of ``cls``'s fields that name a battle, and (field, plan) of its
    list fields whose items hold some."""
    plan = _REF_PLANS.get(cls)
    if plan is None:
        import dataclasses
        import typing

        hints = typing.get_type_hints(cls)
        refs, nested = [], []
        for f in dataclasses.fields(cls):
            if f.metadata.get("battle"):
                refs.append((f.name, f.default))
                continue
            args = typing.get_args(hints[f.name])
            if typing.get_origin(hints[f.name]) is list and args and dataclasses.is_dataclass(args[0]):
                sub = _ref_plan(args[0])  # type: ignore[arg-type]
                if sub[0] or sub[1]:
                    nested.append((f.name, sub))
        plan = _REF_PLANS[cls] = (tuple(refs), tuple(nested))
    return plan


def _map_refs(data: dict[str, Any], plan: _RefPlan, convert: Any) -> dict[str, Any]:
    """``data`` with ``convert(value, default)`` of every battle it names (a copy where
    anything changes: ``data`` may be a cached parse)."""
    refs, nested = plan
    out = data
    for name, default in refs:
        if name in data:
            value = convert(data[name], default)
            if value is not data[name]:
                if out is data:
                    out = dict(data)
                if value is None:
                    del out[name]
                else:
                    out[name] = value
    for name, sub in nested:
        items = data.get(name)
        if isinstance(items, list):
            changed = [_map_refs(i, sub, convert) if isinstance(i, dict) else i for i in items]
            if any(a is not b for a, b in zip(changed, items)):
                if out is data:
                    out = dict(data)
                out[name] = changed
    return out


def gang_refs_to_file(data: dict[str, Any], stem_of: Any) -> dict[str, Any]:
    """A gang's data as its file holds it: each battle number that ``stem_of(number)``
    finds a battle file for (its name without .toml) named by that file."""
    def convert(value: Any, default: Any) -> Any:
        if type(value) is int and value != default:
            stem = stem_of(value)
            if stem is not None:
                return stem
        return value

    return _map_refs(data, _ref_plan(m.Gang), convert)


def gang_refs_from_file(data: dict[str, Any], number_of: Any) -> dict[str, Any]:
    """A gang file's data with each battle it names by file name numbered again
    (``number_of(name)``: the battle's number, None when no such battle is there)."""
    def convert(value: Any, default: Any) -> Any:
        if isinstance(value, str):
            number = number_of(value)
            return default if number is None else number
        return value

    return _map_refs(data, _ref_plan(m.Gang), convert)


def battle_stem(name: str) -> str:
    """A battle file's name without ".toml": how a gang file names the battle."""
    return name[:-5] if name.endswith(".toml") else name


class PlaceholderRefs:
    """Battles named in gang files outside a folder read (a league's merge: the gangs of
    two sides): each name a number of its own below 0 and back, the same for every gang
    read through it."""

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}
        self.stems: dict[int, str] = {}

    def number_of(self, stem: str) -> int:
        number = self.numbers.get(stem)
        if number is None:
            number = self.numbers[stem] = -1 - len(self.numbers)
            self.stems[number] = stem
        return number

    def stem_of(self, number: int) -> str | None:
        return self.stems.get(number)


def gang_text(gang: m.Gang, order: int, stem_of: Any = None) -> str:
    return gang_text_and_data(gang, order, stem_of=stem_of)[0]


def gang_file_data(gang: m.Gang, order: int, stem_of: Any = None,
                   plain: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a gang's file holds (``plain``: ``codec.to_data(gang)``, if the caller has it).
    ``stem_of``: a battle number's file name (without .toml), or None (see
    :func:`gang_refs_to_file`)."""
    data = {"schema_version": codec.SCHEMA_VERSIONS[codec.GANG], "order": order,
            **(codec.to_data(gang) if plain is None else plain)}
    return data if stem_of is None else gang_refs_to_file(data, stem_of)


def gang_text_and_data(gang: m.Gang, order: int, old: str | None = None,
                       stem_of: Any = None, data: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
    """A gang file's text and the data it reads back as. ``old``: the file's text; where
    it has comments (a hand edit), it is updated in place and they stay. ``stem_of``:
    see :func:`gang_file_data`; ``data``: what it gives, if the caller has it."""
    from . import tomllayout

    if data is None:
        data = gang_file_data(gang, order, stem_of)
    if old is not None and has_comments(old):
        import tomllib

        import tomlkit

        from . import tomldoc

        try:
            doc = tomlkit.parse(old)
        except Exception:  # noqa: BLE001 - tomlkit disagrees: written afresh
            doc = None
        if doc is not None:
            tomldoc.merge(doc, data, (), GANG_LAYOUT)
            text = doc.as_string()
            try:
                if tomldoc.same(tomllib.loads(text), data):
                    return text, data
            except tomllib.TOMLDecodeError:
                pass
    return tomllayout.dumps(data, GANG_LAYOUT), data


def gang_sections(text: str) -> dict[str, str]:
    """The old campaign.toml's (``text``) gang parts as gang files' texts, the comments
    written in them kept (gang id -> text), for the migration to update in place (see
    :func:`gang_text_and_data`). Empty when there is nothing to keep or tomlkit cannot."""
    if not has_comments(text):
        return {}
    try:
        import tomlkit
        from tomlkit.items import AoT, Table

        gangs = tomlkit.parse(text).get("gangs")
        if not isinstance(gangs, AoT):
            return {}
        out: dict[str, str] = {}
        for table in gangs:
            gang_id = table.get("id") if isinstance(table, Table) else None
            if not isinstance(gang_id, str):
                continue
            doc = tomlkit.document()
            doc.add("schema_version", codec.SCHEMA_VERSIONS[codec.GANG])
            doc.add("order", 0)
            for key, item in table.value.body:
                if key is None:
                    doc.add(item)  # a comment (or the blank lines around one)
                else:
                    doc.add(key, item)
            part = doc.as_string()
            if has_comments(part):
                out[str(gang_id)] = part
        return out
    except Exception:  # noqa: BLE001 - tomlkit could not: the files written afresh
        return {}


# --- reading --------------------------------------------------------------------------------


@dataclass
class BattleEntry:
    """A battle file as the index knows it."""

    name: str
    number: int | None  # None: the file does not load (``error``) and was never read
    # (a file broken since the index last read it keeps that number and summary)
    summary: dict[str, Any] | None
    error: str | None = None
    summary_json: str | None = None  # ``cache.as_json(summary)``, worked out once

    def json(self) -> str | None:
        if self.summary_json is None and self.summary is not None:
            self.summary_json = cache.as_json(self.summary)
        return self.summary_json


@dataclass
class FolderRead:
    """What :func:`read_folder` read: enough to key the caches and to decode."""

    directory: Path
    text: str  # campaign.toml's
    split: bool  # the schema-2 folder (else the whole campaign is in campaign.toml)
    gangs: list[tuple[str, str]] = field(default_factory=list)  # (file name, text), by name
    battles: list[BattleEntry] = field(default_factory=list)  # by name
    key: str = ""


def read_folder(directory: Path, text: str) -> FolderRead:
    """Read a campaign folder's files (SaveError for a gang file that cannot be read)."""
    version = text_version(text)
    if version is None:  # not on a line of its own: what the parser says
        try:
            found = cache.parsed(directory / "campaign.toml", text).get("schema_version")
        except SaveError:
            found = None
        version = found if type(found) is int else None
    if version is None or version < SPLIT_VERSION:
        return FolderRead(directory, text, False, key=cache.text_key(text).hex())
    gangs_dir = directory / GANGS_DIR
    try:
        names = sorted(n for n in os.listdir(gangs_dir) if n.endswith(".toml") and not n.startswith("."))
    except (FileNotFoundError, NotADirectoryError):
        names = []
    gangs = [(n, read_text(gangs_dir / n)) for n in names]
    battles, digest = scan(directory)
    return FolderRead(directory, text, True, gangs, battles, folder_key(text, gangs, digest))


def battles_digest(battles: list[BattleEntry], jsons: dict[str, str | None] | None = None) -> str:
    """A digest of the battles' names, numbers and summaries (``battles`` by name;
    ``jsons``: each summary's JSON by file name, where the caller has it): the battle
    index keeps it, so an open whose battle files are as the index knows them does not
    work it out again."""
    parts = []
    for entry in battles:
        if entry.error is not None:
            shown = "!" + entry.error
        elif jsons is not None and entry.name in jsons:
            shown = jsons[entry.name] or ""
        else:
            shown = entry.json() or ""
        parts += ["\x00battle\x00", entry.name, "\x00", str(entry.number), "\x00", shown]
    return cache.text_key("".join(parts)).hex()


def folder_key(text: str, gangs: list[tuple[str, str]], battles_digest: str) -> str:
    """One key for campaign.toml, the gang files and the battles (their
    :func:`battles_digest`)."""
    parts = [text]
    for name, gang in gangs:
        parts += ["\x00gang\x00", name, "\x00", gang]
    parts += ["\x00battles\x00", battles_digest]
    return cache.text_key("".join(parts)).hex()


def _stat_key(st: os.stat_result) -> list[int]:
    return [st.st_ino, st.st_size, st.st_mtime_ns]


def battle_entry(path: Path, text: str, raw: dict[str, Any] | None = None) -> BattleEntry:
    """The index's entry for a battle file's ``text`` (``raw``: its parse, if known)."""
    try:
        if raw is None:
            raw = cache.read_battle(path, text)
        if raw is None:
            raw = parse_text(path, text)
            as_json = cache.battle_json(raw)
            if as_json is not None:
                cache.write_battle(path, text, as_json)
    except SaveError as error:
        return BattleEntry(path.name, None, None, str(error))
    number = raw.get(NUMBER)
    if type(number) is not int or number < 0:
        return BattleEntry(path.name, None, None, f"{path}:1:1: no battle number (number = N)")
    summary = raw.get(SUMMARY)
    if summary is not None and not isinstance(summary, dict):
        return BattleEntry(path.name, None, None, f"{path}:1:1: [summary] is not a table")
    return BattleEntry(path.name, number, summary)


#: the battle index's format: each file's [ino, size, mtime, number, JSON of its summary
#: (a string: the folder's key and the saves compare it as it is), error]
INDEX_VERSION = 2


def _load_index(index_path: Path) -> tuple[dict[str, Any], str | None]:
    """The battle index's entries by file name, and its digest (None: none kept)."""
    try:
        loaded = json.loads(index_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}, None
    if not isinstance(loaded, dict) or loaded.get("salt") != cache.salt():
        return {}, None
    files = loaded.get("files")
    if not isinstance(files, dict):
        return {}, None
    digest = loaded.get("digest") if loaded.get("v") == INDEX_VERSION else None
    return files, digest if isinstance(digest, str) else None


def _summaries_from(texts: list[str]) -> list[Any] | None:
    """The summaries of the index's JSON texts, parsed at once (None if one is not)."""
    try:
        found = json.loads("[" + ",".join(texts) + "]")
    except ValueError:
        return None
    if not isinstance(found, list) or len(found) != len(texts) or not all(type(x) is dict for x in found):
        return None
    return found


def scan_battles(directory: Path) -> list[BattleEntry]:
    """Every battle file of a split folder, through the index (``.cache/battles.json``)."""
    return scan(directory)[0]


def scan(directory: Path) -> tuple[list[BattleEntry], str]:
    """Every battle file of a split folder (by name), through the index
    (``.cache/battles.json``: a file whose inode, size and time are as it knows them is
    not read), and their :func:`battles_digest`."""
    battles_dir = directory / BATTLES_DIR
    index_path = directory / cache.CACHE_DIR / INDEX_FILE
    index, digest = _load_index(index_path)
    out: list[BattleEntry] = []
    stats: dict[str, list[int]] = {}
    changed = False
    pending: list[BattleEntry] = []  # entries whose summary's JSON the index holds
    try:
        entries = sorted(os.scandir(battles_dir), key=lambda e: e.name)
    except (FileNotFoundError, NotADirectoryError):
        entries = []
    for e in entries:
        name = e.name
        known = index.get(name)
        if known is None and (name[:1] == "." or not _BATTLE_ID_NAME.match(name)):
            continue
        try:
            st = e.stat()
        except OSError:
            continue
        key = stats[name] = [st.st_ino, st.st_size, st.st_mtime_ns]
        if (type(known) is list and len(known) == 6 and known[0] == key[0] and known[1] == key[1]
                and known[2] == key[2] and (known[3] is None or type(known[3]) is int)):
            js = known[4]
            if type(js) is str:
                entry = BattleEntry(name, known[3], None, known[5], js)
                pending.append(entry)
            elif js is None:
                entry = BattleEntry(name, known[3], None, known[5])
            elif type(js) is dict:  # (the first index format: the table itself)
                entry = BattleEntry(name, known[3], js, known[5])
                changed = True
            else:
                entry = _read_entry(Path(e.path), known)
                changed = True
        else:
            entry = _read_entry(Path(e.path), known)
            changed = True
        out.append(entry)
    if pending:
        found = _summaries_from([entry.summary_json or "null" for entry in pending])
        if found is not None:
            for entry, summary in zip(pending, found):
                entry.summary = summary
        else:  # a summary the index cannot give: its file read again
            changed = True
            for entry in pending:
                one = _summaries_from([entry.summary_json or "null"])
                if one is not None:
                    entry.summary = one[0]
                else:
                    out[out.index(entry)] = _read_entry(battles_dir / entry.name, None)
    # A battle file that is gone while its rotated backups are here (lost, not deleted:
    # ``delete_battle`` keeps a ``.deleted.bak``) stays listed: opening it says so and
    # offers the newest backup, as for a file that does not load.
    if len(stats) != len(index) or changed:
        lost = False
        for name, known in index.items():
            if name in stats or not (isinstance(known, list) and len(known) == 6 and type(known[3]) is int):
                continue
            if _lost(directory, name):
                js = known[4] if type(known[4]) is str else cache.as_json(known[4])
                summary = _summaries_from([js]) if js is not None else None
                entry = BattleEntry(name, known[3], summary[0] if summary else None,
                                    f"{battles_dir / name}:1:1: the battle file is missing",
                                    js if summary else None)
                stats[name] = [0, 0, 0]
                out.append(entry)
                lost = True
        if lost:
            out.sort(key=lambda e: e.name)
        changed = changed or len(stats) != len(index)
    if changed or digest is None:
        digest = battles_digest(out)
        _write_index_entries(directory, {e.name: (stats[e.name], e) for e in out}, digest)
    return out, digest


def _read_entry(path: Path, known: Any) -> BattleEntry:
    """A battle file's entry, read from the file (``known``: what the index said of it)."""
    try:
        entry = battle_entry(path, read_text(path))
    except SaveError as error:
        entry = BattleEntry(path.name, None, None, str(error))
    if entry.error is not None and isinstance(known, list) and len(known) == 6 and type(known[3]) is int:
        # broken since it was last read: still listed under its number (opening it says
        # what is wrong and offers its backups)
        js = known[4] if type(known[4]) is str else cache.as_json(known[4])
        summary = _summaries_from([js]) if js is not None else None
        entry = BattleEntry(path.name, known[3], summary[0] if summary else None, entry.error,
                            js if summary else None)
    return entry


def _write_index_entries(directory: Path, files: dict[str, tuple[list[int], BattleEntry]], digest: str) -> None:
    raw: dict[str, str] = {}
    for name, (st, entry) in files.items():
        js = entry.json()
        raw[name] = (f"[{st[0]},{st[1]},{st[2]},{'null' if entry.number is None else entry.number},"
                      f"{'null' if js is None else json.dumps(js, ensure_ascii=False)},"
                      f"{'null' if entry.error is None else json.dumps(entry.error, ensure_ascii=False)}]")
    _write_index_body(directory, raw, digest)


def _write_index_body(directory: Path, raw: dict[str, str], digest: str) -> None:
    salt = cache.as_json(cache.salt())
    body = ('{"salt":' + str(salt) + f',"v":{INDEX_VERSION},"digest":"{digest}","files":{{'
            + ",".join(f"{json.dumps(name, ensure_ascii=False)}:{raw[name]}" for name in sorted(raw)) + "}}")
    cache.write_plain(directory / cache.CACHE_DIR / INDEX_FILE, body)


def _lost(directory: Path, name: str) -> bool:
    """Whether battle file ``name`` is missing with backups kept (and not deleted)."""
    from .atomic import backups_of
    from .files import BACKUPS_DIR

    keep = directory / BACKUPS_DIR / BATTLES_DIR
    if (keep / f"{name}.deleted.bak").exists():
        return False
    return bool(backups_of(directory / BATTLES_DIR / name, keep))


def write_index(directory: Path, files: dict[str, tuple[int, str | None]], problems: list[BattleEntry]) -> None:
    """The battle index as an open campaign leaves its files (name -> (number, JSON of
    its summary)): the next open reads none of them again."""
    battles_dir = directory / BATTLES_DIR
    entries: dict[str, tuple[list[int], BattleEntry]] = {}
    for name, (number, js) in files.items():
        try:
            st = _stat_key(os.stat(battles_dir / name))
        except OSError:
            continue
        entries[name] = (st, BattleEntry(name, number, None, None, js))
    for entry in problems:
        try:
            st = _stat_key(os.stat(battles_dir / entry.name))
        except OSError:
            if entry.number is None or not _lost(directory, entry.name):
                continue
            st = [0, 0, 0]
        if entry.name not in entries:
            entries[entry.name] = (st, entry)
    listed = sorted(entries)
    _write_index_entries(directory, entries, battles_digest([entries[n][1] for n in listed]))


@dataclass
class LoadedFolder:
    """A split folder decoded: the campaign, and which file holds what."""

    campaign: m.Campaign
    version: int
    text: str  # campaign.toml's
    gang_files: dict[str, str]  # gang id -> file name
    gang_texts: dict[str, str]  # file name -> text on disk
    gang_data: dict[str, dict[str, Any]]  # file name -> what its text reads as
    gang_order: dict[str, int]  # gang id -> its ``order``
    battle_files: dict[int, str]  # number -> file name
    summaries: dict[int, str | None]  # number -> JSON of the [summary] its file holds
    numbers: dict[int, int]  # number -> the number its file holds (when they differ)
    problems: list[str]  # battle files left out (``path:line:col: why``)


def load_folder(read: FolderRead) -> LoadedFolder:
    """Decode a split folder (SaveError naming the file that is wrong)."""
    directory, text = read.directory, read.text
    path = directory / "campaign.toml"
    data = cache.parsed(path, text)
    try:
        version = codec.schema_version(data, codec.CAMPAIGN)
        if version != SPLIT_VERSION or "gangs" in data or "battles" in data:
            raise ValidationError(("schema_version",), f"schema_version {version}: a campaign.toml "
                                  "of the split folder holds the settings only")
        campaign = codec.campaign_from_data(data)
    except ValidationError as error:
        raise validation_error(path, text, error) from None
    problems: list[str] = []
    placed: list[tuple[int, str, str, BattleEntry, m.BattleSummary | None]] = []
    for entry in read.battles:
        if entry.error is not None:
            problems.append(entry.error)
        if entry.number is None:
            continue
        summary = None
        if entry.summary is not None:
            try:
                summary = codec.from_data(m.BattleSummary, {**entry.summary, NUMBER: entry.number}, (SUMMARY,))
            except ValidationError as error:
                problems.append(str(SaveError(directory / BATTLES_DIR / entry.name, 1, 1, str(error))))
                continue
        date = summary.date if summary is not None else ""
        placed.append((entry.number, date, entry.name, entry, summary))
    placed.sort(key=lambda p: (p[0], p[1], p[2]))
    taken = {p[0] for p in placed}
    next_free = max(taken, default=0) + 1
    used: set[int] = set()
    battle_files: dict[int, str] = {}
    summaries: dict[int, str | None] = {}
    numbers: dict[int, int] = {}
    battles: list[m.BattleSummary] = []
    for number, _date, name, entry, summary in placed:
        shown = number
        if number in used:  # two files say the same number: the later one the next free
            shown, next_free = next_free, next_free + 1
            numbers[shown] = number
        used.add(shown)
        battle_files[shown] = name
        summaries[shown] = entry.json()
        if summary is not None:
            summary.number = shown
            battles.append(summary)
    shown_of = {battle_stem(name): n for n, name in battle_files.items()}
    gang_files: dict[str, str] = {}
    gang_texts: dict[str, str] = {}
    gang_data: dict[str, dict[str, Any]] = {}
    order: dict[str, int] = {}
    found: list[tuple[int, str, m.Gang, Path, str]] = []
    for name, gtext in read.gangs:
        gpath = directory / GANGS_DIR / name
        raw = cache.parsed(gpath, gtext)
        try:
            codec.schema_version(raw, codec.GANG)
            place = raw.get("order", 0)
            if type(place) is not int:
                raise ValidationError(("order",), "expected an integer")
            body = {k: v for k, v in raw.items() if k not in ("schema_version", "order")}
            gang = codec.from_data(m.Gang, gang_refs_from_file(body, shown_of.get))
            try:  # the campaign's ruleset says whether it may be below 0 (turf-reputation-floor)
                campaign.check_reputation(gang.reputation)
            except LimitError as limit:
                raise ValidationError(("reputation",), str(limit)) from None
            codec._unique(gang.fighters, "id", ("fighters",), "fighter")
        except ValidationError as error:
            raise validation_error(gpath, gtext, error) from None
        if gang.id in gang_files:
            raise SaveError(gpath, 1, 1, f"gang id {gang.id!r} is also the id in {gang_files[gang.id]}")
        gang_files[gang.id] = name
        gang_texts[name] = gtext
        gang_data[name] = raw
        order[gang.id] = place
        found.append((place, gang.id, gang, gpath, gtext))
    found.sort(key=lambda f: (f[0], f[1]))
    campaign.gangs = [f[2] for f in found]
    battles.sort(key=lambda s: s.number)
    campaign.battles = battles
    try:
        codec.validate_campaign(campaign)
    except ValidationError as error:
        kp = error.keypath
        if len(kp) >= 2 and kp[0] == "gangs" and isinstance(kp[1], int) and kp[1] < len(found):
            f = found[kp[1]]
            raise validation_error(f[3], f[4], ValidationError(kp[2:], error.message)) from None
        raise validation_error(path, text, error) from None
    return LoadedFolder(campaign, version, text, gang_files, gang_texts, gang_data, order, battle_files,
                        summaries, numbers, problems)


def load_campaign_dir(directory: Path) -> tuple[m.Campaign, dict[int, Path]]:
    """A campaign folder read without its lock and without writing (reports, exports,
    checks): the campaign and each battle number's file. An old folder is read as it
    is (its battles ``battles/0007.toml``). SaveError if it does not load."""
    from .files import CAMPAIGN_FILE, battle_number, load_campaign_file

    directory = Path(directory)
    path = directory / CAMPAIGN_FILE
    text = read_text(path)
    read = read_folder(directory, text)
    if read.split:
        found = load_folder(read)
        return found.campaign, {n: directory / BATTLES_DIR / name for n, name in found.battle_files.items()}
    campaign = load_campaign_file(path, text).campaign
    files: dict[int, Path] = {}
    try:
        names = os.listdir(directory / BATTLES_DIR)
    except (FileNotFoundError, NotADirectoryError):
        names = []
    for name in names:
        n = battle_number(Path(name))
        if n is not None and not name.startswith("."):
            files[n] = directory / BATTLES_DIR / name
    return campaign, files


def load_battle_data(path: Path) -> dict[str, Any]:
    """A battle file's stages (without its schema version, number and summary)."""
    from .files import load_battle_file

    data, _version = load_battle_file(path)
    data.pop(NUMBER, None)
    data.pop(SUMMARY, None)
    return data


def load_gang_file(path: Path, text: str | None = None, number_of: Any = None) -> m.Gang:
    """One gang file, checked (``munda-tui check``): SaveError naming where it is wrong.
    ``number_of``: a battle's number by its file name (else a battle the gang names by
    its file reads as unknown; see :func:`gang_refs_from_file`)."""
    if text is None:
        text = read_text(path)
    raw = parse_text(path, text)
    try:
        codec.schema_version(raw, codec.GANG)
        body = {k: v for k, v in raw.items() if k not in ("schema_version", "order")}
        if type(raw.get("order", 0)) is not int:
            raise ValidationError(("order",), "expected an integer")
        gang = codec.from_data(m.Gang, gang_refs_from_file(body, number_of or (lambda _name: None)))
        codec._unique(gang.fighters, "id", ("fighters",), "fighter")
    except ValidationError as error:
        raise validation_error(path, text, error) from None
    return gang


def campaign_summary(path: Path) -> dict[str, Any]:
    """The list's view of a campaign folder (``path``: its campaign.toml): ``name``,
    ``gangs`` (names), ``battles`` (count). From the cache when it matches the files,
    else loaded (and cached); SaveError if the campaign does not load."""
    from .files import LoadedCampaign

    text = read_text(path)
    read = read_folder(path.parent, text)
    summary = cache._read(cache.cache_dir(path) / cache.SUMMARY_FILE, text, read.key)
    if (isinstance(summary, dict) and isinstance(summary.get("name"), str)
            and isinstance(summary.get("gangs"), list) and isinstance(summary.get("battles"), int)):
        return summary
    if read.split:
        loaded = load_folder(read)
        cache.remember_views(path, read.key, loaded.campaign)
        return cache._summary(LoadedCampaign(loaded.campaign, loaded.version, text))
    return cache._summary(cache.load_campaign(path, text, read.key))
