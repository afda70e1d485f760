"""A campaign's catalogue of fighter types and items, and catalogue packs.

munda-tui ships no House lists (the seeds print none): the catalogue is what the
players entered or imported, learned as they go, and what they load from packs
(TOML files another club member exported). A fighter type is a name (the gang's
own, e.g. what the House book calls it), its role (Leader, Champion ...), its
profile, its cost and its default equipment; an item is a name, a cost, a kind and
a rarity where known.

The pack format (also the campaign's own ``catalogue.toml``)::

    format = "munda-tui-pack"
    name = "Our club's list"

    [[fighter_types]]
    name = "Boss"
    role = "Leader"
    cost = 120
    profile = "5 3+ 3+ 3 3 2 3 2 6+ 6+ 7+ 7+"   # one line, as on the card
    equipment = ["Pistol", "Blade"]

    [[items]]
    name = "Pistol"
    cost = 10
    kind = "weapon"        # weapon, Unwieldy weapon, armour, wargear, consumable
    rarity = "Common"

:func:`catalogue_from_data` checks it and raises :class:`CatalogueError` with the
key path of the first problem (the saves turn it into ``path:line:col``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from ..core import profile as pr
from ..core.model import ITEM_KINDS, WARGEAR, Equipment, Fighter, FighterType, Gang

PACK_FORMAT = "munda-tui-pack"
KeyPath = tuple[Any, ...]


class CatalogueError(ValueError):
    """A pack or catalogue entry that is wrong; ``keypath`` says where."""

    def __init__(self, keypath: KeyPath, message: str) -> None:
        super().__init__(message)
        self.keypath = keypath
        self.message = message


@dataclass
class TypeEntry:
    name: str
    role: FighterType = FighterType.GANGER
    cost: int = 0
    profile: dict[str, int] = field(default_factory=dict)
    equipment: list[str] = field(default_factory=list)


@dataclass
class ItemEntry:
    name: str
    cost: int | None = None
    kind: str = WARGEAR
    rarity: str = ""


@dataclass
class Catalogue:
    name: str = ""
    fighter_types: list[TypeEntry] = field(default_factory=list)
    items: list[ItemEntry] = field(default_factory=list)

    # look-ups ---------------------------------------------------------------------
    def type(self, name: str) -> TypeEntry | None:
        key = _key(name)
        return next((t for t in self.fighter_types if _key(t.name) == key), None)

    def item(self, name: str) -> ItemEntry | None:
        key = _key(name)
        return next((i for i in self.items if _key(i.name) == key), None)

    def type_names(self) -> list[str]:
        return [t.name for t in self.fighter_types]

    def item_names(self) -> list[str]:
        return [i.name for i in self.items]

    # learning ---------------------------------------------------------------------
    def learn_item(self, item: Equipment) -> bool:
        """Remember an item entered or imported; a known one gains a cost it lacked.
        True when the catalogue changed."""
        known = self.item(item.name)
        if known is None:
            self.items.append(ItemEntry(item.name.strip(), item.cost, item.kind, item.rarity))
            return True
        changed = False
        if known.cost is None and item.cost is not None:
            known.cost, changed = item.cost, True
        if not known.rarity and item.rarity:
            known.rarity, changed = item.rarity, True
        return changed

    def learn_fighter(self, fighter: Fighter) -> bool:
        """Remember a fighter's type (its gang's name for it, else its role) and its
        items. A type already known keeps what it has (the players may have edited it)."""
        changed = False
        for item in fighter.equipment:
            changed |= self.learn_item(item)
        name = (fighter.label or fighter.type.value).strip()
        if name and self.type(name) is None:
            self.fighter_types.append(TypeEntry(
                name, fighter.type, fighter.cost, dict(fighter.characteristics),
                [i.name for i in fighter.equipment]))
            changed = True
        return changed

    def learn_gang(self, fighters: Iterable[Fighter], stash: Iterable[Equipment] = ()) -> bool:
        changed = False
        for f in fighters:
            changed |= self.learn_fighter(f)
        for item in stash:
            changed |= self.learn_item(item)
        return changed

    def merged(self, *others: "Catalogue") -> "Catalogue":
        """This catalogue with the entries of ``others`` it lacks (its own come first)."""
        out = Catalogue(self.name, list(self.fighter_types), list(self.items))
        for other in others:
            for t in other.fighter_types:
                if out.type(t.name) is None:
                    out.fighter_types.append(t)
            for i in other.items:
                if out.item(i.name) is None:
                    out.items.append(i)
        return out

    def remove_type(self, name: str) -> None:
        self.fighter_types = [t for t in self.fighter_types if _key(t.name) != _key(name)]

    def remove_item(self, name: str) -> None:
        self.items = [i for i in self.items if _key(i.name) != _key(name)]


def _key(name: str) -> str:
    return " ".join(str(name).lower().split())


def complete(names: Iterable[str], text: str) -> list[str]:
    """Names matching what was typed: those starting with it first, then those with a
    word starting with it, then those containing it (case does not matter)."""
    t = _key(text)
    if not t:
        return list(names)
    first, word, inside = [], [], []
    for n in names:
        k = _key(n)
        if k.startswith(t):
            first.append(n)
        elif any(w.startswith(t) for w in k.split()):
            word.append(n)
        elif t in k:
            inside.append(n)
    return first + word + inside


# --- one-line profiles and costs --------------------------------------------------


def parse_profile_line(text: str) -> dict[str, int]:
    """A profile typed on one line, as :func:`rules.profile.parse_profile` reads it
    (``5 4+ 4+ 3 3 1 4+ 1 7+ 7+ 7+ 7+``, ``-`` for none, or ``M5 WS4+ ...``), or as
    twelve digits when every value is one digit (``544331417777``). ProfileError
    names the characteristic that is wrong. Initiative may carry its ``+`` as cards
    print it (the profile model holds it as a plain number)."""
    raw = str(text).strip()
    if re.fullmatch(r"[0-9-]{12}", raw):
        raw = " ".join(raw)
    tokens = [t for t in re.split(r"[\s,;|/]+", raw) if t]
    labelled = any(re.match(r"[A-Za-z]{1,4}\s*:?\s*[0-9]", t) for t in tokens) or (
        len(tokens) != len(pr.CHARACTERISTICS)
        and any(pr._ALIASES.get(t.lower()) for t in tokens))
    if labelled:
        return pr.parse_profile(raw)
    if len(tokens) != len(pr.CHARACTERISTICS):
        raise pr.ProfileError(
            f"{len(tokens)} values; a profile has {len(pr.CHARACTERISTICS)}, in card order: "
            + " ".join(pr.LABELS[k] for k in pr.CHARACTERISTICS))
    out: dict[str, int] = {}
    for n, (key, token) in enumerate(zip(pr.CHARACTERISTICS, tokens), 1):
        try:
            value = pr.parse_value(key, token)
        except pr.ProfileError as error:
            raise pr.ProfileError(f"value {n} ({pr.LABELS[key]}, {pr.NAMES[key]}): {error}") from None
        if value is not None:
            out[key] = value
    return out


def item_label(entry: ItemEntry) -> str:
    """``"Lasgun (weapon, 15 cr)"`` for a completion list."""
    cost = "cost unknown" if entry.cost is None else f"{entry.cost} cr"
    rarity = f", {entry.rarity}" if entry.rarity else ""
    return f"{entry.name} ({entry.kind}, {cost}{rarity})"


def type_label(entry: TypeEntry) -> str:
    gear = f"; {', '.join(entry.equipment)}" if entry.equipment else ""
    return f"{entry.name} ({entry.role.value}, {entry.cost} cr{gear})"


def equipment_of(catalogue: Catalogue, entry: TypeEntry) -> list[Equipment]:
    """A type's default equipment as items, with the catalogue's costs and kinds."""
    out = []
    for name in entry.equipment:
        known = catalogue.item(name)
        item = Equipment(name=known.name if known else name,
                         cost=known.cost if known else None,
                         rarity=known.rarity if known else "")
        item.set_kind(known.kind if known else WARGEAR)
        out.append(item)
    return out


def hire_cost(catalogue: Catalogue, entry: TypeEntry) -> int:
    """The fighter's cost and its default equipment's (unknown costs count 0)."""
    return entry.cost + sum(i.value for i in equipment_of(catalogue, entry))


# --- packs: plain data ------------------------------------------------------------


def catalogue_to_data(catalogue: Catalogue) -> dict[str, Any]:
    """Pack data (TOML-ready): what :func:`catalogue_from_data` reads back."""
    data: dict[str, Any] = {"format": PACK_FORMAT}
    if catalogue.name:
        data["name"] = catalogue.name
    data["fighter_types"] = [
        {"name": t.name, "role": t.role.value, "cost": t.cost,
         "profile": " ".join(pr.format_value(k, t.profile.get(k)) for k in pr.CHARACTERISTICS),
         "equipment": list(t.equipment)}
        for t in catalogue.fighter_types
    ]
    items = []
    for i in catalogue.items:
        d: dict[str, Any] = {"name": i.name}
        if i.cost is not None:
            d["cost"] = i.cost
        d["kind"] = i.kind
        if i.rarity:
            d["rarity"] = i.rarity
        items.append(d)
    data["items"] = items
    return data


def _str(data: Mapping[str, Any], key: str, path: KeyPath, required: bool = False) -> str:
    value = data.get(key, "")
    if key not in data and required:
        raise CatalogueError(path, f"missing key {key!r}")
    if not isinstance(value, str):
        raise CatalogueError((*path, key), f"expected a string, found {value!r}")
    if required and not value.strip():
        raise CatalogueError((*path, key), f"{key} must not be empty")
    return value.strip()


def _cost(data: Mapping[str, Any], path: KeyPath, required: bool) -> int | None:
    if "cost" not in data:
        if required:
            return 0
        return None
    value = data["cost"]
    if type(value) is not int or value < 0:
        raise CatalogueError((*path, "cost"),
                             f"a cost is a whole number of credits, 0 or more (found {value!r})")
    return value


def _check_keys(data: Any, known: tuple[str, ...], path: KeyPath) -> None:
    if not isinstance(data, Mapping):
        raise CatalogueError(path, "expected a table")
    for k in data:
        if k not in known:
            raise CatalogueError((*path, k), f"unknown key {k!r} (known keys: {', '.join(known)})")


def catalogue_from_data(data: Mapping[str, Any]) -> Catalogue:
    """A catalogue from pack data; CatalogueError (with the key path) if it is wrong."""
    _check_keys(data, ("format", "name", "fighter_types", "items"), ())
    fmt = data.get("format", PACK_FORMAT)
    if fmt != PACK_FORMAT:
        raise CatalogueError(("format",), f"expected format = {PACK_FORMAT!r}, found {fmt!r}")
    cat = Catalogue(name=_str(data, "name", ()))
    roles = {r.value.lower(): r for r in FighterType}
    for key, what in (("fighter_types", "fighter type"), ("items", "item")):
        if not isinstance(data.get(key, []), list):
            raise CatalogueError((key,), f"expected an array of tables ([[{key}]])")
    for i, t in enumerate(data.get("fighter_types", [])):
        path: KeyPath = ("fighter_types", i)
        _check_keys(t, ("name", "role", "cost", "profile", "equipment"), path)
        name = _str(t, "name", path, required=True)
        if cat.type(name) is not None:
            raise CatalogueError((*path, "name"), f"fighter type {name!r} is given twice")
        role_text = _str(t, "role", path) or FighterType.GANGER.value
        role = roles.get(role_text.lower())
        if role is None:
            raise CatalogueError((*path, "role"), f"unknown role {role_text!r}; one of: "
                                 + ", ".join(r.value for r in FighterType))
        profile_text = t.get("profile", "")
        try:
            if isinstance(profile_text, Mapping):
                prof = {}
                for k, v in profile_text.items():
                    key_ = pr.key_of(k)
                    value = pr.decode_value(key_, v)
                    if value is not None:
                        prof[key_] = value
            elif isinstance(profile_text, str):
                prof = parse_profile_line(profile_text) if profile_text.strip() else {}
            else:
                raise pr.ProfileError(f"expected a profile line, found {profile_text!r}")
        except pr.ProfileError as error:
            raise CatalogueError((*path, "profile"), str(error)) from None
        gear = t.get("equipment", [])
        if not isinstance(gear, list) or not all(isinstance(g, str) and g.strip() for g in gear):
            raise CatalogueError((*path, "equipment"), "expected a list of item names")
        cat.fighter_types.append(TypeEntry(name, role, _cost(t, path, True) or 0, prof,
                                           [g.strip() for g in gear]))
    for i, it in enumerate(data.get("items", [])):
        path = ("items", i)
        _check_keys(it, ("name", "cost", "kind", "rarity"), path)
        name = _str(it, "name", path, required=True)
        if cat.item(name) is not None:
            raise CatalogueError((*path, "name"), f"item {name!r} is given twice")
        kind = _str(it, "kind", path) or WARGEAR
        if kind not in ITEM_KINDS:
            raise CatalogueError((*path, "kind"),
                                 f"unknown kind {kind!r}; one of: {', '.join(ITEM_KINDS)}")
        cat.items.append(ItemEntry(name, _cost(it, path, False), kind, _str(it, "rarity", path)))
    return cat


# --- hiring and copying -----------------------------------------------------------


def parse_equipment_line(text: str, catalogue: Catalogue) -> tuple[list[str], list[ItemEntry]]:
    """A type's default equipment typed on one line: item names separated by commas,
    each known to the catalogue or new with its cost and, optionally, its kind
    (``Pistol, Knife 5, Vest 10 armour``; a kind may be its first letter: w, u, a,
    g, c, also right after the cost: ``Vest 10a``). A new item without a kind is a
    weapon: most of a fighter type's equipment is, and the hire dialog shows each
    item's kind before anything is hired. Returns the names and the new items.
    ValueError says which item is wrong."""
    names: list[str] = []
    new: list[ItemEntry] = []
    kinds = {k.lower(): k for k in ITEM_KINDS}
    letters = {"w": ITEM_KINDS[0], "u": ITEM_KINDS[1], "a": ITEM_KINDS[2], "g": ITEM_KINDS[3],
               "c": ITEM_KINDS[4]}
    for part in (p.strip() for p in str(text).split(",")):
        if not part:
            continue
        words = part.split()
        kind = None
        glued = re.fullmatch(r"(\d+)([A-Za-z])", words[-1]) if len(words) > 1 else None
        if glued and glued.group(2).lower() in letters:  # "Vest 10a": cost and kind
            words = [*words[:-1], glued.group(1), glued.group(2)]
        if len(words) > 1 and (words[-1].lower() in kinds or words[-1].lower() in letters):
            kind = kinds.get(words[-1].lower()) or letters[words[-1].lower()]
            words = words[:-1]
        if len(words) > 1 and words[-1].lower() == "weapon" and words[-2].lower() == "unwieldy":
            kind, words = ITEM_KINDS[1], words[:-2]
        cost = None
        if len(words) > 1 and re.fullmatch(r"\d+", words[-1]):
            cost, words = int(words[-1]), words[:-1]
        name = " ".join(words)
        known = catalogue.item(name) or next(
            (i for i in new if _key(i.name) == _key(name)), None)
        if known is None:
            matches = complete(catalogue.item_names(), name)
            if cost is None and len(matches) == 1 and _key(matches[0]).startswith(_key(name)):
                known = catalogue.item(matches[0])
        if known is not None and cost is None and kind is None:
            names.append(known.name)
            continue
        if cost is None:
            raise ValueError(f"{name!r} is not in the catalogue yet: give its cost "
                             f"(e.g. {name} 15), and its kind if not a weapon (e.g. {name} 15a "
                             "for armour, g wargear, c consumable, u Unwieldy weapon)")
        entry = ItemEntry(name, cost, kind or ITEM_KINDS[0])
        new.append(entry)
        names.append(name)
    return names, new


def hire(gang: Gang, catalogue: Catalogue, entry: TypeEntry, name: str) -> Fighter:
    """Hire a fighter of ``entry``'s type with its default equipment, paying the
    whole cost from the Stash (RosterError, nothing changed, when it cannot)."""
    from . import roster as rr

    items = equipment_of(catalogue, entry)
    unknown = [i.name for i in items if i.cost is None]
    if unknown:
        raise rr.RosterError(f"{', '.join(unknown)}: no cost in the catalogue; give it one first")
    total = hire_cost(catalogue, entry)
    if total > gang.credits:
        raise rr.RosterError(f"Hiring {name} ({entry.name}) costs {total} credits; the Stash "
                             f"holds {gang.credits}")
    values = rr.FighterValues(name=name, type=entry.role, label=entry.name, cost=entry.cost,
                              characteristics=dict(entry.profile), hired=True)
    return _hire_with(gang, values, items)


def _hire_with(gang: Gang, values: Any, items: list[Equipment]) -> Fighter:
    """Add the fighter ``values`` describe and give them ``items``, all paid from the
    Stash; on a RosterError the gang is left as it was (fighter and credits)."""
    from . import roster as rr

    credits = gang.credits
    fighter = rr.add_fighter(gang, values, paid=True)
    try:
        for item in items:
            rr.add_equipment(gang, fighter.id, item, paid=True)
    except rr.RosterError:
        gang.fighters.remove(fighter)
        gang.credits = credits
        raise
    return fighter


def copy_fighter(gang: Gang, fighter: Fighter, name: str) -> Fighter:
    """A new fighter like ``fighter`` (type, profile, cost, equipment; not XP,
    injuries or skills), hired: the cost and the equipment come off the Stash
    (RosterError, nothing changed, when it cannot)."""
    from dataclasses import replace

    from . import roster as rr

    items = [replace(i, spent=False) for i in fighter.equipment]
    unknown = [i.name for i in items if i.cost is None]
    if unknown:
        raise rr.RosterError(f"{', '.join(unknown)}: cost unknown; give it one first (c on "
                             "the item)")
    total = fighter.cost + sum(i.value for i in items)
    if total > gang.credits:
        raise rr.RosterError(f"A copy of {fighter.name} costs {total} credits; the Stash "
                             f"holds {gang.credits}")
    values = rr.FighterValues(name=name, type=fighter.type, label=fighter.label,
                              cost=fighter.cost, characteristics=dict(fighter.characteristics),
                              hired=True)
    return _hire_with(gang, values, items)
