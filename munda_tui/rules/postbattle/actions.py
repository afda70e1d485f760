"""Post-Battle Actions: who may take which action, and every action's resolution.

The step's entries are "this fighter takes an action" (``act|gang|fighter``);
walking an entry asks which action (every action listed, the ones the fighter
may not take greyed with the reason), who else joins it, then its rolls.
Eligibility reads the ruleset's ``[[actions]]`` data (gangs, fighter types,
Mercs, once per gang, what the action requires).
"""

from __future__ import annotations

from typing import Any

from ..core.model import FighterStatus, FighterType, Fighter, Gang, GangType, TerritoryKind, UNAVAILABLE
from ..core.status import BattleStatus
from .core import (
    Sequence,
    Option,
    action_detail,
    Pending,
    Prompt,
    Walk,
    entry_kinds,
    get_table,
    lookup,
    row_text,
    resolver,
)
from .steps import died, item_label, lasting_injury, permanent_injury, row_line, set_status
from ..core.readings import note as reading_note
from .changes import Bounty, ClearEquipment, Credits, NewFighterType, Reputation, Seize, TakeItem, TerritoryAdd, TerritorySize, Xp
from ..core.wording import possessive


LEADERS = {FighterType.LEADER, FighterType.CHAMPION}
GW_FIGHTERS = {FighterType.LEADER, FighterType.CHAMPION, FighterType.PROSPECT,
               FighterType.SPECIALIST, FighterType.GANGER, FighterType.JUVE, FighterType.BRUTE}
FIXER_TWO = {FighterType.LEADER, FighterType.CHAMPION, FighterType.PROSPECT,
             FighterType.SPECIALIST}
MERCS = {FighterType.HIRED_GUN}


def has_skill(f: Fighter, skill: str) -> bool:
    return any(s.strip().lower() == skill.lower() for s in f.skills)


def action_slots(seq: Sequence, g: Gang, f: Fighter) -> int:
    """How many Post-Battle Actions this fighter may take (0: none)."""
    if str(g.type) in _no_action_gangs(seq):  # Gang War: Spyrer Hunting Parties
        return 0
    if f.status in UNAVAILABLE:
        return 0
    if f.type in MERCS:
        if has_skill(f, "Fixer"):
            # seed 002: "a fighter who has the Fixer skill may take two" (readings: turf-fixer-merc)
            two = (seq.ruleset.get("fixer_merc_two_actions_setting", False)
                   and seq.base.settings.turf_fixer_merc_two_actions)
            return 2 if two else 1
        return 1 if has_skill(f, "Savvy Trader") else 0
    if "hero_types" in seq.ruleset:
        heroes = {FighterType(t) for t in seq.ruleset["hero_types"]}
        if f.type not in heroes:
            return 0
        return 2 if has_skill(f, "Fixer") else 1
    if f.type not in GW_FIGHTERS:
        return 0
    return 2 if has_skill(f, "Fixer") and f.type in FIXER_TWO else 1


def _no_action_gangs(seq: Sequence) -> list[str]:
    """Gang types the ruleset's Post-Battle Actions step leaves out (seed 004: "Spyrer
    Hunting Parties skip this step entirely"; seed 002 names none)."""
    step = next((s for s in seq.ruleset["steps"] if s["resolver"] == "post_battle_actions"), {})
    return list(step.get("skip_gangs", []))


def used(seq: Sequence, gang_id: str, fighter_id: str) -> int:
    return seq.facts.get("pba_used", {}).get(f"{gang_id}/{fighter_id}", 0)


def remaining(seq: Sequence, g: Gang, f: Fighter) -> int:
    return max(0, action_slots(seq, g, f) - used(seq, g.id, f.id))


def taken(seq: Sequence, gang_id: str) -> list[str]:
    return seq.facts.get("pba_taken", {}).get(gang_id, [])


def _captives(seq: Sequence, g: Gang) -> list[tuple[Gang, Fighter]]:
    out = []
    for other in seq.work.gangs:
        if other.id == g.id:
            continue
        for f in other.fighters:
            if f.status is FighterStatus.CAPTURED and f.captured_by == g.id:
                out.append((other, f))
    return out


def _sellable_captives(seq: Sequence, g: Gang) -> list[tuple[Gang, Fighter]]:
    out = []
    action = next((a for a in seq.ruleset.get("actions", []) if a["id"] == "sell-to-guilders"), {})
    barred = set(action.get("unsellable_gangs", []))  # Gang War: no Arbites; 2017: none
    for other, f in _captives(seq, g):
        if str(other.type) in barred:
            continue
        if f.bounty > 0 or had_a_chance_to_rescue(seq, other, f, g.id):
            out.append((other, f))
    return out


def had_a_chance_to_rescue(seq: Sequence, other: Gang, f: Fighter, captor: str) -> bool:
    """Seed 004, Sell to the Guilders: "Captured fighters can't be sold in this way until
    their gang has had a chance to rescue them" (readings: rescue-chance): the captive's
    gang has fought a battle since the one they were Captured in (a finished battle, or
    this one). A capture whose battle is not known (set on the roster, imported) counts
    from before this battle's sequence: the captive was already held then."""
    try:
        before = seq.base.gang(other.id).fighter(f.id)
    except KeyError:
        return False
    if before.status is not FighterStatus.CAPTURED or before.captured_by != captor:
        return False  # captured in this battle: their gang has had no chance yet
    if not before.status_battle:
        return True
    if seq.number > before.status_battle and other.id in seq.outcome.gangs:
        return True  # this battle was their chance
    return any(b.number > before.status_battle and b.status == BattleStatus.DONE
               and other.id in b.gangs for b in seq.base.battles)


