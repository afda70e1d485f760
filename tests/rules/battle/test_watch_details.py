"""The details of the cards the tracker decides (issue 12): upgrades, rewards the log says
do not apply, rolls before a reward, rewards walked at the end; and the reminders of the
cards it cannot decide, shown as the discreet marker on the owner's side only.

Each test quotes the words of the card it reads (seed 000_4db11f9c260951bd.txt)."""

from __future__ import annotations

from munda_tui.rules.battle.events import FailedTestEvent, RevealEvent, TacticEvent

import pytest

from munda_tui.rules.subplots import decks as subplots
from munda_tui.rules.battle.events import ENGAGED, OUT_OF_ACTION, PINNED, SERIOUSLY_INJURED, Event
from munda_tui.rules.battle.watch import (
    MET,
    MISSED,
    TIMINGS,
    WATCHING,
    HandWatch,
    markers,
    reminder_table,
    watch,
    watcher_table,
)
from tests.rules.battle.test_watch import (
    _WITH_JUVE,
    activate,
    cond,
    down,
    end,
    fw,
    k,
    new_round,
    ooa,
    phase,
    rec,
    start,
    state,
)


def one(card, events, facts=None, first=None):
    (m,) = watch({"us": [card]}, [first or start(), *events], facts=facts)
    return m


# --- fixed readings --------------------------------------------------------------------


@pytest.mark.parametrize("card", ["cawdor:7", "orlock:6"])
def test_only_a_single_fighter_standing_means_one_not_none(card) -> None:
    """'If you won the battle with only a single friendly fighter Standing and Active'."""
    text = subplots.card(card).text
    assert "only a single friendly fighter Standing and Active" in text
    others = ["ul", "uc", "u2", "u3", "u4"]
    single = one(card, [*(ooa(f) for f in others), end("us")])
    assert single.status == MET and single.upgraded is True
    none = one(card, [*(ooa(f) for f in others), state("u1", PINNED), end("us")])
    assert none.status == MET and none.upgraded is False  # won with 0 Standing and Active
    two = one(card, [*(ooa(f) for f in others[1:]), end("us")])
    assert two.status == MET and two.upgraded is False


def test_chemical_solutions_sees_a_flesh_wound_from_a_recovery_test() -> None:
    """'Reveal when one of your fighters suffers a Flesh Wound for the first time': a
    Recovery test's Flesh Wound result is one."""
    m = one("unforgiving-underhive:K", [down("u1"), rec("u1", PINNED)])
    assert m.status == MET and "Recovery" in m.why
    assert one("unforgiving-underhive:K", [down("u1"), rec("u1", SERIOUSLY_INJURED)]).status != MET
    assert one("unforgiving-underhive:K", [down("t1"), rec("t1", PINNED)]).status != MET


def test_cold_trade_counts_reaction_attacks_and_rolls_its_d6_first() -> None:
    """'takes an enemy Out of Action in melee or with a Coup de Grace. Roll a D6 and add 1
    for each enemy previously taken Out of Action in melee or with Coup de Grace. If the
    modified roll is 6+ ... draw a random Gang Tactics card.'"""
    m = one("dark-influences:6", [ooa("t1", by="u1", action="reaction")])
    assert m.status == MET and (m.test, m.test_target) == ("D6", 6)
    later = one("dark-influences:6", [ooa("t1", by="u1", action="fight"),
                                      ooa("t2", by="u2", action="coup_de_grace")])
    assert later.test == "D6+1"
    assert one("dark-influences:6", [ooa("t1", by="u1", action="shoot")]).test == ""


def test_noble_whims_cruel_and_unusual_counts_only_enemies_your_fighters_broke() -> None:
    """'If your fighters cause at least two enemy fighters to become Broken ... If three or
    more fighters were Broken, gain D6x10 credits instead.'"""
    card = "noble-whims:5"
    m = one(card, [cond("t1", by="u1"), cond("t2", by="u2"), cond("t3", by="u3"), end()])
    assert m.status == MET and m.upgraded is True and m.earned is True
    # Broken by their own side's doing: not caused by your fighters
    assert one(card, [cond("t1", by="u1"), cond("t2", by="t3"), end()]).status == MISSED
    # Broken with no cause logged: the log cannot tell - asked
    m = one(card, [cond("t1", by="u1"), cond("t2"), end()])
    assert m.status == MET and m.earned is None and "no cause logged" in m.why


