"""The resolvers of the post-battle steps (all but the Post-Battle Actions).

Each resolver walks its step for both gangs: it asks (rolls, choices), says
what happened and records changes. ``walk.seq.facts`` carries what later
steps need (who went Out of Action, who died and how, Seek Buyer counts ...).
"""

from __future__ import annotations

from typing import Any

from ..campaign import career as career
from ..core.model import ITEM_KINDS, Equipment, FighterStatus, FighterType, Gang, GangType, TerritoryKind
from ..core.outcome import BattleOutcome, EndState, FighterOutcome, RewardKind
from ..core.readings import note as reading_note
from .changes import AddItem, Advance, Bounty, Bury, Credits, Depart, GiveItem, Hire, Injury, Kills, MarkSpent, NewFighterType, RemoveItem, Reputation, Status, TacticsAdd, TacticsRemove, TerritoryAdd, TerritoryRemove, TerritorySize, ToStash, WeaponOverride, Xp
from .core import (
    Sequence,
    Option,
    Walk,
    entry_kinds,
    get_table,
    injury_table,
    lookup,
    range_text,
    row_text,
    resolver,
)
from ..subplots.decks import REWARD_KINDS
from ..core.wording import possessive


GANG_MEMBER_TYPES = {
    FighterType.LEADER, FighterType.CHAMPION, FighterType.PROSPECT, FighterType.SPECIALIST,
    FighterType.GANGER, FighterType.JUVE, FighterType.BRUTE,
}
MERC_TYPES = {FighterType.HIRED_GUN}


def facts(walk: Walk) -> dict[str, Any]:
    return walk.seq.facts


def fought(walk: Walk, gang_id: str) -> list[FighterOutcome]:
    return [f for f in walk.seq.outcome.crew(gang_id) if f.end_state is not EndState.NOT_DEPLOYED]


def died(walk: Walk, gang_id: str, fighter_id: str, **how: Any) -> None:
    d = facts(walk).setdefault("died", {})
    d.setdefault(f"{gang_id}/{fighter_id}", {}).update(how)


def set_status(walk: Walk, gang_id: str, fighter_id: str, status: FighterStatus, why: str,
               captured_by: str = "") -> None:
    walk.change(Status(gang=gang_id, fighter=fighter_id, status=str(status),
                captured_by=captured_by, why=why))


def row_line(table: dict[str, Any], total: int, row: dict[str, Any] | None) -> str:
    if row is None:
        return f"{table['title']}: {total}: no result on the table, nothing happens."
    return f"{table['title']} {total} ({range_text(row)}): {row_text(row)}"


def table_of(walk: Walk, name: str) -> dict[str, Any]:
    return get_table(walk.seq.ruleset_id, name, walk.seq.data)


# --- Lasting Injuries ----------------------------------------------------------------


def injury_table_name(walk: Walk) -> str:
    return walk.seq.base.settings.lasting_injury_table or walk.seq.ruleset.get(
        "injury_table_default", "rulebook-2018")


def lasting_injury(walk: Walk, gang_id: str, fighter_id: str, pid: str, why: str,
                   attacker: str = "", rolls: int = 1, rolls_why: str = "",
                   fixed: str = "", fixed_why: str = "") -> dict[str, Any]:
    """Roll (or enter) a Lasting Injury for a fighter and apply it. Returns the row
    (``{"dead": True}`` when the fighter died). ``rolls`` 2: two rolls are made and the
    higher result is applied (``rolls_why``: the Sub-plot that says so)."""
    g = walk.campaign.gang(gang_id)
    f = g.fighter(fighter_id)
    name = f.name
    if not f.standard_injuries:
        text = walk.text(f"{pid}:alt", f"{name} uses another Injury table: enter the result",
                         gang=gang_id, note="Not the standard Lasting Injury table: enter the "
                         "result and apply its effects by hand.")
        walk.change(Injury(gang=gang_id, fighter=fighter_id, name=text,
                    battle=walk.seq.number))
        walk.say(f"{name}: {text} (own table)")
        return {"name": text}
    table = injury_table(injury_table_name(walk), walk.seq.data)
    fixed_row = next((rw for rw in table.get("rows", []) if fixed and rw["name"] == fixed), None)
    if fixed_row is not None:  # a Sub-plot fixes the result: no roll (Sumptown Shakedown)
        from types import SimpleNamespace

        r: Any = SimpleNamespace(total=f"{fixed_row['min']}-{fixed_row['max']}")
        walk.say(f"{name}: no Lasting Injury roll, the result counts as {fixed} ({fixed_why})")
        rolls = 1
    else:
        r = walk.roll(pid, f"Lasting Injury for {name} ({why})", "D66", gang=gang_id,
                      table=injury_table_name(walk))
    if rolls > 1:
        # "two Lasting Injury rolls are made against them and the higher result is applied"
        r2 = walk.roll(f"{pid}:second", f"Second Lasting Injury roll for {name} "
                       f"({rolls_why}: the higher result is applied)", "D66", gang=gang_id,
                       table=injury_table_name(walk))
        walk.say(f"{name}: two Lasting Injury rolls ({rolls_why}), {r.total} and {r2.total}: "
                 f"{max(r.total, r2.total)} applied")
        if r2.total > r.total:
            r = r2
    row = fixed_row or lookup(table, r.total) or {"name": "?", "effect": ""}
    rows = [row]
    if row.get("multiple"):
        extra = walk.roll(f"{pid}:multi", f"Multiple Injuries: how many more rolls for {name}",
                          row["multiple"], gang=gang_id)
        reroll = set(row.get("reroll", []))
        for k in range(extra.total):
            attempt = 0
            while True:
                r2 = walk.roll(f"{pid}:multi{k}:{attempt}", f"{name}: Multiple Injuries roll "
                               f"{k + 1} of {extra.total}", "D66", gang=gang_id,
                               table=injury_table_name(walk))
                row2 = lookup(table, r2.total) or {"name": "?"}
                if row2["name"] in reroll:
                    walk.say(f"  {r2.total} {row2['name']}: re-rolled")
                    attempt += 1
                    continue
                rows.append(row2)
                break
    result: dict[str, Any] = {"name": row["name"], "dead": False}
    for i, rw in enumerate(rows):
        walk.say(f"{name}: Lasting Injury {r.total if i == 0 else ''} {rw['name']}"
                 + (f" ({rw['effect']})" if rw.get("effect") else ""))
        if any(rw.get(k) for k in ("permanent", "critical", "dead", "captured")):
            record_injury(walk, gang_id, fighter_id, rw, str(r.total), f"{pid}:{i}")
        result = apply_injury_row(walk, gang_id, fighter_id, rw, f"{pid}:{i}", attacker) | {
            "name": rw["name"]} if not result.get("dead") else result
    return result


def apply_injury_row(walk: Walk, gang_id: str, fighter_id: str, row: dict[str, Any], pid: str,
                     attacker: str = "") -> dict[str, Any]:
    name = walk.fname(gang_id, fighter_id)
    # a result whose effects the table does not print (the 2023 table) asks them, from the
    # player's book, or applies what its name says (readings: core-2023-results)
    asked = reading_note("core-2023-results")
    if row.get("xp"):
        xp = walk.roll(f"{pid}:xp", f"{row['name']}: XP for {name}", row["xp"], gang=gang_id)
        walk.change(Xp(gang=gang_id, fighter=fighter_id, amount=xp.total,
                    why=row["name"]))
        walk.say(f"{name} gains {xp.total} XP ({xp})")
    elif row.get("ask_xp"):
        n = walk.number(f"{pid}:xp", f"{row['name']}: XP {name} gains (from your book)",
                        gang=gang_id, minimum=0, note=asked)
        if n:
            walk.change(Xp(gang=gang_id, fighter=fighter_id, amount=n, why=row["name"]))
        walk.say(f"{name} gains {n} XP ({row['name']}, from the book)")
    recovery = bool(row.get("recovery"))
    if row.get("ask_recovery"):
        recovery = walk.choose(
            f"{pid}:recovery", f"{row['name']}: does {name} go into Recovery (from your book)?",
            [Option("recovery", "Goes into Recovery"), Option("no", "No Recovery")],
            gang=gang_id, note=asked) == "recovery"
    if row.get("dead"):
        set_status(walk, gang_id, fighter_id, FighterStatus.DEAD, row["name"])
        died(walk, gang_id, fighter_id, cause=row["name"])
        if (row.get("attacker_xp") or row.get("ask_attacker_xp")) and attacker and "/" in attacker:
            ag, af = attacker.split("/", 1)
            try:
                walk.campaign.gang(ag).fighter(af)
            except KeyError:
                pass
            else:
                amount = row.get("attacker_xp") or walk.number(
                    f"{pid}:attacker_xp", f"{row['name']} of {name}: XP {walk.fname(ag, af)} "
                    "gains (from your book)", gang=ag, minimum=0, note=asked)
                if amount:
                    walk.change(Xp(gang=ag, fighter=af, amount=amount,
                                why=f"{row['name']} of {name}"))
                walk.say(f"{walk.fname(ag, af)} gains {amount} XP")
        return {"dead": True}
    if row.get("critical"):
        set_status(walk, gang_id, fighter_id, FighterStatus.CRITICAL, row["name"])
    elif row.get("captured"):
        opp = walk.opponent(gang_id)
        set_status(walk, gang_id, fighter_id, FighterStatus.CAPTURED, row["name"], opp)
        facts(walk).setdefault("captured", []).append(f"{gang_id}/{fighter_id}")
    elif recovery:
        set_status(walk, gang_id, fighter_id, FighterStatus.RECOVERY, row["name"])
        if not row.get("effect"):  # (the 2018 rows say it in their effect)
            walk.say(f"{name} goes into Recovery ({row['name']})")
    return {"dead": False}


def permanent_injury(walk: Walk, gang_id: str, fighter_id: str, pid: str, why: str) -> None:
    """A D6 read as the second die of a D66 whose first die is 5 (51-56), on a table
    whose 51-56 are permanent injuries (readings: permanent-injury-reading)."""
    name = walk.fname(gang_id, fighter_id)
    f = walk.campaign.gang(gang_id).fighter(fighter_id)
    if not f.standard_injuries:  # an alternate Injury table: its own result, entered
        text = walk.text(f"{pid}:alt", f"{name} uses another Injury table: enter the "
                         f"Permanent Injury ({why})", gang=gang_id)
        walk.change(Injury(gang=gang_id, fighter=fighter_id, name=text,
                    battle=walk.seq.number))
        walk.say(f"{name}: {text} (own table)")
        return
    chosen = injury_table_name(walk)
    reading = injury_table(chosen, walk.seq.data).get("permanent_reading", chosen)
    table = injury_table(reading, walk.seq.data)
    note = "Read as in Medical Escort: a roll of 1 counts as 51, a roll of 2 as 52, and so on."
    if reading != chosen:
        note += (f" Read on the {table['title']}: the campaign's table has results there that "
                 "are not permanent injuries (Multiple Injuries, Captured).")
    r = walk.roll(pid, f"Permanent Injury for {name} ({why}): D6 read as 51-56", "D6",
                  gang=gang_id, table=reading, note=note)
    row = lookup(table, 50 + r.total) or {"name": "?", "effect": ""}
    walk.say(f"{name}: {50 + r.total} {row['name']} ({row.get('effect', '')})")
    record_injury(walk, gang_id, fighter_id, row, str(50 + r.total), pid)


