"""What a battle hands to the Post-Battle Sequence.

The battle tracker (``rules.battle``) produces a ``BattleOutcome`` when a
battle ends; players who fought without the tracker enter one by hand. The
post-battle wizard (``rules.postbattle``) reads only this. Nothing here is
applied to a gang: rewards are *banked* and applied by the post-battle
sequence, exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum


class EndState(StrEnum):
    """A fighter's state when the battle ended."""

    STANDING = "standing"  # Standing and Active / Engaged, or Prone and Pinned
    SERIOUSLY_INJURED = "seriously_injured"
    OUT_OF_ACTION = "out_of_action"
    FLED = "fled"  # left the battlefield (Bottle, scenario)
    NOT_DEPLOYED = "not_deployed"  # a Reinforcement that never arrived


class RewardKind(StrEnum):
    REPUTATION = "reputation"
    CREDITS = "credits"
    XP = "xp"  # to one fighter (``fighter``) or every fighter (``fighter == "*"``)
    GANG_TACTICS = "gang_tactics"
    OTHER = "other"  # anything else: described in ``note``


@dataclass
class BankedReward:
    """A reward earned during the battle, to be applied post-battle."""

    gang: str  # gang id
    kind: RewardKind
    amount: int  # the rolled or entered value (may be negative: a loss)
    source: str  # e.g. "Sub-plot: Murder Run", "Side Job: The Package"
    fighter: str = ""  # fighter id for XP; "*" for every fighter of the crew
    dice: str = ""  # the expression rolled, e.g. "D3"
    faces: list[int] = field(default_factory=list)
    note: str = ""


@dataclass
class FighterOutcome:
    gang: str
    fighter: str  # fighter id
    end_state: EndState = EndState.STANDING
    xp: int = 0  # XP earned in this battle (not yet applied)
    taken_out_by: str = ""  # "gang_id/fighter_id" of the attacker, if any
    how: str = ""  # action and traits, e.g. "Shoot: Blaze"
    consumables_spent: list[str] = field(default_factory=list)
    # from the tracker's log: enemies this fighter Seriously Injured / took Out of
    # Action ("seriously_injured", "out_of_action"), rallies from Broken ("rally")
    caused: dict[str, int] = field(default_factory=dict)
    # Lasting Injury rolls made, the higher applied (2: a Sub-plot says so), and the card
    injury_rolls: int = 1
    injury_rolls_why: str = ""
    # a Lasting Injury result a Sub-plot fixes (no roll), e.g. "Out Cold", and the card
    injury_result: str = ""
    injury_result_why: str = ""


@dataclass
class BattleOutcome:
    battle: int  # battle number in the campaign
    gangs: list[str]  # the two gang ids, challenger first
    winner: str = ""  # gang id; "" for a draw
    scenario: str = ""  # objective name
    battlefield: str = ""
    rounds: int = 0
    fighters: list[FighterOutcome] = field(default_factory=list)
    rewards: list[BankedReward] = field(default_factory=list)
    subplots_revealed: list[str] = field(default_factory=list)  # card ids
    subplots_revealed_by: dict[str, list[str]] = field(default_factory=dict)  # gang -> ids
    takes_prisoners: dict[str, bool] = field(default_factory=dict)  # gang id -> bool
    notes: str = ""

    def crew(self, gang_id: str) -> list[FighterOutcome]:
        return [f for f in self.fighters if f.gang == gang_id]
