"""Fixtures for the saves tests: a full campaign that exercises every field."""

from __future__ import annotations

from pathlib import Path

import pytest

from munda_tui.rules.core.model import (
    BattleSummary,
    Campaign,
    Equipment,
    Fighter,
    FighterStatus,
    FighterType,
    Gang,
    GangType,
    LastingInjury,
    Settings,
    Standing,
    Territory,
    TerritoryKind,
)
from munda_tui.saves import Store


def build_full_campaign() -> Campaign:
    """Three gangs of different types, fighters with equipment, injuries,
    every status, territories of every kind, battle summaries with standings."""
    stats = dict(zip(("m", "ws", "bs", "s", "t", "w", "i", "a", "ld", "cl", "wil", "int"), (5, 3, 4, 3, 3, 1, 4, 1, 7, 7, 8, 8)))
    lasgun = Equipment("Lasgun", 15, weapon=True, rarity="Common")
    frags = Equipment("Frag grenades", 30, qty=2, consumable=True, weapon=True)
    goliaths = Gang(
        id="iron-skulls",
        name="The Iron Skulls",
        type=GangType.GOLIATH,
        player="Bo",
        credits=120,
        reputation=9,
        territory_size=2,
        territories=[
            Territory("Old Ruins"),
            Territory("Settlement", TerritoryKind.SPECIAL, notes="+D6x10 credits"),
            Territory("The Forge", TerritoryKind.STRONGHOLD, cannot_be_lost=True),
        ],
        stash=[Equipment("Stimm-slug stash", 25, consumable=True), Equipment("Mystery box", None)],
        tactics=["Hit and run", "Ambush"],
        fighters=[
            Fighter(
                id="krag",
                name="Krag Ironjaw",
                type=FighterType.LEADER,
                label="Forge Tyrant",
                cost=135,
                xp=12,
                advancements=2,
                kills=4,
                skills=["Unstoppable", "Headbutt"],
                equipment=[Equipment("Renderizer", 60, unwieldy=True, weapon=True), frags],
                injuries=[LastingInjury("Old Battle Wound", "33", "recovers on 6", battle=2)],
                characteristics=stats,
                notes="Swore to crush \"the Venom Sisters\".\nSecond line: tab\there.",
            ),
            Fighter(id="brak", name="Brak", type=FighterType.CHAMPION, cost=95, xp=3, status=FighterStatus.RECOVERY),
            Fighter(id="grot", name="Grot the Younger", type=FighterType.JUVE, cost=30, status=FighterStatus.CAPTURED, captured_by="venom-sisters", bounty=40),
            Fighter(id="old-mo", name="Old Mo", type=FighterType.HANGER_ON, cost=20, status=FighterStatus.DEAD, standard_injuries=False),
            Fighter(id="zed", name="Zed", type=FighterType.HIRED_GUN, cost=65, status=FighterStatus.CRITICAL, equipment=[lasgun], has_mutations=True),
            Fighter(id="pip", name="Pip", type=FighterType.GANGER, cost=50, status=FighterStatus.RETIRED, loadouts=["Heavy stubber"]),
        ],
        notes="",
    )
    eschers = Gang(
        id="venom-sisters",
        name="Venom Sisters ☠ — Ünderhive",
        type=GangType.ESCHER,
        player="Ana",
        credits=85,
        reputation=0,
        fighters=[
            Fighter(id=f"sister-{i}", name=f"Sister {i}", type=FighterType.GANGER, cost=40 + i, equipment=[lasgun, Equipment("Knife", 5)])
            for i in range(1, 9)
        ],
    )
    others = Gang(id="scum", name="Scum & Villainy", type=GangType.OTHER, fighters=[Fighter(id="bh", name="Bounty 'Hunter'", type=FighterType.BOUNTY_HUNTER, cost=150)])
    return Campaign(
        id="full",
        name="Full Campaign: \"Sump\" [test]",
        settings=Settings(post_battle_ruleset="turf-war-2017", dice_by_hand=True, shared_deck=False),
        gangs=[goliaths, eschers, others],
        battles=[
            BattleSummary(1, "2026-01-08", "Sneak Attack", ["iron-skulls", "venom-sisters"], "iron-skulls", "done",
                          {"iron-skulls": Standing(900, 9, 120), "venom-sisters": Standing(800, 0, 85)}),
            BattleSummary(2, "2026-01-15", "Stand-off", ["iron-skulls", "scum"], "", "battle"),
        ],
        notes="Club campaign.\n\nThree gangs.",
    )


@pytest.fixture
def full_campaign() -> Campaign:
    return build_full_campaign()


@pytest.fixture
def store(data_dir: Path) -> Store:
    return Store(data_dir)