def record_injury(walk: Walk, gang_id: str, fighter_id: str, row: dict[str, Any], roll: str,
                  pid: str) -> None:
    """Put a Lasting Injury on the fighter with its effect on the profile: the table's
    ``profile`` changes (2018), or for a permanent result whose table does not print its
    effect (2023) the effect the player enters from their book."""
    effect = row.get("effect", "")
    changes = [[k, d] for k, d in row.get("profile", {}).items()]
    if row.get("permanent") and "profile" not in row and not effect:
        name = walk.fname(gang_id, fighter_id)
        effect = walk.text(f"{pid}:effect", f"{row['name']}: its effect on {possessive(name)} profile",
                           gang=gang_id, check="profile_effect",
                           note="From your book, e.g. -1 Ballistic Skill (worse: 3+ becomes "
                           "4+), or none. The app applies it to the profile.")
        changes = [[k, d] for k, d in career.effect_changes(effect)]
        if effect.strip().lower() in ("none", "-", "no effect", "nothing"):
            effect = ""
    walk.change(Injury(gang=gang_id, fighter=fighter_id, name=row["name"], roll=roll,
                effect=effect, profile=tuple((k, d) for k, d in changes), battle=walk.seq.number,
                note=bool(row.get("permanent") and effect and not changes)))
    if changes:
        f = walk.campaign.gang(gang_id).fighter(fighter_id)
        walk.say(f"  {f.name}: {f.injuries[-1].effect}")


# --- hand entry of the outcome -------------------------------------------------------


@resolver("battle_outcome")
def battle_outcome(walk: Walk) -> None:
    seq = walk.seq
    gangs = [g.id for g in seq.base.gangs]
    setup_gangs = [s.get("gang") for s in seq.setup.get("sides", [])]
    default_pair = [g for g in setup_gangs if g in gangs] or gangs[:2]
    outcome = BattleOutcome(battle=seq.number, gangs=list(default_pair))
    seq.outcome = outcome
    if len(gangs) > 2:
        opts = [Option(g.id, g.name) for g in seq.base.gangs]
        picked = walk.multi("outcome:gangs", "Which two gangs fought?", opts,
                            default=default_pair, minimum=2, maximum=2)
        outcome.gangs = picked
    for gid in outcome.gangs:
        g = walk.campaign.gang(gid)
        crew_default = []
        for s in seq.setup.get("sides", []):
            if s.get("gang") == gid:
                crew_default = [c.get("fighter") for c in s.get("crew", [])]
        able = [f for f in g.fighters if f.can_fight]
        opts = [Option(f.id, f"{f.name} ({f.type})") for f in able]
        crew = walk.multi(f"outcome:{gid}:crew", f"{g.name}: who fought?", opts, gang=gid,
                          default=[f for f in crew_default if any(o.id == f for o in opts)]
                          or [o.id for o in opts], minimum=1)
        copts = [o for o in opts if o.id in crew]
        si = walk.multi(f"outcome:{gid}:si", f"{g.name}: who was Seriously Injured when the "
                        "battle ended?", copts, gang=gid)
        oopts = [o for o in copts if o.id not in si]
        ooa = walk.multi(f"outcome:{gid}:ooa", f"{g.name}: who was Out of Action?", oopts,
                         gang=gid)
        fopts = [o for o in oopts if o.id not in ooa]
        fled = walk.multi(f"outcome:{gid}:fled", f"{g.name}: who fled the battlefield?", fopts,
                          gang=gid)
        for fid in crew:
            state = (EndState.SERIOUSLY_INJURED if fid in si else EndState.OUT_OF_ACTION
                     if fid in ooa else EndState.FLED if fid in fled else EndState.STANDING)
            outcome.fighters.append(FighterOutcome(gang=gid, fighter=fid, end_state=state))
        captured = walk.multi(f"outcome:{gid}:captured", f"{g.name}: who was Captured during "
                              "the battle (by the scenario)?", copts, gang=gid,
                              note="Fate of the Fallen decides the Seriously Injured later.")
        for fid in captured:
            set_status(walk, gid, fid, FighterStatus.CAPTURED, "Captured in the battle",
                       walk.opponent(gid) if len(outcome.gangs) > 1 else "")
            facts(walk).setdefault("captured", []).append(f"{gid}/{fid}")
    for gid in outcome.gangs:
        g = walk.campaign.gang(gid)
        outcome.takes_prisoners[gid] = walk.choose(
            f"outcome:{gid}:prisoners", f"Does {g.name} take prisoners?",
            [Option("yes", "Yes"), Option("no", "No")], gang=gid) == "yes"
    opts = [Option(gid, walk.campaign.gang(gid).name) for gid in outcome.gangs]
    opts.append(Option("draw", "Draw / no winner"))
    w = walk.choose("outcome:winner", "Who won?", opts)
    outcome.winner = "" if w == "draw" else w
    walk.say("Crews: " + "; ".join(
        f"{walk.campaign.gang(gid).name} {len(outcome.crew(gid))}" for gid in outcome.gangs))
    walk.say("Winner: " + (walk.campaign.gang(outcome.winner).name if outcome.winner else "none"))


# --- the opening steps ---------------------------------------------------------------


@resolver("wrap_up")
def wrap_up(walk: Walk) -> None:
    o = walk.seq.outcome
    walk.say(f"Scenario: {o.scenario or '—'}  Battlefield: {o.battlefield or '—'}")
    walk.say("Winner: " + (walk.campaign.gang(o.winner).name if o.winner else "none (draw)"))
    for g in walk.gangs:
        counts: dict[str, int] = {}
        for f in fought(walk, g.id):
            counts[str(f.end_state)] = counts.get(str(f.end_state), 0) + 1
        xp = sum(f.xp for f in o.crew(g.id))
        parts = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in sorted(counts.items()))
        walk.say(f"{g.name}: {parts or 'no crew recorded'}; {xp} XP earned")
    kills_and_xp(walk)


def kills_and_xp(walk: Walk) -> None:
    """Kills counted from the log into each fighter's Kills; XP proposed per fighter from
    the log and the campaign's XP awards table (entered by the Arbitrator: the seeds do
    not print it), a reason per line; each gang's player accepts or edits it."""
    o = walk.seq.outcome
    awards = walk.seq.base.settings.xp_awards
    for g in walk.gangs:
        for fo in fought(walk, g.id):
            n = career.kills_of(o, g.id, fo.fighter)
            if n:
                walk.change(Kills(gang=g.id, fighter=fo.fighter, amount=n,
                            why=f"took {n} enem{'y' if n == 1 else 'ies'} Out of Action"))
                walk.say(f"{walk.fname(g.id, fo.fighter)}: Kills +{n}")
    if not awards:
        walk.say("XP awards table empty: the Arbitrator enters what each event earns in the "
                 "campaign settings (the seeds do not print it). XP logged in the tracker is "
                 "given in Receive Rewards.")
        return
    for g in walk.gangs:
        proposal = []
        for fo in fought(walk, g.id):
            try:
                g.fighter(fo.fighter)
            except KeyError:
                continue
            lines = career.xp_proposal(fo, o.winner == g.id, awards)
            if lines:
                proposal.append((fo.fighter, lines))
        if not proposal:
            walk.say(f"{g.name}: no XP from the awards table")
            continue
        for fid, lines in proposal:
            walk.say(f"{g.name}: {walk.fname(g.id, fid)} {sum(x for x, _ in lines)} XP: "
                     + "; ".join(f"{why} +{x}" for x, why in lines))
        c = walk.choose(f"xp:{g.id}", f"{g.name}: XP from the awards table as proposed?",
                        [Option("accept", "Accept the proposed XP"),
                         Option("edit", "Edit each fighter's XP")], gang=g.id)
        for fid, lines in proposal:
            amount = sum(x for x, _ in lines)
            why = "; ".join(w for _, w in lines)
            if c == "edit":
                amount = walk.number(f"xp:{g.id}:{fid}", f"{walk.fname(g.id, fid)}: XP "
                                     f"(proposed {amount}: {why})", gang=g.id, minimum=0,
                                     default=amount)
                why = f"XP awards, edited (proposed: {why})"
            if amount:
                walk.change(Xp(gang=g.id, fighter=fid, amount=amount, why=why))


@resolver("consumables")
def consumables(walk: Walk) -> None:
    any_items = False
    for g in walk.gangs:
        crew = {f.fighter: f for f in fought(walk, g.id)}
        opts, default = [], []
        for fid, fo in crew.items():
            try:
                f = g.fighter(fid)
            except KeyError:
                continue
            for it in f.equipment:
                if it.consumable and not it.spent:
                    oid = f"{fid}|{it.name}"
                    opts.append(Option(oid, f"{f.name}: {it.name}"))
                    if it.name in fo.consumables_spent:
                        default.append(oid)
        if not opts:
            continue
        any_items = True
        spent = walk.multi(f"consumables:{g.id}", f"{g.name}: which consumables were expended?",
                           opts, gang=g.id, default=default,
                           note="Space marks an item, {key:multi_pick.confirm} confirms. They are removed in "
                           "Distribute Equipment.")
        for oid in spent:
            fid, item = oid.split("|", 1)
            walk.change(MarkSpent(gang=g.id, fighter=fid, item=item))
            walk.say(f"{g.name}: {possessive(walk.fname(g.id, fid))} {item} marked spent")
        if not spent:
            walk.say(f"{g.name}: nothing expended")
    if not any_items:
        walk.skip("No fighter who fought carries a consumable item")


