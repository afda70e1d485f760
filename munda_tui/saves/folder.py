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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules.core import model as m
from ..rules.core.limits import LimitError
from . import cache, codec
from .codec import ValidationError
from .errors import SaveError, validation_error
from .files import BATTLES_DIR, GANGS_DIR, _BATTLE_ID_NAME, _BATTLE_NAME, parse_text, read_text
from .tomldoc import Layout

#: The campaign schema version from which the folder is split.
SPLIT_VERSION = 2
GANG_LAYOUT = Layout(arrays={("fighters",): "id", ("fallen",): "id", ("departed",): "id"})
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
    read through it. ``numbers``: names already numbered (a campaign's own battles)."""

    def __init__(self, numbers: Mapping[str, int] | None = None) -> None:
        self.numbers: dict[str, int] = dict(numbers or {})
        self.stems: dict[int, str] = {n: s for s, n in self.numbers.items()}

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


def split_layout(directory: Path, text: str, parse: Any = None) -> bool:
    """Whether the campaign folder is of the split layout (a gang a file): decided by
    the files present, not by a number a hand edit can change. A folder with ``gangs/``
    or a battle file of the split folder (``battles/<date>-<random>.toml``) is split
    whatever its campaign.toml says (a ``schema_version`` that contradicts it is an
    error at its line: :func:`check_settings`); else campaign.toml's ``schema_version``
    says (2: a campaign with no gang and no battle yet). (A ``gangs/`` with no gang
    file in it is what a migration killed before its commit leaves: the old layout.)"""
    if gang_file_names(directory):  # (an empty gangs/: a migration killed before its commit)
        return True
    try:
        with os.scandir(directory / BATTLES_DIR) as entries:
            for e in entries:
                if e.name[:1] != "." and _BATTLE_ID_NAME.match(e.name):
                    return True
    except OSError:
        pass
    version = text_version(text)
    if version is None:  # not on a line of its own: what the parser says
        try:
            found = (parse or cache.parsed)(directory / "campaign.toml", text).get("schema_version")
        except SaveError:
            found = None
        version = found if type(found) is int else None
    return version is not None and version >= SPLIT_VERSION


def read_folder(directory: Path, text: str, *, cached: bool = True) -> FolderRead:
    """Read a campaign folder's files (SaveError for a gang file that cannot be read).
    ``cached``: False to read every file and write nothing (``munda-tui check``)."""
    if not split_layout(directory, text, None if cached else parse_text):
        return FolderRead(directory, text, False, key=cache.text_key(text).hex())
    gangs = [(n, read_text(directory / GANGS_DIR / n)) for n in gang_file_names(directory)]
    battles, digest = scan(directory, use_index=cached)
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
    # the ctime too: every write to a file sets it, and no tool sets it back (an editor or
    # ``touch -r`` may put the size and mtime back as they were: the file is read again)
    return [st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns]


def battle_entry(path: Path, text: str, raw: dict[str, Any] | None = None) -> BattleEntry:
    """The index's entry for a battle file's ``text`` (``raw``: its parse, if known):
    its number and summary checked as every reader checks them
    (``battle_schema.check_head``); a file that does not pass has no number (it is left
    out, and said) and its error is placed at the line of the value."""
    from . import battle_schema

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
    try:
        number, _summary = battle_schema.check_file_head(raw, needs_number=True)
    except ValidationError as error:
        return BattleEntry(path.name, None, None, str(validation_error(path, text, error)))
    assert number is not None
    summary = raw.get(SUMMARY)
    return BattleEntry(path.name, number, summary if isinstance(summary, dict) else None)


#: the battle index's format: each file's [ino, size, mtime, ctime, number, JSON of its
#: summary (a string: the folder's key and the saves compare it as it is), error]
INDEX_VERSION = 3
_ENTRY_LEN = 7


def _load_index(index_path: Path) -> tuple[dict[str, Any], str | None, Any]:
    """The battle index's entries by file name, its digest (None: none kept) and what it
    knows of the backups folder. An index of another format is not read at all (rebuilt
    from the files)."""
    try:
        loaded = cache.json_loads(index_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}, None, None
    if not isinstance(loaded, dict) or loaded.get("salt") != cache.salt() or loaded.get("v") != INDEX_VERSION:
        return {}, None, None
    files = loaded.get("files")
    if not isinstance(files, dict):
        return {}, None, None
    digest = loaded.get("digest")
    return files, digest if isinstance(digest, str) else None, loaded.get("backups")


def _summaries_from(texts: list[str]) -> list[Any] | None:
    """The summaries of the index's JSON texts, parsed at once (None if one is not)."""
    try:
        found = cache.json_loads("[" + ",".join(texts) + "]")
    except ValueError:
        return None
    if not isinstance(found, list) or len(found) != len(texts) or not all(type(x) is dict for x in found):
        return None
    return found


def scan_battles(directory: Path) -> list[BattleEntry]:
    """Every battle file of a split folder, through the index (``.cache/battles.json``)."""
    return scan(directory)[0]


def scan(directory: Path, *, use_index: bool = True) -> tuple[list[BattleEntry], str]:
    """Every battle file of a split folder (by name), through the index
    (``.cache/battles.json``: a file whose inode, size, mtime and ctime are as it knows
    them is not read), and their :func:`battles_digest`. The index only spares reading
    a file: what it says of a file that changed since is never used, so a warm and a
    cold cache give the same battles and the same problems. ``use_index``: False to read
    every file and write nothing (``munda-tui check``)."""
    battles_dir = directory / BATTLES_DIR
    index_path = directory / cache.CACHE_DIR / INDEX_FILE
    index, digest, known_backups = _load_index(index_path) if use_index else ({}, None, None)
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
        if name[:1] == "." or not (_BATTLE_ID_NAME.match(name) or _BATTLE_NAME.match(name)):
            continue  # (an old battle file, battles/0007.toml, is never read: said, below)
        try:
            st = e.stat()
        except OSError:
            continue
        key = stats[name] = _stat_key(st)
        known = index.get(name)
        if (type(known) is list and len(known) == _ENTRY_LEN and known[:4] == key
                and (known[4] is None or type(known[4]) is int)):
            js = known[5]
            if type(js) is str and known[4] is not None:
                entry = BattleEntry(name, known[4], None, None, js)
                pending.append(entry)
            elif js is None and known[4] is None and type(known[6]) is str:
                entry = BattleEntry(name, None, None, known[6])
            else:
                entry = _read_entry(Path(e.path), use_index)
                changed = True
        else:
            entry = _read_entry(Path(e.path), use_index)
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
                    out[out.index(entry)] = _read_entry(battles_dir / entry.name, use_index)
    # A battle file that is gone while its rotated backups are here (lost, not deleted:
    # ``delete_battle`` keeps a ``.deleted.bak``) is listed as a problem: the campaign
    # says so and offers the newest backup, as for a file that does not load. Found from
    # the backups folder, never from the index.
    lost, backups = _lost_through(directory, set(stats), known_backups)
    changed = changed or backups != known_backups
    for name in lost:
        out.append(BattleEntry(name, None, None, f"{battles_dir / name}:1:1: the battle file is missing"))
        stats[name] = [0, 0, 0, 0]
        known = index.get(name)
        changed = changed or not (type(known) is list and known[:5] == [0, 0, 0, 0, None])
    out.sort(key=lambda e: e.name)
    changed = changed or len(stats) != len(index)
    if changed or digest is None:
        digest = battles_digest(out)
        if use_index:
            _write_index_entries(directory, {e.name: (stats[e.name], e) for e in out}, digest, backups)
    return out, digest


def _lost_through(directory: Path, present: set[str], known: Any) -> tuple[list[str], Any]:
    """:func:`lost_battles`, the backups folder listed only when it changed since the
    index last listed it (``known``: [its inode, mtime and ctime, the battle files it
    keeps backups of]; any file added to, removed from or renamed in a folder changes
    its mtime and ctime): (the lost files, what the index keeps of the folder now)."""
    from .files import BACKUPS_DIR

    try:
        st = os.stat(directory / BACKUPS_DIR / BATTLES_DIR)
    except OSError:
        return [], None
    key = [st.st_ino, st.st_mtime_ns, st.st_ctime_ns]
    if (type(known) is list and len(known) == 2 and known[0] == key and type(known[1]) is list
            and all(type(n) is str for n in known[1])):
        return sorted(n for n in known[1] if n not in present), known
    kept = lost_battles(directory, set())
    return [n for n in kept if n not in present], [key, kept]


def lost_battles(directory: Path, present: set[str]) -> list[str]:
    """The split battle files (by name) that are not in ``battles/`` (``present``) while
    rotated backups of them are kept, and were not deleted by the app."""
    from .atomic import _BACKUP_RE
    from .files import BACKUPS_DIR

    try:
        names = os.listdir(directory / BACKUPS_DIR / BATTLES_DIR)
    except (FileNotFoundError, NotADirectoryError):
        return []
    found: set[str] = set()
    deleted: set[str] = set()
    for backup in names:
        cut = backup.rfind(".toml.")
        if cut < 0 or backup[: cut + 5] in present:
            continue  # (a league keeps 10,000 backups: most of a file that is there)
        if backup.endswith(".deleted.bak"):
            deleted.add(backup[: -len(".deleted.bak")])
            continue
        m = _BACKUP_RE.match(backup)
        if m is not None and m.group("name") not in present and _BATTLE_ID_NAME.match(m.group("name")):
            found.add(m.group("name"))
    return sorted(found - deleted)


def _read_entry(path: Path, use_index: bool = True) -> BattleEntry:
    """A battle file's entry, read from the file (never from what the index said). A
    battle file of the old layout (``battles/0007.toml``: one the split left where it
    was, as it did not load then) is never read into the campaign: it is said, with
    what is wrong with it if it does not load."""
    try:
        text = read_text(path)
    except SaveError as error:
        return BattleEntry(path.name, None, None, str(error))
    if _BATTLE_NAME.match(path.name):
        from .files import load_battle_file

        try:
            load_battle_file(path, text)
        except SaveError as error:
            return BattleEntry(path.name, None, None, str(error))
        return BattleEntry(path.name, None, None, f"{path}:1:1: a battle file of the old layout "
                           f"(battles/NNNN.toml): this campaign's battle files are "
                           f"battles/<date>-<random>.toml; it is not read")
    if not use_index:
        try:
            raw = parse_text(path, text)
        except SaveError as error:
            return BattleEntry(path.name, None, None, str(error))
        return battle_entry(path, text, raw)
    return battle_entry(path, text)


def _write_index_entries(directory: Path, files: dict[str, tuple[list[int], BattleEntry]], digest: str,
                         backups: Any = None) -> None:
    raw: dict[str, str] = {}
    for name, (st, entry) in files.items():
        js = entry.json()
        raw[name] = (f"[{st[0]},{st[1]},{st[2]},{st[3]},{'null' if entry.number is None else entry.number},"
                      f"{'null' if js is None else json.dumps(js, ensure_ascii=False)},"
                      f"{'null' if entry.error is None else json.dumps(entry.error, ensure_ascii=False)}]")
    _write_index_body(directory, raw, digest, backups)


def _write_index_body(directory: Path, raw: dict[str, str], digest: str, backups: Any = None) -> None:
    salt = cache.as_json(cache.salt())
    kept = "" if backups is None else f',"backups":{json.dumps(backups, ensure_ascii=False)}'
    body = ('{"salt":' + str(salt) + f',"v":{INDEX_VERSION},"digest":"{digest}"{kept},"files":{{'
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
            if not _lost(directory, entry.name):
                continue
            st = [0, 0, 0, 0]
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


@dataclass
class DecodedGangs:
    """The gangs an open campaign decoded (file name -> its text then, the gang) and the
    battles' numbers then (file stem -> number), for :func:`load_folder` to copy."""

    texts: dict[str, str]
    gangs: dict[str, m.Gang]
    numbers: dict[str, int]

    def copy(self, name: str, text: str, raw: dict[str, Any], number_of: Any,
             campaign: m.Campaign | None) -> tuple[int, m.Gang] | None:
        """(order, a copy of the gang) where the file ``name`` holds ``text`` as then and
        every battle it names has the number it had; None: decode it."""
        import pickle

        gang = self.gangs.get(name)
        place = raw.get("order", 0)
        if gang is None or self.texts.get(name) != text or type(place) is not int:
            return None
        named: list[str] = []

        def number(stem: str) -> int | None:
            named.append(stem)
            return None

        gang_refs_from_file({k: v for k, v in raw.items() if k not in ("schema_version", "order")}, number)
        if any(number_of(stem) != self.numbers.get(stem) for stem in named):
            return None
        if campaign is not None:
            try:
                campaign.check_reputation(gang.reputation)
            except LimitError:
                return None  # (decoded again: said at its line)
        return place, pickle.loads(pickle.dumps(gang, protocol=pickle.HIGHEST_PROTOCOL))


def check_settings(path: Path, text: str, data: dict[str, Any]) -> m.Campaign:
    """campaign.toml of the split folder, checked: the settings only, ``schema_version``
    2 (SaveError at the line that is wrong). A number that contradicts the folder's
    layout (its gang files) is refused here, never taken for the old one-file layout."""
    try:
        version = codec.schema_version(data, codec.CAMPAIGN)
        if version != SPLIT_VERSION:
            raise ValidationError(("schema_version",), f"{version} contradicts the folder's layout: "
                                  f"a folder with gang files or split battle files says "
                                  f"schema_version = {SPLIT_VERSION} (nothing was migrated or changed)")
        if "gangs" in data or "battles" in data:
            raise ValidationError(("gangs" if "gangs" in data else "battles",),
                                  "a campaign.toml of the split folder holds the settings only "
                                  f"(each gang is a file in {GANGS_DIR}/, each battle in {BATTLES_DIR}/)")
        return codec.campaign_from_data(data)
    except ValidationError as error:
        raise validation_error(path, text, error) from None


def check_gang_ids(gang: m.Gang, keypath: codec.KeyPath = ()) -> None:
    """A gang's ids: its own and its fighters' present, the fighters' and the fallen's
    unique, none both on the roster and fallen (ValidationError under ``keypath``)."""
    if gang.id == "":
        raise ValidationError((*keypath, "id"), "gang id must not be empty")
    codec._unique(gang.fighters, "id", (*keypath, "fighters"), "fighter")
    # the fallen keep their ids (the gang's history names them): no fighter reuses one
    codec._unique(gang.fallen, "id", (*keypath, "fallen"), "fallen fighter")
    on_roster = {f.id for f in gang.fighters}
    for fi, f in enumerate(gang.fallen):
        if f.id in on_roster:
            raise ValidationError((*keypath, "fallen", fi, "id"),
                                  f"fighter id {f.id!r} is both on the roster and fallen")
    codec.check_departed_ids(gang, keypath)  # (and the departed's)


def decode_gang(path: Path, text: str, raw: dict[str, Any], number_of: Any,
                campaign: m.Campaign | None = None) -> tuple[int, m.Gang]:
    """One gang file, checked as every reader checks it (the open, ``munda-tui check``,
    a sync, a backup offered): (its ``order``, the gang). ``number_of``: a battle's
    number by its file name (see :func:`gang_refs_from_file`); ``campaign``: its
    settings, for the Reputation's range (else the widest). SaveError at the line of the
    value that is wrong."""
    try:
        codec.schema_version(raw, codec.GANG)
        place = raw.get("order", 0)
        if type(place) is not int:
            raise ValidationError(("order",), f"expected an integer, found {codec._describe(place)}")
        body = {k: v for k, v in raw.items() if k not in ("schema_version", "order")}
        gang = codec.from_data(m.Gang, gang_refs_from_file(body, number_of))
        check_gang_ids(gang)
        if campaign is not None:
            try:  # the campaign's ruleset says whether it may be below 0 (turf-reputation-floor)
                campaign.check_reputation(gang.reputation)
            except LimitError as limit:
                raise ValidationError(("reputation",), str(limit)) from None
    except ValidationError as error:
        raise validation_error(path, text, error) from None
    return place, gang


def shown_numbers(placed: Sequence[tuple[int, str, str]], battle_order: list[str] | None) -> dict[str, int]:
    """The number each battle file is shown with (file name -> number), in the order the
    campaign lists them; ``placed``: each readable battle file's (number its file says,
    date, name). ``battle_order``: the applied battles (their files' stems) in the order
    of the campaign's records: they take the numbers they hold among them in that order
    (a battle in progress and a battle left out keep theirs); two files that say the
    same number: the later one the next free. :func:`load_folder` numbers a folder so,
    and a league's merge its battle files (``saves.league``: written with their numbers
    in the merge's own transaction)."""
    ordered = sorted(placed, key=lambda p: (p[0], p[1], p[2]))
    given: dict[str, int] = {}  # file name -> the number the records' order gives it
    if battle_order is not None:
        rank = {stem: i for i, stem in enumerate(battle_order)}
        first = sorted((p for p in ordered if battle_stem(p[2]) in rank), key=lambda p: rank[battle_stem(p[2])])
        pool: list[int] = []
        spare = max((p[0] for p in ordered), default=0) + 1
        for held in sorted(p[0] for p in first):  # (two saying one number: one takes the next free)
            if held in pool:
                held, spare = spare, spare + 1
            pool.append(held)
        given = dict(zip((p[2] for p in first), sorted(pool)))
        ordered = sorted(ordered, key=lambda p: (given.get(p[2], p[0]), p[1], p[2]))
    taken = {p[0] for p in ordered} | set(given.values())
    next_free = max(taken, default=0) + 1
    used: set[int] = set()
    out: dict[str, int] = {}
    for number, _date, name in ordered:
        shown = given.get(name, number)
        if shown in used:  # two files say the same number: the later one the next free
            shown, next_free = next_free, next_free + 1
        used.add(shown)
        out[name] = shown
    return out


def load_folder(read: FolderRead, *, parse: Any = None, all_problems: list[str] | None = None,
                settings: bool = True, battle_order: list[str] | None = None,
                decoded: "DecodedGangs | None" = None) -> LoadedFolder:
    """Decode a split folder (SaveError naming the file that is wrong). ``parse``: how a
    file's text is parsed (the cache's by default: ``munda-tui check`` writes nothing).
    ``all_problems``: given, every file that is wrong is added to it (campaign.toml,
    each gang file, each battle file left out) and the first of them raised after.
    ``battle_order``: the applied battles (their files' stems) in the order of the
    campaign's records (issue 30): numbered 1, 2, ... in that order, every other battle
    after them in its own number's order; without it a battle keeps its file's number.
    ``decoded``: the gangs as the campaign open now decoded them (a read again after a
    sync): a gang whose file and battles' numbers are as they were is a copy of its
    decoded self, not decoded again."""
    parse = parse or cache.parsed
    directory, text = read.directory, read.text
    path = directory / "campaign.toml"
    collected: list[SaveError] = []

    def wrong(error: SaveError) -> None:
        if all_problems is None:
            raise error
        collected.append(error)
        all_problems.append(str(error))

    campaign: m.Campaign | None = None
    try:
        if settings:  # (False: campaign.toml could not be read, and is said so already)
            campaign = check_settings(path, text, parse(path, text))
    except SaveError as error:
        wrong(error)
    version = SPLIT_VERSION
    problems: list[str] = []
    placed: list[tuple[int, str, str, BattleEntry, m.BattleSummary | None]] = []
    for entry in read.battles:
        if entry.error is not None or entry.number is None:
            problems.append(entry.error or f"{directory / BATTLES_DIR / entry.name}:1:1: no battle number")
            continue
        summary = None
        if entry.summary is not None:
            try:
                summary = codec.from_data(m.BattleSummary, {**entry.summary, NUMBER: entry.number}, (SUMMARY,))
            except ValidationError:  # (an index edited by hand): what the file says
                again = _read_entry(directory / BATTLES_DIR / entry.name, use_index=False)
                problems.append(again.error or f"{directory / BATTLES_DIR / entry.name}:1:1: [summary] does not load")
                continue
        date = summary.date if summary is not None else ""
        placed.append((entry.number, date, entry.name, entry, summary))
    if all_problems is not None:
        all_problems.extend(problems)
    shown_by_name = shown_numbers([(p[0], p[1], p[2]) for p in placed], battle_order)
    by_name = {p[2]: p for p in placed}
    battle_files: dict[int, str] = {}
    summaries: dict[int, str | None] = {}
    numbers: dict[int, int] = {}
    battles: list[m.BattleSummary] = []
    for name, shown in shown_by_name.items():
        number, _date, _name, entry, summary = by_name[name]
        if shown != number:
            numbers[shown] = number
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
        try:
            raw = parse(gpath, gtext)
            copied = decoded.copy(name, gtext, raw, shown_of.get, campaign) if decoded is not None else None
            place, gang = copied if copied is not None else decode_gang(gpath, gtext, raw, shown_of.get, campaign)
            if gang.id in gang_files:
                raise validation_error(gpath, gtext, ValidationError(
                    ("id",), f"gang id {gang.id!r} is also the id in {gang_files[gang.id]}"))
        except SaveError as error:
            wrong(error)
            continue
        gang_files[gang.id] = name
        gang_texts[name] = gtext
        gang_data[name] = raw
        order[gang.id] = place
        found.append((place, gang.id, gang, gpath, gtext))
    if collected:
        raise collected[0]
    if campaign is None:  # (campaign.toml not read: the caller says so)
        raise SaveError(path, 1, 1, "campaign.toml could not be read")
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
            wrong(validation_error(f[3], f[4], ValidationError(kp[2:], error.message)))
        else:
            wrong(validation_error(path, text, error))
        raise collected[0]  # pragma: no cover - (wrong raised it when not collecting)
    return LoadedFolder(campaign, version, text, gang_files, gang_texts, gang_data, order, battle_files,
                        summaries, numbers, problems)


def gang_file_names(directory: Path) -> list[str]:
    """The gang files of a split folder, by name, as every reader lists them."""
    try:
        return sorted(n for n in os.listdir(directory / GANGS_DIR) if n.endswith(".toml") and not n.startswith("."))
    except (FileNotFoundError, NotADirectoryError):
        return []


def check_folder(directory: Path) -> tuple[bool, list[tuple[Path, str]]] | None:
    """What the open says of a campaign folder, file by file (``munda-tui check``): every
    file read, nothing written, the same checks and messages as the open's
    (:func:`load_folder`). (whether it is split, [(file, ``path:line:col: message``)]);
    None for a folder of the old layout (each file is checked alone, as the migration
    reads it)."""
    path = directory / "campaign.toml"
    try:
        text: str | None = read_text(path)
    except SaveError as error:
        text, unread = None, error
    if not split_layout(directory, text or "", parse_text):
        return None
    out: list[tuple[Path, str]] = []
    if text is None:
        out.append((path, str(unread)))
    gangs: list[tuple[str, str]] = []
    for name in gang_file_names(directory):
        try:
            gangs.append((name, read_text(directory / GANGS_DIR / name)))
        except SaveError as error:
            out.append((directory / GANGS_DIR / name, str(error)))
    battles, _digest = scan(directory, use_index=False)
    read = FolderRead(directory, text or "", True, gangs, battles)
    problems: list[str] = []
    try:
        load_folder(read, parse=parse_text, all_problems=problems, settings=text is not None)
    except SaveError:
        pass
    for problem in problems:
        file = next((p for p in [path, *(directory / GANGS_DIR / n for n, _t in gangs),
                                 *(directory / BATTLES_DIR / e.name for e in battles)]
                     if problem.startswith(f"{p}:")), path)
        out.append((file, problem))
    return True, out


@dataclass
class LeftOut:
    """A battle file the open left out (it does not load, or is missing with backups)."""

    path: Path
    error: str  # ``path:line:col: message``
    number: int | None  # the number it holds (its own, else its newest loading backup's)
    backup: Path | None  # its newest backup that loads

    def unnumbered_error(self) -> SaveError:
        """Why no new battle is numbered while this file's number cannot be read (the
        new one could take it): the file's own problem, and what lets battles go on."""
        error = self.save_error()
        return SaveError(error.path, error.line, error.column,
                         f"{error.message}; its battle number cannot be read and no backup of it "
                         "says one, so no new battle is numbered until it loads (fix its "
                         "`number` line) or is moved out of battles/")

    def save_error(self) -> SaveError:
        """The problem as the SaveError a load raises (path, line, column, message)."""
        head = f"{self.path}:"
        rest = self.error[len(head):] if self.error.startswith(head) else ""
        line, _, rest = rest.partition(":")
        col, _, message = rest.partition(": ")
        if line.isdigit() and col.isdigit():
            return SaveError(self.path, int(line), int(col), message)
        return SaveError(self.path, 1, 1, self.error)


def number_in(path: Path) -> int | None:
    """The battle number a battle file (or a backup of one) holds, if it can be read:
    from the whole file, else from its head alone (the lines before its first table: a
    file broken further down still says its number there)."""
    try:
        text = read_text(path)
    except SaveError:
        return None
    try:
        number = parse_text(path, text).get(NUMBER)
    except SaveError:
        head = []
        for line in text.splitlines():
            if line.lstrip().startswith("["):
                break
            head.append(line)
        try:
            number = parse_text(path, "\n".join(head)).get(NUMBER)
        except SaveError:
            return None
    return number if type(number) is int and 0 <= number <= 9_999 else None


def left_out(directory: Path, entries: list[BattleEntry], newest_loadable: Any,
             backups: Any = None) -> list[LeftOut]:
    """The battle files an open left out (``entries`` with an error), each with the
    number it keeps (no new battle takes it) and its newest backup that loads
    (``newest_loadable(path)``: ``Store.newest_loadable_backup``). The number is the
    file's own, else its old name's (``battles/0007.toml``), else the newest of its
    backups (``backups(path)``, newest first) that says one, loading or not; None when
    none does (:attr:`LeftOut.number` None: no new battle is numbered while it is so)."""
    out: list[LeftOut] = []
    for entry in entries:
        if entry.error is None:
            continue
        path = directory / BATTLES_DIR / entry.name
        try:
            backup = newest_loadable(path)
        except OSError:
            backup = None
        number = number_in(path) if path.is_file() else None
        if number is None:  # an old battle file (battles/0007.toml) says it by its name
            from .files import battle_number

            number = battle_number(path)
        if number is None and backup is not None:
            number = number_in(backup)
        if number is None and backups is not None:
            try:
                number = next((n for n in map(number_in, backups(path)) if n is not None), None)
            except OSError:
                number = None
        out.append(LeftOut(path, entry.error, number, backup))
    return out


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


def load_gang_file(path: Path, text: str | None = None, number_of: Any = None,
                   campaign: m.Campaign | None = None, cached_as: Path | None = None) -> m.Gang:
    """One gang file, checked as the open checks it (:func:`decode_gang`): SaveError
    naming where it is wrong. ``number_of``: a battle's number by its file name (else a
    battle the gang names by its file reads as unknown; see :func:`gang_refs_from_file`);
    ``campaign``: its settings, when known; ``cached_as``: the campaign's file whose
    parse cache (``saves.cache``, by the text's digest) may know the text already."""
    if text is None:
        text = read_text(path)
    raw = parsed_gang(path, text, cached_as)
    return decode_gang(path, text, raw, number_of or (lambda _name: None), campaign)[1]


_PARSED: dict[str, dict[str, Any]] = {}  # a gang file's text -> what it reads as (the last few)


def parsed_gang(path: Path, text: str, cached_as: Path | None = None) -> dict[str, Any]:
    """What the guarded reader makes of a gang file's ``text`` (SaveError naming ``path``
    where it is not TOML), parsed once for the checks a sync makes of one text (the
    fold's, the remote's, the one before the push: the same gang was parsed three
    times); ``cached_as``: see :func:`load_gang_file`. What it gives is never changed by
    its readers."""
    data = _PARSED.get(text)
    if data is None:
        known = cache.known_parse(cached_as, text) if cached_as is not None else None
        data = known if known is not None else parse_text(path, text)
        if len(_PARSED) >= 128:
            del _PARSED[next(iter(_PARSED))]
        _PARSED[text] = data
    return data


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


# --- the decoded folder, cached ------------------------------------------------------------

DECODED_FILE = "decoded.json"  # .cache/: what load_folder made of the folder, under its key
DECODED_VERSION = 2  # 2: the first line ends with a digest of the rest


def _decoded_type() -> Any:
    import msgspec

    class Decoded(msgspec.Struct, array_like=True):
        campaign: m.Campaign
        gang_files: dict[str, str]
        gang_order: dict[str, int]
        battle_files: dict[int, str]
        summaries: dict[int, str | None]
        numbers: dict[int, int]
        problems: list[str]

    return Decoded


_DECODER: list[Any] = []  # [the Decoded type, its JSON decoder], made at the first use


def _decoded() -> tuple[Any, Any]:
    if not _DECODER:
        import msgspec

        kind = _decoded_type()
        _DECODER.extend([kind, msgspec.json.Decoder(kind)])
    return _DECODER[0], _DECODER[1]


def load_folder_cached(read: FolderRead) -> LoadedFolder:
    """:func:`load_folder` of ``read`` (the open's way: the parse cache's parses, the
    first problem raised) through ``.cache/decoded.json``: what it made of this very
    folder (keyed by :func:`folder_key`, which covers campaign.toml, every gang file's
    text and the battles' numbers and summaries, and by munda-tui's version), decoded by
    msgspec into the model's types: a league of 50 gangs x 30 fighters and 2,000
    battles decodes in ~20 ms where the gang files and summaries took ~90 (issue 30.9).
    A miss decodes the files and writes the cache again (only what reads back equal: a
    value JSON would not keep is never cached). The gangs' parsed data is not cached:
    the handle parses a gang's text (its own parse cache) when a save first compares it."""
    import msgspec

    kind, decoder = _decoded()
    path = read.directory / cache.CACHE_DIR / DECODED_FILE
    key = f"{DECODED_VERSION}:{read.key}:{cache.text_key(str(read.directory)).hex()}"  # (problems name paths)
    try:
        raw = path.read_bytes()
    except OSError:
        raw = b""
    head, _, body = raw.partition(b"\n")
    if read.key and head == _decoded_head(key, body):
        try:
            hit = decoder.decode(body)
        except (msgspec.DecodeError, ValueError, TypeError):
            hit = None
        if hit is not None:
            texts = dict(read.gangs)
            if all(name in texts for name in hit.gang_files.values()):
                return LoadedFolder(hit.campaign, SPLIT_VERSION, read.text, dict(hit.gang_files),
                                    {name: texts[name] for name in hit.gang_files.values()}, {},
                                    dict(hit.gang_order), dict(hit.battle_files), dict(hit.summaries),
                                    dict(hit.numbers), list(hit.problems))
    found = load_folder(read)
    if read.key:
        try:
            made = msgspec.json.encode(kind(found.campaign, found.gang_files, found.gang_order, found.battle_files,
                                            found.summaries, found.numbers, found.problems))
            back = decoder.decode(made)
            same = (back.campaign == found.campaign and back.gang_files == found.gang_files
                    and back.gang_order == found.gang_order and back.battle_files == found.battle_files
                    and back.summaries == found.summaries and back.numbers == found.numbers
                    and back.problems == found.problems)
        except (msgspec.EncodeError, msgspec.DecodeError, ValueError, TypeError):
            same = False
        if same:
            cache.write_plain_bytes(path, _decoded_head(key, made) + b"\n" + made)
    return found


def _decoded_head(key: str, body: bytes) -> bytes:
    """The cache's first line: its key and a digest of what follows it. The values are
    taken as they are (checked by type, not by range) only as the open wrote them: a hand
    edit of the cache, or a torn write, is a miss and the files are decoded again."""
    import hashlib

    return f"{key}:{hashlib.blake2b(body, digest_size=16).hexdigest()}".encode()
