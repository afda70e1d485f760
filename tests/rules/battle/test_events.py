"""The battle log: replay, undo/redo, checks, set-up and the outcome."""

from __future__ import annotations

from munda_tui.rules.battle.events import event_to_data

from munda_tui.rules.battle.events import ActivateEvent, AttackEvent, ConditionEvent, EndEvent, FailedTestEvent, FleshWoundEvent, PriorityEvent, RecoveryEvent, RevealEvent, RewardEvent, SideJobEvent, StateEvent, TacticEvent, VpEvent, XpEvent

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.battle.events import (
    ACTIONS,
    CONDITIONS,
    OUT_OF_ACTION,
    PINNED,
    SERIOUSLY_INJURED,
    STATES,
    TESTS,
    TRAITS,
    Battle,
    BattleError,
    Event,
    Reward,
    default_setup,
    hands_of,
    next_phase_event,
    outcome,
    outcome_from_data,
    outcome_to_data,
    replay,
    start_event,
)
from munda_tui.rules.campaign.demo import demo_campaign as build_demo
from munda_tui.rules.core.outcome import EndState, RewardKind


@pytest.fixture
def setup(demo_campaign):
    a, b = demo_campaign.gangs
    s = default_setup(demo_campaign, 1, a.id, b.id)
    s.sides[0].hand = ["escher:2"]
    return s


@pytest.fixture
def battle(demo_campaign, setup) -> Battle:
    return Battle([start_event(setup, demo_campaign)])


def test_start_event_holds_both_crews(battle: Battle, demo_campaign) -> None:
    st = battle.state
    assert st.round == 1 and st.phase == "priority"
    assert list(st.sides) == [g.id for g in demo_campaign.gangs]
    vexa = st.fighters["venom-sisters/vexa-nightshade"]
    assert vexa.name == "Vexa Nightshade" and vexa.is_leader and vexa.state == "active"
    assert len(st.crew("iron-skulls")) == 10


def test_record_checks_events(battle: Battle) -> None:
    with pytest.raises(BattleError, match="no fighter"):
        battle.log_event(StateEvent(fighter="x/y", state=PINNED))
    with pytest.raises(BattleError, match="not Seriously Injured"):
        battle.log_event(RecoveryEvent(fighter="iron-skulls/thug-varro", result=PINNED))
    with pytest.raises(BattleError, match="already"):
        battle.log_event(StateEvent(fighter="iron-skulls/thug-varro", state="active"))
    with pytest.raises(BattleError, match="has already started"):
        battle.log_event(battle.log[0])
    assert len(battle.log) == 1


def test_state_changes_flesh_wounds_recovery_and_conditions(battle: Battle) -> None:
    key = "iron-skulls/thug-varro"
    battle.log_event(StateEvent(fighter=key, state=SERIOUSLY_INJURED,
                        attacker="venom-sisters/mara-quill", action="shoot", traits=("Blaze",)))
    f = battle.state.fighters[key]
    assert f.taken_out_by == "venom-sisters/mara-quill" and f.how == "Shoot: Blaze"
    battle.log_event(ConditionEvent(fighter=key, condition="Broken"))
    battle.log_event(RecoveryEvent(fighter=key, result=PINNED))
    assert f.state == PINNED and f.flesh_wounds == 1 and f.recoveries == 1
    assert f.taken_out_by == "" and f.conditions == ["Broken"]
    battle.log_event(ConditionEvent(fighter=key, condition="Broken", lost=True))
    assert f.conditions == []
    battle.log_event(StateEvent(fighter=key, state=OUT_OF_ACTION, attacker="venom-sisters/vexa-nightshade",
                        action="coup_de_grace"))
    assert f.how == "Coup de Grace"


def test_phases_rounds_and_activation(battle: Battle) -> None:
    key = "venom-sisters/lys-venom"
    battle.log_event(PriorityEvent(gang="venom-sisters"))
    battle.log_event(next_phase_event(battle.state))
    battle.log_event(ActivateEvent(fighter=key))
    assert battle.state.phase == "action" and battle.state.fighters[key].activated
    battle.log_event(next_phase_event(battle.state))
    battle.log_event(next_phase_event(battle.state))
    assert (battle.state.round, battle.state.phase) == (2, "priority")
    assert not battle.state.fighters[key].activated
    assert battle.state.priority == "venom-sisters"


