"""Post-battle changes: one handler per kind that both applies it and says it.

A change is a plain dict (``{"kind": "credits", "gang": ..., "amount": 30}``) recorded by
a resolver (:meth:`postbattle_core.Walk.change`), applied to the working copy of the
campaign and, once committed, to the real one; the report says it in words. Each kind is
registered here once with :func:`change` (how it applies) and its words, so a new kind is
one entry, and applying and describing can never disagree about which kinds exist.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ..campaign import career as roster_rules
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


Apply = Callable[[Target, dict[str, Any]], None]
Describe = Callable[[Words, dict[str, Any]], str]


@dataclass(frozen=True)
class ChangeKind:
    kind: str
    apply: Apply
    describe: Describe


#: change kind -> its handler
CHANGES: dict[str, ChangeKind] = {}


def change(kind: str, describe: Describe) -> Callable[[Apply], Apply]:
    """Register how a change kind applies (the decorated function) and its words."""

    def deco(fn: Apply) -> Apply:
        CHANGES[kind] = ChangeKind(kind, fn, describe)
        return fn

    return deco


def apply_change(campaign: Campaign, ch: dict[str, Any]) -> None:
    """Apply one change (plain dict) to a campaign, in place."""
    handler = CHANGES.get(ch["kind"])
    if handler is None:
        raise ValueError(f"unknown change {ch['kind']!r}")
    gang = campaign.gang(ch["gang"])
    fighter = gang.fighter(ch["fighter"]) if ch.get("fighter") else None
    handler.apply(Target(campaign, gang, fighter), ch)


def describe_change(words: Words, ch: dict[str, Any]) -> str:
    """One change in words (an unknown kind as its name and reason)."""
    handler = CHANGES.get(ch["kind"])
    if handler is None:
        return f"{ch['kind']}{words.why}"
    return handler.describe(words, ch)


# --- helpers ------------------------------------------------------------------------


def _find_item(items: list[Equipment], name: str) -> int:
    for i, it in enumerate(items):
        if it.name == name:
            return i
    raise KeyError(name)


def _equipment(data: dict[str, Any]) -> Equipment:
    known = {"name", "cost", "qty", "consumable", "unwieldy", "weapon", "rarity", "spent",
             "armour"}
    return Equipment(**{k: v for k, v in data.items() if k in known})


def _fighter_from(data: dict[str, Any]) -> Fighter:
    d = dict(data)
    d["type"] = FighterType(d.get("type", FighterType.GANGER))
    d["equipment"] = [_equipment(e) for e in d.get("equipment", [])]
    known = set(Fighter.__dataclass_fields__)
    return Fighter(**{k: v for k, v in d.items() if k in known})


def _nothing(t: Target, ch: dict[str, Any]) -> None:
    """A change recorded for the report only."""


# --- the kinds ----------------------------------------------------------------------


@change("credits", lambda w, ch: f"{ch['amount']:+d} credits{w.why}")
def _credits(t: Target, ch: dict[str, Any]) -> None:
    t.gang.credits += ch["amount"]


@change("reputation", lambda w, ch: f"{ch['amount']:+d} Reputation{w.why}")
def _reputation(t: Target, ch: dict[str, Any]) -> None:
    t.gang.reputation += ch["amount"]
    if ch.get("floor", True) and t.gang.reputation < 0:
        t.gang.reputation = 0


@change("counter", lambda w, ch: f"{ch.get('name') or ch['counter']} {ch['amount']:+d}{w.why}")
def _counter(t: Target, ch: dict[str, Any]) -> None:
    """A club's own counter (a pack's, issue 35): the amount is the change as clamped."""
    t.gang.counters[ch["counter"]] = t.gang.counters.get(ch["counter"], 0) + ch["amount"]


@change("xp", lambda w, ch: f"{w.who}: {ch['amount']:+d} XP{w.why}")
def _xp(t: Target, ch: dict[str, Any]) -> None:
    t.the_fighter.xp += ch["amount"]


@change("kills", lambda w, ch: f"{w.who}: Kills {ch['amount']:+d}{w.why}")
def _kills(t: Target, ch: dict[str, Any]) -> None:
    t.the_fighter.kills += ch["amount"]


def _status_words(w: Words, ch: dict[str, Any]) -> str:
    extra = ""
    if ch["status"] == "captured":
        by = ch.get("captured_by", "")
        extra = " by the Guilders" if by == "guilders" else (f" by {w.gang_name(by)}" if by else "")
    return f"{w.who}: {ch['status']}{extra}{w.why}"


@change("status", _status_words)
def _status(t: Target, ch: dict[str, Any]) -> None:
    roster_rules.set_status(t.the_fighter, FighterStatus(ch["status"]), ch.get("why", ""),
                            ch.get("battle") or 0, ch.get("captured_by", ""))


@change("bury", lambda w, ch: f"{w.who}: removed from the roster, among the fallen{w.why}")
def _bury(t: Target, ch: dict[str, Any]) -> None:
    """Seed 004, Delete Dead Fighters: the dead leave the roster (``Gang.fallen``)."""
    t.gang.bury(t.the_fighter.id)


@change("depart", lambda w, ch: f"{w.who}: removed from the roster, kept apart{w.why}")
def _depart(t: Target, ch: dict[str, Any]) -> None:
    """Seeds 004 and 002, Delete Retiring Fighters: "All retiring fighters are removed from
    the gang's roster now"; Resolve Bounty Hunters: a captive handed to the Guilders is
    "removed from their gang's roster" (``Gang.departed``)."""
    t.gang.depart(t.the_fighter.id)


def _injury_words(w: Words, ch: dict[str, Any]) -> str:
    eff = f" ({ch['effect']})" if ch.get("effect") else ""
    return f"{w.who}: Lasting Injury {ch.get('roll', '')} {ch['name']}{eff}".replace("  ", " ")


@change("injury", _injury_words)
def _injury(t: Target, ch: dict[str, Any]) -> None:
    roster_rules.add_injury(t.the_fighter, ch)


@change("to_stash", lambda w, ch: f"{w.who}: {', '.join(ch['items']) if ch.get('items') else 'all equipment'} to the Stash{w.why}")
def _to_stash(t: Target, ch: dict[str, Any]) -> None:
    """Every item (or the named ones) from a fighter to the Stash."""
    fighter = t.the_fighter
    names = ch.get("items")
    keep: list[Equipment] = []
    move: list[Equipment] = []
    for it in fighter.equipment:
        (move if names is None or it.name in names else keep).append(it)
    fighter.equipment = keep
    t.gang.stash.extend(move)


def _one_of(ch: dict[str, Any]) -> str:
    """"one " when the change takes one item of a line (``count``), else ""."""
    return "one " if ch.get("count") else ""


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


@change("remove_item", lambda w, ch: f"{w.who + ': ' if w.who else 'Stash: '}{_one_of(ch)}{ch['item']} removed{w.why}")
def _remove_item(t: Target, ch: dict[str, Any]) -> None:
    """From a fighter (``fighter``) or the Stash: the line, or ``count`` of its items."""
    items = t.fighter.equipment if t.fighter else t.gang.stash
    _take_from(items, ch["item"], ch.get("count"))


@change("mark_spent", lambda w, ch: f"{w.who}: {ch['item']} spent")
def _mark_spent(t: Target, ch: dict[str, Any]) -> None:
    items = t.fighter.equipment if t.fighter else t.gang.stash
    items[_find_item(items, ch["item"])].spent = True


@change("seize", lambda w, ch: f"{possessive(w.who)} equipment taken to {possessive(w.gang_name(ch['to_gang']))} Stash")
def _seize(t: Target, ch: dict[str, Any]) -> None:
    """Every item of a (captive) fighter to another gang's Stash."""
    t.campaign.gang(ch["to_gang"]).stash.extend(t.the_fighter.equipment)
    t.the_fighter.equipment = []


