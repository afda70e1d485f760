"""Roster edits: pure functions on ``rules.model.Gang``.

Forms hand in what the player typed (strings); ``validate_*`` return the
parsed values or a dict of per-field errors, so a screen can show each error
next to its field. The edit functions mutate the gang they are given and
raise ``RosterError`` for an edit the rules do not allow.

Equipment moves follow seed 004 (Update Roster, Distribute Equipment):
equipment is never moved between two fighter cards directly, only from a
fighter card to the Stash or from the Stash to a fighter card, and a
fighter's Rating changes by the item's credit value as it moves. Retiring
(Delete Retiring Fighters): a Hired Gun takes their equipment with them, any
other fighter's equipment is recovered to the Stash.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from munda_tui.rules.core import profile as profile_rules
from munda_tui.rules.core import limits as limits
from munda_tui.rules.core.model import (
    check_reputation,
    CHARACTERISTICS,
    Equipment,
    Fighter,
    FighterStatus,
    FighterType,
    Gang,
    GangType,
    LastingInjury,
    ITEM_KINDS,
    WARGEAR,
    WEAPON_LIMIT,
    Territory,
    TerritoryKind,
    unique_id,
)

#: The owner id of the gang's Stash in equipment moves.
STASH = "stash"

#: How a fighter or item added in the roster is paid for: bought/hired now (the cost
#: comes out of the Stash) or free (found, given, or already on the roster before).
BOUGHT, FREE = "bought", "free"
PAID_CHOICES: tuple[tuple[str, str], ...] = (
    ("Bought now: pay from the Stash", BOUGHT),
    ("Free (found, or paid already)", FREE),
)

#: Fighter types whose equipment leaves with them when they retire.
HIRED = frozenset({FighterType.HIRED_GUN, FighterType.BOUNTY_HUNTER, FighterType.DRAMATIS_PERSONAE})

#: Statuses that no longer hold equipment on the roster.
OFF_ROSTER = frozenset({FighterStatus.DEAD, FighterStatus.RETIRED})



class RosterError(ValueError):
    """An edit the rules or the roster do not allow."""


Errors = dict[str, str]


# ---------------------------------------------------------------- parsing


def parse_count(
    text: str, *, minimum: int = 0, blank: int | None = None, field: tuple[str, str] | None = None
) -> int:
    """A whole number >= minimum from what the player typed; ValueError with
    the message to show. ``field`` (model class, field name) also applies its
    range from ``rules.limits``, as loading a save does."""
    text = str(text).strip()
    if not text:
        if blank is None:
            raise ValueError("required")
        return blank
    if len(text) > 30 or not re.fullmatch(r"[+-]?\d+", text):
        if re.fullmatch(r"[+-]?\d+", text):
            raise ValueError(f"a {len(text.lstrip('+-'))}-digit number is out of range")
        raise ValueError(f"{limits.show_text(text)} is not a whole number")
    value = int(text)
    if value < minimum:
        raise ValueError("cannot be negative" if minimum == 0 else f"at least {minimum}")
    span = limits.RANGES.get(field) if field is not None else None
    if span is not None and not span[0] <= value <= span[1]:
        raise ValueError(f"{limits.show_number(value)} is out of range ({span[0]} to {span[1]})")
    return value


def parse_characteristic(key: str, text: str) -> int | None:
    """A plain number (``"4"``, M S T W I A) or a target number (``"3+"``, or
    ``"3"`` read as 3+: WS BS Ld Cl Wil Int); ``"-"``: none (None).
    Only what cannot be read is refused (:func:`rules.profile.check_value`); a value
    beyond the usual range is kept (issue 31: the game can reach it)."""
    return profile_rules.parse_value(key, text)  # ProfileError is a ValueError


def split_list(text: str) -> list[str]:
    """Comma- or line-separated names, blanks dropped."""
    return [part.strip() for part in re.split(r"[,\n]", str(text)) if part.strip()]


def _count(text: str, key: str) -> int:
    return parse_count(text, blank=0, field=("Fighter", key))


def _enum(enum_type: type[Enum], text: str) -> Any:
    key = str(text).strip().lower()
    for member in enum_type:
        if key in (member.value.lower(), member.name.lower()):
            return member
    choices = ", ".join(m.value for m in enum_type)
    raise ValueError(f"one of: {choices}")


# ---------------------------------------------------------------- fighters


@dataclass
class FighterValues:
    """A validated fighter form."""

    name: str
    type: FighterType
    label: str = ""
    cost: int = 0
    xp: int = 0
    advancements: int = 0
    kills: int = 0
    status: FighterStatus = FighterStatus.ACTIVE
    skills: list[str] = field(default_factory=list)
    injuries: list[str] = field(default_factory=list)
    characteristics: dict[str, int] = field(default_factory=dict)
    notes: str = ""
    hired: bool = False  # a new fighter hired now: the cost comes out of the Stash


#: The fighter form's field names, in order (characteristics by their keys).
FIGHTER_FIELDS: tuple[str, ...] = (
    "name", "type", "label", "status", "cost", "xp", "advancements", "kills",
    *CHARACTERISTICS, "skills", "injuries", "notes",
)


def fighter_form(fighter: Fighter | None = None) -> dict[str, str]:
    """The form's initial text for a fighter (or a new one)."""
    if fighter is None:
        return {
            "name": "", "type": FighterType.GANGER.value, "label": "",
            "status": FighterStatus.ACTIVE.value, "cost": "0", "xp": "0",
            "advancements": "0", "kills": "0",
            **{k: "" for k in CHARACTERISTICS}, "skills": "", "injuries": "", "notes": "",
            "paid": BOUGHT,
        }
    return {
        "name": fighter.name,
        "type": fighter.type.value,
        "label": fighter.label,
        "status": fighter.status.value,
        "cost": str(fighter.cost),
        "xp": str(fighter.xp),
        "advancements": str(fighter.advancements),
        "kills": str(fighter.kills),
        **{k: profile_rules.format_value(k, fighter.characteristics[k])
           if k in fighter.characteristics else "" for k in CHARACTERISTICS},
        "skills": ", ".join(fighter.skills),
        "injuries": ", ".join(i.name for i in fighter.injuries),
        "notes": fighter.notes,
    }