def test_undo_never_drops_the_start_and_redo_is_cleared_by_a_new_event(battle: Battle) -> None:
    assert battle.undo() is None
    battle.log_event(VpEvent(gang="venom-sisters", amount=1))
    battle.log_event(VpEvent(gang="venom-sisters", amount=2))
    assert battle.undo().amount == 2
    assert battle.state.sides["venom-sisters"].vp == 1
    assert battle.redo().amount == 2
    assert battle.state.sides["venom-sisters"].vp == 3
    battle.undo()
    battle.log_event(TacticEvent(gang="iron-skulls"))
    assert not battle.can_redo


def test_after_the_end_only_reveals_and_rewards(battle: Battle) -> None:
    battle.log_event(EndEvent(winner="venom-sisters"))
    with pytest.raises(BattleError, match="over"):
        battle.log_event(VpEvent(gang="venom-sisters", amount=1))
    battle.log_event(RevealEvent(gang="venom-sisters", card="escher:2",
                        rewards=(Reward("gang_tactics", 2, dice="2"),)))
    with pytest.raises(BattleError, match="already revealed"):
        battle.log_event(RevealEvent(gang="venom-sisters", card="escher:2"))


def test_outcome(battle: Battle, setup) -> None:
    battle.log_event(StateEvent(fighter="iron-skulls/brakk-ironjaw", state=OUT_OF_ACTION,
                        attacker="venom-sisters/vexa-nightshade", action="fight", traits=("Melee",)))
    battle.log_event(StateEvent(fighter="venom-sisters/pip-hollow", state=SERIOUSLY_INJURED))
    battle.log_event(XpEvent(fighter="venom-sisters/vexa-nightshade", amount=2))
    battle.log_event(RevealEvent(gang="venom-sisters", card="escher:2",
                        rewards=(Reward("gang_tactics", 3, dice="3"),)))
    battle.log_event(RewardEvent(gang="venom-sisters", card="escher:2",
                        rewards=(Reward("xp", 1, fighter="venom-sisters/lys-venom", dice="D3",
                                        faces=(1,)),)))
    battle.log_event(EndEvent(winner="venom-sisters", fled=("iron-skulls",)))
    o = outcome(battle.state, setup, {"escher:2": "Murder Run"})
    assert o.winner == "venom-sisters" and o.rounds == 1 and o.subplots_revealed == ["escher:2"]
    by_id = {f.fighter: f for f in o.fighters}
    assert by_id["brakk-ironjaw"].end_state is EndState.OUT_OF_ACTION
    assert by_id["brakk-ironjaw"].taken_out_by == "venom-sisters/vexa-nightshade"
    assert by_id["brakk-ironjaw"].how == "Fight: Melee"
    assert by_id["pip-hollow"].end_state is EndState.SERIOUSLY_INJURED
    assert by_id["vexa-nightshade"].xp == 2
    assert by_id["thug-varro"].end_state is EndState.FLED  # his gang fled
    assert [(r.kind, r.amount, r.source, r.fighter) for r in o.rewards] == [
        (RewardKind.GANG_TACTICS, 3, "Sub-plot: Murder Run", ""),
        (RewardKind.XP, 1, "Sub-plot: Murder Run", "lys-venom"),
    ]
    again = outcome_from_data(outcome_to_data(o))
    assert again == o


def test_hands_of_setup(setup) -> None:
    assert hands_of(setup) == {"venom-sisters": ["escher:2"], "iron-skulls": []}


def test_generated_battle_for_the_benchmark() -> None:
    from scripts.generate import generated_battle_file

    campaign, data = generated_battle_file(seed=3)
    b = Battle.from_data(data["battle"])
    assert len(b.log) == 300
    assert [len(b.state.crew(g)) for g in b.state.sides] == [15, 15]
    assert generated_battle_file(seed=3)[1] == data  # the same for a seed


# --- hypothesis: a log always replays to the same state ----------------------------------

_KEYS_A = ["venom-sisters/vexa-nightshade", "venom-sisters/sable-thorn", "venom-sisters/lys-venom"]
_KEYS_B = ["iron-skulls/brakk-ironjaw", "iron-skulls/gorth-slagborn", "iron-skulls/thug-varro"]
_KEYS = _KEYS_A + _KEYS_B
_GANGS = ["venom-sisters", "iron-skulls"]

