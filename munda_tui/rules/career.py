"""A fighter's career across battles: statuses over time, Lasting Injuries on
the profile, advancements, kills.

Pure functions on ``rules.model.Fighter`` that the post-battle changes
(``postbattle.apply_change``) and the roster call, so every path applies the
rules the same way.

- Recovery (seed 004; Lasting Injuries "goes into Recovery"): the fighter misses
  the gang's next battle. A fighter put into Recovery by the post-battle
  sequence of battle N is available again when the gang's next post-battle
  sequence (of a later battle) ends: :func:`recovery_ends`.
- A Critical Injury ("dies unless given medical attention") is resolved in the
  sequence that caused it: Medical Escort (Stabilized, Full Recovery,
  Complications) or death in Delete Dead Fighters. When the status leaves
  Critical the injury's text says how it was resolved, never the stale
  "dies unless ...".
- A Lasting Injury with characteristic changes (``profile``) changes the
  profile (``rules.profile``: -1 to WS 3+ gives 4+), clamped at the possible
  range; the change is undone with the step, since the sequence is replayed.
"""

from __future__ import annotations

from typing import Any

from . import profile as profile_rules
from .model import Fighter, FighterStatus, Gang, LastingInjury

CRITICAL_TEXT = "dies unless given medical attention"


def set_status(fighter: Fighter, status: FighterStatus, why: str = "", battle: int = 0,
               captured_by: str = "") -> None:
    old = fighter.status
    fighter.status = status
    fighter.captured_by = captured_by if status is FighterStatus.CAPTURED else ""
    if status is FighterStatus.ACTIVE:
        fighter.status_why, fighter.status_battle = "", 0
    else:
        fighter.status_why, fighter.status_battle = why, battle
    if old is FighterStatus.CRITICAL and status is not FighterStatus.CRITICAL:
        resolve_critical(fighter, status, why)


def resolve_critical(fighter: Fighter, status: FighterStatus, why: str) -> None:
    """The open Critical Injury on the fighter now says how it ended."""
    for injury in reversed(fighter.injuries):
        if injury.name == "Critical Injury" and (not injury.effect or CRITICAL_TEXT in injury.effect):
            if status is FighterStatus.DEAD:
                injury.effect = f"died ({why})" if why else "died"
            else:
                injury.effect = f"resolved: {why}" if why else "resolved"
                injury.effect += f", {status.value}" if status is not FighterStatus.ACTIVE else ""
            return


def effect_changes(text: str) -> list[tuple[str, int]]:
    """The characteristic changes a player typed for an injury's effect
    (``-1 Ballistic Skill, -1 Cool``; ``none`` for none). ValueError with the
    message to show."""
    t = str(text).strip()
    if t.lower() in ("none", "-", "no effect", "nothing"):
        return []
    try:
        return profile_rules.parse_effect(t)
    except profile_rules.ProfileError as exc:
        raise ValueError(f"{exc}: write e.g. -1 Ballistic Skill, -1 Cool (or none)") from None


def add_injury(fighter: Fighter, ch: dict[str, Any]) -> LastingInjury:
    """Record a Lasting Injury (a post-battle ``injury`` change) and apply its
    characteristic changes to the profile."""
    changes = [(str(k), int(d)) for k, d in ch.get("profile", [])]
    effect = ch.get("effect", "")
    lines = profile_rules.apply(fighter.characteristics, changes, clamp=True) if changes else []
    if lines:
        effect = f"{effect}: {'; '.join(lines)}" if effect else "; ".join(lines)
    injury = LastingInjury(name=ch["name"], roll=ch.get("roll", ""), effect=effect,
                           battle=ch.get("battle"))
    fighter.injuries.append(injury)
    if effect and not changes and ch.get("note"):
        line = f"{ch['name']}: {effect}"  # an effect the profile cannot show
        fighter.notes = f"{fighter.notes}\n{line}" if fighter.notes else line
    return injury


def recovery_ends(gang: Gang, battle: int) -> list[Fighter]:
    """Fighters of ``gang`` whose Recovery ends when battle ``battle``'s
    post-battle sequence ends: in Recovery since an earlier sequence (or since
    an unknown one, e.g. imported), so they missed this battle."""
    return [f for f in gang.fighters
            if f.status is FighterStatus.RECOVERY and f.status_battle < battle]


def status_text(fighter: Fighter) -> str:
    """``"in Recovery (Grievous Injury, battle 1): misses the next battle"``."""
    s = fighter.status
    if s is FighterStatus.ACTIVE:
        return "active"
    why = ", ".join(x for x in (fighter.status_why,
                                f"battle {fighter.status_battle}" if fighter.status_battle else "")
                    if x)
    label = {FighterStatus.RECOVERY: "in Recovery", FighterStatus.CAPTURED: "Captured",
             FighterStatus.CRITICAL: "Critically Injured", FighterStatus.DEAD: "dead",
             FighterStatus.RETIRED: "retired"}[s]
    out = f"{label} ({why})" if why else label
    if s is FighterStatus.RECOVERY:
        out += ": misses the gang's next battle"
    return out
