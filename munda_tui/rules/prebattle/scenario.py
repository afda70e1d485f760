"""Scenario generation and crew selection (seed 001, Core Rules p139-147).

Everything here is pure: tables come from the packaged TOML
(``data/scenario/*.toml``) through :func:`munda_tui.rules.core.data.load_data`,
optionally replaced or extended by Arbitrator's Toolkit override files which
``munda_tui.saves.overrides`` reads from disk and hands over as parsed dicts.
Every random step takes an explicit ``random.Random`` or what the players
entered (real dice faces, real model cards dealt at the table, a table entry
chosen outright).

Override file format (one table per file)::

    table = "objective"        # deployment | objective | side_job | crew | pitch_black
    mode = "extend"            # "extend" (default): entries replace same-roll entries
                               # and add new ones; "replace": the whole table
    dice = "D6"                # optional: the dice rolled on the table
    title = "Cycle 2"          # optional
    [[entries]]
    roll = "1"                 # "1", "2-3", "11-16" ... inside the dice's range
    name = "..."
    text = "..."
    # per table: objective victory/draw/vp_to_win; side_job [entries.target];
    # crew [entries.crew.<both|attacker|defender>] (required) and
    # [entries.reinforcements.<who>]; pitch_black visibility (required)

After merging, every total the dice can show must be covered by exactly one
entry. :class:`TableError` names the file, the key and what is wrong.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from munda_tui.rules.core.data import RuleData, given, load_data
from munda_tui.rules.core.dice import DiceError, Roll, parse, roll, roll_faces
from munda_tui.rules.core.model import Fighter, FighterStatus, FighterType, Gang
from munda_tui.rules.prebattle.setup import BattleSetup, CrewDraft, CrewMember, SideSetup
from munda_tui.rules.core.wording import plural

#: The tables the Core Rules print (seed 001). Any other ``data/scenario/<id>.toml`` with a
#: ``table`` key is a table too: its ``step`` and ``roller`` say where and by whom it is
#: rolled, and its result is kept in ``BattleSetup.results`` (see rules.prebattle).
TABLE_IDS: tuple[str, ...] = ("deployment", "objective", "side_job", "crew", "pitch_black")
_TABLE_ID_RE = re.compile(r"^[a-z][a-z0-9_]*$")
ROLLERS = ("challenger", "challenged", "each", "either")
ROLES = ("attacker", "defender")
WHO = ("both", "attacker", "defender")
METHODS = ("random", "custom", "hybrid")
FALLBACKS = ("new-side-job",)

#: The pre-battle flow's steps, in order (BattleSetup.step names). The
#: Sub-plot draw comes before the crews: seed 000 has cards revealed "during
#: the Choose Crew step of the pre-battle sequence" (e.g. Martyrdom, Contempt
#: for the Weak), so the hands must exist when the crews are chosen.
STEPS: tuple[str, ...] = (
    "gangs",
    "battlefield",
    "scenario",
    "pitch_black",
    "subplots",
    "crews",
    "side_jobs",
    "summary",
)


class TableError(ValueError):
    """A bad scenario table (an override file): where, which key, what is wrong."""

    def __init__(self, path: str, key: str, message: str) -> None:
        self.path = path
        self.key = key
        self.message = message
        where = f"{path}: {key}" if key else path
        super().__init__(f"{where}: {message}")


class CrewError(ValueError):
    """A crew pick or deal that breaks the crew-selection rules."""


# --- tables -------------------------------------------------------------------

_ENTRY_KEYS = {"roll", "name", "text", "page", "source", "scan", "note"}
_EXTRA_KEYS: dict[str, set[str]] = {
    "deployment": set(),
    "objective": {"victory", "draw", "vp_to_win"},
    "side_job": {"target"},
    "crew": {"crew", "reinforcements"},
    "pitch_black": {"visibility"},
}
_TOP_KEYS = {"table", "mode", "dice", "title", "roller", "source", "page", "intro", "entries",
             "step", "order"}


@dataclass(frozen=True)
class TableEntry:
    roll: str  # "1", "2-3"
    name: str
    text: str
    low: int
    high: int
    page: int | None = None
    source: str = ""
    note: str = ""  # a reading note shown on screen (e.g. the scan's "3+03")
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def reference(self) -> str:
        page = f" p{self.page}" if self.page else ""
        return f"{self.source}{page}".strip()

    def covers(self, total: int) -> bool:
        return self.low <= total <= self.high


@dataclass(frozen=True)
class ScenarioTable:
    id: str
    title: str
    dice: str
    roller: str
    entries: tuple[TableEntry, ...]
    source: str = ""
    page: int | None = None
    intro: str = ""
    origin: str = ""  # "" for the packaged table, else the override file(s)
    step: str = "scenario"  # the pre-battle step (STEPS) that rolls it
    order: int = 100  # its place among the tables of that step (lower first)

    def entry_for(self, total: int) -> TableEntry:
        for e in self.entries:
            if e.covers(total):
                return e
        raise KeyError(f"no {self.title} entry for {total}")

    def entry(self, name: str) -> TableEntry:
        for e in self.entries:
            if e.name == name:
                return e
        raise KeyError(f"no {self.title} entry named {name!r}")

    def roll(self, rng: random.Random) -> tuple[Roll, TableEntry]:
        r = roll(self.dice, rng)
        return r, self.entry_for(r.total)

    def roll_faces(self, faces: Sequence[int]) -> tuple[Roll, TableEntry]:
        r = roll_faces(self.dice, list(faces))
        return r, self.entry_for(r.total)


_ROLL_RE = re.compile(r"^\s*(\d+)\s*(?:(-)\s*(\d+)?|(\+))?\s*$")


def parse_roll_range(text: str, lo: int, hi: int) -> tuple[int, int]:
    """``"4"`` -> (4, 4); ``"2-3"`` -> (2, 3); ``"3+"`` -> (3, hi)."""
    m = _ROLL_RE.match(str(text))
    if not m:
        raise ValueError(f"{text!r} is not a roll or range like \"4\", \"2-3\" or \"3+\"")
    a = int(m.group(1))
    if m.group(4):
        b = hi
    elif m.group(2):
        if m.group(3) is None:
            raise ValueError(f"{text!r}: a range needs its end, like \"2-3\"")
        b = int(m.group(3))
    else:
        b = a
    if a > b:
        raise ValueError(f"{text!r}: the range runs backwards")
    if a < lo or b > hi:
        raise ValueError(f"{text!r} is outside the dice's range ({lo}-{hi})")
    return a, b


def _possible_totals(dice: str) -> set[int]:
    return set(parse(dice).distribution())


def _entry_from_data(
    table_id: str, raw: Any, dice: str, path: str, key: str, default_source: str
) -> TableEntry:
    if not isinstance(raw, dict):
        raise TableError(path, key, "must be a table with roll, name and text")
    unknown = set(raw) - _ENTRY_KEYS - _EXTRA_KEYS.get(table_id, set())
    if unknown:
        raise TableError(
            path, f"{key}.{sorted(unknown)[0]}", f"unknown key in a {table_id} table entry"
        )
    for k in ("roll", "name", "text"):
        if k not in raw:
            raise TableError(path, f"{key}.{k}", "missing")
    roll_text = raw["roll"]
    if isinstance(roll_text, bool) or not isinstance(roll_text, (str, int)):
        raise TableError(path, f"{key}.roll", "must be a roll like \"4\" or \"2-3\"")
    expr = parse(dice)
    try:
        low, high = parse_roll_range(str(roll_text), expr.minimum, expr.maximum)
    except ValueError as exc:
        raise TableError(path, f"{key}.roll", f"{exc} for {dice}") from None
    for k in ("name", "text"):
        if not isinstance(raw[k], str) or not raw[k].strip():
            raise TableError(path, f"{key}.{k}", "must be non-empty text")
    page = raw.get("page")
    if page is not None and (isinstance(page, bool) or not isinstance(page, int) or page < 0):
        raise TableError(path, f"{key}.page", "must be a page number")
    for k in ("source", "scan", "note"):
        if k in raw and not isinstance(raw[k], str):
            raise TableError(path, f"{key}.{k}", "must be text")
    extra = {k: raw[k] for k in _EXTRA_KEYS.get(table_id, set()) if k in raw}
    _validate_extra(table_id, extra, path, key)
    return TableEntry(
        roll=str(roll_text),
        name=raw["name"],
        text=raw["text"],
        low=low,
        high=high,
        page=page,
        source=raw.get("source", default_source),
        note=raw.get("note", ""),
        extra=extra,
    )


def _check_amount(value: Any, path: str, key: str) -> None:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise TableError(path, key, "must be a number or dice like \"D3\"")
    try:
        expr = parse(str(value))
    except DiceError as exc:
        raise TableError(path, key, str(exc)) from None
    if expr.minimum < 0:
        raise TableError(path, key, f"{value!r} can be negative")


def _validate_extra(table_id: str, extra: dict[str, Any], path: str, key: str) -> None:
    if table_id == "objective":
        for k in ("victory", "draw"):
            if k in extra and not isinstance(extra[k], str):
                raise TableError(path, f"{key}.{k}", "must be text")
        vp = extra.get("vp_to_win", 0)
        if isinstance(vp, bool) or not isinstance(vp, int) or vp < 0:
            raise TableError(path, f"{key}.vp_to_win", "must be a whole number, 0 for none")
    elif table_id == "pitch_black":
        vis = extra.get("visibility")
        if vis is None:
            raise TableError(path, f"{key}.visibility", "missing (inches, e.g. 12)")
        if isinstance(vis, bool) or not isinstance(vis, int) or vis <= 0:
            raise TableError(path, f"{key}.visibility", "must be a whole number of inches")
    elif table_id == "side_job":
        target = extra.get("target")
        if target is None:
            return
        tkey = f"{key}.target"
        if not isinstance(target, dict):
            raise TableError(path, tkey, "must be a table")
        unknown = set(target) - {"side", "pick", "exclude_types", "prefer_types", "fallback"}
        if unknown:
            raise TableError(path, f"{tkey}.{sorted(unknown)[0]}", "unknown key")
        if target.get("side") not in ("own", "enemy"):
            raise TableError(path, f"{tkey}.side", 'must be "own" or "enemy"')
        if target.get("pick") not in ("random", "chosen"):
            raise TableError(path, f"{tkey}.pick", 'must be "random" or "chosen"')
        types = {t.value for t in FighterType}
        for k in ("exclude_types", "prefer_types"):
            value = target.get(k, [])
            if not isinstance(value, list) or any(v not in types for v in value):
                raise TableError(
                    path, f"{tkey}.{k}", f"must be a list of fighter types ({', '.join(sorted(types))})"
                )
        if "fallback" in target and target["fallback"] not in FALLBACKS:
            raise TableError(path, f"{tkey}.fallback", f"must be one of {', '.join(FALLBACKS)}")
    elif table_id == "crew":
        crew = extra.get("crew")
        if crew is None:
            raise TableError(path, f"{key}.crew", "missing: say how each gang selects its crew")
        if not isinstance(crew, dict) or not crew:
            raise TableError(path, f"{key}.crew", "must be a table of both/attacker/defender")
        _check_who(crew, path, f"{key}.crew")
        for who, rule in crew.items():
            wkey = f"{key}.crew.{who}"
            if not isinstance(rule, dict):
                raise TableError(path, wkey, "must be a table with method and x")
            unknown = set(rule) - {"method", "x", "y"}
            if unknown:
                raise TableError(path, f"{wkey}.{sorted(unknown)[0]}", "unknown key")
            if rule.get("method") not in METHODS:
                raise TableError(path, f"{wkey}.method", f"must be one of {', '.join(METHODS)}")
            if "x" not in rule:
                raise TableError(path, f"{wkey}.x", "missing")
            _check_amount(rule["x"], path, f"{wkey}.x")
            if rule["method"] == "hybrid":
                if "y" not in rule:
                    raise TableError(path, f"{wkey}.y", "missing (Hybrid needs X+Y)")
                _check_amount(rule["y"], path, f"{wkey}.y")
            elif "y" in rule:
                raise TableError(path, f"{wkey}.y", "only a Hybrid method has a Y")
        reinf = extra.get("reinforcements", {})
        if not isinstance(reinf, dict):
            raise TableError(path, f"{key}.reinforcements", "must be a table")
        _check_who(reinf, path, f"{key}.reinforcements")
        for who, rule in reinf.items():
            wkey = f"{key}.reinforcements.{who}"
            if not isinstance(rule, dict):
                raise TableError(path, wkey, "must be a table with size, each_round, from_round")
            unknown = set(rule) - {"size", "each_round", "from_round"}
            if unknown:
                raise TableError(path, f"{wkey}.{sorted(unknown)[0]}", "unknown key")
            for k in ("size", "each_round"):
                if k not in rule:
                    raise TableError(path, f"{wkey}.{k}", "missing")
                _check_amount(rule[k], path, f"{wkey}.{k}")
            fr = rule.get("from_round", 1)
            if isinstance(fr, bool) or not isinstance(fr, int) or fr < 1:
                raise TableError(path, f"{wkey}.from_round", "must be a round number (1 or more)")


def _check_who(mapping: dict[str, Any], path: str, key: str) -> None:
    unknown = set(mapping) - set(WHO)
    if unknown:
        raise TableError(
            path, f"{key}.{sorted(unknown)[0]}", "must be both, attacker or defender"
        )
    if "both" in mapping and len(mapping) > 1:
        raise TableError(path, key, "give either both, or attacker and/or defender")


def _check_coverage(table: ScenarioTable, path: str) -> None:
    totals = _possible_totals(table.dice)
    seen: dict[int, str] = {}
    for i, e in enumerate(table.entries):
        for t in range(e.low, e.high + 1):
            if t in seen and t in totals:
                raise TableError(
                    path, f"entries[{i}].roll", f"{e.roll!r} overlaps {seen[t]!r} (both cover {t})"
                )
            seen[t] = e.roll
    missing = sorted(totals - set(seen))
    if missing:
        shown = ", ".join(str(m) for m in missing[:8])
        raise TableError(path, "entries", f"no entry for {table.dice} result(s) {shown}")


def table_from_data(data: dict[str, Any], path: str = "") -> ScenarioTable:
    """Build and validate a complete table from plain data (packaged or a
    ``mode = "replace"`` override)."""
    table_id = data.get("table")
    if not isinstance(table_id, str) or not _TABLE_ID_RE.match(table_id):
        raise TableError(path, "table", f"must be a table id like \"side_job\", not {table_id!r}")
    dice = data.get("dice", "D6")
    _check_dice(dice, path)
    step, order = _check_place(data, path)
    entries_raw = data.get("entries")
    if not isinstance(entries_raw, list) or not entries_raw:
        raise TableError(path, "entries", "must be a non-empty list of [[entries]]")
    source = data.get("source", "")
    entries = tuple(
        _entry_from_data(table_id, raw, dice, path, f"entries[{i}]", source)
        for i, raw in enumerate(entries_raw)
    )
    table = ScenarioTable(
        id=table_id,
        title=data.get("title", table_id.replace("_", " ").title()),
        dice=dice,
        roller=data.get("roller", "challenger"),
        entries=tuple(sorted(entries, key=lambda e: e.low)),
        source=source,
        page=data.get("page"),
        intro=data.get("intro", ""),
        origin=path,
        step=step,
        order=order,
    )
    _check_coverage(table, path)
    return table


def _check_place(data: dict[str, Any], path: str) -> tuple[str, int]:
    """A table's ``step`` (where the flow rolls it) and ``order`` (its row among them)."""
    step = data.get("step", "scenario")
    allowed = ("scenario", "pitch_black") if data.get("table") == "pitch_black" else ("scenario",)
    if step not in allowed:
        raise TableError(path, "step", f"must be {' or '.join(repr(a) for a in allowed)}, not {step!r}")
    order = data.get("order", 100)
    if isinstance(order, bool) or not isinstance(order, int):
        raise TableError(path, "order", "must be a whole number")
    roller = data.get("roller", "challenger")
    if roller not in ROLLERS:
        raise TableError(path, "roller", f"must be one of {', '.join(ROLLERS)}")
    return step, order