@resolver("end_of_battle")
def end_of_battle(walk: Walk) -> None:
    o = walk.seq.outcome
    if o.subplots_revealed:
        from .report import subplot_name

        walk.say("Sub-plots revealed: " + ", ".join(subplot_name(c, walk.seq.data) for c in o.subplots_revealed))
    for r in o.rewards:
        g = walk.campaign.gang(r.gang).name
        who = f" to {walk.fname(r.gang, r.fighter)}" if r.fighter and r.fighter != "*" else ""
        kind = RewardKind(r.kind).value
        what = REWARD_KINDS.get(kind, kind)  # "Gang Tactics", not "gang_tactics"
        got = f"{r.amount} {what}".strip() if kind != "other" else (r.note or "other")
        walk.say(f"{g}: {r.source}: {got}{who} (banked, applied in Receive "
                 "Rewards / Reputation)")
    if not o.subplots_revealed and not o.rewards:
        walk.say("No Sub-plot or Side Job resolved at the end of the battle.")
    if walk.step.get("kills_and_xp"):  # Turf War 2017: no Wrap Up before this step
        kills_and_xp(walk)


# --- Seriously Injured, Lasting Injuries ----------------------------------------------


@resolver("fate_of_the_fallen")
def fate_of_the_fallen(walk: Walk) -> None:
    table = table_of(walk, walk.step["table"])
    capture = walk.seq.ruleset.get("capture_on_fate", False)
    anyone = False
    for g in walk.gangs:
        for fo in fought(walk, g.id):
            if fo.end_state is not EndState.SERIOUSLY_INJURED:
                continue
            anyone = True
            name = walk.fname(g.id, fo.fighter)
            r = walk.roll(f"fate:{g.id}:{fo.fighter}", f"{table['title']} for {name}",
                          table["dice"], gang=g.id, table=walk.step["table"])
            row = lookup(table, r.total)
            kinds = [e["kind"] for e in (row or {}).get("effects", [])]
            walk.say(f"{name}: " + row_line(table, r.total, row))
            opp = walk.opponent(g.id)
            if "captured" in kinds:
                if capture and walk.seq.outcome.takes_prisoners.get(opp, True):
                    set_status(walk, g.id, fo.fighter, FighterStatus.CAPTURED,
                               "Fate of the Fallen", opp)
                    facts(walk).setdefault("captured", []).append(f"{g.id}/{fo.fighter}")
                    walk.say(f"  {name} is Captured by {walk.campaign.gang(opp).name}")
                else:
                    walk.say("  No opposing gang takes prisoners: treated as a 5+ result.")
            if "out_of_action" in kinds:
                facts(walk).setdefault("ooa", []).append(f"{g.id}/{fo.fighter}")
    if not anyone:
        walk.skip("No fighter was Seriously Injured when the battle ended")


@resolver("lasting_injuries")
def lasting_injuries(walk: Walk) -> None:
    todo: list[tuple[str, str, str, str, int, str, str, str]] = []
    for g in walk.gangs:
        for fo in fought(walk, g.id):
            if fo.end_state is EndState.OUT_OF_ACTION:
                todo.append((g.id, fo.fighter, "Out of Action", fo.taken_out_by,
                             fo.injury_rolls, fo.injury_rolls_why, fo.injury_result,
                             fo.injury_result_why))
    for key in facts(walk).get("ooa", []):
        gid, fid = key.split("/", 1)
        todo.append((gid, fid, "Fate of the Fallen", "", 1, "", "", ""))
    from ..subplots.effects import SequenceActs, asks_at, walk_post_battle  # Sub-plots resolved here

    if not todo and not asks_at(walk, "lasting-injuries"):  # (a capture: A Dark Fate)
        walk.skip("No fighter went Out of Action")
    table = injury_table(injury_table_name(walk), walk.seq.data)
    walk.say(f"Table: {table['title']}")
    results = facts(walk).setdefault("injury_results", {})
    for gid, fid, why, by, rolls, rolls_why, fixed, fixed_why in todo:
        got = lasting_injury(walk, gid, fid, f"injury:{gid}:{fid}", why, attacker=by,
                             rolls=rolls, rolls_why=rolls_why, fixed=fixed, fixed_why=fixed_why)
        results[f"{gid}/{fid}"] = {"name": got.get("name", ""), "dead": bool(got.get("dead"))}
    walk_post_battle(walk, "lasting-injuries", SequenceActs(
        injure=lambda gid, fid, pid, why: lasting_injury(walk, gid, fid, pid, why),
        set_status=lambda gid, fid, status, why: set_status(walk, gid, fid, status, why),
        credits=lambda gid, amount, why: walk.change(Credits(gang=gid, amount=amount, why=why)),
        reputation=lambda gid, amount, why: walk.change(Reputation(gang=gid, amount=amount, why=why))))


@resolver("dramatis_personae")
def dramatis_personae(walk: Walk) -> None:
    dps = []
    for g in walk.gangs:
        for fo in fought(walk, g.id):
            try:
                f = g.fighter(fo.fighter)
            except KeyError:
                continue
            if f.type is FighterType.DRAMATIS_PERSONAE:
                dps.append((g, f))
    if not dps:
        walk.skip("No Dramatis Personae fought")
    for g, f in dps:
        walk.say(f"{g.name}: {f.name}: resolve their write-up's Post-Battle behaviour "
                 "(not in the seeds); add any credits, Reputation or XP it gives with "
                 "{key:post_battle.add}.")
    adjustments(walk)


# --- items entering the gang ----------------------------------------------------------------


def new_item(walk: Walk, pid: str, name: str, cost: int, gang: str, **more: Any) -> dict[str, Any]:
    """An item entering the gang (bought, a reward) with its kind, so that Distribute
    Equipment's weapon limit counts it (seed 004: "limits on the number of weapons a fighter
    can carry (normally 3, with Unwieldy weapons counting as 2 weapons)"). The kind is asked,
    the catalogue's (and packs') kind for the item offered first."""
    known = walk.seq.item_kinds(name)
    known = known if known in ITEM_KINDS else None
    kind = walk.choose(pid, f"{name}: what kind of item is it?",
                       [Option(k, k) for k in ITEM_KINDS], gang=gang, default=known,
                       note=(f"The catalogue lists {name} as: {known}." if known else
                             f"{name} is not in the catalogue: say what it is.")
                       + " The weapon limit counts weapons (3; an Unwieldy weapon counts 2).")
    item = Equipment(name, cost)
    item.set_kind(kind)
    flags = {k: True for k in ("weapon", "unwieldy", "armour", "consumable") if getattr(item, k)}
    return {"name": name, "cost": cost, **more, **flags}


# --- generic adjustments (credits / Reputation / XP the player adds) ----------------------


def _kind_of(item: dict[str, Any]) -> str:
    from .changes import _equipment

    return _equipment(item).kind


def adjustment_options(seq: Sequence, kinds: tuple[str, ...] = ("credits", "reputation", "xp")
                       ) -> list[Option]:
    labels = {"credits": "credits (gain or loss)", "reputation": "Reputation (gain or loss)",
              "xp": "XP for a fighter", "item": "an item to the Stash"}
    out = []
    for gid in seq.outcome.gangs:
        name = seq.work.gang(gid).name
        for k in kinds:
            out.append(Option(f"{k}|{gid}", f"{name}: {labels[k]}"))
    return out


def adjustments(walk: Walk, why: str = "") -> None:
    why = why or walk.step["title"]
    for e in walk.entries():
        gid, kind, eid = e["gang"], e["kind"], e["id"]
        if kind not in ("credits", "reputation", "xp", "item"):
            continue
        g = walk.campaign.gang(gid)
        if kind == "xp":
            opts = [Option(f.id, f.name) for f in g.fighters
                    if f.status not in (FighterStatus.DEAD, FighterStatus.RETIRED)]
            fid = walk.choose(f"{eid}:fighter", f"{g.name}: XP for which fighter?", opts, gang=gid)
            n = walk.number(f"{eid}:amount", f"XP for {walk.fname(gid, fid)}", gang=gid, minimum=1)
            walk.change(Xp(gang=gid, fighter=fid, amount=n, why=why))
            walk.say(f"{g.name}: {walk.fname(gid, fid)} gains {n} XP")
        elif kind == "item":
            name = walk.text(f"{eid}:name", f"{g.name}: which item goes to the Stash?", gang=gid)
            cost = walk.number(f"{eid}:cost", f"Credit value of {name}", gang=gid, minimum=0)
            item = new_item(walk, f"{eid}:kind", name, cost, gid)
            walk.change(AddItem(gang=gid, item=item, why=why))
            walk.say(f"{g.name}: {name} ({cost} credits, {_kind_of(item)}) added to the Stash")
        else:
            n = walk.number(f"{eid}:amount", f"{g.name}: {kind} (negative for a loss)", gang=gid,
                            minimum=None)
            if kind == "credits":
                walk.change(Credits(gang=gid, amount=n, why=why))
            else:
                walk.change(Reputation(gang=gid, amount=n, why=why))
            walk.say(f"{g.name}: {n:+d} {kind}")


entry_kinds("dramatis_personae")(lambda seq: adjustment_options(seq))


# --- Bounty Hunters, Escaping Capture ---------------------------------------------------


