"""Issue #18, rules fidelity: one test per reading, each quoting the seed it follows.

The readings themselves are data (``munda_tui/rules/data/readings.toml``); these tests hold
the engine to them and check that each is shown where it applies.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import (
    Equipment,
    Fighter,
    FighterStatus,
    FighterType,
    GangType,
    Settings,
    Territory,
    TerritoryKind,
)
from munda_tui.rules.core.outcome import BattleOutcome, EndState, FighterOutcome
from munda_tui.rules.core.readings import note, reading, readings

import postbattle_support as S

ESCHER, GOLIATH = S.ESCHER, S.GOLIATH
ROOT = Path(__file__).resolve().parents[2]


def outcome(*fighters: FighterOutcome) -> BattleOutcome:
    base = [FighterOutcome(ESCHER, "vexa-nightshade"), FighterOutcome(GOLIATH, "brakk-ironjaw"),
            FighterOutcome(GOLIATH, "dak-cinderfist")]
    return BattleOutcome(battle=1, gangs=[ESCHER, GOLIATH], winner=ESCHER,
                         fighters=base + list(fighters))


def at(step: str, ruleset: str = "gang-war", c: Any = None,
       o: BattleOutcome | None = None) -> pb.PostBattle:
    import random

    seq = S.make_seq(ruleset, outcome=o or outcome(), campaign=c)
    rng = random.Random(1)
    while seq.step["id"] != step:
        if seq.pending is not None:
            S.answer_default(seq, rng)
            continue
        seq.advance()
    return seq


def take(seq: pb.PostBattle, gang: str, fighter: str, action: str, answers: list[Any]) -> None:
    """One fighter takes an action, every question answered from ``answers`` in order."""
    seq.add_entry(f"act|{gang}|{fighter}")
    seq.answer(action)
    for a in answers:
        assert seq.pending is not None, f"nothing asked for {a!r}"
        seq.answer(a)


def rolls(seq: pb.PostBattle) -> list[str]:
    return [pid for pid in seq.walked.get(seq.step["id"], []) if pid in seq.answers]


# --- Turf War 2017: Special Territories ---------------------------------------------------


def test_turf_war_two_increases_roll_once_with_the_whole_increase() -> None:
    # seed 002: "If a gang's Turf Size increased as a reward of this battle, roll a D6 and
    # add the amount by which it increased. On a result of 7 or more, the gang gains a new
    # Special Territory (chosen randomly)."
    seq = at("turf", "turf-war-2017")
    for _ in range(2):
        seq.add_entry(f"increase|{ESCHER}")
        seq.answer(1)
    assert seq.pending is None  # no roll per increase
    seq.advance()
    assert seq.step["id"] == "special-territories"
    p = seq.pending
    assert p is not None and p.dice == "D6" and "+ 2" in p.label
    seq.answer({"faces": [5]})  # 5 + 2 = 7: a Special Territory (5 + 1 would not be)
    seq.answer("Gambling Den")
    assert "Gambling Den" in [t.name for t in seq.work.gang(ESCHER).territories]
    assert seq.pending is None


def test_turf_war_two_decreases_roll_once_with_the_whole_decrease() -> None:
    # seed 002: "If a gang's Turf Size decreased, roll a D6 and subtract the amount by which
    # it decreased. On a result of 0 or less, they lose one of their Special Territories."
    c = demo_campaign()
    c.gang(ESCHER).territory_size = 3
    seq = at("turf", "turf-war-2017", c=c)
    for n in range(2):
        seq.add_entry(f"decrease|{ESCHER}")
        seq.answer(1)
        if n == 0:
            seq.answer(["Old Ruins"])  # the named Turf lost (none left for the second)
    seq.advance()
    p = seq.pending
    assert p is not None and "- 2" in p.label
    seq.answer({"faces": [2]})  # 2 - 2 = 0: one Special Territory lost (2 - 1 would not)
    seq.answer("Settlement")
    assert "Settlement" not in [t.name for t in seq.work.gang(ESCHER).territories]
    assert seq.work.gang(ESCHER).territory_size == 1


def test_turf_war_only_one_special_territory_in_the_whole_sequence() -> None:
    # seed 002: "No matter how much a gang's Turf Size increased or decreased in this
    # Post-Battle Sequence, only one Special Territory may be gained or lost."
    seq = at("turf", "turf-war-2017")
    seq.add_entry(f"increase|{ESCHER}")
    seq.answer(3)
    seq.advance()
    seq.answer({"faces": [6]})
    seq.answer("Gambling Den")
    assert seq.pending is None
    while seq.step["id"] != "post-battle-actions":
        seq.advance()
    take(seq, ESCHER, "vexa-nightshade", "expansion-and-exploration", [])
    special = next(o for o in seq.pending.options if o.id == "special")
    assert not special.enabled and "already gained or lost" in special.reason
    specials = [t for t in seq.work.gang(ESCHER).territories if t.kind is TerritoryKind.SPECIAL]
    assert [t.name for t in specials] == ["Settlement", "Gambling Den"]
    assert note("turf-special-territories") in pb.step_notes(
        seq.steps[seq.step_index("special-territories")])


def test_turf_war_a_theft_counts_for_both_gangs() -> None:
    # seed 002: "If a reward lets a gang steal turf from another gang ..." — the thief's
    # Turf Size increases and the victim's decreases: each rolls once.
    c = demo_campaign()
    c.gang(GOLIATH).territory_size = 2
    seq = at("turf", "turf-war-2017", c=c)
    seq.add_entry(f"steal|{ESCHER}")
    seq.answer("Toll Crossing")  # the Turf stolen, picked by the Iron Skulls' player
    seq.advance()
    labels = []
    while seq.pending is not None:
        labels.append(seq.pending.label)
        seq.answer({"faces": [3]} if seq.pending.kind == "roll" else seq.pending.default)
    assert any("+ 1" in lb for lb in labels) and any("- 1" in lb for lb in labels)


# --- Turf War 2017: Reputation --------------------------------------------------------------


def bh_campaign(reputation: int) -> Any:
    c = demo_campaign()
    c.gang(ESCHER).fighters.append(Fighter("bh", "Grendl", FighterType.BOUNTY_HUNTER))
    c.gang(ESCHER).reputation = reputation
    return c


@pytest.mark.parametrize("ruleset,expected", [("turf-war-2017", -5), ("gang-war", 0)])
def test_reputation_floor_is_the_same_in_every_step(ruleset: str, expected: int) -> None:
    # seed 004 (Reputation): "Reputation cannot fall below 0." Seed 002 sets no floor:
    # "If the same gang both gains and loses Reputation, any gains are applied before any
    # losses." — so under 2017 a loss below 0 stands in the Bounty Hunters step as in the
    # Reputation step.
    o = outcome(FighterOutcome(ESCHER, "bh"))
    seq = at("bounty-hunters", ruleset, c=bh_campaign(1), o=o)
    seq.answer({"faces": [1, 1, 1]})
    seq.answer("refuse")
    seq.answer({"faces": [3, 3]})  # 2D3 = 6 lost from 1
    assert seq.work.gang(ESCHER).reputation == expected


def test_turf_war_reputation_below_zero_in_a_post_battle_action() -> None:
    # seed 002 sets no floor on Reputation: a Show of Force Backlash at 0 leaves -1.
    c = demo_campaign()
    c.gang(ESCHER).reputation = 0
    seq = at("post-battle-actions", "turf-war-2017", c=c)
    # "Roll a D6 on the Show of Force chart": 6, Backlash (no fighters added under 2017)
    take(seq, ESCHER, "vexa-nightshade", "show-of-force", [[], {"faces": [6]}])
    assert seq.work.gang(ESCHER).reputation == -1
    assert note("turf-reputation-floor") in pb.step_notes(seq.steps[seq.step_index("reputation")])


# --- Turf War 2017: borrowed tables come without the Gang War rules around them -------------


def test_turf_war_prize_fight_has_no_goliath_reroll() -> None:
    # seed 002, Prize Fight: "Roll on the following Prize Fight table to determine the
    # outcome." The Gang War "A Goliath fighter may choose to reroll their outcome once." is
    # not in seed 002: the borrowed table comes without it.
    c = demo_campaign()
    c.gang(GOLIATH).credits = 100
    seq = at("post-battle-actions", "turf-war-2017", c=c)
    seq.add_entry(f"act|{GOLIATH}|brakk-ironjaw")
    seq.answer("prize-fight")
    seq.answer({"faces": [4]})
    assert seq.pending is not None and "re-roll" not in seq.pending.label
    action = pb.get_action("turf-war-2017", "prize-fight")
    assert "Goliath" in action["borrowed"] and "left out" in action["borrowed"]
    # Gang War keeps it
    seq = at("post-battle-actions", "gang-war", c=c)
    seq.add_entry(f"act|{GOLIATH}|brakk-ironjaw")
    seq.answer("prize-fight")
    seq.answer({"faces": [4]})
    assert "re-roll once" in seq.pending.label


def arbites_captive(ruleset: str) -> pb.PostBattle:
    c = demo_campaign()
    c.gang(GOLIATH).type = GangType.ARBITES
    dak = c.gang(GOLIATH).fighter("dak-cinderfist")
    dak.status, dak.captured_by, dak.bounty = FighterStatus.CAPTURED, ESCHER, 1
    return at("post-battle-actions", ruleset, c=c)


def test_turf_war_sells_an_arbites_captive() -> None:
    # seed 002, Sell to the Guilders: "fighters with a Bounty on them can be sold right away
    # for rich reward." Seed 004's "Guilders will not buy an Arbites fighter." is not in
    # seed 002.
    seq = arbites_captive("turf-war-2017")
    take(seq, ESCHER, "vexa-nightshade", "sell-to-guilders", [f"{GOLIATH}/dak-cinderfist"])
    assert seq.work.gang(GOLIATH).fighter("dak-cinderfist").captured_by == "guilders"
    seq = arbites_captive("gang-war")
    seq.add_entry(f"act|{ESCHER}|vexa-nightshade")
    assert not next(o for o in seq.pending.options if o.id == "sell-to-guilders").enabled


def test_turf_war_medical_escort_shows_what_it_borrows() -> None:
    # seed 002, Medical Escort: "Otherwise, roll a D6 on the table below:" (no table printed)
    action = pb.get_action("turf-war-2017", "medical-escort")
    detail = pb.action_detail(action)
    assert "Fighters that use an alternate Injury table cannot benefit" in detail
    assert "left out" in detail and note("turf-borrowed-rules") in detail


# --- Turf War 2017: a Merc with Fixer --------------------------------------------------------


@pytest.mark.parametrize("two,slots", [(True, 2), (False, 1)])
def test_turf_war_merc_with_fixer(two: bool, slots: int) -> None:
    # seed 002: "Normally a fighter able to make a Post-Battle Action may take only one per
    # Post-Battle Sequnce, but a fighter who has the Fixer skill may take two."
    from munda_tui.rules.postbattle.actions import action_slots

    c = demo_campaign()
    c.settings.turf_fixer_merc_two_actions = two
    merc = Fighter("merc", "Fixer Merc", FighterType.HIRED_GUN, skills=["Fixer"])
    c.gang(ESCHER).fighters.append(merc)
    seq = at("post-battle-actions", "turf-war-2017", c=c)
    assert action_slots(seq, seq.work.gang(ESCHER), merc) == slots
    assert note("turf-fixer-merc") in pb.step_notes(seq.step)
    assert reading("turf-fixer-merc").setting == "turf_fixer_merc_two_actions"
    gw = at("post-battle-actions", "gang-war", c=c)
    assert action_slots(gw, gw.work.gang(ESCHER), merc) == 1  # seed 004: "one Post-Battle Action"


# --- Remove Bounty ------------------------------------------------------------------------------


def test_remove_bounty_rolls_and_pays_each_bounty() -> None:
    # seed 004: "pays to remove a Bounty from the head of one or more of their gang's
    # fighters. For each fighter, removing each Bounty costs 50 credits plus 3d6 x 5 credits."
    c = demo_campaign()
    c.gang(GOLIATH).credits = 1000
    c.gang(GOLIATH).fighter("brakk-ironjaw").bounty = 2
    c.gang(GOLIATH).fighter("thug-varro").bounty = 1
    seq = at("post-battle-actions", c=c)
    take(seq, GOLIATH, "gorth-slagborn", "remove-bounty", [
        ["brakk-ironjaw", "thug-varro"],
        {"faces": [1, 1, 1]}, "pay",  # Brakk, first Bounty: 65
        {"faces": [6, 6, 6]}, "no",  # Brakk, second: 140 refused, the Bounty stays
        {"faces": [2, 2, 2]}, "pay",  # Varro: 80
    ])
    assert seq.pending is None
    g = seq.work.gang(GOLIATH)
    assert g.fighter("brakk-ironjaw").bounty == 1 and g.fighter("thug-varro").bounty == 0
    assert g.credits == seq.base.gang(GOLIATH).credits - 65 - 80
    assert note("remove-bounty") in pb.action_detail(pb.get_action("gang-war", "remove-bounty"))


# --- Medical Escort (and Skulduggery) with the 2023 table ---------------------------------------


def critical(table: str) -> Any:
    c = demo_campaign()
    c.settings.lasting_injury_table = table
    c.gang(ESCHER).credits = 300
    c.gang(ESCHER).fighter("lys-venom").status = FighterStatus.CRITICAL
    return c


@pytest.mark.parametrize("face,injury", [(4, "Hobbled"), (5, "Spinal Injury"), (6, "Enfeebled")])
def test_medical_escort_with_the_2023_table_records_a_permanent_injury(face: int,
                                                                        injury: str) -> None:
    # seed 004, Medical Escort: "Stabilized: the fighter goes into Recovery, but suffers a
    # Permanent Injury. Roll a D6 and apply the result from the Lasting Injuries table,
    # assuming that it is the second dice of a D66 roll and the first dice rolled a 5" and
    # "Fighters that use an alternate Injury table cannot benefit from this Post-Battle
    # Action." The 2023 table's 54 (Multiple Injuries) and 55-56 (Captured) are not
    # permanent injuries: the reading is made on the 2018 table.
    seq = at("post-battle-actions", c=critical("core-2023"))
    take(seq, ESCHER, "sable-thorn", "medical-escort",
         ["lys-venom", {"faces": [3, 4]}, "pay", {"faces": [3]}])
    assert seq.pending is not None and "Rulebook 2018" in seq.pending.note
    seq.answer({"faces": [face]})
    lys = seq.work.gang(ESCHER).fighter("lys-venom")
    assert [i.name for i in lys.injuries] == [injury]
    assert lys.status is FighterStatus.RECOVERY


def test_skulduggery_permanent_injury_with_the_2023_table() -> None:
    # seed 004, Skulduggery Misadventure: "the fighter survives but suffers permanent harm;
    # make a roll on the Permanent Injury table for the fighter." Same reading as Medical
    # Escort: never Multiple Injuries or Captured.
    c = demo_campaign()
    c.settings.lasting_injury_table = "core-2023"
    c.gang(ESCHER).fighter("mara-quill").type = FighterType.SPECIALIST
    seq = at("post-battle-actions", c=c)
    take(seq, ESCHER, "mara-quill", "skulduggery", [{"faces": [1]}, {"faces": [2]},
                                                    {"faces": [5]}])
    mara = seq.work.gang(ESCHER).fighter("mara-quill")
    assert [i.name for i in mara.injuries] == ["Spinal Injury"]
    assert mara.status is FighterStatus.ACTIVE


def test_medical_escort_not_for_a_fighter_on_an_alternate_table() -> None:
    # seed 004: "Fighters that use an alternate Injury table cannot benefit from this
    # Post-Battle Action."
    c = critical("rulebook-2018")
    c.gang(ESCHER).fighter("lys-venom").standard_injuries = False
    seq = at("post-battle-actions", c=c)
    seq.add_entry(f"act|{ESCHER}|sable-thorn")
    opt = next(o for o in seq.pending.options if o.id == "medical-escort")
    assert not opt.enabled


# --- choices the app made, shown where they apply -----------------------------------------------


def test_bounty_price_suggested_and_said() -> None:
    # seed 004: "the Bounty Hunter takes all of them (dead or alive) to turn into the
    # Guilders for the prices on their head(s)." No price is printed: 50 per Bounty suggested.
    c = bh_campaign(3)
    c.gang(GOLIATH).fighter("dak-cinderfist").bounty = 2
    o = outcome(FighterOutcome(ESCHER, "bh"))
    o.fighters[2].end_state = EndState.SERIOUSLY_INJURED  # Dak, Captured in this battle:
    seq = S.make_seq("gang-war", outcome=o, campaign=c)
    while seq.step["id"] != "bounty-hunters":
        if seq.pending is not None:
            fate = seq.pending.id == f"fate:{GOLIATH}:dak-cinderfist"
            seq.answer({"faces": [3]} if fate else seq.pending.default)  # 3-4: Captured
            continue
        seq.advance()
    p = seq.pending
    assert p is not None and p.default == 100 and note("bounty-price") in p.note


def test_half_value_rounded_down_said() -> None:
    # seed 004, Sell Equipment: "4-6: the item can be sold for half its credit value"
    c = demo_campaign()
    c.gang(ESCHER).stash = [Equipment("Stub gun", 25)]
    seq = at("sell-equipment", c=c)
    seq.add_entry(f"sell|{ESCHER}")
    seq.answer("stash|Stub gun")
    seq.answer({"faces": [5]})
    assert "Sell for 12" in [o.label for o in seq.pending.options][0]
    assert any("rounded down" in line for line in seq.state.lines)
    assert note("half-value-rounded-down") in pb.step_notes(seq.step)


def test_rescue_chance_reading_shown_on_the_action() -> None:
    # seed 004: "Captured fighters can't be sold in this way until their gang has had a
    # chance to rescue them, unless they have a Bounty on them."
    for rs in ("gang-war", "turf-war-2017"):
        assert note("rescue-chance") in pb.action_detail(pb.get_action(rs, "sell-to-guilders"))


def test_brutes_take_a_post_battle_action() -> None:
    # seed 004: "Each Leader, Champion, or Gang Fighter in the gang who is not dead,
    # Captured, Critically Injured, or in Recovery can take one Post-Battle Action each."
    from munda_tui.rules.postbattle.actions import action_slots

    seq = at("post-battle-actions")
    brute = Fighter("brute", "Brute", FighterType.BRUTE)
    assert action_slots(seq, seq.work.gang(GOLIATH), brute) == 1
    assert note("brutes-post-battle-actions") in pb.step_notes(seq.step)


def test_strongholds_and_gang_rating_readings_on_their_steps() -> None:
    # seed 004: "if a gang would lose a Stronghold Territory the controlling player may roll
    # a D6; on a 4+ the gang does not lose the Stronghold Territory" and "Recalculate the
    # gang's Gang Rating by adding up the individual Ratings of fighters on the roster not
    # including any Captured fighters, plus 50 for each Special Territory"
    rs = pb.load_ruleset("gang-war")
    steps = {s["id"]: s for s in rs["steps"]}
    assert note("strongholds") in pb.step_notes(steps["territory"])
    assert note("gang-rating") in pb.step_notes(steps["update-gang-rating"])
    t2017 = {s["id"]: s for s in pb.load_ruleset("turf-war-2017")["steps"]}
    assert note("gang-rating") in pb.step_notes(t2017["update-gang-rating"])


def test_per_player_deck_reading_on_the_settings_screen() -> None:
    # seed 000: "they will need a deck of playing cards containing two Joker cards. Each
    # player shuffles the deck and draws a card"
    from munda_tui.rules.core.readings import for_setting
    from munda_tui.screens.campaign.settings import CHOICES

    assert [r.id for r in for_setting("shared_deck")] == ["per-player-deck"]
    assert "shared_deck" in CHOICES and "turf_fixer_merc_two_actions" in CHOICES


# --- the readings as data -----------------------------------------------------------------------


def test_every_reading_is_complete_and_its_setting_exists() -> None:
    names = {f.name for f in fields(Settings)}
    seen = set()
    for r in readings():
        assert r.id not in seen
        seen.add(r.id)
        assert r.title and r.app and r.why and r.where, r.id
        assert not r.setting or r.setting in names, r.id


def test_seed_quotes_are_the_seeds_words() -> None:
    seeds = ROOT.parent / "shared" / "seeds"
    if not seeds.exists():
        pytest.skip("seeds not beside the repo")
    text = " ".join(" ".join(p.read_text(encoding="utf-8").split()) for p in seeds.glob("0*.txt"))
    for r in readings():
        for quote in filter(None, (q.strip() for q in r.seed.split(" / "))):
            assert " ".join(quote.split()) in text, (r.id, quote)


def test_every_reading_is_shown_and_in_the_readme() -> None:
    """Each reading is named where the app shows it: a step's or action's ``readings``, a
    table row's ``reading``, or a ``note("id")`` call in the code; and listed in docs/readings.md."""
    import re

    shown: set[str] = set()
    for p in (ROOT / "munda_tui").rglob("*"):
        if p.suffix == ".toml" and p.name != "readings.toml":
            text = p.read_text(encoding="utf-8")
            for arr in re.findall(r"^readings = \[(.*)\]$", text, re.M):
                shown.update(re.findall(r'"([a-z0-9-]+)"', arr))
            shown.update(re.findall(r'^reading = "([a-z0-9-]+)"$', text, re.M))
        elif p.suffix == ".py":
            shown.update(re.findall(r'note\("([a-z0-9-]+)"\)', p.read_text(encoding="utf-8")))
    from munda_tui.screens.campaign.settings import CHOICES  # shows the readings of each setting

    shown.update(r.id for r in readings() if r.setting in CHOICES)
    listed = (ROOT / "docs" / "readings.md").read_text(encoding="utf-8")  # (linked from the README)
    for r in readings():
        assert r.id in shown, f"{r.id} is never shown"
        assert f"`{r.id}`" in listed, f"{r.id} not in docs/readings.md"