def _check_dice(dice: Any, path: str) -> None:
    if not isinstance(dice, str):
        raise TableError(path, "dice", "must be dice like \"D6\"")
    try:
        expr = parse(dice)
    except DiceError as exc:
        raise TableError(path, "dice", str(exc)) from None
    if len(expr.dice) > 3:
        raise TableError(path, "dice", f"{dice}: a table may roll at most three dice")


def packaged_tables(data: RuleData | None = None) -> dict[str, ScenarioTable]:
    """Every table in ``data/scenario`` (a file with a ``table`` key): the five the Core
    Rules print (seed 001), and any other one added as a data file, or by a pack (its
    ``origin`` the pack's file)."""
    data = given(data)
    return dict(data.memo("scenario_tables", lambda: _build_tables(data)))


def _build_tables(data: RuleData) -> dict[str, ScenarioTable]:
    out: dict[str, ScenarioTable] = {}
    for item in data.items("scenario"):
        origin = item.source.file if item.source.pack else ""
        table = table_from_data(dict(item.data), origin)
        out[table.id] = table
    missing = [tid for tid in TABLE_IDS if tid not in out]
    if missing:  # pragma: no cover - a broken package
        raise TableError("data/scenario", "", f"missing table(s) {', '.join(missing)}")
    return {tid: out[tid] for tid in [*TABLE_IDS, *sorted(set(out) - set(TABLE_IDS))]}


