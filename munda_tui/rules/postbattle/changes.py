"""Post-battle changes: one frozen type per kind, which both applies it and says it.

A change is a :class:`Change`: one of the frozen structs below (``Credits(gang=...,
amount=30)``), a tagged union whose tag is its ``kind``. A resolver hands one to
:meth:`postbattle.core.Walk.change`; it is applied to the working copy of the campaign
and, once committed, to the real one; the report says it in words (:meth:`Change.words`).

On disk a change is a table (``{kind = "credits", gang = ..., amount = 30}``): one codec,
:func:`change_to_data` / :func:`change_from_data` (msgspec, issue 33, through
:mod:`munda_tui.rules.core.typed`, shared with the battle events), reads and writes
every kind, the tag first and then the kind's fields in the order they are declared. A
field left unset (``UNSET``) is not written, one set (even to "" or 0) is, so a change
read from a file is written back byte for byte. A new kind is one class here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar, TypeVar, Union

import msgspec
from msgspec import UNSET, UnsetType

from ..campaign import career as roster_rules
from ..core import typed
from ..core.model import Campaign, Equipment, Fighter, FighterStatus, FighterType, Gang, Territory, TerritoryKind
from ..core.wording import possessive


@dataclass
class Target:
    """What a change applies to: the campaign, the change's gang and fighter (if any)."""

    campaign: Campaign
    gang: Gang
    fighter: Fighter | None

    @property
    def the_fighter(self) -> Fighter:
        assert self.fighter is not None, "this change names a fighter"
        return self.fighter


@dataclass
class Words:
    """What a change's words need: the fighter's name, the reason, gang names."""

    who: str  # the fighter's name ("" when the change names none)
    why: str  # " (the reason)" or ""
    gang_name: Callable[[str], str]


_T = TypeVar("_T")


def _or(value: _T | UnsetType, default: _T) -> _T:
    """A field's value, or ``default`` where it is not set."""
    return default if isinstance(value, UnsetType) else value