# --- new cards: upgrades and rewards the log decides -----------------------------------


def test_experimental_gas_upgrade_two_enemies_downed_by_that_fighter() -> None:
    """'If two or more enemy fighters were Seriously Injured or taken Out of Action by this
    fighter, they gain D3 XP instead.'"""
    gas = down("t1", by="u1", action="shoot", traits=["Gas"])
    m = one("escher:3", [down("t2", by="u1", action="fight"), gas])
    assert m.upgraded is True and m.fighter == "us/u1"
    assert one("escher:3", [down("t2", by="u2", action="fight"), gas]).upgraded is False


def test_a_slow_poison_upgrade_for_a_champion_and_a_recovered_fighter_is_safe() -> None:
    """'If the enemy fighter was a Champion or Leader then ... 2D6x10 credits instead.'"""
    m = one("escher:8", [down("tc", traits=["Gas"]), rec("tc", OUT_OF_ACTION)])
    assert m.status == MET and m.upgraded is True
    recovered = [down("t1", traits=["Gas"]), rec("t1", PINNED), down("t1", traits=["Melee"]),
                 rec("t1", OUT_OF_ACTION)]
    assert one("escher:8", recovered).status != MET


def test_attention_seeker_upgrade_with_melee() -> None:
    """'If the fighter Seriously Injured or took Out of Action at least three enemy fighters
    using a weapon with the Melee or Versatile trait, your gang gains D3 Reputation'."""
    melee = [down("t1", by="u1", traits=["Melee"]), down("t2", by="u1", traits=["Versatile"]),
             ooa("t3", by="u1", traits=["Melee"]), end()]
    m = one("escher:Q", melee)
    assert m.upgraded is True and m.fighter == "us/u1"
    mixed = [*melee[:2], ooa("t3", by="u1", traits=["Blaze"]), end()]
    assert one("escher:Q", mixed).upgraded is False
    # takedowns with no attacker logged cannot be given to any fighter
    assert one("escher:Q", [down("t1"), down("t2"), down("t3"), end()]).status == MISSED


def test_burning_with_energy_upgrade_for_a_leader_or_champion() -> None:
    """'If any of the fighters taken Out of Action in this way were a Leader or Champion,
    you gain two gang tactics instead.'"""
    base = [ooa("t1", traits=["Plasma"]), ooa("t2", traits=["Plasma"])]
    m = one("van-saar:K", [*base, ooa("tc", traits=["Plasma"]), phase(1, "action"), phase(1, "end")])
    assert m.status == MET and m.upgraded is True
    m = one("van-saar:K", [*base, ooa("t3", traits=["Plasma"]), phase(1, "action"), phase(1, "end")])
    assert m.upgraded is False
    # before the End phase it is not revealed yet
    assert one("van-saar:K", [*base, ooa("t3", traits=["Plasma"])]).status == WATCHING


def test_hardman_reward_from_the_state_after_the_hit() -> None:
    """'If the fighter is still on the battlefield after working out the effects of the
    hit, your gang gains 1 Reputation. If the fighter is still Standing and Active, they
    gain D3 Reputation instead.'"""
    m = one("orlock:A", [fw("u1", 2, by="t1"), phase(1, "action")])
    assert m.earned is True and m.upgraded is True
    m = one("orlock:A", [fw("u1", 2, by="t1"), state("u1", PINNED), phase(1, "action")])
    assert m.earned is True and m.upgraded is False
    m = one("orlock:A", [fw("u1", 3, by="t1"), ooa("u1", by="t1"), phase(1, "action")])
    assert m.earned is False
    # a later, separate hit does not change the reward of the first
    m = one("orlock:A", [fw("u1", 2, by="t1"), phase(1, "action"), ooa("u1", by="t2")])
    assert m.earned is True and m.upgraded is True


def test_sumptown_shakedown_once_per_coup_de_grace_walked_at_the_end() -> None:
    """'For the remainder of the battle, whenever a friendly fighter performs the Coup De
    Grace (Simple) action ... D3x10 credits are added to your gang's Stash.'"""
    m = one("orlock:2", [ooa("t1", by="u1", action="coup_de_grace"),
                         ooa("t2", by="u3", action="coup_de_grace"),
                         ooa("t3", by="u3", action="fight")])
    assert m.status == MET and m.times == 2 and m.reward_at == "end"