#: what a scenario table file may say besides its table (a pack's file: what it replaces)
TABLE_FILE_KEYS = _TOP_KEYS - {"mode"} | {"replaces"}


def apply_override(
    tables: dict[str, ScenarioTable], data: dict[str, Any], path: str
) -> dict[str, ScenarioTable]:
    """Return ``tables`` with one override file applied; raises TableError."""
    if not isinstance(data, dict):
        raise TableError(path, "", "not a TOML table")
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise TableError(path, sorted(unknown)[0], "unknown key (expected table, mode, dice, title, entries)")
    table_id = data.get("table")
    if table_id not in tables:
        raise TableError(path, "table", f"must be one of {', '.join(tables)}, not {table_id!r}")
    mode = data.get("mode", "extend")
    if mode not in ("extend", "replace"):
        raise TableError(path, "mode", f'must be "extend" or "replace", not {mode!r}')
    for k in ("title", "roller", "source", "intro"):
        if k in data and not isinstance(data[k], str):
            raise TableError(path, k, "must be text")
    if "roller" in data and data["roller"] not in ROLLERS:
        raise TableError(path, "roller", f"must be one of {', '.join(ROLLERS)}")
    base = tables[table_id]
    origin = f"{base.origin}, {path}" if base.origin else path
    if mode == "replace":
        merged = dict(data)
        merged.setdefault("title", base.title)
        merged.setdefault("roller", base.roller)
        merged.setdefault("step", base.step)
        merged.setdefault("order", base.order)
        merged.setdefault("source", path)
        table = table_from_data(merged, path)
        out = dict(tables)
        out[table_id] = ScenarioTable(**{**table.__dict__, "origin": origin})
        return out
    dice = data.get("dice", base.dice)
    _check_dice(dice, path)
    entries_raw = data.get("entries")
    if not isinstance(entries_raw, list) or not entries_raw:
        raise TableError(path, "entries", "must be a non-empty list of [[entries]]")
    new = [
        _entry_from_data(table_id, raw, dice, path, f"entries[{i}]", data.get("source", path))
        for i, raw in enumerate(entries_raw)
    ]
    kept = [e for e in base.entries if all(e.roll != n.roll for n in new)]
    # kept entries must still fit the (possibly wider) dice
    table = ScenarioTable(
        id=table_id,
        title=data.get("title", base.title),
        dice=dice,
        roller=data.get("roller", base.roller),
        entries=tuple(sorted([*kept, *new], key=lambda e: e.low)),
        source=base.source,
        page=base.page,
        intro=data.get("intro", base.intro),
        origin=origin,
        step=base.step,
        order=base.order,
    )
    _check_coverage(table, path)
    out = dict(tables)
    out[table_id] = table
    return out