class ChangeBase(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind"):
    """What every change has: its gang and maybe a fighter (the gang's). Each kind below
    adds its own fields, then ``why`` (the reason, said in the report), ``step`` (the
    post-battle step that made it) and what :meth:`Walk.change` adds for the kind."""

    gang: str
    fighter: str | UnsetType = UNSET

    @property
    def kind(self) -> str:
        """The change's kind (its tag on disk)."""
        return str(type(self).__struct_config__.tag)

    def apply(self, t: Target) -> None:
        """Change the target in place (a change kept for the report only changes nothing)."""

    def words(self, w: Words) -> str:
        """The change in words (for the report and the history)."""
        return f"{self.kind}{w.why}"

    # --- what every kind may carry, read without knowing the kind --------------------

    @property
    def fighter_id(self) -> str:
        """The fighter the change names ("" for none)."""
        return _or(self.fighter, "")

    @property
    def reason(self) -> str:
        """Why (the report's words), "" when not said."""
        why = getattr(self, "why", UNSET)
        return "" if isinstance(why, UnsetType) else str(why)

    @property
    def other_gangs(self) -> tuple[str, ...]:
        """Other gangs the change moves something to or from."""
        return ()


# The structs set ``kw_only`` so that each kind's own fields follow the gang's in the order
# declared (the order a change is written in): ``why`` and ``step`` come last.


class Credits(ChangeBase, frozen=True, kw_only=True, tag="credits"):
    amount: int
    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.gang.credits += self.amount

    def words(self, w: Words) -> str:
        return f"{self.amount:+d} credits{w.why}"


class Reputation(ChangeBase, frozen=True, kw_only=True, tag="reputation"):
    amount: int
    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET
    floor: bool | UnsetType = UNSET  # Reputation goes no lower than 0 (unset: it does not)

    def apply(self, t: Target) -> None:
        t.gang.reputation += self.amount
        if _or(self.floor, True) and t.gang.reputation < 0:
            t.gang.reputation = 0

    def words(self, w: Words) -> str:
        return f"{self.amount:+d} Reputation{w.why}"


class Counter(ChangeBase, frozen=True, kw_only=True, tag="counter"):
    """A club's own counter (a pack's, issue 35): the amount is the change as clamped."""

    counter: str
    name: str | UnsetType = UNSET
    amount: int
    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.gang.counters[self.counter] = t.gang.counters.get(self.counter, 0) + self.amount

    def words(self, w: Words) -> str:
        return f"{_or(self.name, '') or self.counter} {self.amount:+d}{w.why}"


class Xp(ChangeBase, frozen=True, kw_only=True, tag="xp"):
    amount: int
    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.the_fighter.xp += self.amount

    def words(self, w: Words) -> str:
        return f"{w.who}: {self.amount:+d} XP{w.why}"


class Kills(ChangeBase, frozen=True, kw_only=True, tag="kills"):
    amount: int
    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.the_fighter.kills += self.amount

    def words(self, w: Words) -> str:
        return f"{w.who}: Kills {self.amount:+d}{w.why}"


class Status(ChangeBase, frozen=True, kw_only=True, tag="status"):
    status: str
    captured_by: str | UnsetType = UNSET
    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET
    battle: int | str | UnsetType = UNSET  # the battle's number (a record's: its file stem)

    def apply(self, t: Target) -> None:
        battle = _or(self.battle, 0)
        roster_rules.set_status(t.the_fighter, FighterStatus(self.status), self.reason,
                                battle if isinstance(battle, int) else 0,
                                _or(self.captured_by, ""))

    def words(self, w: Words) -> str:
        extra = ""
        if self.status == "captured":
            by = _or(self.captured_by, "")
            extra = " by the Guilders" if by == "guilders" else (f" by {w.gang_name(by)}" if by else "")
        return f"{w.who}: {self.status}{extra}{w.why}"

    @property
    def other_gangs(self) -> tuple[str, ...]:
        by = _or(self.captured_by, "")
        return (by,) if by and by != "guilders" else ()


class Bury(ChangeBase, frozen=True, kw_only=True, tag="bury"):
    """Seed 004, Delete Dead Fighters: the dead leave the roster (``Gang.fallen``)."""

    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.gang.bury(t.the_fighter.id)

    def words(self, w: Words) -> str:
        return f"{w.who}: removed from the roster, among the fallen{w.why}"


class Depart(ChangeBase, frozen=True, kw_only=True, tag="depart"):
    """Seeds 004 and 002, Delete Retiring Fighters: "All retiring fighters are removed from
    the gang's roster now"; Resolve Bounty Hunters: a captive handed to the Guilders is
    "removed from their gang's roster" (``Gang.departed``)."""

    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.gang.depart(t.the_fighter.id)

    def words(self, w: Words) -> str:
        return f"{w.who}: removed from the roster, kept apart{w.why}"


class Injury(ChangeBase, frozen=True, kw_only=True, tag="injury"):
    """A Lasting Injury: its name, roll, effect and the profile changes it makes."""

    name: str
    roll: str | int | UnsetType = UNSET
    effect: str | UnsetType = UNSET
    profile: tuple[tuple[str, int], ...] | UnsetType = UNSET
    battle: int | str | UnsetType = UNSET
    note: bool | UnsetType = UNSET  # an effect the profile cannot show: noted on the fighter
    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        battle = _or(self.battle, None)
        roll = "" if isinstance(self.roll, UnsetType) else self.roll
        roster_rules.add_injury(t.the_fighter, self.name, roll=roll,
                                effect=_or(self.effect, ""), profile=_or(self.profile, ()),
                                battle=battle if isinstance(battle, int) else None,
                                note=_or(self.note, False))

    def words(self, w: Words) -> str:
        effect = _or(self.effect, "")
        eff = f" ({effect})" if effect else ""
        return f"{w.who}: Lasting Injury {_or(self.roll, '')} {self.name}{eff}".replace("  ", " ")


class ToStash(ChangeBase, frozen=True, kw_only=True, tag="to_stash"):
    """Every item (or the named ones) from a fighter to the Stash."""

    items: tuple[str, ...] | UnsetType = UNSET  # unset: every item
    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        fighter = t.the_fighter
        names = _or(self.items, None)
        keep: list[Equipment] = []
        move: list[Equipment] = []
        for it in fighter.equipment:
            (move if names is None or it.name in names else keep).append(it)
        fighter.equipment = keep
        t.gang.stash.extend(move)

    def words(self, w: Words) -> str:
        items = _or(self.items, ())
        return f"{w.who}: {', '.join(items) if items else 'all equipment'} to the Stash{w.why}"


class RemoveItem(ChangeBase, frozen=True, kw_only=True, tag="remove_item"):
    """From a fighter (``fighter``) or the Stash: the line, or ``count`` of its items."""

    item: str
    count: int | UnsetType = UNSET  # unset: the whole line
    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        items = t.fighter.equipment if t.fighter else t.gang.stash
        _take_from(items, self.item, _or(self.count, None))

    def words(self, w: Words) -> str:
        return f"{w.who + ': ' if w.who else 'Stash: '}{_one_of(self.count)}{self.item} removed{w.why}"


class MarkSpent(ChangeBase, frozen=True, kw_only=True, tag="mark_spent"):
    item: str
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        items = t.fighter.equipment if t.fighter else t.gang.stash
        items[_find_item(items, self.item)].spent = True

    def words(self, w: Words) -> str:
        return f"{w.who}: {self.item} spent"


class Seize(ChangeBase, frozen=True, kw_only=True, tag="seize"):
    """Every item of a (captive) fighter to another gang's Stash."""

    to_gang: str
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.campaign.gang(self.to_gang).stash.extend(t.the_fighter.equipment)
        t.the_fighter.equipment = []

    def words(self, w: Words) -> str:
        return f"{possessive(w.who)} equipment taken to {possessive(w.gang_name(self.to_gang))} Stash"

    @property
    def other_gangs(self) -> tuple[str, ...]:
        return (self.to_gang,)


class ClearEquipment(ChangeBase, frozen=True, kw_only=True, tag="clear_equipment"):
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.the_fighter.equipment = []

    def words(self, w: Words) -> str:
        return f"{w.who}: returns with no equipment"


class AddItem(ChangeBase, frozen=True, kw_only=True, tag="add_item"):
    """An item to the Stash, or to the change's fighter (``fighter``): ``item`` is the
    item's table (``name``, ``cost`` and what else :class:`Equipment` holds)."""

    item: dict[str, Any]
    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        (t.fighter.equipment if t.fighter else t.gang.stash).append(_equipment(self.item))

    def words(self, w: Words) -> str:
        return f"{w.who or 'Stash'}: + {self.item['name']} ({self.item.get('cost', 0)} credits)"



class GiveItem(ChangeBase, frozen=True, kw_only=True, tag="give_item"):
    """Stash -> fighter."""

    item: str
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        it = t.gang.stash.pop(_find_item(t.gang.stash, self.item))
        t.the_fighter.equipment.append(it)

    def words(self, w: Words) -> str:
        return f"{self.item}: Stash -> {w.who}"


class TakeItem(ChangeBase, frozen=True, kw_only=True, tag="take_item"):
    """Another gang's Stash -> this gang's Stash: the line, or ``count`` of its items."""

    from_gang: str
    item: str
    count: int | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        other = t.campaign.gang(self.from_gang)
        t.gang.stash.append(_take_from(other.stash, self.item, _or(self.count, None)))

    def words(self, w: Words) -> str:
        return f"Stash: + {_one_of(self.count)}{self.item} (stolen from {w.gang_name(self.from_gang)})"

    @property
    def other_gangs(self) -> tuple[str, ...]:
        return (self.from_gang,)


class TerritoryAdd(ChangeBase, frozen=True, kw_only=True, tag="territory_add"):
    name: str
    territory_kind: str | UnsetType = UNSET  # a TerritoryKind value (unset: turf)
    cannot_be_lost: bool | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.gang.territories.append(
            Territory(name=self.name, kind=TerritoryKind(_or(self.territory_kind, "turf")),
                      cannot_be_lost=_or(self.cannot_be_lost, False))
        )

    def words(self, w: Words) -> str:
        return f"Territory gained: {self.name} ({_or(self.territory_kind, 'turf')})"


class TerritoryRemove(ChangeBase, frozen=True, kw_only=True, tag="territory_remove"):
    name: str
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        for i, territory in enumerate(t.gang.territories):
            if territory.name == self.name:
                del t.gang.territories[i]
                return
        raise KeyError(self.name)

    def words(self, w: Words) -> str:
        return f"Territory lost: {self.name}"


class TerritorySize(ChangeBase, frozen=True, kw_only=True, tag="territory_size"):
    amount: int
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.gang.territory_size = max(0, t.gang.territory_size + self.amount)

    def words(self, w: Words) -> str:
        return f"Territory/Turf Size {self.amount:+d}"


class Bounty(ChangeBase, frozen=True, kw_only=True, tag="bounty"):
    amount: int
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.the_fighter.bounty = max(0, t.the_fighter.bounty + self.amount)

    def words(self, w: Words) -> str:
        return f"{w.who}: Bounty {self.amount:+d}"


class Hire(ChangeBase, frozen=True, kw_only=True, tag="hire"):
    """A new fighter: ``data`` is the fighter's table (as in the gang file)."""

    data: dict[str, Any]
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.gang.fighters.append(_fighter_from(self.data))

    def words(self, w: Words) -> str:
        return f"Hired {self.data['name']} ({self.data['type']}, {self.data['cost']} credits)"



class Advance(ChangeBase, frozen=True, kw_only=True, tag="advance"):
    name: str
    xp_cost: int | UnsetType = UNSET
    cost: int | UnsetType = UNSET
    skill: bool | UnsetType = UNSET
    profile: tuple[tuple[str, int], ...] | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        fighter = t.the_fighter
        fighter.xp -= _or(self.xp_cost, 0)
        fighter.cost += _or(self.cost, 0)
        fighter.advancements += 1
        roster_rules.apply_advancement(fighter, self.name, skill=_or(self.skill, False),
                                       profile=_or(self.profile, ()))

    def words(self, w: Words) -> str:
        return (f"{w.who}: Advancement {self.name} (-{_or(self.xp_cost, 0)} XP, "
                f"+{_or(self.cost, 0)} credits)")


class NewFighterType(ChangeBase, frozen=True, kw_only=True, tag="fighter_type"):
    type: str  # a FighterType value
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.the_fighter.type = FighterType(self.type)

    def words(self, w: Words) -> str:
        return f"{w.who}: now {self.type}"


class TacticsAdd(ChangeBase, frozen=True, kw_only=True, tag="tactics_add"):
    name: str
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.gang.tactics.append(self.name)

    def words(self, w: Words) -> str:
        return f"Tactics card added: {self.name}"


class TacticsRemove(ChangeBase, frozen=True, kw_only=True, tag="tactics_remove"):
    name: str
    step: str | UnsetType = UNSET

    def apply(self, t: Target) -> None:
        t.gang.tactics.remove(self.name)

    def words(self, w: Words) -> str:
        return f"Tactics card removed: {self.name}"


class Note(ChangeBase, frozen=True, kw_only=True, tag="note"):
    """A change kept for the report only."""

    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def words(self, w: Words) -> str:
        return f"note{w.why}"


class WeaponOverride(ChangeBase, frozen=True, kw_only=True, tag="weapon_override"):
    """The Arbitrator lets a fighter keep weapons over the limit (for the report only)."""

    load: int
    limit: int
    why: str | UnsetType = UNSET
    step: str | UnsetType = UNSET

    def words(self, w: Words) -> str:
        return f"{w.who}: keeps {self.load} weapons over the limit of {self.limit} (Arbitrator override)"


#: A post-battle change: one of the kinds above.
Change = Union[
    Credits, Reputation, Counter, Xp, Kills, Status, Bury, Depart, Injury, ToStash,
    RemoveItem, MarkSpent, Seize, ClearEquipment, AddItem, GiveItem, TakeItem, TerritoryAdd,
    TerritoryRemove, TerritorySize, Bounty, Hire, Advance, NewFighterType, TacticsAdd,
    TacticsRemove, Note, WeaponOverride,
]

#: change kind (its tag) -> its type
CHANGES: dict[str, type[ChangeBase]] = {
    str(cls.__struct_config__.tag): cls for cls in ChangeBase.__subclasses__()
}


# --- the codec ------------------------------------------------------------------------


def change_from_data(data: Mapping[str, Any]) -> Change:
    """A change from its table (ValueError naming what is wrong: an unknown kind, a
    missing or mistyped field)."""
    ch: Change = typed.from_data_as(data, Change)
    return ch


def change_to_data(ch: ChangeBase) -> dict[str, Any]:
    """A change as its table: the kind first, then its fields as declared, unset ones left out."""
    return typed.to_data(ch)


def apply_change(campaign: Campaign, ch: ChangeBase) -> None:
    """Apply one change to a campaign, in place."""
    gang = campaign.gang(ch.gang)
    fighter = gang.fighter(ch.fighter_id) if ch.fighter_id else None
    ch.apply(Target(campaign, gang, fighter))


def describe_change(words: Words, ch: ChangeBase) -> str:
    """One change in words."""
    return ch.words(words)


# --- helpers ------------------------------------------------------------------------


def _find_item(items: list[Equipment], name: str) -> int:
    for i, it in enumerate(items):
        if it.name == name:
            return i
    raise KeyError(name)


def _equipment(data: Mapping[str, Any]) -> Equipment:
    known = {"name", "cost", "qty", "consumable", "unwieldy", "weapon", "rarity", "spent",
             "armour"}
    return Equipment(**{k: v for k, v in data.items() if k in known})


def _fighter_from(data: Mapping[str, Any]) -> Fighter:
    d = dict(data)
    d["type"] = FighterType(d.get("type", FighterType.GANGER))
    d["equipment"] = [_equipment(e) for e in d.get("equipment", [])]
    known = set(Fighter.__dataclass_fields__)
    return Fighter(**{k: v for k, v in d.items() if k in known})


def _one_of(count: int | UnsetType) -> str:
    """"one " when the change takes one item of a line (``count``), else ""."""
    return "one " if _or(count, 0) else ""


def _take_from(items: list[Equipment], name: str, count: int | None) -> Equipment:
    """Take ``count`` items of the line ``name`` (the whole line when None): a line of
    three Frag grenades is three items (seed 004, Sell Equipment: "For each item you want
    to sell"; Skulduggery, Theft: "steal an item"). Returns what was taken, as a line."""
    i = _find_item(items, name)
    line = items[i]
    if count is None or count >= line.qty:
        del items[i]
        return line
    line.qty -= count
    return replace(line, qty=count)
