"""Three battles of the demo campaign through the engine with fixed dice.

The battles are logged in the tracker's engine (rules.battle), their outcomes walk
the Gang War post-battle sequence (rules.postbattle) with every die fixed, and after
each sequence every fighter's role, status, XP, kills, profile, equipment and
injuries, and each gang's credits, rating and captives, are compared with what is
written out here by hand from the rules. A comment says which rule each line follows.

The XP awards table is the Arbitrator's (the seeds do not print it): the values
below are the ones this test's Arbitrator typed in, not rules.
"""

from __future__ import annotations

import copy
from typing import Any

from munda_tui.rules import postbattle as pb
from munda_tui.rules.battle import (
    OUT_OF_ACTION,
    SERIOUSLY_INJURED,
    Battle,
    Event,
    default_setup,
    outcome,
    start_event,
)
from munda_tui.rules.career import captives
from munda_tui.rules.demo import demo_campaign
from munda_tui.rules.model import BattleSummary, Campaign
from munda_tui.rules.profile import format_value, CHARACTERISTICS

E, G = "venom-sisters", "iron-skulls"
AWARDS = {"seriously_injured": 1, "out_of_action": 2, "rally": 1}  # the Arbitrator's


def profile(f: Any) -> str:
    return " ".join(format_value(k, f.characteristics.get(k)) for k in CHARACTERISTICS)


def roster(c: Campaign) -> dict[str, tuple[Any, ...]]:
    """(role, status, XP, kills, profile, equipment, injuries) of every fighter."""
    return {
        f.id: (f.type.value, f.status.value, f.xp, f.kills, profile(f),
               [i.name for i in f.equipment], [(i.name, i.effect) for i in f.injuries])
        for g in c.gangs for f in g.fighters
    }


def fallen(c: Campaign) -> dict[str, tuple[Any, ...]]:
    """The same of every fighter who left the roster dead (the gangs' fallen)."""
    return {
        f.id: (f.type.value, f.status.value, f.xp, f.kills, profile(f),
               [i.name for i in f.equipment], [(i.name, i.effect) for i in f.injuries])
        for g in c.gangs for f in g.fallen
    }


def gangs(c: Campaign) -> dict[str, tuple[int, int, list[str]]]:
    """(credits, Gang Rating, captives held) of each gang."""
    return {g.id: (g.credits, g.rating, [f.id for _, f in captives(c, g.id)]) for g in c.gangs}


