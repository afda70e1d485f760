"""Campaign <-> plain data, schema versions and migrations.

Plain data is what TOML holds: dicts, lists, str, int, float, bool. The codec
walks the model's dataclasses generically (compatible additions to the model
need no codec change) and validates strictly: wrong types, unknown keys,
unknown enum values, duplicate ids and a Reputation out of the campaign's range are errors that
name the key path (``gangs[1].fighters[3].xp``).

Every file carries ``schema_version``. A file with an older version is
migrated by the registered migrations (one step per version); a newer one is
refused with :class:`NewerSchema`.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from ..rules.core import limits as limits
from ..rules.core import model as m
from ..rules.campaign import career as career
from ..rules.core import profile as profile_rules

KeyPath = tuple[str | int, ...]

CAMPAIGN = "campaign"
BATTLE = "battle"
CONFIG = "config"
GANG = "gang"

#: The schema version this program writes, per kind of file. Campaign version 2 is the
#: folder that merges (``saves.folder``): campaign.toml holds the settings, each gang
#: its own file, each battle's summary its battle file; the data is version 1's.
SCHEMA_VERSIONS: dict[str, int] = {CAMPAIGN: 2, BATTLE: 1, CONFIG: 1, GANG: 1}
SCHEMA_VERSION = SCHEMA_VERSIONS[CAMPAIGN]


def format_keypath(keypath: KeyPath) -> str:
    out = ""
    for part in keypath:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out or "(top)"


class ValidationError(ValueError):
    """A value in a save is wrong; ``keypath`` says where."""

    def __init__(self, keypath: KeyPath, message: str) -> None:
        self.keypath = tuple(keypath)
        self.message = message
        super().__init__(f"{format_keypath(self.keypath)}: {message}")


class NewerSchema(ValidationError):
    """The file was written by a newer munda-tui."""


# --- schema versions and migrations ------------------------------------------

Migration = Callable[[dict[str, Any]], dict[str, Any]]
MIGRATIONS: dict[str, dict[int, Migration]] = {CAMPAIGN: {}, BATTLE: {}, CONFIG: {}, GANG: {}}


def migration(kind: str, from_version: int) -> Callable[[Migration], Migration]:
    """Register ``fn`` as the step from ``from_version`` to ``from_version + 1``."""

    def register(fn: Migration) -> Migration:
        if from_version in MIGRATIONS[kind]:
            raise ValueError(f"two {kind} migrations from version {from_version}")
        MIGRATIONS[kind][from_version] = fn
        return fn

    return register


def schema_version(data: Mapping[str, Any], kind: str) -> int:
    """The file's ``schema_version``; NewerSchema when this program cannot read it."""
    current = SCHEMA_VERSIONS[kind]
    if "schema_version" not in data:
        raise ValidationError(
            (), f"missing schema_version (this munda-tui writes schema_version = {current})"
        )
    version = data["schema_version"]
    if type(version) is not int:
        raise ValidationError(
            ("schema_version",), f"expected an integer, found {_describe(version)}"
        )
    if version > current:
        raise NewerSchema(
            ("schema_version",),
            f"written by a newer munda-tui (schema_version {version}; this version reads "
            f"up to {current}); update munda-tui to open it. The file was not changed.",
        )
    if version < min(MIGRATIONS[kind], default=current):
        raise ValidationError(
            ("schema_version",), f"unknown schema_version {version} (oldest known is "
            f"{min(MIGRATIONS[kind], default=current)})"
        )
    return version


def migrate(data: Mapping[str, Any], kind: str) -> tuple[dict[str, Any], int]:
    """Bring ``data`` to the current schema: (new data, version it had).

    The input is not changed. A migration that fails raises ValidationError.
    """
    original = version = schema_version(data, kind)
    current = SCHEMA_VERSIONS[kind]
    if version == current:
        return dict(data), original
    out = copy.deepcopy(dict(data))
    while version < current:
        step = MIGRATIONS[kind].get(version)
        if step is None:  # pragma: no cover - registry is complete by construction
            raise ValidationError(("schema_version",), f"no migration from schema_version {version}")
        try:
            out = step(out)
        except ValidationError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ValidationError(
                (), f"could not migrate from schema_version {version}: {error}"
            ) from error
        version += 1
        out["schema_version"] = version
    return out, original