def _sold(g: Gang) -> list[Fighter]:
    return [f for f in g.fighters if f.status is FighterStatus.CAPTURED and f.captured_by == "guilders"]


def _critical(g: Gang) -> list[Fighter]:
    return [f for f in g.fighters if f.status is FighterStatus.CRITICAL and f.standard_injuries]


def turf_count(seq: Sequence, g: Gang) -> int:
    """How many Turf the gang has for Work the Turf: its Turf Territories; where the
    ruleset keeps a Turf Size (Turf War 2017), that number, named Turf or not: a gang at Turf
    Size 0 has no Turf (readings: turf-size)."""
    if seq.ruleset.get("turf_size", False):
        return max(0, g.territory_size)
    return sum(1 for t in g.territories if t.kind is TerritoryKind.TURF)


def _has_turf(seq: Sequence, g: Gang) -> bool:
    return turf_count(seq, g) > 0


REQUIRES = {
    "turf": (_has_turf, "the gang has no Turf (Turf War 2017: its Turf Size is 0)"),
    "captives": (lambda seq, g: bool(_captives(seq, g)), "the gang holds no Captured fighter"),
    "sellable_captive": (lambda seq, g: bool(_sellable_captives(seq, g)),
                         "no captive to sell yet (no rescue chance yet, no Bounty)"),
    "sold_fighter": (lambda seq, g: bool(_sold(g)), "no fighter sold to the Guilders"),
    "own_bounty": (lambda seq, g: any(f.bounty > 0 for f in g.fighters), "no fighter has a Bounty"),
    "critical": (lambda seq, g: bool(_critical(g)), "no Critically Injured fighter"),
}


def eligibility(seq: Sequence, g: Gang, f: Fighter, action: dict[str, Any],
                participant: bool = False) -> str:
    """"" when the fighter may take (or, ``participant``, join) the action, else why not."""
    gtype = str(g.type)
    gangs = action.get("gangs", [])
    mutants = action.get("mutants", [])
    conditional = action.get("conditional", {})
    if gangs and gtype not in gangs and gtype not in mutants and gtype not in conditional:
        return f"not open to {gtype} gangs"
    if gtype in mutants and gtype not in gangs and f.has_mutations:
        return "not open to fighters with Mutations"
    types = action.get("types", [])
    if f.type in MERCS:
        mercs = action.get("mercs", "")
        fixer, savvy = has_skill(f, "Fixer"), has_skill(f, "Savvy Trader")
        if mercs == "savvy" and (savvy or fixer):
            pass
        elif fixer and (mercs == "fixer" or not types):
            pass
        elif savvy and not fixer:
            return "a Savvy Trader Merc may only Seek Rare Item or Seek Buyer"
        else:
            return "Mercs may not take this action"
    elif types and str(f.type) not in types:
        return "only " + ", ".join(types)
    if participant:
        return ""
    mine = taken(seq, g.id)
    if action.get("once") and action["id"] in mine:
        return "once per gang per Post-Battle Sequence"
    exclusive = [a for a in mine if _action_exclusive(seq, a)]
    if exclusive:
        return "Expansion and Exploration was taken: no other actions"
    if action.get("exclusive") and mine:
        return "no other Post-Battle Actions may be taken with it"
    req = action.get("requires")
    if req:
        check, why = REQUIRES[req]
        if not check(seq, g):
            return why
    return ""


def _action_exclusive(seq: Sequence, action_id: str) -> bool:
    for a in seq.ruleset.get("actions", []):
        if a["id"] == action_id:
            return bool(a.get("exclusive"))
    return False


def action_options(seq: Sequence, g: Gang, f: Fighter) -> list[Option]:
    opts = []
    for a in seq.ruleset.get("actions", []):
        why = eligibility(seq, g, f, a)
        label = a["title"]
        cond = a.get("conditional", {}).get(str(g.type))
        if cond and not why:
            label += f" ({cond})"
        opts.append(Option(a["id"], label, not why, why, detail=action_detail(a)))
    return opts


@entry_kinds("post_battle_actions")
def _pba_entries(seq: Sequence) -> list[Option]:
    out = []
    for gid in seq.outcome.gangs:
        g = seq.work.gang(gid)
        for f in g.fighters:
            slots = action_slots(seq, g, f)
            if slots == 0:
                continue
            left = remaining(seq, g, f)
            out.append(Option(f"act|{gid}|{f.id}", f"{g.name}: {f.name} ({f.type}, {left} of "
                              f"{slots} left)", left > 0, "no Post-Battle Action left"))
        if seq.ruleset.get("work_the_turf_without_fighter", False):
            # "It is possible for a gang to send no fighter and still take this action."
            wtt = get_action_of(seq, "work-the-turf")
            f0 = Fighter("-", "-", FighterType.LEADER)
            why = eligibility(seq, g, f0, wtt)
            out.append(Option(f"turf|{gid}", f"{g.name}: Work the Turf, sending no fighter",
                              not why, why))
    return out


def get_action_of(seq: Sequence, action_id: str) -> dict[str, Any]:
    return next(a for a in seq.ruleset["actions"] if a["id"] == action_id)