@resolver("bounty_hunters")
def bounty_hunters(walk: Walk) -> None:
    hunters = []
    for g in walk.gangs:
        for fo in fought(walk, g.id):
            try:
                f = g.fighter(fo.fighter)
            except KeyError:
                continue
            if f.type is FighterType.BOUNTY_HUNTER and f.status is not FighterStatus.DEAD:
                hunters.append((g, f))
    if not hunters:
        walk.skip("No Bounty Hunter fought")
    done_gangs: set[str] = set()
    for g, bh in hunters:
        opp_id = walk.opponent(g.id)
        opp = walk.campaign.gang(opp_id)
        # seed 004: "any opposing fighters who have a Bounty on their head died or were
        # Captured during the battle": a captive held since an earlier battle is not taken
        died_now = facts(walk).get("died", {})
        captured_now = set(facts(walk).get("captured", []))
        targets = [f for f in opp.fighters if f.bounty > 0 and (
            f"{opp_id}/{f.id}" in died_now or
            (f"{opp_id}/{f.id}" in captured_now and f.status is FighterStatus.CAPTURED
             and f.captured_by == g.id))]
        if g.id not in done_gangs:
            done_gangs.add(g.id)
            if targets:
                for t in targets:
                    price = walk.number(f"bh:{g.id}:{t.id}", f"{g.name}: the price on "
                                        f"{possessive(t.name)} head ({t.bounty} Bounty)", gang=g.id,
                                        minimum=0, default=50 * t.bounty,
                                        note="Enter the Bounty's price as posted. "
                                        + reading_note("bounty-price"))
                    walk.change(Credits(gang=g.id, amount=price,
                                why=f"Bounty on {t.name}"))
                    if f"{opp_id}/{t.id}" in died_now:
                        died(walk, opp_id, t.id, bounty_hunter=True)
                        walk.say(f"{bh.name} turns in {possessive(t.name)} body: +{price} credits")
                    else:
                        # "Any Captured fighters who this happens to are removed from their
                        # gang's roster without opportunity for rescue by their gang
                        # (Skinblades, Guilder Posts, and similar may still save them)": held
                        # by the Guilders, never offered for buying back; removed from the
                        # roster after Escaping Capture (where a Skinblade may still save them)
                        set_status(walk, opp_id, t.id, FighterStatus.CAPTURED,
                                   "handed to the Guilders by a Bounty Hunter", "guilders")
                        facts(walk).setdefault("bounty_taken", []).append(f"{opp_id}/{t.id}")
                        walk.say(f"{bh.name} hands {t.name} to the Guilders: +{price} credits; "
                                 f"{t.name} is removed from {possessive(opp.name)} roster "
                                 "without opportunity for rescue")
            else:
                fee = walk.roll(f"bh:{g.id}:fee", f"{g.name}: {bh.name} demands 50 plus 3D6 x 5 "
                                "credits", "50+3D6x5", gang=g.id)
                opts = [Option("pay", f"Pay {fee.total} credits", g.credits >= fee.total,
                               f"the Stash holds only {g.credits}"),
                        Option("refuse", "Do not pay: lose 2D3 Reputation")]
                c = walk.choose(f"bh:{g.id}:pay", f"{g.name}: pay the Bounty Hunter?", opts,
                                gang=g.id)
                if c == "pay":
                    walk.change(Credits(gang=g.id, amount=-fee.total,
                                why="Bounty Hunter's fee"))
                    walk.say(f"{g.name} pays {bh.name} {fee.total} credits ({fee})")
                else:
                    loss = walk.roll(f"bh:{g.id}:rep", f"{g.name}: Reputation lost", "2D3",
                                     gang=g.id)
                    walk.change(Reputation(gang=g.id, amount=-loss.total,
                                why="Bounty Hunter not paid"))
                    walk.say(f"{g.name} does not pay: -{loss.total} Reputation ({loss})")
        set_status(walk, g.id, bh.id, FighterStatus.RETIRED, "the Bounty Hunter departs")
        walk.say(f"{bh.name} departs with all of their gear.")


@resolver("escaping_capture")
def escaping_capture(walk: Walk) -> None:
    """Seed 004: a Captured fighter with a Skinblade, Escape Artist "or some other
    equipment or ability that allows them to potentially escape" tries now. The first two
    are found on the roster; any other the player names (a: the fighter and what allows it)."""
    captured = []
    for key in facts(walk).get("captured", []):
        gid, fid = key.split("/", 1)
        f = walk.campaign.gang(gid).fighter(fid)
        if f.status is FighterStatus.CAPTURED:
            captured.append((gid, f))
    if not captured:
        walk.skip("No fighter was Captured in this battle")
    cands = []
    for gid, f in captured:
        means = [it.name for it in f.equipment if "skinblade" in it.name.lower()]
        means += [s for s in f.skills if s.lower() == "escape artist"]
        if means:
            cands.append((gid, f, means, f"escape:{gid}:{f.id}"))
    for e in walk.entries():
        gid, fid = e["gang"], e["arg"]
        f = walk.campaign.gang(gid).fighter(fid)
        if f.status is not FighterStatus.CAPTURED:
            continue
        what = walk.text(f"{e['id']}:what", f"{f.name}: what allows the escape?", gang=gid,
                         note="The equipment or ability, as the fighter card has it.")
        cands.append((gid, f, [what], f"{e['id']}:escape"))
    for gid, f, means, pid in cands:
        c = walk.choose(pid, f"{f.name} ({', '.join(means)}): resolve the "
                        "escape from its rules. Did they escape?",
                        [Option("no", "Still Captured"), Option("yes", "Escaped")], gang=gid)
        if c == "yes":
            set_status(walk, gid, f.id, FighterStatus.ACTIVE, f"escaped ({', '.join(means)})")
            walk.say(f"{f.name} escapes and returns unharmed with their equipment.")
        else:
            walk.say(f"{f.name} remains Captured.")
    if not cands:
        walk.say("No Captured fighter has a Skinblade or Escape Artist: {key:post_battle.add} names another "
                 "fighter whose equipment or ability allows an escape.")
    for key in facts(walk).get("bounty_taken", []):
        gid, fid = key.split("/", 1)
        g = walk.campaign.gang(gid)
        held = next((x for x in g.fighters if x.id == fid), None)
        if held is None or held.status is not FighterStatus.CAPTURED \
                or held.captured_by != "guilders":
            continue  # escaped
        walk.change(Depart(gang=gid, fighter=fid,
                    why="taken by a Bounty Hunter to the Guilders: no opportunity for rescue"))
        walk.say(f"{held.name} is removed from {possessive(g.name)} roster (taken by a Bounty "
                 "Hunter to the Guilders, without opportunity for rescue).")


@entry_kinds("escaping_capture")
def _escape_entries(seq: Sequence) -> list[Option]:
    out = []
    for key in seq.facts.get("captured", []):
        gid, fid = key.split("/", 1)
        f = seq.work.gang(gid).fighter(fid)
        out.append(Option(f"escape|{gid}|{fid}", f"{f.name}: an escape by other means",
                          f.status is FighterStatus.CAPTURED, "no longer Captured"))
    return out


# --- rewards, Territory, Reputation, income ----------------------------------------------


@resolver("receive_rewards")
def receive_rewards(walk: Walk) -> None:
    o = walk.seq.outcome
    for fo in o.fighters:
        if fo.xp:
            try:
                walk.campaign.gang(fo.gang).fighter(fo.fighter)
            except KeyError:
                continue
            walk.change(Xp(gang=fo.gang, fighter=fo.fighter, amount=fo.xp,
                        why="XP earned in the battle"))
            walk.say(f"{walk.fname(fo.gang, fo.fighter)} gains {fo.xp} XP (battle)")
    for r in o.rewards:
        g = walk.campaign.gang(r.gang)
        if r.kind is RewardKind.CREDITS:
            walk.change(Credits(gang=r.gang, amount=r.amount, why=r.source))
            walk.say(f"{g.name}: {r.amount:+d} credits ({r.source})")
        elif r.kind is RewardKind.XP:
            ids = career.xp_recipients(g, fought(walk, r.gang), r, _card_text(r.source, walk.seq.data))
            for fid in ids:
                try:
                    g.fighter(fid)
                except KeyError:
                    continue
                walk.change(Xp(gang=r.gang, fighter=fid, amount=r.amount, why=r.source))
                walk.say(f"{walk.fname(r.gang, fid)} gains {r.amount} XP ({r.source})")
            if r.fighter == "*":  # one roll for them all; the Captured left out
                walk.say(reading_note("every-fighter-one-roll"))
                if career.whole_gang(r, _card_text(r.source, walk.seq.data)):
                    walk.say(reading_note("every-fighter-in-your-gang"))
        elif r.kind is RewardKind.REPUTATION:
            walk.say(f"{g.name}: {r.amount:+d} Reputation ({r.source}), in the Reputation step")
        else:
            walk.say(f"{g.name}: {r.source}: {r.note or r.kind} (apply by hand with a)")
    adjustments(walk)
    if not walk.state.lines:
        walk.say("No rewards recorded: add scenario rewards with {key:post_battle.add}.")


def _card_text(source: str, data: Any = None) -> str:
    """The text of the Sub-plot a reward came from ("Sub-plot: Grim Resolve")."""
    if not source.startswith("Sub-plot: "):
        return ""
    from ..subplots.decks import all_cards

    name = source[len("Sub-plot: "):].rsplit(" (", 1)[0].strip().lower()
    texts = {c.text for c in all_cards(data) if c.name.strip().lower() == name}
    return texts.pop() if len(texts) == 1 else ""


entry_kinds("receive_rewards")(lambda seq: adjustment_options(seq, ("credits", "xp", "item")))


def _territory_options(g: Gang, why: str) -> list[Option]:
    return [Option(t.name, f"{t.name} ({t.kind})", not t.cannot_be_lost,
                   "this Territory cannot be lost") for t in g.territories]


@resolver("territory")
def territory(walk: Walk) -> None:
    """Gang War Territory: gains first, then losses, then thefts (entries sorted so)."""
    order = {"gain": 0, "lose": 1, "steal": 2}
    entries = sorted(walk.entries(), key=lambda e: (order.get(e["kind"], 9), e["n"]))
    for e in entries:
        gid, eid = e["gang"], e["id"]
        g = walk.campaign.gang(gid)
        if e["kind"] == "gain":
            r = walk.roll(f"{eid}:roll", f"{g.name}: roll on the Special Territories chart",
                          "D66", gang=gid, note="The chart is not in the seeds: roll, then "
                          "enter the Territory your chart gives.")
            name = walk.text(f"{eid}:name", f"{g.name}: Special Territory gained ({r.total})",
                             gang=gid)
            walk.change(TerritoryAdd(gang=gid, name=name, territory_kind="special"))
            walk.say(f"{g.name} gains {name} (Special Territories {r.total})")
        elif e["kind"] in ("lose", "steal"):
            victim = g if e["kind"] == "lose" else walk.campaign.gang(walk.opponent(gid))
            if not victim.territories:
                walk.say(f"{victim.name} has no Territory to lose.")
                continue
            label = (f"{g.name}: which Territory is lost?" if e["kind"] == "lose" else
                     f"{g.name} steals from {victim.name}: the stakes agreed, else "
                     f"{possessive(victim.name)} player picks")
            tname = walk.choose(f"{eid}:which", label, _territory_options(victim, ""), gang=gid)
            t = next(t for t in victim.territories if t.name == tname)
            if t.kind is TerritoryKind.STRONGHOLD:
                r = walk.roll(f"{eid}:stronghold", f"{victim.name}: Stronghold saved on a 4+",
                              "D6", gang=victim.id)
                if r.total >= 4:
                    walk.say(f"{victim.name} keeps the Stronghold {tname} ({r})")
                    continue
            walk.change(TerritoryRemove(gang=victim.id, name=tname))
            if e["kind"] == "steal":
                walk.change(TerritoryAdd(gang=gid, name=tname,
                            territory_kind=str(t.kind)))
                walk.say(f"{g.name} steals {tname} from {victim.name}")
            else:
                walk.say(f"{g.name} loses {tname}")
    if not walk.state.lines:
        walk.say("No Territory changes: add gains, losses or thefts with {key:post_battle.add}.")