# --- version 0: the pre-release format ---------------------------------------
#
#   schema_version = 0
#   [campaign]                      id, name, ruleset (a post-battle ruleset id), notes
#   [[gangs]]                       id, name, house, stash_credits, reputation,
#                                   territories = ["Name", ...] (all turf)
#   [[gangs.fighters]]              id, name, type, cost, experience,
#                                   status = "Active" | "In Recovery" | ...,
#                                   equipment = ["Lasgun (15)", "Frag grenades"]
#
# Version 1 moved the campaign keys to the top and the ruleset into
# [settings], renamed house -> type, stash_credits -> credits,
# experience -> xp, made statuses ids and equipment tables with a cost.

_V0_STATUS = {
    "active": "active",
    "in recovery": "recovery",
    "recovery": "recovery",
    "captured": "captured",
    "critically injured": "critical",
    "critical": "critical",
    "dead": "dead",
    "retired": "retired",
}


def _v0_equipment(text: Any, keypath: KeyPath) -> dict[str, Any]:
    if not isinstance(text, str):
        raise ValidationError(keypath, f"expected a string, found {_describe(text)}")
    name, cost = text.strip(), None
    if name.endswith(")") and "(" in name:
        head, _, tail = name[:-1].rpartition("(")
        if tail.strip().isdigit():
            name, cost = head.strip(), int(tail.strip())
    item: dict[str, Any] = {"name": name}
    if cost is not None:
        item["cost"] = cost
    return item


@migration(CAMPAIGN, 0)
def _campaign_v0_to_v1(old: dict[str, Any]) -> dict[str, Any]:
    head = old.get("campaign")
    if not isinstance(head, dict):
        raise ValidationError(("campaign",), "the version-0 [campaign] table is missing")
    new: dict[str, Any] = {"schema_version": 1}
    for k in ("id", "name", "notes"):
        if k in head:
            new[k] = head[k]
    settings: dict[str, Any] = {}
    if "ruleset" in head:
        settings["post_battle_ruleset"] = head["ruleset"]
    new["settings"] = settings
    gangs = []
    for gi, gang in enumerate(old.get("gangs", [])):
        if not isinstance(gang, dict):
            raise ValidationError(("gangs", gi), f"expected a table, found {_describe(gang)}")
        g = dict(gang)
        if "house" in g:
            g["type"] = g.pop("house")
        if "stash_credits" in g:
            g["credits"] = g.pop("stash_credits")
        if "territories" in g:
            g["territories"] = [{"name": t} for t in g["territories"]]
        fighters = []
        for fi, fighter in enumerate(g.get("fighters", [])):
            if not isinstance(fighter, dict):
                raise ValidationError(
                    ("gangs", gi, "fighters", fi), f"expected a table, found {_describe(fighter)}"
                )
            f = dict(fighter)
            if "experience" in f:
                f["xp"] = f.pop("experience")
            if "status" in f:
                status = str(f["status"]).strip().lower()
                if status not in _V0_STATUS:
                    raise ValidationError(
                        ("gangs", gi, "fighters", fi, "status"), f"unknown status {f['status']!r}"
                    )
                f["status"] = _V0_STATUS[status]
            if "equipment" in f:
                f["equipment"] = [
                    _v0_equipment(e, ("gangs", gi, "fighters", fi, "equipment", ei))
                    for ei, e in enumerate(f["equipment"])
                ]
            fighters.append(f)
        if "fighters" in g:
            g["fighters"] = fighters
        gangs.append(g)
    new["gangs"] = gangs
    new["battles"] = []
    return new


@migration(CAMPAIGN, 1)
def _campaign_v1_to_v2(old: dict[str, Any]) -> dict[str, Any]:
    """The data stays; the folder is split when it is saved (``saves.folder``)."""
    return old


# --- the generic dataclass codec ----------------------------------------------

#: Small records written as inline tables: fields equal to their default are left out.
COMPACT: frozenset[type] = frozenset({m.Equipment, m.LastingInjury, m.Territory, m.Standing})


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"a boolean ({'true' if value else 'false'})"
    if isinstance(value, int):
        return f"an integer ({value})"
    if isinstance(value, float):
        return f"a float ({value})"
    if isinstance(value, str):
        shown = value if len(value) <= 30 else value[:27] + "..."
        return f"a string ({shown!r})"
    if isinstance(value, Mapping):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return f"a {type(value).__name__}"


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return dataclasses.MISSING


