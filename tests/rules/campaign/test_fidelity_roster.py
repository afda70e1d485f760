"""Issue 25, held against the seeds: what the post-battle sequence does to the roster.

Each test quotes the seed sentence it follows (or the reading it makes, listed by
``munda-tui rules export``).
"""

from __future__ import annotations

import random
from typing import Any

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import (
    BattleSummary,
    Equipment,
    Fighter,
    FighterStatus,
    FighterType,
    Territory,
    TerritoryKind,
)
from munda_tui.rules.core.outcome import BattleOutcome, EndState, FighterOutcome
from munda_tui.rules.campaign.report import campaign_summary
from munda_tui.rules.campaign.report_doc import render_markdown
from munda_tui.rules.campaign.standings import kills
from munda_tui.saves import codec

import postbattle_support as S  # tests/ is on sys.path (pyproject: pythonpath)

ESCHER, GOLIATH = S.ESCHER, S.GOLIATH


def outcome(*fighters: FighterOutcome, winner: str = ESCHER) -> BattleOutcome:
    base = [FighterOutcome(ESCHER, "vexa-nightshade"), FighterOutcome(GOLIATH, "brakk-ironjaw")]
    return BattleOutcome(battle=1, gangs=[ESCHER, GOLIATH], winner=winner,
                         fighters=base + list(fighters))


#: the questions every sequence of the demo gangs asks, answered "none"
NOTHING: dict[str, Any] = {f"consumables:{ESCHER}": [], f"consumables:{GOLIATH}": []}


def walk_to(seq: pb.PostBattle, step: str, faces: dict[str, list[int]] | None = None,
            answers: dict[str, Any] | None = None) -> pb.PostBattle:
    """Walk until ``step`` is current (``""``: to the end, nothing pending) with every
    roll's faces and every other answer given (an unexpected question fails the test)."""
    faces, answers = dict(faces or {}), NOTHING | dict(answers or {})
    while seq.step["id"] != step if step else not (seq.at_end and seq.pending is None):
        p = seq.pending
        if p is not None:
            if p.kind == "roll":
                assert p.id in faces, f"an unexpected roll: {p.id} ({p.label})"
                seq.answer({"faces": faces.pop(p.id), "entered": True})
            else:
                assert p.id in answers, f"an unexpected question: {p.id} ({p.label})"
                seq.answer(answers.pop(p.id))
            continue
        seq.advance()
    answers = {k: v for k, v in answers.items() if k not in NOTHING}
    assert not faces and not answers, f"never asked: {faces} {answers}"
    return seq


def to_the_end(seq: pb.PostBattle, **given: Any) -> pb.PostBattle:
    return walk_to(seq, "", **given)


# --- 12: the dead leave the roster and stay in the gang's history ----------------------------

LYS_DIES = {f"injury:{ESCHER}:lys-venom": [6, 6]}  # 66: Memorable Death


def test_dead_fighters_are_removed_from_the_roster_and_kept_as_fallen() -> None:
    """Seed 004, Delete Dead Fighters: "All dead fighters are removed from the gang's
    roster now, and their fighter cards (along with any lost equipment listed upon them)
    are removed from the gang's deck of fighter cards." Kept in the gang's history."""
    c = demo_campaign()
    c.battles.append(BattleSummary(number=1, status="post-battle", gangs=[ESCHER, GOLIATH]))
    seq = pb.PostBattle(c, 1, pb.new_draft("gang-war"),
                        outcome(FighterOutcome(ESCHER, "lys-venom", EndState.OUT_OF_ACTION)))
    walk_to(seq, "delete-dead", faces=LYS_DIES)
    g = seq.work.gang(ESCHER)
    assert "lys-venom" not in [f.id for f in g.fighters]
    assert [(f.id, f.status) for f in g.fallen] == [("lys-venom", FighterStatus.DEAD)]
    assert g.member("lys-venom").status_battle == 1
    # the gang held the battlefield: the equipment was recovered to the Stash first
    assert [i.name for i in g.stash][-2:] == ["Lasgun", "Frag grenades"]
    to_the_end(seq)
    report = seq.report()
    assert "## Fallen" in report and "- Lys Venom (The Venom Sisters)" in report
    done = pb.applied_campaign(c, 1, pb.commit_table(seq))
    after = done.gang(ESCHER)
    assert [f.id for f in after.fallen] == ["lys-venom"]
    assert "lys-venom" not in [f.id for f in after.fighters]
    # saved and read back: the fallen are kept
    again = codec.campaign_from_data(codec.campaign_to_data(done))
    assert [f.name for f in again.gang(ESCHER).fallen] == ["Lys Venom"]
    # the campaign summary names them
    summary = render_markdown(campaign_summary(done))
    assert "Fallen: Lys Venom (battle 1: Memorable Death)" in summary


