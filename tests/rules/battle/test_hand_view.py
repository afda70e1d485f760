"""rules.hand_view: one gang's hand as its owner may see it, built from that gang only."""

from __future__ import annotations

from munda_tui.rules.battle.events import PhaseEvent, RevealEvent

from munda_tui.rules.battle.events import Event
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.battle.hand_view import NotInBattle, battle_hand_views, hand_view, open_battle
from munda_tui.rules.core.model import BattleSummary
from munda_tui.rules.battle.watch import HandWatch

from phone_support import G, THREE_DOWN, V, battle, views

import pytest


def test_a_view_holds_only_its_gangs_cards_with_text_choice_and_status() -> None:
    c, setup, b = battle()
    vs = views(setup, b)
    mine = vs[V]
    assert [card.card for card in mine.cards] == ["escher:2", "delaque:10"]
    assert all(card.card not in ("goliath:5", "dark-influences:A") for card in mine.cards)
    murder, dead = mine.cards
    assert murder.name == "Murder Run" and murder.text.startswith("Reveal this sub-plot if")
    assert murder.status == "watching" and not murder.alert
    assert dead.choice == "Secretly choose a number: 8"
    assert mine.player == "Ana" and mine.gang_name == "The Venom Sisters"
    assert vs[G].alerts == frozenset()


def test_a_met_card_alerts_and_a_revealed_one_does_not() -> None:
    c, setup, b = battle()
    for ev in THREE_DOWN:
        b.log_event(ev)
    mine = views(setup, b)[V]
    assert mine.alerts == {"escher:2", "delaque:10@0"}  # Dead of Night: at the start
    assert "round 1" in mine.cards[0].why
    b.log_event(RevealEvent(gang=V, card="escher:2"))
    mine = views(setup, b)[V]
    assert mine.alerts == {"delaque:10@0"} and mine.cards[0].revealed


def test_a_reminder_due_alerts_with_a_new_key_at_each_timing() -> None:
    c, setup, b = battle()  # Dead of Night, secret number 8
    dead = views(setup, b)[V].cards[1]
    assert dead.alert and dead.alert_key == "delaque:10@0"
    assert dead.reminder == "check this card now, at the start of the battle (the first event)"
    for rnd in range(2, 9):
        b.log_event(PhaseEvent(round=rnd, phase="priority"))
    dead = views(setup, b)[V].cards[1]
    assert dead.alert_key == f"delaque:10@{len(b.log) - 1}"
    assert "the round whose number the owner chose" in dead.reminder
    assert views(setup, b)[G].alerts == frozenset()  # the other hand knows nothing of it


def test_the_other_gangs_matches_are_never_read() -> None:
    c, setup, b = battle()
    run = HandWatch({s.gang: list(s.hand) for s in setup.sides})
    for ev in b.log:
        run.feed(ev)
    only_g = [m for m in run.matches() if m.gang == G]
    assert hand_view(setup, b.state, only_g, V).cards == ()


def test_fighter_choices_show_names() -> None:
    c, setup, b = battle(hands={V: ["delaque:8"], G: []},
                         choices={V: {"delaque:8": "thug-varro"}})
    assert views(setup, b)[V].cards[0].choice == "Secretly choose an enemy fighter: Thug Varro"


def test_views_from_saved_battle_data_and_the_open_battle() -> None:
    c, setup, b = battle()
    for ev in THREE_DOWN:
        b.log_event(ev)
    c.battles.append(BattleSummary(1, gangs=[V, G], status="battle"))
    assert open_battle(c) == 1
    vs = battle_hand_views(c, 1, {"setup": setup.to_data(), "battle": b.to_data()})
    assert vs[V].alerts == {"escher:2", "delaque:10@0"}
    c.battles[-1].status = "post-battle"
    assert open_battle(c) is None
    with pytest.raises(NotInBattle):
        battle_hand_views(c, 1, {"setup": setup.to_data()})
    assert open_battle(demo_campaign()) in (None, *[x.number for x in demo_campaign().battles])


def test_a_choose_crew_card_not_revealed_then_says_its_moment_has_passed() -> None:
    """Contempt for the Weak ('Reveal this card during the Choose Crew step') kept hidden
    at Choose Crew: the phone view says its moment has passed, never 'check it now'."""
    c, setup, b = battle(hands={V: ["goliath:J"], G: []})
    card = views(setup, b)[V].cards[0]
    assert card.status_text == "Its moment was at Choose Crew: that time has passed"
    assert "check this card now" not in card.reminder
    assert "its moment (Choose Crew) has passed" in card.reminder
    c, setup, b = battle(hands={V: ["goliath:J"], G: []}, choices={V: {"goliath:J": "2"}})
    assert "Choose Crew" not in views(setup, b)[V].cards[0].status_text


def test_a_card_shown_before_round_1_is_not_to_be_revealed_again() -> None:
    """Issue 26.7: the phone told its owner "reveal it when it happens" for Martyrdom,
    shown to both players at Choose Crew."""
    c, setup, b = battle(hands={V: ["cawdor:6"], G: []}, choices={V: {"cawdor:6": "mara-quill"}})
    card = views(setup, b)[V].cards[0]
    assert card.status_text == "Shown to both before round 1: its reward is walked on the tracker when earned"
    assert "reveal" not in card.status_text.lower()
    c, setup, b = battle(hands={V: ["cawdor:6"], G: []})  # not walked yet: to reveal then
    assert "Shown to both" not in views(setup, b)[V].cards[0].status_text
