"""A gang exported by Yaktribe's gang manager, read into the campaign model.

Pure: takes the already parsed JSON (a dict) and returns a ``rules.model.Gang``
with notes for the player. ``saves.importer`` reads the file from disk.

What real exports look like (``../shared/fixtures/README.md``): the object is
wrapped in ``{"gang": {...}}``; ``credits``, ``reputation``, ``cost``, ``xp``
and ``qty`` arrive as strings while characteristics are integers; equipment
carries only ``name`` and ``qty`` (no cost); a fighter's ``cost`` is its total
(equipment included); ``status`` is ``Alive``, ``Recovery`` or ``Dead``;
``injuries`` is a list of names; Gang Tactics may sit in the free-text
``gang_notes`` with ``\\r\\n`` line ends.

Because the file gives no equipment prices, each imported fighter's ``cost``
is its Yaktribe total and every item's cost is ``None`` (unknown, not 0): the
fighter's rating is then exactly the file's figure, and the notes say so.
"""

from __future__ import annotations

import html
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from munda_tui.rules.core import profile as profile_rules
from munda_tui.rules.core.data import RuleData, given, load_data
from munda_tui.rules.core import limits as limits
from munda_tui.rules.core.model import (
    check_reputation,
    CHARACTERISTICS,
    SPECIAL_KINDS,
    SPECIAL_TERRITORY_RATING,
    Equipment,
    Fighter,
    FighterStatus,
    FighterType,
    Gang,
    GangType,
    LastingInjury,
    Territory,
    gang_rating,
    slugify,
    unique_id,
)


class YaktribeError(ValueError):
    """The data is not a Yaktribe gang export, or a field cannot be read."""


# Gang type as Yaktribe spells it (lower case, "house " dropped) -> model.
_GANG_TYPES: dict[str, GangType] = {
    "cawdor": GangType.CAWDOR,
    "delaque": GangType.DELAQUE,
    "escher": GangType.ESCHER,
    "goliath": GangType.GOLIATH,
    "orlock": GangType.ORLOCK,
    "van saar": GangType.VAN_SAAR,
    "palanite enforcer": GangType.PALANITE_ENFORCERS,
    "palanite enforcers": GangType.PALANITE_ENFORCERS,
    "enforcers": GangType.PALANITE_ENFORCERS,
    "arbites": GangType.ARBITES,
    "chaos cult": GangType.CHAOS_CULTISTS,
    "chaos cultists": GangType.CHAOS_CULTISTS,
    "genestealer cult": GangType.GENESTEALER_CULTISTS,
    "genestealer cultists": GangType.GENESTEALER_CULTISTS,
    "ash waste nomads": GangType.ASH_WASTE_NOMADS,
    "ash wastes nomads": GangType.ASH_WASTE_NOMADS,  # the books' spelling
    "helot chaos cult": GangType.CHAOS_CULTISTS,  # The Book of Ruin's name for the list
    "helot chaos cults": GangType.CHAOS_CULTISTS,
    "genestealer cults": GangType.GENESTEALER_CULTISTS,
    "cogs": GangType.COGS,
    "ratskins": GangType.RATSKINS,
    "ratskin": GangType.RATSKINS,
    "squat salvagers": GangType.SQUAT_SALVAGERS,
    "spyrer hunting party": GangType.SPYRER_HUNTING_PARTY,
    "spyrers": GangType.SPYRER_HUNTING_PARTY,
}

# Fighter type names and words -> roles: data/fighter_roles.toml.


@dataclass(frozen=True)
class _Roles:
    types: dict[str, FighterType]  # every gang's type names (data [types] and [[lists]])
    gangs: dict[str, dict[str, FighterType]]  # gang label -> its own readings ([[gangs]])
    words: tuple[tuple[str, FighterType], ...]
    prefixes: tuple[str, ...]  # House and gang names a type name may start with


def _role_data(rule_data: RuleData | None = None) -> _Roles:
    rule_data = given(rule_data)
    return rule_data.memo("fighter_roles", lambda: _build_roles(rule_data))