def validate_fighter(
    gang: Gang, form: Mapping[str, str], fighter_id: str | None = None
) -> tuple[FighterValues | None, Errors]:
    """Check every field of a fighter form. ``fighter_id``: the fighter being
    edited (its own name does not clash with itself)."""
    errors: Errors = {}

    def get(key: str) -> str:
        return str(form.get(key, "")).strip()

    name = get("name")
    if not name:
        errors["name"] = "A fighter needs a name"
    elif len(name) > limits.NAME_MAX:
        errors["name"] = f"Keep the name to {limits.NAME_MAX} characters (it has {len(name)})"
    else:
        for f in gang.fighters:
            if f.id != fighter_id and f.name.strip().lower() == name.lower():
                errors["name"] = f"{gang.name} already has a fighter named {f.name}"
                break

    def parsed(key: str, fn: Callable[[str], Any], label: str) -> Any:
        try:
            return fn(get(key))
        except ValueError as exc:
            errors[key] = f"{label}: {exc}"
            return None

    ftype = parsed("type", lambda t: _enum(FighterType, t), "Type")
    status = parsed("status", lambda t: _enum(FighterStatus, t), "Status")
    counts = {
        key: parsed(key, functools.partial(_count, key=key), label)
        for key, label in (("cost", "Cost"), ("xp", "XP"),
                           ("advancements", "Advancements"), ("kills", "Kills"))
    }
    chars: dict[str, int] = {}
    for key in CHARACTERISTICS:
        if get(key):
            try:  # the message names the characteristic (WS is a target number ...)
                value = parse_characteristic(key, get(key))
            except ValueError as exc:
                errors[key] = str(exc)
                continue
            if value is not None:
                chars[key] = value
    if errors:
        return None, errors
    return (
        FighterValues(
            name=name,
            type=ftype,
            label=get("label"),
            cost=counts["cost"],
            xp=counts["xp"],
            advancements=counts["advancements"],
            kills=counts["kills"],
            status=status,
            skills=split_list(get("skills")),
            injuries=split_list(get("injuries")),
            characteristics=chars,
            notes=str(form.get("notes", "")).strip(),
            hired=str(form.get("paid", FREE)) == BOUGHT and fighter_id is None,
        ),
        {},
    )


