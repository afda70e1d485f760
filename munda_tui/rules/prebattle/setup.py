"""A battle's set-up: what the pre-battle flow decides and the tracker opens.

``BattleSetup`` is the contract between ``rules.scenario`` / the pre-battle
screens (which fill it in step by step) and ``rules.battle`` / the battle
tracker (which starts from it). It converts to and from plain data (dicts,
lists, str, int, bool) so ``saves`` can store it in the battle's TOML file
without knowing what it means.

Sub-plot cards are named by id ``"<deck id>:<rank>"``, e.g. ``"escher:A"``,
``"noble-whims:10"``; deck ids are ``cawdor delaque escher goliath orlock
van-saar industrial-sabotage noble-whims unforgiving-underhive
dark-influences``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any


@dataclass
class CrewMember:
    fighter: str  # fighter id
    loadout: str = ""  # the Model Card used, "" for the fighter's only card


@dataclass
class CrewDraft:
    """A crew half-made at Choose Crew, kept in the set-up (saved after each change) so
    leaving the step or closing the app loses nothing: X and Y as rolled or entered
    (a fixed X is not stored), the fighters chosen so far with their Model Card, and the
    rolls made for them, written to ``BattleSetup.rolls`` once the crew is chosen.
    ``rules.prebattle.PreBattle`` reads and changes it; emptied when the crew is chosen."""

    amounts: dict[str, int] = field(default_factory=dict)  # "x" / "y" -> the value rolled
    picks: list[CrewMember] = field(default_factory=list)  # chosen so far, in order
    rolls: list[dict[str, Any]] = field(default_factory=list)  # the rolls of X, Y, Reinforcements

    def empty(self) -> bool:
        return not (self.amounts or self.picks or self.rolls)


@dataclass
class SideSetup:
    """One gang's side of the set-up."""

    gang: str  # gang id
    crew_method: str = ""  # e.g. "Random (D3+5)", "Custom (7)", "Hybrid (3+D3)"
    crew: list[CrewMember] = field(default_factory=list)
    reinforcements: list[CrewMember] = field(default_factory=list)  # the deck, in order
    side_job: str = ""  # Side Job name
    side_job_target: str = ""  # "gang/fighter" picked by the Side Job, if any
    use_house_deck: bool = False
    hand: list[str] = field(default_factory=list)  # Sub-plot card ids (hidden)
    jokers: int = 0  # Jokers drawn and shown to the opponent
    subplot_choices: dict[str, str] = field(default_factory=dict)  # card id -> choice
    # fighters a Choose Crew Sub-plot took off the starting crew (Contempt for the Weak)
    crew_removed: list[str] = field(default_factory=list)
    takes_prisoners: bool = True
    draft: CrewDraft = field(default_factory=CrewDraft)  # the crew being chosen


@dataclass
class BattleSetup:
    number: int
    challenger: str  # gang id
    challenged: str  # gang id
    battlefield: str = "Underhive"  # Underhive | Tunnel Warfare | Zone Mortalis
    deployment: str = ""
    objective: str = ""
    crew_table: str = ""  # the Crew table entry name
    reinforcements_rule: str = ""  # e.g. "D3 each round from round one"
    reinforcements_each_round: str = ""  # dice arriving each End phase, e.g. "D3"
    reinforcements_from_round: int = 0  # first round they arrive (0: no Reinforcements)
    visibility: str = ""  # e.g. 'Pitch Black: Visibility (12")'
    pitch_black: bool = False
    subplots: bool = False
    shared_deck: bool = True
    rolls: list[dict[str, Any]] = field(default_factory=list)  # every roll made, for the report
    sides: list[SideSetup] = field(default_factory=list)  # challenger first
    step: str = ""  # the pre-battle step reached (for resuming)
    complete: bool = False
    attacker: str = ""  # gang id of the attacker ("" = the challenger); the other defends
    #: results of the tables added as data (rules.prebattle): "<table>" or "<table>:<gang>"
    #: -> the entry's name. The Core Rules tables keep their own fields above.
    results: dict[str, str] = field(default_factory=dict)
    #: the Sub-plot draw as far as it went (rules.subplots.draw_record), saved as each
    #: card is drawn: a hand once seen is resumed or restored, never drawn afresh
    subplot_draw: dict[str, Any] = field(default_factory=dict)

    def side(self, gang_id: str) -> SideSetup:
        for s in self.sides:
            if s.gang == gang_id:
                return s
        raise KeyError(gang_id)

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        if not data["results"]:
            del data["results"]  # files without added tables stay as they were
        if not data["subplot_draw"]:
            del data["subplot_draw"]
        for side, out in zip(self.sides, data["sides"]):
            if side.draft.empty():
                del out["draft"]  # no crew half-made: the file stays as it was
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "BattleSetup":
        known = {f.name for f in fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in known}
        sides = []
        for s in kwargs.pop("sides", []):
            s = dict(s)
            s["crew"] = [CrewMember(**c) for c in s.get("crew", [])]
            s["reinforcements"] = [CrewMember(**c) for c in s.get("reinforcements", [])]
            if "draft" in s:
                d = dict(s["draft"])
                s["draft"] = CrewDraft(amounts=dict(d.get("amounts", {})),
                                       picks=[CrewMember(**c) for c in d.get("picks", [])],
                                       rolls=list(d.get("rolls", [])))
            side_known = {f.name for f in fields(SideSetup)}
            sides.append(SideSetup(**{k: v for k, v in s.items() if k in side_known}))
        return cls(sides=sides, **kwargs)