def test_an_old_save_with_a_dead_fighter_opens_with_them_among_the_fallen() -> None:
    """Migration: a campaign saved with a fighter of status "dead" on the roster opens;
    the fighter is moved to the fallen (seed 004: "All dead fighters are removed from the
    gang's roster now")."""
    c = demo_campaign()
    data = codec.campaign_to_data(c)
    gang = next(g for g in data["gangs"] if g["id"] == GOLIATH)
    thug = next(f for f in gang["fighters"] if f["id"] == "thug-varro")
    thug["status"] = "dead"
    thug["kills"] = 2
    del gang["fallen"]  # (a save made before the fallen were kept)
    loaded, _version = codec.load_campaign_data(data)
    g = loaded.gang(GOLIATH)
    assert "thug-varro" not in [f.id for f in g.fighters]
    assert [f.id for f in g.fallen] == ["thug-varro"]
    assert kills(g) == 2  # a fallen fighter's kills stay the gang's
    again = codec.campaign_to_data(loaded)
    gdata = next(x for x in again["gangs"] if x["id"] == GOLIATH)
    assert [f["id"] for f in gdata["fallen"]] == ["thug-varro"]


def test_a_new_fighter_never_takes_a_fallen_fighters_id() -> None:
    c = demo_campaign()
    c.gang(GOLIATH).bury("thug-varro")
    c.battles.append(BattleSummary(number=1, status="post-battle", gangs=[ESCHER, GOLIATH]))
    seq = pb.PostBattle(c, 1, pb.new_draft("gang-war"), outcome())
    walk_to(seq, "buy-and-hire")
    seq.add_entry(f"hire|{GOLIATH}")
    seq.answer("Thug Varro")
    seq.answer("Ganger")
    seq.answer(10)
    ids = [f.id for f in seq.work.gang(GOLIATH).fighters]
    assert "thug-varro-2" in ids and "thug-varro" not in ids


def test_a_save_naming_a_fighter_both_on_the_roster_and_fallen_is_refused() -> None:
    c = demo_campaign()
    data = codec.campaign_to_data(c)
    gang = next(g for g in data["gangs"] if g["id"] == GOLIATH)
    gang["fallen"] = [dict(gang["fighters"][0], status="dead")]
    try:
        codec.load_campaign_data(data)
    except codec.ValidationError as error:
        assert "fallen" in str(error) and "both on the roster and fallen" in str(error)
    else:
        raise AssertionError("refused")


# --- 4: Bounty Hunters take this battle's dead and Captured only -----------------------------


def bounty_campaign() -> Any:
    c = demo_campaign()
    c.gang(ESCHER).fighters.append(Fighter("bh", "Grendl", FighterType.BOUNTY_HUNTER,
                                           equipment=[Equipment("Bolter", 50)]))
    c.gang(ESCHER).credits = 200
    # an Iron Skull with a Bounty, Captured by the Venom Sisters in an earlier battle
    old = c.gang(GOLIATH).fighter("thug-varro")
    old.bounty = 1
    old.status, old.captured_by, old.status_battle = FighterStatus.CAPTURED, ESCHER, 0
    return c