def _injuries(names: list[str], old: list[LastingInjury]) -> list[LastingInjury]:
    """Keep the details of injuries still listed (by name, in order)."""
    pool = list(old)
    out = []
    for name in names:
        match = next((i for i in pool if i.name == name), None)
        if match is not None:
            pool.remove(match)
            out.append(match)
        else:
            out.append(LastingInjury(name=name))
    return out


def add_fighter(gang: Gang, values: FighterValues, *, paid: bool = False) -> Fighter:
    """Put a fighter on the roster. ``paid``: hired, so the fighter's cost comes
    out of the Stash (a founding gang spends its starting credits the same way).
    A gang holds at most ``limits.GANG_FIGHTERS_MAX`` fighters (as an import does)."""
    if len(gang.fighters) >= limits.GANG_FIGHTERS_MAX:
        raise RosterError(
            f"{gang.name} has {len(gang.fighters)} fighters on its roster, the most a gang "
            f"holds in munda-tui: delete one to add another"
        )
    _check_unique(gang, values.name, None)
    if paid:
        pay(gang, values.cost, f"Hiring {values.name}")
    fighter = Fighter(
        id=unique_id(values.name, gang.fighter_ids()),
        name=values.name,
        type=values.type,
        label=values.label,
        cost=values.cost,
        xp=values.xp,
        advancements=values.advancements,
        kills=values.kills,
        skills=list(values.skills),
        injuries=[LastingInjury(name=n) for n in values.injuries],
        status=values.status,
        characteristics=dict(values.characteristics),
        notes=values.notes,
    )
    gang.fighters.append(fighter)
    return fighter


def update_fighter(gang: Gang, fighter_id: str, values: FighterValues) -> Fighter:
    fighter = gang.fighter(fighter_id)
    _check_unique(gang, values.name, fighter_id)
    fighter.name = values.name
    fighter.type = values.type
    fighter.label = values.label
    fighter.cost = values.cost
    fighter.xp = values.xp
    fighter.advancements = values.advancements
    fighter.kills = values.kills
    if values.status is not fighter.status:  # set by hand: no battle, no reason recorded
        from munda_tui.rules.campaign.career import set_status

        set_status(fighter, values.status, "set on the roster",
                   captured_by=fighter.captured_by)
        if fighter.status is FighterStatus.DEAD:  # seed 004: the dead leave the roster
            gang.bury(fighter.id)
    fighter.skills = list(values.skills)
    fighter.injuries = _injuries(values.injuries, fighter.injuries)
    fighter.characteristics = dict(values.characteristics)
    fighter.notes = values.notes
    return fighter


def _check_unique(gang: Gang, name: str, fighter_id: str | None) -> None:
    for f in gang.fighters:
        if f.id != fighter_id and f.name.strip().lower() == name.strip().lower():
            raise RosterError(f"{gang.name} already has a fighter named {f.name}")


def retire_fighter(gang: Gang, fighter_id: str, *, to_pool: bool = False) -> list[Equipment]:
    """Seed 004, Delete Retiring Fighters: the fighter leaves the roster (kept
    apart as Retired, in ``Gang.departed``); a non-Hired Gun's equipment is recovered to the Stash, a
    Hired Gun takes theirs. ``to_pool``: the fighter leaves to become a Merc or
    Bounty Hunter (agreed with the Arbitrator) and takes their equipment: lost
    (Retiring Fighters Equipment Retention). Returns the items recovered."""
    fighter = _on_roster(gang, fighter_id)
    if fighter.status in OFF_ROSTER:
        raise RosterError(f"{fighter.name} is already {fighter.status.value}")
    recovered: list[Equipment] = []
    if fighter.type not in HIRED and not to_pool:
        recovered = fighter.equipment
        fighter.equipment = []
        for item in recovered:
            _add_item(gang.stash, item)
    fighter.status = FighterStatus.RETIRED
    fighter.status_why = "left to become a Merc or Bounty Hunter" if to_pool else "retired"
    # "All retiring fighters are removed from the gang's roster now" (kept apart: departed)
    gang.depart(fighter.id)
    return recovered


def _on_roster(gang: Gang, fighter_id: str) -> Fighter:
    """The fighter, on the roster or among the fallen and the departed (whose status says
    they are off it: the callers refuse them with a RosterError)."""
    try:
        return gang.fighter(fighter_id)
    except KeyError:
        return gang.member(fighter_id)


