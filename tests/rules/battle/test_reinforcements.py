"""The Reinforcements step of the End phase (Core Rules p142): who draws in what order,
when the draws stop, the D6 for 9"/12", and the events that record it."""

from __future__ import annotations

from munda_tui.rules.battle.events import PhaseEvent, PriorityEvent, ReinforcementEvent

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from munda_tui.rules.battle.events import (
    END,
    Battle,
    BattleError,
    Event,
    arrival_event,
    default_setup,
    describe,
    draw_at_random,
    draw_order,
    due_event,
    due_roll_needed,
    needs_priority,
    next_to_draw,
    reinforcements_due_in,
    start_event,
    reinforcement_step_due,
    still_due,
)
from munda_tui.rules.core.dice import roll_faces
from munda_tui.rules.prebattle.scenario import reinforcement_distance

V, G = "venom-sisters", "iron-skulls"


@pytest.fixture
def setup(demo_campaign):
    s = default_setup(demo_campaign, 1, V, G)
    s.reinforcements_each_round, s.reinforcements_from_round = "D3", 1
    for side, n in zip(s.sides, (2, 3)):
        side.reinforcements = side.crew[-n:]
        side.crew = side.crew[:-n]
    return s


@pytest.fixture
def battle(demo_campaign, setup) -> Battle:
    return Battle([start_event(setup, demo_campaign)])


def to_end(b: Battle, priority: str = "") -> None:
    if priority:
        b.log_event(PriorityEvent(gang=priority))
    b.log_event(PhaseEvent(round=b.state.round, phase="action"))
    b.log_event(PhaseEvent(round=b.state.round, phase=END))


# --- order -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("due", "decks", "order"),
    [
        ({"a": 2, "b": 2}, {"a": 5, "b": 5}, ["a", "b", "a", "b"]),  # alternate from Priority
        ({"a": 3, "b": 1}, {"a": 5, "b": 5}, ["a", "b", "a", "a"]),  # b met its due: a goes on
        ({"a": 1, "b": 3}, {"a": 5, "b": 5}, ["a", "b", "b", "b"]),
        ({"a": 3, "b": 3}, {"a": 1, "b": 2}, ["a", "b", "b"]),  # decks run out first
        ({"a": 2, "b": 2}, {"a": 0, "b": 2}, ["b", "b"]),  # an empty deck never draws
        ({"a": 0, "b": 0}, {"a": 4, "b": 4}, []),
    ],
)
def test_draw_order_alternates_from_the_priority_winner_and_stops(due, decks, order) -> None:
    assert draw_order(["a", "b"], due, decks) == order


def test_the_other_priority_winner_draws_first() -> None:
    assert draw_order(["b", "a"], {"a": 2, "b": 1}, {"a": 5, "b": 5}) == ["b", "a", "a"]


def test_next_to_draw_follows_the_log(battle: Battle, setup) -> None:
    to_end(battle, priority=G)
    assert next_to_draw(battle.state) == "" and due_roll_needed(battle.state, setup) == [G, V]
    battle.log_event(due_event(G, 1, roll_faces("D3", [1])))
    battle.log_event(due_event(V, 1, roll_faces("D3", [3])))  # V's deck holds only 2
    assert (still_due(battle.state, G), still_due(battle.state, V)) == (1, 2)
    drawn = []
    rng = random.Random(4)
    while (gang := next_to_draw(battle.state)):
        drawn.append(gang)
        battle.log_event(arrival_event(draw_at_random(battle.state, gang, rng), 4))
    assert drawn == [G, V, V]  # Iron Skulls won Priority; V goes on alone until out of cards
    assert battle.state.sides[V].reserves == [] and len(battle.state.sides[G].reserves) == 2
    assert battle.state.sides[G].arrived == 1 and battle.state.sides[V].arrived == 2


def test_undo_gives_the_draw_back(battle: Battle) -> None:
    to_end(battle, priority=V)
    battle.log_event(due_event(V, 1, roll_faces("D3", [2])))
    battle.log_event(due_event(G, 1, roll_faces("D3", [2])))
    battle.log_event(arrival_event(battle.state.sides[V].reserves[0], 5))
    assert next_to_draw(battle.state) == G
    battle.undo()
    assert next_to_draw(battle.state) == V and battle.state.sides[V].arrived == 0


# --- when the step is due ----------------------------------------------------------------


def test_step_opens_in_the_end_phase_of_a_round_with_reinforcements_due(battle, setup) -> None:
    assert reinforcements_due_in(setup, 1)
    assert not reinforcement_step_due(battle.state, setup)  # Priority phase
    to_end(battle)
    assert reinforcement_step_due(battle.state, setup) and needs_priority(battle.state, setup)
    battle.log_event(PriorityEvent(gang=V))
    assert not needs_priority(battle.state, setup)
    setup.reinforcements_from_round = 2
    assert not reinforcement_step_due(battle.state, setup)  # not before the Crew table's round
    setup.reinforcements_from_round, setup.reinforcements_each_round = 1, ""
    assert not reinforcement_step_due(battle.state, setup)  # no Reinforcements rule