#: a dataclass's fields as :func:`to_data` writes them: (name, the default a compact
#: class leaves out or MISSING, a profile?); False for a type that is no dataclass
_PLANS: dict[type, Any] = {}
_PLAIN = frozenset({str, int, bool, float})


def _plan(cls: type) -> Any:
    plan = _PLANS.get(cls)
    if plan is None:
        if dataclasses.is_dataclass(cls):
            compact = cls in COMPACT
            plan = tuple((f.name, _default(f) if compact else dataclasses.MISSING,
                          f.metadata.get("codec") == "profile") for f in dataclasses.fields(cls))
        else:
            plan = False
        _PLANS[cls] = plan
    return plan


def to_data(obj: Any) -> Any:
    """Plain data for a model value (dataclasses, enums, lists, dicts, scalars)."""
    kind = type(obj)
    if kind in _PLAIN:
        return obj
    plan = _plan(kind)
    if plan is not False:
        out: dict[str, Any] = {}
        missing = dataclasses.MISSING
        for name, default, profile in plan:
            value = getattr(obj, name)
            if value is None:
                continue
            if default is not missing and value == default and type(value) is type(default):
                continue
            if profile:
                out[name] = profile_rules.encode(value)
            else:
                out[name] = value if type(value) in _PLAIN else to_data(value)
        return out
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, (list, tuple)):
        return [v if type(v) in _PLAIN else to_data(v) for v in obj]
    if isinstance(obj, Mapping):
        return {str(k): to_data(v) for k, v in obj.items()}
    if isinstance(obj, (str, bool, int, float)):
        return obj
    raise TypeError(f"{type(obj).__name__} is not plain data")


Decoder = Callable[[Any, KeyPath], Any]


def from_data(tp: Any, data: Any, keypath: KeyPath = ()) -> Any:
    """Build a value of type ``tp`` from plain data, validating as it goes."""
    return _decoder(tp)(data, keypath)


def _scalar_decoder(tp: type, what: str) -> Decoder:
    def decode(data: Any, keypath: KeyPath) -> Any:
        if type(data) is not tp:
            raise ValidationError(keypath, f"expected {what}, found {_describe(data)}")
        return data

    return decode


def _int_decoder(data: Any, keypath: KeyPath) -> Any:
    if type(data) is not int:
        raise ValidationError(keypath, f"expected an integer, found {_describe(data)}")
    if not limits.INT64_MIN <= data <= limits.INT64_MAX:
        raise ValidationError(keypath, f"{limits.show_number(data)} is too large to save")
    return data


def _str_decoder(data: Any, keypath: KeyPath) -> Any:
    if type(data) is str and data.isascii() and len(data) <= limits.TEXT_DEFAULT_MAX:
        return data  # (what check_text passes, at C speed: a campaign holds thousands)
    if type(data) is not str:
        raise ValidationError(keypath, f"expected a string, found {_describe(data)}")
    try:
        return limits.check_text(data)
    except limits.LimitError as error:
        raise ValidationError(keypath, f"the text {error}") from None