@resolver("post_battle_actions")
def post_battle_actions(walk: Walk) -> None:
    seq = walk.seq
    if all(str(g.type) in _no_action_gangs(seq) for g in walk.gangs):
        walk.skip("Spyrer Hunting Parties cannot take Post-Battle Actions")
    seq.facts.setdefault("pba_used", {})
    seq.facts.setdefault("pba_taken", {})
    for e in walk.entries():
        g = walk.campaign.gang(e["gang"])
        eid = e["id"]
        if e["kind"] == "turf":
            action = get_action_of(seq, "work-the-turf")
            if "work-the-turf" in taken(seq, g.id):
                walk.say(f"{g.name}: Work the Turf was already taken (entry ignored)")
                continue
            seq.facts["pba_taken"].setdefault(g.id, []).append("work-the-turf")
            walk.say(f"{g.name}: Work the Turf, no fighter sent")
            walk.say(f"  ({action['borrowed']})")
            work_the_turf(walk, g, [], action, eid)
            continue
        try:
            f = g.fighter(e["arg"])
        except KeyError:
            continue
        if remaining(seq, g, f) <= 0:
            walk.say(f"{f.name} has no Post-Battle Action left (entry ignored)")
            continue
        aid = walk.choose(f"{eid}:action", f"{g.name}: which action does {f.name} take?",
                          action_options(seq, g, f), gang=g.id)
        action = next(a for a in seq.ruleset["actions"] if a["id"] == aid)
        group = [f]
        if action.get("participants") == "many":
            others = []
            for o in g.fighters:
                if o.id == f.id or o.status in UNAVAILABLE:
                    continue
                # Turf War 2017: Gangers may be sent though they take no action of their own
                ganger_joins = (seq.ruleset.get("gangers_join_actions", False)
                                and o.type is FighterType.GANGER)
                if not ganger_joins and remaining(seq, g, o) <= 0:
                    continue
                if eligibility(seq, g, o, action, participant=True):
                    continue
                others.append(Option(o.id, f"{o.name} ({o.type})"))
            need = _composition(action, [f])
            prompt = Prompt(f"{eid}:with", "multi", f"Who joins {f.name} ({action['title']})?",
                            gang=g.id, options=others, default=[],
                            note="Space picks, {key:multi_pick.confirm} confirms." + (f" {need}" if need else ""))
            picked = walk.ask(prompt)
            group += [g.fighter(x) for x in picked]
            problem = _composition(action, group)
            if problem:
                prompt.note = f"Not allowed: {problem}. Pick again."
                raise Pending(prompt)
        used_map = seq.facts["pba_used"]
        for m in group:
            if action_slots(seq, g, m) > 0:
                used_map[f"{g.id}/{m.id}"] = used_map.get(f"{g.id}/{m.id}", 0) + 1
        seq.facts["pba_taken"].setdefault(g.id, []).append(aid)
        names = ", ".join(m.name for m in group)
        walk.say(f"{g.name}: {action['title']} by {names}")
        if action.get("borrowed"):
            walk.say(f"  ({action['borrowed']})")
        ACTION_RESOLVERS[action["resolver"]](walk, g, group, action, eid)


def _composition(action: dict[str, Any], group: list[Fighter]) -> str:
    need_l = action.get("min_leaders", 0)
    need_o = action.get("min_others", 0)
    if not need_l and not need_o:
        return ""
    leaders = sum(1 for m in group if m.type in LEADERS)
    others = sum(1 for m in group if m.type in {FighterType.PROSPECT, FighterType.SPECIALIST,
                                                FighterType.GANGER, FighterType.JUVE})
    if leaders < need_l or others < need_o:
        parts = []
        if need_l:
            parts.append(f"at least {need_l} Leader or Champion")
        if need_o:
            parts.append(f"at least {need_o} Prospects, Specialists, Gangers or Juves")
        return "needs " + " and ".join(parts)
    return ""


# --- effects ----------------------------------------------------------------------------