def delete_fighter(gang: Gang, fighter_id: str) -> Fighter:
    """Remove a fighter card entirely (a mistake, not a rule): the card's
    equipment goes with it."""
    fighter = gang.fighter(fighter_id)
    gang.fighters.remove(fighter)
    return fighter


# ---------------------------------------------------------------- equipment


def equipment_form(item: Equipment | None = None) -> dict[str, str]:
    if item is None:
        return {"name": "", "kind": WARGEAR, "cost": "", "qty": "1", "paid": BOUGHT}
    return {"name": item.name, "kind": item.kind,
            "cost": "" if item.cost is None else str(item.cost), "qty": str(item.qty)}


def validate_equipment(form: Mapping[str, str]) -> tuple[Equipment | None, Errors]:
    """Name required; kind one of ITEM_KINDS; cost blank or ``?`` = unknown,
    else credits >= 0; quantity >= 1."""
    errors: Errors = {}
    name = str(form.get("name", "")).strip()
    if not name:
        errors["name"] = "An item needs a name"
    cost_text = str(form.get("cost", "")).strip()
    cost = None
    if cost_text not in ("", "?"):
        try:
            cost = parse_count(cost_text, field=("Equipment", "cost"))
        except ValueError as exc:
            errors["cost"] = f"Cost: {exc} (leave blank if unknown)"
    qty = 1
    try:
        qty = parse_count(str(form.get("qty", "")), minimum=1, blank=1, field=("Equipment", "qty"))
    except ValueError as exc:
        errors["qty"] = f"Quantity: {exc}"
    kind = str(form.get("kind", "") or WARGEAR).strip()
    if kind not in ITEM_KINDS:
        errors["kind"] = f"Kind: one of {', '.join(ITEM_KINDS)}"
    if str(form.get("paid", FREE)) == BOUGHT and cost is None and "cost" not in errors:
        errors["cost"] = "Cost: a bought item is paid from the Stash: enter its cost"
    if errors:
        return None, errors
    item = Equipment(name=name, cost=cost, qty=qty)
    item.set_kind(kind)
    return item, {}


def pay(gang: Gang, amount: int, what: str) -> None:
    """Take ``amount`` credits from the Stash (hiring, buying, founding the gang)."""
    if amount > gang.credits:
        raise RosterError(f"{what} costs {amount} credits; the Stash holds {gang.credits}")
    gang.credits -= amount


def check_weapons(fighter: Fighter, item: Equipment) -> None:
    """Seed 004, Distribute Equipment: no fighter carries more than three
    weapons, an Unwieldy weapon counting as two."""
    if not item.weapon:
        return
    after = fighter.weapon_count + item.weapon_slots
    if after > WEAPON_LIMIT:
        raise RosterError(
            f"{fighter.name} carries {fighter.weapon_count} weapon"
            f"{'s' if fighter.weapon_count != 1 else ''}; {item.name} would make {after}: "
            f"the limit is {WEAPON_LIMIT}, an Unwieldy weapon counting 2 (seed 004, "
            "Distribute Equipment)")


def holder(gang: Gang, owner: str) -> list[Equipment]:
    """The equipment list of a fighter id or of the Stash."""
    if owner == STASH:
        return gang.stash
    return gang.fighter(owner).equipment


def _same_item(a: Equipment, b: Equipment) -> bool:
    return replace(a, qty=1) == replace(b, qty=1)


def _add_item(items: list[Equipment], item: Equipment) -> None:
    for existing in items:
        if _same_item(existing, item):
            existing.qty += item.qty
            return
    items.append(item)


def _check_holder(gang: Gang, owner: str) -> None:
    if owner != STASH:
        fighter = _on_roster(gang, owner)
        if fighter.status in OFF_ROSTER:
            raise RosterError(f"{fighter.name} is {fighter.status.value}: no longer on the roster")


def add_equipment(gang: Gang, owner: str, item: Equipment, *, paid: bool = False,
                  override: bool = False) -> None:
    """Put a new item on a fighter card or in the Stash. ``paid``: bought, so
    its cost comes out of the Stash's credits. A fighter's weapons stay within
    the limit unless the Arbitrator ``override``s it."""
    _check_holder(gang, owner)
    if item.qty < 1:
        raise RosterError("quantity must be at least 1")
    if owner != STASH and not override:
        check_weapons(gang.fighter(owner), item)
    if paid:
        if item.cost is None:
            raise RosterError(f"{item.name}: enter its cost to pay for it from the Stash")
        pay(gang, item.value, item.name)
    _add_item(holder(gang, owner), replace(item))


