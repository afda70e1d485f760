"""The battle report (Markdown) written at the end of the Post-Battle Sequence."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import FighterStatus
from .wording import possessive

if TYPE_CHECKING:  # pragma: no cover
    from .postbattle import PostBattle


def subplot_name(card_id: str) -> str:
    """A Sub-plot card's name with its id ("Murder Run (escher:A)"); the id if unknown."""
    try:
        from .subplots import card

        return f"{card(card_id).name} ({card_id})"
    except Exception:  # an unknown or malformed id: show it as recorded
        return card_id


def _fighter_name(seq: "PostBattle", gang_id: str, fighter_id: str) -> str:
    for camp in (seq.work, seq.base):
        try:
            return camp.gang(gang_id).fighter(fighter_id).name
        except KeyError:
            continue
    return fighter_id


def describe(seq: "PostBattle", ch: dict[str, Any]) -> str:
    """One change in words."""
    k = ch["kind"]
    who = _fighter_name(seq, ch["gang"], ch["fighter"]) if ch.get("fighter") else ""
    why = f" ({ch['why']})" if ch.get("why") else ""
    if k == "credits":
        return f"{ch['amount']:+d} credits{why}"
    if k == "reputation":
        return f"{ch['amount']:+d} Reputation{why}"
    if k == "xp":
        return f"{who}: {ch['amount']:+d} XP{why}"
    if k == "status":
        extra = ""
        if ch["status"] == "captured":
            by = ch.get("captured_by", "")
            extra = " by the Guilders" if by == "guilders" else (
                f" by {seq.work.gang(by).name}" if by else "")
        return f"{who}: {ch['status']}{extra}{why}"
    if k == "injury":
        eff = f" ({ch['effect']})" if ch.get("effect") else ""
        return f"{who}: Lasting Injury {ch.get('roll', '')} {ch['name']}{eff}".replace("  ", " ")
    if k == "to_stash":
        items = ", ".join(ch["items"]) if ch.get("items") else "all equipment"
        return f"{who}: {items} to the Stash{why}"
    if k == "remove_item":
        return f"{who + ': ' if who else 'Stash: '}{ch['item']} removed{why}"
    if k == "mark_spent":
        return f"{who}: {ch['item']} spent"
    if k == "add_item":
        return f"Stash: + {ch['item']['name']} ({ch['item'].get('cost', 0)} credits)"
    if k == "give_item":
        return f"{ch['item']}: Stash -> {who}"
    if k == "take_item":
        return f"Stash: + {ch['item']} (stolen from {seq.work.gang(ch['from_gang']).name})"
    if k == "seize":
        return f"{possessive(who)} equipment taken to {possessive(seq.work.gang(ch['to_gang']).name)} Stash"
    if k == "clear_equipment":
        return f"{who}: returns with no equipment"
    if k == "territory_add":
        return f"Territory gained: {ch['name']} ({ch.get('territory_kind', 'turf')})"
    if k == "territory_remove":
        return f"Territory lost: {ch['name']}"
    if k == "territory_size":
        return f"Territory/Turf Size {ch['amount']:+d}"
    if k == "bounty":
        return f"{who}: Bounty {ch['amount']:+d}"
    if k == "hire":
        d = ch["data"]
        return f"Hired {d['name']} ({d['type']}, {d['cost']} credits)"
    if k == "advance":
        return f"{who}: Advancement {ch['name']} (-{ch.get('xp_cost', 0)} XP, +{ch.get('cost', 0)} credits)"
    if k == "fighter_type":
        return f"{who}: now {ch['type']}"
    if k == "weapon_override":
        return (f"{who}: keeps {ch['load']} weapons over the limit of {ch['limit']} "
                "(Arbitrator override)")
    if k == "kills":
        return f"{who}: Kills {ch['amount']:+d}{why}"
    if k == "tactics_add":
        return f"Tactics card added: {ch['name']}"
    if k == "tactics_remove":
        return f"Tactics card removed: {ch['name']}"
    return f"{k}{why}"


def build_report(seq: "PostBattle") -> str:
    o = seq.outcome
    names = {g.id: g.name for g in seq.work.gangs}
    lines = [f"# Battle {seq.number}: " + " vs ".join(names.get(g, g) for g in o.gangs), ""]
    lines.append(f"- Scenario: {o.scenario or '—'}")
    lines.append(f"- Battlefield: {o.battlefield or '—'}")
    lines.append(f"- Winner: {names.get(o.winner, 'none (draw)') if o.winner else 'none (draw)'}")
    lines.append(f"- Post-Battle Sequence: {seq.ruleset['title']}")
    if o.subplots_revealed:
        lines.append(f"- Sub-plots revealed: {', '.join(subplot_name(c) for c in o.subplots_revealed)}")
    lines.append("")
    changes = seq.changes()
    for gid in o.gangs:
        g = seq.work.gang(gid)
        before = seq.base.gang(gid)
        lines.append(f"## {g.name} ({g.type})")
        lines.append("")
        lines.append(f"- Gang Rating {before.rating} -> {g.rating}; Reputation "
                     f"{before.reputation} -> {g.reputation}; credits {before.credits} -> "
                     f"{g.credits}")
        terr = ", ".join(t.name for t in g.territories) or "none"
        lines.append(f"- Territories: {terr}" + (f" (Turf Size {g.territory_size})"
                                                if seq.ruleset_id == "turf-war-2017" else ""))
        mine = [c for c in changes if c["gang"] == gid and c["kind"] != "note"]
        if mine:
            lines.append("- Changes:")
            for c in mine:
                lines.append(f"  - {describe(seq, c)}")
        else:
            lines.append("- No changes.")
        lines.append("")
    caps = []
    for g in seq.work.gangs:
        for f in g.fighters:
            if f.status is FighterStatus.CAPTURED:
                by = "the Guilders" if f.captured_by == "guilders" else names.get(f.captured_by,
                                                                                  f.captured_by)
                caps.append(f"- {f.name} ({g.name}) held by {by}")
    lines.append("## Captives")
    lines.append("")
    lines.extend(caps or ["- none"])
    lines.append("")
    loot = [c for c in changes if c["kind"] in ("add_item", "take_item", "seize")]
    lines.append("## Loot")
    lines.append("")
    lines.extend([f"- {names.get(c['gang'], c['gang'])}: {describe(seq, c)}" for c in loot]
                 or ["- none"])
    from .scenario import reroll_lines

    rerolls = [f"Pre-battle, {r.get('label') or r.get('table', 'roll')}: {text}"
               for r in (seq.setup.get("rolls") or []) if isinstance(r, dict)
               for text in reroll_lines(r)]
    rerolls += seq.rerolls()
    if rerolls:
        lines.append("")
        lines.append("## Re-rolls and corrections")
        lines.append("")
        lines.extend(f"- {text}" for text in rerolls)
    return "\n".join(lines) + "\n"