def test_meat_for_the_machine_extra_reputation_needs_three_falls() -> None:
    """'If during the game three or more enemies fall into pitfalls or are taken Out of
    Action by falls, gain an additional D3 Reputation.'"""
    m = one("industrial-sabotage:10", [ooa("t1", by="u1", action="fall"), end()])
    assert m.status == MET and m.skip == (1,) and m.reward_at == "end"
    m = one("industrial-sabotage:10", [ooa("t1", by="u1", action="fall"),
                                       ooa("t2", action="fall"), ooa("t3", action="fall"), end()])
    assert m.skip == ()


def test_juve_cull_without_juves_takes_the_three_cheapest() -> None:
    """'If the opponent has no Juves, reveal it if you take Out of Action the three fighters
    with the lowest Credits value.'"""
    costs = {"tl": 120, "tc": 90, "t1": 50, "t2": 45, "t3": 60, "t4": 80}
    first = start(costs=costs)
    m = one("industrial-sabotage:Q", [ooa("t1", by="u1"), ooa("t2", by="u1"),
                                      ooa("t3", by="u2")], first=first)
    assert m.status == MET
    m = one("industrial-sabotage:Q", [ooa("t1", by="u1"), ooa("t2", by="u1"),
                                      ooa("t4", by="u2")], first=first)
    assert m.status == WATCHING
    # no Credits values in the log: the log cannot tell which are the cheapest
    assert one("industrial-sabotage:Q", [ooa("t1"), ooa("t2"), ooa("t3")]).status == WATCHING
    # with a Juve, only the Juves count
    assert one("industrial-sabotage:Q", [ooa("tj", by="u1")],
               first=start(roster=_WITH_JUVE)).status == MET


def test_sky_stomp_rewards_the_log_decides() -> None:
    """'If the enemy fighter was Seriously Injured or taken Out of Action, your fighter
    gains +1 XP. In addition, if your fighter survived the fall ... an additional +1 XP.'"""
    m = one("goliath:9", [down("t1", by="u1", action="fall"), phase(1, "action")])
    assert m.status == MET and m.skip == () and m.fighter == "us/u1"
    m = one("goliath:9", [fw("t1", by="u1", action="fall"), down("u1"), phase(1, "action")])
    assert m.skip == (0, 1)


def test_impressive_combo_upgrade_three_wounded() -> None:
    """'If three or more enemy fighters were wounded by the Champion or Leader using a
    weapon with the Melee trait, then your gang gains D3 Reputation instead.'"""
    hits = [fw(t, by="ul", action="fight", traits=["Melee"]) for t in ("t1", "t2", "t3")]
    m = one("goliath:10", [activate("ul"), *hits])
    assert m.status == MET and m.upgraded is True
    m = one("goliath:10", [activate("ul"), *hits[:2], new_round(2), hits[2]])
    assert m.upgraded is False
    # a Ganger is not a Champion or Leader
    assert one("goliath:10", [fw(t, by="u1", traits=["Melee"]) for t in ("t1", "t2")]).status != MET


def test_eyes_in_the_dark_reward_asked_on_a_win() -> None:
    """'If your gang wins the scenario without any of its fighters ever gaining a revealed
    token' - tokens are not in the log: asked on a win, not earned on a loss."""
    dark = {"pitch_black": True}
    assert one("delaque:5", [end("us")], facts=dark).earned is None
    assert one("delaque:5", [end("them")], facts=dark).earned is False
    assert one("delaque:5", [], facts=dark).reward_at == "end"


# --- reminders: the cards the tracker cannot decide -------------------------------------


#: a log reaching each timing (after the start event), with "us" owning the card
TIMING_LOGS = {
    "battle_start": [],
    "round_start": [new_round(2)],
    "end_phase": [phase(1, "action"), phase(1, "end")],
    "battle_end": [end()],
    "own_activation": [activate("u1")],
    "enemy_activation": [activate("t1")],
    "own_takedown": [down("u1")],
    "enemy_takedown": [down("t1")],
    "own_attack": [fw("t1", by="u1")],
    "enemy_attack": [fw("u1", by="t1")],
    "own_recovery": [down("u1"), rec("u1", SERIOUSLY_INJURED)],
    "test_failed": [FailedTestEvent(fighter=k("t1"), test="willpower")],
    "own_tactic": [TacticEvent(gang="us")],
}