_events = st.one_of(
    st.builds(lambda f, s, a, act, tr: StateEvent(fighter=f, state=s, attacker=a,
                                            action=act, traits=tuple(tr)),
              st.sampled_from(_KEYS), st.sampled_from(STATES), st.sampled_from(["", *_KEYS]),
              st.sampled_from(["", *ACTIONS]), st.lists(st.sampled_from(TRAITS), max_size=2)),
    st.builds(lambda f, n: FleshWoundEvent(fighter=f, amount=n),
              st.sampled_from(_KEYS), st.integers(1, 2)),
    st.builds(lambda f, r: RecoveryEvent(fighter=f, result=r),
              st.sampled_from(_KEYS), st.sampled_from([PINNED, SERIOUSLY_INJURED, OUT_OF_ACTION])),
    st.builds(lambda f, c, lost: ConditionEvent(fighter=f, condition=c, lost=lost),
              st.sampled_from(_KEYS), st.sampled_from(CONDITIONS), st.booleans()),
    st.builds(lambda f: ActivateEvent(fighter=f), st.sampled_from(_KEYS)),
    st.builds(lambda f, t: FailedTestEvent(fighter=f, test=t),
              st.sampled_from(_KEYS), st.sampled_from(TESTS)),
    st.builds(lambda g: TacticEvent(gang=g), st.sampled_from(_GANGS)),
    st.builds(lambda f, n: XpEvent(fighter=f, amount=n), st.sampled_from(_KEYS),
              st.integers(-1, 3)),
    st.builds(lambda g, n: VpEvent(gang=g, amount=n), st.sampled_from(_GANGS),
              st.integers(-1, 2)),
    st.just("next_phase"),
    st.just("undo"),
    st.just("redo"),
    st.builds(lambda g: EndEvent(winner=g), st.sampled_from(["", *_GANGS])),
)


@settings(max_examples=examples(150), deadline=None)
@given(steps=st.lists(_events, max_size=60))
def test_replaying_the_log_always_yields_the_same_state(steps) -> None:
    demo_campaign = build_demo()
    a, b = demo_campaign.gangs
    setup = default_setup(demo_campaign, 1, a.id, b.id)
    battle = Battle([start_event(setup, demo_campaign)])
    for step in steps:
        if step == "undo":
            battle.undo()
        elif step == "redo":
            battle.redo()
        else:
            ev = next_phase_event(battle.state) if step == "next_phase" else step
            try:
                battle.log_event(ev)
            except BattleError:
                pass
        # incremental state == the log replayed from scratch
        assert battle.state == replay(battle.log)
    # the saved battle reopens to the same log, redo stack and state
    again = Battle.from_data(battle.to_data())
    assert again.log == battle.log and again.redo_stack == battle.redo_stack
    assert again.state == battle.state
    # undoing everything then redoing everything returns to the same state
    before = replay(battle.log)
    n = 0
    while battle.undo():
        n += 1
    assert len(battle.log) == 1
    for _ in range(n):
        battle.redo()
    assert battle.state == before


def test_side_job_achieved_is_banked_for_the_post_battle(battle: Battle, setup) -> None:
    battle.log_event(EndEvent(winner="iron-skulls"))
    battle.log_event(SideJobEvent(gang="iron-skulls"))
    with pytest.raises(BattleError, match="already achieved"):
        battle.log_event(SideJobEvent(gang="iron-skulls"))
    o = outcome(battle.state, setup)
    assert [(r.gang, r.kind, r.source) for r in o.rewards] == [
        ("iron-skulls", RewardKind.OTHER, "Side Job: Side Job")]


def test_load_keeps_what_does_not_replay(battle: Battle) -> None:
    battle.log_event(VpEvent(gang="venom-sisters", amount=1))
    data = battle.to_data()
    data["log"] = [*data["log"], {"kind": "teleport"}, {"kind": "vp", "gang": "venom-sisters", "amount": 1}]
    loaded, rejected, problem = Battle.load(data)
    assert loaded.log == battle.log
    assert rejected == data["log"][2:]
    assert problem.startswith("event 3 (teleport)")
    again, rejected, problem = Battle.load(battle.to_data())
    assert again.log == battle.log and rejected == [] and problem == ""


