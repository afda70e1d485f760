"""The battle report written at the end of the Post-Battle Sequence (``report_doc``
blocks, kept in the battle file and rendered per format)."""

from __future__ import annotations

from typing import Any

from ..core.model import FighterStatus
from .core import Sequence
from .changes import AddItem, Change, Note, Seize, TakeItem, Words, describe_change
from ..campaign.report_doc import Item, Report



def subplot_name(card_id: str, data: Any = None) -> str:
    """A Sub-plot card's name with its id ("Murder Run (escher:A)"); the id if unknown.
    ``data``: the rule data in force (a pack's card)."""
    try:
        from ..subplots.decks import card

        return f"{card(card_id, data).name} ({card_id})"
    except Exception:  # an unknown or malformed id: show it as recorded
        return card_id


def _fighter_name(seq: Sequence, gang_id: str, fighter_id: str) -> str:
    for camp in (seq.work, seq.base):
        try:
            return camp.gang(gang_id).member(fighter_id).name  # (or fallen)
        except KeyError:
            continue
    return fighter_id


def describe(seq: Sequence, ch: Change) -> str:
    """One change in words (each kind's words: rules/postbattle/changes.py)."""
    who = _fighter_name(seq, ch.gang, ch.fighter_id) if ch.fighter_id else ""
    why = f" ({ch.reason})" if ch.reason else ""
    return describe_change(Words(who, why, lambda gang_id: seq.work.gang(gang_id).name), ch)


def build_report(seq: Sequence) -> Report:
    """The battle report the sequence ends with, as blocks (rendered per format)."""
    o = seq.outcome
    names = {g.id: g.name for g in seq.work.gangs}
    report = Report()
    report.heading(f"Battle {seq.number}: " + " vs ".join(names.get(g, g) for g in o.gangs), 1)
    facts = [
        f"Scenario: {o.scenario or '—'}",
        f"Battlefield: {o.battlefield or '—'}",
        f"Winner: {names.get(o.winner, 'none (draw)') if o.winner else 'none (draw)'}",
        f"Post-Battle Sequence: {seq.ruleset['title']}",
    ]
    if o.subplots_revealed:
        facts.append(f"Sub-plots revealed: {', '.join(subplot_name(c, seq.data) for c in o.subplots_revealed)}")
    report.bullets(*facts)
    changes = seq.changes()
    for gid in o.gangs:
        g = seq.work.gang(gid)
        before = seq.base.gang(gid)
        report.heading(f"{g.name} ({g.type})")
        terr = ", ".join(t.name for t in g.territories) or "none"
        mine = [c for c in changes if c.gang == gid and not isinstance(c, Note)]
        report.bullets(
            f"Gang Rating {before.rating} -> {g.rating}; Reputation "
            f"{before.reputation} -> {g.reputation}; credits {before.credits} -> {g.credits}",
            f"Territories: {terr}" + (f" (Turf Size {g.territory_size})"
                                      if seq.ruleset.get("turf_size", False) else ""),
            Item("Changes:", tuple(Item(describe(seq, c)) for c in mine)) if mine
            else Item("No changes."),
        )
    caps = []
    for g in seq.work.gangs:
        for f in g.fighters:
            if f.status is FighterStatus.CAPTURED:
                by = "the Guilders" if f.captured_by == "guilders" else names.get(f.captured_by,
                                                                                  f.captured_by)
                caps.append(f"{f.name} ({g.name}) held by {by}")
    fallen = []
    for g in seq.work.gangs:
        buried = {f.id for f in seq.base.gang(g.id).fallen} if g.fallen else set()
        for f in g.fallen:
            if f.id not in buried:
                why = f" ({f.status_why})" if f.status_why else ""
                fallen.append(f"{f.name} ({g.name}){why}")
    if fallen:  # seed 004, Delete Dead Fighters: removed from the roster, kept in the history
        report.heading("Fallen")
        report.bullets(*fallen)
    departed = []
    for g in seq.work.gangs:
        gone = {f.id for f in seq.base.gang(g.id).departed} if g.departed else set()
        for f in g.departed:
            if f.id not in gone:
                why = f" ({f.status_why})" if f.status_why else ""
                departed.append(f"{f.name} ({g.name}){why}")
                if f.status is FighterStatus.CAPTURED:
                    caps.append(f"{f.name} ({g.name}) held by the Guilders, removed from the roster")
    if departed:  # Delete Retiring Fighters: removed from the roster, kept apart
        report.heading("Left the roster")
        report.bullets(*departed)
    report.heading("Captives")
    report.bullets(*(caps or ["none"]))
    loot = [c for c in changes if isinstance(c, (AddItem, TakeItem, Seize))]
    report.heading("Loot")
    report.bullets(*([f"{names.get(c.gang, c.gang)}: {describe(seq, c)}" for c in loot]
                     or ["none"]))
    from ..prebattle.scenario import reroll_lines

    rerolls = [f"Pre-battle, {r.get('label') or r.get('table', 'roll')}: {text}"
               for r in (seq.setup.get("rolls") or []) if isinstance(r, dict)
               for text in reroll_lines(r)]
    rerolls += seq.rerolls()
    if rerolls:
        report.heading("Re-rolls and corrections")
        report.bullets(*rerolls)
    return report
