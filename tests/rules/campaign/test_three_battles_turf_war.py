"""Three battles of the demo gangs under the Turf War 2017 house rules, with fixed dice.

As tests/rules/test_three_battles.py does for Gang War: the battles are logged in the
tracker's engine (rules.battle), their outcomes walk the Turf War 2017 post-battle
sequence (seed 002) with every die fixed, and after each sequence every fighter's role,
status, XP, kills, profile, equipment and injuries, and each gang's credits, rating,
Reputation, Turf Size, Territories and captives are compared with what is written out
here by hand from the rules. A comment says which rule each line follows.

Every answer is given here: each die by the question's id, and every other answer too
(a question this test does not answer fails it): nothing is taken by default.

Not rules, and said so: the XP awards table is the Arbitrator's (the seeds do not print
it); the campaign plays the 2023 Lasting Injury table (the reference names its results,
readings: core-2023-results); where seed 002 names a table it does not print, the
Gang War table is borrowed (readings: turf-borrowed-rules); the starting Reputation and
Turf Sizes are the players' rosters'.
"""

from __future__ import annotations

from munda_tui.rules.battle.events import StateEvent

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
from munda_tui.rules.core.profile import CHARACTERISTICS, format_value

E, G = "venom-sisters", "iron-skulls"
AWARDS = {"seriously_injured": 1, "out_of_action": 2, "rally": 1}  # the Arbitrator's


def profile(f: Any) -> str:
    return " ".join(format_value(k, f.characteristics.get(k)) for k in CHARACTERISTICS)


def roster(c: Campaign) -> dict[str, tuple[Any, ...]]:
    """(role, status, XP, kills, profile, equipment, injuries) of every fighter on a roster."""
    return {
        f.id: (f.type.value, f.status.value, f.xp, f.kills, profile(f),
               [i.name for i in f.equipment], [(i.name, i.effect) for i in f.injuries])
        for g in c.gangs for f in g.fighters
    }


def gangs(c: Campaign) -> dict[str, tuple[Any, ...]]:
    """(credits, Gang Rating, Reputation, Turf Size, Territories, Stash, captives held)."""
    return {g.id: (g.credits, g.rating, g.reputation, g.territory_size,
                   [(t.name, t.kind.value) for t in g.territories], [i.name for i in g.stash],
                   [f.id for _, f in captives(c, g.id)]) for g in c.gangs}


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
    """Walk the Turf War 2017 sequence. ``answers``: question id -> answer (a die: its
    faces); ``entries``: step -> what the players add there (a), each with the answers to
    its questions in order, by the end of their id (``"e12:action"`` is ``"action"``).
    A question not answered here, or an answer never asked for, fails the test."""
    c = copy.deepcopy(c)
    c.battles.append(BattleSummary(number=number, status="post-battle", gangs=list(o.gangs)))
    seq = pb.PostBattle(c, number, pb.new_draft("turf-war-2017"), o)
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


# The demo roster (rules.demo), by hand: role, status, XP, kills, profile
# (M WS BS S T W I A Ld Cl Wil Int), equipment, injuries
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


def start() -> Campaign:
    c = demo_campaign()
    c.settings.post_battle_ruleset = "turf-war-2017"
    c.settings.lasting_injury_table = "core-2023"
    c.settings.xp_awards = dict(AWARDS)
    # the players' rosters: the Venom Sisters' Reputation after a bad run, and each gang's
    # Turf Size (seed 002 tracks it as a number)
    c.gang(E).reputation = 1
    c.gang(E).territory_size = 1
    c.gang(G).territory_size = 2
    return c


