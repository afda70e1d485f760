"""Scenario tables against seed 001 (Core Rules p142-147), rolls, side jobs."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.core.dice import parse
from munda_tui.rules.core.model import FighterStatus, FighterType
from munda_tui.rules.prebattle.setup import BattleSetup, CrewMember

SEED = "seeds/001_e6fdc855f4bef263.txt"


@pytest.fixture
def seed_text(shared_dir: Path) -> str:
    return (shared_dir / SEED).read_text(encoding="utf-8")


@pytest.fixture
def tables() -> dict[str, sc.ScenarioTable]:
    return sc.packaged_tables()


def test_five_tables_each_a_d6_covered_once(tables):
    assert set(tables) == set(sc.TABLE_IDS)
    for t in tables.values():
        assert t.dice == "D6"
        covered = [n for e in t.entries for n in range(e.low, e.high + 1)]
        assert sorted(covered) == [1, 2, 3, 4, 5, 6]
        assert all(e.source == "Core Rules" and e.page for e in t.entries)


def test_who_rolls_as_the_seed_says(tables):
    assert tables["deployment"].roller == "challenger"
    assert tables["objective"].roller == "challenger"
    assert tables["side_job"].roller == "each"
    assert tables["crew"].roller == "challenged"
    setup = sc.new_setup(1, "a", "b")
    assert sc.roller_gang(tables["deployment"], setup) == "a"
    assert sc.roller_gang(tables["objective"], setup) == "a"
    assert sc.roller_gang(tables["crew"], setup) == "b"
    assert sc.roller_gang(tables["side_job"], setup, "b") == "b"


def _degarble(scan: str, roll: str) -> str:
    """The seed's Deployment scan runs the D6 number into the sentence."""
    if f"roll- {roll} off" in scan:
        return scan.replace(f"roll- {roll} off", "roll-off", 1)
    assert f" {roll} " in scan
    return scan.replace(f" {roll} ", " ", 1)


def test_deployment_matches_the_seed(tables, seed_text):
    names = {e.roll: e.name for e in tables["deployment"].entries}
    # README: result 1 is Sniping Range, Free For All is 5, Ambush is 4
    assert names == {
        "1": "Sniping Range", "2": "Face Off", "3": "Stand Off",
        "4": "Ambush", "5": "Free For All", "6": "Chance Encounter",
    }
    for e in tables["deployment"].entries:
        scan = e.extra.get("scan") or sc.load_data("scenario/deployment.toml")["entries"][e.low - 1]["scan"]
        assert f"Deployment Zone D6 {e.name}: {scan}\n" in seed_text
        assert _degarble(scan, e.roll) == e.text
        assert not re.search(r"\s\d\s", e.text.replace('12"', "").replace('9"', "").replace('6"', ""))


def test_objective_matches_the_seed(tables, seed_text):
    expected_vp = {"1": 3, "2": 0, "3": 3, "4": 10, "5": 3, "6": 2}
    for e in tables["objective"].entries:
        assert f"| {e.roll} | {e.name}{e.text}\n|" in seed_text
        lines = e.text.split("\n")
        assert f"Victory: {e.extra['victory']}" in lines
        assert f"Draw: {e.extra['draw']}" in lines
        assert e.extra["vp_to_win"] == expected_vp[e.roll]
        if e.extra["vp_to_win"]:
            assert f"reach {e.extra['vp_to_win']} VP" in e.extra["victory"]
    assert [e.name for e in tables["objective"].entries] == [
        "King of the Hive", "Turf War", "Tunnel Clash", "Object Lesson", "Flank 'em", "Burn Them Out",
    ]


def test_side_job_matches_the_seed(tables, seed_text):
    for e in tables["side_job"].entries:
        assert f"| {e.roll} | {e.name}: {e.text} |" in seed_text
    targets = {e.name: e.extra.get("target") for e in tables["side_job"].entries}
    assert targets["Settle a Score"]["exclude_types"] == ["Leader"]
    assert targets["Protect the Future"]["prefer_types"] == ["Prospect", "Ganger"]
    assert targets["The Package"]["pick"] == "chosen"
    assert targets["Crippling Strike"] is None


