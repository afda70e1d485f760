"""Three battles of the demo campaign through the engine with fixed dice.

The battles are logged in the tracker's engine (rules.battle), their outcomes walk
the Gang War post-battle sequence (rules.postbattle, seed 004) with every die fixed, and
after each sequence every fighter's role, status, XP, kills, profile, equipment and
injuries (and the fallen's), and each gang's credits, rating, Reputation, Stash and
captives, are compared with what is written out here by hand from the rules. A comment
says which rule each line follows.

Covered on the way: Fate of the Fallen, Lasting Injuries, Escaping Capture (Escape
Artist, failed), the Reputation and Collect Income steps, a Hired Gun hired, his upkeep
paid (battle 2) and unpaid (battle 3: retired), a weapon bought at the Trading Post and
given, an Unwieldy weapon counting two against the limit of three, a captive sold to the
Guilders and bought back, Do Business, Medical Escort (Full Recovery) beside a Critical
Injury left without one (dead, among the fallen), Advancements.

Every answer is given here: each die by the question's id, and every other answer too
(a question this test does not answer fails it): nothing is taken by default.

Not rules, and said so: the XP awards table is the Arbitrator's (the seeds do not print
it); the Slag Furnace's income, the hire prices, the Advancements' costs and the Axe's
price are the players' (from their books).
"""

from __future__ import annotations

from munda_tui.rules.battle.events import ConditionEvent, StateEvent

import copy
from typing import Any

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.battle.events import (
    OUT_OF_ACTION,
    SERIOUSLY_INJURED,
    Battle,
    Event,
    default_setup,
    outcome,
    start_event,
)
from munda_tui.rules.campaign.career import captives
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import BattleSummary, Campaign
from munda_tui.rules.core.profile import format_value, CHARACTERISTICS

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


def departed(c: Campaign) -> dict[str, tuple[Any, ...]]:
    """The same of every fighter who left the roster alive (the gangs' departed)."""
    return {
        f.id: (f.type.value, f.status.value, f.xp, f.kills, profile(f),
               [i.name for i in f.equipment], [(i.name, i.effect) for i in f.injuries])
        for g in c.gangs for f in g.departed
    }


def gangs(c: Campaign) -> dict[str, tuple[Any, ...]]:
    """(credits, Gang Rating, Reputation, Stash, captives held) of each gang."""
    return {g.id: (g.credits, g.rating, g.reputation, [i.name for i in g.stash],
                   [f.id for _, f in captives(c, g.id)]) for g in c.gangs}


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
        b.log_event(ev)
    o = outcome(b.state, setup)
    o.winner = winner
    return o


Entry = tuple[str, list[tuple[str, Any]]]


def post_battle(c: Campaign, number: int, o: Any, answers: dict[str, Any],
                entries: dict[str, list[Entry]]) -> tuple[Campaign, pb.PostBattle]:
    """Walk the Gang War sequence. ``answers``: question id -> answer (a die: its faces);
    ``entries``: step -> what the players add there (a), each with the answers to its
    questions in order, by the end of their id (``"e12:action"`` is ``"action"``). A
    question not answered here, or an answer never asked for, fails the test: nothing is
    taken by default."""
    c = copy.deepcopy(c)
    c.battles.append(BattleSummary(number=number, status="post-battle", gangs=list(o.gangs)))
    seq = pb.PostBattle(c, number, pb.new_draft("gang-war"), o)
    answers = dict(answers)
    todo = {k: list(v) for k, v in entries.items()}
    queue: list[tuple[str, Any]] = []
    for _ in range(1000):
        p = seq.pending
        if p is not None:
            if p.id in answers:
                value = answers.pop(p.id)
            else:
                assert queue and p.id.split(":", 1)[-1] == queue[0][0], (
                    f"an unexpected question: {p.id} ({p.kind}: {p.label}); "
                    f"options {[o.id for o in p.options]}; waiting: {queue[:1]}")
                value = queue.pop(0)[1]
            seq.answer({"faces": value, "entered": True} if p.kind == "roll" else value)
            continue
        assert not queue, f"answers never asked for: {queue}"
        if todo.get(seq.step["id"]):
            option, queue = todo[seq.step["id"]].pop(0)
            queue = list(queue)
            seq.add_entry(option)
            continue
        if seq.at_end:
            break
        seq.advance()
    assert not answers, f"answers never asked for: {answers}"
    assert not any(todo.values()), f"entries never made: {todo}"
    return pb.applied_campaign(c, number, pb.commit_table(seq)), seq


