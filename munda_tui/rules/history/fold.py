"""The campaign is its history: gangs are the fold of their records (issue 30).

A record is one immutable fact a laptop made: a gang's starting roster (``start``), one
applied battle's post-battle changes (``battle``), one roster edit as a field-level patch
(``edit``), a gang taken out of the campaign (``remove``), or an answered league question
(``correction``). Every laptop folds the union of the records it has, sorted by
(date, id), and gets the same gangs, the same battle order and the same open questions.

Where a record cannot apply by the rules on the gang the fold has reached (a fighter who
fell or is in Recovery or Captured in an earlier battle acts in a later one; credits
below 0; a fighter bought twice; an edit of a fighter no longer there), the fold stops
that record at the clash: its earlier changes stay applied, the rest wait for the
Arbitrator's answer (a :class:`Question`). The answer is a correction record (void the
change, keep it, or another amount), so every laptop folds the same answer.

Pure: records in, gangs out. A gang is held as the model's :class:`Gang` while battles
apply (the post-battle change handlers, ``rules.postbattle.changes``) and as its file's
plain data while an edit patches it; the caller hands in the two conversions
(:class:`GangCodec`, ``saves`` owns the file format).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..core.model import Campaign, FighterStatus, Gang
from ..postbattle.changes import CHANGES, apply_change, change_from_data

START_DATE = "0000-00-00"  # a gang's starting record sorts before every dated record
KINDS = ("start", "battle", "edit", "remove", "correction")
#: list fields whose items are told apart by their ``id`` (a patch names the item)
ID_LISTS = frozenset({"fighters", "fallen", "departed"})
#: the answers a question may offer: take the change out, apply it as it is, apply it
#: with another amount (entered by the Arbitrator)
VOID, KEEP, AMOUNT = "void", "keep", "amount"


@dataclass(frozen=True)
class Record:
    id: str
    date: str
    kind: str
    by: str = ""
    gang: str = ""  # start, edit, remove: the gang
    data: Mapping[str, Any] | None = None  # start: the gang's file data
    battle: str = ""  # battle: the battle (its file's stem)
    changes: tuple[dict[str, Any], ...] = ()  # battle: its changes; edit: the patch's ops
    assumed: Mapping[str, str] = field(default_factory=dict)  # fighter id -> status when made
    after: Mapping[str, str] = field(default_factory=dict)  # gang id -> its last record then
    target: str = ""  # correction: the record answered
    index: int = 0  # correction: which of its changes
    answer: str = ""  # correction: VOID, KEEP or AMOUNT
    amount: int = 0  # correction: the amount entered (AMOUNT)
    note: str = ""  # what the record is, for people ("roster edited", "hand edit", ...)

    @property
    def key(self) -> tuple[str, str]:
        return (self.date, self.id)


@dataclass(frozen=True)
class Question:
    """A record stopped at a clash: what the Arbitrator is asked."""

    record: str  # the record's id
    index: int  # its change (or op) that cannot apply
    kind: str  # fell, unavailable, credits, twice, missing, start, invalid
    gang: str
    fighter: str  # the fighter's id ("" when none)
    battle: str  # the battle's stem ("" for an edit)
    what: str  # the change in words
    why: str  # why it cannot apply, in words
    choices: tuple[str, ...]  # of VOID, KEEP, AMOUNT
    other: str = ""  # the battle (stem) or record that made it clash, if known
    record_kind: str = "battle"
    by: str = ""  # who made the record
    date: str = ""  # the record's date


@dataclass
class Fold:
    """What the records fold to."""

    gangs: dict[str, dict[str, Any]]  # gang id -> its file data (the gang's file)
    battles: list[str]  # the battles (stems) in fold order: their numbers are 1, 2, ...
    applied: list[str]  # records applied whole
    questions: list[Question]
    heads: dict[str, tuple[str, str]]  # gang id -> key of the last record that changed it
    answered: list[tuple[Record, Record]]  # (correction, the record it answers) that applied
    battle_keys: dict[str, tuple[str, str]] = field(default_factory=dict)  # stem -> its record's key


class GangCodec(Protocol):
    def decode(self, data: Mapping[str, Any]) -> Gang:
        """A gang file's data as the model's gang (ValueError if it is not one)."""

    def encode(self, gang: Gang, order: int) -> dict[str, Any]:
        """The gang's file data."""