def test_crew_matches_the_seed_with_the_hybrid_reading(tables, seed_text):
    for e in tables["crew"].entries:
        raw = sc.load_data("scenario/crew.toml")["entries"][e.low - 1]
        scan = raw.get("scan", e.text)
        assert f"| {e.roll} | {e.name}: {scan} |" in seed_text
        assert scan.replace("Hybrid (3+03)", "Hybrid (3+D3)") == e.text
    first = tables["crew"].entry_for(1)
    assert "3+D3" in first.note and "3+03" in first.note
    plans = sc.crew_plans(first)
    assert plans["attacker"].method == sc.CrewMethod("hybrid", "3", "D3")
    assert plans["defender"].reinforcements == sc.ReinforcementRule("5", "D3", 1)
    surprise = sc.crew_plans(tables["crew"].entry("Surprise Attack"))
    assert surprise["attacker"].method.label == "Hybrid (4+4)"
    assert surprise["attacker"].reinforcements is None
    assert surprise["defender"].method.label == "Custom (3)"
    assert surprise["defender"].reinforcements == sc.ReinforcementRule("7", "D3", 1)
    assert sc.crew_plans(tables["crew"].entry("Scouting Force"))["attacker"].method.label == "Hybrid (D3+5)"
    assert sc.crew_plans(tables["crew"].entry("Hold Nothing Back!"))["defender"].method.label == "Custom (10)"
    assert sc.crew_plans(tables["crew"].entry("Strike Force"))["defender"].method.label == "Custom (5)"
    assert sc.crew_plans(tables["crew"].entry("Patrol"))["defender"].method.label == "Hybrid (3+4)"
    # every method in the text is the structured one
    for e in tables["crew"].entries:
        for plan in sc.crew_plans(e).values():
            assert plan.method.label.replace("Hybrid", "Hybrid").split(" (")[1] in e.text


def test_pitch_black_matches_the_seed(tables, seed_text):
    for e in tables["pitch_black"].entries:
        assert f"| {e.roll} | {e.name}: {e.text} |" in seed_text
        assert f'Visibility ({e.extra["visibility"]}")' in e.text
    assert tables["pitch_black"].entry_for(3).name == "Near Night"
    assert tables["pitch_black"].entry_for(4).extra["visibility"] == 12
    assert sc.visibility_text(tables["pitch_black"].entry_for(6)) == 'Pitch Black: Full Day Cycle, Visibility (24")'


def test_set_up_rules_are_from_the_seed(seed_text):
    rules = sc.rules_text()
    for b in rules["battlefields"]:
        for para in b["text"].split("\n"):
            assert para in seed_text
    assert {b["name"] for b in rules["battlefields"]} == {"Underhive", "Tunnel Warfare", "Zone Mortalis"}
    for m in rules["methods"].values():
        for para in m["text"].split("\n"):
            assert para in seed_text
    for k in ("reinforcements", "deployment", "visibility"):
        for para in rules[k]["text"].split("\n"):
            assert para.lstrip("- ") in seed_text
    arrival = {a["roll"]: a["distance"] for a in rules["reinforcements"]["arrival"]}
    assert arrival == {"3-6": 9, "1-2": 12}


def test_roll_and_faces_and_records(tables):
    rng = random.Random(3)
    r, entry = tables["objective"].roll(rng)
    assert entry.covers(r.total)
    r2, e2 = tables["pitch_black"].roll_faces([5])
    assert e2.name == "Near Day" and r2.entered
    rec = sc.record_roll(tables["pitch_black"], "a", e2, "dice", r2)
    assert rec == {"table": "pitch_black", "label": "Pitch Black", "by": "a", "how": "dice",
                   "result": "Near Day", "roll": "4-5", "dice": "D6", "faces": [5], "total": 5}
    chosen = sc.record_roll(tables["deployment"], "a", tables["deployment"].entry("Ambush"), "chosen")
    assert "faces" not in chosen and chosen["result"] == "Ambush"