# The demo roster as the campaign starts (rules.demo), by hand:
# role, status, XP, kills, profile (M WS BS S T W I A Ld Cl Wil Int), equipment, injuries
START: dict[str, tuple[Any, ...]] = {
    "vexa-nightshade": ("Leader", "active", 6, 0, "5 3+ 3+ 3 3 2 3+ 2 6+ 6+ 7+ 7+",
                        ["Needle pistol", "Stiletto sword", "Mesh armour"], []),
    "sable-thorn": ("Champion", "active", 3, 0, "5 3+ 3+ 3 3 2 3+ 1 7+ 6+ 7+ 7+",
                    ["Chem-thrower", "Flak armour"], []),
    "kira-ashfall": ("Champion", "active", 2, 0, "5 3+ 3+ 3 3 2 3+ 1 7+ 6+ 7+ 7+",
                     ["Needle rifle", "Stiletto knife"], []),
    "lys-venom": ("Ganger", "active", 0, 0, "5 4+ 4+ 3 3 1 3+ 1 7+ 7+ 8+ 8+",
                  ["Lasgun", "Frag grenades"], []),
    "mara-quill": ("Ganger", "active", 0, 0, "5 4+ 4+ 3 3 1 3+ 1 7+ 7+ 8+ 8+",
                   ["Shotgun", "Stiletto knife"], []),
    "oona-vale": ("Ganger", "active", 0, 0, "5 4+ 4+ 3 3 1 3+ 1 7+ 7+ 8+ 8+",
                  ["Lasgun", "Filter plugs"], []),
    "tessa-gloom": ("Ganger", "active", 0, 0, "5 4+ 4+ 3 3 1 3+ 1 7+ 7+ 8+ 8+",
                    ["Autogun", "Flak armour"], []),
    "ria-cinder": ("Juve", "active", 0, 0, "5 5+ 5+ 3 3 1 3+ 1 8+ 8+ 9+ 9+",
                   ["Laspistol", "Fighting knife"], []),
    "pip-hollow": ("Juve", "active", 0, 0, "5 5+ 5+ 3 3 1 3+ 1 8+ 8+ 9+ 9+", ["Autopistol"], []),
    "brakk-ironjaw": ("Leader", "active", 5, 0, "4 2+ 4+ 4 4 2 4+ 2 5+ 6+ 6+ 7+",
                      ["Renderizer", "Furnace plates"], []),
    "gorth-slagborn": ("Champion", "active", 2, 0, "4 3+ 4+ 4 4 2 4+ 2 6+ 6+ 7+ 7+",
                       ["Heavy stubber", "Furnace plates"], []),
    "mord-hammerhand": ("Champion", "active", 1, 0, "4 3+ 4+ 4 4 2 4+ 2 6+ 6+ 7+ 7+",
                        ["Power hammer", "Stub gun"], []),
    "dak-cinderfist": ("Ganger", "active", 0, 0, "4 3+ 4+ 4 4 1 4+ 1 7+ 7+ 8+ 8+",
                       ["Combat shotgun", "Flak armour"], []),
    "thug-varro": ("Ganger", "active", 0, 0, "4 3+ 4+ 4 4 1 4+ 1 7+ 7+ 8+ 8+",
                   ["Spud-jacker", "Fighting knife"], []),
    "krug-ashenhide": ("Ganger", "active", 0, 0, "4 3+ 4+ 4 4 1 4+ 1 7+ 7+ 8+ 8+",
                       ["Autogun", "Frag grenades"], []),
    "hesk-molten": ("Ganger", "active", 0, 0, "4 3+ 4+ 4 4 1 4+ 1 7+ 7+ 8+ 8+",
                    ["Stub gun", "Maul"], []),
    "zorn-blackslag": ("Ganger", "active", 0, 0, "4 3+ 4+ 4 4 1 4+ 1 7+ 7+ 8+ 8+", ["Boltgun"], []),
    "nub-sparkjaw": ("Juve", "active", 0, 0, "5 4+ 5+ 3 3 1 4+ 1 8+ 8+ 9+ 9+",
                     ["Stub gun", "Fighting knife"], []),
    "runt-kettle": ("Juve", "active", 0, 0, "5 4+ 5+ 3 3 1 4+ 1 8+ 8+ 9+ 9+", ["Autopistol"], []),
}


def changed(base: dict[str, tuple[Any, ...]], fid: str, **what: Any) -> tuple[Any, ...]:
    role, status, xp, kills, prof, gear, injuries = base[fid]
    row = dict(role=role, status=status, xp=xp, kills=kills, profile=prof, gear=gear,
               injuries=injuries) | what
    return (row["role"], row["status"], row["xp"], row["kills"], row["profile"], row["gear"],
            row["injuries"])


def fight(c: Campaign, number: int, challenger: str, challenged: str, events: list[Event],
          winner: str) -> Any:
    """Log a battle in the tracker's engine; its outcome for the post-battle sequence."""
    setup = default_setup(c, number, challenger, challenged)  # every fighter able to fight
    b = Battle([start_event(setup, c)])
    for ev in events:
        b.record(ev)
    o = outcome(b.state, setup)
    o.winner = winner
    return o


def post_battle(c: Campaign, number: int, o: Any, faces: dict[str, list[int]],
                entries: dict[str, list[tuple[str, list[Any]]]]) -> Campaign:
    """Walk the Gang War sequence with every die fixed (an unexpected roll fails the
    test); entries are what the players add in a step (a), with their answers. The
    other questions take their default (accept the proposed XP, nothing expended)."""
    c = copy.deepcopy(c)
    c.battles.append(BattleSummary(number=number, status="post-battle", gangs=list(o.gangs)))
    seq = pb.PostBattle(c, number, pb.new_draft("gang-war"), o)
    todo = {k: list(v) for k, v in entries.items()}
    for _ in range(500):
        p = seq.pending
        if p is not None:
            if p.kind == "roll":
                assert p.id in faces, f"an unexpected roll: {p.id} ({p.label})"
                seq.answer({"faces": faces.pop(p.id), "entered": True})
            elif p.kind == "multi":
                seq.answer(p.default or [])
            else:
                seq.answer(p.default)
            continue
        if todo.get(seq.step["id"]):
            option, answers = todo[seq.step["id"]].pop(0)
            seq.add_entry(option)
            for value in answers:
                seq.answer(value)
            continue
        if seq.at_end:
            break
        seq.advance()
    assert not faces, f"rolls never asked: {faces}"
    assert not any(todo.values()), f"entries never made: {todo}"
    return pb.applied_campaign(c, number, pb.prepare_commit(seq))