def update_equipment(gang: Gang, owner: str, index: int, item: Equipment) -> Equipment:
    """Correct an item already added (name, kind, cost, quantity)."""
    items = holder(gang, owner)
    if not 0 <= index < len(items):
        raise RosterError("no such item")
    old = items[index]
    if owner != STASH:
        fighter = gang.fighter(owner)
        others = fighter.weapon_count - old.weapon_slots
        if item.weapon and others + item.weapon_slots > WEAPON_LIMIT:
            raise RosterError(f"{fighter.name} would carry {others + item.weapon_slots} weapons: "
                              f"the limit is {WEAPON_LIMIT}, an Unwieldy weapon counting 2 "
                              "(seed 004, Distribute Equipment)")
    new = replace(old, name=item.name, cost=item.cost, qty=item.qty)
    new.set_kind(item.kind)
    items[index] = new
    return new


def remove_equipment(gang: Gang, owner: str, index: int, qty: int = 1) -> Equipment:
    """Take ``qty`` of an item off a fighter card or out of the Stash (sold,
    spent or lost); returns what was removed."""
    items = holder(gang, owner)
    if not 0 <= index < len(items):
        raise RosterError("no such item")
    item = items[index]
    if not 1 <= qty <= item.qty:
        raise RosterError(f"cannot remove {qty} of {item.qty} {item.name}")
    if qty == item.qty:
        items.pop(index)
        return item
    item.qty -= qty
    return replace(item, qty=qty)


def move_equipment(gang: Gang, source: str, index: int, dest: str, qty: int = 1, *,
                   override: bool = False) -> Equipment:
    """Seed 004, Distribute Equipment: from a fighter card to the Stash or
    from the Stash to a fighter card, never between two fighters; no fighter
    over three weapons (Unwieldy counting two) unless ``override``."""
    if source == dest:
        raise RosterError("an item must move to another place")
    if STASH not in (source, dest):
        raise RosterError(
            "Equipment is never moved between two fighter cards directly: "
            "move it to the Stash first"
        )
    _check_holder(gang, dest)
    if dest != STASH and not override:
        items = holder(gang, source)
        if 0 <= index < len(items):
            check_weapons(gang.fighter(dest), replace(items[index], qty=qty))
    moved = remove_equipment(gang, source, index, qty)
    _add_item(holder(gang, dest), moved)
    return moved


def stash_value(gang: Gang) -> int:
    return sum(item.value for item in gang.stash)


# ---------------------------------------------------------------- gang


def gang_form(gang: Gang) -> dict[str, str]:
    return {
        "name": gang.name,
        "type": gang.type.value,
        "player": gang.player,
        "credits": str(gang.credits),
        "reputation": str(gang.reputation),
        "tactics": "\n".join(gang.tactics),
        "notes": gang.notes,
    }


@dataclass
class GangValues:
    name: str
    player: str
    credits: int
    reputation: int
    tactics: list[str]
    notes: str
    type: GangType | None = None  # None: leave the gang's type as it is