def test_export_shape(tables):
    data = sc.export_tables()
    assert set(data) == {"deployment", "objective", "side_job", "crew", "pitch_black"}
    for rows in data.values():
        for row in rows:
            assert {"roll", "name", "text"} <= set(row)
    assert data["pitch_black"][1]["roll"] == "2-3"


def test_parse_method():
    assert sc.parse_method("Hybrid (3+D3)") == sc.CrewMethod("hybrid", "3", "D3")
    assert sc.parse_method("hybrid(d3+5)") == sc.CrewMethod("hybrid", "D3", "5")
    assert sc.parse_method("Random (D3+5)") == sc.CrewMethod("random", "D3+5")
    assert sc.parse_method("Custom (10)").label == "Custom (10)"
    for bad in ("Hybrid (3)", "Custom", "Mixed (3)", "Custom (D7)", "Custom (1-3)"):
        with pytest.raises(sc.CrewError):
            sc.parse_method(bad)


def test_resolve_amount():
    assert sc.resolve_amount("5") == (5, None)
    total, r = sc.resolve_amount("D3", faces=[2])
    assert total == 2 and r.entered
    total, r = sc.resolve_amount("D3+5", rng=random.Random(1))
    assert 6 <= total <= 8
    with pytest.raises(sc.CrewError):
        sc.resolve_amount("D3")


def test_apply_crew_entry_uses_attacker_and_defender(tables, demo_campaign):
    esc, gol = demo_campaign.gangs
    setup = sc.new_setup(1, esc.id, gol.id, attacker=gol.id)
    sc.apply_crew_entry(setup, tables["crew"].entry("Surprise Attack"))
    assert setup.side(gol.id).crew_method == "Hybrid (4+4)"
    assert setup.side(esc.id).crew_method == "Custom (3)"
    assert setup.reinforcements_each_round == "D3" and setup.reinforcements_from_round == 1
    assert sc.reinforcement_size(setup, tables["crew"].entry("Surprise Attack"), esc.id) == "7"
    assert sc.reinforcement_size(setup, tables["crew"].entry("Surprise Attack"), gol.id) == ""
    sc.apply_crew_entry(setup, tables["crew"].entry("Patrol"))
    assert setup.reinforcements_rule == "" and setup.reinforcements_from_round == 0
    # the set-up survives plain data
    assert BattleSetup.from_data(setup.to_data()) == setup


def _crew(gang, *ids):
    return [CrewMember(i) for i in ids]


def test_settle_a_score_never_the_enemy_leader(tables, demo_campaign):
    esc, gol = demo_campaign.gangs
    entry = tables["side_job"].entry("Settle a Score")
    enemy_crew = [CrewMember(f.id) for f in gol.fighters[:3]]  # leader + 2 champions
    picks = set()
    for s in range(60):
        res = sc.side_job_target(entry, esc, [], gol, enemy_crew, random.Random(s))
        picks.add(res.fighter)
    leader = gol.fighters[0]
    assert leader.type is FighterType.LEADER
    assert picks == {f"{gol.id}/{f.id}" for f in gol.fighters[1:3]}


def test_protect_the_future_prospect_then_ganger_then_new_job(tables, demo_campaign):
    esc, gol = demo_campaign.gangs
    entry = tables["side_job"].entry("Protect the Future")
    esc.fighters[7].type = FighterType.PROSPECT
    crew = [CrewMember(f.id) for f in esc.fighters]
    res = sc.side_job_target(entry, esc, crew, gol, [], random.Random(1))
    assert res.fighter == f"{esc.id}/{esc.fighters[7].id}"
    gangers = [f for f in esc.fighters if f.type is FighterType.GANGER]
    crew = [CrewMember(f.id) for f in esc.fighters[:6]]  # leader, champions, gangers
    res = sc.side_job_target(entry, esc, crew, gol, [], random.Random(1))
    assert res.fighter in {f"{esc.id}/{f.id}" for f in gangers}
    res = sc.side_job_target(entry, esc, [CrewMember(esc.fighters[0].id)], gol, [], random.Random(1))
    assert res.new_side_job and not res.fighter


