"""Crew selection (seed 001, Core Rules p141-142): property tests."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.core.model import Fighter, FighterStatus, FighterType, Gang
from munda_tui.rules.prebattle.setup import CrewMember

STATUSES = list(FighterStatus)


@st.composite
def gangs(draw):
    n = draw(st.integers(0, 14))
    fighters = []
    for i in range(n):
        fighters.append(
            Fighter(
                id=f"f{i}",
                name=f"Fighter {i}",
                type=draw(st.sampled_from(list(FighterType))),
                status=draw(st.sampled_from(STATUSES)),
                loadouts=[f"card {i}-{k}" for k in range(draw(st.integers(0, 2)))],
            )
        )
    return Gang(id="g", name="Gang", fighters=fighters)


methods = st.one_of(
    st.builds(lambda x: sc.CrewMethod("random", str(x)), st.integers(0, 12)),
    st.builds(lambda x: sc.CrewMethod("custom", str(x)), st.integers(0, 12)),
    st.builds(lambda x, y: sc.CrewMethod("hybrid", str(x), str(y)), st.integers(0, 8), st.integers(0, 8)),
)


def _picks(gang, method, x, rng):
    pool = sc.eligible(gang)
    n = sc.expected_counts(gang, method, x)[0]
    chosen = rng.sample(pool, n)
    return [CrewMember(f.id, rng.choice(sc.model_cards(f))) for f in chosen]


def _check(gang, crew, dealt_from=None):
    ids = [m.fighter for m in crew]
    assert len(ids) == len(set(ids)), "a fighter twice"
    for m in crew:
        f = gang.fighter(m.fighter)
        assert f.can_fight, f"{f.name} is {f.status}"
        assert m.loadout in sc.model_cards(f)


@settings(max_examples=examples(200), deadline=None)
@given(gangs(), methods, st.integers(0, 2**32 - 1))
def test_crew_sizes_unique_eligible(gang, method, seed):
    rng = random.Random(seed)
    x = sc.fixed_value(method.x)
    y = sc.fixed_value(method.y) if method.y else 0
    picks = _picks(gang, method, x, rng)
    crew = sc.select_crew(gang, method, x, y, picks, rng=rng)
    n = len(sc.eligible(gang))
    expected = {"random": min(x, n), "custom": min(x, n), "hybrid": min(x + y, n)}[method.kind]
    assert len(crew) == expected
    _check(gang, crew)
    assert crew[: len(picks)] == picks  # the chosen keep the load-out chosen


@settings(max_examples=examples(100), deadline=None)
@given(gangs(), methods, st.integers(0, 2**32 - 1), st.integers(0, 9))
def test_deterministic_for_a_seed_and_reinforcements(gang, method, seed, size):
    x = sc.fixed_value(method.x)
    y = sc.fixed_value(method.y) if method.y else 0

    def run():
        rng = random.Random(seed)
        picks = _picks(gang, method, x, rng)
        crew = sc.select_crew(gang, method, x, y, picks, rng=rng)
        deck = sc.reinforcements_deck(gang, crew, size, rng=rng)
        return crew, deck

    crew, deck = run()
    assert (crew, deck) == run()
    _check(gang, crew + deck)  # nobody both in the crew and the Reinforcements deck
    rest = len(sc.eligible(gang)) - len(crew)
    assert len(deck) == min(size, rest)


@settings(max_examples=examples(100), deadline=None)
@given(gangs(), st.integers(0, 2**32 - 1))
def test_entered_real_cards_are_checked(gang, seed):
    rng = random.Random(seed)
    method = sc.CrewMethod("hybrid", "2", "2")
    picks = _picks(gang, method, 2, rng)
    pick_ids = {m.fighter for m in picks}
    rest = [f for f in sc.eligible(gang) if f.id not in pick_ids]
    n = sc.expected_counts(gang, method, 2, 2)[1]
    dealt = [CrewMember(f.id) for f in rest[:n]]
    assert sc.select_crew(gang, method, 2, 2, picks, dealt=dealt) == picks + dealt
    if picks:  # a chosen fighter cannot be dealt as well
        with pytest.raises(sc.CrewError):
            sc.select_crew(gang, method, 2, 2, picks, dealt=[picks[0], *dealt][:n] if n else [picks[0]])
    unavailable = [f for f in gang.fighters if not f.can_fight]
    if unavailable and n:
        bad = [CrewMember(unavailable[0].id), *dealt[1:]]
        with pytest.raises(sc.CrewError, match="cannot take part"):
            sc.select_crew(gang, method, 2, 2, picks, dealt=bad)


def test_random_picks_one_card_per_fighter_at_random(demo_campaign):
    esc = demo_campaign.gangs[0]
    sable = esc.fighters[1]
    assert sc.model_cards(sable) == ["", "Sable Thorn (twin stiletto knives)"]
    seen = set()
    for s in range(40):
        crew = sc.select_crew(esc, sc.CrewMethod("random", "9"), 9, rng=random.Random(s))
        seen.add(next(m.loadout for m in crew if m.fighter == sable.id))
        assert len(crew) == 9
    assert seen == set(sc.model_cards(sable))


def test_custom_rejects_wrong_counts_unknown_and_bad_loadout(demo_campaign):
    esc = demo_campaign.gangs[0]
    esc.fighters[3].status = FighterStatus.RECOVERY
    m = sc.CrewMethod("custom", "2")
    ids = [f.id for f in esc.fighters]
    with pytest.raises(sc.CrewError, match="choose 2"):
        sc.select_crew(esc, m, 2, picks=[CrewMember(ids[0])])
    with pytest.raises(sc.CrewError, match="twice"):
        sc.select_crew(esc, m, 2, picks=[CrewMember(ids[0]), CrewMember(ids[0])])
    with pytest.raises(sc.CrewError, match="cannot take part"):
        sc.select_crew(esc, m, 2, picks=[CrewMember(ids[0]), CrewMember(ids[3])])
    with pytest.raises(sc.CrewError, match="no fighter"):
        sc.select_crew(esc, m, 2, picks=[CrewMember(ids[0]), CrewMember("ghost")])
    with pytest.raises(sc.CrewError, match="Model Card"):
        sc.select_crew(esc, m, 2, picks=[CrewMember(ids[0], "laser"), CrewMember(ids[1])])
    crew = sc.select_crew(esc, m, 2, picks=[CrewMember(ids[1], sc.model_cards(esc.fighters[1])[1]), CrewMember(ids[0])])
    assert crew[0].loadout == "Sable Thorn (twin stiletto knives)"
    with pytest.raises(sc.CrewError, match="shuffled deck"):
        sc.select_crew(esc, sc.CrewMethod("random", "3"), 3)


def test_crew_errors_count_in_words(demo_campaign):
    """QA walk: 'choose 1 fighter(s)', 'deal 1 card(s)' read as words now."""
    esc = demo_campaign.gangs[0]
    ids = [f.id for f in esc.fighters]
    with pytest.raises(sc.CrewError, match=r"^Custom \(1\): choose 1 fighter, not 0$"):
        sc.select_crew(esc, sc.CrewMethod("custom", "1"), 1)
    with pytest.raises(sc.CrewError, match=r"deal 1 card, not 2$"):
        sc.select_crew(esc, sc.CrewMethod("random", "1"), 1,
                       dealt=[CrewMember(ids[0]), CrewMember(ids[1])])
    with pytest.raises(sc.CrewError, match=r"deal 2 cards from a shuffled deck$"):
        sc.select_crew(esc, sc.CrewMethod("random", "2"), 2)
