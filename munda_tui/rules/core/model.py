"""The campaign model: plain dataclasses, no I/O, no UI.

Gang Rating is always computed (seed 004, Update Gang Rating): the sum of the
fighters' ratings (cost plus equipment), excluding Captured fighters (and the
dead and retired, who have left the roster), plus 50 credits for each Special
Territory (a Stronghold is a Special Territory). Turf War 2017 also counts
Hangers-on, which the Gang War rating does as well since they are fighters on
the roster.

The dead leave the roster (seed 004, Delete Dead Fighters: "All dead fighters are
removed from the gang's roster now") and are kept in the gang's history,
``Gang.fallen``: a fighter saved among the fighters with status "dead" (older saves,
imports) is moved there when the gang is made.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from enum import StrEnum

from . import limits as limits


class GangType(StrEnum):
    CAWDOR = "Cawdor"
    DELAQUE = "Delaque"
    ESCHER = "Escher"
    GOLIATH = "Goliath"
    ORLOCK = "Orlock"
    VAN_SAAR = "Van Saar"
    PALANITE_ENFORCERS = "Palanite Enforcers"
    ARBITES = "Arbites"
    CHAOS_CULTISTS = "Chaos Cultists"
    GENESTEALER_CULTISTS = "Genestealer Cultists"
    ASH_WASTE_NOMADS = "Ash Waste Nomads"
    COGS = "Cogs"
    RATSKINS = "Ratskins"
    SQUAT_SALVAGERS = "Squat Salvagers"
    SPYRER_HUNTING_PARTY = "Spyrer Hunting Party"
    OTHER = "Other"


#: The six Houses of the Clan Houses, each with its own Sub-plot deck.
HOUSES: frozenset[GangType] = frozenset(
    {
        GangType.CAWDOR,
        GangType.DELAQUE,
        GangType.ESCHER,
        GangType.GOLIATH,
        GangType.ORLOCK,
        GangType.VAN_SAAR,
    }
)


class FighterType(StrEnum):
    LEADER = "Leader"
    CHAMPION = "Champion"
    PROSPECT = "Prospect"
    SPECIALIST = "Specialist"
    GANGER = "Ganger"
    JUVE = "Juve"
    BRUTE = "Brute"
    HANGER_ON = "Hanger-on"
    HIRED_GUN = "Hired Gun"
    BOUNTY_HUNTER = "Bounty Hunter"
    DRAMATIS_PERSONAE = "Dramatis Personae"


class FighterStatus(StrEnum):
    ACTIVE = "active"
    RECOVERY = "recovery"
    CAPTURED = "captured"
    CRITICAL = "critical"  # Critically Injured: dies unless given medical attention
    DEAD = "dead"
    RETIRED = "retired"


#: Statuses that keep a fighter from taking part in a battle.
UNAVAILABLE: frozenset[FighterStatus] = frozenset(
    {
        FighterStatus.RECOVERY,
        FighterStatus.CAPTURED,
        FighterStatus.CRITICAL,
        FighterStatus.DEAD,
        FighterStatus.RETIRED,
    }
)


class TerritoryKind(StrEnum):
    TURF = "turf"
    SPECIAL = "special"
    STRONGHOLD = "stronghold"


from .profile import CHARACTERISTICS  # noqa: E402  (re-exported: profile order)
from .status import BattleStatus  # noqa: E402  (BattleSummary.status)

SPECIAL_TERRITORY_RATING = 50


@dataclass
class Equipment:
    """An item a fighter carries or the gang keeps in its Stash."""

    name: str
    cost: int | None = None  # None: cost unknown (e.g. imported without a price)
    qty: int = 1
    consumable: bool = False
    unwieldy: bool = False
    weapon: bool = False
    rarity: str = ""  # "", "Common", "Rare (9)", "Illegal (10)" ...
    spent: bool = False  # a consumable expended in the last battle
    armour: bool = False

    @property
    def value(self) -> int:
        """Credits this line adds to a rating (unknown costs add nothing)."""
        return (self.cost or 0) * self.qty

    @property
    def kind(self) -> str:
        """One of ITEM_KINDS: weapon, Unwieldy weapon, armour, wargear, consumable."""
        if self.weapon:
            return UNWIELDY_WEAPON if self.unwieldy else WEAPON
        if self.armour:
            return ARMOUR
        if self.consumable:
            return CONSUMABLE
        return WARGEAR

    def set_kind(self, kind: str) -> None:
        if kind not in ITEM_KINDS:
            raise ValueError(f"{kind!r} is not an item kind; one of: {', '.join(ITEM_KINDS)}")
        self.weapon = kind in (WEAPON, UNWIELDY_WEAPON)
        self.unwieldy = kind == UNWIELDY_WEAPON
        self.armour = kind == ARMOUR
        self.consumable = kind == CONSUMABLE

    @property
    def weapon_slots(self) -> int:
        """Seed 004, Distribute Equipment: a weapon counts 1 towards the limit of 3, an
        Unwieldy weapon 2."""
        return ((2 if self.unwieldy else 1) * self.qty) if self.weapon else 0


WEAPON, UNWIELDY_WEAPON, ARMOUR, WARGEAR, CONSUMABLE = (
    "weapon", "Unwieldy weapon", "armour", "wargear", "consumable")
ITEM_KINDS: tuple[str, ...] = (WEAPON, UNWIELDY_WEAPON, ARMOUR, WARGEAR, CONSUMABLE)
#: Seed 004, Distribute Equipment: at most three weapons, Unwieldy ones counting two.
WEAPON_LIMIT = 3


#: The metadata of a field that names a battle by its number (the number people see, which
#: a league's merge can change: the saves write such a field as the battle's file name and
#: work the number out again when they read it; saves.folder).
BATTLE_REF = {"battle": True}


@dataclass
class LastingInjury:
    """A Lasting Injury on a fighter's record (its roll, its effect, the battle)."""

    name: str
    roll: str = ""  # the D66 result or range, e.g. "52"
    effect: str = ""  # e.g. "-1 Ballistic Skill"
    battle: int | None = field(default=None, metadata=BATTLE_REF)  # its number (None: unknown)