@entry_kinds("territory")
def _territory_entries(seq: Sequence) -> list[Option]:
    out = []
    for gid in seq.outcome.gangs:
        g = seq.work.gang(gid)
        opp = [x for x in seq.outcome.gangs if x != gid]
        out.append(Option(f"gain|{gid}", f"{g.name}: Territory Size increased (gain)"))
        out.append(Option(f"lose|{gid}", f"{g.name}: Territory Size decreased (lose)",
                          bool(g.territories), "no Territory to lose"))
        if opp:
            out.append(Option(f"steal|{gid}", f"{g.name}: steals a Territory",
                              bool(seq.work.gang(opp[0]).territories),
                              "the opponent has no Territory"))
    return out


@resolver("turf_2017")
def turf_2017(walk: Walk) -> None:
    """Turf War 2017 Turf: general changes first, then thefts. Each gang's net change of
    Turf Size is kept for the Special Territories step (one roll per gang)."""
    delta = facts(walk).setdefault("turf_delta", {})
    order = {"increase": 0, "decrease": 1, "steal": 2}
    for e in sorted(walk.entries(), key=lambda e: (order.get(e["kind"], 9), e["n"])):
        gid, eid = e["gang"], e["id"]
        g = walk.campaign.gang(gid)
        if e["kind"] in ("increase", "decrease"):
            n = walk.number(f"{eid}:by", f"{g.name}: Turf Size {e['kind']}d by how much?",
                            gang=gid, minimum=1, default=1)
            if e["kind"] == "decrease":
                if g.territory_size <= 0:
                    walk.say(f"{g.name}: Turf Size is 0 already: no decrease")
                    continue
                n = min(n, g.territory_size)  # a Turf Size never falls below 0
            amount = n if e["kind"] == "increase" else -n
            walk.change(TerritorySize(gang=gid, amount=amount))
            delta[gid] = delta.get(gid, 0) + amount
            walk.say(f"{g.name}: Turf Size {'+' if e['kind'] == 'increase' else '-'}{n}")
            if e["kind"] == "decrease":
                # Gang War, Losing Territory (the steps the 2017 seed leaves out): "the gang's
                # controlling player selects which Territories they lose and then removes
                # them from the gang's roster immediately" (readings: turf-size)
                turf = [t for t in g.territories if t.kind is TerritoryKind.TURF
                        and not t.cannot_be_lost]
                k = min(n, len(turf))
                if k:
                    lost = walk.multi(f"{eid}:which", f"{g.name}: which Turf is lost?"
                                      + (f" (pick {k})" if k > 1 else ""),
                                      [Option(t.name, t.name) for t in turf], gang=gid,
                                      minimum=k, maximum=k)
                    for name in lost:
                        walk.change(TerritoryRemove(gang=gid, name=name))
                        walk.say(f"  {g.name} loses {name}")
        elif e["kind"] == "steal":
            victim = walk.campaign.gang(walk.opponent(gid))
            if victim.territory_size <= 0:
                walk.say(f"{victim.name} has no Turf to steal.")
                continue
            # Gang War, Stealing Territory, for each Territory being stolen (the 2017 seed
            # prints no steps): "1. ... the player of the gang losing Territory Size selects
            # which of their Territories is being stolen. 2. The Territory Size of the victim
            # gang is decreased by 1 and the selected Territory is deleted from that gang's
            # roster. 3. The Territory Size of the stealing gang is increased by 1 and the
            # selected Territory is added to that gang's roster." (readings: turf-size)
            turf = [t for t in victim.territories if t.kind is TerritoryKind.TURF
                    and not t.cannot_be_lost]
            tname = ""
            if turf:
                tname = walk.choose(f"{eid}:which", f"{g.name} steals Turf from {victim.name}: "
                                    f"the stakes agreed, else {possessive(victim.name)} player "
                                    "picks", [Option(t.name, t.name) for t in turf], gang=gid)
            walk.change(TerritorySize(gang=victim.id, amount=-1))
            if tname:
                walk.change(TerritoryRemove(gang=victim.id, name=tname))
            walk.change(TerritorySize(gang=gid, amount=1))
            if tname:
                walk.change(TerritoryAdd(gang=gid, name=tname, territory_kind="turf"))
            delta[victim.id] = delta.get(victim.id, 0) - 1
            delta[gid] = delta.get(gid, 0) + 1
            walk.say(f"{g.name} steals " + (tname if tname else "1 Turf (no named Turf on the "
                                              "roster: the Turf Size only)")
                     + f" from {victim.name} (Gang War steps)")
    for g in walk.gangs:
        if delta.get(g.id):
            walk.say(f"{g.name}: Turf Size {delta[g.id]:+d} this battle (Special Territories "
                     "next: one D6 for the whole change)")
    if not walk.state.lines:
        walk.say("No Turf changes: add increases, decreases or thefts with {key:post_battle.add}.")


@resolver("special_territories_2017")
def special_territories_2017(walk: Walk) -> None:
    """Seed 002: one D6 per gang whose Turf Size changed, plus the whole increase or minus
    the whole decrease; one Special Territory at most gained or lost in the sequence."""
    gain_t = table_of(walk, "special-territory-gain")
    loss_t = table_of(walk, "special-territory-loss")
    delta = facts(walk).get("turf_delta", {})
    changed = facts(walk).setdefault("special_changed", set())
    gangs = [g for g in walk.gangs if delta.get(g.id)]
    if not gangs:
        walk.skip("No gang's Turf Size changed in the Turf step")
    for g in gangs:
        n = delta[g.id]
        up = n > 0
        r = walk.roll(f"special:{g.id}", f"{g.name}: D6 {'+' if up else '-'} {abs(n)} for a "
                      "Special Territory", "D6", gang=g.id,
                      table="special-territory-gain" if up else "special-territory-loss")
        total = r.total + n
        t = gain_t if up else loss_t
        row = lookup(t, total)
        walk.say(f"{g.name}: {r} {'+' if up else '-'} {abs(n)} = {total}: "
                 + (row_text(row) if row else "nothing happens"))
        kinds = [x["kind"] for x in (row or {}).get("effects", [])]
        if "special_territory_gain" in kinds:
            name = walk.text(f"special:{g.id}:name", f"{g.name}: Special Territory gained "
                             "(chosen randomly; the table is not in the seed)", gang=g.id)
            walk.change(TerritoryAdd(gang=g.id, name=name, territory_kind="special"))
            changed.add(g.id)
            walk.say(f"  {g.name} gains {name}")
        if "special_territory_loss" in kinds:
            specials = [t for t in g.territories if t.kind is TerritoryKind.SPECIAL]
            if not specials:
                walk.say("  no Special Territory to lose")
                continue
            tname = walk.choose(f"special:{g.id}:lose", f"{g.name}: the Special Territory lost "
                                "(chosen randomly: pick the one your dice chose)",
                                [Option(t.name, t.name) for t in specials], gang=g.id)
            walk.change(TerritoryRemove(gang=g.id, name=tname))
            changed.add(g.id)
            walk.say(f"  {g.name} loses {tname}")


@entry_kinds("turf_2017")
def _turf_entries(seq: Sequence) -> list[Option]:
    out = []
    for gid in seq.outcome.gangs:
        name = seq.work.gang(gid).name
        out += [Option(f"increase|{gid}", f"{name}: Turf Size increased"),
                Option(f"decrease|{gid}", f"{name}: Turf Size decreased"),
                Option(f"steal|{gid}", f"{name}: steals Turf")]
    return out


@resolver("reputation")
def reputation(walk: Walk) -> None:
    items: dict[str, list[tuple[int, str]]] = {}
    for r in walk.seq.outcome.rewards:
        if r.kind is RewardKind.REPUTATION:
            items.setdefault(r.gang, []).append((r.amount, r.source))
    for e in walk.entries():
        g = walk.campaign.gang(e["gang"])
        n = walk.number(f"{e['id']}:amount", f"{g.name}: Reputation (negative for a loss)",
                        gang=g.id, minimum=None)
        why = walk.text(f"{e['id']}:why", "What for?", gang=g.id, default="scenario")
        items.setdefault(g.id, []).append((n, why))
    for gid, lst in items.items():
        g = walk.campaign.gang(gid)
        before = g.reputation
        for n, why in sorted(lst, key=lambda x: -x[0]):  # gains before losses
            walk.change(Reputation(gang=gid, amount=n, why=why))
        walk.say(f"{g.name}: Reputation {before} -> {g.reputation} ("
                 + ", ".join(f"{n:+d} {why}" for n, why in sorted(lst, key=lambda x: -x[0])) + ")")
    if not items:
        walk.say("No Reputation changes: add scenario gains or losses with {key:post_battle.add}.")


entry_kinds("reputation")(lambda seq: [
    Option(f"rep|{gid}", f"{seq.work.gang(gid).name}: Reputation gain or loss")
    for gid in seq.outcome.gangs])


@resolver("collect_income")
def collect_income(walk: Walk) -> None:
    for g in walk.gangs:
        if g.type is GangType.ARBITES:
            r = walk.roll(f"income:{g.id}", f"{g.name}: income from HQ",
                          walk.step.get("arbites_income", "D3x50"), gang=g.id)
            walk.change(Credits(gang=g.id, amount=r.total, why="Arbites income"))
            walk.say(f"{g.name}: +{r.total} credits from higher HQ ({r})")
    income_entries(walk)
    if not walk.state.lines:
        walk.say("No income: add any \"when the gang collects income\" effect with {key:post_battle.add}.")


def income_entries(walk: Walk) -> None:
    for e in walk.entries():
        g = walk.campaign.gang(e["gang"])
        src = walk.text(f"{e['id']}:source", f"{g.name}: what gives income?", gang=g.id)
        n = walk.number(f"{e['id']}:amount", f"{g.name}: credits from {src}", gang=g.id,
                        minimum=None)
        walk.change(Credits(gang=g.id, amount=n, why=src))
        walk.say(f"{g.name}: {n:+d} credits ({src})")


entry_kinds("collect_income")(lambda seq: [
    Option(f"income|{gid}", f"{seq.work.gang(gid).name}: income from an effect")
    for gid in seq.outcome.gangs])


@resolver("use_special_territories")
def use_special_territories(walk: Walk) -> None:
    for g in walk.gangs:
        if not any("guilder contract" in t.name.lower() for t in g.territories):
            continue
        for f in g.fighters:
            if f.status is FighterStatus.CAPTURED and f.captured_by == "guilders":
                c = walk.choose(f"contract:{g.id}:{f.id}", f"{g.name}: Guilder Contract: do the "
                                f"Guilders release {f.name}?",
                                [Option("no", "Not released"), Option("yes", "Released")],
                                gang=g.id, note="The check is not printed in the seed: resolve "
                                "it from your Territory's rules.")
                if c == "yes":
                    set_status(walk, g.id, f.id, FighterStatus.ACTIVE, "released by the Guilders")
                    if f.bounty:
                        walk.change(Bounty(gang=g.id, fighter=f.id, amount=-f.bounty))
                    walk.say(f"The Guilders release {f.name}; Bounties removed.")
    income_entries(walk)
    if not walk.state.lines:
        walk.say("No Special Territory income: add any with {key:post_battle.add}.")


