"""Club standings: the campaign's gangs ordered by one column (the campaign screen's sort).

Wealth is the Gang Rating plus the credits in the Stash (``Gang.wealth``); Kills are the gang's fighters' kills as the roster records them (the fallen's included);
W/L/D orders by wins, then draws, then fewer losses. Ties keep the campaign's order.
The column ``""`` is the campaign's own order (the cycle's first stop).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..core.model import Campaign, Gang
from .report import Record, gang_record


def wealth(gang: Gang) -> int:
    """The model's Wealth: Gang Rating plus the credits in the Stash."""
    return gang.wealth


def kills(gang: Gang) -> int:
    """The kills of the gang's fighters, the fallen's too (their kills stay the gang's)."""
    return sum(f.kills for f in gang.fighters) + sum(f.kills for f in gang.fallen)


@dataclass(frozen=True)
class Column:
    id: str
    title: str
    key: Callable[[Campaign, Gang], tuple[int, ...]]


def _record_key(campaign: Campaign, gang: Gang) -> tuple[int, ...]:
    r: Record = gang_record(campaign, gang.id)
    return (r.wins, r.draws, -r.losses)


COLUMNS: tuple[Column, ...] = (
    Column("rating", "Rating", lambda c, g: (g.rating,)),
    Column("wealth", "Wealth", lambda c, g: (wealth(g),)),
    Column("reputation", "Reputation", lambda c, g: (g.reputation,)),
    Column("record", "W/L/D", _record_key),
    Column("kills", "Kills", lambda c, g: (kills(g),)),
)
COLUMN_IDS: tuple[str, ...] = tuple(c.id for c in COLUMNS)


def column(column_id: str) -> Column:
    for c in COLUMNS:
        if c.id == column_id:
            return c
    raise KeyError(f"no standings column {column_id!r} (known: {', '.join(COLUMN_IDS)})")


def next_column(column_id: str) -> str:
    """The column after ``column_id``: the campaign's order, Rating ... Kills, then again."""
    cycle = ("", *COLUMN_IDS)
    i = cycle.index(column_id) if column_id in cycle else 0
    return cycle[(i + 1) % len(cycle)]


def standings(campaign: Campaign, column_id: str = "rating") -> list[Gang]:
    """The gangs, best first by ``column_id``; ties keep the campaign's order
    (``""``: the campaign's order)."""
    if not column_id:
        return list(campaign.gangs)
    key = column(column_id).key
    return sorted(campaign.gangs, key=lambda g: key(campaign, g), reverse=True)