def test_no_condition_for_a_fighter_off_the_battlefield(battle: Battle) -> None:
    # an Out of Action fighter's conditions are cleared when they go: Broken logged after
    # it (b on an OOA row in the tracker) is refused, the log unchanged
    key = "iron-skulls/thug-varro"
    battle.log_event(StateEvent(fighter=key, state=OUT_OF_ACTION))
    with pytest.raises(BattleError, match="Out of Action \\(off the battlefield\\): no Broken"):
        battle.log_event(ConditionEvent(fighter=key, condition="Broken"))
    assert battle.state.fighters[key].conditions == [] and battle.log[-1].kind == "state"
    # a saved log that holds one (written before this check) still replays
    log = [*battle.log, ConditionEvent(fighter=key, condition="Broken")]
    assert replay(log).fighters[key].conditions == ["Broken"]


# --- one type per event kind -------------------------------------------------------------


def test_every_event_kind_is_one_frozen_type_in_the_union_the_codec_reads() -> None:
    import typing

    import msgspec

    from munda_tui.rules.battle import events as E

    assert list(E.EVENT_KINDS) == list(E.EVENTS)
    assert all(E.EVENT_KINDS[k] == cls.label and cls.label for k, cls in E.EVENTS.items())
    assert list(E.EVENTS.values()) == list(typing.get_args(E.AnyEvent))
    assert "start" in E.EVENTS and "side_job" in E.EVENTS and len(E.EVENTS) == 19
    ev = E.VpEvent(gang="iron-skulls", amount=2)
    assert ev.kind == "vp" and isinstance(ev, E.Event) and hash(ev) == hash(E.VpEvent(gang="iron-skulls", amount=2))
    with pytest.raises(AttributeError):
        ev.amount = 3  # type: ignore[misc]  (frozen)
    # every concrete kind (a struct with a tag) is in the union: none is left out of the codec
    def concrete(cls: type) -> set[type]:
        out = set()
        for sub in cls.__subclasses__():
            if not sub.__name__.startswith("_"):
                out.add(sub)
            out |= concrete(sub)
        return out
    assert concrete(E.Event) == set(E.EVENTS.values())
    assert all(issubclass(cls, msgspec.Struct) for cls in E.EVENTS.values())


def test_an_event_is_read_with_its_kind_fields_checked(battle: Battle) -> None:
    from munda_tui.rules.battle.events import event_from_data, event_to_data

    data = {"kind": "flesh_wound", "fighter": "iron-skulls/brakk-ironjaw", "attacker": "",
            "traits": ["Blaze"], "amount": 2}
    ev = event_from_data(data)
    assert isinstance(ev, FleshWoundEvent) and ev.traits == ("Blaze",) and ev.amount == 2
    assert event_to_data(ev) == {"kind": "flesh_wound", "fighter": "iron-skulls/brakk-ironjaw",
                                 "traits": ["Blaze"], "amount": 2}  # (defaults left out)
    with pytest.raises(BattleError, match="unknown event kind 'cheer'"):
        event_from_data({"kind": "cheer"})
    with pytest.raises(ValueError, match="amount"):
        event_from_data({"kind": "xp", "fighter": "iron-skulls/brakk-ironjaw", "amount": "lots"})


def test_a_new_kind_is_one_class(battle: Battle) -> None:
    """A new kind's check, change and words are its own class's: the log records, replays
    and describes it; it reads back from a file once it is listed in ``AnyEvent``."""
    from munda_tui.rules.battle import events as E

    class Cheer(E._GangEvent, frozen=True, tag="cheer"):
        label = "a crew cheers"

        def validate_gang(self, state: E.BattleState, side: E.SideState) -> None:
            if self.gang == "iron-skulls" and state.sides[self.gang].vp > 0:
                raise BattleError("cheered already")

        def apply(self, state: E.BattleState) -> None:
            state.sides[self.gang].vp += 1

        def describe(self, words: E.Words) -> str:
            return f"{words.gang(self.gang)} cheer"

    with pytest.raises(BattleError, match="no gang 'nobody'"):
        battle.log_event(Cheer(gang="nobody"))
    battle.log_event(Cheer(gang="iron-skulls"))
    with pytest.raises(BattleError, match="cheered already"):
        battle.log_event(Cheer(gang="iron-skulls"))
    assert battle.state.sides["iron-skulls"].vp == 1
    assert E.describe(battle.log[-1], battle.state) == "The Iron Skulls cheer"
    assert replay(battle.log).sides["iron-skulls"].vp == 1
    assert E.event_to_data(battle.log[-1]) == {"kind": "cheer", "gang": "iron-skulls"}
    assert "cheer" not in E.EVENT_KINDS  # (not listed in AnyEvent: a file cannot hold it)
    with pytest.raises(BattleError, match="unknown event kind 'cheer'"):
        E.Battle.from_data(battle.to_data())


