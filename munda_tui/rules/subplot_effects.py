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


def post_battle_cards() -> dict[str, dict[str, Any]]:
    """Card id -> where and how the post-battle sequence walks its reward."""
    return dict(effects_table().get("post_battle", {}))


def post_battle_step(card_id: str) -> str:
    """The post-battle step that walks this card's reward ("" when none)."""
    return str(post_battle_cards().get(card_id, {}).get("step", ""))


def walk_post_battle(walk: Any, step_id: str) -> None:
    """At step ``step_id`` of the post-battle sequence: the rewards of the revealed cards
    that step resolves (each gang's own revealed cards, from the battle's outcome)."""
    from .subplots import card as subplot

    o = walk.seq.outcome
    for gang_id, cards in sorted(getattr(o, "subplots_revealed_by", {}).items()):
        for cid in cards:
            spec = post_battle_cards().get(cid)
            if not spec or spec.get("step") != step_id:
                continue
            name = subplot(cid).name
            if spec.get("kind") == "per_fighter_out_of_action_alive":
                results = walk.seq.facts.get("injury_results", {})
                alive = [(k, r) for k, r in results.items() if not r.get("dead")]
                gang = walk.campaign.gang(gang_id)
                if not alive:
                    walk.say(f"{gang.name}: {name}: no fighter went Out of Action and lived")
                    continue
                total = 0
                for key, r in alive:
                    g, f = key.split("/", 1)
                    up = r.get("name") == spec.get("upgrade_injury")
                    dice = spec["upgrade_dice"] if up else spec["dice"]
                    roll = walk.roll(f"subplot:{cid}:{gang_id}:{key}",
                                     f"{name} ({gang.name}): {walk.fname(g, f)} went Out of "
                                     f"Action and lived: {dice} credits", dice, gang=gang_id)
                    total += roll.total
                    walk.say(f"{gang.name}: {name}: {walk.fname(g, f)} lived, {roll}")
                walk.change(kind="credits", gang=gang_id, amount=total,
                            why=f"Sub-plot: {name}")
                walk.say(f"{gang.name}: {total:+d} credits (Sub-plot: {name})")


__all__ = ["effects_table", "post_battle_cards", "post_battle_step", "two_injury_rolls",
           "walk_post_battle"]