@change("clear_equipment", lambda w, ch: f"{w.who}: returns with no equipment")
def _clear_equipment(t: Target, ch: dict[str, Any]) -> None:
    t.the_fighter.equipment = []


@change("add_item", lambda w, ch: f"{w.who or 'Stash'}: + {ch['item']['name']} ({ch['item'].get('cost', 0)} credits)")
def _add_item(t: Target, ch: dict[str, Any]) -> None:
    """To the Stash, or to the change's fighter (``fighter``)."""
    (t.fighter.equipment if t.fighter else t.gang.stash).append(_equipment(ch["item"]))


@change("give_item", lambda w, ch: f"{ch['item']}: Stash -> {w.who}")
def _give_item(t: Target, ch: dict[str, Any]) -> None:
    """Stash -> fighter."""
    it = t.gang.stash.pop(_find_item(t.gang.stash, ch["item"]))
    t.the_fighter.equipment.append(it)


@change("take_item", lambda w, ch: f"Stash: + {_one_of(ch)}{ch['item']} (stolen from {w.gang_name(ch['from_gang'])})")
def _take_item(t: Target, ch: dict[str, Any]) -> None:
    """Another gang's Stash -> this gang's Stash: the line, or ``count`` of its items."""
    other = t.campaign.gang(ch["from_gang"])
    t.gang.stash.append(_take_from(other.stash, ch["item"], ch.get("count")))


