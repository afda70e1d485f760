"""The campaign screen's text: its title and the cells of its gang and battle rows.

The screen shows exactly these (``screens/campaign/campaign.py``), and ``saves`` keeps
the first rows of a campaign as it was last read or written beside its file (the
cache's overview, keyed by the file's text), so a campaign opened from the command line
shows its screen before the rest of it is decoded. Both come from here: what the first
frame shows from the cache is what the screen works out once the campaign is loaded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ..core.wording import plural

if TYPE_CHECKING:
    from ..core.model import BattleSummary, Campaign, Gang

# (the model, the standings and the report are imported by the functions that need
# them: a cached overview is read, checked and shown before any of them is needed)

#: a change to any cell or to what the overview holds bumps this (an older overview
#: beside a campaign is then not used)
OVERVIEW_VERSION = 1
#: rows of each table kept in the overview: more than a terminal shows before its
#: first frame (the screen adds half its height's worth, the rest after)
OVERVIEW_ROWS = 80

Row = tuple[str, tuple[str, ...]]  # the row's key, its cells


def title(campaign: Campaign) -> str:
    s = campaign.settings
    return (f"{campaign.name}  ·  {s.post_battle_ruleset}  ·  "
            f"{plural(len(campaign.gangs), 'gang')}, {plural(len(campaign.battles), 'battle')}")


def gang_rows(campaign: Campaign, sort_by: str = "",
              counters: Sequence[tuple[str, str]] = ()) -> tuple[list[Gang], Callable[[Gang], Row]]:
    """The gangs in the standings' order of ``sort_by``, and each one's row; then a cell
    for each of ``counters`` (the club's own counters to show: :func:`counter_columns`)."""
    from . import standings as st
    from .report import Record, gang_records, territory_text

    records = gang_records(campaign)

    def row(g: Gang) -> Row:
        return g.id, (g.name, str(g.rating), str(st.wealth(g)), str(g.reputation),
                      str(g.credits), str(records.get(g.id, Record())), str(st.kills(g)),
                      g.type.value, territory_text(g) or "-",
                      *(str(g.counters.get(cid, 0)) for cid, _name in counters))

    return st.standings(campaign, sort_by), row


def counter_columns(campaign: Campaign, data: Any = None) -> list[tuple[str, str]]:
    """(id, name) of the club's own counters the standings show (a pack's, issue 35):
    those the packs in force declare, and any a gang holds (by its id). The cached
    overview has none (its rows are the standard cells): the screen adds them."""
    from .counters import shown

    return shown(campaign, data)


def battle_rows(campaign: Campaign) -> tuple[list[BattleSummary], Callable[[BattleSummary], Row]]:
    """The battles, latest first, and each one's row."""
    from .report import winner_text

    names = {g.id: g.name for g in campaign.gangs}

    def row(b: BattleSummary) -> Row:
        return str(b.number), (str(b.number), b.date or "-", b.scenario or "-",
                               winner_text(campaign, b, names), b.status,
                               " vs ".join(names.get(gid, gid) for gid in b.gangs) or "-")

    return sorted(campaign.battles, key=lambda b: b.number, reverse=True), row


def overview(campaign: Campaign, rows: int = OVERVIEW_ROWS) -> dict[str, Any]:
    """The first frame of the campaign screen as plain data (JSON): its title, the first
    ``rows`` rows of each table in the campaign's order, and how many there are."""
    gangs, gang_row = gang_rows(campaign)
    battles, battle_row = battle_rows(campaign)
    return {
        "version": OVERVIEW_VERSION,
        "title": title(campaign),
        "gangs": [[key, *cells] for key, cells in map(gang_row, gangs[:rows])],
        "gang_count": len(gangs),
        "battles": [[key, *cells] for key, cells in map(battle_row, battles[:rows])],
        "battle_count": len(battles),
    }


def cached_rows(view: dict[str, Any], table: str) -> Iterator[Row]:
    """The rows of ``table`` ("gangs" or "battles") of an :func:`overview`."""
    for key, *cells in view[table]:
        yield key, tuple(cells)


def is_overview(value: Any) -> bool:
    """Whether ``value`` is an :func:`overview` of this version (a cache read back)."""
    if not isinstance(value, dict) or value.get("version") != OVERVIEW_VERSION:
        return False
    if not isinstance(value.get("title"), str):
        return False
    for table, width in (("gangs", 10), ("battles", 7)):
        rows = value.get(table)
        if not isinstance(rows, list) or not isinstance(value.get(f"{table[:-1]}_count"), int):
            return False
        for row in rows:
            if not (isinstance(row, list) and len(row) == width
                    and all(isinstance(cell, str) for cell in row)):
                return False
    return True