def test_three_battles_keep_the_roster_true() -> None:
    c = demo_campaign()
    c.settings.xp_awards = dict(AWARDS)
    assert roster(c) == START
    # Update Gang Rating (seed 004): fighters' cost + equipment, not Captured, +50 per
    # Special Territory (the Venom Sisters' Settlement)
    assert gangs(c) == {E: (85, 1075, []), G: (60, 1285, [])}

    # --- battle 1: the Venom Sisters win ------------------------------------------------
    o1 = fight(c, 1, E, G, [
        Event("state", fighter=f"{G}/dak-cinderfist", state=OUT_OF_ACTION,
              attacker=f"{E}/vexa-nightshade"),
        Event("state", fighter=f"{E}/lys-venom", state=SERIOUSLY_INJURED,
              attacker=f"{G}/brakk-ironjaw"),
        Event("state", fighter=f"{E}/mara-quill", state=SERIOUSLY_INJURED,
              attacker=f"{G}/gorth-slagborn"),
    ], winner=E)
    c = post_battle(c, 1, o1, faces={
        f"fate:{E}:lys-venom": [1],  # Fate of the Fallen 1-2: Out of Action, Lasting Injury
        f"fate:{E}:mara-quill": [3],  # 3-4: Captured by the opposing gang
        f"injury:{G}:dak-cinderfist": [3, 3],  # 33: Grievous Injury, goes into Recovery
        f"injury:{E}:lys-venom": [5, 2],  # 52: Eye Injury, -1 Ballistic Skill
    }, entries={
        # Advance Fighters: Vexa buys +1 Weapon Skill for 6 XP, +20 credits (the player's book)
        "advance-fighters": [(f"advance|{E}", ["vexa-nightshade", "characteristic", "ws", 1, 6, 20])],
        # Buy and Hire: the Iron Skulls hire a Ganger for 50 credits, paid from the Stash
        "buy-and-hire": [(f"hire|{G}", ["Grub Tallow", "Ganger", 50])],
        # Distribute Equipment: the Stash's Lasgun to Lys (Stash -> fighter card only)
        "distribute-equipment": [(f"give|{E}", ["Lasgun", "lys-venom"])],
    })
    after1 = dict(START)
    # Kills counted from the log; XP from the awards table: an Out of Action 2, then the
    # Advancement spends 6 (6 + 2 - 6 = 2); +1 WS: 3+ -> 2+ (a better target number is lower)
    after1["vexa-nightshade"] = changed(START, "vexa-nightshade", xp=2, kills=1,
                                        profile="5 2+ 3+ 3 3 2 3+ 2 6+ 6+ 7+ 7+")
    # Fate 1 -> Lasting Injury 52 Eye Injury: BS 4+ -> 5+; the Stash's Lasgun given to her
    after1["lys-venom"] = changed(START, "lys-venom", profile="5 4+ 5+ 3 3 1 3+ 1 7+ 7+ 8+ 8+",
                                  gear=["Lasgun", "Frag grenades", "Lasgun"],
                                  injuries=[("Eye Injury", "-1 Ballistic Skill: BS 4+ -> 5+")])
    # Fate 3: Captured by the Iron Skulls (kept with their equipment until sold or rescued)
    after1["mara-quill"] = changed(START, "mara-quill", status="captured")
    # an enemy Seriously Injured: 1 XP each (awards table)
    after1["brakk-ironjaw"] = changed(START, "brakk-ironjaw", xp=6)
    after1["gorth-slagborn"] = changed(START, "gorth-slagborn", xp=3)
    # Grievous Injury: in Recovery, misses the gang's next battle
    after1["dak-cinderfist"] = changed(START, "dak-cinderfist", status="recovery")
    # hired: a Ganger with no profile entered, no equipment
    after1["grub-tallow"] = ("Ganger", "active", 0, 0, " ".join(["-"] * 12), [], [])
    assert roster(c) == after1
    # Venom Sisters: 1075 + 20 (Vexa's advancement) + 15 (Lasgun, Stash -> Lys) - 95 (Mara
    # Captured: not counted); Iron Skulls: 1285 + 50 (Grub), credits 60 - 50
    assert gangs(c) == {E: (85, 1015, []), G: (10, 1335, ["mara-quill"])}
    assert c.gang(G).fighter("dak-cinderfist").status_why == "Grievous Injury"
    assert c.gang(E).fighter("mara-quill").captured_by == G

    # --- battle 2: the Iron Skulls win; Dak (Recovery) and Mara (Captured) cannot fight --
    o2 = fight(c, 2, G, E, [
        Event("state", fighter=f"{E}/vexa-nightshade", state=OUT_OF_ACTION,
              attacker=f"{G}/brakk-ironjaw"),
        Event("condition", fighter=f"{E}/lys-venom", condition="Broken"),
        Event("condition", fighter=f"{E}/lys-venom", condition="Broken", lost=True),
    ], winner=G)
    assert {f.fighter for f in o2.fighters} >= {"grub-tallow"}
    assert not {"dak-cinderfist", "mara-quill"} & {f.fighter for f in o2.fighters}
    c = post_battle(c, 2, o2, faces={
        f"injury:{E}:vexa-nightshade": [5, 4],  # 54: Hobbled, -1 Movement
    }, entries={
        # Advance Fighters: Brakk buys a skill for 6 XP, +20 credits (the player's book)
        "advance-fighters": [(f"advance|{G}", ["brakk-ironjaw", "skill", "Nerves of Steel", 6, 20])],
    })
    after2 = dict(after1)
    # Hobbled: M 5 -> 4
    after2["vexa-nightshade"] = changed(after1, "vexa-nightshade",
                                        profile="4 2+ 3+ 3 3 2 3+ 2 6+ 6+ 7+ 7+",
                                        injuries=[("Hobbled", "-1 Movement: M 5 -> 4")])
    # a rally from Broken: 1 XP (awards table)
    after2["lys-venom"] = changed(after1, "lys-venom", xp=1)
    # an enemy Out of Action: 2 XP and a Kill; the skill bought for 6 XP (6 + 2 - 6 = 2)
    after2["brakk-ironjaw"] = changed(after1, "brakk-ironjaw", xp=2, kills=1)
    # missed battle 2: back from Recovery when its post-battle sequence ends
    after2["dak-cinderfist"] = changed(after1, "dak-cinderfist", status="active")
    assert roster(c) == after2
    assert c.gang(G).fighter("brakk-ironjaw").skills == ["Headbutt", "Nerves of Steel"]
    # Iron Skulls: + 20 (Brakk's advancement)
    assert gangs(c) == {E: (85, 1015, []), G: (10, 1355, ["mara-quill"])}

    # --- battle 3: a draw; a Critical Injury without medical attention; Pip leaves ------
    o3 = fight(c, 3, E, G, [
        Event("state", fighter=f"{G}/thug-varro", state=OUT_OF_ACTION,
              attacker=f"{E}/sable-thorn"),
        Event("state", fighter=f"{E}/tessa-gloom", state=SERIOUSLY_INJURED,
              attacker=f"{G}/hesk-molten"),
    ], winner="")
    c = post_battle(c, 3, o3, faces={
        f"fate:{E}:tessa-gloom": [5],  # Fate of the Fallen 5+: no further effect
        f"injury:{G}:thug-varro": [6, 1],  # 61: Critical Injury, dies unless given medical attention
    }, entries={
        # Delete Retiring Fighters: Pip leaves to become a Merc (agreed with the Arbitrator)
        "delete-retiring": [(f"retire|{E}", ["pip-hollow", "pool"])],
    })
    after3 = dict(after2)
    # an enemy Out of Action: 2 XP and a Kill
    after3["sable-thorn"] = changed(after2, "sable-thorn", xp=5, kills=1)
    # an enemy Seriously Injured: 1 XP
    after3["hesk-molten"] = changed(after2, "hesk-molten", xp=1)
    # no Medical Escort: dies in Delete Dead Fighters; the gang held the battlefield, so the
    # equipment is recovered to the Stash; the Critical Injury says how it ended; "All dead
    # fighters are removed from the gang's roster now" (seed 004): among the gang's fallen
    thug = after3.pop("thug-varro")
    assert fallen(c) == {"thug-varro": changed(after2, "thug-varro", status="dead", gear=[], injuries=[
        ("Critical Injury", "died (Critical Injury without medical attention)")])}
    assert thug == after2["thug-varro"]
    # seed 004, Retiring Fighters Equipment Retention: to the Merc pool, the equipment is lost
    after3["pip-hollow"] = changed(after2, "pip-hollow", status="retired")
    assert roster(c) == after3
    assert [i.name for i in c.gang(G).stash] == ["Frag grenades", "Spud-jacker", "Fighting knife"]
    # Venom Sisters: - 35 (Pip retired); Iron Skulls: - 100 (Thug dead)
    assert gangs(c) == {E: (85, 980, []), G: (10, 1255, ["mara-quill"])}