@change("territory_add", lambda w, ch: f"Territory gained: {ch['name']} ({ch.get('territory_kind', 'turf')})")
def _territory_add(t: Target, ch: dict[str, Any]) -> None:
    t.gang.territories.append(
        Territory(name=ch["name"], kind=TerritoryKind(ch.get("territory_kind", "turf")),
                  cannot_be_lost=ch.get("cannot_be_lost", False))
    )


@change("territory_remove", lambda w, ch: f"Territory lost: {ch['name']}")
def _territory_remove(t: Target, ch: dict[str, Any]) -> None:
    for i, territory in enumerate(t.gang.territories):
        if territory.name == ch["name"]:
            del t.gang.territories[i]
            return
    raise KeyError(ch["name"])


@change("territory_size", lambda w, ch: f"Territory/Turf Size {ch['amount']:+d}")
def _territory_size(t: Target, ch: dict[str, Any]) -> None:
    t.gang.territory_size = max(0, t.gang.territory_size + ch["amount"])


@change("bounty", lambda w, ch: f"{w.who}: Bounty {ch['amount']:+d}")
def _bounty(t: Target, ch: dict[str, Any]) -> None:
    t.the_fighter.bounty = max(0, t.the_fighter.bounty + ch["amount"])


@change("hire", lambda w, ch: f"Hired {ch['data']['name']} ({ch['data']['type']}, {ch['data']['cost']} credits)")
def _hire(t: Target, ch: dict[str, Any]) -> None:
    t.gang.fighters.append(_fighter_from(ch["data"]))


@change("advance", lambda w, ch: f"{w.who}: Advancement {ch['name']} (-{ch.get('xp_cost', 0)} XP, +{ch.get('cost', 0)} credits)")
def _advance(t: Target, ch: dict[str, Any]) -> None:
    fighter = t.the_fighter
    fighter.xp -= ch.get("xp_cost", 0)
    fighter.cost += ch.get("cost", 0)
    fighter.advancements += 1
    roster_rules.apply_advancement(fighter, ch)


@change("fighter_type", lambda w, ch: f"{w.who}: now {ch['type']}")
def _fighter_type(t: Target, ch: dict[str, Any]) -> None:
    t.the_fighter.type = FighterType(ch["type"])


@change("tactics_add", lambda w, ch: f"Tactics card added: {ch['name']}")
def _tactics_add(t: Target, ch: dict[str, Any]) -> None:
    t.gang.tactics.append(ch["name"])


@change("tactics_remove", lambda w, ch: f"Tactics card removed: {ch['name']}")
def _tactics_remove(t: Target, ch: dict[str, Any]) -> None:
    t.gang.tactics.remove(ch["name"])


change("note", lambda w, ch: f"note{w.why}")(_nothing)
change("weapon_override", lambda w, ch: f"{w.who}: keeps {ch['load']} weapons over the limit of {ch['limit']} (Arbitrator override)")(_nothing)
