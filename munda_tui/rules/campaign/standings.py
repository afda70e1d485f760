"""Club standings: the campaign's gangs ordered by one column (the campaign screen's sort).

Wealth is the Gang Rating plus the credits in the Stash (``Gang.wealth``); Kills are the gang's fighters' kills as the roster records them (the fallen's included);
W/L/D orders by wins, then draws, then fewer losses. Ties keep the campaign's order.
The column ``""`` is the campaign's own order (the cycle's first stop). A club's own
counter (a pack's ``counters.toml``, issue 35) is a column too: ``counter:<its id>``,
after Kills in the cycle, the most first (a gang that holds none counts 0).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

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


#: a club's own counter's column id: this, then the counter's id
COUNTER = "counter:"


def counter_column(counter_id: str, name: str = "") -> Column:
    """The column of a club's own counter (``name`` as shown; its id when none)."""
    return Column(COUNTER + counter_id, name or counter_id, lambda c, g: (g.counters.get(counter_id, 0),))


def column(column_id: str, counters: Sequence[tuple[str, str]] = ()) -> Column:
    """The column ``column_id``; ``counters``: (id, name) of the club's counters shown
    (a ``counter:<id>`` column needs its counter there or held by no gang: by its id)."""
    for c in COLUMNS:
        if c.id == column_id:
            return c
    if column_id.startswith(COUNTER) and len(column_id) > len(COUNTER):
        cid = column_id[len(COUNTER):]
        return counter_column(cid, dict(counters).get(cid, cid))
    raise KeyError(f"no standings column {column_id!r} (known: {', '.join(COLUMN_IDS)}, "
                   f"{COUNTER}<a counter's id>)")


def next_column(column_id: str, counters: Sequence[tuple[str, str]] = ()) -> str:
    """The column after ``column_id``: the campaign's order, Rating ... Kills, each of
    ``counters`` ((id, name) of the club's counters shown), then again."""
    cycle = ("", *COLUMN_IDS, *(COUNTER + cid for cid, _name in counters))
    i = cycle.index(column_id) if column_id in cycle else 0
    return cycle[(i + 1) % len(cycle)]


def standings(campaign: Campaign, column_id: str = "rating") -> list[Gang]:
    """The gangs, best first by ``column_id``; ties keep the campaign's order
    (``""``: the campaign's order)."""
    if not column_id:
        return list(campaign.gangs)
    key = column(column_id).key
    return sorted(campaign.gangs, key=lambda g: key(campaign, g), reverse=True)