def apply_overrides(
    overrides: Iterable[tuple[str, dict[str, Any]]],
    tables: dict[str, ScenarioTable] | None = None,
) -> tuple[dict[str, ScenarioTable], list[TableError]]:
    """Apply override files in order; a bad file is skipped and reported."""
    result = dict(tables) if tables is not None else packaged_tables()  # (the package's)
    errors: list[TableError] = []
    for path, data in overrides:
        try:
            result = apply_override(result, data, path)
        except TableError as exc:
            errors.append(exc)
        except DiceError as exc:  # pragma: no cover - defensive
            errors.append(TableError(path, "", str(exc)))
    return result, errors


def export_tables(tables: dict[str, ScenarioTable] | None = None) -> dict[str, list[dict[str, Any]]]:
    """``{"deployment": [{"roll", "name", "text", ...}], ...}`` for ``rules export``."""
    tables = tables or packaged_tables()
    out: dict[str, list[dict[str, Any]]] = {}
    for tid in tables:
        rows = []
        for e in tables[tid].entries:
            row: dict[str, Any] = {"roll": e.roll, "name": e.name, "text": e.text}
            if e.reference:
                row["source"] = e.reference
            row.update(e.extra)
            rows.append(row)
        out[tid] = rows
    return out


def rules_text() -> dict[str, Any]:
    """Battlefields, crew methods, reinforcements, deployment, visibility."""
    return load_data("scenario/rules.toml")


