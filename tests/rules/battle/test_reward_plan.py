"""The reveal's reward plan: lines rolled, fixed, skipped or shown; its operations."""

from __future__ import annotations

from munda_tui.rules.battle.events import EndEvent

import pytest

from munda_tui.rules.battle.events import Battle, Reward, default_setup, start_event
from munda_tui.rules.core.dice import roll_faces
from munda_tui.rules.battle.reward_plan import DEFER, REVEAL, REWARD, RevealResult, RewardPlan
from munda_tui.rules.battle.watch import MET, Match

GANG = "iron-skulls"
VARRO = "iron-skulls/thug-varro"


@pytest.fixture
def state(demo_campaign):  # type: ignore[no-untyped-def]
    a, b = demo_campaign.gangs
    return Battle([start_event(default_setup(demo_campaign, 1, a.id, b.id), demo_campaign)]).state


def plan(state, card: str, mode: str = REVEAL, **kw) -> RewardPlan:  # type: ignore[no-untyped-def]
    return RewardPlan.for_match(Match(GANG, card, MET, **kw), state, mode=mode)


def test_rolled_rewards_a_penalty_and_an_effect_shown_not_banked(state) -> None:  # type: ignore[no-untyped-def]
    p = plan(state, "goliath:3")  # Stimmer Rampage: D6 Rep (win), -D3 Rep (loss), an effect
    assert p.text() == [
        "- D6 Reputation (if you win): to roll (D6)",
        "- -D3 Reputation (lost if you lose): to roll (D3)",
        "- effect (not banked): every fighter in your crew is under a stimm-slug stash "
        "until the end of the battle or a Serious Injury",
    ]
    assert p.hint() == ("{key:reveal.next}: roll the next reward (app or real dice)   {key:reveal.skip}: skip it   "
                        "{key:reveal.cancel}: cancel")
    ask = p.next()
    assert (ask.step, ask.dice, ask.target) == ("roll", "D6", "")
    assert ask.line is not None
    p.rolled(ask.line, roll_faces("D6", [4]), ask.target)
    assert p.skip()  # the penalty does not apply: they won
    assert p.text()[:2] == ["- 4 Reputation (if you win)  [D6 [4]]", "- skipped: -D3 Reputation (lost if you lose)"]
    assert not p.pending and not p.allows("skip") and p.hint() == "{key:reveal.next}: record   {key:reveal.cancel}: cancel"
    assert p.next().result == RevealResult(False, (Reward("reputation", 4, dice="D6", faces=(4,),
                                                                 note="if you win"),))


def test_a_penalty_is_banked_negative_and_the_log_skips_what_does_not_apply(state) -> None:  # type: ignore[no-untyped-def]
    p = plan(state, "goliath:3", skip=(0,))
    assert p.lines[0].skipped and not p.lines[1].skipped
    ask = p.next()
    assert ask.line is p.lines[1]
    p.rolled(ask.line, roll_faces("D3", [2]), "")
    assert p.banked().rewards == (Reward("reputation", -2, dice="D3", faces=(2,), note="lost if you lose"),)


def test_fixed_rewards_need_no_roll_and_the_upgrade_plans_them_again(state) -> None:  # type: ignore[no-untyped-def]
    p = plan(state, "escher:2", upgraded=False)  # Murder Run: 2 Gang Tactics, or 3
    assert p.has_upgrade and p.allows("upgrade") and not p.upgraded
    assert p.text() == ["Upgraded reward: no  ({key:reveal.upgrade} to switch)",
                        "- 2 Gang Tactics (randomly determined)"]
    p.upgrade()
    assert p.text() == ["Upgraded reward: yes  ({key:reveal.upgrade} to switch)",
                        "- 3 Gang Tactics (randomly determined)"]
    assert p.banked() == RevealResult(True, (Reward("gang_tactics", 3, dice="3",
                                                         note="randomly determined"),))
    undecided = plan(state, "escher:2")  # upgraded=None: the players decide
    assert "(the log cannot tell: {key:reveal.upgrade} to switch)" in undecided.text()[0]
    assert plan(state, "escher:2", upgraded=True).banked().rewards[0].amount == 3


