"""The demo campaign: two gangs of different Houses, ready to fight.

Built in code (no files), so ``munda-tui --demo`` needs no set-up and tests
get the same campaign every time. Prices are the players' own roster figures
for the demo, not rules text.
"""

from __future__ import annotations

from typing import Any

from ..core.model import (
    Campaign,
    Equipment,
    Fighter,
    FighterType,
    Gang,
    GangType,
    Settings,
    Territory,
    TerritoryKind,
    slugify,
)

_STATS = ("m", "ws", "bs", "s", "t", "w", "i", "a", "ld", "cl", "wil", "int")


def _stats(line: str) -> dict[str, int]:
    return dict(zip(_STATS, (int(v) for v in line.split())))


def _eq(name: str, cost: int, qty: int = 1, **flags: Any) -> Equipment:
    return Equipment(name=name, cost=cost, qty=qty, **flags)


def _weapon(name: str, cost: int, **flags: Any) -> Equipment:
    return _eq(name, cost, weapon=True, **flags)


def _fighter(
    name: str,
    ftype: FighterType,
    label: str,
    cost: int,
    stats: str,
    equipment: list[Equipment],
    *,
    xp: int = 0,
    skills: list[str] | None = None,
    advancements: int = 0,
    loadouts: list[str] | None = None,
) -> Fighter:
    return Fighter(
        id=slugify(name),
        name=name,
        type=ftype,
        label=label,
        cost=cost,
        xp=xp,
        advancements=advancements,
        skills=list(skills or []),
        equipment=equipment,
        characteristics=_stats(stats),
        loadouts=list(loadouts or []),
    )


def escher_gang() -> Gang:
    L, C, G, J = FighterType.LEADER, FighterType.CHAMPION, FighterType.GANGER, FighterType.JUVE
    fighters = [
        _fighter("Vexa Nightshade", L, "Gang Queen", 120, "5 3 3 3 3 2 3 2 6 6 7 7",
                 [_weapon("Needle pistol", 25), _weapon("Stiletto sword", 30),
                  _eq("Mesh armour", 15)], xp=6, skills=["Combat Virtuoso"], advancements=1),
        _fighter("Sable Thorn", C, "Gang Matriarch", 95, "5 3 3 3 3 2 3 1 7 6 7 7",
                 [_weapon("Chem-thrower", 135, unwieldy=True), _eq("Flak armour", 10)], xp=3,
                 loadouts=["Sable Thorn (twin stiletto knives)"]),
        _fighter("Kira Ashfall", C, "Gang Matriarch", 95, "5 3 3 3 3 2 3 1 7 6 7 7",
                 [_weapon("Needle rifle", 60), _weapon("Stiletto knife", 15)], xp=2),
        _fighter("Lys Venom", G, "Gang Sister", 50, "5 4 4 3 3 1 3 1 7 7 8 8",
                 [_weapon("Lasgun", 15), _eq("Frag grenades", 30, consumable=True)]),
        _fighter("Mara Quill", G, "Gang Sister", 50, "5 4 4 3 3 1 3 1 7 7 8 8",
                 [_weapon("Shotgun", 30), _weapon("Stiletto knife", 15)]),
        _fighter("Oona Vale", G, "Gang Sister", 50, "5 4 4 3 3 1 3 1 7 7 8 8",
                 [_weapon("Lasgun", 15), _eq("Filter plugs", 10, consumable=True)]),
        _fighter("Tessa Gloom", G, "Gang Sister", 50, "5 4 4 3 3 1 3 1 7 7 8 8",
                 [_weapon("Autogun", 15), _eq("Flak armour", 10)]),
        _fighter("Ria Cinder", J, "Little Sister", 25, "5 5 5 3 3 1 3 1 8 8 9 9",
                 [_weapon("Laspistol", 10), _weapon("Fighting knife", 15)]),
        _fighter("Pip Hollow", J, "Little Sister", 25, "5 5 5 3 3 1 3 1 8 8 9 9",
                 [_weapon("Autopistol", 10)]),
    ]
    return Gang(
        id="venom-sisters",
        name="The Venom Sisters",
        type=GangType.ESCHER,
        player="Ana",
        credits=85,
        reputation=7,
        territories=[Territory("Old Ruins"), Territory("Settlement", TerritoryKind.SPECIAL)],
        stash=[_weapon("Lasgun", 15), _eq("Stimm-slug stash", 25, consumable=True)],
        tactics=[],
        fighters=fighters,
    )


def goliath_gang() -> Gang:
    L, C, G, J = FighterType.LEADER, FighterType.CHAMPION, FighterType.GANGER, FighterType.JUVE
    fighters = [
        _fighter("Brakk Ironjaw", L, "Forge Tyrant", 135, "4 2 4 4 4 2 4 2 5 6 6 7",
                 [_weapon("Renderizer", 60, unwieldy=True), _eq("Furnace plates", 15)],
                 xp=5, skills=["Headbutt"], advancements=1),
        _fighter("Gorth Slagborn", C, "Forge Boss", 110, "4 3 4 4 4 2 4 2 6 6 7 7",
                 [_weapon("Heavy stubber", 130, unwieldy=True), _eq("Furnace plates", 15)], xp=2),
        _fighter("Mord Hammerhand", C, "Forge Boss", 110, "4 3 4 4 4 2 4 2 6 6 7 7",
                 [_weapon("Power hammer", 45), _weapon("Stub gun", 5)], xp=1),
        _fighter("Dak Cinderfist", G, "Bruiser", 70, "4 3 4 4 4 1 4 1 7 7 8 8",
                 [_weapon("Combat shotgun", 55), _eq("Flak armour", 10)]),
        _fighter("Thug Varro", G, "Bruiser", 70, "4 3 4 4 4 1 4 1 7 7 8 8",
                 [_weapon("Spud-jacker", 15), _weapon("Fighting knife", 15)]),
        _fighter("Krug Ashenhide", G, "Bruiser", 70, "4 3 4 4 4 1 4 1 7 7 8 8",
                 [_weapon("Autogun", 15), _eq("Frag grenades", 30, consumable=True)]),
        _fighter("Hesk Molten", G, "Bruiser", 70, "4 3 4 4 4 1 4 1 7 7 8 8",
                 [_weapon("Stub gun", 5), _weapon("Maul", 20)]),
        _fighter("Zorn Blackslag", G, "Bruiser", 70, "4 3 4 4 4 1 4 1 7 7 8 8",
                 [_weapon("Boltgun", 55)]),
        _fighter("Nub Sparkjaw", J, "Bully", 30, "5 4 5 3 3 1 4 1 8 8 9 9",
                 [_weapon("Stub gun", 5), _weapon("Fighting knife", 15)]),
        _fighter("Runt Kettle", J, "Bully", 30, "5 4 5 3 3 1 4 1 8 8 9 9",
                 [_weapon("Autopistol", 10)]),
    ]
    return Gang(
        id="iron-skulls",
        name="The Iron Skulls",
        type=GangType.GOLIATH,
        player="Ben",
        credits=60,
        reputation=6,
        territories=[Territory("Slag Furnace"), Territory("Toll Crossing")],
        stash=[_eq("Frag grenades", 30, consumable=True)],
        tactics=[],
        fighters=fighters,
    )


def demo_campaign() -> Campaign:
    """A fresh demo campaign, identical every time."""
    return Campaign(
        id="demo",
        name="Demo: Ashfall Sump",
        settings=Settings(),
        gangs=[escher_gang(), goliath_gang()],
        battles=[],
        notes="A demo campaign for trying munda-tui: Escher against Goliath.",
    )
