from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from munda_tui.rules.core.model import (
    Equipment,
    Fighter,
    FighterStatus,
    Gang,
    Territory,
    TerritoryKind,
    gang_rating,
    slugify,
    unique_id,
)


def test_rating_sums_fighters_and_special_territories() -> None:
    gang = Gang(
        id="g",
        name="G",
        fighters=[
            Fighter("a", "A", cost=100, equipment=[Equipment("Lasgun", 15, qty=2)]),
            Fighter("b", "B", cost=50, status=FighterStatus.CAPTURED),
            Fighter("c", "C", cost=40, status=FighterStatus.RECOVERY),
            Fighter("d", "D", cost=40, status=FighterStatus.DEAD),
        ],
        territories=[Territory("Settlement", TerritoryKind.SPECIAL), Territory("Ruins")],
    )
    # Captured and dead fighters are out; In Recovery still counts; +50 per Special Territory
    assert gang_rating(gang) == 130 + 40 + 50 == gang.rating


def test_unknown_equipment_cost_adds_nothing_but_is_reported() -> None:
    f = Fighter("a", "A", cost=90, equipment=[Equipment("Power Sword", None)])
    assert f.rating == 90
    assert f.unknown_costs == ["Power Sword"]


@given(st.integers(-1000, 1000))
def test_reputation_below_zero_only_where_the_rules_allow_it(rep: int) -> None:
    # The gang keeps what it holds (nothing resets it on load); the campaign's ruleset says
    # whether it may hold it: seed 004 "Reputation cannot fall below 0."; seed 002 sets no
    # floor (readings: turf-reputation-floor).
    from munda_tui.rules.core.limits import LimitError
    from munda_tui.rules.core.model import Campaign, Settings

    assert Gang(id="g", name="G", reputation=rep).reputation == rep
    turf = Campaign("c", "C", Settings(post_battle_ruleset="turf-war-2017"))
    assert turf.check_reputation(rep) == rep
    gang_war = Campaign("c", "C")
    if rep >= 0:
        assert gang_war.check_reputation(rep) == rep
    else:
        with pytest.raises(LimitError, match="never below 0 under Gang War"):
            gang_war.check_reputation(rep)


@given(st.lists(st.tuples(st.integers(0, 500), st.sampled_from(list(FighterStatus))), max_size=20))
def test_rating_is_never_negative_and_ignores_captured(fighters: list[tuple[int, FighterStatus]]) -> None:
    gang = Gang(
        id="g",
        name="G",
        fighters=[Fighter(str(i), str(i), cost=c, status=s) for i, (c, s) in enumerate(fighters)],
    )
    expected = sum(
        c for c, s in fighters
        if s not in (FighterStatus.CAPTURED, FighterStatus.DEAD, FighterStatus.RETIRED)
    )
    assert gang.rating == expected >= 0


def test_eligible_fighters_exclude_the_unavailable() -> None:
    gang = Gang(
        id="g",
        name="G",
        fighters=[Fighter(s.value, s.value, status=s) for s in FighterStatus],
    )
    assert [f.id for f in gang.eligible_fighters()] == ["active"]


def test_slugs_and_unique_ids() -> None:
    assert slugify("Max's Marauders!") == "max-s-marauders"
    assert slugify("   ") == "unnamed"
    assert unique_id("Vexa", {"vexa", "vexa-2"}) == "vexa-3"