def said(seq: pb.PostBattle, step: str) -> str:
    return "\n".join(seq.states[seq.step_index(step)].lines)


def asked(seq: pb.PostBattle, suffix: str) -> Any:
    """The last question whose id ends with ``suffix`` (its options as they were)."""
    return [p for pid, p in seq.prompts.items() if pid.endswith(suffix)][-1]


def test_three_battles_keep_the_roster_true() -> None:
    c = demo_campaign()
    c.settings.xp_awards = dict(AWARDS)
    # the players' roster: Mara has the Escape Artist skill (seed 004, Escaping Capture)
    c.gang(E).fighter("mara-quill").skills.append("Escape Artist")
    assert roster(c) == START
    # Update Gang Rating (seed 004): fighters' cost + equipment, not Captured, +50 per
    # Special Territory (the Venom Sisters' Settlement)
    assert gangs(c) == {E: (85, 1075, 7, ["Lasgun", "Stimm-slug stash"], []),
                        G: (60, 1285, 6, ["Frag grenades"], [])}

    # --- battle 1: the Venom Sisters win ------------------------------------------------
    o1 = fight(c, 1, E, G, [
        StateEvent(fighter=f"{G}/dak-cinderfist", state=OUT_OF_ACTION,
              attacker=f"{E}/vexa-nightshade"),
        StateEvent(fighter=f"{E}/lys-venom", state=SERIOUSLY_INJURED,
              attacker=f"{G}/brakk-ironjaw"),
        StateEvent(fighter=f"{E}/mara-quill", state=SERIOUSLY_INJURED,
              attacker=f"{G}/gorth-slagborn"),
    ], winner=E)
    c, seq = post_battle(c, 1, o1, answers={
        # Wrap Up ("XP gained for taking opponents Out of Action ... annotated correctly"):
        # the awards table's XP as proposed
        f"xp:{E}": "accept", f"xp:{G}": "accept",
        # Consumables: none expended
        f"consumables:{E}": [], f"consumables:{G}": [],
        f"fate:{E}:lys-venom": [1],  # Fate of the Fallen 1-2: Out of Action, Lasting Injury
        f"fate:{E}:mara-quill": [3],  # 3-4: Captured by the opposing gang
        f"injury:{G}:dak-cinderfist": [3, 3],  # 33: Grievous Injury, goes into Recovery
        f"injury:{E}:lys-venom": [5, 2],  # 52: Eye Injury, -1 Ballistic Skill
        # Escaping Capture: Mara has Escape Artist; resolved by its rules: she stays Captured
        f"escape:{E}:mara-quill": "no",
    }, entries={
        # Reputation: the scenario's, "any gains are applied before any losses"
        "reputation": [(f"rep|{E}", [("amount", 2), ("why", "won the scenario")]),
                       (f"rep|{G}", [("amount", -1), ("why", "lost the scenario")])],
        # Collect Income: the Iron Skulls' Slag Furnace pays 20 "when the gang collects
        # income" (the players' Territory card; the seeds print no income for it)
        "collect-income": [(f"income|{G}", [("source", "Slag Furnace"), ("amount", 20)])],
        # Advance Fighters: Vexa buys +1 Weapon Skill for 6 XP, +20 credits (the player's book)
        "advance-fighters": [(f"advance|{E}", [("who", "vexa-nightshade"),
                                               ("kind", "characteristic"), ("char", "ws"),
                                               ("by", 1), ("xp", 6), ("cost", 20)])],
        # Buy and Hire: the Iron Skulls hire a Ganger for 50 credits; the Venom Sisters a
        # Hired Gun for 40, each paid from the Stash
        "buy-and-hire": [(f"hire|{G}", [("name", "Grub Tallow"), ("type", "Ganger"),
                                        ("cost", 50)]),
                         (f"hire|{E}", [("name", "Grist Hallow"), ("type", "Hired Gun"),
                                        ("cost", 40)])],
        # Buy Common: an Axe for 10 credits, a weapon (the kind asked: not in a catalogue)
        "buy-common": [(f"buy|{E}", [("name", "Axe"), ("cost", 10), ("kind", "weapon")])],
        # Distribute Equipment: the Stash's Lasgun to Lys, the Axe to Pip
        "distribute-equipment": [(f"give|{E}", [("item", "Lasgun"), ("to", "lys-venom")]),
                                 (f"give|{E}", [("item", "Axe"), ("to", "pip-hollow")])],
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
    # Fate 3: Captured by the Iron Skulls (kept with their equipment until sold or rescued);
    # Escape Artist tried and failed
    after1["mara-quill"] = changed(START, "mara-quill", status="captured")
    # an enemy Seriously Injured: 1 XP each (awards table)
    after1["brakk-ironjaw"] = changed(START, "brakk-ironjaw", xp=6)
    after1["gorth-slagborn"] = changed(START, "gorth-slagborn", xp=3)
    # Grievous Injury: in Recovery, misses the gang's next battle
    after1["dak-cinderfist"] = changed(START, "dak-cinderfist", status="recovery")
    # the Axe bought at the Trading Post, given to Pip (Autopistol and Axe: 2 weapons)
    after1["pip-hollow"] = changed(START, "pip-hollow", gear=["Autopistol", "Axe"])
    # hired: a Ganger and a Hired Gun with no profile entered, no equipment
    after1["grub-tallow"] = ("Ganger", "active", 0, 0, " ".join(["-"] * 12), [], [])
    after1["grist-hallow"] = ("Hired Gun", "active", 0, 0, " ".join(["-"] * 12), [], [])
    assert roster(c) == after1
    assert "Mara Quill remains Captured." in said(seq, "escaping-capture")
    assert c.gang(E).fighter("pip-hollow").equipment[-1].weapon  # bought as a weapon
    # Venom Sisters: 85 - 40 (Grist) - 10 (Axe) credits; rating 1075 + 20 (Vexa's
    # advancement) + 40 (Grist) + 15 (Lasgun, Stash -> Lys) + 10 (Axe, Stash -> Pip) - 95
    # (Mara Captured: not counted); Reputation 7 + 2. Iron Skulls: 60 + 20 (income) - 50
    # (Grub); rating 1285 + 50 (Grub); Reputation 6 - 1
    assert gangs(c) == {E: (35, 1065, 9, ["Stimm-slug stash"], []),
                        G: (30, 1335, 5, ["Frag grenades"], ["mara-quill"])}
    assert c.gang(G).fighter("dak-cinderfist").status_why == "Grievous Injury"
    assert c.gang(E).fighter("mara-quill").captured_by == G

    # --- battle 2: the Iron Skulls win; Dak (Recovery) and Mara (Captured) cannot fight --
    o2 = fight(c, 2, G, E, [
        StateEvent(fighter=f"{E}/vexa-nightshade", state=OUT_OF_ACTION,
              attacker=f"{G}/brakk-ironjaw"),
        ConditionEvent(fighter=f"{E}/lys-venom", condition="Broken"),
        ConditionEvent(fighter=f"{E}/lys-venom", condition="Broken", lost=True),
    ], winner=G)
    assert {f.fighter for f in o2.fighters} >= {"grub-tallow", "grist-hallow"}
    assert not {"dak-cinderfist", "mara-quill"} & {f.fighter for f in o2.fighters}
    c, seq = post_battle(c, 2, o2, answers={
        f"xp:{E}": "accept", f"xp:{G}": "accept",
        f"consumables:{E}": [], f"consumables:{G}": [],
        f"injury:{E}:vexa-nightshade": [5, 4],  # 54: Hobbled, -1 Movement
        # Merc Upkeep: "10 credits plus 1D3 x 5 additional credits": D3 2, 20 credits, paid
        f"upkeep:{E}:grist-hallow": [2], f"upkeep:{E}:grist-hallow:pay": "pay",
    }, entries={
        # Sell to the Guilders: Mara, Captured in battle 1; the Venom Sisters have fought
        # battle 2 since, their "chance to rescue them"
        "post-battle-actions": [(f"act|{G}|gorth-slagborn", [("action", "sell-to-guilders"),
                                                             ("who", f"{E}/mara-quill")])],
        # Advance Fighters: Brakk buys a skill for 6 XP, +20 credits (the player's book)
        "advance-fighters": [(f"advance|{G}", [("who", "brakk-ironjaw"), ("kind", "skill"),
                                               ("what", "Nerves of Steel"), ("xp", 6),
                                               ("cost", 20)])],
        # Distribute Equipment: Mara's Shotgun to Gorth (his Heavy stubber, Unwieldy, counts
        # 2: 3 weapons), her Stiletto knife to Runt (a 4th weapon for Gorth is refused)
        "distribute-equipment": [(f"give|{G}", [("item", "Shotgun"), ("to", "gorth-slagborn")]),
                                 (f"give|{G}", [("item", "Stiletto knife"),
                                                ("to", "runt-kettle")])],
    })
    # seed 004, Distribute Equipment: "limits on the number of weapons a fighter can carry
    # (normally 3, with Unwieldy weapons counting as 2 weapons)"
    gorth = {o.id: o for o in asked(seq, ":to").options}["gorth-slagborn"]
    assert not gorth.enabled and gorth.reason == "weapon limit 3 (Unwieldy counts 2)"
    assert c.gang(G).fighter("gorth-slagborn").weapon_count == 3
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
    # sold: "take all of the equipment off of their fighter card and add it to your Stash"
    after2["mara-quill"] = changed(after1, "mara-quill", gear=[])
    after2["gorth-slagborn"] = changed(after1, "gorth-slagborn",
                                       gear=["Heavy stubber", "Furnace plates", "Shotgun"])
    after2["runt-kettle"] = changed(after1, "runt-kettle", gear=["Autopistol", "Stiletto knife"])
    assert roster(c) == after2
    assert c.gang(G).fighter("brakk-ironjaw").skills == ["Headbutt", "Nerves of Steel"]
    assert c.gang(E).fighter("mara-quill").captured_by == "guilders"
    # Venom Sisters: 35 - 20 (Grist's upkeep). Iron Skulls: 30 + 25 ("credits equal to half
    # the fighter's Rating": Mara's 50 without equipment, no Bounty); rating 1335 + 20
    # (Brakk's advancement) + 30 (Shotgun) + 15 (Stiletto knife); Mara held by the Guilders
    assert gangs(c) == {E: (15, 1065, 9, ["Stimm-slug stash"], []),
                        G: (55, 1400, 5, ["Frag grenades"], [])}

    # --- battle 3: a draw; Critical Injuries with and without medical attention; Mara
    # bought back; Grist not paid --------------------------------------------------------
    o3 = fight(c, 3, E, G, [
        StateEvent(fighter=f"{G}/thug-varro", state=OUT_OF_ACTION,
              attacker=f"{E}/sable-thorn"),
        StateEvent(fighter=f"{G}/krug-ashenhide", state=OUT_OF_ACTION,
              attacker=f"{E}/kira-ashfall"),
        StateEvent(fighter=f"{E}/tessa-gloom", state=SERIOUSLY_INJURED,
              attacker=f"{G}/hesk-molten"),
    ], winner="")
    assert "mara-quill" not in {f.fighter for f in o3.fighters}  # held by the Guilders
    c, seq = post_battle(c, 3, o3, answers={
        f"xp:{E}": "accept", f"xp:{G}": "accept",
        f"consumables:{E}": [], f"consumables:{G}": [],
        f"fate:{E}:tessa-gloom": [5],  # Fate of the Fallen 5+: no further effect
        f"injury:{G}:thug-varro": [6, 1],  # 61: Critical Injury
        f"injury:{G}:krug-ashenhide": [6, 3],  # 63: Critical Injury
        # Merc Upkeep: D3 1, 15 credits; not paid: "the Merc will be retired from the gang"
        f"upkeep:{E}:grist-hallow": [1], f"upkeep:{E}:grist-hallow:pay": "no",
    }, entries={
        "post-battle-actions": [
            # Do Business (Escher Leaders and Champions): D6 5 + 2 fighters = 7, Business As
            # Usual: "the gang gains 2D6 x 5 credits and 1 Reputation": 12 x 5 = 60
            (f"act|{E}|vexa-nightshade", [("action", "do-business"), ("with", ["kira-ashfall"]),
                                          ("roll", [5]), ("fx:0", [6, 6])]),
            # Buy from the Guilders: "their fighter card's rating (without equipment) plus
            # or minus (1D6 - 1D3) x 5": 50 + (3 - 1) x 5 = 60
            (f"act|{E}|sable-thorn", [("action", "buy-from-guilders"), ("who", ["mara-quill"]),
                                      ("mara-quill:roll", [3, 1]), ("mara-quill:pay", "pay")]),
            # Medical Escort for Krug: 2D6x10 = 30 paid; D6 6: Full Recovery, in Recovery
            (f"act|{G}|brakk-ironjaw", [("action", "medical-escort"), ("who", "krug-ashenhide"),
                                        ("cost", [1, 2]), ("pay", "pay"), ("roll", [6])]),
        ],
    })
    assert "= 7: Business As Usual" in said(seq, "post-battle-actions")
    after3 = dict(after2)
    # an enemy Out of Action: 2 XP and a Kill each; an enemy Seriously Injured: 1 XP
    after3["sable-thorn"] = changed(after2, "sable-thorn", xp=5, kills=1)
    after3["kira-ashfall"] = changed(after2, "kira-ashfall", xp=4, kills=1)
    after3["hesk-molten"] = changed(after2, "hesk-molten", xp=1)
    # Medical Escort, Full Recovery: "the fighter goes into Recovery, but suffers no lasting
    # effects"; the Critical Injury says how it ended
    after3["krug-ashenhide"] = changed(after2, "krug-ashenhide", status="recovery", injuries=[
        ("Critical Injury", "resolved: Medical Escort: Full Recovery, recovery")])
    # bought back: "returned to the gang's roster ... but no equipment"
    after3["mara-quill"] = changed(after2, "mara-quill", status="active")
    # "If a Merc's upkeep is not paid the Merc will be retired from the gang"; "All
    # retiring fighters are removed from the gang's roster now": kept apart (departed)
    grist = changed(after2, "grist-hallow", status="retired")
    del after3["grist-hallow"]
    # no Medical Escort: dies in Delete Dead Fighters; the gang held the battlefield, so the
    # equipment is recovered to the Stash; the Critical Injury says how it ended; "All dead
    # fighters are removed from the gang's roster now" (seed 004): among the gang's fallen
    del after3["thug-varro"]
    assert roster(c) == after3
    assert fallen(c) == {"thug-varro": changed(after2, "thug-varro", status="dead", gear=[], injuries=[
        ("Critical Injury", "died (Critical Injury without medical attention)")])}
    assert departed(c) == {"grist-hallow": grist}
    # Venom Sisters: 15 + 60 (Do Business) - 60 (Mara bought back); Grist's 15 not paid;
    # rating 1065 + 50 (Mara, no equipment) - 40 (Grist retired); Reputation 9 + 1 (Do
    # Business). Iron Skulls: 55 - 30 (the Doc); rating 1400 - 100 (Thug dead; Krug in
    # Recovery still counts); Thug's Spud-jacker and Fighting knife in the Stash
    assert gangs(c) == {E: (15, 1075, 10, ["Stimm-slug stash"], []),
                        G: (25, 1300, 5, ["Frag grenades", "Spud-jacker", "Fighting knife"], [])}