def battlefields() -> list[dict[str, Any]]:
    return list(rules_text()["battlefields"])


def reinforcement_distance(d6: int) -> int:
    """Reinforcements (Core Rules p142): for each model drawn a D6 is rolled;
    the distance in inches from all enemy models it deploys at (3+: 9", 1-2: 12")."""
    for row in rules_text()["reinforcements"]["arrival"]:
        low, high = parse_roll_range(row["roll"], 1, 6)
        if low <= d6 <= high:
            return int(row["distance"])
    raise ValueError(f"{d6} is not a D6 result")


# --- rolls ----------------------------------------------------------------------


def record_roll(
    table: ScenarioTable,
    by: str,
    entry: TableEntry,
    how: str,
    r: Roll | None = None,
    label: str = "",
) -> dict[str, Any]:
    """A plain-data record of one table result for ``BattleSetup.rolls``.

    ``how``: "app" (rolled by munda-tui), "dice" (real dice entered) or
    "chosen" (picked outright, e.g. by the Arbitrator)."""
    rec: dict[str, Any] = {
        "table": table.id,
        "label": label or table.title,
        "by": by,
        "how": how,
        "result": entry.name,
        "roll": entry.roll,
    }
    if r is not None:
        rec["dice"] = r.expression
        rec["faces"] = list(r.faces)
        rec["total"] = r.total
    return rec


def find_roll(rolls: list[dict[str, Any]], table_id: str, by: str) -> dict[str, Any] | None:
    """The record of ``table_id`` rolled by ``by`` (None when not rolled yet)."""
    for r in rolls:
        if r.get("table") == table_id and r.get("by") == by:
            return r
    return None


def replace_roll(rolls: list[dict[str, Any]], record: dict[str, Any],
                 reason: str = "") -> list[dict[str, Any]]:
    """``rolls`` with ``record`` as the one record of its table and roller.

    A roll once made is never replaced silently: the new record keeps every earlier one
    (``previous``, oldest first) and why it changed (``reason``, ``"changed"`` when the
    caller gives none), so the report can show "re-rolled: 1 → 6, reason"."""
    old = find_roll(rolls, record["table"], record["by"])
    out = [r for r in rolls if r is not old]
    chain = [dict(p) for p in record.get("previous", [])]
    chain.append({k: v for k, v in record.items() if k != "previous"})
    if old is not None:
        earlier = [dict(p) for p in old.get("previous", [])]
        earlier.append({k: v for k, v in old.items() if k != "previous"})
        chain[0].setdefault("reason", " ".join(reason.split()) or "changed")
        chain = earlier + chain
    new = chain[-1]
    if len(chain) > 1:
        new["previous"] = chain[:-1]
    out.append(new)
    return out


def _roll_value(rec: dict[str, Any]) -> str:
    if rec.get("how") == "chosen" or "total" not in rec:
        return str(rec.get("roll") or rec.get("result", "?"))
    return str(rec["total"])


def reroll_lines(rec: dict[str, Any]) -> list[str]:
    """Each change of a record, oldest first: "re-rolled: 1 → 6, reason" (or "chosen:")."""
    chain = list(rec.get("previous", [])) + [rec]
    out = []
    for before, after in zip(chain, chain[1:]):
        word = "chosen instead" if after.get("how") == "chosen" else "re-rolled"
        names = ""
        if before.get("result") != after.get("result"):
            names = f" ({before.get('result', '')} → {after.get('result', '')})"
        out.append(f"{word}: {_roll_value(before)} → {_roll_value(after)}{names}, "
                   f"{after.get('reason', 'changed')}")
    return out


def roller_gang(table: ScenarioTable, setup: BattleSetup, side: str = "") -> str:
    """Gang id of the player who rolls on ``table`` (seed 001: the challenger
    rolls Deployment and Objective, each player their Side Job, the challenged
    player Crew). ``side`` is the gang for "each" tables."""
    if table.roller == "challenged":
        return setup.challenged
    if table.roller == "each":
        return side or setup.challenger
    return setup.challenger


# --- roles, crew methods ----------------------------------------------------------


def attacker_of(setup: BattleSetup) -> str:
    return setup.attacker or setup.challenger


def role_of(setup: BattleSetup, gang_id: str) -> str:
    return "attacker" if gang_id == attacker_of(setup) else "defender"


@dataclass(frozen=True)
class CrewMethod:
    kind: str  # random | custom | hybrid
    x: str
    y: str = ""

    @property
    def label(self) -> str:
        name = self.kind.title()
        inner = f"{self.x}+{self.y}" if self.kind == "hybrid" else self.x
        return f"{name} ({inner})"

    def __str__(self) -> str:
        return self.label