def test_after_the_end_only_card_xp_and_side_job_kinds(battle: Battle) -> None:
    from munda_tui.rules.battle.events import EVENTS

    assert {k for k, cls in EVENTS.items() if cls.after_end} == {"reveal", "reward", "xp", "side_job"}
    battle.log_event(EndEvent())
    with pytest.raises(BattleError, match="the battle is over"):
        battle.log_event(VpEvent(gang="iron-skulls", amount=1))
    battle.log_event(SideJobEvent(gang="iron-skulls"))


def test_a_failed_test_naming_a_fighter_and_an_unknown_gang_is_refused(battle: Battle) -> None:
    """A hand-edited log: refused by the check, not a KeyError when applied."""
    with pytest.raises(BattleError, match="no gang 'nope'"):
        battle.log_event(FailedTestEvent(fighter="iron-skulls/thug-varro", gang="nope",
                            test="bottle"))
    loaded, rejected, problem = Battle.load({"log": [event_to_data(e) for e in battle.log] + [
        {"kind": "test_failed", "fighter": "iron-skulls/thug-varro", "gang": "nope",
         "test": "bottle"}]})
    assert len(loaded.log) == 1 and len(rejected) == 1 and "no gang 'nope'" in problem


def test_a_new_kind_tells_the_watch_what_it_is(battle: Battle) -> None:
    """The Sub-plot watch never asks an event's kind: a new kind that says it is a
    takedown, an attack and a reminder timing is watched as one, with no change to the
    watch (a reminder card and a watcher card both meet it)."""
    from munda_tui.rules.battle import events as E
    from munda_tui.rules.battle.watch import HandWatch

    class Trample(E._FighterEvent, frozen=True, tag="trample"):
        label = "a fighter trampled out of action"
        attack = caused = True
        attacker: str = ""

        def validate_fighter(self, state: E.BattleState, f: E.FighterState) -> None:
            pass

        def apply(self, state: E.BattleState) -> None:
            state.fighters[self.fighter].state = OUT_OF_ACTION

        @property
        def put_in(self) -> str:
            return OUT_OF_ACTION

        @property
        def takedown(self) -> str:
            return OUT_OF_ACTION

        def own_timings(self, f: E.FighterState, own: bool) -> set[str]:
            return {"own_tactic"} if own else set()

    table = {"grudge": {"kind": "takedown", "results": [OUT_OF_ACTION]}}
    reminders = {"cheers": ["enemy_takedown"], "chant": ["own_tactic"]}
    run = HandWatch({"iron-skulls": ["grudge", "cheers"], "venom-sisters": ["chant"]},
                    table=table, reminders=reminders)
    for ev in battle.log:
        run.feed(ev)
    run.feed(Trample(fighter="venom-sisters/vexa-nightshade", attacker="iron-skulls/brakk-ironjaw"))
    (grudge, _) = run.matches()[:2]
    assert grudge.status == "met" and grudge.fighter == "iron-skulls/brakk-ironjaw"
    assert {(r.gang, r.card, r.timing) for r in run.reminders()} == {
        ("iron-skulls", "cheers", "enemy_takedown"), ("venom-sisters", "chant", "own_tactic")}


def test_undo_takes_a_simple_kind_back_out_in_place(battle: Battle) -> None:
    """A kind whose change the event alone says (VP, XP, a Flesh Wound, an activation, a
    Gang Tactic, a Side Job, an attack) takes itself back out without replaying the log;
    the state is the log's replay all the same. Others replay."""
    brakk = "iron-skulls/brakk-ironjaw"
    events = [
        VpEvent(gang="iron-skulls", amount=2),
        XpEvent(fighter=brakk, amount=1),
        FleshWoundEvent(fighter=brakk, amount=2),
        ActivateEvent(fighter=brakk),
        TacticEvent(gang="iron-skulls", note="Overwhelm"),
        SideJobEvent(gang="iron-skulls"),
        AttackEvent(fighter=brakk, action="shoot"),
    ]
    for ev in events:
        battle.log_event(ev)
    for _ in events:
        st = battle.state
        battle.undo()
        assert battle.state is st  # taken back out in place, not replayed
        assert battle.state == replay(battle.log)
    battle.log_event(StateEvent(fighter=brakk, state=PINNED))
    st = battle.state
    battle.undo()
    assert battle.state is not st and battle.state == replay(battle.log)