def apply_effects(walk: Walk, g: Gang, fighter: Fighter, group: list[Fighter],
                  effects: list[dict[str, Any]], pid: str, ruleset: str) -> None:
    opp_id = walk.opponent(g.id)
    for i, ef in enumerate(effects):
        k = ef["kind"]
        p = f"{pid}:{i}"
        if k == "credits":
            if "dice" in ef:
                r = walk.roll(p, f"{g.name}: credits ({ef['dice']})", ef["dice"], gang=g.id)
                n, how = r.total, f" ({r})"
            else:
                n, how = ef["amount"], ""
            walk.change(Credits(gang=g.id, amount=n, why="Post-Battle Action"))
            walk.say(f"  {g.name} gains {n} credits{how}")
        elif k == "reputation":
            if "dice" in ef:
                r = walk.roll(p, f"{g.name}: Reputation ({ef['dice']})", ef["dice"], gang=g.id)
                n, how = r.total, f" ({r})"
            else:
                n, how = ef["amount"], ""
            walk.change(Reputation(gang=g.id, amount=n, why="Post-Battle Action"))
            walk.say(f"  {g.name} {'gains' if n >= 0 else 'loses'} {abs(n)} Reputation{how}")
        elif k == "xp":
            if fighter.status is FighterStatus.DEAD:
                continue
            if "dice" in ef:
                r = walk.roll(p, f"{fighter.name}: XP ({ef['dice']})", ef["dice"], gang=g.id)
                n, how = r.total, f" ({r})"
            else:
                n, how = ef["amount"], ""
            walk.change(Xp(gang=g.id, fighter=fighter.id, amount=n,
                        why="Post-Battle Action"))
            walk.say(f"  {fighter.name} gains {n} XP{how}")
        elif k == "xp_and_reputation":
            r = walk.roll(p, f"{fighter.name}: XP and Reputation ({ef['dice']})", ef["dice"],
                          gang=g.id)
            walk.change(Xp(gang=g.id, fighter=fighter.id, amount=r.total,
                        why="Post-Battle Action"))
            walk.change(Reputation(gang=g.id, amount=r.total, why="Post-Battle Action"))
            walk.say(f"  {fighter.name} gains {r.total} XP and the gang {r.total} Reputation ({r})")
        elif k == "injury":
            res = lasting_injury(walk, g.id, fighter.id, p, "Post-Battle Action")
            if res.get("dead"):
                if ef.get("dead_reputation"):
                    r = walk.roll(f"{p}:rep", f"{g.name}: Reputation lost ({fighter.name} killed)",
                                  ef["dead_reputation"], gang=g.id)
                    walk.change(Reputation(gang=g.id, amount=-r.total,
                                why=f"{fighter.name} killed"))
                    walk.say(f"  {g.name} loses {r.total} Reputation ({r})")
            else:
                if ef.get("alive_reputation"):
                    walk.change(Reputation(gang=g.id, amount=ef["alive_reputation"],
                                why="Post-Battle Action"))
                    walk.say(f"  {g.name} loses {-ef['alive_reputation']} Reputation")
                if ef.get("alive_xp"):
                    walk.change(Xp(gang=g.id, fighter=fighter.id, amount=ef["alive_xp"],
                                why="Post-Battle Action"))
                    walk.say(f"  {fighter.name} gains {ef['alive_xp']} XP")
        elif k == "subtable":
            table = get_table(ruleset, ef["table"], walk.seq.data)
            targets = group if ef.get("per") == "fighter" else [fighter]
            for t in targets:
                r = walk.roll(f"{p}:{t.id}", f"{table['title']} for {t.name}", table["dice"],
                              gang=g.id, table=ef["table"])
                row = lookup(table, r.total)
                walk.say(f"  {t.name}: {row_line(table, r.total, row)}")
                if row:
                    apply_effects(walk, g, t, group, row.get("effects", []), f"{p}:{t.id}",
                                  ruleset)
        elif k == "recovery":
            if fighter.status is not FighterStatus.DEAD:
                set_status(walk, g.id, fighter.id, FighterStatus.RECOVERY, "Post-Battle Action")
                walk.say(f"  {fighter.name} goes into Recovery")
        elif k == "dies":
            set_status(walk, g.id, fighter.id, FighterStatus.DEAD, "Post-Battle Action")
            died(walk, g.id, fighter.id, equipment=ef.get("equipment", ""))
            walk.say(f"  {fighter.name} is killed")
        elif k == "permanent_injury":
            permanent_injury(walk, g.id, fighter.id, p, "Skulduggery")
        elif k == "choose":
            table = get_table(ruleset, ef["table"], walk.seq.data)
            chosen: list[str] = []
            for n in range(ef.get("count", 1)):
                opts = [Option(o["id"], f"{o['name']}: {o['text']}", o["id"] not in chosen,
                               "already picked") for o in table["options"]]
                c = walk.choose(f"{p}:pick{n}", f"{fighter.name}: {table['title']}: choose"
                                + (f" ({n + 1} of {ef['count']})" if ef.get("count", 1) > 1 else ""),
                                opts, gang=g.id)
                chosen.append(c)
                o = next(x for x in table["options"] if x["id"] == c)
                walk.say(f"  {o['name']}: {o['text']}")
                apply_effects(walk, g, fighter, group, o.get("effects", []), f"{p}:{c}", ruleset)
        elif k == "steal_credits":
            opp = walk.campaign.gang(opp_id)
            r = walk.roll(p, f"Larceny: up to {ef['dice']} credits from {opp.name}", ef["dice"],
                          gang=g.id)
            n = min(r.total, max(0, opp.credits))
            walk.change(Credits(gang=opp_id, amount=-n, why="Larceny"))
            walk.change(Credits(gang=g.id, amount=n, why="Larceny"))
            walk.say(f"  {g.name} steals {n} credits from {opp.name} ({r})")
        elif k == "opponent_recovery":
            opp = walk.campaign.gang(opp_id)
            crew = {fo.fighter for fo in walk.seq.outcome.crew(opp_id)}
            opts = [Option(o.id, o.name, o.status is not FighterStatus.RECOVERY,
                           "already in Recovery") for o in opp.fighters
                    if o.id in crew and o.status not in (FighterStatus.DEAD, FighterStatus.RETIRED,
                                                        FighterStatus.CAPTURED)]
            if not any(o.enabled for o in opts):
                walk.say(f"  No fighter of {possessive(opp.name)} Crew can be sent into Recovery")
                continue
            c = walk.choose(p, f"Malice: which fighter of {possessive(opp.name)} Crew goes into Recovery?",
                            opts, gang=g.id)
            set_status(walk, opp_id, c, FighterStatus.RECOVERY, "Malice")
            walk.say(f"  {walk.fname(opp_id, c)} goes into Recovery")
        elif k == "opponent_reputation":
            opp = walk.campaign.gang(opp_id)
            walk.change(Reputation(gang=opp_id, amount=ef["amount"], why="Sabotage"))
            walk.say(f"  {opp.name} loses {-ef['amount']} Reputation")
        elif k == "steal_item":
            opp = walk.campaign.gang(opp_id)
            if not opp.stash:
                walk.say(f"  {possessive(opp.name)} Stash is empty: nothing to steal")
                continue
            # "Theft: steal an item from the opposing gang's Stash": one item, not the
            # line (of three Frag grenades, one is stolen and two stay)
            c = walk.choose(p, f"Theft: which item from {possessive(opp.name)} Stash?",
                            [Option(it.name, item_label(it)) for it in opp.stash],
                            gang=g.id)
            walk.change(TakeItem(gang=g.id, from_gang=opp_id, item=c, count=1))
            walk.say(f"  {g.name} steals one {c} from {opp.name}")
        elif k == "territory":
            gain_territory(walk, g, p, special=ef.get("special", False), reroll=(
                ef.get("reroll_min"), ef.get("reroll_max")))
        else:
            raise ValueError(f"unknown effect {k!r}")


