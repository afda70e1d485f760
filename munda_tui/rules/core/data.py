"""The rule data: the package's own files, then the packs, in order (issue 35).

The rules read their data from an ordered list of roots: the package's own data
(``munda_tui/rules/data``, read through importlib.resources: reading the package, not the
player's disk), then the player's packs (``<config>/packs/<pack>/``), then the campaign's
packs (``<campaign>/packs/<pack>/``). That list is a :class:`RuleData`, given to the rules
(every reader takes ``data``; ``None`` is the package alone, :data:`PACKAGE`). The packs'
files are read, parsed and checked by ``munda_tui.saves.packs`` (the rules open no file)
and handed in as :class:`Pack` values.

A pack's file has the same format as the package's file of its kind (:data:`KINDS`), and
each data item knows where it came from (:class:`Item` ``.source``: the pack and the file).
An item whose id an earlier root already has replaces it only when its file says so
(``replaces = "<its id>"``, or a list of ids): never by accident of a shared id (the
loader refuses such a file: ``munda_tui.rules.packs``).

Nothing here is a module global that changes: the package's files are read once each
(cached: they never change while the app runs) and a RuleData keeps what is built from
it (:meth:`RuleData.memo`) on itself.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from importlib.abc import Traversable
from typing import Any, TypeVar

T = TypeVar("T")

#: how the package's own files are named in an item's source
PACKAGE_PREFIX = "munda_tui/rules/data"


def _base() -> Traversable:
    return resources.files("munda_tui.rules").joinpath("data")


@functools.cache
def load_data(relpath: str) -> dict[str, Any]:
    """Parse the package's ``munda_tui/rules/data/<relpath>`` (TOML). Cached (the
    package's files never change while the app runs): treat as read-only."""
    resource = _base().joinpath(*relpath.split("/"))
    return tomllib.loads(resource.read_bytes().decode("utf-8"))


@functools.cache
def list_data(folder: str) -> tuple[str, ...]:
    """Relative paths of the TOML files in one of the package's data folders, sorted."""
    base = _base().joinpath(*folder.split("/"))
    return tuple(sorted(
        f"{folder}/{entry.name}"
        for entry in base.iterdir()
        if entry.name.endswith(".toml")
    ))


@dataclass(frozen=True)
class Kind:
    """One kind of rule data a pack may hold, in the package's format.

    A folder kind is one item per file (``folder``; the item's id is the file's
    ``id_key``); a file kind is the entries of one file: a list of tables
    (``list_key``, each named by its ``id_key``) or a table of named values
    (``table_key``)."""

    name: str
    title: str
    path: str  # the folder ("scenario") or the file ("conditions.toml")
    folder: bool = False
    id_key: str = "id"
    list_key: str = ""
    table_key: str = ""


#: every kind a pack may hold (the recipes of ARCHITECTURE.md), by name
KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("scenario", "scenario table", "scenario", folder=True, id_key="table"),
    Kind("subplots", "Sub-plot deck", "subplots", folder=True),
    Kind("postbattle", "post-battle ruleset", "postbattle", folder=True),
    Kind("conditions", "fighter condition", "conditions.toml", id_key="name",
         list_key="conditions"),
    Kind("xp_awards", "XP award event", "xp_awards.toml", list_key="events"),
    Kind("injuries", "Lasting Injury table", "injuries.toml", table_key="tables"),
    Kind("fighter_roles", "fighter role", "fighter_roles.toml", table_key="types"),
    Kind("fighter_lists", "gang's fighter roles", "fighter_roles.toml", id_key="gang",
         list_key="lists"),
    Kind("watchers", "Sub-plot watcher", "watchers.toml", table_key="cards"),
    Kind("counters", "custom counter", "counters.toml", list_key="counters"),
    Kind("catalogue", "catalogue", "catalogue.toml", folder=False),
)}

#: kinds the package ships no file of (only a pack holds them: a club's own counters)
PACK_ONLY = frozenset({"catalogue", "counters"})


def kinds_of(relpath: str) -> list[Kind]:
    """The kinds a data file holds, by its place (``scenario/x.toml``, ``conditions.toml``)."""
    folder, _, name = relpath.rpartition("/")
    if folder:
        return [k for k in KINDS.values() if k.folder and k.path == folder]
    return [k for k in KINDS.values() if not k.folder and k.path == name]


@dataclass(frozen=True)
class Source:
    """Where a data item came from: its pack ("" for the package's own data) and file."""

    pack: str
    file: str

    def __str__(self) -> str:
        return f"{self.file} (pack {self.pack})" if self.pack else self.file


@dataclass(frozen=True)
class Item:
    """One data item: its kind, its id, its data (a folder kind's whole file, a list
    entry, a table's value) and where it came from; ``replaced`` names the source of the
    item it replaced (None: it added one)."""

    kind: str
    id: str
    data: Any
    source: Source
    replaced: Source | None = None


@dataclass(frozen=True)
class PackFile:
    """One file of a pack: its place in the data layout (``scenario/ours.toml``), its
    parsed TOML and the file it was read from (as shown: its path)."""

    relpath: str
    data: Mapping[str, Any]
    file: str