def test_bounty_hunter_does_not_take_a_captive_from_an_earlier_battle() -> None:
    """Seed 004, Resolve Bounty Hunters: "If your gang employed the services of a Bounty
    Hunter for this battle, and any opposing fighters who have a Bounty on their head died
    or were Captured during the battle, the Bounty Hunter takes all of them". Thug was
    Captured before this battle: he is not handed to the Guilders, and with no one else
    the Bounty Hunter demands his fee ("If no opposing fighters with a Bounty on their head
    died or got Captured during the battle, the Bounty Hunter demands to be paid")."""
    c = bounty_campaign()
    c.battles.append(BattleSummary(number=1, status="post-battle", gangs=[ESCHER, GOLIATH]))
    seq = pb.PostBattle(c, 1, pb.new_draft("gang-war"), outcome(FighterOutcome(ESCHER, "bh")))
    walk_to(seq, "bounty-hunters")
    assert seq.pending is None or seq.pending.id == f"bh:{ESCHER}:fee"
    seq.answer({"faces": [1, 2, 3], "entered": True})  # 50 + 6 x 5 = 80
    seq.answer("pay")
    thug = seq.work.gang(GOLIATH).fighter("thug-varro")
    assert thug.captured_by == ESCHER  # still the Venom Sisters' captive
    assert seq.work.gang(ESCHER).credits == 200 - 80


def test_bounty_hunter_takes_a_fighter_captured_in_this_battle() -> None:
    """The same sentence: Dak, with a Bounty, Captured during this battle, is taken."""
    c = bounty_campaign()
    c.gang(GOLIATH).fighter("dak-cinderfist").bounty = 1
    c.battles.append(BattleSummary(number=1, status="post-battle", gangs=[ESCHER, GOLIATH]))
    o = outcome(FighterOutcome(ESCHER, "bh"),
                FighterOutcome(GOLIATH, "dak-cinderfist", EndState.SERIOUSLY_INJURED))
    seq = pb.PostBattle(c, 1, pb.new_draft("gang-war"), o)
    walk_to(seq, "bounty-hunters", faces={f"fate:{GOLIATH}:dak-cinderfist": [3]})
    assert seq.pending.id == f"bh:{ESCHER}:dak-cinderfist"
    seq.answer(50)
    g = seq.work.gang(GOLIATH)
    assert g.fighter("dak-cinderfist").captured_by == "guilders"
    assert g.fighter("thug-varro").captured_by == ESCHER
    assert seq.work.gang(ESCHER).credits == 250


# --- 5: a Stronghold is a Special Territory ---------------------------------------------------


def test_a_stronghold_adds_50_to_the_gang_rating() -> None:
    """Seed 004, Update Gang Rating: "plus 50 for each Special Territory the gang has";
    the seed's Territories are Turf and Special, and a Stronghold is a Special Territory."""
    c = demo_campaign()
    g = c.gang(GOLIATH)
    before = g.rating
    g.territories.append(Territory("Old Fort", TerritoryKind.STRONGHOLD))
    assert g.rating == before + 50
    g.territories.append(Territory("Sump Pit", TerritoryKind.TURF))
    assert g.rating == before + 50


# --- 3 (and issue 26, 5): every item entering the gang has a kind --------------------------


def catalogue_kinds(name: str) -> str | None:
    from munda_tui.rules.campaign.catalogue import Catalogue, ItemEntry

    cat = Catalogue(items=[ItemEntry("Axe", 10, "weapon", "Common"),
                           ItemEntry("Heavy stubber", 130, "Unwieldy weapon", "Rare (9)")])
    known = cat.item(name)
    return None if known is None else known.kind


def at_step(step: str, c: Any = None) -> pb.PostBattle:
    c = c or demo_campaign()
    c.gang(ESCHER).credits = 500
    c.battles.append(BattleSummary(number=1, status="post-battle", gangs=[ESCHER, GOLIATH]))
    seq = pb.PostBattle(c, 1, pb.new_draft("gang-war"), outcome(), item_kinds=catalogue_kinds)
    return walk_to(seq, step)


def give_options(seq: pb.PostBattle, item: str) -> dict[str, Any]:
    seq.add_entry(f"give|{ESCHER}")
    seq.answer(item)
    return {o.id: o for o in seq.pending.options}