def test_the_fighter_is_asked_when_the_log_does_not_say(state) -> None:  # type: ignore[no-untyped-def]
    p = plan(state, "escher:3", upgraded=False)  # Experimental Gas: 1 XP to the fighter
    assert p.text() == ["Upgraded reward: no  ({key:reveal.upgrade} to switch)", "- 1 XP to the fighter, or D3 if two "
                        "or more enemy fighters were Seriously Injured or taken Out of Action by "
                        "this fighter: to roll (1)"]
    ask = p.next()
    assert ask.step == "fighter" and ask.line is p.lines[0]
    p.choose_fighter(ask.line, VARRO)  # no dice: fixed at once
    assert p.lines[0].result == Reward("xp", 1, fighter=VARRO, dice="1")
    assert p.text()[1] == "- 1 XP to Thug Varro"
    known = plan(state, "escher:3", fighter=VARRO)
    assert known.banked().rewards == (Reward("xp", 1, fighter=VARRO, dice="1"),)
    enemy = plan(state, "escher:3", fighter="venom-sisters/vexa-nightshade")
    assert enemy.next().step == "fighter"  # not one of the gang's: asked


def test_each_time_the_log_shows_and_once_more(state) -> None:  # type: ignore[no-untyped-def]
    p = plan(state, "orlock:8", times=2)  # Outland Showdown: 1 Reputation, twice
    assert p.text() == ["- 1 Reputation", "- 1 Reputation"]
    assert p.allows("again") and p.again()
    assert len(p.banked().rewards) == 3
    shown_only = plan(state, "van-saar:6")  # an effect only: nothing to add once more
    assert not shown_only.allows("again") and not shown_only.again()
    assert shown_only.banked() == RevealResult(False, ())


def test_a_reward_for_a_later_event_is_not_banked_with_the_reveal(state) -> None:  # type: ignore[no-untyped-def]
    p = plan(state, "unforgiving-underhive:8", fighter=VARRO)  # A Bit of Payback
    assert [line.skipped for line in p.lines] == [False, True]
    assert p.banked().rewards == (Reward("xp", 1, fighter=VARRO, dice="1"),)
    p.again()  # + when the later event happens: the reward rolled once more
    assert p.banked().rewards == (Reward("xp", 1, fighter=VARRO, dice="1"),) * 2


def test_the_cards_own_roll_first(state) -> None:  # type: ignore[no-untyped-def]
    p = plan(state, "dark-influences:6", test="D6+1", test_target=6)  # Cold Trade
    assert p.text() == ["First the card's roll: D6+1, 6+ to gain the reward ({key:reveal.next}: roll, by "
                        "the app or real dice)"]
    assert p.hint() == "{key:reveal.next}: roll D6+1 (6+)   {key:reveal.cancel}: cancel"
    assert p.next().step == "test" and p.next().dice == "D6+1"
    p.tested(roll_faces("D6+1", [3]))
    assert not p.earned and not p.allows("earned")
    assert p.text() == ["Roll D6+1 [3] = 4: not 6+, no reward"]
    assert p.next().result == RevealResult(False, ())
    won = plan(state, "dark-influences:6", test="D6+1", test_target=6)
    won.tested(roll_faces("D6+1", [5]))
    assert won.text()[0] == "Roll D6+1 [5] = 6: 6+, the reward is gained"
    assert won.banked().rewards == (Reward("gang_tactics", 1, dice="1", note="random Gang Tactics card"),)