@dataclass
class Fighter:
    """A fighter of a gang's roster: profile, record, equipment and state."""

    id: str
    name: str
    type: FighterType = FighterType.GANGER
    label: str = ""  # the gang's own name for the type, e.g. "Cult Alpha"
    cost: int = 0  # the fighter's own cost, advancements included, no equipment
    xp: int = 0
    advancements: int = 0
    kills: int = 0
    skills: list[str] = field(default_factory=list)
    equipment: list[Equipment] = field(default_factory=list)
    injuries: list[LastingInjury] = field(default_factory=list)
    status: FighterStatus = FighterStatus.ACTIVE
    captured_by: str = ""  # gang id of the captor
    status_why: str = ""  # what put the fighter in that status ("Grievous Injury")
    # the battle whose post-battle sequence set it (0: unknown)
    status_battle: int = field(default=0, metadata=BATTLE_REF)
    bounty: int = 0
    has_mutations: bool = False
    standard_injuries: bool = True  # uses the standard Lasting Injury table
    # The profile (rules.profile): a target number 3+ is held as 3 and saved
    # as "3+"; a characteristic the fighter does not have is absent.
    characteristics: dict[str, int] = field(default_factory=dict, metadata={"codec": "profile"})
    loadouts: list[str] = field(default_factory=list)  # extra Model Cards
    notes: str = ""

    @property
    def rating(self) -> int:
        return self.cost + sum(item.value for item in self.equipment)

    @property
    def unknown_costs(self) -> list[str]:
        return [item.name for item in self.equipment if item.cost is None]

    @property
    def can_fight(self) -> bool:
        return self.status not in UNAVAILABLE

    @property
    def weapon_count(self) -> int:
        """Weapons carried as seed 004 counts them (Unwieldy = 2)."""
        return sum(item.weapon_slots for item in self.equipment)


@dataclass
class Territory:
    """A Territory (or Turf) a gang holds."""

    name: str
    kind: TerritoryKind = TerritoryKind.TURF
    cannot_be_lost: bool = False
    notes: str = ""