def test_an_axe_the_catalogue_lists_as_a_weapon_is_bought_as_a_weapon() -> None:
    """Issue 26, 5: an Axe the catalogue lists as a weapon was saved as wargear. Seed 004,
    Distribute Equipment: "including limits on the number of weapons a fighter can carry
    (normally 3, with Unwieldy weapons counting as 2 weapons)"."""
    seq = at_step("buy-common")
    seq.add_entry(f"buy|{ESCHER}")
    seq.answer("Axe")
    seq.answer(10)
    p = seq.pending
    assert p.id.endswith(":kind") and p.default == "weapon"  # offered from the catalogue
    assert "The catalogue lists Axe as: weapon" in p.note
    seq.answer("weapon")
    axe = seq.work.gang(ESCHER).stash[-1]
    assert (axe.name, axe.weapon, axe.rarity) == ("Axe", True, "Common")
    # Vexa carries two weapons (Needle pistol, Stiletto sword): the Axe is her third
    walk_to(seq, "distribute-equipment")
    assert give_options(seq, "Axe")["vexa-nightshade"].enabled
    seq.answer("vexa-nightshade")
    vexa = seq.work.gang(ESCHER).fighter("vexa-nightshade")
    assert vexa.weapon_count == 3


def test_a_bought_rare_weapon_counts_and_a_fourth_is_refused() -> None:
    """Seed 004: "normally 3, with Unwieldy weapons counting as 2 weapons". A Plasma pistol
    (not in the catalogue: its kind is asked) and an Axe bought in the sequence: Vexa takes
    the pistol as her third weapon, and the Axe, a fourth, is refused."""
    seq = at_step("buy-rare")
    seq.add_entry(f"rare|{ESCHER}|0")
    seq.answer({"faces": [6, 6], "entered": True})  # 2D6-1: 11
    seq.answer("buy")
    seq.answer("Plasma pistol")
    seq.answer(9)
    seq.answer(50)
    p = seq.pending
    assert p.id.endswith(":kind") and "not in the catalogue" in p.note
    seq.answer("weapon")
    walk_to(seq, "buy-common")
    seq.add_entry(f"buy|{ESCHER}")
    for value in ("Axe", 10, "weapon"):
        seq.answer(value)
    walk_to(seq, "distribute-equipment")
    give_options(seq, "Plasma pistol")
    seq.answer("vexa-nightshade")
    assert seq.work.gang(ESCHER).fighter("vexa-nightshade").weapon_count == 3
    vexa = give_options(seq, "Axe")["vexa-nightshade"]
    assert not vexa.enabled and "weapon limit 3" in vexa.reason


def test_an_unwieldy_weapon_received_as_a_reward_counts_two() -> None:
    """Seed 004, Receive Rewards: "Any equipment or credits gained in this way are added
    to the gang's Stash immediately"; Distribute Equipment: "Unwieldy weapons counting as 2
    weapons". A Heavy stubber the catalogue lists as an Unwieldy weapon counts 2: Vexa
    (two weapons) cannot take it."""
    seq = at_step("receive-rewards")
    seq.add_entry(f"item|{ESCHER}")
    seq.answer("Heavy stubber")
    seq.answer(130)
    assert seq.pending.default == "Unwieldy weapon"
    seq.answer("Unwieldy weapon")
    stubber = seq.work.gang(ESCHER).stash[-1]
    assert stubber.weapon and stubber.unwieldy and stubber.weapon_slots == 2
    walk_to(seq, "distribute-equipment")
    opts = give_options(seq, "Heavy stubber")
    assert not opts["vexa-nightshade"].enabled  # 2 + 2 > 3
    assert opts["oona-vale"].enabled  # Lasgun + 2 = 3 (Filter plugs are no weapon)


def test_armour_bought_in_the_sequence_stays_armour() -> None:
    seq = at_step("buy-common")
    seq.add_entry(f"buy|{ESCHER}")
    for value in ("Flak armour", 10, "armour"):
        seq.answer(value)
    item = seq.work.gang(ESCHER).stash[-1]
    assert item.kind == "armour" and not item.weapon


# --- 6: a chance to rescue, in a league of three gangs -------------------------------------------

THIRD = "ash-kings"


def league(*battles: BattleSummary) -> Any:
    """The demo gangs and a third; the Venom Sisters' Mara Captured by the Iron Skulls in
    battle 1."""
    import copy

    c = demo_campaign()
    third = copy.deepcopy(c.gang(GOLIATH))
    third.id, third.name = THIRD, "The Ash Kings"
    c.gangs.append(third)
    mara = c.gang(ESCHER).fighter("mara-quill")
    mara.status, mara.captured_by, mara.status_battle = FighterStatus.CAPTURED, GOLIATH, 1
    c.battles.append(BattleSummary(number=1, status="done", gangs=[ESCHER, GOLIATH]))
    c.battles.extend(battles)
    return c


