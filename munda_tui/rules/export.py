"""`munda-tui rules export`: every rule table the package holds, as plain data.

This module sits above every rules package (the layers contract in pyproject.toml): it
names each part's export function directly, and imports that part only when the export
runs (the command line's start-up does not pay for the whole rules package).
"""

from __future__ import annotations

from typing import Any, Callable

from .core.data import RuleData
from .core.model import FighterStatus, FighterType, GangType, TerritoryKind


def _model_section() -> dict[str, Any]:
    return {
        "gang_types": [t.value for t in GangType],
        "fighter_types": [t.value for t in FighterType],
        "fighter_statuses": [s.value for s in FighterStatus],
        "territory_kinds": [k.value for k in TerritoryKind],
    }


def _dice_section() -> dict[str, Any]:
    return {
        "grammar": "[N]D3 | [N]D6 | D66 | NDSkhK/klK, + - x, parentheses; x binds tighter",
        "d66": "two D6 read as tens and units",
    }


#: section name -> function returning its JSON-ready data (each rules package's own
#: export function, below)
SECTIONS: dict[str, Callable[[], Any]] = {
    "model": _model_section,
    "dice": _dice_section,
}


#: the sections read from the rule data a pack adds to (given the packs in force)
WITH_PACKS: dict[str, Callable[[RuleData], Any]] = {}


def export_all(data: RuleData | None = None) -> dict[str, Any]:
    """Every section; with ``data`` (the packs in force) the sections a pack adds to hold
    the packs' items too, and ``packs`` lists each pack and every item it adds or
    replaces, with its pack and file."""
    if data is None or not data.packs:
        return {name: build() for name, build in SECTIONS.items()}
    out = {name: (WITH_PACKS[name](data) if name in WITH_PACKS else build())
           for name, build in SECTIONS.items()}
    from .packs.check import pack_items

    out["packs"] = {
        "packs": [{"id": p.id, "title": p.title, "version": p.version, "where": p.where,
                   "path": p.path, "hash": p.digest} for p in data.packs],
        "items": pack_items(data),
    }
    return out


def _subplot_decks(data: RuleData | None = None) -> Any:
    from .subplots.decks import export_section

    return export_section(data)


def _scenario_tables(data: RuleData | None = None) -> Any:
    from .prebattle.scenario import export_tables, packaged_tables

    return export_tables(packaged_tables(data))


def _post_battle(data: RuleData | None = None) -> Any:
    from .postbattle.sequence import export_section

    return export_section(data)


def _subplot_watchers(data: RuleData | None = None) -> Any:
    from .battle.watch import export_section

    return export_section(data)


def _readings() -> Any:
    from .core.readings import export_section

    return export_section()


def _roster() -> Any:
    from .campaign.career import export_section

    return export_section()


WITH_PACKS.update({
    "subplot_decks": _subplot_decks,
    "scenario_tables": _scenario_tables,
    "post_battle": _post_battle,
    "subplot_watchers": _subplot_watchers,
})
SECTIONS.update({
    "subplot_decks": _subplot_decks,
    "scenario_tables": _scenario_tables,
    "post_battle": _post_battle,
    "subplot_watchers": _subplot_watchers,
    "readings": _readings,
    "roster": _roster,
})