_METHOD_RE = re.compile(r"^\s*(random|custom|hybrid)\s*\(\s*([^)]*?)\s*\)\s*$", re.I)


def parse_method(text: str) -> CrewMethod:
    """``"Hybrid (3+D3)"`` -> CrewMethod("hybrid", "3", "D3"); raises CrewError."""
    m = _METHOD_RE.match(text or "")
    if not m:
        raise CrewError(f"{text!r}: write Random (X), Custom (X) or Hybrid (X+Y)")
    kind = m.group(1).lower()
    inner = m.group(2).replace(" ", "")
    if kind == "hybrid":
        if "+" not in inner:
            raise CrewError(f"{text!r}: Hybrid needs X+Y, e.g. Hybrid (3+D3)")
        x, y = inner.split("+", 1)
    else:
        x, y = inner, ""
    for part in (x, y) if kind == "hybrid" else (x,):
        try:
            expr = parse(part)
        except DiceError as exc:
            raise CrewError(f"{text!r}: {exc}") from None
        if expr.minimum < 0:
            raise CrewError(f"{text!r}: {part} can be negative")
    return CrewMethod(kind, x.upper(), y.upper())


def is_fixed(amount: str) -> bool:
    return not parse(amount).dice


def fixed_value(amount: str) -> int:
    return parse(amount).minimum


@dataclass(frozen=True)
class ReinforcementRule:
    size: str  # Reinforcements (X)
    each_round: str  # e.g. "D3"
    from_round: int = 1

    @property
    def label(self) -> str:
        return f"Reinforcements ({self.size}): {self.each_round} each round from round {self.from_round}"


@dataclass(frozen=True)
class SidePlan:
    role: str  # attacker | defender
    method: CrewMethod
    reinforcements: ReinforcementRule | None = None


def crew_plans(entry: TableEntry) -> dict[str, SidePlan]:
    """The Crew table entry's method (and Reinforcements) for each role."""
    crew = entry.extra.get("crew", {})
    reinf = entry.extra.get("reinforcements", {})
    plans = {}
    for role in ROLES:
        rule = crew.get(role) or crew.get("both")
        if rule is None:
            raise CrewError(f"{entry.name} does not say how the {role} selects a crew")
        method = CrewMethod(rule["method"], str(rule["x"]), str(rule.get("y", "")))
        r = reinf.get(role) or reinf.get("both")
        rr = (
            ReinforcementRule(str(r["size"]), str(r["each_round"]), int(r.get("from_round", 1)))
            if r
            else None
        )
        plans[role] = SidePlan(role, method, rr)
    return plans


def apply_crew_entry(setup: BattleSetup, entry: TableEntry) -> None:
    """Write the Crew table entry into the set-up (methods per side,
    reinforcement rule). Clears crews picked under an earlier entry."""
    plans = crew_plans(entry)
    setup.crew_table = entry.name
    rules = {p.reinforcements for p in plans.values() if p.reinforcements}
    if rules:
        rr = next(iter(rules))
        setup.reinforcements_rule = f"{rr.each_round} each round from round {rr.from_round}"
        setup.reinforcements_each_round = rr.each_round
        setup.reinforcements_from_round = rr.from_round
    else:
        setup.reinforcements_rule = ""
        setup.reinforcements_each_round = ""
        setup.reinforcements_from_round = 0
    for side in setup.sides:
        side.crew_method = plans[role_of(setup, side.gang)].method.label
        side.crew = []
        side.reinforcements = []
        side.draft = CrewDraft()  # a crew half-made under the earlier entry


def reinforcement_size(setup: BattleSetup, entry: TableEntry, gang_id: str) -> str:
    """The Reinforcements (X) for this gang under the Crew entry, "" for none."""
    plan = crew_plans(entry)[role_of(setup, gang_id)]
    return plan.reinforcements.size if plan.reinforcements else ""


def resolve_amount(
    amount: str, rng: random.Random | None = None, faces: Sequence[int] | None = None
) -> tuple[int, Roll | None]:
    """A number from the crew method: fixed, rolled by ``rng`` or from real faces."""
    expr = parse(amount)
    if not expr.dice:
        return expr.minimum, None
    if faces is not None:
        r = roll_faces(expr, list(faces))
    elif rng is not None:
        r = roll(expr, rng)
    else:
        raise CrewError(f"{amount} needs a roll")
    return r.total, r


# --- crew selection -----------------------------------------------------------------


def eligible(gang: Gang) -> list[Fighter]:
    """Fighters able to take part (not dead, captured, in recovery, critical, retired)."""
    return [f for f in gang.fighters if f.can_fight]


def model_cards(fighter: Fighter) -> list[str]:
    """The fighter's Model Cards: "" is the fighter's own card; extra cards
    (``Fighter.loadouts``) are named by their load-out."""
    return [""] + [c for c in fighter.loadouts if c]


def random_card(fighter: Fighter, rng: random.Random) -> CrewMember:
    """One randomly selected Model Card for a fighter with several."""
    cards = model_cards(fighter)
    card = cards[0] if len(cards) == 1 else rng.choice(cards)
    return CrewMember(fighter.id, card)


def deal(fighters: Sequence[Fighter], n: int, rng: random.Random) -> list[CrewMember]:
    """Make a deck of one Model Card per fighter (chosen at random among
    several), shuffle, deal ``n`` (all of them if fewer)."""
    deck = [random_card(f, rng) for f in fighters]
    rng.shuffle(deck)
    return deck[: max(0, n)]