def test_not_earned_and_deferred(state) -> None:  # type: ignore[no-untyped-def]
    p = plan(state, "cawdor:9", mode=REWARD, earned=None)  # March to the Grave, at the end
    assert p.text() == ["Earned? The log cannot tell: {key:reveal.earned} if the next reward's condition "
                        "was not met",
                        "- D3 Reputation: to roll (D3)"]
    p.toggle_earned()
    assert p.text()[1] == "- not earned: D3 Reputation  ({key:reveal.earned} to change)"
    assert not p.allows("skip") and p.allows("earned")
    assert p.next().result == RevealResult(False, ())
    p.toggle_earned()  # taken back: to roll again
    assert p.text()[1] == "- D3 Reputation: to roll (D3)"
    logged = plan(state, "cawdor:9", mode=REWARD, earned=False)  # the log: not earned
    assert logged.text() == ["Reward: not earned ({key:reveal.earned} to change)"]
    assert not logged.allows("skip") and not logged.allows("again")
    assert logged.next().result == RevealResult(False, ())
    d = RewardPlan.for_match(Match(GANG, "escher:2", MET, upgraded=True), state, mode=DEFER,
                             later="in the post-battle sequence (lasting injuries step)")
    assert d.text() == ["Reward: walked in the post-battle sequence (lasting injuries step) - "
                        "2 Gang Tactics, or 3 if by Melee or Versatile weapons (randomly "
                        "determined)"]
    assert not any(d.allows(a) for a in ("upgrade", "earned", "skip", "again"))
    assert d.next().result == RevealResult(True, ())
    assert "at the end of the battle" in plan(state, "cawdor:9", mode=DEFER).text()[0]


def test_the_upgrade_stays_once_its_dice_are_rolled(state) -> None:  # type: ignore[no-untyped-def]
    """QA walk: Attention Seeker's D3 rolled 3, g dropped it (1 Reputation), g again asked
    for a fresh D3: a re-roll with no record. Once a reward's dice are rolled the upgrade
    stays as it was rolled."""
    p = plan(state, "escher:Q")  # Attention Seeker: 1 Reputation, or D3 (Melee/Versatile)
    assert p.allows("upgrade")
    p.upgrade()
    ask = p.next()
    assert (ask.step, ask.dice) == ("roll", "D3") and ask.line is not None
    p.rolled(ask.line, roll_faces("D3", [3]), ask.target)
    assert p.dice_rolled and not p.allows("upgrade")
    p.upgrade()  # refused: the rolled 3 stays
    assert p.upgraded and p.banked().rewards[0].amount == 3
    assert p.text()[0] == "Upgraded reward: yes  (its dice are rolled)"
    assert "to switch" not in " ".join(p.text())


def test_not_earned_decides_one_reward_and_a_roll_made_stays(state) -> None:  # type: ignore[no-untyped-def]
    """Issue 26.6: n on Stimmer Rampage's "-D3 if you lose", after its "D6 if you win" was
    rolled, threw the rolled D6 away with it. One key decides one reward."""
    p = plan(state, "goliath:3", mode=REWARD, earned=None)
    ask = p.next()
    assert ask.line is p.lines[0]
    p.rolled(ask.line, roll_faces("D6", [5]), ask.target)
    assert p.allows("earned")
    p.toggle_earned()  # the -D3: not earned
    assert p.text()[1:3] == ["- 5 Reputation (if you win)  [D6 [5]]",
                             "- not earned: -D3 Reputation (lost if you lose)  ({key:reveal.earned} to change)"]
    assert p.next().result == RevealResult(False, (Reward("reputation", 5, dice="D6", faces=(5,),
                                                          note="if you win"),))


def test_a_reward_the_log_decided_is_not_asked(demo_campaign) -> None:  # type: ignore[no-untyped-def]
    """Issue 26.6: 'If you lose, your gang's Reputation is decreased by D3' was still asked
    when the log said the gang won (and the D6 'if you win' when it lost)."""
    from munda_tui.rules.battle.events import Event

    a, b = demo_campaign.gangs
    setup = default_setup(demo_campaign, 1, a.id, b.id)

    def ended(winner: str) -> RewardPlan:
        st = Battle([start_event(setup, demo_campaign), EndEvent(winner=winner)]).state
        return RewardPlan.for_match(Match(GANG, "goliath:3", MET), st)

    won = ended(GANG)
    assert won.text()[1] == "- not earned (your gang won): -D3 Reputation (lost if you lose)"
    assert [line.spec.dice for line in won.pending] == ["D6"]
    lost = ended(a.id if a.id != GANG else b.id)
    assert lost.text()[0] == "- not earned (your gang lost): D6 Reputation (if you win)"
    assert [line.spec.dice for line in lost.pending] == ["D3"]
    draw = ended("")
    assert draw.pending == [] and draw.banked().rewards == ()
    still = plan(Battle([start_event(setup, demo_campaign)]).state, "goliath:3")
    assert len(still.pending) == 2  # the battle goes on: both asked