def gain_territory(walk: Walk, g: Gang, p: str, special: bool,
                   reroll: tuple[int | None, int | None] = (None, None)) -> None:
    if walk.seq.ruleset.get("turf_size", False):  # Turf Size is tracked as a number
        walk.change(TerritorySize(gang=g.id, amount=1))
    if not special:
        name = walk.text(f"{p}:name", f"{g.name}: name the new Turf Territory", gang=g.id,
                         default="Turf")
        walk.change(TerritoryAdd(gang=g.id, name=name, territory_kind="turf"))
        walk.say(f"  {g.name}: Territory Size +1, gains Turf {name}")
        return
    r = walk.roll(f"{p}:d66", f"{g.name}: D66 on the Special Territories table", "D66",
                  gang=g.id, note="The table is not in the seeds: roll, then enter the "
                  "Territory your table gives.")
    lo, hi = reroll
    if lo is not None and hi is not None and lo <= r.total <= hi:
        c = walk.choose(f"{p}:reroll", f"{r.total}: a result of {lo}-{hi} may be re-rolled once",
                        [Option("keep", f"Keep {r.total}"), Option("reroll", "Re-roll")],
                        gang=g.id)
        if c == "reroll":
            r = walk.roll(f"{p}:d66b", f"{g.name}: D66 re-roll", "D66", gang=g.id)
    name = walk.text(f"{p}:name", f"{g.name}: the Special Territory gained ({r.total})",
                     gang=g.id)
    walk.change(TerritoryAdd(gang=g.id, name=name, territory_kind="special"))
    walk.say(f"  {g.name}: Territory Size +1, gains Special Territory {name} (D66 {r.total})")


# --- the action resolvers ---------------------------------------------------------------


def _table_roll(walk: Walk, g: Gang, action: dict[str, Any], pid: str, add: int,
                label: str) -> tuple[int, dict[str, Any], dict[str, Any] | None]:
    table = get_table(walk.seq.ruleset_id, action["table"], walk.seq.data)
    dice = table["dice"]
    # A table borrowed from another ruleset brings only its rows: the rules that come with
    # it there (extra dice, re-rolls) apply only if the action lists them in borrow_rules.
    rules = _table_rules(walk, action)
    if "extra_die" in rules and str(g.type) in table.get("extra_die", []) and dice == "D6":
        dice = "2D6kh1"
    r = walk.roll(pid, label, dice, gang=g.id, table=action["table"],
                  note=(f"{g.type}: roll an extra D6 and discard the lowest." if dice != table["dice"]
                        else ""))
    if "reroll_gangs" in rules and str(g.type) in table.get("reroll_gangs", []):
        c = walk.choose(f"{pid}:reroll", f"{r.total}: a {g.type} fighter may re-roll once",
                        [Option("keep", f"Keep {r.total}"), Option("reroll", "Re-roll")],
                        gang=g.id)
        if c == "reroll":
            r = walk.roll(f"{pid}:again", f"{label} (re-roll)", dice, gang=g.id,
                          table=action["table"])
    total = r.total + add
    row = lookup(table, total)
    walk.say((f"  {r} + {add} = {total}: " if add else f"  {r}: ") + (
        row_text(row) if row else "no result on the table: nothing happens"))
    return total, table, row


ACTION_RESOLVERS: dict[str, Any] = {}


def action_resolver(name: str) -> Any:
    def deco(fn: Any) -> Any:
        ACTION_RESOLVERS[name] = fn
        return fn

    return deco


def _table_rules(walk: Walk, action: dict[str, Any]) -> set[str]:
    """The rules that come with an action's table: all of them in its own ruleset; from
    another ruleset only those the action lists in ``borrow_rules`` (extra_die,
    reroll_gangs, add_fighters)."""
    if _table_ruleset(walk, action) == walk.seq.ruleset_id:
        return {"extra_die", "reroll_gangs", "add_fighters"}
    return set(action.get("borrow_rules", []))


