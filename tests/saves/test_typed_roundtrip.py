"""Saves written before the typed changes and events (issue 33) load through the one codec
and are written back byte for byte: a post-battle commit holding every change kind, in the
key order the old ``Walk.change`` wrote (the resolver's keywords, then ``step``, then a
status's or injury's ``battle`` or Reputation's ``floor``), and a battle log of every
event kind."""

from __future__ import annotations

import copy

from munda_tui.rules.battle.events import EVENTS, Battle, event_from_data, event_to_data
from munda_tui.rules.postbattle.changes import CHANGES, change_from_data, change_to_data

#: one change of every kind, as the post-battle sequence wrote them before issue 33
OLD_CHANGES: list[dict] = [
    {"kind": "credits", "gang": "iron-skulls", "amount": -15, "why": "Post-Battle Action", "step": "actions"},
    {"kind": "reputation", "gang": "iron-skulls", "amount": 2, "why": "", "step": "rewards", "floor": True},
    {"kind": "counter", "gang": "iron-skulls", "counter": "scrap", "name": "Scrap", "amount": 3,
     "why": "salvage", "step": "salvage"},
    {"kind": "xp", "gang": "iron-skulls", "fighter": "krag", "amount": 2, "why": "XP earned in the battle",
     "step": "xp"},
    {"kind": "kills", "gang": "iron-skulls", "fighter": "krag", "amount": 1, "why": "from the log", "step": "xp"},
    {"kind": "status", "gang": "iron-skulls", "fighter": "brak", "status": "captured",
     "captured_by": "grey-ladies", "why": "Out of Action", "step": "captured", "battle": 2},
    {"kind": "bury", "gang": "iron-skulls", "fighter": "brak", "why": "Delete Dead Fighters", "step": "dead"},
    {"kind": "depart", "gang": "iron-skulls", "fighter": "brak", "why": "retired", "step": "retire"},
    {"kind": "injury", "gang": "iron-skulls", "fighter": "krag", "name": "Eye Injury", "roll": "41",
     "effect": "-1 Ballistic Skill", "profile": [["bs", -1]], "battle": 2, "note": False, "step": "injuries"},
    {"kind": "injury", "gang": "iron-skulls", "fighter": "krag", "name": "Out Cold", "battle": 2,
     "step": "injuries"},
    {"kind": "to_stash", "gang": "iron-skulls", "fighter": "krag", "items": ["Stub gun"], "why": "over the limit",
     "step": "spend"},
    {"kind": "to_stash", "gang": "iron-skulls", "fighter": "krag", "why": "Captured", "step": "captured"},
    {"kind": "remove_item", "gang": "iron-skulls", "fighter": "krag", "item": "Frag grenades", "count": 1,
     "why": "sold", "step": "spend"},
    {"kind": "remove_item", "gang": "iron-skulls", "item": "Lasgun", "why": "sold", "step": "spend"},
    {"kind": "mark_spent", "gang": "iron-skulls", "fighter": "krag", "item": "Stimm-slug stash", "step": "spent"},
    {"kind": "seize", "gang": "iron-skulls", "fighter": "brak", "to_gang": "grey-ladies", "step": "actions"},
    {"kind": "clear_equipment", "gang": "iron-skulls", "fighter": "brak", "step": "actions"},
    {"kind": "add_item", "gang": "iron-skulls", "item": {"name": "Grapnel", "cost": 35, "rarity": "Rare (8)"},
     "why": "Trading Post", "step": "spend"},
    {"kind": "give_item", "gang": "iron-skulls", "fighter": "krag", "item": "Lasgun", "step": "spend"},
    {"kind": "take_item", "gang": "iron-skulls", "from_gang": "grey-ladies", "item": "Frag grenades", "count": 1,
     "step": "actions"},
    {"kind": "territory_add", "gang": "iron-skulls", "name": "Old Ruins", "territory_kind": "turf", "step": "territory"},
    {"kind": "territory_remove", "gang": "iron-skulls", "name": "Old Ruins", "step": "territory"},
    {"kind": "territory_size", "gang": "iron-skulls", "amount": 1, "step": "territory"},
    {"kind": "bounty", "gang": "iron-skulls", "fighter": "krag", "amount": 10, "step": "bounty"},
    {"kind": "hire", "gang": "iron-skulls", "data": {"id": "new", "name": "New Blood", "type": "juve", "cost": 25},
     "step": "spend"},
    {"kind": "advance", "gang": "iron-skulls", "fighter": "krag", "name": "+1 Weapon Skill", "xp_cost": 6,
     "cost": 10, "skill": False, "profile": [["ws", 1]], "step": "advance"},
    {"kind": "fighter_type", "gang": "iron-skulls", "fighter": "krag", "type": "champion", "step": "actions"},
    {"kind": "tactics_add", "gang": "iron-skulls", "name": "Overwhelm", "step": "tactics"},
    {"kind": "tactics_remove", "gang": "iron-skulls", "name": "Overwhelm", "step": "tactics"},
    {"kind": "note", "gang": "iron-skulls", "why": "for the report", "step": "notes"},
    {"kind": "weapon_override", "gang": "iron-skulls", "fighter": "krag", "load": 4, "limit": 3,
     "why": "Arbitrator", "step": "spend"},
]


