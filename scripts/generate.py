"""Test data for the benchmark and the tests (not shipped with munda-tui).

* :func:`generated_battle_file`: a campaign of two gangs and a battle file whose log
  holds ``events`` events, from a seed (the tracker's key-latency benchmark);
* :func:`league_campaign`: a long campaign of ``gangs`` gangs of ``fighters`` fighters
  and ``battles`` finished battles with standings (open, save, the campaign screen);
* :func:`battle_data`: a finished battle's file with a ``events``-event log;
* :func:`write_generated_battle`: :func:`generated_battle_file` saved into a store.

Everything is drawn from a seeded RNG: the same arguments build the same data.
"""

from __future__ import annotations

import random
from typing import Any

from munda_tui.rules.battle.events import (
    ACTIONS,
    ACTIVE,
    CONDITIONS,
    ENGAGED,
    PINNED,
    SERIOUSLY_INJURED,
    TESTS,
    TRAITS,
    Battle,
    BattleError,
    ActivateEvent,
    ConditionEvent,
    Event,
    FailedTestEvent,
    FleshWoundEvent,
    RecoveryEvent,
    StateEvent,
    TacticEvent,
    VpEvent,
    XpEvent,
    default_setup,
    next_phase_event,
    start_event,
)
from munda_tui.rules.core.model import (
    BattleSummary,
    Campaign,
    Equipment,
    Fighter,
    FighterType,
    Gang,
    GangType,
    Standing,
    Territory,
)
from munda_tui.rules.prebattle.setup import BattleSetup

# --- a generated battle ---------------------------------------------------------------------

_FIGHTER_TYPES = [FighterType.LEADER, FighterType.CHAMPION, FighterType.CHAMPION] + [
    FighterType.GANGER
] * 8 + [FighterType.JUVE] * 4


def two_gang_campaign(seed: int = 1, per_side: int = 15) -> Campaign:
    """Two gangs of ``per_side`` fighters, identical for a given seed."""
    rng = random.Random(seed)
    gangs = []
    for gi, (gid, gname, gtype) in enumerate(
        [("red-blades", "The Red Blades", GangType.ESCHER),
         ("grey-hammers", "The Grey Hammers", GangType.GOLIATH)]
    ):
        fighters = []
        for i in range(per_side):
            ftype = _FIGHTER_TYPES[i % len(_FIGHTER_TYPES)]
            name = f"{gname.split()[-1][:-1]} {i + 1:02d}"
            fighters.append(
                Fighter(id=f"f{i + 1:02d}", name=name, type=ftype, cost=rng.randint(25, 130))
            )
        gangs.append(Gang(id=gid, name=gname, type=gtype, player=f"Player {gi + 1}",
                          fighters=fighters))
    return Campaign(id="generated", name="Generated battle", gangs=gangs)


def generated_log(campaign: Campaign, setup: BattleSetup, seed: int = 1, events: int = 300) -> list[Event]:
    """A valid log of ``events`` events (the start included) drawn from a seeded RNG."""
    rng = random.Random(seed)
    battle = Battle([start_event(setup, campaign)])
    while len(battle.log) < events:
        st = battle.state
        keys = [k for k, f in st.fighters.items() if f.on_battlefield]
        roll = rng.random()
        try:
            if roll < 0.06:
                battle.log_event(next_phase_event(st))
                continue
            if not keys:
                battle.log_event(VpEvent(gang=rng.choice(st.gangs), amount=1))
                continue
            key = rng.choice(keys)
            f = st.fighters[key]
            enemies = [k for k in st.fighters if not k.startswith(f.gang + "/")]
            attacker = rng.choice(enemies) if enemies and rng.random() < 0.7 else ""
            if roll < 0.25:
                battle.log_event(ActivateEvent(fighter=key))
            elif roll < 0.40:
                choices = [s for s in (ACTIVE, ENGAGED, PINNED) if s != f.state]
                battle.log_event(StateEvent(fighter=key, state=rng.choice(choices)))
            elif roll < 0.50:
                battle.log_event(FleshWoundEvent(fighter=key, amount=1, attacker=attacker,
                                    action="shoot"))
            elif roll < 0.60:
                cond = rng.choice(CONDITIONS)
                battle.log_event(ConditionEvent(fighter=key, condition=cond,
                                    lost=cond in f.conditions))
            elif roll < 0.70:
                battle.log_event(XpEvent(fighter=key, amount=1))
            elif roll < 0.78 and f.state == SERIOUSLY_INJURED:
                battle.log_event(RecoveryEvent(fighter=key,
                                    result=rng.choice((PINNED, SERIOUSLY_INJURED))))
            elif roll < 0.86:
                if f.state != SERIOUSLY_INJURED:
                    battle.log_event(StateEvent(fighter=key, state=SERIOUSLY_INJURED,
                                        attacker=attacker, action=rng.choice(ACTIONS[:2]),
                                        traits=(rng.choice(TRAITS),)))
                else:
                    battle.log_event(RecoveryEvent(fighter=key, result=PINNED))
            elif roll < 0.90:
                battle.log_event(TacticEvent(gang=f.gang, note="Gang Tactic"))
            elif roll < 0.95:
                battle.log_event(FailedTestEvent(fighter=key, test=rng.choice(TESTS[:5])))
            else:
                battle.log_event(VpEvent(gang=f.gang, amount=1))
        except BattleError:
            continue
    return battle.log