def test_priority_from_an_earlier_round_is_asked_again(battle, setup) -> None:
    to_end(battle, priority=V)
    battle.log_event(PhaseEvent(round=2, phase="priority"))
    to_end(battle)
    assert needs_priority(battle.state, setup)


def test_one_gang_with_a_deck_needs_no_priority(demo_campaign, setup) -> None:
    setup.sides[0].crew += setup.sides[0].reinforcements
    setup.sides[0].reinforcements = []
    b = Battle([start_event(setup, demo_campaign)])
    to_end(b)
    assert due_roll_needed(b.state, setup) == [G] and not needs_priority(b.state, setup)


def test_step_closes_when_every_due_draw_is_made(battle, setup) -> None:
    to_end(battle, priority=V)
    battle.log_event(due_event(V, 1, roll_faces("D3", [1])))
    battle.log_event(due_event(G, 1, roll_faces("D3", [1])))
    for gang in (V, G):
        battle.log_event(arrival_event(battle.state.sides[gang].reserves[0], 3))
    assert not reinforcement_step_due(battle.state, setup)


def test_due_event_only_in_the_end_phase_and_once_a_round(battle) -> None:
    with pytest.raises(BattleError, match="End phase"):
        battle.log_event(due_event(V, 1, roll_faces("D3", [2])))
    to_end(battle)
    battle.log_event(due_event(V, 1, roll_faces("D3", [2])))
    with pytest.raises(BattleError, match="already recorded"):
        battle.log_event(due_event(V, 1, roll_faces("D3", [1])))
    with pytest.raises(BattleError, match="End phase"):
        battle.log_event(due_event(G, 2, roll_faces("D3", [1])))


# --- the D6 ----------------------------------------------------------------------------


@pytest.mark.parametrize(("face", "inches"), [(1, 12), (2, 12), (3, 9), (4, 9), (5, 9), (6, 9)])
def test_the_d6_by_face(face: int, inches: int) -> None:
    assert reinforcement_distance(face) == inches
    ev = arrival_event("g/f", face)
    assert (ev.dice, ev.faces, ev.distance) == ("D6", (face,), inches)


def test_arrival_roll_is_checked_and_described(battle) -> None:
    key = battle.state.sides[G].reserves[0]
    with pytest.raises(BattleError, match="12"):
        battle.log_event(ReinforcementEvent(fighter=key, dice="D6", faces=(2,), distance=9))
    with pytest.raises(BattleError, match="one D6"):
        battle.log_event(ReinforcementEvent(fighter=key, dice="D6", faces=(7,), distance=9))
    with pytest.raises(BattleError):
        arrival_event(key, 0)
    battle.log_event(arrival_event(key, 2))
    assert describe(battle.log[-1], battle.state) == (
        'Zorn Blackslag arrives (Reinforcement, D6 2: 12" from enemies)')
    assert describe(due_event(G, 1, roll_faces("D3", [2])), battle.state) == (
        "The Iron Skulls: 2 Reinforcements due this round (D3 [2])")


def test_events_round_trip_and_old_logs_still_replay(battle) -> None:
    to_end(battle, priority=G)
    battle.log_event(due_event(G, 1, roll_faces("D3", [2])))
    battle.log_event(arrival_event(battle.state.sides[G].reserves[1], 6))
    data = battle.to_data()
    assert data["log"][-1] == {"kind": "reinforcement", "fighter": f"{G}/nub-sparkjaw",
                               "dice": "D6", "faces": [6], "distance": 9}
    again = Battle.from_data(data)
    assert again.log == battle.log and again.state == battle.state
    # a log written before the D6 was logged: a bare arrival, no due event
    old = {"log": [data["log"][0], {"kind": "reinforcement", "fighter": f"{G}/runt-kettle"}]}
    b, rejected, problem = Battle.load(old)
    assert not rejected and not problem
    assert b.state.fighters[f"{G}/runt-kettle"].state == "active"


@given(due=st.tuples(st.integers(0, 4), st.integers(0, 4)),
       decks=st.tuples(st.integers(0, 7), st.integers(0, 7)))
def test_draw_order_counts_and_alternation(due, decks) -> None:
    order = draw_order(["a", "b"], dict(zip("ab", due)), dict(zip("ab", decks)))
    for g, n, deck in zip("ab", due, decks):
        assert order.count(g) == min(n, deck)  # the due number met, or the deck ran out
    both = 2 * min(min(due[0], decks[0]), min(due[1], decks[1]))
    assert order[:both] == ["a", "b"] * (both // 2)  # alternating from the Priority winner
    assert len(set(order[both:])) <= 1  # then one gang alone