def _check_members(
    gang: Gang, members: Sequence[CrewMember], pool: Sequence[Fighter], what: str
) -> None:
    pool_ids = {f.id for f in pool}
    seen: set[str] = set()
    for m in members:
        if m.fighter in seen:
            raise CrewError(f"{what}: {m.fighter} is there twice")
        seen.add(m.fighter)
        if m.fighter not in pool_ids:
            try:
                f = gang.fighter(m.fighter)
            except KeyError:
                raise CrewError(f"{what}: no fighter {m.fighter!r} in {gang.name}") from None
            if not f.can_fight:
                raise CrewError(f"{what}: {f.name} cannot take part ({f.status.value})")
            raise CrewError(f"{what}: {f.name} is already in the crew")
        f = gang.fighter(m.fighter)
        if m.loadout not in model_cards(f):
            raise CrewError(f"{what}: {f.name} has no Model Card {m.loadout!r}")


def expected_counts(gang: Gang, method: CrewMethod, x: int, y: int = 0) -> tuple[int, int]:
    """(number picked, number dealt) for this gang: never more than it has."""
    n = len(eligible(gang))
    if method.kind == "random":
        return 0, min(x, n)
    if method.kind == "custom":
        return min(x, n), 0
    picked = min(x, n)
    return picked, min(y, n - picked)


def select_crew(
    gang: Gang,
    method: CrewMethod,
    x: int,
    y: int = 0,
    picks: Sequence[CrewMember] = (),
    rng: random.Random | None = None,
    dealt: Sequence[CrewMember] | None = None,
) -> list[CrewMember]:
    """A starting crew: ``picks`` chosen by the player (Custom X, the X of
    Hybrid), then the rest dealt (Random X, the Y of Hybrid) from a shuffled
    deck of the remaining eligible fighters using ``rng`` — or ``dealt``, the
    model cards the player dealt from a real deck.

    Raises CrewError when the picks or entered cards break the rules.
    """
    pick_n, deal_n = expected_counts(gang, method, x, y)
    pool = eligible(gang)
    picks = list(picks)
    if len(picks) != pick_n:
        raise CrewError(f"{method.label}: choose {plural(pick_n, 'fighter')}, not {len(picks)}")
    _check_members(gang, picks, pool, "chosen")
    picked_ids = {m.fighter for m in picks}
    rest = [f for f in pool if f.id not in picked_ids]
    if dealt is not None:
        dealt = list(dealt)
        if len(dealt) != deal_n:
            raise CrewError(f"{method.label}: deal {plural(deal_n, 'card')}, not {len(dealt)}")
        _check_members(gang, dealt, rest, "dealt")
        return picks + dealt
    if deal_n == 0:
        return picks
    if rng is None:
        raise CrewError(f"{method.label}: deal {plural(deal_n, 'card')} from a shuffled deck")
    return picks + deal(rest, deal_n, rng)


def reinforcements_deck(
    gang: Gang,
    crew: Sequence[CrewMember],
    size: int,
    rng: random.Random | None = None,
    dealt: Sequence[CrewMember] | None = None,
) -> list[CrewMember]:
    """Reinforcements (X): the eligible fighters not in the starting crew,
    shuffled, X dealt (one random Model Card each). ``dealt``: real cards."""
    in_crew = {m.fighter for m in crew}
    rest = [f for f in eligible(gang) if f.id not in in_crew]
    n = min(size, len(rest))
    if dealt is not None:
        dealt = list(dealt)
        if len(dealt) != n:
            raise CrewError(f"Reinforcements ({size}): deal {plural(n, 'card')}, not {len(dealt)}")
        _check_members(gang, dealt, rest, "reinforcements")
        return dealt
    if rng is None:
        raise CrewError(f"Reinforcements ({size}): deal {plural(n, 'card')} from a shuffled deck")
    return deal(rest, n, rng)


# --- side jobs ------------------------------------------------------------------------


@dataclass(frozen=True)
class TargetResult:
    fighter: str = ""  # "gang/fighter", "" for none
    needs_choice: bool = False  # the player chooses (The Package)
    candidates: tuple[str, ...] = ()  # "gang/fighter" the player may choose from
    new_side_job: bool = False  # no fighter qualifies: generate a new Side Job


def side_job_target(
    entry: TableEntry,
    own: Gang,
    own_crew: Sequence[CrewMember],
    enemy: Gang,
    enemy_crew: Sequence[CrewMember],
    rng: random.Random,
    chosen: str = "",
) -> TargetResult:
    """Pick the fighter a Side Job names, from the deployed (starting) crews.

    Settle a Score: a random enemy model, never the enemy Leader; Protect the
    Future: a random Prospect, else a Ganger, else a new Side Job; The
    Package: the player chooses (``chosen``, a "gang/fighter" among the
    candidates)."""
    found = side_job_candidates(entry, own, own_crew, enemy, enemy_crew)
    if not found.candidates:
        return found
    if found.needs_choice:
        if chosen:
            if chosen not in found.candidates:
                raise CrewError(f"{chosen} is not one of the deployed fighters")
            return TargetResult(fighter=chosen, candidates=found.candidates)
        return found
    return TargetResult(fighter=rng.choice(found.candidates), candidates=found.candidates)