def generated_battle_file(seed: int = 1, per_side: int = 15, events: int = 300,
                          hands: dict[str, list[str]] | None = None) -> tuple[Campaign, dict[str, Any]]:
    """A campaign and a battle file (``{"setup", "battle"}``) for battle 1, status "battle".

    Create the campaign with ``store.create_campaign``, save the file with
    ``handle.save_battle(1, data)``, then ``app.open_battle(1)``.
    """
    campaign = two_gang_campaign(seed, per_side)
    a, b = campaign.gangs
    setup = default_setup(campaign, 1, a.id, b.id)
    setup.objective = "Generated"
    if hands:
        setup.subplots = True
        for s in setup.sides:
            s.hand = list(hands.get(s.gang, []))
    log = generated_log(campaign, setup, seed, events)
    campaign.battles.append(
        BattleSummary(number=1, scenario="Generated", gangs=[a.id, b.id], status="battle")
    )
    battle = Battle(log).to_data()
    if hands:
        battle["start_walked"] = True  # a battle under way: its start of the game walked
    return campaign, {"setup": setup.to_data(), "battle": battle}


def write_generated_battle(store, seed: int = 1, per_side: int = 15, events: int = 300,  # type: ignore[no-untyped-def]
                           hands: dict[str, list[str]] | None = None) -> str:
    """Save :func:`generated_battle_file` into ``store`` (a ``saves.Store``); the slug.

    ``MundaApp(data_dir, config_dir, campaign=slug)``, then ``app.open_battle(1)``
    shows a ``BattleScreen`` on it.
    """
    campaign, data = generated_battle_file(seed, per_side, events, hands)
    with store.create_campaign(campaign) as handle:
        handle.save_battle(1, data)
    return campaign.id


# --- a league ---------------------------------------------------------------------------------

EQUIPMENT = (("Lasgun", 15, True), ("Stub gun", 5, True), ("Autopistol", 10, True),
             ("Flak armour", 10, False), ("Frag grenades", 30, True), ("Photo-goggles", 35, False))
SKILLS = ("Nerves of Steel", "Dodge", "Overwatch", "Iron Jaw", "Fixer", "Backstab")