def can_sell(c: Any, number: int) -> str:
    """Why Brakk may not take Sell to the Guilders in the Iron Skulls' sequence of battle
    ``number`` against the Ash Kings ("" when he may)."""
    from munda_tui.rules.postbattle.actions import eligibility

    c.battles.append(BattleSummary(number=number, status="post-battle", gangs=[GOLIATH, THIRD]))
    o = BattleOutcome(battle=number, gangs=[GOLIATH, THIRD], winner=GOLIATH,
                      fighters=[FighterOutcome(GOLIATH, "brakk-ironjaw"),
                                FighterOutcome(THIRD, "brakk-ironjaw")])
    seq = pb.PostBattle(c, number, pb.new_draft("gang-war"), o)
    rng = random.Random(1)
    while seq.step["id"] != "post-battle-actions":
        if seq.pending is not None:
            S.answer_default(seq, rng)
            continue
        seq.advance()
    g = seq.work.gang(GOLIATH)
    return eligibility(seq, g, g.fighter("brakk-ironjaw"),
                       pb.get_action("gang-war", "sell-to-guilders"))


def test_a_captive_cannot_be_sold_before_their_gang_has_fought_again() -> None:
    """Seed 004, Sell to the Guilders: "Captured fighters can't be sold in this way until
    their gang has had a chance to rescue them, unless they have a Bounty on them."
    Reading rescue-chance: their gang has fought a battle since the capture. The Iron
    Skulls fight the Ash Kings in battle 2: the Venom Sisters have had no chance yet."""
    assert "no rescue chance yet" in can_sell(league(), 2)


def test_a_captive_can_be_sold_once_their_gang_has_fought_again() -> None:
    """The same sentence: the Venom Sisters fought the Ash Kings in battle 2 (a chance to
    rescue Mara): in battle 3 the Iron Skulls may sell her."""
    done = BattleSummary(number=2, status="done", gangs=[ESCHER, THIRD])
    assert can_sell(league(done), 3) == ""


def test_the_rescue_chance_reading_says_what_the_code_checks() -> None:
    from munda_tui.rules.core.readings import export_section, reading

    r = reading("rescue-chance")
    assert r.seed == ("Captured fighters can't be sold in this way until their gang has had a "
                      "chance to rescue them, unless they have a Bounty on them.")
    assert "fought a battle since the battle they were Captured in" in r.app
    assert any(x["id"] == "rescue-chance" for x in export_section())


# --- 8, 9: "Every fighter in your gang gains D3 XP" -------------------------------------------


def pit_fight_sequence() -> pb.PostBattle:
    from munda_tui.rules.core.outcome import BankedReward, RewardKind

    c = demo_campaign()
    mara = c.gang(ESCHER).fighter("mara-quill")
    mara.status, mara.captured_by = FighterStatus.CAPTURED, GOLIATH
    c.battles.append(BattleSummary(number=1, status="post-battle", gangs=[ESCHER, GOLIATH]))
    o = outcome()
    o.rewards = [BankedReward(ESCHER, RewardKind.XP, 2, "Sub-plot: Pit Fight", fighter="*")]
    seq = pb.PostBattle(c, 1, pb.new_draft("gang-war"), o)
    return walk_to(seq, "receive-rewards")


def test_every_fighter_gains_the_one_d3_rolled_and_the_reading_says_so() -> None:
    """Seed 000, Goliath 5, Pit Fight: "Every fighter in your gang gains D3 XP, in addition
    to any other XP awarded for the scenario." Reading every-fighter-one-roll: the D3 is
    rolled once (here 2) and every fighter gains it; the reading is listed and said."""
    from munda_tui.rules.core.readings import export_section, note, reading

    seq = pit_fight_sequence()
    g, before = seq.work.gang(ESCHER), demo_campaign().gang(ESCHER)
    gained = {f.id: f.xp - before.fighter(f.id).xp for f in g.fighters}
    assert set(gained.values()) - {0} == {2}
    assert note("every-fighter-one-roll") in seq.state.lines
    r = reading("every-fighter-one-roll")
    assert "Every fighter in your gang gains D3 XP, in addition to any other XP awarded " \
           "for the scenario." in r.seed
    assert "rolled once" in r.app
    assert {"every-fighter-one-roll", "every-fighter-in-your-gang"} <= {
        x["id"] for x in export_section()}


