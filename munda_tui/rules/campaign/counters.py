"""A club's own counters (issue 35): a resource a pack declares per gang (``counters.toml``:
``[[counters]]`` with ``id``, ``name``, ``text`` and, if it cannot go below a value,
``min``). The package declares none: the seeds print no such resource. A gang keeps its
values in ``Gang.counters`` (id -> value); the generic ``gain`` resolver changes them
(docs/packs.md), the roster and the standings show them.

A value whose counter no pack in force declares is kept and shown by its id (the pack may
be missing on this computer): nothing is lost.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.data import RuleData, given
from ..core.model import Campaign, Gang

#: what a counter's id may not be (the gains the rules already have)
RESERVED = ("credits", "reputation", "xp")
#: what a ``[[counters]]`` entry may say
COUNTER_KEYS = ("id", "name", "text", "min")


@dataclass(frozen=True)
class Counter:
    id: str
    name: str
    text: str = ""
    min: int | None = None


def counters(data: RuleData | None = None) -> tuple[Counter, ...]:
    """The counters the packs in force declare, in root order."""
    data = given(data)
    if not data.packs:
        return ()
    return data.memo("counters", lambda: tuple(
        Counter(i.id, str(i.data.get("name", i.id)), str(i.data.get("text", "")),
                i.data.get("min") if isinstance(i.data.get("min"), int) else None)
        for i in data.items("counters")))


def counter(counter_id: str, data: RuleData | None = None) -> Counter | None:
    return next((c for c in counters(data) if c.id == counter_id), None)


def shown(campaign_or_gangs: Campaign | list[Gang], data: RuleData | None = None) -> list[tuple[str, str]]:
    """(id, name) of every counter to show for these gangs: those declared, then any a
    gang holds that no pack in force declares (shown by its id)."""
    gangs = campaign_or_gangs.gangs if isinstance(campaign_or_gangs, Campaign) else campaign_or_gangs
    out = [(c.id, c.name) for c in counters(data)]
    known = {cid for cid, _n in out}
    for g in gangs:
        for cid in g.counters:
            if cid not in known:
                known.add(cid)
                out.append((cid, cid))
    return out


def gang_text(gang: Gang, data: RuleData | None = None) -> str:
    """A gang's counters in words ("Scrap 3 · Favours 0"), "" when none is shown."""
    return " · ".join(f"{name} {gang.counters.get(cid, 0)}" for cid, name in shown([gang], data))


def clamped(gang: Gang, counter_id: str, amount: int, data: RuleData | None = None) -> int:
    """The change ``amount`` makes once the counter's ``min`` holds (a loss that would go
    below it stops at it)."""
    c = counter(counter_id, data)
    now = gang.counters.get(counter_id, 0)
    if c is not None and c.min is not None and now + amount < c.min:
        return min(0, c.min - now) if now >= c.min else 0
    return amount