def test_the_old_changes_hold_every_kind() -> None:
    assert {c["kind"] for c in OLD_CHANGES} == set(CHANGES)


def test_every_old_change_reads_and_writes_back_the_same_keys_in_the_same_order() -> None:
    for old in OLD_CHANGES:
        again = change_to_data(change_from_data(copy.deepcopy(old)))
        assert list(again.items()) == list(old.items()), old["kind"]


def test_a_saved_post_battle_with_every_change_re_saves_byte_identical(store, full_campaign) -> None:
    with store.create_campaign(full_campaign) as handle:
        handle.save_battle(2, {"postbattle": {"ruleset": "core", "status": "committing", "commit": {
            "token": "battle-2", "changes": copy.deepcopy(OLD_CHANGES)}}})
        path = handle.battle_path(2)
        before = path.read_bytes()
    with store.open_campaign("full") as handle:
        data = handle.load_battle(2)
        commit = data["postbattle"]["commit"]
        commit["changes"] = [change_to_data(change_from_data(c)) for c in commit["changes"]]
        handle.save_battle(2, data)
        assert handle.battle_path(2).read_bytes() == before


def test_every_old_event_reads_and_writes_back_the_same_keys_in_the_same_order() -> None:
    assert {e["kind"] for e in OLD_LOG} == set(EVENTS)
    for old in OLD_LOG:
        ev = event_from_data(copy.deepcopy(old))
        assert type(ev) is EVENTS[old["kind"]]
        assert ev.kind == old["kind"]
        assert list(event_to_data(ev).items()) == list(old.items()), old["kind"]


def test_a_saved_battle_with_every_event_kind_re_saves_byte_identical(store, full_campaign) -> None:
    log = OLD_LOG
    assert {e["kind"] for e in log} == set(EVENTS)
    with store.create_campaign(full_campaign) as handle:
        handle.save_battle(2, {"battle": {"log": copy.deepcopy(log), "redo": []}})
        before = handle.battle_path(2).read_bytes()
    with store.open_campaign("full") as handle:
        data = handle.load_battle(2)
        battle, rejected, error = Battle.load(data["battle"])
        assert (rejected, error) == ([], "")
        assert len(battle.log) == len(log)
        handle.save_battle(2, {"battle": battle.to_data()})
        assert handle.battle_path(2).read_bytes() == before


#: a battle of every event kind, as the tracker wrote it before issue 33
OLD_LOG: list[dict] = [
    {"kind": "start", "sides": [
        {"gang": "a", "name": "Alpha", "house": "goliath", "fighters": [
            {"id": "x", "name": "X", "type": "leader", "cost": 120},
            {"id": "y", "name": "Y", "type": "ganger", "label": "Y1"},
            {"id": "r", "name": "R", "type": "ganger", "reserve": True}], "side_job": "The Package"},
        {"gang": "b", "name": "Beta", "house": "escher", "fighters": [
            {"id": "z", "name": "Z", "type": "champion"}], "side_job": ""}]},
    {"kind": "priority", "gang": "a"},
    {"kind": "phase", "round": 1, "phase": "action"},
    {"kind": "activate", "fighter": "a/x"},
    {"kind": "attack", "fighter": "b/z", "attacker": "a/x", "action": "shoot", "traits": ["Blaze"]},
    {"kind": "flesh_wound", "fighter": "b/z", "attacker": "a/x", "action": "shoot", "amount": 2},
    {"kind": "condition", "fighter": "b/z", "attacker": "a/x", "condition": "Broken"},
    {"kind": "condition", "fighter": "b/z", "condition": "Broken", "lost": True},
    {"kind": "state", "fighter": "b/z", "state": "seriously_injured", "attacker": "a/x", "action": "fight",
     "traits": ["Melee"]},
    {"kind": "recovery", "fighter": "b/z", "result": "pinned"},
    {"kind": "test_failed", "fighter": "a/y", "test": "nerve"},
    {"kind": "test_failed", "gang": "b", "test": "bottle"},
    {"kind": "tactic", "gang": "b", "note": "Overwhelm"},
    {"kind": "xp", "fighter": "a/x", "amount": 1},
    {"kind": "vp", "gang": "a", "amount": 2},
    {"kind": "phase", "round": 1, "phase": "end"},
    {"kind": "reinforcements_due", "gang": "a", "amount": 1, "round": 1, "dice": "D3", "faces": [1]},
    {"kind": "reinforcement", "fighter": "a/r", "dice": "D6", "faces": [4], "distance": 9},
    {"kind": "reveal", "gang": "a", "card": "spies", "upgraded": True, "rewards": [
        {"kind": "xp", "amount": 2, "fighter": "*", "note": "each"}]},
    {"kind": "reward", "gang": "a", "card": "spies", "rewards": [
        {"kind": "credits", "amount": 10, "dice": "D6", "faces": [2]}]},
    {"kind": "side_job", "gang": "a"},
    {"kind": "end", "winner": "a", "fled": ["b"]},
]
