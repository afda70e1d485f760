"""Human-readable TOML with tomlkit, updated in place so comments survive.

A :class:`Layout` says which tables are written as ``[sections]``, which
lists of tables as ``[[arrays of tables]]`` (and the key that identifies an
element, so gangs and fighters are matched by ``id`` when the list changes);
everything else nested is written inline.

:func:`merge` updates an existing tomlkit document to new plain data: keys
whose value did not change are left alone (with their comments), changed
values are replaced, removed keys deleted, new keys added.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import tomlkit
from tomlkit.container import Container
from tomlkit.items import AoT, Item, Table

Path_ = tuple[str, ...]


@dataclass(frozen=True)
class Layout:
    tables: frozenset[Path_] = frozenset()
    arrays: Mapping[Path_, str] = field(default_factory=dict)  # path -> id key


CAMPAIGN_LAYOUT = Layout(
    tables=frozenset({("settings",)}),
    arrays={("gangs",): "id", ("gangs", "fighters"): "id", ("gangs", "fallen"): "id",
            ("gangs", "departed"): "id", ("battles",): "number"},
)
FLAT_LAYOUT = Layout()


class _EveryPath(frozenset[Path_]):
    def __contains__(self, item: object) -> bool:
        return True


class _NoIds(Mapping[Path_, str]):
    """Every path is an array of tables whose elements are matched by position."""

    def __getitem__(self, path: Path_) -> str:
        return ""

    def __contains__(self, path: object) -> bool:
        return True

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(())

    def __len__(self) -> int:
        return 0


#: A battle file's layout, as the fast writer (tomlemit) writes it: every table a
#: ``[section]``, every list of tables an ``[[array]]`` (elements matched by position:
#: the tracker's log grows at its end)
EVERY_TABLE_LAYOUT = Layout(tables=_EveryPath(), arrays=_NoIds())


def plain(value: Any) -> Any:
    """Plain Python data for a tomlkit value."""
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if unwrap is not None else value


def same(a: Any, b: Any) -> bool:
    """Equal and of the same types all the way down (1 is not true, 1 is not 1.0)."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _multiline_ok(text: str) -> bool:
    """Write as a multi-line string? Only where it reads back exactly: readers
    normalise CR LF and drop a newline right after the opening quotes."""
    return "\n" in text and "\r" not in text and not text.startswith("\n")


def _inline(value: Any) -> Any:
    if isinstance(value, Mapping):
        t = tomlkit.inline_table()
        for k, v in value.items():
            t.append(k, _inline(v))
        return t
    if isinstance(value, list):
        a = tomlkit.array()
        for v in value:
            a.append(_inline(v))
        if any(isinstance(v, Mapping) for v in value):
            a.multiline(True)
        return a
    if isinstance(value, str) and _multiline_ok(value):
        return tomlkit.string(value, multiline=True)
    return tomlkit.item(value)


def build(value: Any, path: Path_, layout: Layout) -> Any:
    """A fresh tomlkit item for ``value`` at ``path``."""
    if isinstance(value, Mapping) and path in layout.tables:
        t = tomlkit.table()
        fill(t, value, path, layout)
        return t
    if path in layout.arrays and _is_table_list(value):
        aot = tomlkit.aot()
        for v in value:
            aot.append(build_table(v, path, layout))
        return aot
    return _inline(value)


def build_table(value: Mapping[str, Any], path: Path_, layout: Layout) -> Table:
    t = tomlkit.table()
    fill(t, value, path, layout)
    return t


def fill(container: Any, value: Mapping[str, Any], path: Path_, layout: Layout) -> None:
    for k, v in value.items():
        container.append(k, build(v, (*path, k), layout))


def build_document(data: Mapping[str, Any], layout: Layout) -> tomlkit.TOMLDocument:
    doc = tomlkit.document()
    fill(doc, data, (), layout)
    return doc


def merge(container: Container | Table | tomlkit.TOMLDocument, data: Mapping[str, Any], path: Path_, layout: Layout) -> None:
    """Update ``container`` in place to hold ``data``."""
    for k in list(container.keys()):
        if k not in data:
            del container[k]
    for k, v in data.items():
        sub = (*path, k)
        if k not in container:
            container[k] = build(v, sub, layout)
            continue
        old = container[k]
        # (a section or an array of tables is merged key by key, element by element: each
        # part compared once, not the whole first and then each part again)
        if sub in layout.tables and isinstance(old, Table) and isinstance(v, Mapping):
            merge(old, v, sub, layout)
        elif sub in layout.arrays and isinstance(old, AoT) and _is_table_list(v):
            _merge_array(container, k, old, v, sub, layout)
        elif not same(plain(old), v):
            container[k] = build(v, sub, layout)


def _merge_array(container: Any, k: str, old: AoT, new: list[Mapping[str, Any]], path: Path_, layout: Layout) -> None:
    id_key = layout.arrays[path]
    tables: list[Table] = list(old.body)
    if not id_key:  # matched by position: the same ones merged, the rest removed or added
        for t, item in zip(tables, new):
            if not same(plain(t), item):
                merge(t, item, path, layout)
        for i in range(len(tables) - 1, len(new) - 1, -1):
            del old[i]
        for item in new[len(tables):]:
            old.append(build_table(item, path, layout))
        return
    old_ids = [plain(t.get(id_key)) for t in tables]
    new_ids = [item.get(id_key) for item in new]
    if old_ids == new_ids:
        for t, item in zip(tables, new):
            if not same(plain(t), item):
                merge(t, item, path, layout)
        return
    by_id: dict[Any, Table] = {}
    for ident, t in zip(old_ids, tables):
        if ident is not None and not isinstance(ident, (dict, list)):
            by_id.setdefault(ident, t)
    # Same elements kept in place, with new ones appended: edit the array in place.
    kept = [i for i in old_ids if i in set(new_ids)]
    if kept == [i for i in new_ids if i in by_id] and new_ids[: len(kept)] == kept:
        for i in range(len(tables) - 1, -1, -1):
            if old_ids[i] not in set(new_ids):
                del old[i]
        for item in new:
            known = by_id.get(item.get(id_key))
            if known is not None:
                if not same(plain(known), item):
                    merge(known, item, path, layout)
            else:
                old.append(build_table(item, path, layout))
        return
    fresh = tomlkit.aot()
    for item in new:
        found = by_id.pop(item.get(id_key), None)
        if found is None:
            found = build_table(item, path, layout)
        else:
            merge(found, item, path, layout)
        fresh.append(found)
    container[k] = fresh


def dumps(doc: tomlkit.TOMLDocument | Item) -> str:
    return doc.as_string()