def test_three_turf_war_battles_keep_the_roster_true() -> None:
    c = start()
    assert roster(c) == START
    # seed 002, Update Gang Rating: "the individual Ratings of all the Hangers-on and
    # fighters on the roster not including any captured fighters, plus 50 for each Special
    # Territory" (the Venom Sisters' Settlement)
    assert gangs(c) == {
        E: (85, 1075, 1, 1, [("Old Ruins", "turf"), ("Settlement", "special")],
            ["Lasgun", "Stimm-slug stash"], []),
        G: (60, 1285, 6, 2, [("Slag Furnace", "turf"), ("Toll Crossing", "turf")],
            ["Frag grenades"], []),
    }

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
        # End of Battle Events (seed 002: "double check that details such as XP gained for
        # taking opponents Out of Action have been annotated correctly"): as proposed
        f"xp:{E}": "accept", f"xp:{G}": "accept",
        # Seriously Injured: "On a 1 or 2 the fighter goes Out of Action, on a 3+ they are
        # removed from the battlefield unharmed"
        f"fate:{E}:lys-venom": [4], f"fate:{E}:mara-quill": [2],
        # 2023 table: 34 Convalescence (Recovery, as its name says); 11 Lesson Learned: the
        # XP and the Recovery from the players' book
        f"injury:{G}:dak-cinderfist": [3, 4],
        f"injury:{E}:mara-quill": [1, 1],
        f"injury:{E}:mara-quill:0:xp": 2, f"injury:{E}:mara-quill:0:recovery": "recovery",
        # Special Territories: "roll a D6 and add the amount by which it increased. On a
        # result of 7 or more, the gang gains a new Special Territory": 6 + 1
        f"special:{E}": [6], f"special:{E}:name": "Drinking Hole",
    }, entries={
        # Turf: the scenario gives the winner +1 Turf Size
        "turf": [(f"increase|{E}", [("by", 1)])],
        # Reputation: the scenario's (the Arbitrator's figures)
        "reputation": [(f"rep|{E}", [("amount", 2), ("why", "won the scenario")]),
                       (f"rep|{G}", [("amount", -1), ("why", "lost the scenario")])],
        "post-battle-actions": [
            # Work the Turf, with the Gang War modifiers (borrowed): 1D6-1D6 = 2-5 = -3;
            # +2 Turf (Turf Size 2), +3 the Leader, +2 a Champion, +1 a Ganger = 5: 50 credits
            (f"act|{E}|vexa-nightshade", [("action", "work-the-turf"),
                                          ("with", ["kira-ashfall", "oona-vale"]),
                                          ("roll", [2, 5])]),
            # Show of Force: "Roll a D6 on the Show of Force chart": 6, Backlash, -1
            # Reputation (Gang War would add the three fighters: 9, Successful Flex)
            (f"act|{G}|brakk-ironjaw", [("action", "show-of-force"),
                                        ("with", ["gorth-slagborn", "mord-hammerhand"]),
                                        ("roll", [6])]),
        ],
        # Buy and Hire: a Hired Gun for 60 credits, paid from the Stash
        "buy-and-hire": [(f"hire|{G}", [("name", "Grist Hallow"), ("type", "Hired Gun"),
                                        ("cost", 60)])],
    })
    assert "7: On a result of 7 or more, the gang gains a new Special Territory" in said(
        seq, "special-territories")
    after1 = dict(START)
    # Kills from the log; the awards table: an enemy Out of Action 2 XP
    after1["vexa-nightshade"] = changed(START, "vexa-nightshade", xp=8, kills=1)
    # Out of Action (a 2), then Lesson Learned: 2 XP, into Recovery (nothing on the card)
    after1["mara-quill"] = changed(START, "mara-quill", status="recovery", xp=2)
    # an enemy Seriously Injured: 1 XP each
    after1["brakk-ironjaw"] = changed(START, "brakk-ironjaw", xp=6)
    after1["gorth-slagborn"] = changed(START, "gorth-slagborn", xp=3)
    # Convalescence: in Recovery, misses the gang's next battle
    after1["dak-cinderfist"] = changed(START, "dak-cinderfist", status="recovery")
    # hired: a Hired Gun with no profile entered, no equipment
    after1["grist-hallow"] = ("Hired Gun", "active", 0, 0, " ".join(["-"] * 12), [], [])
    assert roster(c) == after1
    # Venom Sisters: 85 + 50 (Work the Turf); Reputation 1 + 2; Turf Size 1 + 1; rating
    # 1075 + 50 (Drinking Hole, a Special Territory). Iron Skulls: 60 - 60 (Grist);
    # Reputation 6 - 1 (scenario) - 1 (Backlash); rating 1285 + 60 (Grist)
    assert gangs(c) == {
        E: (135, 1125, 3, 2, [("Old Ruins", "turf"), ("Settlement", "special"),
                              ("Drinking Hole", "special")], ["Lasgun", "Stimm-slug stash"], []),
        G: (0, 1345, 4, 2, [("Slag Furnace", "turf"), ("Toll Crossing", "turf")],
            ["Frag grenades"], []),
    }
    assert c.gang(G).fighter("dak-cinderfist").status_why == "Convalescence"

    # --- battle 2: the Iron Skulls win; Mara and Dak (Recovery) cannot fight ------------
    o2 = fight(c, 2, G, E, [
        StateEvent(fighter=f"{E}/vexa-nightshade", state=OUT_OF_ACTION,
              attacker=f"{G}/brakk-ironjaw"),
        StateEvent(fighter=f"{E}/tessa-gloom", state=OUT_OF_ACTION,
              attacker=f"{G}/grist-hallow"),
        StateEvent(fighter=f"{G}/zorn-blackslag", state=SERIOUSLY_INJURED,
              attacker=f"{E}/sable-thorn"),
    ], winner=G)
    assert not {"dak-cinderfist", "mara-quill"} & {f.fighter for f in o2.fighters}
    assert "grist-hallow" in {f.fighter for f in o2.fighters}
    c, seq = post_battle(c, 2, o2, answers={
        f"xp:{E}": "accept", f"xp:{G}": "accept",
        f"fate:{G}:zorn-blackslag": [3],  # 3+: unharmed
        # 44 Eye Injury: a permanent result; its effect from the players' book
        f"injury:{E}:vexa-nightshade": [4, 4],
        f"injury:{E}:vexa-nightshade:0:effect": "-1 Ballistic Skill",
        f"injury:{E}:tessa-gloom": [5, 5],  # 55 Captured
        # Special Territories: the thief +1: 2 + 1 = 3, nothing (munda-tui's row); the
        # victim -1: "roll a D6 and subtract the amount by which it decreased. On a result
        # of 0 or less, they lose one of their Special Territories": 1 - 1 = 0
        f"special:{G}": [2], f"special:{E}": [1],
        f"special:{E}:lose": "Settlement",  # "(chosen randomly)": the players' die
        # Merc Upkeep: "10 credits plus 1D3 x 5 additional credits": D3 2, 20 credits
        f"upkeep:{G}:grist-hallow": [2], f"upkeep:{G}:grist-hallow:pay": "pay",
    }, entries={
        # Turf: the scenario lets the winner steal Turf (seed 002, Stealing Turf)
        # each Turf stolen by the Gang War steps the app cites: "the player of the gang
        # losing Territory Size selects which of their Territories is being stolen", it is
        # "deleted from that gang's roster" and "added to that gang's roster"
        "turf": [(f"steal|{G}", [("which", "Old Ruins")])],
        "reputation": [(f"rep|{E}", [("amount", -4), ("why", "lost the scenario")]),
                       (f"rep|{G}", [("amount", 1), ("why", "won the scenario")])],
        "post-battle-actions": [
            # Show of Force at Reputation -1: a 6, Backlash: -2 (seed 002 sets no floor)
            (f"act|{E}|sable-thorn", [("action", "show-of-force"),
                                      ("with", ["kira-ashfall", "lys-venom"]),
                                      ("roll", [6])]),
            # Work the Turf: 6-1 = 5; +3 Turf (Turf Size 3), +3 the Leader, +1 a Juve = 12
            (f"act|{G}|brakk-ironjaw", [("action", "work-the-turf"),
                                        ("with", ["nub-sparkjaw"]), ("roll", [6, 1])]),
        ],
    })
    assert "= 3: munda-tui: no new Special Territory." in said(seq, "special-territories")
    assert "D6 [6] = 6: Backlash: lose 1 Reputation." in said(seq, "post-battle-actions")
    after2 = dict(after1)
    # 44 Eye Injury, its effect as entered: BS 3+ -> 4+
    after2["vexa-nightshade"] = changed(after1, "vexa-nightshade",
                                        profile="5 3+ 4+ 3 3 2 3+ 2 6+ 6+ 7+ 7+",
                                        injuries=[("Eye Injury", "-1 Ballistic Skill: BS 3+ -> 4+")])
    # an enemy Seriously Injured: 1 XP
    after2["sable-thorn"] = changed(after1, "sable-thorn", xp=4)
    # 55 Captured: held by the Iron Skulls with her equipment
    after2["tessa-gloom"] = changed(after1, "tessa-gloom", status="captured",
                                    injuries=[("Captured", "the fighter is Captured")])
    # missed battle 2: back from Recovery when its post-battle sequence ends
    after2["mara-quill"] = changed(after1, "mara-quill", status="active")
    after2["dak-cinderfist"] = changed(after1, "dak-cinderfist", status="active")
    # an enemy Out of Action: 2 XP and a Kill each
    after2["brakk-ironjaw"] = changed(after1, "brakk-ironjaw", xp=8, kills=1)
    after2["grist-hallow"] = changed(after1, "grist-hallow", xp=2, kills=1)
    assert roster(c) == after2
    # Venom Sisters: Reputation 3 - 4 (scenario) - 1 (Backlash) = -2; Turf Size 2 - 1
    # (stolen); rating 1125 - 75 (Tessa Captured: not counted) - 50 (Settlement lost).
    # Iron Skulls: 0 + 120 (Work the Turf) - 20 (upkeep); Reputation 4 + 1; Turf Size 2 + 1
    assert gangs(c) == {
        E: (135, 1000, -2, 1, [("Drinking Hole", "special")],
            ["Lasgun", "Stimm-slug stash"], []),
        G: (100, 1345, 5, 3, [("Slag Furnace", "turf"), ("Toll Crossing", "turf"),
                              ("Old Ruins", "turf")],
            ["Frag grenades"], ["tessa-gloom"]),
    }
    assert c.gang(E).fighter("tessa-gloom").captured_by == G
    # a Reputation below 0 is saved and read back under Turf War 2017 (readings:
    # turf-reputation-floor), the battle's standings too
    from munda_tui.saves import codec

    back = codec.campaign_from_data(codec.campaign_to_data(c))
    assert back.gang(E).reputation == -2
    assert back.battles[-1].standings[E].reputation == -2

    # --- battle 3: a draw; Tessa sold and bought back; Ria to the Doc; Grist unpaid -------
    o3 = fight(c, 3, E, G, [
        StateEvent(fighter=f"{G}/krug-ashenhide", state=OUT_OF_ACTION,
              attacker=f"{E}/kira-ashfall"),
        StateEvent(fighter=f"{E}/ria-cinder", state=SERIOUSLY_INJURED,
              attacker=f"{G}/thug-varro"),
    ], winner="")
    assert "tessa-gloom" not in {f.fighter for f in o3.fighters}  # Captured: cannot fight
    c, seq = post_battle(c, 3, o3, answers={
        f"xp:{E}": "accept", f"xp:{G}": "accept",
        f"fate:{E}:ria-cinder": [1],  # 1-2: Out of Action
        f"injury:{E}:ria-cinder": [6, 2],  # 62 Critical Injury
        f"injury:{G}:krug-ashenhide": [1, 5],  # 15 Out Cold
        f"upkeep:{G}:grist-hallow": [3], f"upkeep:{G}:grist-hallow:pay": "no",  # 25: unpaid
    }, entries={
        "post-battle-actions": [
            # Sell to the Guilders: Tessa, held since battle 2 ("can't be sold until their
            # gang has had a chance to rescue them": the Venom Sisters fought battle 3)
            (f"act|{G}|gorth-slagborn", [("action", "sell-to-guilders"),
                                         ("who", f"{E}/tessa-gloom")]),
            # Medical Escort (the Gang War table, borrowed): 2D6x10 = 30 paid; D6 3,
            # Stabilized: Recovery and a Permanent Injury, a D6 read as 51-56 (the 2018
            # table's: readings permanent-injury-reading): 2, 52 Eye Injury
            (f"act|{E}|vexa-nightshade", [("action", "medical-escort"),
                                          ("who", "ria-cinder"), ("cost", [2, 1]), ("pay", "pay"),
                                          ("roll", [3]), ("perm", [2])]),
            # Buy from the Guilders: "their fighter card's rating (without equipment) plus
            # or minus (1D6 - 1D3) x 5": 50 + (3 - 1) x 5 = 60
            (f"act|{E}|kira-ashfall", [("action", "buy-from-guilders"), ("who", ["tessa-gloom"]),
                                       ("tessa-gloom:roll", [3, 1]), ("tessa-gloom:pay", "pay")]),
        ],
        # Buy Common Equipment: an Autogun for Tessa, 15 credits, a weapon (for the limit of
        # "3, with Unwieldy weapons counting as 2")
        "buy-common": [(f"buy|{E}", [("name", "Autogun"), ("cost", 15), ("kind", "weapon")])],
        "distribute-equipment": [(f"give|{E}", [("item", "Autogun"), ("to", "tessa-gloom")])],
    })
    after3 = dict(after2)
    # an enemy Out of Action: 2 XP and a Kill; an enemy Seriously Injured: 1 XP
    after3["kira-ashfall"] = changed(after2, "kira-ashfall", xp=4, kills=1)
    after3["thug-varro"] = changed(after2, "thug-varro", xp=1)
    # 62 Critical Injury, then Medical Escort: Stabilized, in Recovery, and 52 Eye Injury
    # from the 2018 table's 51-56: BS 5+ -> 6+; the Critical Injury says how it ended
    after3["ria-cinder"] = changed(after2, "ria-cinder", status="recovery",
                                   profile="5 5+ 6+ 3 3 1 3+ 1 8+ 8+ 9+ 9+", injuries=[
                                       ("Critical Injury", "resolved: Medical Escort: Stabilized, recovery"),
                                       ("Eye Injury", "-1 Ballistic Skill: BS 5+ -> 6+")])
    # sold ("take all of the equipment off of their fighter card and add it to your
    # Stash"), bought back ("returned to the gang's roster ... but no equipment"), then
    # given the Autogun bought at the Trading Post
    after3["tessa-gloom"] = changed(after2, "tessa-gloom", status="active", gear=["Autogun"])
    # "If a Merc's upkeep is not paid the Merc will be retired from the gang"; "All
    # retiring fighters are removed from the gang's roster now" (seed 002): kept apart
    grist = changed(after2, "grist-hallow", status="retired")
    del after3["grist-hallow"]
    assert roster(c) == after3
    assert {f.id: f.status.value for g in c.gangs for f in g.departed} == {"grist-hallow": "retired"}
    assert grist[1] == "retired"
    assert c.gang(E).fighter("tessa-gloom").weapon_count == 1  # the Autogun, a weapon
    # Venom Sisters: 135 - 30 (the Doc) - 60 (Tessa bought back) - 15 (Autogun); rating
    # 1000 + 50 (Tessa, no equipment) + 15 (her Autogun). Iron Skulls: 100 + 25 (half of
    # Tessa's rating without equipment, 50; no Bounty); rating 1345 - 60 (Grist retired);
    # Tessa's Autogun and Flak armour in their Stash
    assert gangs(c) == {
        E: (30, 1065, -2, 1, [("Drinking Hole", "special")],
            ["Lasgun", "Stimm-slug stash"], []),
        G: (125, 1285, 5, 3, [("Slag Furnace", "turf"), ("Toll Crossing", "turf"),
                              ("Old Ruins", "turf")],
            ["Frag grenades", "Autogun", "Flak armour"], []),
    }
