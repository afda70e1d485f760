"""A fighter's career through the post-battle sequence: Lasting Injuries on the
profile (and undone with the step), Critical Injuries resolved, Recovery ending."""

from __future__ import annotations

from munda_tui.rules.battle.events import ConditionEvent, StateEvent

from munda_tui.rules.postbattle.changes import Xp

import random

import pytest

from munda_tui.rules.campaign import career as career
from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import FighterStatus, LastingInjury
from munda_tui.rules.core.outcome import BattleOutcome, EndState, FighterOutcome

import postbattle_support as S

ESCHER, GOLIATH = S.ESCHER, S.GOLIATH
DAK = f"injury:{GOLIATH}:dak-cinderfist"


def ooa(battle: int = 1) -> BattleOutcome:
    return BattleOutcome(battle=battle, gangs=[ESCHER, GOLIATH], winner=ESCHER, fighters=[
        FighterOutcome(ESCHER, "vexa-nightshade"),
        FighterOutcome(GOLIATH, "dak-cinderfist", EndState.OUT_OF_ACTION,
                       taken_out_by=f"{ESCHER}/vexa-nightshade")])


def to_injuries(campaign=None, faces=(5, 2)):
    seq = S.make_seq(outcome=ooa(), campaign=campaign)
    while seq.step["id"] != "lasting-injuries":
        seq.advance()
    seq.answer({"faces": list(faces), "entered": True})
    return seq


def test_eye_injury_worsens_bs_and_undo_takes_back_both():
    seq = to_injuries()  # 52: Eye Injury (-1 Ballistic Skill), 2018 table
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.characteristics["bs"] == 5  # BS 4+ -> 5+: a worse target number is higher
    assert [(i.name, i.effect) for i in dak.injuries] == [
        ("Eye Injury", "-1 Ballistic Skill: BS 4+ -> 5+")]
    # going back a step takes both back (the sequence is replayed from the campaign)
    seq.back()
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.characteristics["bs"] == 4 and dak.injuries == []
    seq.advance()
    assert seq.work.gang(GOLIATH).fighter("dak-cinderfist").characteristics["bs"] == 5
    # a roll is never undone silently; corrected on the record, the old effect goes too
    seq.reroll({"faces": [3, 3], "entered": True}, "misread the dice")  # 33: Grievous Injury
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.characteristics["bs"] == 4 and dak.injuries == []
    assert dak.status is FighterStatus.RECOVERY


def test_core_2023_effect_is_entered_by_the_player_and_applied():
    c = demo_campaign()
    c.settings.lasting_injury_table = "core-2023"
    seq = to_injuries(c, faces=(4, 6))  # 46: Hobbled (2023 table: effect not printed)
    p = seq.pending
    assert p.kind == "text" and p.id == f"{DAK}:0:effect" and "Hobbled" in p.label
    try:
        seq.answer("-1 Movment")
    except pb.PostBattleError as exc:
        assert "'Movment' is not a characteristic" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("a misspelt characteristic must be refused")
    seq.answer("-1 Movement")
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.characteristics["m"] == 3
    assert dak.injuries[-1].effect == "-1 Movement: M 4 -> 3"
    seq.undo()  # the entered effect
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.characteristics["m"] == 4 and dak.injuries == []


def test_core_2023_effect_none_changes_nothing():
    c = demo_campaign()
    c.settings.lasting_injury_table = "core-2023"
    seq = to_injuries(c, faces=(1, 2))  # 12: Impressive Scars
    seq.answer("none")
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert [i.name for i in dak.injuries] == ["Impressive Scars"]
    assert dak.characteristics == demo_campaign().gang(GOLIATH).fighter("dak-cinderfist").characteristics


def test_critical_injury_resolved_by_medical_escort_leaves_no_stale_text():
    seq = to_injuries(faces=(6, 1))  # 61: Critical Injury
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.status is FighterStatus.CRITICAL
    assert dak.injuries[-1].effect == "dies unless given medical attention"
    assert dak.notes == ""
    career.set_status(dak, FighterStatus.RECOVERY, "Medical Escort: Full Recovery", 1)
    assert dak.injuries[-1].effect == "resolved: Medical Escort: Full Recovery, recovery"
    assert "dies unless" not in dak.notes


