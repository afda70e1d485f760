"""The battle record: the log and the tracker's own keys, read and written as before."""

from __future__ import annotations

from munda_tui.rules.battle.events import event_to_data

from munda_tui.rules.battle.events import EndEvent, PhaseEvent, XpEvent

import pytest

from munda_tui.rules.battle.events import Battle, BattleError, Event, Reward, default_setup, start_event
from munda_tui.rules.battle.record import BattleRecord, public_cards
from munda_tui.rules.battle.reward_plan import RevealResult

VARRO = "iron-skulls/thug-varro"


@pytest.fixture
def setup(demo_campaign):  # type: ignore[no-untyped-def]
    a, b = demo_campaign.gangs
    s = default_setup(demo_campaign, 1, a.id, b.id)
    s.subplots = True
    s.sides[0].hand = ["escher:2", "goliath:K", "delaque:10"]
    # Naked Brutality (chosen at Choose Crew, open) and Dead of Night (a secret number)
    s.sides[0].subplot_choices = {"goliath:K": "thug-varro", "delaque:10": "3"}
    return s


def test_a_new_battle_starts_from_the_set_up(setup, demo_campaign) -> None:  # type: ignore[no-untyped-def]
    rec = BattleRecord.resume(None, setup, demo_campaign)
    assert rec.changed and [e.kind for e in rec.battle.log] == ["start"]
    assert rec.to_data() == {"log": [event_to_data(rec.battle.log[0])], "redo": []}
    assert not BattleRecord.resume(rec.to_data(), setup, demo_campaign).changed


def test_every_key_read_and_written_as_it_was(setup, demo_campaign) -> None:  # type: ignore[no-untyped-def]
    battle = Battle([start_event(setup, demo_campaign)])
    battle.log_event(EndEvent())
    data = {"log": [event_to_data(e) for e in battle.log], "redo": [],
            "seen": {"venom-sisters": ["escher:2"]}, "start_walked": True,
            "rejected": [{"kind": "zap"}], "note": "a key this version does not know"}
    rec = BattleRecord.resume(data, setup, demo_campaign)
    assert rec.seen == {"venom-sisters": ["escher:2"]} and rec.start_walked
    assert rec.to_data() == data and list(rec.to_data()) == list(data)
    done = rec.finished(setup, {})
    assert rec.outcome is None  # (a new record: this one not changed)
    rec, o = done, done.outcome
    again = BattleRecord.from_data(rec.to_data())
    assert again.outcome == o and rec.to_data()["outcome"]["battle"] == 1
    assert again.to_data() == rec.to_data()


def test_a_hand_edited_log_keeps_what_does_not_replay(setup, demo_campaign) -> None:  # type: ignore[no-untyped-def]
    start = event_to_data(start_event(setup, demo_campaign))
    bad = {"kind": "state", "fighter": "nobody/x", "state": "pinned"}
    after = {"kind": "vp", "gang": "iron-skulls", "amount": 1}
    rec = BattleRecord.resume({"log": [start, bad, after], "rejected": [{"kind": "old"}]},
                            setup, demo_campaign)
    assert rec.changed and len(rec.battle.log) == 1
    assert "event 2 (state): no fighter 'nobody/x'" in rec.problem
    assert rec.to_data()["rejected"] == [{"kind": "old"}, bad, after]


def test_record_undo_redo_and_the_reveal(setup, demo_campaign) -> None:  # type: ignore[no-untyped-def]
    rec = BattleRecord.resume(None, setup, demo_campaign)
    with pytest.raises(BattleError):
        rec.log_event(XpEvent(fighter=VARRO, amount=0))
    rec.log_event(XpEvent(fighter=VARRO, amount=1))
    assert rec.undo() is not None and rec.state.fighters[VARRO].xp == 0
    assert rec.redo() is not None and rec.state.fighters[VARRO].xp == 1
    got = RevealResult(True, (Reward("gang_tactics", 3, dice="3"),))
    rec.log_event(rec.reveal_event("venom-sisters", "escher:2", got))
    ev = rec.battle.log[-1]
    assert (ev.kind, ev.card, ev.upgraded, ev.rewards) == ("reveal", "escher:2", True, got.rewards)
    rec.log_event(rec.reward_event("venom-sisters", "escher:2", RevealResult(False, ())))
    assert rec.battle.log[-1].kind == "reward"
    assert rec.to_data()["log"][-2]["rewards"] == [{"kind": "gang_tactics", "amount": 3, "dice": "3"}]


def test_public_cards_are_decided_in_the_record(setup, demo_campaign) -> None:  # type: ignore[no-untyped-def]
    assert public_cards(setup) == {"venom-sisters": {"goliath:K": "thug-varro"}}  # not the secret
    rec = BattleRecord.resume(None, setup, demo_campaign)
    assert rec.public_in_order("venom-sisters") == ["goliath:K"]
    assert not rec.is_public("venom-sisters", "escher:2")
    rec.log_event(rec.reveal_event("venom-sisters", "escher:2", RevealResult(False, ())))
    assert rec.public_in_order("venom-sisters") == ["escher:2", "goliath:K"]
    assert rec.is_public("venom-sisters", "escher:2") and not rec.is_public("iron-skulls", "escher:2")
    setup.sides[0].subplot_choices = {}
    rec.update_public(setup)  # after the start walk: the set-up's choices again
    assert rec.public == {} and rec.public_in_order("venom-sisters") == ["escher:2"]


def test_seen_and_the_start_walk(setup, demo_campaign) -> None:  # type: ignore[no-untyped-def]
    rec = BattleRecord.resume(None, setup, demo_campaign)
    hands = {"venom-sisters": setup.sides[0].hand}
    assert rec.start_walk_due(setup, hands)
    assert not rec.start_walk_due(setup, {"venom-sisters": []})
    assert not rec.mark_seen("venom-sisters", []) and "seen" not in rec.to_data()
    assert rec.mark_seen("venom-sisters", ["escher:2"])
    assert not rec.mark_seen("venom-sisters", ["escher:2"])  # nothing new: nothing to save
    rec.walked_start({"iron-skulls": []}, everyone=False)
    assert rec.start_walk_due(setup, hands)  # not every player walked: offered again
    assert rec.to_data()["seen"] == {"venom-sisters": ["escher:2"], "iron-skulls": []}
    rec.walked_start({"venom-sisters": ["delaque:10@battle_start"]}, everyone=True)
    assert not rec.start_walk_due(setup, hands) and rec.to_data()["start_walked"] is True
    assert rec.seen["venom-sisters"] == ["escher:2", "delaque:10@battle_start"]
    rec.log_event(PhaseEvent(round=2, phase="priority"))
    rec.start_walked = False
    assert not rec.start_walk_due(setup, hands)  # round 1 is over
