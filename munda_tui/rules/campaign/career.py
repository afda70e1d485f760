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

from collections.abc import Sequence
from typing import Any

from ..core import profile as profile_rules
from ..core.data import RuleData
from ..core.model import Campaign, Fighter, FighterStatus, Gang, LastingInjury
from ..core.outcome import BankedReward, BattleOutcome, FighterOutcome

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


def add_injury(fighter: Fighter, name: str, *, roll: str | int = "", effect: str = "",
               profile: Sequence[tuple[str, int]] = (), battle: int | None = None,
               note: bool = False) -> LastingInjury:
    """Record a Lasting Injury (a post-battle ``injury`` change) and apply its
    characteristic changes (``profile``) to the profile; ``note``: an effect the profile
    cannot show is kept in the fighter's notes."""
    changes = [(str(k), int(d)) for k, d in profile]
    lines = profile_rules.apply(fighter.characteristics, changes, clamp=True) if changes else []
    if lines:
        effect = f"{effect}: {'; '.join(lines)}" if effect else "; ".join(lines)
    injury = LastingInjury(name=name, roll=roll, effect=effect, battle=battle)  # type: ignore[arg-type]
    fighter.injuries.append(injury)
    if effect and not changes and note:
        line = f"{name}: {effect}"  # an effect the profile cannot show
        fighter.notes = f"{fighter.notes}\n{line}" if fighter.notes else line
    return injury


def recovery_ends(gang: Gang, battle: int) -> list[Fighter]:
    """Fighters of ``gang`` whose Recovery ends when battle ``battle``'s
    post-battle sequence ends: in Recovery since an earlier sequence (or since
    an unknown one, e.g. imported), so they missed this battle."""
    return [f for f in gang.fighters
            if f.status is FighterStatus.RECOVERY and f.status_battle < battle]


def captives(campaign: Campaign, gang_id: str) -> list[tuple[Gang, Fighter]]:
    """Who this gang holds: (the captive's gang, the captive), from each fighter's
    ``captured_by`` (the list Escaping Capture, rescue, sale and ransom work from)."""
    return [(g, f) for g in campaign.gangs if g.id != gang_id for f in g.fighters
            if f.status is FighterStatus.CAPTURED and f.captured_by == gang_id]


def status_text(fighter: Fighter, gang_names: dict[str, str] | None = None) -> str:
    """``"in Recovery (Grievous Injury, battle 1): misses the next battle"``;
    ``gang_names`` (id -> name) names a captor."""
    s = fighter.status
    if s is FighterStatus.ACTIVE:
        return "active"
    if s is FighterStatus.CAPTURED and fighter.captured_by:
        by = ("the Guilders" if fighter.captured_by == "guilders"
              else (gang_names or {}).get(fighter.captured_by, fighter.captured_by))
        why = ", ".join(x for x in (fighter.status_why, f"battle {fighter.status_battle}"
                                    if fighter.status_battle else "") if x)
        return f"Captured by {by}" + (f" ({why})" if why else "")
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


# --- XP to the fighters a reward names ------------------------------------------------

SURVIVORS = ("without being taken out of action",)
WHOLE_GANG = ("every fighter in your gang", "each fighter in your gang", "every fighter on")


def xp_recipients(gang: Gang, fought: list[FighterOutcome], reward: BankedReward, card_text: str = "") -> list[str]:
    """The fighter ids a banked XP reward goes to. ``fought``: the gang's
    FighterOutcomes of fighters who took part. A reward to "*" reads the card:
    "every fighter in your gang" is every fighter on the roster (not dead,
    retired or Captured); "any fighter who survives the game without being taken
    Out of Action" leaves out those taken Out of Action; otherwise every fighter
    who took part."""
    if reward.fighter != "*":
        return [reward.fighter] if reward.fighter else []
    text = f"{reward.note} {card_text}".lower()
    if any(p in text for p in SURVIVORS):
        return [fo.fighter for fo in fought if str(fo.end_state) != "out_of_action"]
    if whole_gang(reward, card_text):
        # readings: every-fighter-in-your-gang (the Captured are left out)
        return [f.id for f in gang.fighters if f.status not in
                (FighterStatus.DEAD, FighterStatus.RETIRED, FighterStatus.CAPTURED)]
    return [fo.fighter for fo in fought]


def whole_gang(reward: BankedReward, card_text: str = "") -> bool:
    """Whether a reward to "*" is for "every fighter in your gang" (the roster), not the
    crew that fought."""
    text = f"{reward.note} {card_text}".lower()
    return reward.fighter == "*" and not any(p in text for p in SURVIVORS) and any(
        p in text for p in WHOLE_GANG)