@cache
def _decoder(tp: Any) -> Decoder:
    """A validating converter for ``tp``, built once per type."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) != 1:  # pragma: no cover - the model has only `X | None`
            raise TypeError(f"unsupported union {tp}")
        return _decoder(args[0])
    if origin is list:
        (item_t,) = typing.get_args(tp)
        item = _decoder(item_t)

        def decode_list(data: Any, keypath: KeyPath) -> Any:
            if not isinstance(data, list):
                raise ValidationError(keypath, f"expected an array, found {_describe(data)}")
            return [item(v, (*keypath, i)) for i, v in enumerate(data)]

        return decode_list
    if origin is tuple:
        targs = typing.get_args(tp)
        if len(targs) != 2 or targs[1] is not Ellipsis:  # pragma: no cover - fixed tuples unused
            raise TypeError(f"unsupported tuple {tp}")
        items = _decoder(targs[0])

        def decode_tuple(data: Any, keypath: KeyPath) -> Any:
            if not isinstance(data, list):
                raise ValidationError(keypath, f"expected an array, found {_describe(data)}")
            return tuple(items(v, (*keypath, i)) for i, v in enumerate(data))

        return decode_tuple
    if origin is typing.Literal:
        allowed = typing.get_args(tp)
        choices = ", ".join(repr(v) for v in allowed)

        def decode_literal(data: Any, keypath: KeyPath) -> Any:
            for v in allowed:
                if type(v) is type(data) and v == data:
                    return v
            raise ValidationError(keypath, f"unknown value {data!r}; expected one of {choices}")

        return decode_literal
    if origin is dict:
        _key_t, value_t = typing.get_args(tp)
        value = _decoder(value_t)

        def decode_dict(data: Any, keypath: KeyPath) -> Any:
            if type(data) is not dict and not isinstance(data, Mapping):
                raise ValidationError(keypath, f"expected a table, found {_describe(data)}")
            return {k: value(v, (*keypath, k)) for k, v in data.items()}

        return decode_dict
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):

        def decode_dataclass(data: Any, keypath: KeyPath) -> Any:
            return _dataclass_from(tp, data, keypath)

        return decode_dataclass
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        members = {e.value: e for e in tp}
        choices = ", ".join(repr(v) for v in members)

        def decode_enum(data: Any, keypath: KeyPath) -> Any:
            if not isinstance(data, str):
                raise ValidationError(keypath, f"expected a string, found {_describe(data)}")
            try:
                return members[data]
            except KeyError:
                raise ValidationError(keypath, f"unknown value {data!r}; expected one of {choices}") from None

        return decode_enum
    if tp is bool:
        return _scalar_decoder(bool, "a boolean (true/false)")
    if tp is int:
        return _int_decoder
    if tp is str:
        return _str_decoder
    if tp is float:

        def decode_float(data: Any, keypath: KeyPath) -> Any:
            if type(data) not in (int, float):
                raise ValidationError(keypath, f"expected a number, found {_describe(data)}")
            return float(data)

        return decode_float
    if tp is Any or tp is object:
        return lambda data, keypath: data
    raise TypeError(f"unsupported type {tp!r}")  # pragma: no cover


_PROFILES: dict[tuple[tuple[str, type, Any], ...], dict[str, int]] = {}


def _decode_profile(data: Any, keypath: KeyPath) -> Any:
    """A fighter's profile: target numbers as "3+" (a bare integer from older
    saves is read as that target number), plain ones as integers, "-" none.
    Fighters of a type share their profiles: each distinct one is decoded once."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise ValidationError(keypath, f"expected a table, found {_describe(data)}")
    key = tuple((k, type(v), v) for k, v in data.items())  # types too: True is not 1
    try:
        known = _PROFILES.get(key)
    except TypeError:  # an unhashable value: decoded (and refused) below
        known = None
    if known is not None:
        return dict(known)
    out = _decode_profile_values(data, keypath)
    if len(_PROFILES) < 4096:
        _PROFILES[key] = dict(out)
    return out


def _decode_profile_values(data: Mapping[str, Any], keypath: KeyPath) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, value in data.items():
        if key not in profile_rules.LIMITS:
            known = ", ".join(profile_rules.CHARACTERISTICS)
            raise ValidationError((*keypath, key), f"unknown characteristic {key!r} (known: {known})")
        try:
            decoded = profile_rules.decode_value(key, value)
        except profile_rules.ProfileError as error:
            raise ValidationError((*keypath, key), str(error)) from None
        if decoded is not None:
            out[key] = decoded
    return out


def _field_decoder(f: dataclasses.Field[Any], hint: Any) -> Decoder:
    if f.metadata.get("codec") == "profile":
        return _decode_profile
    return _decoder(hint)