class Clash(Exception):
    def __init__(self, kind: str, why: str, choices: tuple[str, ...] = (VOID,), fighter: str = "",
                 other: str = "") -> None:
        super().__init__(why)
        self.kind, self.why, self.choices, self.fighter, self.other = kind, why, choices, fighter, other


# --- patches -----------------------------------------------------------------------------

_ATOMS = (str, int, float, bool, type(None))


def _copy(value: Any) -> Any:
    """A copy of a gang file's plain data (tables, lists, texts, numbers): what
    ``copy.deepcopy`` gives, five times faster (a 2,000-battle league's fold copied 370,000
    values through deepcopy's memo); anything else through deepcopy."""
    kind = type(value)
    if kind is dict:
        return {k: _copy(v) for k, v in value.items()}
    if kind is list:
        return [_copy(v) for v in value]
    if kind in _ATOMS:
        return value
    return copy.deepcopy(value)



def diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A field-level patch taking ``before`` to ``after`` (a gang file's data): numbers
    as amounts added (a battle's credits and an edit's purchase both apply), lists of
    fighters by id, other lists as items added and removed, the rest as values set."""
    ops = _diff_map(before, after, [])
    try:
        same = apply_patch(before, ops)[0] == dict(after)
    except PatchError:
        same = False
    if not same:  # (never: a patch that does not give it back)
        ops = [{"op": "set", "path": [k], "value": v} for k, v in after.items()]
        ops += [{"op": "del", "path": [k]} for k in before if k not in after]
    return ops


def _diff_map(a: Mapping[str, Any], b: Mapping[str, Any], path: list[Any]) -> list[dict[str, Any]]:
    ops: list[dict[str, Any]] = []
    for k, v in b.items():
        if k not in a:
            ops.append({"op": "set", "path": [*path, k], "value": _copy(v)})
        elif a[k] != v:
            ops += _diff_value(a[k], v, [*path, k])
    for k in a:
        if k not in b:
            ops.append({"op": "del", "path": [*path, k]})
    return ops


def _is_int(v: Any) -> bool:
    return type(v) is int


#: the integers a save can hold (TOML's 64-bit range): a difference or a sum outside it
#: is no amount a record can carry or a file can say
INT_MIN, INT_MAX = -(2**63), 2**63 - 1


def _ids(items: list[Any]) -> list[str] | None:
    if all(isinstance(i, dict) and isinstance(i.get("id"), str) for i in items):
        ids = [i["id"] for i in items]
        if len(set(ids)) == len(ids):
            return ids
    return None


def _diff_value(x: Any, y: Any, path: list[Any]) -> list[dict[str, Any]]:
    if _is_int(x) and _is_int(y) and INT_MIN <= y - x <= INT_MAX:
        return [{"op": "add", "path": path, "amount": y - x}]
    if isinstance(x, dict) and isinstance(y, dict):
        return _diff_map(x, y, path)
    if isinstance(x, list) and isinstance(y, list):
        xi, yi = _ids(x), _ids(y)
        if path and path[-1] in ID_LISTS and xi is not None and yi is not None:
            ops: list[dict[str, Any]] = []
            old = {i["id"]: i for i in x}
            for item in y:
                if item["id"] not in old:
                    ops.append({"op": "put", "path": path, "value": _copy(item)})
                elif old[item["id"]] != item:
                    ops += _diff_map(old[item["id"]], item, [*path, item["id"]])
            ops += [{"op": "drop", "path": path, "id": i} for i in xi if i not in set(yi)]
            kept = [i for i in xi if i in set(yi)] + [i for i in yi if i not in set(xi)]
            if kept != yi:
                ops.append({"op": "order", "path": path, "ids": list(yi)})
            return ops
        rest = list(x)
        added = []
        for item in y:
            if item in rest:
                rest.remove(item)
            else:
                added.append(item)
        made = [i for i in x]
        for item in rest:
            made.remove(item)
        made += added
        if made == y:
            return [{"op": "list", "path": path, "add": _copy(added), "remove": _copy(rest)}]
    return [{"op": "set", "path": path, "value": _copy(y)}]


class PatchError(Exception):
    def __init__(self, index: int, kind: str, why: str) -> None:
        super().__init__(why)
        self.index, self.kind, self.why = index, kind, why


def _walk(data: Any, path: list[Any]) -> Any:
    """The container the last element of ``path`` names a member of (KeyError if gone)."""
    at = data
    for part in path:
        if isinstance(at, list):
            at = next((i for i in at if isinstance(i, dict) and i.get("id") == part), None)
            if at is None:
                raise KeyError(part)
        elif isinstance(at, dict) and part in at:
            at = at[part]
        else:
            raise KeyError(part)
    return at


def apply_op(data: dict[str, Any], op: Mapping[str, Any]) -> None:
    """One op of a patch, in place (PatchError's kind and words where it cannot)."""
    kind, path = op.get("op"), list(op.get("path") or [])
    try:
        if kind in ("put", "drop", "order"):
            items = _walk(data, path)
            if not isinstance(items, list):
                raise KeyError(path[-1] if path else "")
            if kind == "put":
                value = _copy(op["value"])
                if any(isinstance(i, dict) and i.get("id") == value.get("id") for i in items):
                    raise PatchError(0, "twice", f"{value.get('name', value.get('id'))} is on the roster already")
                items.append(value)
            elif kind == "drop":
                items[:] = [i for i in items if not (isinstance(i, dict) and i.get("id") == op["id"])]
            else:
                rank = {i: n for n, i in enumerate(op["ids"])}
                items.sort(key=lambda i: rank.get(i.get("id") if isinstance(i, dict) else None, len(rank)))
            return
        owner = _walk(data, path[:-1])
        name = path[-1]
        if kind == "set":
            owner[name] = _copy(op["value"])
        elif kind == "del":
            owner.pop(name, None)
        elif kind == "add":
            value = owner[name] if not isinstance(owner, list) else None
            if type(value) is not int:
                raise KeyError(name)
            total = value + int(op["amount"])
            if path == ["credits"] and total < 0:
                raise PatchError(0, "credits", f"credits would be {total}")
            if not INT_MIN <= total <= INT_MAX:
                raise PatchError(0, "range", f"{'.'.join(map(str, path))} would be {total}, "
                                             "more than a save can hold")
            owner[name] = total
        elif kind == "list":
            items = owner[name]
            if not isinstance(items, list):
                raise KeyError(name)
            for item in op.get("remove") or []:
                if item not in items:
                    label = item.get("name") if isinstance(item, dict) else item
                    raise PatchError(0, "missing", f"{label} is not there any more")
                items.remove(item)
            items.extend(_copy(op.get("add") or []))
        else:
            raise PatchError(0, "invalid", f"unknown patch op {kind!r}")
    except (KeyError, TypeError, IndexError) as error:
        raise PatchError(0, "missing", f"{'.'.join(map(str, path))} is not there any more") from error


def apply_patch(data: Mapping[str, Any], ops: Iterable[Mapping[str, Any]]) -> tuple[dict[str, Any], None]:
    out = _copy(dict(data))
    for n, op in enumerate(ops):
        try:
            apply_op(out, op)
        except PatchError as error:
            error.index = n
            raise
    return out, None


# --- the fold ----------------------------------------------------------------------------


def _fighter_of(gang: Gang, fid: str) -> Any:
    for f in gang.fighters:
        if f.id == fid:
            return f
    return None


def _fallen_of(gang: Gang, fid: str) -> Any:
    for f in gang.fallen:
        if f.id == fid:
            return f
    return None


def change_words(ch: Mapping[str, Any], names: Callable[[str], str] = lambda g: g,
                 who: str = "") -> str:
    """A change (or an edit's op) in a few words."""
    from ..postbattle.changes import Words, describe_change

    if ch.get("op"):
        path = ".".join(str(p) for p in ch.get("path") or [])
        if not path:
            return f"the {ch['op']}"
        if ch["op"] == "add":
            return f"{path} {int(ch.get('amount', 0)):+d}"
        if ch["op"] == "put":
            value = ch.get("value") or {}
            return f"{value.get('name', value.get('id', '?'))} added to {path}"
        return f"{path} {ch['op']}"
    why = f" ({ch['why']})" if ch.get("why") else ""
    try:
        return describe_change(Words(who, why, names), change_from_data(ch))
    except (KeyError, TypeError, ValueError):
        return str(ch.get("kind", "change"))


def _check_battle_change(campaign: Campaign, ch: Mapping[str, Any], r: Record, status_by: dict[tuple[str, str], str],
                         touched: set[str]) -> None:
    """Clash where ``ch`` cannot apply by the rules on the fold's gangs."""
    kind = ch.get("kind")
    if kind not in CHANGES:
        raise Clash("invalid", f"unknown change {kind!r}")
    gid = str(ch.get("gang", ""))
    gang = next((g for g in campaign.gangs if g.id == gid), None)
    if gang is None:
        raise Clash("missing", "the gang is not in the campaign")
    for other in ("to_gang", "from_gang"):
        if ch.get(other) and not any(g.id == ch[other] for g in campaign.gangs):
            raise Clash("missing", f"gang {ch[other]} is not in the campaign")
    fid = str(ch.get("fighter") or "")
    if fid:
        fighter = _fighter_of(gang, fid)
        if fighter is None:
            fallen = _fallen_of(gang, fid)
            if fallen is not None:
                raise Clash("fell", f"{fallen.name} fell in an earlier battle", (VOID,), fid,
                            status_by.get((gid, fid), ""))
            raise Clash("missing", f"fighter {fid} is not on the roster", (VOID,), fid)
        assumed = r.assumed.get(fid)
        now = fighter.status.value
        if assumed is not None and fid not in touched and now != assumed and kind not in ("bury",):
            if FighterStatus(now) in (FighterStatus.DEAD, FighterStatus.RECOVERY, FighterStatus.CAPTURED,
                                      FighterStatus.CRITICAL, FighterStatus.RETIRED):
                words = {"dead": "is dead", "recovery": "is in Recovery", "captured": "is Captured",
                         "critical": "is Critically Injured", "retired": "has retired"}[now]
                raise Clash("fell" if now == "dead" else "unavailable",
                            f"{fighter.name} {words} after an earlier battle", (VOID, KEEP), fid,
                            status_by.get((gid, fid), ""))
    if kind == "credits" and gang.credits + int(ch.get("amount", 0)) < 0:
        raise Clash("credits", f"{gang.name} has {gang.credits} credits: {int(ch['amount']):+d} would leave "
                    f"{gang.credits + int(ch['amount'])}", (VOID, AMOUNT))
    if kind == "hire":
        new = (ch.get("data") or {}).get("id")
        if new and (_fighter_of(gang, new) is not None or _fallen_of(gang, new) is not None):
            raise Clash("twice", f"{(ch.get('data') or {}).get('name', new)} was hired already", (VOID,), str(new))


def fold(records: Iterable[Record], codec: GangCodec) -> Fold:
    """Fold ``records`` (any order: they are sorted by (date, id)) into gangs."""
    ordered = sorted(records, key=lambda r: r.key)
    state = _Folding(codec, _corrections(ordered))
    for r in ordered:
        state.step(r)
    return state.result(ordered)


def _corrections(ordered: Iterable[Record]) -> dict[tuple[str, int], Record]:
    """(record answered, its change) -> the answer that counts (the latest)."""
    out: dict[tuple[str, int], Record] = {}
    for r in ordered:
        if r.kind == "correction":
            out[(r.target, r.index)] = r
    return out


class _Folding:
    """The fold under way: the gangs reached so far and what the fold has said. It can
    be put aside as plain data (:meth:`state`) after the last record of a fold and taken
    up again (:meth:`resume`) to fold the records that sort after it: the same as
    folding every record again (``fold_on``)."""

    def __init__(self, codec: GangCodec, corrections: dict[tuple[str, int], Record]) -> None:
        self.codec = codec
        self.corrections = corrections
        self.campaign = Campaign(id="fold", name="fold")
        self.seq: list[str] = []  # gang ids in the fold's order of gangs
        self.lazy: dict[str, dict[str, Any]] = {}  # gang id -> file data not decoded yet (a resumed fold)
        self.orders: dict[str, int] = {}
        self.plain: dict[str, dict[str, Any]] = {}  # gang id -> file data, while no battle changed it
        self.heads: dict[str, tuple[str, str]] = {}
        self.battles: list[str] = []
        self.applied: list[str] = []
        self.questions: list[Question] = []
        self.answered: list[tuple[Record, Record]] = []
        self.status_by: dict[tuple[str, str], str] = {}  # (gang, fighter) -> battle that last set it
        self.battle_keys: dict[str, tuple[str, str]] = {}

    # --- the gangs ---

    def gang_obj(self, gid: str) -> Gang | None:
        if gid in self.lazy:
            self._decode(gid)
        return next((g for g in self.campaign.gangs if g.id == gid), None)

    def _decode(self, gid: str) -> None:
        data = self.lazy.pop(gid)
        self.campaign.gangs.append(self.codec.decode(data))

    def _named(self, r: Record) -> None:
        """Every gang the battle ``r`` names decoded (a resumed fold decodes only those it
        needs; an edit patches a gang's data, decoded after)."""
        if not self.lazy:
            return
        for gid in [str(ch.get(k) or "") for ch in r.changes for k in ("gang", "to_gang", "from_gang")]:
            if gid in self.lazy:
                self._decode(gid)

    def _drop(self, gid: str) -> None:
        self.campaign.gangs = [g for g in self.campaign.gangs if g.id != gid]
        self.lazy.pop(gid, None)
        if gid in self.seq:
            self.seq.remove(gid)

    # --- the records ---

    def ask(self, r: Record, index: int, clash: Clash, ch: Mapping[str, Any], gid: str) -> None:
        gang = self.gang_obj(gid)
        fighter = None
        if gang is not None and clash.fighter:
            fighter = _fighter_of(gang, clash.fighter) or _fallen_of(gang, clash.fighter)
        names = {g.id: g.name for g in self.campaign.gangs}
        self.questions.append(Question(r.id, index, clash.kind, gid, clash.fighter, r.battle,
                                       change_words(ch, lambda g: names.get(g, g), fighter.name if fighter else ""),
                                       clash.why, clash.choices, clash.other, r.kind, r.by, r.date))

    def correction(self, r: Record, index: int) -> Record | None:
        return self.corrections.get((r.id, index))

    def step(self, r: Record) -> None:
        if r.kind == "battle" and r.battle:
            self.battle_keys[r.battle] = r.key
        if r.kind == "correction":
            return
        if r.kind == "start":
            self._start(r)
        elif r.kind == "remove":
            if r.gang in self.orders:
                self._drop(r.gang)
                del self.orders[r.gang]
                self.plain.pop(r.gang, None)
                self.heads.pop(r.gang, None)
            self.applied.append(r.id)
        elif r.kind == "edit":
            self._edit(r)
        elif r.kind == "battle":
            self._named(r)
            self._battle(r)

    def _start(self, r: Record) -> None:
        gid = r.gang
        if gid in self.orders:
            c = self.correction(r, 0)
            if c is None or c.answer != KEEP:
                if c is None:
                    self.ask(r, 0, Clash("start", "the gang has another starting roster (made on another "
                                         "laptop)", (VOID, KEEP)), {"op": "start", "path": []}, gid)
                else:
                    self.answered.append((c, r))
                return
            self.answered.append((c, r))
            self._drop(gid)
        data = dict(r.data or {})
        try:
            gang = self.codec.decode(data)
        except ValueError as error:
            self.ask(r, 0, Clash("invalid", f"the starting roster does not load: {error}"),
                     {"op": "start", "path": []}, gid)
            return
        order = data.get("order", 0)
        self.orders[gid] = order if type(order) is int else 0
        self.campaign.gangs.append(gang)
        self.seq.append(gid)
        self.plain[gid] = _copy(data)  # (as the record holds it: a hand-made file too)
        self.heads[gid] = r.key
        self.applied.append(r.id)

    def _edit(self, r: Record) -> None:
        gid = r.gang
        lazy = self.lazy.get(gid)  # (a gang not decoded yet: its data is what it would encode to)
        edited = self.gang_obj(gid) if lazy is None else None
        if edited is None and lazy is None:
            c = self.correction(r, 0)
            if c is None:
                self.ask(r, 0, Clash("missing", "the gang is not in the campaign"), {"op": "edit", "path": []}, gid)
            else:
                self.answered.append((c, r))
            return
        if lazy is not None:
            data = lazy
        else:
            assert edited is not None
            data = self.plain.get(gid) or self.codec.encode(edited, self.orders[gid])
        work = _copy(data)
        stopped = False
        for n, op in enumerate(r.changes):
            c = self.correction(r, n)
            if c is not None:
                self.answered.append((c, r))
                if c.answer == VOID:
                    continue
                if c.answer == AMOUNT and op.get("op") == "add":
                    op = {**op, "amount": c.amount}
            try:
                apply_op(work, op)
            except PatchError as error:
                if c is not None and c.answer == KEEP and error.kind == "credits":
                    continue  # (kept as it is: the Arbitrator's call)
                fighter = ""
                path = list(op.get("path") or [])
                if len(path) >= 2 and path[0] in ID_LISTS:
                    fighter = str(path[1])
                choices = (VOID, AMOUNT) if error.kind == "credits" else (VOID,)
                self.ask(r, n, Clash(error.kind, error.why, choices, fighter), op, gid)
                stopped = True
                break
        try:
            new = self.codec.decode(work)
        except ValueError as error:
            self.ask(r, len(r.changes), Clash("invalid", f"the edit leaves a gang that does not load: {error}"),
                     {"op": "edit", "path": []}, gid)
            return
        if gid in self.lazy:  # (not decoded meanwhile, by a question)
            del self.lazy[gid]
            self.campaign.gangs.append(new)
        else:
            self.campaign.gangs = [new if g.id == gid else g for g in self.campaign.gangs]
        order = work.get("order", self.orders[gid])
        self.orders[gid] = order if type(order) is int else self.orders[gid]
        self.plain[gid] = work
        self.heads[gid] = r.key
        if not stopped:
            self.applied.append(r.id)

    def _battle(self, r: Record) -> None:
        if r.battle and r.battle not in self.battles:
            self.battles.append(r.battle)
        touched: set[str] = set()
        stopped = False
        changed: set[str] = set()
        for n, ch in enumerate(r.changes):
            gid = str(ch.get("gang", ""))
            c = self.correction(r, n)
            if c is not None:
                self.answered.append((c, r))
                if c.answer == VOID:
                    continue
                if c.answer == AMOUNT and "amount" in ch:
                    ch = {**ch, "amount": c.amount}
            try:
                if c is None or c.answer != KEEP:
                    _check_battle_change(self.campaign, ch, r, self.status_by, touched)
                apply_change(self.campaign, change_from_data(ch))
            except Clash as clash:
                self.ask(r, n, clash, ch, gid)
                stopped = True
                break
            except (KeyError, ValueError, TypeError, AssertionError, IndexError) as error:
                self.ask(r, n, Clash("missing", f"it does not apply: {error}"), ch, gid)
                stopped = True
                break
            changed.add(gid)
            for other in ("to_gang", "from_gang"):
                if ch.get(other):
                    changed.add(str(ch[other]))
            if ch.get("fighter") and ch.get("kind") in ("status", "bury"):
                touched.add(str(ch["fighter"]))
                self.status_by[(gid, str(ch["fighter"]))] = r.battle
        for gid in changed:
            self.plain.pop(gid, None)
            self.heads[gid] = r.key
        if not stopped:
            self.applied.append(r.id)

    # --- the result, and the fold put aside ---

    def _gang_data(self, gid: str) -> dict[str, Any]:
        if gid in self.plain:
            return self.plain[gid] or self.codec.encode(self._obj(gid), self.orders[gid])
        if gid in self.lazy:
            return self.lazy[gid]
        return self.codec.encode(self._obj(gid), self.orders[gid])

    def _obj(self, gid: str) -> Gang:
        found = self.gang_obj(gid)
        assert found is not None
        return found

    def result(self, ordered: list[Record]) -> Fold:
        gangs = {gid: self._gang_data(gid) for gid in self.seq}
        return Fold(gangs, list(self.battles), list(self.applied), list(self.questions), dict(self.heads),
                    list(self.answered), dict(self.battle_keys))

    def state(self, result: Fold, ordered: list[Record]) -> dict[str, Any]:
        """The fold as plain data (``result``: its :meth:`result`; ``ordered``: every
        record it folded, in order), to take up again."""
        return {"v": STATE_VERSION,
                "last": list(ordered[-1].key) if ordered else None, "ids": [r.id for r in ordered],
                "corrections": [c.id for c in self.corrections.values()],
                "gangs": [[gid, result.gangs[gid], gid in self.plain] for gid in self.seq],
                "orders": dict(self.orders), "heads": {g: list(k) for g, k in self.heads.items()},
                "battles": list(self.battles), "applied": list(self.applied),
                "questions": [_question_data(q) for q in self.questions],
                "answered": [[c.id, r.id] for c, r in self.answered],
                "status_by": [[g, f, b] for (g, f), b in self.status_by.items()],
                "battle_keys": {s: list(k) for s, k in self.battle_keys.items()}}

    @classmethod
    def resume(cls, state: Mapping[str, Any], codec: GangCodec, corrections: dict[tuple[str, int], Record],
               record: Callable[[str], Record]) -> "_Folding":
        """The fold put aside as ``state`` (KeyError, TypeError, ValueError where it is not
        one); ``record``: a record it folded, by id (for the answers it had applied)."""
        self = cls(codec, corrections)
        for gid, data, is_plain in state["gangs"]:
            if not isinstance(data, dict):
                raise TypeError("a gang's data is not a table")
            self.seq.append(str(gid))
            self.lazy[str(gid)] = data
            if is_plain:
                self.plain[str(gid)] = data
        self.orders = {str(g): int(o) for g, o in state["orders"].items()}
        self.heads = {str(g): (str(k[0]), str(k[1])) for g, k in state["heads"].items()}
        self.battles = [str(s) for s in state["battles"]]
        self.applied = [str(i) for i in state["applied"]]
        self.questions = [Question(**{**q, "choices": tuple(q["choices"])}) for q in state["questions"]]
        self.answered = [(record(c), record(r)) for c, r in state["answered"]]
        self.status_by = {(str(g), str(f)): str(b) for g, f, b in state["status_by"]}
        self.battle_keys = {str(s): (str(k[0]), str(k[1])) for s, k in state["battle_keys"].items()}
        if set(self.seq) != set(self.orders) or len(self.seq) != len(set(self.seq)):
            raise ValueError("the gangs of a fold put aside do not agree")
        return self


STATE_VERSION = 1


def _question_data(q: Question) -> dict[str, Any]:
    from dataclasses import asdict

    data = asdict(q)
    data["choices"] = list(q.choices)
    return data


def fold_state(records: Iterable[Record], codec: GangCodec) -> tuple[Fold, dict[str, Any]]:
    """:func:`fold`, and the fold put aside after its last record as plain data (for
    :func:`fold_on`: the records that sort after it folded without folding these again)."""
    ordered = sorted(records, key=lambda r: r.key)
    state = _Folding(codec, _corrections(ordered))
    for r in ordered:
        state.step(r)
    result = state.result(ordered)
    return result, state.state(result, ordered)


def fold_on(state: Mapping[str, Any], after: Iterable[Record], codec: GangCodec,
            record: Callable[[str], Record], untouched: set[str] | None = None) -> tuple[Fold, dict[str, Any]]:
    """What :func:`fold_state` gives for the records ``state`` folded and ``after``
    together, from the fold put aside as ``state``: only ``after`` is folded (and the
    gangs they name decoded). ``record``: a record ``state`` folded, by id (KeyError if
    unknown; only the answers and what they answered are asked for). ValueError where
    ``after`` cannot be folded on from ``state`` (one of them sorts before the last
    record folded, or answers a record folded already; a state that does not read):
    the caller folds every record again. ``untouched`` gets the gangs ``after`` left
    as ``state`` has them (never decoded: their data is ``state``'s)."""
    new = sorted(after, key=lambda r: r.key)
    try:
        if state.get("v") != STATE_VERSION:
            raise ValueError("another version")
        last = state["last"]
        ids = set(state["ids"])
        if last is not None and new and new[0].key <= (last[0], last[1]):
            raise ValueError("a new record sorts before the last one folded")
        if any(r.id in ids for r in new):
            raise ValueError("a record folded already")
        if any(r.kind == "correction" and r.target in ids for r in new):
            raise ValueError("a new answer to a record folded already")
        before = [record(i) for i in state["corrections"]]
        corrections = _corrections(sorted([*before, *new], key=lambda r: r.key))
        folding = _Folding.resume(state, codec, corrections, record)
        ordered_ids = [*state["ids"], *(r.id for r in new)]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        raise ValueError(f"the fold put aside cannot be folded on: {error!r}") from None
    for r in new:
        folding.step(r)
    if untouched is not None:
        untouched.update(folding.lazy)
    result = folding.result(new)
    out = folding.state(result, new)
    out["ids"] = ordered_ids
    out["last"] = list(new[-1].key) if new else last
    return result, out


def assumed_statuses(before: Mapping[str, Mapping[str, Any]], changes: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Each fighter a battle's changes name, with the status they had before it
    (``before``: gang id -> its file data)."""
    out: dict[str, str] = {}
    for ch in changes:
        fid, gid = ch.get("fighter"), str(ch.get("gang", ""))
        if not fid or fid in out or gid not in before:
            continue
        for f in before[gid].get("fighters") or []:
            if isinstance(f, dict) and f.get("id") == fid:
                out[str(fid)] = str(f.get("status", "active"))
    return out


__all__ = ["AMOUNT", "Fold", "GangCodec", "KEEP", "Question", "Record", "START_DATE", "VOID",
           "apply_patch", "assumed_statuses", "change_words", "diff", "fold", "fold_on", "fold_state"]
