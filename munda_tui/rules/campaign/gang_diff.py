"""What changed in a gang between two versions of it, in words (a league's conflict:
what each laptop changed since they last agreed). Pure: two Gang values in, lines out."""

from __future__ import annotations

from ..core.model import Fighter, Gang
from ..core.wording import plural


def _fighter_lines(before: Fighter, after: Fighter) -> list[str]:
    out: list[str] = []
    name = after.name
    if before.name != after.name:
        out.append(f"{before.name} renamed {after.name}")
    if before.xp != after.xp:
        out.append(f"{name}: XP {before.xp} -> {after.xp}")
    if before.kills != after.kills:
        out.append(f"{name}: kills {before.kills} -> {after.kills}")
    if before.status != after.status:
        out.append(f"{name}: {before.status.value} -> {after.status.value}")
    gained = [i.name for i in after.injuries if i not in before.injuries]
    if gained:
        out.append(f"{name}: injuries + {', '.join(gained)}")
    kit_before = sorted(e.name for e in before.equipment)
    kit_after = sorted(e.name for e in after.equipment)
    if kit_before != kit_after:
        added = [n for n in kit_after if n not in kit_before]
        lost = [n for n in kit_before if n not in kit_after]
        out.append(f"{name}: equipment" + (f" + {', '.join(added)}" if added else "")
                   + (f" - {', '.join(lost)}" if lost else ""))
    if before.skills != after.skills:
        out.append(f"{name}: skills {', '.join(after.skills) or 'none'}")
    if before.characteristics != after.characteristics or before.advancements != after.advancements:
        out.append(f"{name}: profile or advancements changed")
    if not out and before != after:
        out.append(f"{name}: details changed")
    return out


def changes(before: Gang | None, after: Gang | None) -> list[str]:
    """Lines saying how ``after`` differs from ``before`` (None: the gang is not there)."""
    if before is None and after is None:
        return []
    if before is None:
        assert after is not None
        return [f"{after.name} added ({plural(len(after.fighters), 'fighter')})"]
    if after is None:
        return [f"{before.name} removed"]
    out: list[str] = []
    if before.name != after.name:
        out.append(f"renamed {after.name}")
    if before.credits != after.credits:
        out.append(f"credits {before.credits} -> {after.credits}")
    if before.reputation != after.reputation:
        out.append(f"Reputation {before.reputation} -> {after.reputation}")
    if [t.name for t in before.territories] != [t.name for t in after.territories]:
        out.append("territories: " + (", ".join(t.name for t in after.territories) or "none"))
    if [e.name for e in before.stash] != [e.name for e in after.stash]:
        out.append("stash: " + (", ".join(e.name for e in after.stash) or "empty"))
    old = {f.id: f for f in before.fighters}
    new = {f.id: f for f in after.fighters}
    for f in after.fighters:
        if f.id not in old:
            out.append(f"{f.name} joined")
        elif old[f.id] != f:
            out.extend(_fighter_lines(old[f.id], f))
    for f in before.fighters:
        if f.id not in new:
            fell = any(x.id == f.id for x in getattr(after, "fallen", []))
            out.append(f"{f.name} {'fell' if fell else 'left the roster'}")
    if not out and before != after:
        out.append("details changed")
    return out