def test_every_fighter_in_your_gang_leaves_out_the_captured_and_the_reading_says_so() -> None:
    """The same card, "Every fighter in your gang": reading every-fighter-in-your-gang,
    the roster whether they fought or not, the Captured left out (Mara, held by the Iron
    Skulls, gains nothing); the reading is listed and said."""
    from munda_tui.rules.core.readings import note, reading

    seq = pit_fight_sequence()
    g, before = seq.work.gang(ESCHER), demo_campaign().gang(ESCHER)
    assert g.fighter("mara-quill").xp == before.fighter("mara-quill").xp
    assert g.fighter("pip-hollow").xp == before.fighter("pip-hollow").xp + 2  # did not fight
    assert note("every-fighter-in-your-gang") in seq.state.lines
    r = reading("every-fighter-in-your-gang")
    assert "every fighter in your gang gains 1 XP." in r.seed and "except the Captured" in r.app


def test_a_captive_of_a_third_gang_executed_leaves_their_gangs_roster() -> None:
    """Seed 004, Dispense Justice: "The Captured fighters controlling players should be
    informed as soon as possible, and must delete those fighters from their rosters." In a
    league the captive's gang need not be in the battle: Delete Dead Fighters ("All dead
    fighters are removed from the gang's roster now") removes them from their roster too."""
    from munda_tui.rules.core.model import GangType

    c = league()
    c.gang(GOLIATH).type = GangType.PALANITE_ENFORCERS
    thug = c.gang(THIRD).fighter("thug-varro")
    thug.status, thug.captured_by, thug.status_battle = FighterStatus.CAPTURED, GOLIATH, 1
    c.battles.append(BattleSummary(number=2, status="post-battle", gangs=[ESCHER, GOLIATH]))
    o = outcome()
    o.battle = 2
    seq = pb.PostBattle(c, 2, pb.new_draft("gang-war"), o)
    walk_to(seq, "post-battle-actions")
    seq.add_entry(f"act|{GOLIATH}|brakk-ironjaw")
    seq.answer("dispense-justice")
    seq.answer([f"{THIRD}/thug-varro"])
    seq.answer({"faces": [1], "entered": True})  # Just Rewards: 1 + 1, nothing special
    walk_to(seq, "delete-dead")
    third = seq.work.gang(THIRD)
    assert "thug-varro" not in [f.id for f in third.fighters]
    assert [(f.id, f.status) for f in third.fallen] == [("thug-varro", FighterStatus.DEAD)]
    assert "The Ash Kings: Thug Varro is dead and deleted from the roster." in seq.state.lines
    to_the_end(seq)
    done = pb.applied_campaign(c, 2, pb.commit_table(seq))
    assert [f.id for f in done.gang(THIRD).fallen] == ["thug-varro"]


def test_a_fighter_marked_dead_on_the_roster_leaves_it_for_the_fallen() -> None:
    """Seed 004: "All dead fighters are removed from the gang's roster now": a fighter
    the players mark dead by hand (the roster's form) goes to the fallen too."""
    from munda_tui.rules.campaign.roster import fighter_form, update_fighter, validate_fighter

    g = demo_campaign().gang(GOLIATH)
    thug = g.fighter("thug-varro")
    values, errors = validate_fighter(g, {**fighter_form(thug), "status": "dead"}, thug.id)
    assert errors == {} and values is not None
    update_fighter(g, thug.id, values)
    assert "thug-varro" not in [f.id for f in g.fighters]
    assert [(f.id, f.status_why) for f in g.fallen] == [("thug-varro", "set on the roster")]


def test_the_demo_gangs_fighter_types_are_the_roles_their_gang_lists_give() -> None:
    """The demo's fighters carry their House's type names (House of Chains p54: the
    Goliath Ganger is a Bruiser; p56: the Bully is a Juve): each name read as an import
    reads it gives the role the fighter has (the Gangers were labelled Bully)."""
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.rules.campaign.yaktribe import fighter_type_from_label

    for gang in demo_campaign().gangs:
        for fighter in gang.fighters:
            assert fighter_type_from_label(fighter.label, gang=gang.type.value) == fighter.type, (
                gang.name, fighter.name, fighter.label)