@dataclass(frozen=True)
class Pack:
    """A pack as ``saves`` read it: its manifest (``pack.toml``: id, title, version) and its
    files. ``where`` is "player" (``<config>/packs``) or "campaign" (``<campaign>/packs``);
    ``digest`` a hash of its files' bytes (what a battle records)."""

    id: str
    title: str
    version: str
    where: str = "player"
    path: str = ""
    files: tuple[PackFile, ...] = ()
    digest: str = ""
    description: str = ""


def replaces_of(data: Mapping[str, Any]) -> tuple[str, ...]:
    """The ids a file says it replaces (``replaces = "id"`` or a list of ids)."""
    value = data.get("replaces", ())
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)):
        return tuple(v for v in value if isinstance(v, str))
    return ()


def file_items(kind: Kind, data: Mapping[str, Any], source: Source) -> list[Item]:
    """The items of one file of ``kind`` (unchecked: an entry without its id is skipped)."""
    if kind.folder:
        item_id = data.get(kind.id_key)
        return [Item(kind.name, item_id, data, source)] if isinstance(item_id, str) else []
    if kind.list_key:
        entries = data.get(kind.list_key, [])
        if not isinstance(entries, list):
            return []
        return [Item(kind.name, e[kind.id_key], e, source) for e in entries
                if isinstance(e, Mapping) and isinstance(e.get(kind.id_key), str)]
    if kind.table_key:
        table = data.get(kind.table_key, {})
        if not isinstance(table, Mapping):
            return []
        return [Item(kind.name, str(k), v, source) for k, v in table.items()]
    return []


@functools.cache
def package_items(kind_name: str) -> tuple[Item, ...]:
    """The package's own items of a kind, in file order (folders: by file name)."""
    kind = KINDS[kind_name]
    if kind.name in PACK_ONLY:
        return ()
    paths = list_data(kind.path) if kind.folder else (kind.path,)
    items: list[Item] = []
    for relpath in paths:
        items.extend(file_items(kind, load_data(relpath), Source("", f"{PACKAGE_PREFIX}/{relpath}")))
    return tuple(items)


def merge(earlier: Iterable[Item], pack_files: Iterable[tuple[PackFile, Source]],
          kind: Kind) -> tuple[Item, ...]:
    """``earlier`` with each pack file's items of ``kind`` applied in order: a new id is
    added at the end, an id the file says it replaces takes the earlier item's place.
    (An id the file shares without saying so is the loader's error, and such a file is
    never handed in; here the earlier item is kept.)"""
    items = list(earlier)
    where = {item.id: i for i, item in enumerate(items)}
    for pack_file, source in pack_files:
        replaces = set(replaces_of(pack_file.data))
        for item in file_items(kind, pack_file.data, source):
            if item.id in where:
                if item.id in replaces:
                    i = where[item.id]
                    items[i] = Item(item.kind, item.id, item.data, item.source, items[i].source)
                continue
            where[item.id] = len(items)
            items.append(item)
    return tuple(items)


@dataclass(eq=False)
class RuleData:
    """The ordered roots the rules read: the package's data, then ``packs`` in order (the
    player's, then the campaign's). Immutable once made; what is built from it is kept
    on it (:meth:`memo`), so two RuleData never share a cache and none needs resetting."""

    packs: tuple[Pack, ...] = ()
    _memo: dict[str, Any] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.packs = tuple(self.packs)

    def memo(self, key: str, build: Callable[[], T]) -> T:
        """``build()`` once for this data (the package's own RuleData keeps it for the
        process: its files never change)."""
        try:
            return self._memo[key]  # type: ignore[no-any-return]
        except KeyError:
            value = self._memo[key] = build()
            return value

    def pack_files(self, kind: Kind) -> list[tuple[PackFile, Source]]:
        """Every pack file that holds ``kind``, in root order."""
        out: list[tuple[PackFile, Source]] = []
        for pack in self.packs:
            for pf in pack.files:
                if kind in kinds_of(pf.relpath):
                    out.append((pf, Source(pack.id, pf.file)))
        return out

    def items(self, kind_name: str) -> tuple[Item, ...]:
        """Every item of a kind: the package's, then each pack's added or replacing."""
        kind = KINDS[kind_name]
        if not self.packs:
            return package_items(kind_name)
        return self.memo(f"items:{kind_name}",
                         lambda: merge(package_items(kind_name), self.pack_files(kind), kind))

    def item(self, kind_name: str, item_id: str) -> Item | None:
        return next((i for i in self.items(kind_name) if i.id == item_id), None)

    def item_ids(self, kind_name: str) -> tuple[str, ...]:
        return tuple(i.id for i in self.items(kind_name))

    def pack(self, pack_id: str) -> Pack | None:
        return next((p for p in self.packs if p.id == pack_id), None)


#: the package's data alone (no pack): what a reader given ``None`` reads
PACKAGE = RuleData()


def given(data: RuleData | None) -> RuleData:
    """``data``, or the package's data alone."""
    return PACKAGE if data is None else data


def injury_tables(data: RuleData | None = None) -> dict[str, Any]:
    """The Lasting Injury tables by id: the package's, then the packs' (added or replacing)."""
    data = given(data)
    if not data.packs:
        return load_data("injuries.toml")["tables"]  # type: ignore[no-any-return]
    return data.memo("injury_tables", lambda: {i.id: i.data for i in data.items("injuries")})


def injury_table(name: str, data: RuleData | None = None) -> dict[str, Any]:
    tables = injury_tables(data)
    return tables.get(name) or tables["rulebook-2018"]
