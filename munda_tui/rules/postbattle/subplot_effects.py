"""Sub-plot effects walked by the post-battle sequence: a revealed card's reward at the
step that resolves it, and A Dark Fate revealed at a capture during the sequence.

What a card does is decided in :mod:`munda_tui.rules.subplots.effects` (the data and the
battle's answers); this module only walks it inside the sequence.
"""

from __future__ import annotations

from typing import Any

from ..core.readings import note as reading_note
from .changes import Credits, Reputation
from ..subplots.effects import post_battle_cards


def _may_hold(walk: Any, gang_id: str, house_deck: str) -> bool:
    """Public facts only: the gang draws from that House deck and holds a card not yet
    revealed (the number of cards in a hand is public; which cards, never)."""
    from ..subplots.decks import house_deck as deck_of

    o = walk.seq.outcome
    for side in walk.seq.setup.get("sides", []) or []:
        if side.get("gang") != gang_id or not side.get("use_house_deck"):
            continue
        if deck_of(walk.campaign.gang(gang_id).type.value, walk.seq.data) != house_deck:
            return False
        shown = len(getattr(o, "subplots_revealed_by", {}).get(gang_id, []))
        return len(side.get("hand", []) or []) > shown
    return False


def _captures(walk: Any, cid: str, spec: dict[str, Any]) -> list[tuple[str, str, str, bool]]:
    """(captive's gang, captive, captor, card already revealed) for each capture the card
    may act on, from public facts only."""
    from ..core.model import FighterStatus

    o = walk.seq.outcome
    out = []
    for key in list(walk.seq.facts.get("captured", [])):
        gid, fid = key.split("/", 1)
        captor = walk.opponent(gid)
        f = walk.campaign.gang(gid).fighter(fid)
        if not captor or f.status is not FighterStatus.CAPTURED:
            continue
        revealed = cid in getattr(o, "subplots_revealed_by", {}).get(captor, [])
        if revealed or _may_hold(walk, captor, spec.get("house_deck", "")):
            out.append((gid, fid, captor, revealed))
    return out


def asks_at(walk: Any, step_id: str) -> bool:
    """True when a card resolved during the sequence may act at this step (so the step
    is walked even with nothing else to do)."""
    return any(spec.get("step") == step_id and spec.get("kind") == "on_capture"
               and _captures(walk, cid, spec) for cid, spec in post_battle_cards().items())


def _on_capture(walk: Any, cid: str, spec: dict[str, Any], injure: Any, set_status: Any) -> None:
    from ..core.model import FighterStatus
    from .core import Option
    from ..subplots.decks import card as subplot

    name = subplot(cid, walk.seq.data).name
    for gid, fid, captor, revealed in _captures(walk, cid, spec):
        key = f"{gid}/{fid}"
        f = walk.campaign.gang(gid).fighter(fid)
        cname = walk.campaign.gang(captor).name
        if not revealed:
            answer = walk.choose(
                f"subplot:{cid}:{captor}:{key}",
                f"{cname} captured {f.name}: does {cname} reveal a Sub-plot now?",
                [Option("no", "No Sub-plot to reveal now"),
                 Option("yes", f"Reveal {name} (show the card to the other player)")],
                gang=captor, default="no",
                note="Asked of every gang drawing from this House deck that still holds a "
                     "hidden card, whatever it holds.")
            if answer != "yes":
                continue
        walk.say(f"{cname} reveal {name}: a Lasting Injury roll for {f.name}")
        got = injure(walk, gid, fid, f"subplot:{cid}:{key}:injury", name)
        if got.get("dead"):
            walk.say(f"  {f.name}: Memorable Death - no Reputation, not returned")
            continue
        set_status(walk, gid, fid, FighterStatus.ACTIVE, f"returned to its gang ({name})")
        rep = walk.roll(f"subplot:{cid}:{key}:rep", f"{name}: Reputation for {cname}",
                        spec.get("dice", "D3"), gang=captor)
        walk.change(Reputation(gang=captor, amount=rep.total, why=f"Sub-plot: {name}"))
        walk.say(f"  {f.name} is returned to {walk.campaign.gang(gid).name}; "
                 f"{cname} gain {rep.total} Reputation ({rep})")


def walk_post_battle(walk: Any, step_id: str, injure: Any = None, set_status: Any = None) -> None:
    """At step ``step_id`` of the post-battle sequence: the rewards of the revealed cards
    that step resolves (each gang's own revealed cards, from the battle's outcome), and the
    cards revealed during the sequence itself (A Dark Fate at a capture). ``injure`` and
    ``set_status``: the sequence's Lasting Injury and status helpers."""
    from ..subplots.decks import card as subplot

    o = walk.seq.outcome
    for cid, spec in post_battle_cards().items():
        if spec.get("step") == step_id and spec.get("kind") == "on_capture" and injure:
            _on_capture(walk, cid, spec, injure, set_status)
    for gang_id, cards in sorted(getattr(o, "subplots_revealed_by", {}).items()):
        for cid in cards:
            card_spec = post_battle_cards().get(cid)
            if not card_spec or card_spec.get("step") != step_id:
                continue
            name = subplot(cid, walk.seq.data).name
            if card_spec.get("kind") == "per_fighter_out_of_action_alive":
                results = walk.seq.facts.get("injury_results", {})
                alive = [(k, r) for k, r in results.items() if not r.get("dead")]
                gang = walk.campaign.gang(gang_id)
                if not alive:
                    walk.say(f"{gang.name}: {name}: no fighter went Out of Action and lived")
                    continue
                upgrade = card_spec.get("upgrade_injury", "")
                if upgrade and not _table_has(walk, upgrade):
                    # "Fighters who rolled Trip to the Docs provide D6x10 credits instead":
                    # no Lasting Injury table the app offers has that result (readings:
                    # trip-to-the-docs)
                    walk.say(f"{gang.name}: {name}: " + reading_note(
                        card_spec.get("reading", "trip-to-the-docs")))
                total = 0
                for key, r in alive:
                    g, f = key.split("/", 1)
                    up = r.get("name") == card_spec.get("upgrade_injury")
                    dice = card_spec["upgrade_dice"] if up else card_spec["dice"]
                    roll = walk.roll(f"subplot:{cid}:{gang_id}:{key}",
                                     f"{name} ({gang.name}): {walk.fname(g, f)} went Out of "
                                     f"Action and lived: {dice} credits", dice, gang=gang_id)
                    total += roll.total
                    walk.say(f"{gang.name}: {name}: {walk.fname(g, f)} lived, {roll}")
                walk.change(Credits(gang=gang_id, amount=total,
                            why=f"Sub-plot: {name}"))
                walk.say(f"{gang.name}: {total:+d} credits (Sub-plot: {name})")


def _table_has(walk: Any, result: str) -> bool:
    """Whether the campaign's Lasting Injury table has a result named ``result``."""
    from .core import injury_table

    name = walk.seq.base.settings.lasting_injury_table or walk.seq.ruleset.get(
        "injury_table_default", "rulebook-2018")  # (as steps.injury_table_name: no circle)
    rows = injury_table(name).get("rows", [])
    return any(row.get("name") == result for row in rows)


__all__ = ["asks_at", "walk_post_battle"]