def test_critical_injury_without_medical_attention_dies_in_delete_dead():
    seq = to_injuries(faces=(6, 1))
    S.drive(seq, random.Random(1), until="delete-dead")
    g = seq.work.gang(GOLIATH)
    dak = g.member("dak-cinderfist")
    assert dak.status is FighterStatus.DEAD
    assert dak in g.fallen and dak not in g.fighters  # seed 004: removed from the roster
    assert dak.injuries[-1].effect == "died (Critical Injury without medical attention)"


def test_recovery_misses_the_next_battle_and_returns_after_its_sequence():
    # battle 1: Grievous Injury (31-45: goes into Recovery)
    c = demo_campaign()
    seq = S.make_seq(outcome=ooa(), campaign=c)
    S.drive(seq, random.Random(3), faces={DAK: [3, 3]})
    applied = pb.applied_campaign(c, 1, pb.commit_table(seq))
    dak = applied.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.status is FighterStatus.RECOVERY and not dak.can_fight
    assert dak.status_why == "Grievous Injury" and dak.status_battle == 1
    assert career.status_text(dak) == (
        "in Recovery (Grievous Injury, battle 1): misses the gang's next battle")
    # battle 2: Dak cannot be in the crew; at the end of its sequence Dak is back
    from munda_tui.rules.core.model import BattleSummary

    applied.battles.append(BattleSummary(number=2, status="post-battle", gangs=[ESCHER, GOLIATH]))
    o2 = BattleOutcome(battle=2, gangs=[ESCHER, GOLIATH], winner=GOLIATH, fighters=[
        FighterOutcome(ESCHER, "vexa-nightshade"), FighterOutcome(GOLIATH, "brakk-ironjaw")])
    seq2 = pb.PostBattle(applied, 2, pb.new_draft("gang-war"), o2)
    S.drive(seq2, random.Random(3))
    assert seq2.step["id"] == "report-results"
    assert any("Dak Cinderfist is back from Recovery (Grievous Injury)" in line
               for line in seq2.state.lines)
    after = pb.applied_campaign(applied, 2, pb.commit_table(seq2))
    dak = after.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.status is FighterStatus.ACTIVE and dak.can_fight and dak.status_why == ""


def test_recovery_set_in_this_sequence_does_not_end_in_it():
    c = demo_campaign()
    dak = c.gang(GOLIATH).fighter("dak-cinderfist")
    career.set_status(dak, FighterStatus.RECOVERY, "Grievous Injury", 2)
    assert career.recovery_ends(c.gang(GOLIATH), 2) == []
    assert career.recovery_ends(c.gang(GOLIATH), 3) == [dak]


def test_injury_beyond_the_possible_range_stops_at_the_limit():
    c = demo_campaign()
    dak = c.gang(GOLIATH).fighter("dak-cinderfist")
    dak.characteristics["bs"] = 6
    inj = career.add_injury(dak, "Eye Injury", effect="-1 Ballistic Skill",
                            profile=[("bs", -1)])
    assert dak.characteristics["bs"] == 6
    assert inj == LastingInjury("Eye Injury", effect="-1 Ballistic Skill: BS 6+ -> 6+ (at its limit)")


# --- kills and XP from the log -------------------------------------------------------

from munda_tui.rules.battle.events import (  # noqa: E402
    OUT_OF_ACTION,
    SERIOUSLY_INJURED,
    Battle,
    Event,
    default_setup,
    outcome,
    start_event,
)
from munda_tui.rules.core.outcome import BankedReward, RewardKind  # noqa: E402

VEXA, MARA = f"{ESCHER}/vexa-nightshade", f"{ESCHER}/mara-quill"


def logged_battle():
    c = demo_campaign()
    setup = default_setup(c, 1, ESCHER, GOLIATH)
    b = Battle([start_event(setup, c)])
    # Vexa takes two Goliaths Out of Action (one Seriously Injured first), Mara rallies
    b.log_event(StateEvent(fighter=f"{GOLIATH}/dak-cinderfist", state=SERIOUSLY_INJURED,
                   attacker=VEXA))
    b.log_event(StateEvent(fighter=f"{GOLIATH}/dak-cinderfist", state=OUT_OF_ACTION,
                   attacker=VEXA))
    b.log_event(StateEvent(fighter=f"{GOLIATH}/thug-varro", state=OUT_OF_ACTION, attacker=VEXA))
    b.log_event(ConditionEvent(fighter=MARA, condition="Broken"))
    b.log_event(ConditionEvent(fighter=MARA, condition="Broken", lost=True))
    o = outcome(b.state, setup)
    o.winner = ESCHER
    return c, o