entry_kinds("use_special_territories")(lambda seq: [
    Option(f"income|{gid}", f"{seq.work.gang(gid).name}: income from a Special Territory")
    for gid in seq.outcome.gangs])


# --- Update Roster -------------------------------------------------------------------------


@resolver("delete_dead")
def delete_dead(walk: Walk) -> None:
    table = table_of(walk, walk.step["table"])
    dead = []
    for g in walk.gangs:
        for f in g.fighters:
            base = walk.seq.base.gang(g.id)
            try:
                was = base.fighter(f.id).status
            except KeyError:
                was = None
            if f.status is FighterStatus.CRITICAL:
                set_status(walk, g.id, f.id, FighterStatus.DEAD,
                           "Critical Injury without medical attention")
                died(walk, g.id, f.id, cause="Critical Injury")
                walk.say(f"{f.name} received no medical attention and dies.")
            if f.status is FighterStatus.DEAD and was is not FighterStatus.DEAD:
                dead.append((g, f))
    if not dead:
        if not bury_the_dead(walk):
            walk.skip("No fighter died")
        return
    for g, f in dead:
        how = facts(walk).get("died", {}).get(f"{g.id}/{f.id}", {})
        crew = fought(walk, g.id)
        if how.get("equipment") == "lost":
            verdict, why = "lost", "removed with all of their gear"
        elif how.get("doctor"):
            verdict, why = "recovered", "taken to the doctor"
        elif how.get("bounty_hunter"):
            verdict, why = "lost", "a Bounty Hunter took the body"
        elif any(x.end_state is EndState.STANDING for x in crew):
            verdict, why = "recovered", "the gang held the battlefield"
        elif any(x.end_state is EndState.FLED for x in crew):
            r = walk.roll(f"dead:{g.id}:{f.id}", f"{g.name} fled: is {possessive(f.name)} equipment "
                          "recovered?", table["dice"], gang=g.id, table=walk.step["table"])
            row = lookup(table, r.total)
            lost = any(e["kind"] == "equipment_lost" for e in (row or {}).get("effects", []))
            verdict, why = ("lost" if lost else "recovered"), f"{r} ({range_text(row or {'min': r.total, 'max': r.total})})"
        else:
            verdict, why = "lost", "all the gang was Out of Action or Seriously Injured"
        items = ", ".join(it.name for it in f.equipment) or "no equipment"
        if verdict == "recovered" and f.equipment:
            walk.change(ToStash(gang=g.id, fighter=f.id, why="dead fighter's equipment"))
        walk.say(f"{g.name}: {f.name} is deleted; equipment {verdict} ({why}): {items}")
    bury_the_dead(walk)


def bury_the_dead(walk: Walk) -> int:
    """Seed 004, Delete Dead Fighters: "All dead fighters are removed from the gang's
    roster now" (kept among the gang's fallen, with any lost equipment). A fighter of a
    gang not in this battle who died in this sequence (a captive executed) leaves their
    roster too: "must delete those fighters from their rosters"."""
    gangs = [g.id for g in walk.gangs]
    for ch in walk.seq.changes():
        if isinstance(ch, Status) and ch.status == str(FighterStatus.DEAD) and ch.gang not in gangs:
            gangs.append(ch.gang)
    n = 0
    for gid in gangs:
        g = walk.campaign.gang(gid)
        for f in [f for f in g.fighters if f.status is FighterStatus.DEAD]:
            walk.change(Bury(gang=g.id, fighter=f.id, why="Delete Dead Fighters"))
            if gid not in walk.seq.outcome.gangs:
                walk.say(f"{g.name}: {f.name} is dead and deleted from the roster.")
            n += 1
    return n


@resolver("merc_upkeep")
def merc_upkeep(walk: Walk) -> None:
    mercs = []
    for g in walk.gangs:
        for fo in fought(walk, g.id):
            try:
                f = g.fighter(fo.fighter)
            except KeyError:
                continue
            if f.type in MERC_TYPES and f.status not in (FighterStatus.DEAD, FighterStatus.RETIRED):
                mercs.append((g, f))
    if not mercs:
        walk.skip("No Merc fought (or every Merc died)")
    unpaid = facts(walk).setdefault("unpaid", [])
    for g, f in mercs:
        r = walk.roll(f"upkeep:{g.id}:{f.id}", f"{g.name}: upkeep for {f.name}",
                      walk.step.get("upkeep", "10+D3x5"), gang=g.id)
        c = walk.choose(f"upkeep:{g.id}:{f.id}:pay", f"Pay {f.name} {r.total} credits?",
                        [Option("pay", f"Pay {r.total} credits", g.credits >= r.total,
                                f"the Stash holds only {g.credits}"),
                         Option("no", "Do not pay: the Merc retires with their gear")], gang=g.id)
        if c == "pay":
            walk.change(Credits(gang=g.id, amount=-r.total, why=f"upkeep of {f.name}"))
            walk.say(f"{g.name} pays {f.name} {r.total} credits ({r})")
        else:
            unpaid.append(f"{g.id}/{f.id}")
            walk.say(f"{f.name} is not paid and will retire.")


@resolver("delete_retiring")
def delete_retiring(walk: Walk) -> None:
    for key in facts(walk).get("unpaid", []):
        gid, fid = key.split("/", 1)
        set_status(walk, gid, fid, FighterStatus.RETIRED, "upkeep not paid")
        walk.say(f"{walk.fname(gid, fid)} leaves (upkeep not paid); their gear goes with them.")
    for e in walk.entries():
        g = walk.campaign.gang(e["gang"])
        opts = [Option(f.id, f"{f.name} ({f.type})") for f in g.fighters
                if f.status not in (FighterStatus.DEAD, FighterStatus.RETIRED, FighterStatus.CAPTURED)]
        fid = walk.choose(f"{e['id']}:who", f"{g.name}: who retires?", opts, gang=g.id)
        f = g.fighter(fid)
        hired = f.type in (FighterType.HIRED_GUN, FighterType.BOUNTY_HUNTER)
        to_pool = False
        if not hired:
            # seed 004, Retiring Fighters Equipment Retention
            how = walk.choose(f"{e['id']}:how", f"{f.name}: how do they leave?",
                              [Option("retire", "Retires: equipment recovered to the Stash"),
                               Option("pool", "Becomes a Merc or Bounty Hunter (agreed with the "
                                      "Arbitrator): takes their equipment, lost")], gang=g.id)
            to_pool = how == "pool"
        if not hired and not to_pool and f.equipment:
            walk.change(ToStash(gang=g.id, fighter=fid, why="retiring fighter's gear"))
        set_status(walk, g.id, fid, FighterStatus.RETIRED,
                   "left to become a Merc or Bounty Hunter" if to_pool else "retired")
        lost = hired or to_pool
        walk.say(f"{g.name}: {f.name} " + ("leaves for the Merc / Bounty Hunter pool"
                                           if to_pool else "retires")
                 + f"; equipment {'lost' if lost else 'recovered'}"
                 + (f" ({', '.join(it.name for it in f.equipment)})" if lost and f.equipment else "")
                 + ".")
    # "All retiring fighters are removed from the gang's roster now" (kept apart, as the
    # dead among the fallen: Gang.departed), a departed Bounty Hunter and unpaid Mercs too
    for g in walk.gangs:
        for f in [f for f in g.fighters if f.status is FighterStatus.RETIRED]:
            walk.change(Depart(gang=g.id, fighter=f.id, why="Delete Retiring Fighters"))
    if not walk.state.lines:
        walk.say("No one retires: retire a fighter with {key:post_battle.add}.")


entry_kinds("delete_retiring")(lambda seq: [
    Option(f"retire|{gid}", f"{seq.work.gang(gid).name}: retire a fighter")
    for gid in seq.outcome.gangs])


@resolver("advance_fighters")
def advance_fighters(walk: Walk) -> None:
    def xp_line(g: Gang) -> str:
        xp = [f"{f.name} {f.xp}" for f in g.fighters if f.xp and f.status not in
              (FighterStatus.DEAD, FighterStatus.RETIRED)]
        return f"{g.name} XP: " + (", ".join(xp) or "none")

    line_of = {}  # each gang's XP line, rewritten after each Advancement (XP spent)
    for g in walk.gangs:
        line_of[g.id] = len(walk.state.lines)
        walk.say(xp_line(g))
    for e in walk.entries():
        g = walk.campaign.gang(e["gang"])
        opts = [Option(f.id, f"{f.name} ({f.xp} XP)", f.xp > 0, "no XP to spend")
                for f in g.fighters if f.status not in (FighterStatus.DEAD, FighterStatus.RETIRED)]
        fid = walk.choose(f"{e['id']}:who", f"{g.name}: who advances?", opts, gang=g.id)
        f = g.fighter(fid)
        kind = walk.choose(f"{e['id']}:kind", f"{f.name}: what kind of Advancement?",
                           [Option("characteristic", "A characteristic increase (applied to "
                                   "the profile)"),
                            Option("skill", "A new skill (added to the fighter's skills)"),
                            Option("other", "Something else")], gang=g.id)
        profile: list[tuple[str, int]] = []
        if kind == "characteristic":
            from ..core.profile import CHARACTERISTICS, NAMES, format_value

            opts = []
            for key in CHARACTERISTICS:
                room = career.advancement_limit(f, key)
                shown = format_value(key, f.characteristics.get(key))
                opts.append(Option(key, f"{NAMES[key]} ({shown})", room > 0,
                                   "the fighter has none" if key not in f.characteristics
                                   else f"{shown} is already the best it can be"))
            key = walk.choose(f"{e['id']}:char", f"{f.name}: which characteristic improves?",
                              opts, gang=g.id)
            steps = walk.number(f"{e['id']}:by", f"{f.name}: {NAMES[key]} improves by",
                                gang=g.id, minimum=1, maximum=career.advancement_limit(f, key),
                                default=1, note="A target number improves downwards: +1 to "
                                "WS 4+ gives 3+.")
            profile = [(key, steps)]
            what = f"+{steps} {NAMES[key]}"
        else:
            what = walk.text(f"{e['id']}:what", f"{f.name}: the Advancement (from the Experience "
                             "guidelines)", gang=g.id)
        cost = walk.number(f"{e['id']}:xp", f"{f.name}: XP spent", gang=g.id, minimum=1,
                           maximum=f.xp, above=f"{f.name} has {f.xp} XP")
        value = walk.number(f"{e['id']}:cost", f"{f.name}: credits added to the fighter's "
                            "cost", gang=g.id, minimum=0, default=0)
        walk.change(Advance(gang=g.id, fighter=fid, name=what, xp_cost=cost, cost=value,
                    skill=kind == "skill", profile=tuple(profile)))
        walk.state.lines[line_of[g.id]] = xp_line(g)
        walk.say(f"{g.name}: {f.name} takes {what} for {cost} XP (+{value} credits)")