def league_campaign(gangs: int = 12, fighters: int = 20, battles: int = 300, seed: int = 1) -> Campaign:
    """A long campaign: ``gangs`` gangs of ``fighters`` fighters (equipment,
    skills, XP), ``battles`` finished battles with standings, two gangs each."""
    rng = random.Random(seed)
    houses = [GangType.ESCHER, GangType.GOLIATH, GangType.ORLOCK, GangType.VAN_SAAR,
              GangType.CAWDOR, GangType.DELAQUE]
    types = [FighterType.LEADER, FighterType.CHAMPION, FighterType.CHAMPION, FighterType.JUVE,
             FighterType.JUVE] + [FighterType.GANGER] * max(0, fighters - 5)
    campaign = Campaign(id="long-campaign", name="Long campaign")
    for g in range(gangs):
        crew = []
        for f in range(fighters):
            kit = [Equipment(name=n, cost=c, weapon=w) for n, c, w in rng.sample(EQUIPMENT, 3)]
            crew.append(Fighter(
                id=f"f{f + 1:02d}", name=f"Fighter {g + 1:02d}-{f + 1:02d}", type=types[f % len(types)],
                cost=rng.randint(25, 130), xp=rng.randint(0, 30), kills=rng.randint(0, 6),
                skills=rng.sample(SKILLS, rng.randint(0, 2)), equipment=kit,
                characteristics={"m": 5, "ws": 4, "bs": 4, "s": 3, "t": 3, "w": 1, "i": 4,
                                 "a": 1, "ld": 7, "cl": 6, "wil": 7, "int": 7},
            ))
        campaign.gangs.append(Gang(
            id=f"gang-{g + 1:02d}", name=f"Gang {g + 1:02d}", type=houses[g % len(houses)],
            player=f"Player {g + 1}", credits=rng.randint(0, 400), reputation=rng.randint(0, 20),
            territories=[Territory(name=f"Territory {g + 1}")],
            stash=[Equipment(name="Stimm-slug stash", cost=30, consumable=True)],
            fighters=crew,
        ))
    for n in range(1, battles + 1):
        a, b = rng.sample(campaign.gangs, 2)
        campaign.battles.append(BattleSummary(
            number=n, date=f"2026-{(n - 1) // 28 % 12 + 1:02d}-{(n - 1) % 28 + 1:02d}",
            scenario="Generated", gangs=[a.id, b.id], winner=rng.choice([a.id, b.id, ""]),
            status="done",
            standings={g.id: Standing(rating=rng.randint(900, 2500), reputation=rng.randint(0, 20),
                                      credits=rng.randint(0, 400)) for g in (a, b)},
        ))
    return campaign


def battle_data(campaign: Campaign, number: int, events: int) -> dict[str, Any]:
    """A battle file (``setup`` + ``battle`` log of ``events`` events) for battle ``number``."""
    summary = campaign.battles[number - 1]
    setup = default_setup(campaign, number, *summary.gangs)
    setup.objective = "Generated"
    log = generated_log(campaign, setup, seed=number, events=events)
    return {"setup": setup.to_data(), "battle": Battle(log).to_data()}


def write_league(store, gangs: int = 50, fighters: int = 30, battles: int = 2000,  # type: ignore[no-untyped-def]
                 events: int = 300, tracker_events: int = 1000,
                 hands: dict[str, list[str]] | None = None) -> tuple[str, int, int]:
    """Save a league into ``store``: :func:`league_campaign` with a battle file of
    ``events`` events for each battle, except the last two: battle ``battles - 1``
    waits for its post-battle sequence (its outcome from a ``events``-event log) and
    battle ``battles`` is being fought in the tracker (``tracker_events`` events; the
    two gangs hold the Sub-plot ``hands``, listed in order of its two sides).

    Returns (slug, the post-battle battle's number, the tracker battle's number).
    """
    from munda_tui.rules.battle.events import outcome, outcome_to_data

    if battles < 2:
        raise ValueError("a league needs at least two battles")
    campaign = league_campaign(gangs, fighters, battles)
    post, live = battles - 1, battles
    for number, status in ((post, "post-battle"), (live, "battle")):
        summary = campaign.battles[number - 1]
        summary.status, summary.winner, summary.standings = status, "", {}
    with store.create_campaign(campaign) as handle:
        for n in range(1, battles + 1):
            data = battle_data(handle.campaign, n, tracker_events if n == live else events)
            if n == post:
                setup = default_setup(handle.campaign, n, *handle.campaign.battles[n - 1].gangs)
                battle = Battle.from_data(data["battle"])
                data["battle"]["outcome"] = outcome_to_data(outcome(battle.state, setup))
            if n == live and hands:
                data["setup"]["subplots"] = True
                for side, hand in zip(data["setup"]["sides"], hands.values()):
                    side["hand"] = list(hand)
                data["battle"]["start_walked"] = True  # under way: the start was walked
            handle.save_battle(n, data)
        return handle.slug, post, live
