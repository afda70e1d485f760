"""Sub-plot effects decided from the battle: what a revealed card does to the post-battle
sequence (the data, and the answers the battle's outcome carries).

``two_injury_rolls(state)``: the fighters who make two Lasting Injury rolls and keep the
higher, because of a revealed card (``data/subplot_effects.toml``: Chemical Solutions
for every fighter of the gang taken Out of Action after the reveal, Divine Possession for
the Leader or Champion taken Out of Action again after it). The battle's outcome carries
the answer (``FighterOutcome.injury_rolls``), so the wizard needs no battle log.
"""

from __future__ import annotations

from typing import Any

from ..core.data import load_data


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


def fixed_injuries(state: Any) -> dict[str, tuple[str, str]]:
    """Fighter key -> (the Lasting Injury result their injury counts as, the card id), for
    the enemies a gang took Out of Action with the action its revealed card names."""
    rules = effects_table().get("fixed_lasting_injury", {})
    out: dict[str, tuple[str, str]] = {}
    for side in state.sides.values():
        for card in side.revealed:
            spec = rules.get(card)
            if not spec:
                continue
            how = str(spec.get("by_how", ""))  # the log's words, e.g. "Coup de Grace"
            for f in state.fighters.values():
                by = state.fighters.get(f.taken_out_by)
                if (f.gang != side.gang and f.state == "out_of_action" and by is not None
                        and by.gang == side.gang and how and f.how.startswith(how)):
                    out.setdefault(f.key, (str(spec["result"]), card))
    return out


def post_battle_cards() -> dict[str, dict[str, Any]]:
    """Card id -> where and how the post-battle sequence walks its reward."""
    return dict(effects_table().get("post_battle", {}))


def post_battle_step(card_id: str) -> str:
    """The post-battle step that walks this card's reward ("" when none)."""
    return str(post_battle_cards().get(card_id, {}).get("step", ""))