@dataclass
class Gang:
    """A gang of the campaign: its roster, Stash, Reputation and holdings."""

    id: str
    name: str
    type: GangType = GangType.OTHER
    player: str = ""
    credits: int = 0
    reputation: int = 0
    territory_size: int = 0  # Turf size (Turf War 2017)
    # the club's own resources (a pack's custom counters, issue 35): counter id -> value;
    # a counter no pack in force declares is kept as it is (its pack may be missing here)
    counters: dict[str, int] = field(default_factory=dict)
    territories: list[Territory] = field(default_factory=list)
    stash: list[Equipment] = field(default_factory=list)
    tactics: list[str] = field(default_factory=list)
    fighters: list[Fighter] = field(default_factory=list)
    # the gang's dead, removed from the roster (seed 004: "All dead fighters are removed
    # from the gang's roster now"), kept as its history: status "dead", why, battle
    fallen: list[Fighter] = field(default_factory=list)
    notes: str = ""
    # the fighters who left the roster alive, kept apart as the dead are in ``fallen``
    # (status, why, battle): the retired (seeds 004 and 002, Delete Retiring Fighters: "All
    # retiring fighters are removed from the gang's roster now"; "The fighter cards of
    # retiring fighters should be retained ... for later reuse"), a departed Bounty Hunter,
    # and a captive a Bounty Hunter handed to the Guilders (Resolve Bounty Hunters: "removed
    # from their gang's roster without opportunity for rescue")
    departed: list[Fighter] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.bury_dead()  # (older saves and imports kept the dead on the roster)
        for f in [f for f in self.fighters if f.status is FighterStatus.RETIRED]:
            self.depart(f.id)  # (and the retired)

    def depart(self, fighter_id: str) -> Fighter:
        """The fighter leaves the roster alive for the gang's ``departed`` (their status,
        retired or Captured by the Guilders, kept)."""
        f = self.fighter(fighter_id)
        self.fighters.remove(f)
        self.departed.append(f)
        return f

    def bury(self, fighter_id: str) -> Fighter:
        """Seed 004, Delete Dead Fighters: the fighter leaves the roster for the
        gang's fallen (their status set to dead if it was not)."""
        f = self.fighter(fighter_id)
        self.fighters.remove(f)
        f.status = FighterStatus.DEAD
        f.captured_by = ""
        self.fallen.append(f)
        return f

    def bury_dead(self) -> list[Fighter]:
        """Every fighter on the roster with status dead to the fallen, in roster order."""
        dead = [f for f in self.fighters if f.status is FighterStatus.DEAD]
        for f in dead:
            self.bury(f.id)
        return dead

    def member(self, fighter_id: str) -> Fighter:
        """A fighter of the roster, the fallen or the departed (names in the gang's history)."""
        for f in self.fighters:
            if f.id == fighter_id:
                return f
        for f in self.fallen:
            if f.id == fighter_id:
                return f
        for f in self.departed:
            if f.id == fighter_id:
                return f
        raise KeyError(f"no fighter {fighter_id!r} in {self.name}")

    def fighter_ids(self) -> list[str]:
        """Every id the gang has used, the fallen's and the departed's too (a new fighter
        takes none of them)."""
        return ([f.id for f in self.fighters] + [f.id for f in self.fallen]
                + [f.id for f in self.departed])

    @property
    def is_house(self) -> bool:
        return self.type in HOUSES

    @property
    def rating(self) -> int:
        return gang_rating(self)

    @property
    def wealth(self) -> int:
        """Gang Rating plus the credits in the Stash."""
        return self.rating + self.credits

    def fighter(self, fighter_id: str) -> Fighter:
        for f in self.fighters:
            if f.id == fighter_id:
                return f
        raise KeyError(f"no fighter {fighter_id!r} in {self.name}")

    def eligible_fighters(self) -> list[Fighter]:
        return [f for f in self.fighters if f.can_fight]


#: The Territories the rating counts 50 for: seed 004, Update Gang Rating "plus 50 for each
#: Special Territory the gang has"; a Stronghold is a Special Territory (the seed's kinds
#: of Territory are Turf and Special).
SPECIAL_KINDS = frozenset({TerritoryKind.SPECIAL, TerritoryKind.STRONGHOLD})