def side_job_candidates(
    entry: TableEntry,
    own: Gang,
    own_crew: Sequence[CrewMember],
    enemy: Gang,
    enemy_crew: Sequence[CrewMember],
) -> TargetResult:
    """The fighters a Side Job may pick from (no pick made): ``candidates``,
    ``needs_choice`` for a player's choice, ``new_side_job`` when none qualifies
    and the Side Job says to generate a new one."""
    target = entry.extra.get("target")
    if not target:
        return TargetResult()
    gang, crew = (own, own_crew) if target["side"] == "own" else (enemy, enemy_crew)
    fighters = [gang.fighter(m.fighter) for m in crew]
    excluded = set(target.get("exclude_types", []))
    fighters = [f for f in fighters if f.type.value not in excluded]
    prefer = target.get("prefer_types", [])
    if prefer:
        for t in prefer:
            group = [f for f in fighters if f.type.value == t]
            if group:
                fighters = group
                break
        else:
            fighters = []
    ids = tuple(f"{gang.id}/{f.id}" for f in fighters)
    if not fighters:
        return TargetResult(new_side_job=target.get("fallback") == "new-side-job")
    return TargetResult(needs_choice=target["pick"] == "chosen", candidates=ids)


# --- pitch black, the set-up ---------------------------------------------------------


def visibility_text(entry: TableEntry) -> str:
    return f'Pitch Black: {entry.name}, Visibility ({entry.extra["visibility"]}")'


def new_setup(number: int, challenger: str, challenged: str, attacker: str = "") -> BattleSetup:
    """A fresh set-up for two gangs, challenger's side first."""
    if challenger == challenged:
        raise ValueError("a gang cannot fight itself")
    s = BattleSetup(
        number=number,
        challenger=challenger,
        challenged=challenged,
        sides=[SideSetup(gang=challenger), SideSetup(gang=challenged)],
        step="battlefield",
    )
    s.attacker = attacker or challenger
    return s


def missing_for_battle(setup: BattleSetup) -> list[str]:
    """What is still missing before the battle can start (empty: ready)."""
    out = []
    if not setup.deployment:
        out.append("Deployment")
    if not setup.objective:
        out.append("Objective")
    if not setup.crew_table:
        out.append("Crew")
    for side in setup.sides:
        if not side.side_job:
            out.append(f"{side.gang}: Side Job")
        if not side.crew:
            out.append(f"{side.gang}: crew")
    return out


# --- Choose Crew Sub-plots that change the crew (seed 000) -------------------------------

#: The Sub-plot choice that reduces the crew (Goliath Jack, Contempt for the Weak).
CREW_REDUCTION = "crew_reduction"


def gang_models(gang: Gang) -> int:
    """"The number of models in your gang": every fighter on the roster who has not died,
    retired or been Captured by another gang."""
    gone = (FighterStatus.DEAD, FighterStatus.RETIRED, FighterStatus.CAPTURED)
    return sum(1 for f in gang.fighters if f.status not in gone)


def crew_reduction_limit(gang: Gang, crew_size: int) -> int:
    """Contempt for the Weak: "You can reduce the size of your crew (as determined by the
    scenario) by up to half the number of models in your gang, to a minimum crew size of 1."
    Half is rounded down."""
    return max(0, min(gang_models(gang) // 2, crew_size - 1))


def crew_reduction(side: SideSetup, data: RuleData | None = None) -> tuple[str, int] | None:
    """The (card id, number) of a Sub-plot revealed at Choose Crew that reduces the crew
    (``data``: the rule data in force: a pack's deck is read as a House deck is)."""
    from munda_tui.rules.subplots import decks as sp

    for card_id, value in side.subplot_choices.items():
        try:
            card = sp.card(card_id, data)
        except (KeyError, sp.SubplotError):
            continue
        if card.choice == CREW_REDUCTION and card_id in side.hand:
            try:
                return card_id, int(value)
            except ValueError:
                return None
    return None


def crew_reduction_due(side: SideSetup, data: RuleData | None = None) -> int:
    """How many fighters are still to be taken off a chosen crew (0: none, or done)."""
    red = crew_reduction(side, data)
    if red is None or not side.crew or side.crew_removed:
        return 0
    return red[1]


def reduce_crew(side: SideSetup, gang: Gang, removed: Sequence[str],
                data: RuleData | None = None) -> None:
    """Take ``removed`` (fighter ids) off the side's starting crew, as the card chosen at
    Choose Crew says; CrewError when that breaks the card's bound."""
    red = crew_reduction(side, data)
    if red is None:
        raise CrewError("no Sub-plot reduces this crew")
    n = red[1]
    removed = list(dict.fromkeys(removed))
    crew_ids = [m.fighter for m in side.crew]
    limit = crew_reduction_limit(gang, len(side.crew) + len(side.crew_removed))
    if n > limit:
        raise CrewError(
            f"Contempt for the Weak: at most {limit} for a crew of {len(crew_ids)} (half the "
            f"gang's {gang_models(gang)} models, a crew of 1 at least)")
    if len(removed) != n:
        raise CrewError(f"take {plural(n, 'fighter')} off the crew, not {len(removed)}")
    for fid in removed:
        if fid not in crew_ids:
            raise CrewError(f"{fid} is not in the starting crew")
    side.crew = [m for m in side.crew if m.fighter not in removed]
    side.crew_removed = removed