def test_rules_export_lists_the_readings(capsys: pytest.CaptureFixture[str]) -> None:
    from munda_tui.cli import main

    assert main(["rules", "export", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_id = {r["id"]: r for r in data["readings"]}
    assert set(by_id) == {r.id for r in readings()}
    fixer = by_id["turf-fixer-merc"]
    assert fixer["seed"].startswith("Normally a fighter") and fixer["app"]
    assert fixer["setting"] == "turf_fixer_merc_two_actions"


# --- Contempt for the Weak at Choose Crew ----------------------------------------------------


def contempt_side(crew: list[str], n: int) -> Any:
    from munda_tui.rules.prebattle.setup import CrewMember, SideSetup

    side = SideSetup(gang=GOLIATH, crew=[CrewMember(f) for f in crew], hand=["goliath:J"],
                     subplot_choices={"goliath:J": str(n)})
    return side


@pytest.mark.parametrize("crew_size,limit", [(1, 0), (2, 1), (5, 4), (7, 5), (10, 5)])
def test_contempt_for_the_weak_bound(crew_size: int, limit: int) -> None:
    # seed 000, Goliath Jack: "You can reduce the size of your crew (as determined by the
    # scenario) by up to half the number of models in your gang, to a minimum crew size of 1."
    from munda_tui.rules.prebattle import scenario as sc

    g = demo_campaign().gang(GOLIATH)
    assert sc.gang_models(g) == 10
    assert sc.crew_reduction_limit(g, crew_size) == limit


def test_contempt_for_the_weak_reduces_the_crew() -> None:
    # seed 000: "You can reduce the size of your crew (as determined by the scenario) by up
    # to half the number of models in your gang, to a minimum crew size of 1." The crew step
    # takes the number chosen off the crew, the player marking who leaves.
    from munda_tui.rules.prebattle import scenario as sc

    g = demo_campaign().gang(GOLIATH)
    crew = ["brakk-ironjaw", "gorth-slagborn", "mord-hammerhand", "dak-cinderfist", "thug-varro"]
    side = contempt_side(crew, 2)
    assert sc.crew_reduction_due(side) == 2
    with pytest.raises(sc.CrewError):
        sc.reduce_crew(side, g, ["thug-varro"])  # one, not the two chosen
    sc.reduce_crew(side, g, ["dak-cinderfist", "thug-varro"])
    assert [m.fighter for m in side.crew] == crew[:3]
    assert side.crew_removed == ["dak-cinderfist", "thug-varro"] and sc.crew_reduction_due(side) == 0
    # beyond the bound: refused, the crew unchanged
    small = contempt_side(crew[:2], 2)
    with pytest.raises(sc.CrewError, match="at most 1"):
        sc.reduce_crew(small, g, crew[:2])
    assert len(small.crew) == 2


def test_turf_war_spyrers_take_post_battle_actions() -> None:
    # seed 004: "Spyrer Hunting Parties skip this step entirely as they cannot take
    # Post-Battle Actions." Seed 002 does not say so: "Each Hero (Leader, Champion, Juve,
    # Specialist) ... can take Post-Battle Actions."
    from munda_tui.rules.postbattle.actions import action_slots

    c = demo_campaign()
    c.gang(ESCHER).type = GangType.SPYRER_HUNTING_PARTY
    leader = c.gang(ESCHER).fighter("vexa-nightshade")
    t2017 = at("post-battle-actions", "turf-war-2017", c=c)
    assert action_slots(t2017, t2017.work.gang(ESCHER), leader) == 1
    gw = at("post-battle-actions", "gang-war", c=c)
    assert action_slots(gw, gw.work.gang(ESCHER), leader) == 0


def test_contempt_for_the_weak_reward_once_per_fighter_removed() -> None:
    # seed 000, Goliath Jack: "Should your gang win the scenario, it receives D6x10 credits
    # for each fighter that was removed from your starting crew."
    from munda_tui.rules.battle.watch import watch

    g = demo_campaign().gang(GOLIATH)
    crew = ["brakk-ironjaw", "gorth-slagborn", "mord-hammerhand", "dak-cinderfist", "thug-varro"]
    for n, times in ((2, 2), (1, 1)):
        side = contempt_side(crew, n)
        from munda_tui.rules.prebattle import scenario as sc

        sc.reduce_crew(side, g, crew[-n:])
        setup = type("S", (), {"sides": [side]})()
        (m,) = watch({GOLIATH: ["goliath:J"]}, [], facts=setup)
        assert (m.times, m.skip) == (times, ())
    # nobody removed: no credits at all, not one D6x10
    (m,) = watch({GOLIATH: ["goliath:J"]}, [], facts=type("S", (), {"sides": [contempt_side(crew, 0)]})())
    assert m.skip == (0,)