@action_resolver("table_action")
def table_action(walk: Walk, g: Gang, group: list[Fighter], action: dict[str, Any],
                 eid: str) -> None:
    table = get_table(walk.seq.ruleset_id, action["table"], walk.seq.data)
    # Gang War's Show of Force adds the fighters; Turf War 2017's is "a D6 on the Show of
    # Force chart" (seed 002; readings: turf-borrowed-rules)
    add = (len(group) if table.get("add") == "fighters"
           and "add_fighters" in _table_rules(walk, action) else 0)
    total, table, row = _table_roll(walk, g, action, f"{eid}:roll",
                                    add, f"{action['title']}: {table['dice']}"
                                    + (f" + {add} fighters" if add else ""))
    if row:
        apply_effects(walk, g, group[0], group, row.get("effects", []), f"{eid}:fx",
                      _table_ruleset(walk, action))


def _table_ruleset(walk: Walk, action: dict[str, Any]) -> str:
    t = action.get("table", "")
    return t.split(":", 1)[0] if ":" in t else walk.seq.ruleset_id


@action_resolver("work_the_turf")
def work_the_turf(walk: Walk, g: Gang, group: list[Fighter], action: dict[str, Any],
                  eid: str) -> None:
    table = get_table(walk.seq.ruleset_id, action["table"], walk.seq.data)
    mods = table["modifiers"]
    turf = turf_count(walk.seq, g)
    bonus = turf * mods["turf"]
    parts = [f"+{bonus} Turf ({turf})"] if turf else []
    for m in group:
        key = "merc" if m.type in MERCS else str(m.type)
        v = mods.get(key, 0)
        if v:
            bonus += v
            parts.append(f"+{v} {m.name}")
    r = walk.roll(f"{eid}:roll", f"Work the Turf: 1D6-1D6, then +{bonus} in modifiers",
                  "1D6-1D6", gang=g.id, table=action["table"])
    total = r.total + bonus
    walk.say(f"  {r} {' '.join(parts)} = {total}")
    if total > 0:
        n = total * table.get("multiplier", 10)
        walk.change(Credits(gang=g.id, amount=n, why="Work the Turf"))
        walk.say(f"  {g.name} gains {n} credits")
    else:
        walk.say("  nothing gained")


@action_resolver("mark")
def mark(walk: Walk, g: Gang, group: list[Fighter], action: dict[str, Any], eid: str) -> None:
    key = "seek_rare" if action["id"] == "seek-rare-item" else "seek_buyer"
    counts = walk.seq.facts.setdefault(key, {})
    counts[g.id] = counts.get(g.id, 0) + 1
    walk.say("  resolved later, at the Trading Post")


@action_resolver("dispense_justice")
def dispense_justice(walk: Walk, g: Gang, group: list[Fighter], action: dict[str, Any],
                     eid: str) -> None:
    caps = _captives(walk.seq, g)
    opts = [Option(f"{o.id}/{f.id}", f"{f.name} ({o.name})") for o, f in caps]
    picked = walk.multi(f"{eid}:who", "Which Captured fighters are dispensed with?", opts,
                        gang=g.id, minimum=1)
    for key in picked:
        gid, fid = key.split("/", 1)
        set_status(walk, gid, fid, FighterStatus.DEAD, "executed or remanded to custody")
        died(walk, gid, fid, equipment="lost")
        walk.change(Reputation(gang=g.id, amount=1, why="Dispense Justice"))
        walk.say(f"  {walk.fname(gid, fid)} is dispensed with: +1 Reputation")
    table = get_table(walk.seq.ruleset_id, action["table"], walk.seq.data)
    r = walk.roll(f"{eid}:roll", f"Just Rewards: D6 + {len(picked)}", "D6", gang=g.id,
                  table=action["table"])
    total = r.total + len(picked)
    row = lookup(table, total)
    walk.say(f"  {row_line(table, total, row)}")
    if row:
        apply_effects(walk, g, group[0], group, row.get("effects", []), f"{eid}:fx",
                      walk.seq.ruleset_id)


@action_resolver("sell_to_guilders")
def sell_to_guilders(walk: Walk, g: Gang, group: list[Fighter], action: dict[str, Any],
                     eid: str) -> None:
    caps = _sellable_captives(walk.seq, g)
    opts = [Option(f"{o.id}/{f.id}", f"{f.name} ({o.name}, cost {f.cost}, {f.bounty} Bounty)")
            for o, f in caps]
    key = walk.choose(f"{eid}:who", "Which captive is sold to the Guilders?", opts, gang=g.id)
    gid, fid = key.split("/", 1)
    f = walk.campaign.gang(gid).fighter(fid)
    if f.equipment:
        walk.change(Seize(gang=gid, fighter=fid, to_gang=g.id))
    value = f.cost // 2 + action.get("bounty_bonus", 50) * f.bounty  # half rounded down
    if f.cost % 2:
        walk.say(f"  half of {f.name}'s Rating {f.cost} is {f.cost // 2} (rounded down)")
    walk.change(Credits(gang=g.id, amount=value, why=f"sold {f.name} to the Guilders"))
    set_status(walk, gid, fid, FighterStatus.CAPTURED, "sold to the Guilders", "guilders")
    walk.say(f"  {possessive(f.name)} equipment goes to {possessive(g.name)} Stash; {g.name} gains {value} credits")