def test_every_card_is_watched_or_has_a_reminder_timing() -> None:
    watched, timed = watcher_table(), reminder_table()
    for c in subplots.all_cards():
        assert (c.id in watched) != (c.id in timed), c.id
        for t in timed.get(c.id, ()):
            assert t in TIMINGS, (c.id, t)


@pytest.mark.parametrize("card", sorted(reminder_table()))
def test_reminder_marker_at_its_timing_on_the_owner_side_only(card) -> None:
    timings = [t for t in reminder_table()[card] if t in TIMING_LOGS]
    if not timings:
        assert reminder_table()[card] in (["post_battle"], ["battle_start", "chosen_round"])
        return
    timing = timings[-1]
    log = [start(), *TIMING_LOGS[timing]]
    mine = {"us": [card], "them": ["escher:2"]}  # the other hand: a watched card, not met
    assert markers(mine, log) == {"us": True, "them": False}
    # the same log with the card in the other hand: only the other side shows it
    theirs = {"us": ["escher:2"], "them": [card]}
    assert markers(theirs, log)["us"] is False
    # once the owner has looked, the marker is off until the timing comes again
    run = HandWatch({"us": [card]})
    for ev in log:
        run.feed(ev)
    seen = {"us": [r.key for r in run.reminders()]}
    assert markers(mine, log, seen=seen)["us"] is False


def test_round_start_reminder_comes_back_each_round_and_not_after_a_reveal() -> None:
    hand = {"us": ["delaque:A"]}  # Host of Shadows: "at the beginning of a round"
    log = [start(), phase(1, "action")]
    assert markers(hand, log)["us"] is False
    log.append(new_round(2))
    run = HandWatch(hand)
    for ev in log:
        run.feed(ev)
    seen = {"us": [r.key for r in run.reminders()]}
    assert markers(hand, log, seen=seen)["us"] is False
    log.append(new_round(3))
    assert markers(hand, log, seen=seen)["us"] is True
    log.append(RevealEvent(gang="us", card="delaque:A"))
    assert markers(hand, log)["us"] is False


def test_dead_of_night_reminder_only_in_the_round_chosen_secretly() -> None:
    """'secretly choose a number between 6 and 12. If, when the round number matches the
    number chosen ...'"""

    class Side:
        gang, subplot_choices = "us", {"delaque:10": "7"}

    class Setup:
        pitch_black, sides = False, [Side()]

    hand = {"us": ["delaque:10"]}
    log = [start(), phase(1, "action")] + [new_round(r) for r in range(2, 7)]
    run = HandWatch(hand, facts=Setup())
    for ev in log:
        run.feed(ev)
    (r,) = run.reminders()
    assert r.timing == "battle_start"  # not reminded in rounds 2-6
    seen = {"us": [r.key]}
    assert markers(hand, log, Setup(), seen)["us"] is False
    log.append(new_round(7))
    assert markers(hand, log, Setup(), seen)["us"] is True
    run.feed(log[-1])
    assert run.reminders()[0].timing == "chosen_round"


def test_marker_answer_for_one_gang_never_reads_the_other_hand() -> None:
    log = [start(), down("t1"), down("t2"), down("t3"), activate("t1")]
    for theirs in ([], ["escher:2"], ["delaque:9"], ["escher:2", "delaque:9", "goliath:4"]):
        got = markers({"us": ["escher:7"], "them": theirs}, log)
        assert got["us"] is False


def test_a_manual_card_rewarded_at_the_end_is_walked_then_and_asked() -> None:
    """Superior Tools: 'If your gang wins the game, the test is considered a success and
    your gang gains D3 Reputation' - revealed at the start, its reward waits for the end,
    and the log cannot tell: earned / not earned is asked."""
    log = [start(), RevealEvent(gang="us", card="industrial-sabotage:3")]
    (m,) = watch({"us": ["industrial-sabotage:3"]}, log)
    assert m.reward_at == "end" and not m.reward_due
    (m,) = watch({"us": ["industrial-sabotage:3"]}, [*log, end("us")])
    assert m.reward_due and m.earned is None
    # a card whose reward the post-battle sequence walks is not due at the tracker's end
    (m,) = watch({"us": ["noble-whims:K"]}, [start(), end(), RevealEvent(gang="us",
                                                                    card="noble-whims:K")])
    assert not m.reward_due
    # a card with nothing later to decide is rewarded at its reveal
    (m,) = watch({"us": ["delaque:A"]}, [start()])
    assert m.reward_at == "reveal" and m.earned is True