def test_the_log_counts_what_each_fighter_caused():
    _, o = logged_battle()
    by = {f"{f.gang}/{f.fighter}": f for f in o.fighters}
    assert by[VEXA].caused == {"seriously_injured": 1, "out_of_action": 2}
    assert by[MARA].caused == {"rally": 1}


def test_kills_counted_at_wrap_up_and_no_xp_invented_without_the_table():
    c, o = logged_battle()
    seq = S.make_seq(outcome=o, campaign=c)
    assert seq.step["id"] == "wrap-up" and seq.pending is None
    vexa = seq.work.gang(ESCHER).fighter("vexa-nightshade")
    assert vexa.kills == 2  # took two enemies Out of Action
    assert vexa.xp == 6  # the table is empty: no XP proposed
    assert any("XP awards table empty" in line for line in seq.state.lines)


def test_wrap_up_proposes_xp_from_the_arbitrators_table_with_reasons():
    c, o = logged_battle()
    c.settings.xp_awards = {"seriously_injured": 1, "out_of_action": 2, "rally": 1}  # the Arbitrator's
    seq = S.make_seq(outcome=o, campaign=c)
    lines = "\n".join(seq.state.lines)
    assert ("Vexa Nightshade 5 XP: an enemy Seriously Injured (1 XP) +1; 2 x an enemy taken "
            "Out of Action (2 XP each) +4") in lines
    assert "Mara Quill 1 XP: a rally from Broken (1 XP) +1" in lines
    assert seq.pending.id == f"xp:{ESCHER}"
    seq.answer("edit")
    assert seq.pending.id == f"xp:{ESCHER}:vexa-nightshade" and seq.pending.default == 5
    seq.answer(4)
    seq.answer(1)  # Mara as proposed
    assert seq.work.gang(ESCHER).fighter("vexa-nightshade").xp == 6 + 4
    assert seq.work.gang(ESCHER).fighter("mara-quill").xp == 1


def test_subplot_xp_goes_to_the_fighters_the_card_names():
    c = demo_campaign()
    o = BattleOutcome(battle=1, gangs=[ESCHER, GOLIATH], winner=ESCHER, fighters=[
        FighterOutcome(ESCHER, "vexa-nightshade"),
        FighterOutcome(ESCHER, "mara-quill", EndState.OUT_OF_ACTION),
        FighterOutcome(GOLIATH, "brakk-ironjaw")], rewards=[
        BankedReward(ESCHER, RewardKind.XP, 2, "Sub-plot: House Spies", fighter="*",
                     note="every fighter who survives without being taken Out of Action")])
    seq = S.make_seq(outcome=o, campaign=c)
    S.drive(seq, random.Random(2), until="receive-rewards")
    given = [(ch.fighter, ch.amount) for ch in seq.state.changes if isinstance(ch, Xp)]
    # Mara was taken Out of Action, Lys did not take part
    assert given == [("vexa-nightshade", 2)]
    gang = c.gang(ESCHER)
    whole = BankedReward(ESCHER, RewardKind.XP, 1, "x", fighter="*", note="every fighter in your gang")
    assert career.xp_recipients(gang, o.crew(ESCHER), whole) == [f.id for f in gang.fighters]


def test_grim_resolve_banks_its_later_rally_reward_only_when_it_happens():
    from munda_tui.rules.subplots import decks as subplots

    grim = subplots.card("unforgiving-underhive:J")
    assert [r.later for r in grim.rewards] == [False, True]


# --- Distribute Equipment: the weapon limit ------------------------------------------

from munda_tui.rules.core.model import Equipment  # noqa: E402


def at_distribute(campaign):
    seq = S.make_seq(outcome=S.demo_outcome(), campaign=campaign)
    rng = random.Random(5)
    while seq.step["id"] != "distribute-equipment":
        if seq.pending is not None:
            S.answer_default(seq, rng)
        else:
            seq.advance()
    return seq