entry_kinds("advance_fighters")(lambda seq: [
    Option(f"advance|{gid}", f"{seq.work.gang(gid).name}: record an Advancement")
    for gid in seq.outcome.gangs])


@resolver("loss_of_leader")
def loss_of_leader(walk: Walk) -> None:
    lost = []
    for g in walk.gangs:
        leaders = [f for f in g.fighters if f.type is FighterType.LEADER]
        gone = [f for f in leaders if f.status in (FighterStatus.DEAD, FighterStatus.RETIRED)]
        alive = [f for f in leaders if f not in gone]
        # a dead Leader has left the roster for the fallen (Delete Dead Fighters)
        gone += [f for f in reversed(g.fallen) if f.type is FighterType.LEADER]
        # and a retired one for the departed (Delete Retiring Fighters)
        gone += [f for f in reversed(g.departed) if f.type is FighterType.LEADER
                 and f.status is FighterStatus.RETIRED]
        if gone and not alive:
            lost.append((g, gone[0]))
    if not lost:
        walk.skip("No gang lost its Leader")
    for g, old in lost:
        opts = [Option(f.id, f"{f.name} ({f.type})") for f in g.fighters
                if f.status not in (FighterStatus.DEAD, FighterStatus.RETIRED, FighterStatus.CAPTURED)
                and f.type in GANG_MEMBER_TYPES]
        opts.append(Option("later", "Decide later"))
        c = walk.choose(f"leader:{g.id}", f"{g.name} lost {old.name}: who is the new Leader?",
                        opts, gang=g.id)
        if c != "later":
            walk.change(NewFighterType(gang=g.id, fighter=c, type=str(FighterType.LEADER)))
            walk.say(f"{walk.fname(g.id, c)} is the new Leader of {g.name}.")
        else:
            walk.say(f"{g.name}: new Leader to be decided.")


@resolver("buy_and_hire")
def buy_and_hire(walk: Walk) -> None:
    for e in walk.entries():
        g = walk.campaign.gang(e["gang"])
        eid = e["id"]
        name = walk.text(f"{eid}:name", f"{g.name}: the new fighter's name", gang=g.id)
        types = [t for t in FighterType if t not in (FighterType.DRAMATIS_PERSONAE,)]
        if walk.seq.ruleset.get("hanger_on_last_in_hire", False):
            types = [t for t in types if t is not FighterType.HANGER_ON] + [FighterType.HANGER_ON]
        ftype = walk.choose(f"{eid}:type", f"{name}: fighter type",
                            [Option(str(t), str(t)) for t in types], gang=g.id,
                            default=str(FighterType.GANGER))
        cost = walk.number(f"{eid}:cost", f"{name}: cost (credits)", gang=g.id, minimum=0,
                           maximum=g.credits, note=f"The Stash holds {g.credits} credits.")
        from ..core.model import unique_id

        fid = unique_id(name, g.fighter_ids())
        walk.change(Hire(gang=g.id, data={"id": fid, "name": name, "type": ftype,
                                                  "cost": cost}))
        walk.change(Credits(gang=g.id, amount=-cost, why=f"hired {name}"))
        walk.say(f"{g.name} hires {name} ({ftype}) for {cost} credits")
    if not walk.state.lines:
        walk.say("No one hired: hire a fighter with {key:post_battle.add}.")


entry_kinds("buy_and_hire")(lambda seq: [
    Option(f"hire|{gid}", f"{seq.work.gang(gid).name}: "
           + seq.ruleset.get("hire_option", "hire a fighter"))
    for gid in seq.outcome.gangs])


def _skips(walk_or_seq: Walk | Sequence, gang: Gang, step: dict[str, Any]) -> bool:
    return str(gang.type) in step.get("skip_gangs", [])


def item_label(it: Equipment) -> str:
    """An equipment line as a choice shows it: ``Frag grenades x3 (25 each)``."""
    if it.qty > 1:
        return f"{it.name} x{it.qty} ({it.cost or 0} each)"
    return f"{it.name} ({it.cost or 0})"


@resolver("sell_equipment")
def sell_equipment(walk: Walk) -> None:
    """Seed 004, Sell Equipment: "For each item you want to sell ..." -- one item of a
    line at a time (two Autopistols are two items), and "you may not attempt to sell the
    same item again during this Post-Battle Sequence": the item offered, not every item
    of its name (``refused`` counts the items of each line offered and kept)."""
    table = table_of(walk, walk.step["table"])
    refused = facts(walk).setdefault("refused", {})
    for e in walk.entries():
        g = walk.campaign.gang(e["gang"])
        eid = e["id"]
        opts = sellable(walk.seq, g, walk.step)
        oid = walk.choose(f"{eid}:item", f"{g.name}: which item to sell?", opts, gang=g.id)
        holder, item = oid.split("|", 1)
        items = g.stash if holder == "stash" else g.fighter(holder).equipment
        it = next(x for x in items if x.name == item)
        value = it.cost or 0  # one item's value (a line of two is two items)
        buyers = walk.seq.facts.get("seek_buyer", {}).get(g.id, 0)
        price = 0
        if buyers == 0:
            r = walk.roll(f"{eid}:roll", f"Selling {item} (no Seek Buyer)", table["dice"],
                          gang=g.id, table=walk.step["table"])
            row = lookup(table, r.total)
            walk.say(f"{item}: {row_line(table, r.total, row)}")
            if row and any(x["kind"] == "half_value" for x in row.get("effects", [])):
                price = value // 2  # readings: half-value-rounded-down
                if value % 2:
                    walk.say(f"  half of {value} is {price} (rounded down)")
        else:
            dice = table["seek_buyer_one"] if buyers == 1 else table["seek_buyer_two"]
            r = walk.roll(f"{eid}:roll", f"Selling {item} ({buyers} Seek Buyer): value minus "
                          f"{dice}", dice, gang=g.id)
            price = value - r.total
            walk.say(f"{item}: {value} - {r.total} = {price}"
                     + (" : no buyer can be found" if price <= 0 else ""))
        key = f"{g.id}/{oid}"
        refused[key] = refused.get(key, 0) + 1  # (back to the count when it is sold)
        if price <= 0:
            continue
        c = walk.choose(f"{eid}:accept", f"Sell {item} for {price} credits?",
                        [Option("sell", f"Sell for {price}"), Option("keep", "Keep it (may not be "
                         "offered again this sequence)")], gang=g.id)
        if c == "sell":
            refused[key] -= 1  # sold: no longer on the roster to be offered
            walk.change(RemoveItem(gang=g.id, fighter="" if holder == "stash" else holder,
                        item=item, count=1, why="sold"))
            walk.change(Credits(gang=g.id, amount=price, why=f"sold {item}"))
            left = _units(items, item)
            walk.say(f"{g.name} sells one {item} for {price} credits"
                     + (f" ({left} left)" if left else ""))
        else:
            walk.say(f"{g.name} keeps {item}")
    for g in walk.gangs:
        if _skips(walk, g, walk.step):
            walk.say(f"{g.name} ({g.type}) skips this step.")
    if not walk.state.lines:
        walk.say("Nothing sold: offer an item with {key:post_battle.add}.")


def _units(items: list[Any], name: str) -> int:
    """How many items of ``name`` a Stash or a fighter holds (every line's quantity)."""
    return sum(it.qty for it in items if it.name == name)


def sellable(seq: Sequence, g: Gang, step: dict[str, Any]) -> list[Option]:
    """An option per item name of the Stash and of each fighter who may sell; greyed when
    every item of that name there was offered this sequence and kept."""
    refused = seq.facts.get("refused", {})
    holders: list[tuple[str, str, list[Any]]] = [("stash", "Stash", g.stash)]
    for f in g.fighters:
        if f.type is FighterType.HIRED_GUN or f.status in (FighterStatus.DEAD, FighterStatus.RETIRED,
                                                            FighterStatus.CAPTURED):
            continue
        holders.append((f.id, f.name, f.equipment))
    opts = []
    for hid, hname, items in holders:
        seen: set[str] = set()
        for it in items:
            if it.name in seen:
                continue  # (two lines of one name: one option, their items counted together)
            seen.add(it.name)
            oid = f"{hid}|{it.name}"
            units = _units(items, it.name)
            offered = refused.get(f"{g.id}/{oid}", 0)
            label = f"{hname}: {it.name}" + (f" x{units}" if units > 1 else "") + \
                f" ({it.cost or 0}{' each' if units > 1 else ''})"
            if offered and units > offered:
                label += f", {units - offered} not yet offered"
            opts.append(Option(oid, label, units > offered, "already offered this sequence"))
    return opts


@entry_kinds("sell_equipment")
def _sell_entries(seq: Sequence) -> list[Option]:
    out = []
    for gid in seq.outcome.gangs:
        g = seq.work.gang(gid)
        skip = _skips(seq, g, seq.step)
        can = any(o.enabled for o in sellable(seq, g, seq.step))
        out.append(Option(f"sell|{gid}", f"{g.name}: sell an item", not skip and can,
                          f"{g.type} gangs skip this step" if skip else "nothing left to offer"))
    return out


@resolver("buy_rare")
def buy_rare(walk: Walk) -> None:
    for e in walk.entries():
        g = walk.campaign.gang(e["gang"])
        eid = e["id"]
        k = int(e.get("arg") or 0)
        dice = "2D6-1" if k == 0 else "2D6+1"
        r = walk.roll(f"{eid}:avail", f"{g.name}: Rare Item Availability "
                      f"({'no Seek Rare Item' if k == 0 else 'Seek Rare Item'})", dice, gang=g.id)
        walk.say(f"{g.name}: Rare Item Availability {r.total} ({r})")
        c = walk.choose(f"{eid}:buy", f"Buy a Rare item of rarity {r.total} or less?",
                        [Option("buy", "Buy an item"), Option("pass", "Buy nothing")], gang=g.id)
        if c == "pass":
            continue
        name = walk.text(f"{eid}:name", f"{g.name}: the Rare item", gang=g.id)
        rarity = walk.number(f"{eid}:rarity", f"{name}: its rarity", gang=g.id, minimum=0,
                             maximum=r.total)
        cost = walk.number(f"{eid}:cost", f"{name}: price (credits)", gang=g.id, minimum=0,
                           maximum=g.credits, note=f"The Stash holds {g.credits} credits.")
        item = new_item(walk, f"{eid}:kind", name, cost, g.id, rarity=f"Rare ({rarity})")
        walk.change(AddItem(gang=g.id, item=item))
        walk.change(Credits(gang=g.id, amount=-cost, why=f"bought {name}"))
        walk.say(f"{g.name} buys {name} (Rare {rarity}, {_kind_of(item)}) for {cost} credits")
    if not walk.state.lines:
        walk.say("Roll for a Rare item with {key:post_battle.add}.")