@action_resolver("buy_from_guilders")
def buy_from_guilders(walk: Walk, g: Gang, group: list[Fighter], action: dict[str, Any],
                      eid: str) -> None:
    """Seeds 004 and 002: "the fighter goes to make contact with them in an attempt to buy
    one or more of the Captured fighters back. For each captive fighter the cost to free
    them is ...": one action picks every captive it tries for, each priced and paid on
    its own."""
    opts = [Option(f.id, f"{f.name} (cost {f.cost}, {f.bounty} Bounty)") for f in _sold(g)]
    picked = walk.multi(f"{eid}:who", "Which fighters does the gang try to buy back?", opts,
                        gang=g.id, minimum=1, note="One action may buy back one or more "
                        "captives (\"buy one or more of the Captured fighters back\"); each is "
                        "priced and paid on its own.")
    for fid in picked:
        _buy_back(walk, g, g.fighter(fid), action, f"{eid}:{fid}")


def _buy_back(walk: Walk, g: Gang, f: Fighter, action: dict[str, Any], pid: str) -> None:
    fid = f.id
    r = walk.roll(f"{pid}:roll", f"Price of {f.name}: {f.cost} + (1D6-1D3)x5 + 50 per Bounty",
                  action.get("dice", "(1D6-1D3)x5"), gang=g.id)
    price = max(0, f.cost + r.total + action.get("bounty_bonus", 50) * f.bounty)
    c = walk.choose(f"{pid}:pay", f"Pay {price} credits for {f.name}?",
                    [Option("pay", f"Pay {price}", g.credits >= price,
                            f"the Stash holds only {g.credits}"),
                     Option("no", "Do not pay")], gang=g.id)
    if c != "pay":
        walk.say(f"  {g.name} does not pay; {f.name} stays with the Guilders")
        return
    walk.change(Credits(gang=g.id, amount=-price, why=f"bought back {f.name}"))
    set_status(walk, g.id, fid, FighterStatus.ACTIVE, "bought back from the Guilders")
    if f.bounty:
        walk.change(Bounty(gang=g.id, fighter=fid, amount=-f.bounty))
    if f.equipment:
        walk.change(ClearEquipment(gang=g.id, fighter=fid))
    walk.say(f"  {f.name} returns with no equipment and no Bounty ({r})")
    if f.type is FighterType.LEADER:
        others = [o for o in g.fighters if o.type is FighterType.LEADER and o.id != fid
                  and o.status not in (FighterStatus.DEAD, FighterStatus.RETIRED)]
        if others:
            returning_leads(walk, g, f, others[0], pid)


def returning_leads(walk: Walk, g: Gang, f: Fighter, cur: Fighter, pid: str) -> None:
    """Seed 004 (and 002), Buy from the Guilders: "If the freed captive was the Leader and
    they have a equal or higher Leadership than the current Leader, the current Leader
    changes back to their previous Fighter Type, otherwise the returning Leader's Fighter
    Type is changed to Champion." The profiles' Leadership decides (readings:
    returning-leader-leadership); the player is asked only when a profile has none."""
    mine, theirs = f.characteristics.get("ld"), cur.characteristics.get("ld")
    if mine is not None and theirs is not None:
        returning = mine <= theirs  # a target number: 6+ is a higher Leadership than 7+
        walk.say(f"  Leadership: {f.name} {mine}+, {cur.name} {theirs}+: "
                 + (f"{f.name} leads again ({'equal' if mine == theirs else 'higher'})"
                    if returning else f"{f.name} becomes a Champion (lower)"))
        walk.say("  " + reading_note("returning-leader-leadership"))
    else:
        missing = ", ".join(x.name for x, v in ((f, mine), (cur, theirs)) if v is None)
        c = walk.choose(f"{pid}:leader", f"Compare Leadership: who leads {g.name}?",
                        [Option("returning", f"{f.name} (equal or higher Leadership): "
                                f"{cur.name} changes back to their previous type"),
                         Option("current", f"{cur.name} (higher Leadership): {f.name} "
                                "becomes a Champion")],
                        gang=g.id, note=f"No Leadership on the profile of {missing}: "
                        "compare the fighter cards.")
        returning = c == "returning"
    if not returning:
        walk.change(NewFighterType(gang=g.id, fighter=f.id, type="Champion"))
        return
    prev = walk.choose(f"{pid}:prev", f"{possessive(cur.name)} previous fighter type",
                       [Option(str(t), str(t)) for t in FighterType], gang=g.id,
                       default="Champion")
    walk.change(NewFighterType(gang=g.id, fighter=cur.id, type=prev))


@action_resolver("post_bounty")
def post_bounty(walk: Walk, g: Gang, group: list[Fighter], action: dict[str, Any],
                eid: str) -> None:
    opp = walk.campaign.gang(walk.opponent(g.id))
    if opp.type is GangType.ARBITES:
        walk.say("  Guilders will not put a bounty on an Arbites fighter.")
        return
    opts = [Option(f.id, f"{f.name} ({f.bounty} Bounty)") for f in opp.fighters
            if f.status not in (FighterStatus.DEAD, FighterStatus.RETIRED)]
    picked = walk.multi(f"{eid}:who", f"Bounty on which of {possessive(opp.name)} fighters?", opts,
                        gang=g.id, minimum=1)
    for fid in picked:
        _pay_bounty(walk, g, opp, fid, action, f"{eid}:{fid}", +1)