def _limited(owner: str, name: str, decode: Decoder) -> Decoder:
    """``decode`` plus the field's range or length from ``rules.limits`` (if it has one),
    or the values it may take (``limits.CHOICES``)."""
    if (owner, name) in limits.CHOICES:

        def decode_choice(data: Any, keypath: KeyPath) -> Any:
            value = decode(data, keypath)
            allowed = limits.choices(owner, name) or ()
            if value not in allowed and not limits.pack_choice(owner, name, value):
                listed = ", ".join(repr(c) for c in allowed)
                raise ValidationError(keypath, f"unknown value {limits.show_text(value)}; expected one of {listed}")
            return value

        return decode_choice
    span = limits.RANGES.get((owner, name))
    most = limits.TEXT_MAX.get((owner, name))
    if span is None and most is None:
        return decode
    lo, hi = span if span is not None else (limits.INT64_MIN, limits.INT64_MAX)

    def check(value: Any, keypath: KeyPath) -> None:
        if type(value) is int:
            if not lo <= value <= hi:
                try:
                    limits.check_field_int(owner, name, value)
                except limits.LimitError as error:
                    raise ValidationError(keypath, str(error)) from None
        elif type(value) is str and most is not None:
            if len(value) > most:
                raise ValidationError(keypath, f"is {len(value)} characters long; at most {most}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                check(v, (*keypath, i))
        elif isinstance(value, dict):
            for k, v in value.items():
                check(v, (*keypath, k))

    def decode_limited(data: Any, keypath: KeyPath) -> Any:
        kind = type(data)
        if kind is int:  # the field's own range first (it says more than "64-bit")
            if not lo <= data <= hi:
                check(data, keypath)
            # (a decoder given an int returns it, or a value that is no int, str, list
            # or dict: nothing more to check)
            return decode(data, keypath)
        value = decode(data, keypath)
        if kind is str and type(value) is str:
            if most is not None and len(value) > most:
                check(value, keypath)
            return value
        check(value, keypath)
        return value

    return decode_limited


@cache
def _fields_of(cls: type) -> tuple[tuple[tuple[str, Decoder, bool], ...], frozenset[str], str]:
    hints = _hints(cls)
    fields = [f for f in dataclasses.fields(cls) if f.init]
    spec = tuple(
        (f.name, _limited(cls.__name__, f.name, _field_decoder(f, hints[f.name])), _default(f) is dataclasses.MISSING)
        for f in fields
    )
    names = frozenset(f.name for f in fields)
    return spec, names, ", ".join(f.name for f in fields)


_ABSENT = object()
_FAIL = object()  # what a fast decoder returns for anything it does not pass as plainly valid


@cache
def _fast_of(cls: type) -> Callable[[Any], Any]:
    """A decoder of ``cls`` for data that is plainly valid (every key known, each value of
    its field's type and within its limits, ASCII text), written out as one function
    (a league's open decodes ~12,000 tables: the generic decoder's calls per field cost
    three times the work). Anything else gives ``_FAIL`` and the generic decoder (the
    messages, text that is not ASCII, ...) decides: it never passes what that refuses."""
    spec, names, _known = _fields_of(cls)
    hints = _hints(cls)
    by_name = {f.name: f for f in dataclasses.fields(cls)}
    env: dict[str, Any] = {"F": _FAIL, "A": _ABSENT, "cls": cls, "names": names, "VE": ValidationError}
    lines = ["def fast(data):",
             "    if type(data) is not dict or not names.issuperset(data):",
             "        return F",
             "    g = data.get",
             "    kw = {}"]
    owner = cls.__name__

    def text_ok(var: str, most: int) -> str:
        return f"type({var}) is str and {var}.isascii() and len({var}) <= {most}"

    def int_ok(var: str, lo: int, hi: int) -> str:
        return f"type({var}) is int and {lo} <= {var} <= {hi}"

    for i, (name, decode, required) in enumerate(spec):
        f = by_name[name]
        tp = hints[name]
        if typing.get_origin(tp) in (typing.Union, types.UnionType):
            some = [a for a in typing.get_args(tp) if a is not type(None)]
            tp = some[0] if len(some) == 1 else tp
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        lo, hi = limits.RANGES.get((owner, name), (limits.INT64_MIN, limits.INT64_MAX))
        lo, hi = max(lo, limits.INT64_MIN), min(hi, limits.INT64_MAX)
        most = min(limits.TEXT_MAX.get((owner, name), limits.TEXT_DEFAULT_MAX), limits.TEXT_DEFAULT_MAX)
        lines.append(f"    v = g({name!r}, A)")
        lines.append("    if v is A:")
        lines.append("        return F" if required else "        pass")
        lines.append("    else:")
        body: list[str]
        generic = (owner, name) in limits.CHOICES or f.metadata.get("codec") == "profile"
        if not generic and tp is str:
            body = [f"if not ({text_ok('v', most)}): return F", f"kw[{name!r}] = v"]
        elif not generic and tp is int:
            body = [f"if not ({int_ok('v', lo, hi)}): return F", f"kw[{name!r}] = v"]
        elif not generic and tp is bool:
            body = ["if type(v) is not bool: return F", f"kw[{name!r}] = v"]
        elif not generic and isinstance(tp, type) and issubclass(tp, enum.Enum):
            env[f"M{i}"] = {e.value: e for e in tp}
            body = [f"e = M{i}.get(v) if type(v) is str else None", "if e is None: return F", f"kw[{name!r}] = e"]
        elif not generic and isinstance(tp, type) and dataclasses.is_dataclass(tp):
            env[f"D{i}"] = _fast_of(tp)
            body = [f"r = D{i}(v)", "if r is F: return F", f"kw[{name!r}] = r"]
        elif not generic and origin is list and args and dataclasses.is_dataclass(args[0]):
            env[f"D{i}"] = _fast_of(typing.cast(type, args[0]))
            body = ["if type(v) is not list: return F", "out = []", "for x in v:",
                    f"    r = D{i}(x)", "    if r is F: return F", "    out.append(r)", f"kw[{name!r}] = out"]
        elif not generic and origin is list and args and args[0] is str:
            body = ["if type(v) is not list: return F", "for x in v:",
                    f"    if not ({text_ok('x', most)}): return F", f"kw[{name!r}] = list(v)"]
        elif not generic and origin is dict and args and args[0] is str and dataclasses.is_dataclass(args[1]):
            env[f"D{i}"] = _fast_of(typing.cast(type, args[1]))
            body = ["if type(v) is not dict: return F", "out = {}", "for k, x in v.items():",
                    f"    r = D{i}(x)", "    if r is F: return F", "    out[k] = r", f"kw[{name!r}] = out"]
        elif not generic and origin is dict and args and args[0] is str and args[1] is int:
            body = ["if type(v) is not dict: return F", "for x in v.values():",
                    f"    if not ({int_ok('x', lo, hi)}): return F", f"kw[{name!r}] = dict(v)"]
        else:  # the field's own decoder (its failure: the generic path says why)
            env[f"G{i}"] = decode
            body = ["try:", f"    kw[{name!r}] = G{i}(v, ())", "except VE:", "    return F"]
        lines += ["        " + line for line in body]
    lines.append("    return cls(**kw)")
    exec("\n".join(lines), env)  # noqa: S102 - our own source, built from the model's fields
    fast: Callable[[Any], Any] = env["fast"]
    return fast


def _dataclass_from(cls: type, data: Any, keypath: KeyPath, ignore: frozenset[str] = frozenset()) -> Any:
    made = _fast_of(cls)(data)
    if made is not _FAIL:
        return made
    # (type(...) is dict first: the ABC check of Mapping costs more than the rest of a
    # small table's decoding, and a loaded file holds only dicts)
    if type(data) is not dict and not isinstance(data, Mapping):
        raise ValidationError(keypath, f"expected a table, found {_describe(data)}")
    spec, names, known = _fields_of(cls)
    if not names.issuperset(data.keys()):  # (one C-level check for the common case)
        for k in data:
            if k not in names and k not in ignore:
                raise ValidationError((*keypath, k), f"unknown key {k!r} (known keys: {known})")
    kwargs: dict[str, Any] = {}
    get = data.get
    for name, decode, required in spec:
        value = get(name, _ABSENT)
        if value is not _ABSENT:
            kwargs[name] = decode(value, (*keypath, name))
        elif required:
            raise ValidationError(keypath, f"missing key {name!r}")
    return cls(**kwargs)


# --- campaigns -----------------------------------------------------------------


def campaign_to_data(campaign: m.Campaign) -> dict[str, Any]:
    data = to_data(campaign)
    return {"schema_version": SCHEMA_VERSIONS[CAMPAIGN], **data}


def _unique(items: list[Any], attr: str, keypath: KeyPath, what: str) -> None:
    seen: set[Any] = set()
    for i, item in enumerate(items):
        value = getattr(item, attr)
        if value == "":
            raise ValidationError((*keypath, i, attr), f"{what} {attr} must not be empty")
        if value in seen:
            raise ValidationError((*keypath, i, attr), f"duplicate {what} {attr} {value!r}")
        seen.add(value)


def check_departed_ids(gang: m.Gang, keypath: KeyPath) -> None:
    """The departed (retired, ...) keep their ids, unique, and none is also on the roster
    or among the fallen (ValidationError under ``keypath``)."""
    _unique(gang.departed, "id", (*keypath, "departed"), "departed fighter")
    on_roster = {f.id for f in gang.fighters}
    fallen = {f.id for f in gang.fallen}
    for fi, f in enumerate(gang.departed):
        if f.id in on_roster or f.id in fallen:
            raise ValidationError((*keypath, "departed", fi, "id"),
                                  f"fighter id {f.id!r} is both departed and "
                                  + ("on the roster" if f.id in on_roster else "fallen"))


def validate_campaign(campaign: m.Campaign, raw: Mapping[str, Any] | None = None) -> None:
    """Checks beyond types: ids present and unique, Reputation in the campaign's range
    (never below 0 under Gang War: ``Campaign.check_reputation``)."""
    if campaign.id == "":
        raise ValidationError(("id",), "campaign id must not be empty")
    _unique(campaign.gangs, "id", ("gangs",), "gang")
    for gi, gang in enumerate(campaign.gangs):
        _unique(gang.fighters, "id", ("gangs", gi, "fighters"), "fighter")
        # the fallen keep their ids (the gang's history names them): no fighter reuses one
        _unique(gang.fallen, "id", ("gangs", gi, "fallen"), "fallen fighter")
        on_roster = {f.id for f in gang.fighters}
        for fi, f in enumerate(gang.fallen):
            if f.id in on_roster:
                raise ValidationError(("gangs", gi, "fallen", fi, "id"),
                                      f"fighter id {f.id!r} is both on the roster and fallen")
        check_departed_ids(gang, ("gangs", gi))
        for name in gang.counters:
            if not limits.is_pack_id(name):
                raise ValidationError(("gangs", gi, "counters", name), "a counter's id is "
                                      "lower-case letters, digits, '-' and '_' (its pack's id)")
        try:
            campaign.check_reputation(gang.reputation)
        except limits.LimitError as error:
            raise ValidationError(("gangs", gi, "reputation"), str(error)) from None
    _unique(campaign.battles, "number", ("battles",), "battle")
    try:
        career.check_xp_awards(campaign.settings.xp_awards)
    except ValueError as error:
        raise ValidationError(("settings", "xp_awards"), str(error)) from None
    for name, pack in campaign.settings.from_packs.items():
        if ("Settings", name) not in limits.PACK_CHOICES:
            raise ValidationError(("settings", "from_packs", name), "not a setting a pack "
                                  "supplies (post_battle_ruleset, lasting_injury_table)")
        if not limits.is_pack_id(pack):
            raise ValidationError(("settings", "from_packs", name),
                                  f"{pack!r} is not a pack id (lower-case letters, digits, '-')")


def campaign_from_data(data: Mapping[str, Any]) -> m.Campaign:
    """A Campaign from current-schema plain data (ValidationError if it is wrong)."""
    version = schema_version(data, CAMPAIGN)
    if version != SCHEMA_VERSIONS[CAMPAIGN]:
        raise ValidationError(("schema_version",), f"schema_version {version} needs migrating first")
    campaign = _dataclass_from(m.Campaign, data, (), ignore=frozenset({"schema_version"}))
    validate_campaign(campaign, data)
    return campaign


def load_campaign_data(data: Mapping[str, Any]) -> tuple[m.Campaign, int]:
    """Migrate if needed and decode: (campaign, the version the data had)."""
    current, version = migrate(data, CAMPAIGN)
    return campaign_from_data(current), version


# --- battles -------------------------------------------------------------------


def check_plain(data: Any, keypath: KeyPath = ()) -> None:
    """Plain TOML data only (what tomllib can return minus dates and times)."""
    if isinstance(data, Mapping):
        for k, v in data.items():
            if not isinstance(k, str):
                raise ValidationError(keypath, f"key {k!r} is not a string")
            check_plain(v, (*keypath, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            check_plain(v, (*keypath, i))
    elif type(data) is int:
        if not limits.INT64_MIN <= data <= limits.INT64_MAX:
            raise ValidationError(keypath, f"{limits.show_number(data)} is too large to save")
    elif not isinstance(data, (str, float, bool)):
        raise ValidationError(keypath, f"{_describe(data)} is not allowed here (dates and times are not used)")


def battle_to_data(data: Mapping[str, Any]) -> dict[str, Any]:
    out = {"schema_version": SCHEMA_VERSIONS[BATTLE]}
    out.update((k, v) for k, v in data.items() if k != "schema_version")
    return out


# Convenience for tests and the CLI: which kinds exist.
KINDS = tuple(SCHEMA_VERSIONS)