@entry_kinds("buy_rare")
def _rare_entries(seq: Sequence) -> list[Option]:
    out = []
    for gid in seq.outcome.gangs:
        g = seq.work.gang(gid)
        used = sum(1 for e in seq.draft["entries"].get(seq.step["id"], []) if e["gang"] == gid)
        slots = 1 + seq.facts.get("seek_rare", {}).get(gid, 0)
        skip = _skips(seq, g, seq.step)
        out.append(Option(f"rare|{gid}|{used}", f"{g.name}: roll Rare Item Availability "
                          f"({'2D6-1' if used == 0 else '2D6+1'})", not skip and used < slots,
                          f"{g.type} gangs skip this step" if skip else
                          "no more Rare items this sequence"))
    return out


@resolver("buy_common")
def buy_common(walk: Walk) -> None:
    for e in walk.entries():
        g = walk.campaign.gang(e["gang"])
        eid = e["id"]
        name = walk.text(f"{eid}:name", f"{g.name}: the item (Equipment List or Common)",
                         gang=g.id)
        cost = walk.number(f"{eid}:cost", f"{name}: price (credits)", gang=g.id, minimum=0,
                           maximum=g.credits, note=f"The Stash holds {g.credits} credits.")
        item = new_item(walk, f"{eid}:kind", name, cost, g.id, rarity="Common")
        walk.change(AddItem(gang=g.id, item=item))
        walk.change(Credits(gang=g.id, amount=-cost, why=f"bought {name}"))
        walk.say(f"{g.name} buys {name} ({_kind_of(item)}) for {cost} credits")
    if not walk.state.lines:
        walk.say("Nothing bought: buy an item with {key:post_battle.add}.")


entry_kinds("buy_common")(lambda seq: [
    Option(f"buy|{gid}", f"{seq.work.gang(gid).name}: buy an item")
    for gid in seq.outcome.gangs])


def weapon_load(items: list[Any]) -> int:
    return sum((2 if it.unwieldy else 1) * it.qty for it in items if it.weapon)


@resolver("distribute_equipment")
def distribute_equipment(walk: Walk) -> None:
    limit = walk.step.get("weapon_limit", 3)
    for g in walk.gangs:
        for f in g.fighters:
            for it in list(f.equipment):
                if it.spent:
                    walk.change(RemoveItem(gang=g.id, fighter=f.id, item=it.name,
                                why="spent consumable"))
                    walk.say(f"{g.name}: {possessive(f.name)} spent {it.name} is deleted (-{it.value})")
        for it in list(g.stash):
            if it.spent:
                walk.change(RemoveItem(gang=g.id, item=it.name, why="spent"))
    for e in walk.entries():
        g = walk.campaign.gang(e["gang"])
        eid = e["id"]
        if e["kind"] == "give":
            item = walk.choose(f"{eid}:item", f"{g.name}: which Stash item?",
                               [Option(it.name, f"{it.name} ({it.cost or 0})") for it in g.stash],
                               gang=g.id)
            it = next(x for x in g.stash if x.name == item)
            opts = []
            for f in g.fighters:
                if f.status in (FighterStatus.DEAD, FighterStatus.RETIRED, FighterStatus.CAPTURED):
                    continue
                load = weapon_load(f.equipment) + (weapon_load([it]) if it.weapon else 0)
                opts.append(Option(f.id, f"{f.name} ({weapon_load(f.equipment)} weapons)",
                                   load <= limit, f"weapon limit {limit} (Unwieldy counts 2)"))
            fid = walk.choose(f"{eid}:to", f"{item} to which fighter?", opts, gang=g.id)
            walk.change(GiveItem(gang=g.id, fighter=fid, item=item))
            walk.say(f"{g.name}: {item} Stash -> {walk.fname(g.id, fid)}")
        else:
            # a Captured fighter's gear is not the gang's to move: the captor takes it to
            # its own Stash when selling them (seed 004, Sell to the Guilders: "take all of
            # the equipment off of their fighter card and add it to your Stash")
            opts = [Option(f"{f.id}|{it.name}", f"{f.name}: {it.name}") for f in g.fighters
                    if f.status not in (FighterStatus.DEAD, FighterStatus.RETIRED,
                                        FighterStatus.CAPTURED)
                    for it in f.equipment]
            oid = walk.choose(f"{eid}:item", f"{g.name}: which item goes to the Stash?", opts,
                              gang=g.id)
            fid, item = oid.split("|", 1)
            walk.change(ToStash(gang=g.id, fighter=fid, items=(item,)))
            walk.say(f"{g.name}: {item} {walk.fname(g.id, fid)} -> Stash")
    for g in walk.gangs:
        walk.say(f"{g.name}: Stash " + (", ".join(it.name for it in g.stash) or "empty"))
        on_roster = [f for f in g.fighters if f.status not in
                     (FighterStatus.DEAD, FighterStatus.RETIRED)]
        walk.say(f"{g.name}: weapons (limit {limit}, Unwieldy counts 2): "
                 + (", ".join(f"{f.name} {weapon_load(f.equipment)}" for f in on_roster) or "none"))
    over_the_limit(walk, limit)


def over_the_limit(walk: Walk, limit: int) -> None:
    """Seed 004: no fighter leaves Distribute Equipment over the weapon limit: the player
    moves a weapon to the Stash, or the Arbitrator overrides it (kept in the report)."""
    for g in walk.gangs:
        for f in g.fighters:
            if f.status in (FighterStatus.DEAD, FighterStatus.RETIRED, FighterStatus.CAPTURED):
                continue  # (a captive's weapons are not the gang's to move: see above)
            k = 0
            while weapon_load(f.equipment) > limit:
                load = weapon_load(f.equipment)
                pid = f"limit:{g.id}:{f.id}:{k}"
                c = walk.choose(pid, f"{f.name} carries {load} weapons: the limit is {limit} "
                                "(an Unwieldy weapon counts 2)",
                                [Option("stash", "Move a weapon to the Stash"),
                                 Option("override", "Arbitrator override: keep them all")],
                                gang=g.id, note="Seed 004, Distribute Equipment. An override "
                                "is recorded in the battle report.")
                if c == "override":
                    walk.change(WeaponOverride(gang=g.id, fighter=f.id, load=load,
                                limit=limit, why="Arbitrator override"))
                    walk.say(f"{g.name}: {f.name} keeps {load} weapons (Arbitrator override)")
                    break
                item = walk.choose(f"{pid}:item", f"{f.name}: which weapon goes to the Stash?",
                                   [Option(it.name, f"{it.name} ({it.kind})") for it in f.equipment
                                    if it.weapon], gang=g.id)
                walk.change(ToStash(gang=g.id, fighter=f.id, items=(item,),
                            why="over the weapon limit"))
                walk.say(f"{g.name}: {item} {f.name} -> Stash (over the weapon limit)")
                k += 1


@entry_kinds("distribute_equipment")
def _distribute_entries(seq: Sequence) -> list[Option]:
    out = []
    for gid in seq.outcome.gangs:
        g = seq.work.gang(gid)
        out.append(Option(f"give|{gid}", f"{g.name}: Stash -> fighter", bool(g.stash),
                          "the Stash is empty"))
        carried = any(f.equipment for f in g.fighters if f.status not in (
            FighterStatus.DEAD, FighterStatus.RETIRED, FighterStatus.CAPTURED))
        out.append(Option(f"take|{gid}", f"{g.name}: fighter -> Stash", carried,
                          "no fighter the gang holds carries equipment"))
    return out


@resolver("modify_tactics")
def modify_tactics(walk: Walk) -> None:
    for e in walk.entries():
        g = walk.campaign.gang(e["gang"])
        if e["kind"] == "add":
            name = walk.text(f"{e['id']}:name", f"{g.name}: the Tactics card to add", gang=g.id)
            walk.change(TacticsAdd(gang=g.id, name=name))
            walk.say(f"{g.name} adds {name}")
        else:
            name = walk.choose(f"{e['id']}:name", f"{g.name}: the Tactics card to remove",
                               [Option(t, t) for t in g.tactics], gang=g.id)
            walk.change(TacticsRemove(gang=g.id, name=name))
            walk.say(f"{g.name} removes {name}")
    for g in walk.gangs:
        walk.say(f"{g.name}: Tactics " + (", ".join(g.tactics) or "none recorded"))


@entry_kinds("modify_tactics")
def _tactics_entries(seq: Sequence) -> list[Option]:
    out = []
    for gid in seq.outcome.gangs:
        g = seq.work.gang(gid)
        out.append(Option(f"add|{gid}", f"{g.name}: add a card"))
        out.append(Option(f"remove|{gid}", f"{g.name}: remove a card", bool(g.tactics),
                          "no cards recorded"))
    return out


@resolver("update_gang_rating")
def update_gang_rating(walk: Walk) -> None:
    for g in walk.gangs:
        before = walk.seq.base.gang(g.id).rating
        walk.say(f"{g.name}: Gang Rating {before} -> {g.rating}; Reputation {g.reputation}; "
                 f"credits {g.credits}")


def recovery_ends(walk: Walk) -> None:
    """The sequence ends: a fighter in Recovery since an earlier battle has missed this
    one and is available again (Lasting Injuries: "goes into Recovery")."""
    for g in walk.gangs:
        for f in career.recovery_ends(g, walk.seq.number):
            # the injury that sent them, when known ("Recovery (Recovery)" says nothing)
            why = f.status_why.strip()
            cause = f" ({why})" if why and why.lower() != "recovery" else ""
            walk.change(Status(gang=g.id, fighter=f.id, status=str(FighterStatus.ACTIVE),
                        why=f"back from Recovery{cause}"))
            walk.say(f"{g.name}: {f.name} is back from Recovery{cause} after missing this battle")


@resolver("report_results")
def report_results(walk: Walk) -> None:
    recovery_ends(walk)
    for line in walk.seq.report().splitlines():
        walk.say(line)