def test_a_fighter_over_the_weapon_limit_cannot_leave_distribute_equipment():
    c = demo_campaign()
    vexa = c.gang(ESCHER).fighter("vexa-nightshade")  # Needle pistol, Stiletto sword
    vexa.equipment.append(Equipment("Heavy stubber", 130, weapon=True, unwieldy=True))
    seq = at_distribute(c)
    p = seq.pending
    assert p is not None and p.id == f"limit:{ESCHER}:vexa-nightshade:0"
    assert "carries 4 weapons: the limit is 3" in p.label
    with pytest.raises(pb.PostBattleError):
        seq.advance()
    seq.answer("stash")
    seq.answer("Needle pistol")  # Stiletto sword 1 + Heavy stubber (Unwieldy) 2 = 3
    assert seq.pending is None
    assert [i.name for i in seq.work.gang(ESCHER).fighter("vexa-nightshade").equipment] == [
        "Stiletto sword", "Mesh armour", "Heavy stubber"]


def test_an_arbitrator_override_is_recorded_in_the_report():
    c = demo_campaign()
    c.gang(ESCHER).fighter("vexa-nightshade").equipment.append(
        Equipment("Heavy stubber", 130, weapon=True, unwieldy=True))
    seq = at_distribute(c)
    seq.answer("override")
    assert seq.pending is None
    S.drive(seq, random.Random(5))
    assert ("Vexa Nightshade: keeps 4 weapons over the limit of 3 (Arbitrator override)"
            in seq.report())


def test_the_stash_cannot_give_a_fighter_a_fourth_weapon():
    c = demo_campaign()
    c.gang(ESCHER).stash.append(Equipment("Autopistol", 10, weapon=True))
    seq = at_distribute(c)
    seq.add_entry(f"give|{ESCHER}")
    seq.answer("Lasgun")
    vexa = next(o for o in seq.pending.options if o.id == "vexa-nightshade")
    assert vexa.enabled and "(2 weapons)" in vexa.label
    seq.answer("vexa-nightshade")
    seq.add_entry(f"give|{ESCHER}")
    seq.answer("Autopistol")
    vexa = next(o for o in seq.pending.options if o.id == "vexa-nightshade")
    assert not vexa.enabled and "(3 weapons)" in vexa.label and "weapon limit 3" in vexa.reason


def test_an_advancement_changes_the_profile_and_only_impossible_values_are_refused():
    c = demo_campaign()
    c.gang(ESCHER).fighter("mara-quill").xp = 6  # Mara Quill: WS 4+
    c.gang(GOLIATH).fighter("brakk-ironjaw").xp = 6  # Brakk Ironjaw: WS 2+
    o = BattleOutcome(battle=1, gangs=[ESCHER, GOLIATH], winner=ESCHER, fighters=[
        FighterOutcome(ESCHER, "vexa-nightshade"), FighterOutcome(GOLIATH, "brakk-ironjaw")])
    seq = S.make_seq(outcome=o, campaign=c)
    rng = random.Random(5)
    while seq.step["id"] != "advance-fighters":
        if seq.pending is not None:
            S.answer_default(seq, rng)
        else:
            seq.advance()
    seq.add_entry(f"advance|{GOLIATH}")
    seq.answer("brakk-ironjaw")
    seq.answer("characteristic")
    ws = next(o for o in seq.pending.options if o.id == "ws")
    assert not ws.enabled and ws.reason == "2+ is already the best it can be"
    seq.undo()
    seq.undo()
    seq.undo()  # the entry itself
    seq.add_entry(f"advance|{ESCHER}")
    seq.answer("mara-quill")
    seq.answer("characteristic")
    seq.answer("ws")
    assert seq.pending.maximum == 2  # 4+ can improve to 3+ or 2+
    with pytest.raises(pb.PostBattleError):
        seq.answer(3)  # 1+ is not a target number
    seq.answer(1)
    seq.answer(6)  # XP spent, entered from the player's book
    seq.answer(20)  # credits added to the fighter's cost
    mara = seq.work.gang(ESCHER).fighter("mara-quill")
    assert mara.characteristics["ws"] == 3  # +1 WS: 4+ -> 3+ (lower is better)
    assert (mara.xp, mara.advancements, mara.cost) == (0, 1, 70)


