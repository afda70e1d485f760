"""Sub-plot effects that reach the post-battle sequence, decided from the battle.

``two_injury_rolls(state)``: the fighters who make two Lasting Injury rolls and keep the
higher, because of a revealed card (``data/subplot_effects.toml``: Chemical Solutions
for every fighter of the gang taken Out of Action after the reveal, Divine Possession for
the Leader or Champion taken Out of Action again after it). The battle's outcome carries
the answer (``FighterOutcome.injury_rolls``), so the wizard needs no battle log.
"""

from __future__ import annotations

from typing import Any

from .data import load_data


def effects_table() -> dict[str, Any]:
    return load_data("subplot_effects.toml")


def two_injury_rolls(state: Any) -> dict[str, str]:
    """Fighter key -> the card id that makes them roll twice (``state``: a
    ``rules.battle.BattleState`` replayed from the log)."""
    rules = effects_table().get("two_lasting_injury_rolls", {})
    out: dict[str, str] = {}
    for side in state.sides.values():
        for card, at in side.revealed_at.items():
            who = rules.get(card)
            if not who:
                continue
            for f in state.crew(side.gang):
                if f.state != "out_of_action" or not f.out_at or f.out_at[-1] <= at:
                    continue
                if who == "fighter" and not (
                        (f.is_leader or f.is_champion) and any(i < at for i in f.out_at)):
                    continue
                out.setdefault(f.key, card)
    return out


__all__ = ["effects_table", "two_injury_rolls"]