def _build_roles(rule_data: RuleData) -> _Roles:
    data = load_data("fighter_roles.toml")
    types = {_name_key(i.id): FighterType(i.data) for i in rule_data.items("fighter_roles")}
    prefixes = set(_GANG_TYPES)
    for item in rule_data.items("fighter_lists"):  # a pack's gang (the Spyrers' types)
        entry = item.data
        for k, v in entry["types"].items():
            types[_name_key(k)] = FighterType(v)
        prefixes.add(_name_key(entry["gang"]))
    gangs: dict[str, dict[str, FighterType]] = {}
    for entry in data.get("gangs", []):
        own = {_name_key(k): FighterType(v) for k, v in entry["types"].items()}
        for label in entry["labels"]:
            gangs[_name_key(label)] = own
            prefixes.add(_name_key(label))
    words = tuple((_name_key(w["word"]), FighterType(w["role"])) for w in data["words"])
    # longest first: "underhive outcasts" before "outcasts"
    return _Roles(types, gangs, words, tuple(sorted(prefixes, key=len, reverse=True)))


def _name_key(text: str) -> str:
    """A type or gang name for matching: :func:`role_key` with curly apostrophes
    straightened (Yaktribe and the books write both)."""
    return role_key(text).replace("\u2019", "'").replace("\u2018", "'")


def _gang_key(label: str) -> str:
    """A gang type label for matching: "House Escher (HoB)" -> "escher"."""
    key = re.sub(r"\s*\([^)]*\)\s*$", "", _name_key(label))
    return key[len("house "):] if key.startswith("house ") else key


_STATUSES: dict[str, FighterStatus] = {
    "alive": FighterStatus.ACTIVE,
    "active": FighterStatus.ACTIVE,
    "recovery": FighterStatus.RECOVERY,
    "in recovery": FighterStatus.RECOVERY,
    "dead": FighterStatus.DEAD,
    "captured": FighterStatus.CAPTURED,
    "retired": FighterStatus.RETIRED,
}

#: A line of the gang notes reads as a Gang Tactics card name when it is short
#: and is not a sentence.
_TACTIC_MAX_WORDS = 6
_SENTENCE_END = re.compile(r"[.:;?]$")


@dataclass
class RatingCheck:
    """The app's Gang Rating beside the one written in the file."""

    computed: int
    file: int | None
    reason: str

    @property
    def matches(self) -> bool:
        return self.file is not None and self.file == self.computed

    @property
    def difference(self) -> int:
        return 0 if self.file is None else self.computed - self.file


@dataclass
class YaktribeImport:
    gang: Gang
    rating: RatingCheck
    notes: list[str] = field(default_factory=list)  # what the player should know
    warnings: list[str] = field(default_factory=list)  # what may need a fix
    source_id: str = ""  # Yaktribe's gang_id
    campaign_name: str = ""  # the campaign named in the file, if any
    # type names the importer could not place -> the fighters who have them;
    # recorded as Ganger until the player picks a role (:func:`assign_roles`)
    unknown_types: dict[str, list[str]] = field(default_factory=dict)

    @property
    def needs_roles(self) -> bool:
        return bool(self.unknown_types)


# ---------------------------------------------------------------- helpers