def test_captives_per_gang_and_the_captors_name():
    c = demo_campaign()
    lys = c.gang(ESCHER).fighter("lys-venom")
    career.set_status(lys, FighterStatus.CAPTURED, "Fate of the Fallen", 1, GOLIATH)
    assert career.captives(c, GOLIATH) == [(c.gang(ESCHER), lys)]
    assert career.captives(c, ESCHER) == []
    names = {g.id: g.name for g in c.gangs}
    assert career.status_text(lys, names) == "Captured by The Iron Skulls (Fate of the Fallen, battle 1)"


def test_medical_escort_in_the_same_sequence_leaves_no_stale_critical_text():
    # Lys Venom goes Out of Action: 61 Critical Injury; Sable Thorn takes her to the doc
    c = demo_campaign()
    c.gang(ESCHER).credits = 300
    o = BattleOutcome(battle=1, gangs=[ESCHER, GOLIATH], winner=ESCHER, fighters=[
        FighterOutcome(ESCHER, "sable-thorn"), FighterOutcome(GOLIATH, "brakk-ironjaw"),
        FighterOutcome(ESCHER, "lys-venom", EndState.OUT_OF_ACTION,
                       taken_out_by=f"{GOLIATH}/brakk-ironjaw")])
    seq = S.make_seq(outcome=o, campaign=c)
    rng = random.Random(5)
    while seq.step["id"] != "post-battle-actions":
        p = seq.pending
        if p is not None and p.kind == "roll" and p.id == f"injury:{ESCHER}:lys-venom":
            seq.answer({"faces": [6, 1], "entered": True})
        elif p is not None:
            S.answer_default(seq, rng)
        else:
            seq.advance()
    lys = seq.work.gang(ESCHER).fighter("lys-venom")
    assert lys.status is FighterStatus.CRITICAL
    seq.add_entry(f"act|{ESCHER}|sable-thorn")
    seq.answer("medical-escort")
    seq.answer("lys-venom")
    seq.answer({"faces": [3, 4], "entered": True})  # 2D6x10 = 70 credits
    seq.answer("pay")
    seq.answer({"faces": [5], "entered": True})  # 5-6: Full Recovery
    lys = seq.work.gang(ESCHER).fighter("lys-venom")
    assert lys.status is FighterStatus.RECOVERY
    assert lys.status_why == "Medical Escort: Full Recovery"
    assert [(i.name, i.effect) for i in lys.injuries] == [
        ("Critical Injury", "resolved: Medical Escort: Full Recovery, recovery")]
    assert "dies unless" not in lys.notes


def test_rules_export_has_the_roster_rules():
    from munda_tui.rules.export import export_all

    roster = export_all()["roster"]
    assert roster["weapon_limit"]["weapons"] == 3
    ws = next(c for c in roster["characteristics"] if c["id"] == "ws")
    assert ws == {"id": "ws", "label": "WS", "name": "Weapon Skill", "target_number": True,
                  "min": 2, "max": 6}
    assert roster["fighter_roles"]["types"]["road captain"] == "Leader"
    assert all("xp" not in e for e in roster["xp_award_events"])  # no invented numbers


@pytest.mark.parametrize("why", ["", "Recovery"])
def test_back_from_recovery_without_a_known_cause_says_it_once(why: str) -> None:
    # a fighter imported "in Recovery" (Yaktribe status Recovery) or set by hand: no cause
    # to name, so not "back from Recovery (Recovery)"
    from munda_tui.rules.core.model import BattleSummary

    c = demo_campaign()
    dak = c.gang(GOLIATH).fighter("dak-cinderfist")
    dak.status, dak.status_why, dak.status_battle = FighterStatus.RECOVERY, why, 1
    c.battles.append(BattleSummary(number=2, status="post-battle", gangs=[ESCHER, GOLIATH]))
    o2 = BattleOutcome(battle=2, gangs=[ESCHER, GOLIATH], winner=GOLIATH, fighters=[
        FighterOutcome(ESCHER, "vexa-nightshade"), FighterOutcome(GOLIATH, "brakk-ironjaw")])
    seq = pb.PostBattle(c, 2, pb.new_draft("gang-war"), o2)
    S.drive(seq, random.Random(3))
    lines = [line for line in seq.state.lines if "Dak Cinderfist is back" in line]
    assert lines == ["The Iron Skulls: Dak Cinderfist is back from Recovery after missing this battle"]
    report = pb.commit_table(seq)
    assert "(Recovery)" not in str(report)