def validate_gang(
    form: Mapping[str, str], other_names: list[str] | tuple[str, ...] = (),
    ruleset: str = "",
) -> tuple[GangValues | None, Errors]:
    """The gang form's values, or what is wrong with each field. ``ruleset``: the
    campaign's post-battle ruleset, whose range the Reputation must be in
    (``model.check_reputation``: never below 0 under Gang War, no floor under Turf War
    2017); the default ruleset's when not given."""
    if not ruleset:
        from ..core.rulesets import default_ruleset

        ruleset = default_ruleset()
    errors: Errors = {}
    name = str(form.get("name", "")).strip()
    if not name:
        errors["name"] = "A gang needs a name"
    elif len(name) > limits.NAME_MAX:
        errors["name"] = f"Keep the name to {limits.NAME_MAX} characters (it has {len(name)})"
    elif name.lower() in {n.strip().lower() for n in other_names}:
        errors["name"] = f"The campaign already has a gang named {name}"
    gtype = None
    if str(form.get("type", "")).strip():
        try:
            gtype = _enum(GangType, str(form.get("type")))
        except ValueError as exc:
            errors["type"] = f"Type: {exc}"
    values: dict[str, int] = {}
    try:
        values["credits"] = parse_count(str(form.get("credits", "")), blank=0,
                                        field=("Gang", "credits"))
    except ValueError as exc:
        errors["credits"] = f"Credits: {exc}"
    try:
        typed = parse_count(str(form.get("reputation", "")), blank=0, minimum=limits.INT64_MIN)
    except ValueError as exc:
        errors["reputation"] = f"Reputation: {exc}"
    else:
        try:  # "Reputation is never below 0 under Gang War (found -2)"
            values["reputation"] = check_reputation(ruleset, typed)
        except limits.LimitError as exc:
            errors["reputation"] = str(exc)
    if errors:
        return None, errors
    tactics = [
        line.strip() for line in str(form.get("tactics", "")).replace("\r\n", "\n").split("\n")
        if line.strip()
    ]
    return (
        GangValues(
            name=name,
            player=str(form.get("player", "")).strip(),
            credits=values["credits"],
            reputation=values["reputation"],
            tactics=tactics,
            notes=str(form.get("notes", "")).strip(),
            type=gtype,
        ),
        {},
    )


def update_gang(gang: Gang, values: GangValues) -> None:
    gang.name = values.name
    if values.type is not None:
        gang.type = values.type
    gang.player = values.player
    gang.credits = values.credits
    gang.reputation = values.reputation
    gang.tactics = list(values.tactics)
    gang.notes = values.notes


def validate_territory(gang: Gang, form: Mapping[str, str]) -> tuple[Territory | None, Errors]:
    errors: Errors = {}
    name = str(form.get("name", "")).strip()
    if not name:
        errors["name"] = "A Territory needs a name"
    elif any(t.name.lower() == name.lower() for t in gang.territories):
        errors["name"] = f"{gang.name} already holds {name}"
    kind = TerritoryKind.TURF
    try:
        kind = _enum(TerritoryKind, str(form.get("kind", "turf")) or "turf")
    except ValueError as exc:
        errors["kind"] = f"Kind: {exc}"
    if errors:
        return None, errors
    return (
        Territory(name=name, kind=kind,
                  cannot_be_lost=str(form.get("cannot_be_lost", "")).lower() in ("1", "true", "yes"),
                  notes=str(form.get("notes", "")).strip()),
        {},
    )


def add_territory(gang: Gang, territory: Territory) -> None:
    if any(t.name.lower() == territory.name.lower() for t in gang.territories):
        raise RosterError(f"{gang.name} already holds {territory.name}")
    gang.territories.append(territory)


def remove_territory(gang: Gang, index: int) -> Territory:
    if not 0 <= index < len(gang.territories):
        raise RosterError("no such Territory")
    return gang.territories.pop(index)


def cycle_territory_kind(gang: Gang, index: int) -> Territory:
    """Turf -> Special -> Stronghold -> Turf (a Special Territory, a Stronghold among
    them, adds 50 to the Gang Rating)."""
    if not 0 <= index < len(gang.territories):
        raise RosterError("no such Territory")
    kinds = list(TerritoryKind)
    t = gang.territories[index]
    t.kind = kinds[(kinds.index(t.kind) + 1) % len(kinds)]
    return t


# ---------------------------------------------------------------- sorting

#: Roster table sort keys: column id -> key function.
SORT_KEYS: dict[str, Callable[[Fighter], Any]] = {
    "name": lambda f: f.name.lower(),
    "type": lambda f: (list(FighterType).index(f.type), f.label.lower()),
    "status": lambda f: list(FighterStatus).index(f.status),
    "xp": lambda f: f.xp,
    "advancements": lambda f: f.advancements,
    "rating": lambda f: f.rating,
}


def sorted_fighters(fighters: list[Fighter], key: str = "", reverse: bool = False) -> list[Fighter]:
    """Fighters in roster order (key ""), or sorted by a column of SORT_KEYS
    (ties keep roster order)."""
    if not key:
        return list(fighters)
    if key not in SORT_KEYS:
        raise KeyError(f"no sort key {key!r}")
    return sorted(fighters, key=SORT_KEYS[key], reverse=reverse)