# --- XP awards and kills from the log -------------------------------------------------


def xp_events(data: RuleData | None = None) -> list[dict[str, str]]:
    """The events the XP awards table can price (data/xp_awards.toml, then the packs')."""
    from ..core.data import given

    return [dict(item.data) for item in given(data).items("xp_awards")]


def check_xp_awards(awards: dict[str, Any]) -> dict[str, int]:
    """The Arbitrator's XP awards table, checked (ValueError with the message)."""
    if not awards:  # (most campaigns: the table's data file is then not read to open one)
        return {}
    from ..core.limits import is_pack_id

    known = {e["id"] for e in xp_events()}
    out: dict[str, int] = {}
    for key, value in awards.items():
        if key not in known and not is_pack_id(key):  # (a pack's event: its pack may be
            # missing on this laptop; the campaign still opens)
            raise ValueError(f"XP awards: unknown event {key!r} (known: {', '.join(sorted(known))})")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"XP awards: {key} must be a whole number of XP, 0 or more")
        out[key] = value
    return out


def kills_of(outcome: BattleOutcome, gang_id: str, fighter_id: str) -> int:
    """Enemy fighters this fighter took Out of Action, as the battle ended."""
    me = f"{gang_id}/{fighter_id}"
    return sum(1 for fo in outcome.fighters if fo.gang != gang_id
               and str(fo.end_state) == "out_of_action" and fo.taken_out_by == me)


def xp_proposal(fo: FighterOutcome, won: bool, awards: dict[str, int]) -> list[tuple[int, str]]:
    """(XP, reason) lines for one fighter who took part, from the log and the
    Arbitrator's awards table (events without an award earn nothing)."""
    events = {e["id"]: e for e in xp_events()}
    counts = dict(fo.caused)
    counts["took_part"] = 1
    if won:
        counts["won"] = 1
    lines = []
    for key, event in events.items():
        n = counts.get(key, 0)
        if n and awards.get(key):
            times = f"{n} x " if n > 1 else ""
            lines.append((n * awards[key], f"{times}{event['label']} ({awards[key]} XP each)"
                          if n > 1 else f"{event['label']} ({awards[key]} XP)"))
    return lines


# --- Advancements --------------------------------------------------------------------


def advancement_limit(fighter: Fighter, key: str) -> int:
    """How many steps a characteristic can still improve before it is impossible
    (WS 2+ cannot improve; M 12 cannot)."""
    if key not in fighter.characteristics:
        return 0
    lo, hi = profile_rules.LIMITS[key]
    value = fighter.characteristics[key]
    return max(0, value - lo if profile_rules.is_target(key) else hi - value)


def apply_advancement(fighter: Fighter, name: str, *, skill: bool = False,
                      profile: Sequence[tuple[str, int]] = ()) -> list[str]:
    """An Advancement the player entered (what was bought and its XP cost: the
    seeds do not print the table): a characteristic increase (``profile``) changes the
    profile (+1 to WS 4+ gives 3+), a skill joins the skill list, anything else is kept
    in the notes. The XP and cost are the caller's (the ``advance`` change)."""
    changes = [(str(k), int(d)) for k, d in profile]
    lines: list[str] = []
    if changes:
        lines = profile_rules.apply(fighter.characteristics, changes, clamp=True)
    elif skill:
        if name not in fighter.skills:
            fighter.skills.append(name)
    else:
        fighter.notes = (fighter.notes + "\n" if fighter.notes else "") + f"Advancement: {name}"
    return lines


def export_section() -> dict[str, Any]:
    """`rules export`: the profile's limits, the XP award events (no numbers: the
    Arbitrator's), the item kinds and the weapon limit, the fighter roles by type name."""
    from ..core.data import load_data
    from ..core.model import ITEM_KINDS, WEAPON_LIMIT

    roles = load_data("fighter_roles.toml")
    return {
        "characteristics": [
            {"id": k, "label": profile_rules.LABELS[k], "name": profile_rules.NAMES[k],
             "target_number": profile_rules.is_target(k),
             "min": profile_rules.LIMITS[k][0], "max": profile_rules.LIMITS[k][1]}
            for k in profile_rules.CHARACTERISTICS],
        "xp_award_events": xp_events(),
        "item_kinds": list(ITEM_KINDS),
        "weapon_limit": {"weapons": WEAPON_LIMIT, "unwieldy_counts": 2,
                         "source": "seed 004, Distribute Equipment"},
        "fighter_roles": {"types": dict(roles["types"]), "lists": list(roles.get("lists", [])),
                          "gangs": list(roles.get("gangs", [])), "words": list(roles["words"])},
    }