def gang_rating(gang: Gang) -> int:
    """Seed 004, Update Gang Rating: fighters (not Captured, not dead or
    retired) plus 50 credits per Special Territory, Strongholds included."""
    total = 0
    for f in gang.fighters:
        if f.status in (FighterStatus.CAPTURED, FighterStatus.DEAD, FighterStatus.RETIRED):
            continue
        total += f.rating
    total += SPECIAL_TERRITORY_RATING * sum(
        1 for t in gang.territories if t.kind in SPECIAL_KINDS
    )
    return total


@dataclass
class Settings:
    """The campaign's rules choices (the settings screen)."""

    # a ruleset's id (rules/data/postbattle/<id>.toml: rules.rulesets, checked at load); the
    # default is the first ruleset in order (a test keeps the two the same)
    post_battle_ruleset: str = "gang-war"
    lasting_injury_table: str = "rulebook-2018"  # or "core-2023"
    subplot_decks: str = "house"  # "house": a House gang uses its own deck; "suit"
    shared_deck: bool = True  # one shared deck; False: each player a full deck
    strict_secrecy: bool = False  # no discreet markers on screen
    dice_by_hand: bool = False  # default to entering real dice
    # XP per logged event (rules/data/xp_awards.toml ids), entered by the Arbitrator
    # from their rulebook; shipped empty: the seeds do not print it
    xp_awards: dict[str, int] = field(default_factory=dict)
    # Turf War 2017: "a fighter who has the Fixer skill may take two" read for Mercs too
    # (readings: turf-fixer-merc); False gives a Merc with Fixer one action, as Gang War does
    turf_fixer_merc_two_actions: bool = True
    # the pack each setting a pack supplies came from (setting -> pack id: issue 35), so a
    # laptop without that pack names it; a setting the package supplies has no entry
    from_packs: dict[str, str] = field(default_factory=dict)


@dataclass
class Standing:
    """A gang's figures after a battle, for the campaign charts."""

    rating: int
    reputation: int
    credits: int


@dataclass
class BattleSummary:
    """A battle as the campaign lists it (its file holds the rest)."""

    number: int
    date: str = ""  # ISO date, given by the caller (no clock in rules)
    scenario: str = ""
    gangs: list[str] = field(default_factory=list)  # gang ids
    winner: str = ""  # gang id, or "" for a draw / unfinished
    status: BattleStatus = BattleStatus.SETUP  # rules.status: the stages and their moves
    standings: dict[str, Standing] = field(default_factory=dict)


@dataclass
class Campaign:
    """A campaign: its settings, gangs and battles (campaign.toml)."""

    id: str
    name: str
    settings: Settings = field(default_factory=Settings)
    gangs: list[Gang] = field(default_factory=list)
    battles: list[BattleSummary] = field(default_factory=list)
    notes: str = ""
    # the role the players gave each fighter type name an import could not place
    # (rules.yaktribe.role_key -> role), asked once and used for the next import
    fighter_roles: dict[str, FighterType] = field(default_factory=dict)

    def gang(self, gang_id: str) -> Gang:
        for g in self.gangs:
            if g.id == gang_id:
                return g
        raise KeyError(f"no gang {gang_id!r} in {self.name}")

    def next_battle_number(self) -> int:
        return max((b.number for b in self.battles), default=0) + 1

    def check_reputation(self, value: int) -> int:
        """``value`` if a gang of this campaign may hold it as its Reputation, else
        LimitError: never below 0 under Gang War (seed 004: "Reputation cannot fall below
        0."); no floor under Turf War 2017 (readings: turf-reputation-floor). Loads,
        imports, hand edits and the gang form all check it here."""
        return check_reputation(self.settings.post_battle_ruleset, value)


def check_reputation(ruleset: str, value: int) -> int:
    """A gang's Reputation in a campaign of ``ruleset`` (:meth:`Campaign.check_reputation`)."""
    return limits.check_field_int("Gang", "reputation", value, str(ruleset))


_SLUG_RE = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """A file- and id-safe slug: 'Max's Marauders' -> 'max-s-marauders'."""
    slug = _SLUG_RE.sub("-", text.lower()).strip("-")
    return slug or "unnamed"


def unique_id(base: str, taken: Collection[str]) -> str:
    slug = slugify(base)
    used = set(taken)
    if slug not in used:
        return slug
    n = 2
    while f"{slug}-{n}" in used:
        n += 1
    return f"{slug}-{n}"
