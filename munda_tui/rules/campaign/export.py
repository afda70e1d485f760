"""`munda-tui rules export`: every rule table the package holds, as plain data.

Each part of the rules registers a section here (a name and a function that
returns JSON-ready data). The sections are computed lazily, on export.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

from ..core.model import FighterStatus, FighterType, GangType, TerritoryKind


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


def _lazy(module: str, function: str) -> Callable[[], Any]:
    def call() -> Any:
        return getattr(importlib.import_module(module), function)()

    return call


#: section name -> function returning its JSON-ready data. Parts of the rules
#: add their own entries (the module's full dotted name, function name).
SECTIONS: dict[str, Callable[[], Any]] = {
    "model": _model_section,
    "dice": _dice_section,
}


def export_all() -> dict[str, Any]:
    return {name: build() for name, build in SECTIONS.items()}


# Sections added by the parts of the rules, e.g.
#   SECTIONS["subplot_decks"] = _lazy("munda_tui.rules.subplots.decks", "export_decks")
SECTIONS["subplot_decks"] = _lazy("munda_tui.rules.subplots.decks", "export_section")
SECTIONS["scenario_tables"] = _lazy("munda_tui.rules.prebattle.scenario", "export_tables")
SECTIONS["post_battle"] = _lazy("munda_tui.rules.postbattle.sequence", "export_section")
SECTIONS["subplot_watchers"] = _lazy("munda_tui.rules.battle.watch", "export_section")
SECTIONS["readings"] = _lazy("munda_tui.rules.core.readings", "export_section")
SECTIONS["roster"] = _lazy("munda_tui.rules.campaign.career", "export_section")