def _int(value: Any, where: str, *, default: int | None = 0) -> int:
    """An integer from an int or a string of digits (Yaktribe mixes both)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        if default is None:
            raise YaktribeError(f"{where}: missing (a whole number is needed)")
        return default
    if isinstance(value, bool):
        raise YaktribeError(f"{where}: {value!r} is not a whole number")
    if isinstance(value, int):
        return _in_range(value, where)
    if isinstance(value, float) and value.is_integer():
        return _in_range(int(value), where)
    if isinstance(value, str):
        text = value.strip()
        if len(text) <= 30 and re.fullmatch(r"[+-]?\d+", text):
            return _in_range(int(text), where)
        if re.fullmatch(r"[+-]?\d+", text[:40]) and len(text) > 30:
            raise YaktribeError(f"{where}: a {len(text)}-digit number is far too large")
    shown = limits.show_text(value) if isinstance(value, str) else type(value).__name__
    raise YaktribeError(f"{where}: {shown} is not a whole number")


def _in_range(value: int, where: str) -> int:
    try:
        return limits.check_int(value, -limits.ENTRY_MAX * 100, limits.ENTRY_MAX * 100)
    except limits.LimitError as error:
        raise YaktribeError(f"{where}: {error}") from None


def _text(value: Any, where: str) -> str:
    """Text as the player wrote it: HTML entities decoded (Yaktribe writes
    ``&amp;``, ``&rsquo;``, ``&ldquo;`` into names and notes)."""
    if value is None:
        return ""
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        text = html.unescape(str(value)).strip()
        try:
            return limits.check_text(text)
        except limits.LimitError as error:
            raise YaktribeError(f"{where}: the text {error}") from None
    raise YaktribeError(f"{where}: expected text, found {type(value).__name__}")


def _list(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise YaktribeError(f"{where}: expected a list, found {type(value).__name__}")
    return value


def _names(value: Any, where: str) -> list[str]:
    """A list of names; entries may be strings or objects with a ``name``."""
    names = []
    for i, entry in enumerate(_list(value, where)):
        if isinstance(entry, dict):
            entry = entry.get("name")
        name = _text(entry, f"{where}[{i}]")
        if name:
            names.append(name)
    return names


def gang_type_from_label(label: str) -> GangType | None:
    """``"Orlock"``, ``"House Orlock"``, ``"Orlock (HoI)"`` (a book suffix) -> Orlock."""
    key = re.sub(r"\s*\([^)]*\)\s*$", "", label.strip().lower())
    if key.startswith("house "):
        key = key[len("house "):]
    return _GANG_TYPES.get(key)


def role_key(label: str) -> str:
    """How a type name is matched and remembered: case and spacing ignored."""
    return re.sub(r"\s+", " ", html.unescape(str(label)).strip().lower())


def fighter_type_from_label(label: str, known: Mapping[str, FighterType] | None = None,
                            gang: str = "", data: RuleData | None = None) -> FighterType | None:
    """The role of a fighter type name: the campaign's remembered answers
    (``known``, keyed by :func:`role_key`), then the names of
    data/fighter_roles.toml, the readings of the gang (``gang``: its type as
    the export writes it) first (a leading House or gang name ignored:
    "Orlock Road Captain", "House Escher Khymerix"), then a word in the name.
    None when it cannot tell."""
    key = role_key(label)
    if known and key in known:
        return FighterType(known[key])
    roles = _role_data(data)
    name = _name_key(label)
    names = [name]
    bare = name[len("house "):] if name.startswith("house ") else name
    for prefix in roles.prefixes:
        if bare.startswith(prefix + " "):
            names.append(bare[len(prefix) + 1:])
            break
    own = roles.gangs.get(_gang_key(gang), {}) if gang else {}
    for table in (own, roles.types):
        for candidate in names:
            if candidate in table:
                return table[candidate]
    for word, ftype in roles.words:
        if word in name:
            return ftype
    return None


#: The roles a player can give a type name, in the order the import asks.
ROLES: tuple[FighterType, ...] = tuple(FighterType)


def parse_role(text: str) -> FighterType:
    """``"hanger-on"`` / ``"Hired Gun"`` -> the role (YaktribeError listing them)."""
    key = role_key(text).replace("_", " ")
    for role in ROLES:
        if key in (role.value.lower(), role.name.lower().replace("_", " ")):
            return role
    raise YaktribeError(f"{limits.show_text(text)} is not a role; one of: {', '.join(r.value for r in ROLES)}")


def roles_question(result: "YaktribeImport") -> str:
    """The unknown type names as a question the CLI prints (and the screen asks)."""
    n = len(result.unknown_types)
    lines = [f"{n} fighter type{'s' if n != 1 else ''} the app cannot place: give "
             f"{'each' if n != 1 else 'it'} a role (asked once, remembered in the campaign)."]
    for label, names in result.unknown_types.items():
        lines.append(f"  {label}: {', '.join(names)}")
    lines.append("Roles: " + ", ".join(r.value for r in ROLES) + ".")
    first = next(iter(result.unknown_types), "Type")
    lines.append(f'Run again with --role "{first}=Hanger-on" (one per type name), or with '
                 "--assume-ganger to record them as Gangers.")
    return "\n".join(lines)


def assign_roles(result: "YaktribeImport", roles: Mapping[str, FighterType]) -> None:
    """Give the fighters of each unknown type name the role the player chose
    (``roles`` keyed by the type name or its :func:`role_key`)."""
    chosen = {role_key(k): FighterType(v) for k, v in roles.items()}
    given = {}
    for label in list(result.unknown_types):
        role = chosen.get(role_key(label))
        if role is not None:
            given[role_key(label)] = role
            del result.unknown_types[label]
    if given:  # one pass over the fighters, however many type names were answered
        for f in result.gang.fighters + result.gang.fallen:  # (the file's dead: the fallen)
            role = given.get(role_key(f.label))
            if role is not None:
                f.type = role


def split_gang_notes(notes: str) -> tuple[list[str], str]:
    """Gang Tactics card names found in free-text notes, and the rest.

    Each short line that is not a sentence is read as a card name
    ("Bait and Switch", "...Click!"); longer lines stay as notes.
    """
    tactics: list[str] = []
    rest: list[str] = []
    for raw in notes.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.strip()
        if not line:
            continue
        words = line.split()
        is_card = len(words) <= _TACTIC_MAX_WORDS and not _SENTENCE_END.search(line)
        (tactics if is_card else rest).append(line)
    return tactics, "\n".join(rest)


def _equipment(value: Any, where: str) -> list[Equipment]:
    items = []
    for i, entry in enumerate(_list(value, where)):
        here = f"{where}[{i}]"
        if isinstance(entry, str):
            entry = {"name": entry}
        if not isinstance(entry, dict):
            raise YaktribeError(f"{here}: expected an item, found {type(entry).__name__}")
        name = _text(entry.get("name"), f"{here}.name")
        if not name:
            raise YaktribeError(f"{here}: an item without a name")
        qty = _int(entry.get("qty"), f"{here}.qty", default=1)
        if qty < 1:
            raise YaktribeError(f"{here}.qty: {qty} is not a quantity")
        cost = None
        if entry.get("cost") not in (None, ""):
            cost = _int(entry.get("cost"), f"{here}.cost")
        item = Equipment(name=name, cost=cost, qty=qty)
        traits = entry.get("traits")
        if isinstance(traits, str):
            traits = [t for t in re.split(r"\s*,\s*", traits) if t]
        if isinstance(traits, list) and traits:
            # newer exports: weapon traits per item (Rapid Fire, Unwieldy, ...)
            names = [_text(t.get("name") if isinstance(t, dict) else t, f"{here}.traits").lower()
                     for t in traits]
            item.set_kind("Unwieldy weapon" if any(n.startswith("unwieldy") for n in names)
                          else "weapon")
        items.append(item)
    return items


class _FighterIds:
    """Fighter ids as :func:`model.unique_id` gives them ("name", "name-2", ...),
    in linear time: one set of the ids given, and per name the next number to try
    (a gang of fighters all named alike costs one probe each, not one per earlier
    namesake)."""

    def __init__(self) -> None:
        self.taken: set[str] = set()
        self.next: dict[str, int] = {}

    def new(self, name: str) -> str:
        slug = slugify(name)
        fid = slug
        if fid in self.taken:
            n = self.next.get(slug, 2)
            while f"{slug}-{n}" in self.taken:
                n += 1
            self.next[slug] = n + 1
            fid = f"{slug}-{n}"
        self.taken.add(fid)
        return fid


# ---------------------------------------------------------------- import


def unwrap(data: Any) -> dict[str, Any]:
    """The gang object of an export, or YaktribeError for anything else."""
    if not isinstance(data, dict):
        raise YaktribeError(
            "not a Yaktribe gang export: the file holds a "
            f"{type(data).__name__}, not an object with a \"gang\""
        )
    gang = data.get("gang", data)
    if not isinstance(gang, dict) or "gang_name" not in gang or "gangers" not in gang:
        found = ", ".join(sorted(map(str, data)))[:120] or "nothing"
        raise YaktribeError(
            "not a Yaktribe gang export: expected {\"gang\": {\"gang_name\": ..., "
            f"\"gangers\": [...]}}, found keys: {found}"
        )
    return gang


def gang_from_yaktribe(data: Any, *, taken_ids: Collection[str] = (),
                       roles: Mapping[str, FighterType] | None = None,
                       ruleset: str = "", rule_data: RuleData | None = None) -> YaktribeImport:
    """Read a parsed Yaktribe export. Raises YaktribeError, changes nothing.
    ``roles``: the campaign's remembered role per type name (``role_key``); ``ruleset``:
    the campaign's post-battle ruleset, whose range its Reputation takes
    (``model.check_reputation``: below 0 is kept under Turf War 2017 only); the default
    ruleset's when not given. ``rule_data``: the packs in force (a pack's fighter roles:
    the types of a gang the package does not know)."""
    if not ruleset:
        from ..core.rulesets import default_ruleset

        ruleset = default_ruleset()
    g = unwrap(data)
    notes: list[str] = []
    warnings: list[str] = []

    name = _text(g.get("gang_name"), "gang_name")
    if not name:
        raise YaktribeError("gang_name: the gang has no name")
    try:
        limits.check_name(name, "gang name")
    except limits.LimitError as error:
        raise YaktribeError(f"gang_name: {error}") from None
    type_label = _text(g.get("gang_type"), "gang_type")
    gtype = gang_type_from_label(type_label)
    if gtype is None:
        gtype = GangType.OTHER
        warnings.append(
            f"Gang type {limits.show_text(type_label)} is not one the app knows: recorded as Other."
        )

    credits = _int(g.get("credits"), "credits")
    if credits < 0:
        raise YaktribeError(f"credits: {credits} is negative")
    reputation = _int(g.get("reputation"), "reputation")
    try:
        check_reputation(ruleset, reputation)
    except limits.LimitError as error:  # "Reputation is never below 0 under Gang War (found -2)"
        if reputation >= 0:
            raise YaktribeError(f"reputation: {error}") from None
        warnings.append(f"{error}: recorded as 0.")
        reputation = 0
    file_rating = None
    if g.get("gang_rating") not in (None, ""):
        file_rating = _int(g.get("gang_rating"), "gang_rating")

    territories = [Territory(name=t) for t in _names(g.get("territories"), "territories")]
    if territories:
        notes.append(
            "Territories imported as ordinary Turf: mark any Special Territory "
            "in the roster (it adds 50 credits to the Gang Rating)."
        )
    stash = _equipment(g.get("stash"), "stash")

    gang_notes = _text(g.get("gang_notes"), "gang_notes")
    tactics, rest = split_gang_notes(gang_notes)
    if tactics:
        notes.append(
            f"{len(tactics)} Gang Tactics read from the gang notes: "
            + ", ".join(tactics) + "."
        )
    source_id = _text(g.get("gang_id"), "gang_id")
    about = [f"Imported from Yaktribe gang {source_id}".rstrip() + "."]
    for key, label in (("url", "Yaktribe page"), ("gang_type", "Yaktribe gang type"),
                       ("alignment", "Alignment"), ("allegiance", "Allegiance")):
        value = _text(g.get(key), key)
        if value:
            about.append(f"{label}: {value}")
    if file_rating is not None:
        about.append(f"Gang Rating in the file: {file_rating}")
    meat = _text(g.get("meat"), "meat")
    if meat and meat != "0":
        about.append(f"Meat: {meat}")
    gang_text = "\n".join(about + ([rest] if rest else []))

    gangers = _list(g.get("gangers"), "gangers")
    if len(gangers) > limits.GANG_FIGHTERS_MAX:
        raise YaktribeError(
            f"gangers: the file lists {len(gangers)} fighters; a gang holds at most "
            f"{limits.GANG_FIGHTERS_MAX} in munda-tui (a real gang has a few dozen at most)"
        )
    fighters: list[Fighter] = []
    ids = _FighterIds()
    unknown_items = 0
    unknown_types: dict[str, list[str]] = {}
    for i, raw in enumerate(gangers):
        here = f"gangers[{i}]"
        if not isinstance(raw, dict):
            raise YaktribeError(f"{here}: expected a fighter, found {type(raw).__name__}")
        fname = _text(raw.get("name"), f"{here}.name")
        if not fname:
            raise YaktribeError(f"{here}: a fighter without a name")
        try:
            limits.check_name(fname, "fighter's name")
        except limits.LimitError as error:
            raise YaktribeError(f"{here}.name: {error}") from None
        here = f"fighter {fname!r}"
        label = _text(raw.get("type"), f"{here} type")
        ftype = fighter_type_from_label(label, roles, type_label, rule_data)
        if ftype is None:
            ftype = FighterType.GANGER
            unknown_types.setdefault(label, []).append(fname)
        status_text = _text(raw.get("status"), f"{here} status")
        status = _STATUSES.get(status_text.lower())
        if status is None:
            status = FighterStatus.ACTIVE
            if status_text:
                warnings.append(
                    f"{fname}: status {limits.show_text(status_text)} not recognised, recorded as active."
                )
        chars: dict[str, int] = {}
        beyond: list[str] = []
        for key in CHARACTERISTICS:
            if key in raw:
                field_ = profile_rules.LABELS[key]
                value = raw[key]
                if (profile_rules.is_target(key) and isinstance(value, str)
                        and value.strip().endswith("+")):
                    value = value.strip()[:-1]  # "3+" as a card prints it
                stat = _int(value, f"{here} {field_}")
                if stat == 0:  # Yaktribe writes 0 for "-" (e.g. a familiar's BS)
                    continue
                try:  # only what cannot be read stops the import: fighter, field, value
                    chars[key] = profile_rules.check_value(key, stat)
                except profile_rules.ProfileError as exc:
                    raise YaktribeError(f"{here}: {exc}") from None
                odd = profile_rules.unusual(key, stat)
                if odd:
                    beyond.append(odd)
        if beyond:
            # kept as it is: advancements, skills or special rules reach it (a Nacht-Ghul's
            # WS 1+); the import's notes name it
            notes.append(f"{fname}: {'; '.join(beyond)}: kept as in the file (advancements, "
                         "skills or special rules can take a characteristic there).")
        missing = [k.upper() for k in CHARACTERISTICS if k not in raw]
        if missing:
            warnings.append(f"{fname}: no {', '.join(missing)} in the file.")
        equipment = _equipment(raw.get("equipment"), f"{here} equipment")
        unknown_items += sum(1 for e in equipment if e.cost is None)
        values = {}
        for key in ("cost", "xp", "advance_count", "kills"):
            values[key] = _int(raw.get(key), f"{here} {key}")
            if values[key] < 0:
                raise YaktribeError(f"{here} {key}: {values[key]} is negative")
        fid = ids.new(fname)
        fighters.append(
            Fighter(
                id=fid,
                name=fname,
                type=ftype,
                label=label,
                cost=values["cost"],
                xp=values["xp"],
                advancements=values["advance_count"],
                kills=values["kills"],
                skills=_names(raw.get("skills"), f"{here} skills"),
                equipment=equipment,
                injuries=[
                    LastingInjury(name=n)
                    for n in _names(raw.get("injuries"), f"{here} injuries")
                ],
                status=status,
                characteristics=chars,
                notes=_text(raw.get("notes"), f"{here} notes"),
            )
        )
    kinds_unknown = sum(1 for f in fighters for e in f.equipment if e.kind == "wargear")
    if kinds_unknown and not any(e.weapon for f in fighters for e in f.equipment):
        notes.append(
            f"The file does not say which items are weapons ({kinds_unknown} items recorded "
            "as wargear): set each weapon's kind in the roster ({key:roster.edit_item}) so the "
            "weapon limit of "
            "Distribute Equipment counts it."
        )
    if unknown_items:
        notes.append(
            f"{unknown_items} equipment lines have no cost in the file: recorded as "
            "cost unknown. Each fighter's cost is Yaktribe's total, equipment included."
        )

    gang = Gang(
        id=unique_id(name, taken_ids),
        name=name,
        type=gtype,
        credits=credits,
        reputation=reputation,
        territories=territories,
        stash=stash,
        tactics=tactics,
        fighters=fighters,
        notes=gang_text,
    )
    return YaktribeImport(
        gang=gang,
        rating=compare_rating(gang, file_rating),
        notes=notes,
        warnings=warnings,
        source_id=source_id,
        campaign_name=_text(g.get("campaign"), "campaign"),
        unknown_types=unknown_types,
    )


# ---------------------------------------------------------------- rating


def _names_of(fighters: list[Fighter]) -> str:
    names = [f.name for f in fighters]
    if len(names) > 3:
        return ", ".join(names[:3]) + f" and {len(names) - 3} more"
    return ", ".join(names)


def compare_rating(gang: Gang, file_rating: int | None) -> RatingCheck:
    """The computed Gang Rating beside the file's, with the reason they differ.

    Seed 004 (Update Gang Rating): fighters on the roster except the Captured,
    plus 50 credits per Special Territory. The reason is sought among the
    usual causes (counting dead, captured or recovering fighters, Special
    Territories), alone or combined.
    """
    computed = gang_rating(gang)
    counted = [
        f for f in gang.fighters
        if f.status not in (FighterStatus.CAPTURED, FighterStatus.DEAD, FighterStatus.RETIRED)
    ]
    dead = list(gang.fallen)  # (a dead fighter in the file is among the gang's fallen)
    gone = [f for f in gang.departed if f.status is FighterStatus.RETIRED]  # (off the roster)
    captured = [f for f in gang.fighters if f.status is FighterStatus.CAPTURED]
    recovering = [f for f in gang.fighters if f.status is FighterStatus.RECOVERY]
    specials = [t for t in gang.territories if t.kind in SPECIAL_KINDS]
    basis = (
        f"the ratings of {len(counted)} fighters"
        + (f" + {SPECIAL_TERRITORY_RATING} x {len(specials)} Special Territories"
           if specials else "")
    )
    left_out = []
    if dead:
        left_out.append(f"{len(dead)} dead")
    if gone:
        left_out.append(f"{len(gone)} retired")
    if captured:
        left_out.append(f"{len(captured)} Captured")
    if left_out:
        basis += " (not counting " + ", ".join(left_out) + ")"
    if file_rating is None:
        return RatingCheck(computed, None, f"The file gives no Gang Rating; computed from {basis}.")
    if computed == file_rating:
        return RatingCheck(computed, file_rating, f"Matches the file: {basis}.")

    # computed - file = sum of the chosen explanations' effects
    causes: list[tuple[int, str]] = []
    if dead:
        causes.append((-sum(f.rating for f in dead),
                       f"the file still counts the dead ({_names_of(dead)})"))
    if gone:
        causes.append((-sum(f.rating for f in gone),
                       f"the file still counts the retired ({_names_of(gone)})"))
    if captured:
        causes.append((-sum(f.rating for f in captured),
                       f"the file counts Captured fighters ({_names_of(captured)}), "
                       "the rules do not"))
    if recovering:
        causes.append((sum(f.rating for f in recovering),
                       f"the file leaves out fighters in Recovery ({_names_of(recovering)}), "
                       "the rules count them"))
    if specials:
        causes.append((SPECIAL_TERRITORY_RATING * len(specials),
                       f"the app adds {SPECIAL_TERRITORY_RATING} credits for each Special "
                       f"Territory ({', '.join(t.name for t in specials)})"))
    diff = computed - file_rating
    for size in range(1, len(causes) + 1):
        for combo in combinations(causes, size):
            if sum(effect for effect, _ in combo) == diff:
                reason = "; ".join(text for _, text in combo)
                return RatingCheck(
                    computed, file_rating,
                    f"Differs by {diff:+d}: {reason}. Computed from {basis}.",
                )
    return RatingCheck(
        computed, file_rating,
        f"Differs by {diff:+d} with no simple cause: the file's rating may be older "
        "than its roster (Yaktribe updates it when the gang is saved) or include "
        f"items the app cannot see. Computed from {basis}.",
    )