def test_the_package_is_chosen_by_the_player(tables, demo_campaign):
    esc, gol = demo_campaign.gangs
    entry = tables["side_job"].entry("The Package")
    crew = [CrewMember(f.id) for f in esc.fighters[:2]]
    res = sc.side_job_target(entry, esc, crew, gol, [], random.Random(1))
    assert res.needs_choice and res.candidates == tuple(f"{esc.id}/{f.id}" for f in esc.fighters[:2])
    pick = res.candidates[1]
    assert sc.side_job_target(entry, esc, crew, gol, [], random.Random(1), chosen=pick).fighter == pick
    with pytest.raises(sc.CrewError):
        sc.side_job_target(entry, esc, crew, gol, [], random.Random(1), chosen=f"{esc.id}/nobody")
    none = sc.side_job_target(tables["side_job"].entry("Crippling Strike"), esc, crew, gol, [], random.Random(1))
    assert none == sc.TargetResult()


def test_new_setup_and_missing(demo_campaign):
    esc, gol = demo_campaign.gangs
    s = sc.new_setup(4, esc.id, gol.id)
    assert s.attacker == esc.id and [x.gang for x in s.sides] == [esc.id, gol.id]
    assert "Deployment" in sc.missing_for_battle(s)
    with pytest.raises(ValueError):
        sc.new_setup(4, esc.id, esc.id)


def test_reinforcements_arrival_distance():
    assert [sc.reinforcement_distance(n) for n in range(1, 7)] == [12, 12, 9, 9, 9, 9]
    with pytest.raises(ValueError):
        sc.reinforcement_distance(7)


def test_rules_export_has_scenario_tables():
    import json

    from munda_tui.rules.export import export_all

    data = json.loads(json.dumps(export_all()))
    tables = data["scenario_tables"]
    assert set(tables) == {"deployment", "objective", "side_job", "crew", "pitch_black"}
    assert tables["deployment"][4] == {
        "roll": "5", "name": "Free For All", "source": "Core Rules p145",
        "text": sc.packaged_tables()["deployment"].entry("Free For All").text,
    }
    assert tables["objective"][0]["victory"].startswith("The winner is the first player to reach 3 VP")


def test_replace_roll_keeps_every_earlier_roll_and_why() -> None:
    from munda_tui.rules.prebattle import scenario as sc

    first = {"table": "deployment", "by": "a", "how": "app", "result": "One", "roll": "1",
             "dice": "D6", "faces": [1], "total": 1}
    other = {"table": "objective", "by": "a", "how": "chosen", "result": "X", "roll": "2"}
    rolls = sc.replace_roll([], first)
    assert rolls == [first] and "previous" not in rolls[0]
    rolls = sc.replace_roll(rolls + [other], dict(first, faces=[6], total=6, result="Six"),
                            "a skill")
    rolls = sc.replace_roll(rolls, {"table": "deployment", "by": "a", "how": "chosen",
                                    "result": "Three", "roll": "3"}, "")
    dep = sc.find_roll(rolls, "deployment", "a")
    assert [p["total"] for p in dep["previous"][:2]] == [1, 6] and len(rolls) == 2
    assert sc.reroll_lines(dep) == ["re-rolled: 1 → 6 (One → Six), a skill",
                                    "chosen instead: 6 → 3 (Six → Three), changed"]


def test_the_postbattle_report_lists_the_prebattle_rerolls() -> None:
    import postbattle_support as S
    from munda_tui.rules.postbattle import sequence as pb
    import random

    rec = {"table": "deployment", "label": "Deployment", "by": S.ESCHER, "how": "dice",
           "result": "B", "roll": "6", "dice": "D6", "faces": [6], "total": 6, "reason": "cocked",
           "previous": [{"table": "deployment", "by": S.ESCHER, "how": "app", "result": "A",
                         "roll": "1", "dice": "D6", "faces": [1], "total": 1}]}
    seq = S.make_seq()
    seq = pb.PostBattle(seq.base, 1, seq.draft, S.demo_outcome(), setup={"rolls": [rec]})
    S.drive(seq, random.Random(1))
    assert "- Pre-battle, Deployment: re-rolled: 1 → 6 (A → B), cocked" in seq.report()
