"""A pack checked as the app reads it: each file by its kind, as the package's own file of
that kind is read (the same builders), plus what a pack alone must say.

``munda_tui.saves.packs`` reads the files (the rules open none) and hands them here as
:class:`~munda_tui.rules.core.data.Pack` values in root order (the player's packs, then the
campaign's). :func:`check_packs` returns the :class:`RuleData` of every file that checks and
a :class:`Problem` per file that does not, with the key it is about (``saves`` turns it into
``path:line:col: message``). A bad file is left out, the rest of its pack and every other
pack apply; nothing is rewritten.

What a file may say is the package's format: the keys of the package's files of its kind
(an unknown key is an error with a "did you mean"), and ``replaces``: the ids of the items
of earlier roots this file replaces. An item whose id an earlier root has, not named in
``replaces``, is an error: a pack never replaces by accident of a shared id.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.data import (KINDS, Item, Kind, Pack, PackFile, RuleData, Source, file_items,
                         kinds_of, package_items, replaces_of)
from ..core.dice import DiceError, parse as parse_dice
from ..core.model import FighterType
from ..core.wording import did_you_mean

KeyPath = tuple[str | int, ...]

#: what a pack's ``pack.toml`` may say
MANIFEST_KEYS = ("format", "id", "title", "version", "description")
MANIFEST_FORMAT = "munda-tui-pack"


@dataclass(frozen=True)
class Problem:
    """What is wrong with one file of a pack: the file, the key it is about, the message."""

    file: str
    keypath: KeyPath
    message: str

    def __str__(self) -> str:
        key = ".".join(str(k) for k in self.keypath)
        return f"{self.file}: {key + ': ' if key else ''}{self.message}"


class _Bad(Exception):
    def __init__(self, keypath: KeyPath, message: str) -> None:
        super().__init__(message)
        self.keypath = keypath
        self.message = message


def check_manifest(data: Mapping[str, Any]) -> tuple[KeyPath, str] | None:
    """What is wrong with a ``pack.toml`` (its keypath and message), None when it is right."""
    for key in data:
        if key not in MANIFEST_KEYS:
            return (key,), f"unknown key {key!r}{did_you_mean(key, MANIFEST_KEYS)}"
    if "format" in data and data["format"] != MANIFEST_FORMAT:
        return ("format",), f"must be {MANIFEST_FORMAT!r}"
    for key in ("id", "title", "version"):
        value = data.get(key)
        if not isinstance(value, str) or not value.strip():
            return (key,), f"the pack's {key} is missing (text)" if key not in data \
                else "must be non-empty text"
    if not _is_id(data["id"]):
        return ("id",), "must be an id: lower-case letters, digits and '-' (like \"our-club\")"
    if not isinstance(data.get("description", ""), str):
        return ("description",), "must be text"
    return None


def _is_id(text: str) -> bool:
    return bool(text) and len(text) <= 60 and all(c.isascii() and (c.isalnum() and not c.isupper()
                                                                   or c == "-") for c in text)


# --- the package's format, read from the package's files ---------------------------------


@functools.cache
def _known_keys(kind_name: str) -> tuple[frozenset[str], frozenset[str]]:
    """(a file's top-level keys, an item's keys) as the package's files of this kind write
    them, plus ``replaces``."""
    kind = KINDS[kind_name]
    top: set[str] = {"replaces"}
    entry: set[str] = set()
    if kind.folder:
        for item in package_items(kind_name):
            top.update(item.data)
    else:
        top.update(k.list_key or k.table_key for k in KINDS.values()
                   if not k.folder and k.path == kind.path and (k.list_key or k.table_key))
        for item in package_items(kind_name):
            if isinstance(item.data, Mapping):
                entry.update(item.data)
    if kind_name == "scenario":
        from ..prebattle.scenario import TABLE_FILE_KEYS

        top = set(TABLE_FILE_KEYS)
    if kind_name == "conditions":
        from ..battle.conditions import KEYS

        entry = set(KEYS)
    if kind_name == "counters":
        from ..campaign.counters import COUNTER_KEYS

        entry = set(COUNTER_KEYS)
    return frozenset(top), frozenset(entry)


def _unknown(data: Mapping[str, Any], known: frozenset[str], at: KeyPath) -> None:
    for key in data:
        if key not in known:
            raise _Bad((*at, key), f"unknown key {key!r}{did_you_mean(key, known)}")


def _text(data: Mapping[str, Any], key: str, at: KeyPath, *, required: bool = True) -> str:
    value = data.get(key)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        raise _Bad((*at, key), "must be non-empty text" if key in data else f"{key} is missing")
    return value


# --- one file, by its kind ------------------------------------------------------------------


def _check_scenario(pf: PackFile, data: RuleData) -> None:
    from ..prebattle.scenario import TableError, table_from_data

    try:
        table_from_data(dict(pf.data), pf.file)
    except TableError as error:
        raise _Bad(tuple(_split(error.key)), error.message) from None
    except DiceError as error:
        raise _Bad(("dice",), str(error)) from None


def _check_subplots(pf: PackFile, data: RuleData) -> None:
    from ..subplots.decks import SubplotError, build_deck, decks

    for i, raw in enumerate(pf.data.get("cards", []) or []):
        if isinstance(raw, Mapping):
            _unknown(raw, _deck_card_keys(), ("cards", i))
    try:
        build_deck(dict(pf.data))
        decks(data)  # (a second deck for one House or suit)
    except SubplotError as error:
        raise _Bad((), str(error)) from None


@functools.cache
def _deck_card_keys() -> frozenset[str]:
    keys: set[str] = set()
    for item in package_items("subplots"):
        for raw in item.data.get("cards", []):
            keys.update(raw)
    return frozenset(keys)


def _check_postbattle(pf: PackFile, data: RuleData) -> None:
    from ..core.rulesets import RULESET_KEYS
    from ..postbattle import sequence as _sequence  # noqa: F401  (registers the resolvers)
    from ..postbattle.actions import ACTION_RESOLVERS
    from ..postbattle.core import RESOLVERS

    stem = pf.relpath.rsplit("/", 1)[-1].removesuffix(".toml")
    for key in RULESET_KEYS:
        if key not in pf.data:
            raise _Bad((key,), f"{key} is missing (every ruleset says {', '.join(RULESET_KEYS)})")
    if pf.data["id"] != stem:
        raise _Bad(("id",), f"{pf.data['id']!r} is not the file's name {stem!r}")
    for key in ("title", "choice", "source"):
        _text(pf.data, key, ())
    order = pf.data["order"]
    if isinstance(order, bool) or not isinstance(order, int):
        raise _Bad(("order",), "must be a whole number")
    steps = pf.data["steps"]
    if not isinstance(steps, list) or not steps:
        raise _Bad(("steps",), "must be a non-empty list of [[steps]]")
    from ..postbattle import generic

    step_keys = _entry_keys("steps")
    counters = data.item_ids("counters")  # (a club's own, declared in a pack)
    rolled: list[tuple[str, KeyPath]] = []  # the tables a generic step rolls
    for i, step in enumerate(steps):
        at: KeyPath = ("steps", i)
        if not isinstance(step, Mapping):
            raise _Bad(at, "must be a table")
        is_generic = step.get("resolver") in generic.GENERIC
        _unknown(step, step_keys | set(generic.STEP_KEYS) if is_generic else step_keys, at)
        for key in ("id", "title", "resolver"):
            _text(step, key, at)
        if step["resolver"] not in RESOLVERS:
            raise _Bad((*at, "resolver"), f"no resolver {step['resolver']!r}"
                       f"{did_you_mean(step['resolver'], RESOLVERS)}")
        if is_generic:
            wrong = generic.check_step(step, counters)
            if wrong is not None:
                raise _Bad((*at, *(int(k) if k.isdigit() else k for k in wrong[0].split("."))),
                           wrong[1])
            if step["resolver"] == "roll_table":
                rolled.append((str(step["table"]), (*at, "table")))
    for i, action in enumerate(pf.data.get("actions", []) or []):
        at = ("actions", i)
        if not isinstance(action, Mapping):
            raise _Bad(at, "must be a table")
        for key in ("id", "title", "resolver"):
            _text(action, key, at)
        if action["resolver"] not in ACTION_RESOLVERS:
            raise _Bad((*at, "resolver"), f"no action resolver {action['resolver']!r}"
                       f"{did_you_mean(action['resolver'], ACTION_RESOLVERS)}")
    tables = pf.data.get("tables", {})
    if not isinstance(tables, Mapping):
        raise _Bad(("tables",), "must be a table of tables ([tables.<id>])")
    for tid, table in tables.items():
        _check_rows(table, ("tables", tid), rolled=False)
    for tid, at in rolled:
        if ":" in tid:
            continue  # (another ruleset's table: checked with it)
        if tid not in tables or "rows" not in tables[tid]:
            raise _Bad(at, f"no rolled table {tid!r} in this ruleset's [tables]")
        for r, row in enumerate(tables[tid]["rows"]):
            for e, effect in enumerate(row.get("effects", []) or []):
                wrong = generic.check_effect(effect, counters)
                if wrong is not None:
                    raise _Bad(("tables", tid, "rows", r, "effects", e, *(
                        [wrong[0]] if wrong[0] else [])), wrong[1])


@functools.cache
def _entry_keys(list_key: str) -> frozenset[str]:
    keys: set[str] = set()
    for item in package_items("postbattle"):
        for raw in item.data.get(list_key, []):
            keys.update(raw)
    return frozenset(keys)


def _check_rows(table: Any, at: KeyPath, *, rolled: bool = True) -> None:
    """A rolled table (a Lasting Injury table; ``rolled``) or a ruleset's table (its
    dice and rows when it has them: a table of options has none): title, dice, rows with
    min/max ranges."""
    if not isinstance(table, Mapping):
        raise _Bad(at, "must be a table")
    _text(table, "title", at)
    if not rolled and "dice" not in table:
        return
    dice = _text(table, "dice", at)
    try:  # (a row may go past the dice: modified rolls, an open "N+" row's max = 99)
        parse_dice(dice)
    except DiceError as error:
        raise _Bad((*at, "dice"), str(error)) from None
    rows = table.get("rows")
    if not rolled and rows is None:
        return
    if not isinstance(rows, list) or not rows:
        raise _Bad((*at, "rows"), "must be a non-empty list of rows")
    for i, row in enumerate(rows):
        where: KeyPath = (*at, "rows", i)
        if not isinstance(row, Mapping):
            raise _Bad(where, "must be a table")
        lo, hi = row.get("min"), row.get("max")
        for key, value in (("min", lo), ("max", hi)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise _Bad((*where, key), "must be a whole number")
        assert isinstance(lo, int) and isinstance(hi, int)
        if lo > hi:
            raise _Bad((*where, "min"), f"{lo} is above max {hi}")
        if "name" not in row and "text" not in row:
            raise _Bad(where, "a row needs its name (or text)")


def _check_conditions(pf: PackFile, data: RuleData) -> None:
    from ..battle.conditions import ConditionError, condition_from_data, conditions

    entries = pf.data.get("conditions")
    if not isinstance(entries, list) or not entries:
        raise _Bad(("conditions",), "must be a non-empty list of [[conditions]]")
    for i, raw in enumerate(entries):
        try:
            condition_from_data(raw, f"conditions[{i}]")
        except ConditionError as error:
            raise _Bad(_path_of(str(error)), str(error).split(": ", 1)[-1]) from None
    try:
        conditions(data)
    except ConditionError as error:  # (a key another condition has)
        raise _Bad(("conditions",), str(error).split(": ", 1)[-1]) from None


def _check_counters(pf: PackFile, data: RuleData) -> None:
    from ..campaign.counters import RESERVED
    from ..core.limits import is_pack_id

    entries = pf.data.get("counters")
    if not isinstance(entries, list) or not entries:
        raise _Bad(("counters",), "must be a non-empty list of [[counters]]")
    _, known = _known_keys("counters")
    for i, raw in enumerate(entries):
        at: KeyPath = ("counters", i)
        if not isinstance(raw, Mapping):
            raise _Bad(at, "must be a table")
        _unknown(raw, known, at)
        counter_id = _text(raw, "id", at)
        if not is_pack_id(counter_id):
            raise _Bad((*at, "id"), "must be an id: lower-case letters, digits, '-' and '_'")
        if counter_id in RESERVED:
            raise _Bad((*at, "id"), f"{counter_id!r} is a gain the app has already (an id of "
                       f"your own: not {', '.join(RESERVED)})")
        _text(raw, "name", at)
        _text(raw, "text", at, required=False)
        low = raw.get("min")
        if low is not None and (isinstance(low, bool) or not isinstance(low, int)):
            raise _Bad((*at, "min"), "must be a whole number (the lowest the counter goes)")


def _check_xp_awards(pf: PackFile, data: RuleData) -> None:
    entries = pf.data.get("events")
    if not isinstance(entries, list) or not entries:
        raise _Bad(("events",), "must be a non-empty list of [[events]]")
    _, known = _known_keys("xp_awards")
    for i, raw in enumerate(entries):
        at: KeyPath = ("events", i)
        if not isinstance(raw, Mapping):
            raise _Bad(at, "must be a table")
        _unknown(raw, known, at)
        for key in ("id", "label", "per"):
            _text(raw, key, at)


def _check_injuries(pf: PackFile, data: RuleData) -> None:
    tables = pf.data.get("tables")
    if not isinstance(tables, Mapping) or not tables:
        raise _Bad(("tables",), "must hold one table or more ([tables.<id>])")
    known = frozenset(k for item in package_items("injuries") for k in item.data)
    for tid, table in tables.items():
        if isinstance(table, Mapping):
            _unknown(table, known, ("tables", tid))
        _check_rows(table, ("tables", tid))


_ROLES = tuple(t.value for t in FighterType)


def _check_role(value: Any, at: KeyPath) -> None:
    if value not in _ROLES:
        raise _Bad(at, f"{value!r} is not a role ({', '.join(_ROLES)})"
                   if not isinstance(value, str) else
                   f"{value!r} is not a role{did_you_mean(value, _ROLES).replace('known keys', 'roles')}")


def _check_fighter_roles(pf: PackFile, data: RuleData) -> None:
    types = pf.data.get("types", {})
    lists = pf.data.get("lists", [])
    if not types and not lists:
        raise _Bad((), "a fighter roles file holds [types] or [[lists]]")
    if not isinstance(types, Mapping):
        raise _Bad(("types",), "must be a table of type name = role")
    for name, role in types.items():
        _check_role(role, ("types", name))
    if not isinstance(lists, list):
        raise _Bad(("lists",), "must be a list of [[lists]] (gang, types)")
    for i, entry in enumerate(lists):
        at: KeyPath = ("lists", i)
        if not isinstance(entry, Mapping):
            raise _Bad(at, "must be a table")
        _unknown(entry, frozenset(("gang", "types", "source")), at)
        _text(entry, "gang", at)
        own = entry.get("types")
        if not isinstance(own, Mapping) or not own:
            raise _Bad((*at, "types"), "must be a table of type name = role")
        for name, role in own.items():
            _check_role(role, (*at, "types", name))


def _check_watchers(pf: PackFile, data: RuleData) -> None:
    from ..battle.watch import SpecError, read_spec
    from ..subplots.decks import SubplotError, card

    cards = pf.data.get("cards")
    if not isinstance(cards, Mapping) or not cards:
        raise _Bad(("cards",), "must hold a watcher or more ([cards.\"<deck>:<rank>\"])")
    for card_id, spec in cards.items():
        at: KeyPath = ("cards", card_id)
        try:
            card(str(card_id), data)
        except SubplotError as error:
            raise _Bad(at, str(error)) from None
        if not isinstance(spec, Mapping):
            raise _Bad(at, "must be a table")
        try:
            read_spec(spec)
        except SpecError as error:
            raise _Bad((*at, "kind") if "kind" in str(error) else at, str(error)) from None


def _check_catalogue(pf: PackFile, data: RuleData) -> None:
    from ..campaign.catalogue import CatalogueError, catalogue_from_data

    try:
        catalogue_from_data(dict(pf.data))
    except CatalogueError as error:
        raise _Bad(tuple(error.keypath), error.message) from None


_CHECKS = {
    "scenario": _check_scenario, "subplots": _check_subplots, "postbattle": _check_postbattle,
    "conditions": _check_conditions, "xp_awards": _check_xp_awards,
    "injuries": _check_injuries, "fighter_roles": _check_fighter_roles,
    "watchers": _check_watchers, "catalogue": _check_catalogue,
    "counters": _check_counters,
}


def _split(key: str) -> list[str | int]:
    out: list[str | int] = []
    for part in (p for p in key.split(".") if p):
        name, _, index = part.partition("[")
        out.append(name)
        if index:
            out.append(int(index.rstrip("]")))
    return out


def _path_of(message: str) -> KeyPath:
    """The keypath a "conditions[0].key: ..." message starts with."""
    return tuple(_split(message.split(":", 1)[0]))


# --- the ids: added, or replacing what an earlier root has, said so ----------------------


def _check_ids(pf: PackFile, kinds: list[Kind], earlier: RuleData, pack_id: str,
               seen: dict[tuple[str, str], str]) -> None:
    replaces = replaces_of(pf.data)
    value = pf.data.get("replaces")
    if value is not None and not (isinstance(value, str) or (
            isinstance(value, list) and all(isinstance(v, str) for v in value))):
        raise _Bad(("replaces",), "must be an id or a list of ids")
    mine: list[tuple[Kind, Item]] = []
    for kind in kinds:
        if kind.name == "catalogue":
            continue
        items = file_items(kind, pf.data, Source(pack_id, pf.file))
        if kind.folder and not items:
            raise _Bad((kind.id_key,), f"{kind.id_key} is missing (the {kind.title}'s id)")
        mine.extend((kind, item) for item in items)
    for rid in replaces:
        found = [i for _k, i in mine if i.id == rid]
        if not found:
            raise _Bad(("replaces",), f"{rid!r} is not an item of this file")
        if all(earlier.item(i.kind, rid) is None for i in found):
            raise _Bad(("replaces",), f"{rid!r}: nothing before this pack has that id "
                       "(a new item needs no replaces)")
    for kind, item in mine:
        if (kind.name, item.id) in seen:
            raise _Bad(_item_path(kind, item, pf), f"{item.id!r} is also in {seen[kind.name, item.id]}"
                       " of this pack")
        before = earlier.item(kind.name, item.id)
        if before is not None and item.id not in replaces:
            raise _Bad(_item_path(kind, item, pf),
                       f"{item.id!r} is already a {kind.title} ({before.source}); to replace "
                       f"it, say so: replaces = \"{item.id}\"")
    for _kind, item in mine:
        seen[item.kind, item.id] = pf.file


def _item_path(kind: Kind, item: Item, pf: PackFile) -> KeyPath:
    if kind.folder:
        return (kind.id_key,)
    if kind.table_key:
        return (kind.table_key, item.id)
    entries = pf.data.get(kind.list_key, [])
    index = next((i for i, e in enumerate(entries) if e is item.data), 0)
    return (kind.list_key, index, kind.id_key)


def check_file(pf: PackFile, earlier: RuleData, pack_id: str,
               seen: dict[tuple[str, str], str] | None = None) -> Problem | None:
    """What is wrong with one pack file read after ``earlier`` (None: it applies)."""
    kinds = kinds_of(pf.relpath)
    if not kinds:
        return Problem(pf.file, (), "not a file a pack holds (" + ", ".join(sorted(
            {(k.path + "/*.toml") if k.folder else k.path for k in KINDS.values()})) + ")")
    try:
        for kind in kinds:
            top, _ = _known_keys(kind.name)
            if not kind.folder:
                top = frozenset(set(top).union(*(_known_keys(k.name)[0] for k in kinds)))
            if kind.name != "catalogue":
                _unknown(pf.data, top, ())
        _check_ids(pf, kinds, earlier, pack_id, {} if seen is None else seen)
        with_file = RuleData((*earlier.packs, Pack(pack_id, "", "", files=(pf,))))
        for kind in kinds:
            check = _CHECKS.get(kind.name)  # (fighter_roles checks its [[lists]] too)
            if check is not None:
                check(pf, with_file)
    except _Bad as bad:
        return Problem(pf.file, bad.keypath, bad.message)
    except (ValueError, TypeError, KeyError) as error:  # a builder's own message
        return Problem(pf.file, (), f"does not read as a {kinds[0].title}: {error}")
    return None


def check_packs(packs: Sequence[Pack]) -> tuple[RuleData, list[Problem]]:
    """The rule data of every file of ``packs`` that checks (in order), and a problem per
    file that does not (left out; the rest applies). Two packs with one id: the second is
    left out."""
    problems: list[Problem] = []
    good: list[Pack] = []
    ids: dict[str, str] = {}
    for pack in packs:
        if pack.id in ids:
            problems.append(Problem(pack.path, ("id",), f"pack id {pack.id!r} is also the id of "
                                    f"{ids[pack.id]}: left out"))
            continue
        ids[pack.id] = pack.path
        kept: list[PackFile] = []
        seen: dict[tuple[str, str], str] = {}
        for pf in pack.files:
            earlier = RuleData((*good, Pack(pack.id, pack.title, pack.version, pack.where,
                                            pack.path, tuple(kept), pack.digest)))
            problem = check_file(pf, earlier, pack.id, seen)
            if problem is None:
                kept.append(pf)
            else:
                problems.append(problem)
        good.append(Pack(pack.id, pack.title, pack.version, pack.where, pack.path,
                         tuple(kept), pack.digest, pack.description))
    data = RuleData(tuple(good))
    return data, problems


def pack_items(data: RuleData) -> list[dict[str, Any]]:
    """Every item the packs add or replace, with its pack and file (``rules export``,
    ``pack list``)."""
    out: list[dict[str, Any]] = []
    for kind in KINDS.values():
        if kind.name == "catalogue":
            continue
        for item in data.items(kind.name):
            if item.source.pack:
                row = {"kind": kind.name, "id": item.id, "pack": item.source.pack,
                       "file": item.source.file}
                if item.replaced is not None:
                    row["replaces"] = str(item.replaced)
                out.append(row)
    for pack in data.packs:
        for pf in pack.files:
            if pf.relpath == "catalogue.toml":
                out.append({"kind": "catalogue", "id": pack.id, "pack": pack.id, "file": pf.file})
    return out




def pack_records(data: RuleData) -> list[dict[str, str]]:
    """What a battle records of the packs it is played with: id, version, content hash."""
    return [{"id": p.id, "version": p.version, "hash": p.digest} for p in data.packs]


def no_record_words(number: int, data: RuleData) -> str:
    """What opening a battle without a record of its packs says (a battle set up before
    battles recorded them): plainly that there is none, with the packs in force now; ""
    when no pack is in force (nothing then to tell apart)."""
    if not data.packs:
        return ""
    now = ", ".join(f"{p.id} {p.version}".strip() for p in data.packs)
    return (f"Battle {number} has no record of the packs it was played with (it was set up "
            f"before battles recorded them): it opens with the packs in force now ({now}).")


def record_changes(recorded: Any, data: RuleData) -> list[str]:
    """How the packs in force differ from those a battle recorded it was played with (a
    pack missing now, or changed since: its version or its content), one line each. A
    record that does not read says so (the battle still opens)."""
    if not isinstance(recorded, list) or not all(isinstance(r, Mapping) for r in recorded):
        return ["its record of the packs it was played with does not read"]
    now = {p.id: p for p in data.packs}
    out: list[str] = []
    for row in recorded:
        pid, version, digest = (str(row.get("id", "")), str(row.get("version", "")),
                                str(row.get("hash", "")))
        pack = now.get(pid)
        if pack is None:
            out.append(f"pack {pid!r} {version} is missing now")
        elif pack.version != version:
            out.append(f"pack {pid!r} changed since (version {version} then, {pack.version} now)")
        elif pack.digest != digest:
            out.append(f"pack {pid!r} {version} changed since (same version, other content)")
    return out