@action_resolver("remove_bounty")
def remove_bounty(walk: Walk, g: Gang, group: list[Fighter], action: dict[str, Any],
                  eid: str) -> None:
    opts = [Option(f.id, f"{f.name} ({f.bounty} Bounty)") for f in g.fighters if f.bounty > 0]
    picked = walk.multi(f"{eid}:who", "Remove a Bounty from which fighters?", opts, gang=g.id,
                        minimum=1, note="Every Bounty on each fighter picked is rolled and paid "
                        "on its own (\"removing each Bounty costs 50 credits plus 3d6 x 5\").")
    for fid in picked:
        # seed 004: "For each fighter, removing each Bounty costs 50 credits plus 3d6 x 5
        # credits." The first Bounty keeps the prompt id drafts saved before this reading.
        bounties = g.fighter(fid).bounty  # before any is removed (the walk replays in order)
        for k in range(max(1, bounties)):
            pid = f"{eid}:{fid}" if k == 0 else f"{eid}:{fid}:{k + 1}"
            _pay_bounty(walk, g, g, fid, action, pid, -1,
                        f" ({k + 1} of {bounties})" if bounties > 1 else "")


def _pay_bounty(walk: Walk, g: Gang, owner: Gang, fid: str, action: dict[str, Any], pid: str,
                sign: int, which: str = "") -> None:
    name = walk.fname(owner.id, fid)
    r = walk.roll(pid, f"{'Post' if sign > 0 else 'Remove'} a Bounty on {name}{which}: 50 plus 3D6 x 5",
                  action.get("dice", "50+3D6x5"), gang=g.id)
    c = walk.choose(f"{pid}:pay", f"Pay {r.total} credits?",
                    [Option("pay", f"Pay {r.total}", g.credits >= r.total,
                            f"the Stash holds only {g.credits}"),
                     Option("no", "Do not pay")], gang=g.id)
    if c == "pay":
        walk.change(Credits(gang=g.id, amount=-r.total, why=f"Bounty on {name}"))
        walk.change(Bounty(gang=owner.id, fighter=fid, amount=sign))
        walk.say(f"  {'A Bounty is posted on' if sign > 0 else 'A Bounty is removed from'} "
                 f"{name} ({r})")
    else:
        walk.say(f"  not paid: no change to {possessive(name)} Bounty")


@action_resolver("medical_escort")
def medical_escort(walk: Walk, g: Gang, group: list[Fighter], action: dict[str, Any],
                   eid: str) -> None:
    escort = group[0]
    no_mutants = str(g.type) in action.get("patient_no_mutations", [])
    opts = [Option(f.id, f.name, not (no_mutants and f.has_mutations),
                   "fighters with Mutations cannot be escorted")
            for f in _critical(g) if f.id != escort.id]
    if not opts:
        walk.say("  no other Critically Injured fighter to escort")
        return
    fid = walk.choose(f"{eid}:who", f"{escort.name} escorts which Critically Injured fighter?",
                      opts, gang=g.id)
    patient = g.fighter(fid)
    table = get_table(walk.seq.ruleset_id, action["table"], walk.seq.data)
    cost = walk.roll(f"{eid}:cost", f"Treatment for {patient.name}: 2D6x10 credits",
                     table.get("cost", "2D6x10"), gang=g.id)
    c = walk.choose(f"{eid}:pay", f"Pay {cost.total} credits for {patient.name}?",
                    [Option("pay", f"Pay {cost.total}", g.credits >= cost.total,
                            f"the Stash holds only {g.credits}"),
                     Option("no", "Do not pay: the fighter dies (equipment recovered)")],
                    gang=g.id)
    if c != "pay":
        set_status(walk, g.id, fid, FighterStatus.DEAD, "not paid for medical treatment")
        died(walk, g.id, fid, doctor=True)
        walk.say(f"  not paid: {patient.name} dies (equipment recovered)")
        return
    walk.change(Credits(gang=g.id, amount=-cost.total, why=f"treatment of {patient.name}"))
    r = walk.roll(f"{eid}:roll", f"Medical Escort for {patient.name}", table["dice"], gang=g.id,
                  table=action["table"])
    row = lookup(table, r.total)
    walk.say(f"  paid {cost.total}; {row_line(table, r.total, row)}")
    result = (row or {}).get("text", "").split(":")[0] or "Medical Escort"
    for ef in (row or {}).get("effects", []):
        if ef["kind"] == "patient_dies":
            set_status(walk, g.id, fid, FighterStatus.DEAD, f"Medical Escort: {result}")
            died(walk, g.id, fid, doctor=True)
        elif ef["kind"] == "patient_recovery":
            set_status(walk, g.id, fid, FighterStatus.RECOVERY, f"Medical Escort: {result}")
        elif ef["kind"] == "patient_permanent_injury":
            permanent_injury(walk, g.id, fid, f"{eid}:perm", "Stabilized")


@action_resolver("expansion_and_exploration")
def expansion_and_exploration(walk: Walk, g: Gang, group: list[Fighter], action: dict[str, Any],
                              eid: str) -> None:
    # seed 002: "only one Special Territory may be gained or lost" in this Post-Battle Sequence
    one_done = g.id in walk.seq.facts.get("special_changed", set())
    c = walk.choose(f"{eid}:kind", "A new Turf territory or a Special Territory?",
                    [Option("turf", "Turf territory"), Option("special", "Special Territory "
                     "(D66 on the Special Territories table)", not one_done,
                            "a Special Territory was already gained or lost in this sequence")],
                    gang=g.id)
    gain_territory(walk, g, f"{eid}:t", special=c == "special")
