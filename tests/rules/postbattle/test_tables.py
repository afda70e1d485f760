"""The post-battle tables against the seeds: every range, every face, every action's
eligibility by gang and fighter type."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.core.rulesets import ruleset_ids
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import (
    Equipment,
    Fighter,
    FighterStatus,
    FighterType,
    GangType,
    Territory,
    TerritoryKind,
)
from munda_tui.rules.core.outcome import BattleOutcome, EndState, FighterOutcome

import postbattle_support as S  # tests/ is on sys.path (pyproject: pythonpath)

ESCHER, GOLIATH = S.ESCHER, S.GOLIATH
SEEDS = Path(__file__).resolve().parents[4] / "shared" / "seeds"

GW_RANGES = {
    "fate-of-the-fallen": [(1, 2), (3, 4), (5, 99)],
    "dead-equipment": [(1, 2), (3, 6)],
    "selling": [(1, 3), (4, 6)],
    "foraging": [(1, 2), (3, 4), (5, 9), (10, 99)],
    "show-of-force": [(4, 5), (6, 7), (8, 11), (12, 99)],
    "show-of-force-misadventure": [(1, 2), (3, 5), (6, 6)],
    "show-of-force-confrontation": [(1, 1), (2, 3), (4, 5), (6, 6)],
    "territory-expansion": [(1, 5), (6, 9), (10, 99)],
    "do-business": [(2, 3), (4, 8), (9, 99)],
    "extort": [(2, 5), (6, 11), (12, 99)],
    "prize-fight": [(1, 1), (2, 3), (4, 5), (6, 6)],
    "prize-fight-draw": [(1, 1), (2, 4), (5, 6)],
    "prize-fight-ko": [(1, 2), (3, 5), (6, 6)],
    "skulduggery": [(1, 2), (3, 5), (6, 6)],
    "skulduggery-misadventure": [(1, 1), (2, 2), (3, 3)],
    "just-rewards": [(1, 6), (7, 9), (10, 99)],
    "medical-escort": [(1, 1), (2, 4), (5, 6)],
}
TW_RANGES = {
    "succumbing": [(1, 2), (3, 99)],
    "special-territory-gain": [(2, 6), (7, 99)],
    "special-territory-loss": [(-99, 0), (1, 5)],
}
INJURY_2018 = [(11, 11, "Lesson Learned"), (12, 26, "Out Cold"), (31, 45, "Grievous Injury"),
               (46, 46, "Humiliated"), (51, 51, "Head Injury"), (52, 52, "Eye Injury"),
               (53, 53, "Hand Injury"), (54, 54, "Hobbled"), (55, 55, "Spinal Injury"),
               (56, 56, "Enfeebled"), (61, 65, "Critical Injury"), (66, 66, "Memorable Death")]
D66 = [t * 10 + u for t in range(1, 7) for u in range(1, 7)]


def norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("•", "")).strip()


# --- the data against the seeds ----------------------------------------------------------


@pytest.mark.parametrize("table,ranges", sorted(GW_RANGES.items()))
def test_gang_war_table_ranges(table: str, ranges: list[tuple[int, int]]) -> None:
    t = pb.get_table("gang-war", table)
    assert [(r["min"], r["max"]) for r in t["rows"]] == ranges
    assert t["source"].startswith("Gang War Post-Battle Sequence")


@pytest.mark.parametrize("table,ranges", sorted(TW_RANGES.items()))
def test_turf_war_table_ranges(table: str, ranges: list[tuple[int, int]]) -> None:
    t = pb.get_table("turf-war-2017", table)
    assert [(r["min"], r["max"]) for r in t["rows"]] == ranges


def test_lasting_injury_table_2018_every_d66_face() -> None:
    t = pb.injury_table("rulebook-2018")
    for face in D66:
        row = pb.lookup(t, face)
        want = next(name for lo, hi, name in INJURY_2018 if lo <= face <= hi)
        assert row is not None and row["name"] == want, face


def test_lasting_injury_table_2023_covers_every_d66_face() -> None:
    t = pb.injury_table("core-2023")
    for face in D66:
        assert pb.lookup(t, face) is not None, face
    assert pb.lookup(t, 55)["name"] == "Captured" and pb.lookup(t, 56)["name"] == "Captured"
    assert pb.lookup(t, 54)["name"] == "Multiple Injuries"


@pytest.mark.parametrize("ruleset,seed", [("gang-war", "004_90ce6e60c7c38907.txt"),
                                          ("turf-war-2017", "002_25fb5b52c25b1137.txt")])
def test_row_texts_are_the_seeds_words(ruleset: str, seed: str) -> None:
    path = SEEDS / seed
    if not path.exists():
        pytest.skip("seeds not beside the repo")
    text = norm(path.read_text())
    for tid, t in pb.load_ruleset(ruleset)["tables"].items():
        for r in t.get("rows", []):
            if r.get("app"):  # munda-tui's words, shown as such (Special Territories 2-6, 1-5)
                continue
            words = norm(r["text"])
            assert words in text or words.rstrip(".") in text, (tid, r["text"])
        for o in t.get("options", []):
            assert norm(f"{o['name']}: {o['text']}") in text, (tid, o["name"])


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_step_has_a_resolver_and_text(ruleset: str) -> None:
    rs = pb.load_ruleset(ruleset)
    ids = [s["id"] for s in rs["steps"]]
    assert len(ids) == len(set(ids))
    for s in rs["steps"]:
        assert s["resolver"] in pb.RESOLVERS, s["id"]
        assert s["title"] and s["text"]


def test_gang_war_steps_in_the_seeds_order() -> None:
    titles = [s["title"] for s in pb.load_ruleset("gang-war")["steps"]]
    assert titles == [
        "Wrap Up", "Consumables", "End of Battle Events", "Seriously Injured",
        "Lasting Injuries", "Resolve Dramatis Personae", "Resolve Bounty Hunters",
        "Escaping Capture", "Receive Rewards", "Territory", "Reputation", "Collect Income",
        "Post-Battle Actions", "Delete Dead Fighters", "Merc Upkeep", "Delete Retiring Fighters",
        "Advance Fighters", "Loss of a Leader", "Buy and Hire", "Sell Equipment",
        "Buy Rare Equipment", "Buy Common Equipment", "Distribute Equipment",
        "Modify Tactics Cards", "Update Gang Rating", "Report Results"]


def test_turf_war_borrowed_tables_say_so() -> None:
    rs = pb.load_ruleset("turf-war-2017")
    for a in rs["actions"]:
        if a.get("table", "").startswith("gang-war:"):
            assert "not printed in the 2017 seed" in a["borrowed"], a["id"]
    for s in rs["steps"]:
        if s.get("table", "").startswith("gang-war:"):
            assert "not printed in the 2017 seed" in s["borrowed"], s["id"]


def test_export_section() -> None:
    from munda_tui.rules.export import export_all

    data = export_all()["post_battle"]
    assert [r["id"] for r in data["rulesets"]] == ["gang-war", "turf-war-2017"]
    assert {"id": "wrap-up", "title": "Wrap Up"} in data["rulesets"][0]["steps"]
    assert "gang-war:fate-of-the-fallen" in data["tables"]
    assert "lasting-injuries:rulebook-2018" in data["tables"]


# --- Seriously Injured, Lasting Injuries ----------------------------------------------------


def one_si(gang_takes_prisoners: bool = True) -> BattleOutcome:
    return BattleOutcome(battle=1, gangs=[ESCHER, GOLIATH], winner=ESCHER, fighters=[
        FighterOutcome(ESCHER, "lys-venom", EndState.SERIOUSLY_INJURED),
        FighterOutcome(GOLIATH, "brakk-ironjaw")],
        takes_prisoners={ESCHER: True, GOLIATH: gang_takes_prisoners})


def to_step(seq: pb.PostBattle, step: str, faces: dict[str, list[int]] | None = None,
            seed: int = 1) -> pb.PostBattle:
    return S.drive(seq, random.Random(seed), until=step, faces=faces)


@pytest.mark.parametrize("face", range(1, 7))
@pytest.mark.parametrize("prisoners", [True, False])
def test_fate_of_the_fallen_every_face(face: int, prisoners: bool) -> None:
    seq = to_step(S.make_seq(outcome=one_si(prisoners)), "seriously-injured",
                  {f"fate:{ESCHER}:lys-venom": [face]})
    lys = seq.work.gang(ESCHER).fighter("lys-venom")
    ooa = f"{ESCHER}/lys-venom" in seq.facts.get("ooa", [])
    if face <= 2:
        assert ooa and lys.status is FighterStatus.ACTIVE
    elif face <= 4 and prisoners:
        assert lys.status is FighterStatus.CAPTURED and lys.captured_by == GOLIATH
    else:  # 5+, or a capture when the opponent takes no prisoners
        assert not ooa and lys.status is FighterStatus.ACTIVE
        if face <= 4:
            assert any("treated as a 5+" in line for line in seq.state.lines)


@pytest.mark.parametrize("face", range(1, 7))
def test_turf_war_succumbing_never_captures(face: int) -> None:
    seq = to_step(S.make_seq("turf-war-2017", outcome=one_si()), "seriously-injured",
                  {f"fate:{ESCHER}:lys-venom": [face]})
    lys = seq.work.gang(ESCHER).fighter("lys-venom")
    assert lys.status is FighterStatus.ACTIVE
    assert (f"{ESCHER}/lys-venom" in seq.facts.get("ooa", [])) == (face <= 2)


def ooa_outcome() -> BattleOutcome:
    return BattleOutcome(battle=1, gangs=[ESCHER, GOLIATH], winner=ESCHER, fighters=[
        FighterOutcome(ESCHER, "vexa-nightshade"),
        FighterOutcome(GOLIATH, "brakk-ironjaw"),
        FighterOutcome(GOLIATH, "dak-cinderfist", EndState.OUT_OF_ACTION,
                       taken_out_by=f"{ESCHER}/vexa-nightshade")])


@pytest.mark.parametrize("face", D66)
def test_lasting_injury_every_d66_face_applies(face: int) -> None:
    pid = f"injury:{GOLIATH}:dak-cinderfist"
    faces = {pid: [face // 10, face % 10], f"{pid}:0:xp": [2]}
    seq = to_step(S.make_seq(outcome=ooa_outcome()), "lasting-injuries", faces)
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    vexa = seq.work.gang(ESCHER).fighter("vexa-nightshade")
    name = next(n for lo, hi, n in INJURY_2018 if lo <= face <= hi)
    want_status = {"Lesson Learned": FighterStatus.RECOVERY, "Grievous Injury": FighterStatus.RECOVERY,
                   "Critical Injury": FighterStatus.CRITICAL, "Memorable Death": FighterStatus.DEAD}
    assert dak.status is want_status.get(name, FighterStatus.ACTIVE)
    recorded = [i.name for i in dak.injuries]
    if name in ("Lesson Learned", "Out Cold", "Grievous Injury"):
        assert recorded == []
    else:
        assert recorded == [name] and dak.injuries[0].roll == str(face)
        # the 2018 table's characteristic effects are on the profile, not in the notes;
        # Dak Cinderfist: M 4 WS 3+ BS 4+ S 4 T 4 W 1 I 4+ A 1 Ld 7+ Cl 7+ Wil 8+ Int 8+
        # (worse target numbers are higher: -1 Leadership turns 7+ into 8+)
        want = {"Humiliated": {"ld": 8, "cl": 8}, "Head Injury": {"int": 9, "wil": 9},
                "Eye Injury": {"bs": 5}, "Hand Injury": {"ws": 4}, "Hobbled": {"m": 3},
                "Spinal Injury": {"s": 3}, "Enfeebled": {"t": 3}}.get(name, {})
        base = {"m": 4, "ws": 3, "bs": 4, "s": 4, "t": 4, "w": 1, "i": 4, "a": 1,
                "ld": 7, "cl": 7, "wil": 8, "int": 8}
        assert dak.characteristics == base | want
        assert dak.notes == ""
        if name == "Eye Injury":
            assert dak.injuries[0].effect == "-1 Ballistic Skill: BS 4+ -> 5+"
    assert dak.xp == (2 if name == "Lesson Learned" else 0)
    assert vexa.xp == 6 + (1 if name == "Memorable Death" else 0)


def test_core_2023_captured_result_captures() -> None:
    c = demo_campaign()
    c.settings.lasting_injury_table = "core-2023"
    pid = f"injury:{GOLIATH}:dak-cinderfist"
    seq = to_step(S.make_seq(outcome=ooa_outcome(), campaign=c), "lasting-injuries", {pid: [5, 5]})
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.status is FighterStatus.CAPTURED and dak.captured_by == ESCHER


def test_core_2023_multiple_injuries_rerolls_the_listed_results() -> None:
    c = demo_campaign()
    c.settings.lasting_injury_table = "core-2023"
    pid = f"injury:{GOLIATH}:dak-cinderfist"
    faces = {pid: [5, 4], f"{pid}:multi": [2], f"{pid}:multi0:0": [2, 1],  # Out Cold: re-roll
             f"{pid}:multi0:1": [4, 4], f"{pid}:multi1:0": [1, 2]}
    seq = to_step(S.make_seq(outcome=ooa_outcome(), campaign=c), "lasting-injuries", faces)
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert [i.name for i in dak.injuries] == ["Eye Injury", "Impressive Scars"]


def test_alternate_injury_table_is_entered() -> None:
    c = demo_campaign()
    c.gang(GOLIATH).fighter("dak-cinderfist").standard_injuries = False
    seq = S.make_seq(outcome=ooa_outcome(), campaign=c)
    while seq.step["id"] != "lasting-injuries":
        seq.advance()
    assert seq.pending.kind == "text"
    seq.answer("Mangled Arm")
    assert seq.work.gang(GOLIATH).fighter("dak-cinderfist").injuries[0].name == "Mangled Arm"


# --- Post-Battle Actions -------------------------------------------------------------------


def pba_seq(ruleset: str = "gang-war", campaign: Any = None) -> pb.PostBattle:
    outcome = BattleOutcome(battle=1, gangs=[ESCHER, GOLIATH], winner=ESCHER, fighters=[
        FighterOutcome(ESCHER, "vexa-nightshade"), FighterOutcome(GOLIATH, "brakk-ironjaw"),
        FighterOutcome(GOLIATH, "dak-cinderfist")])
    seq = to_step(S.make_seq(ruleset, outcome=outcome, campaign=campaign), "post-battle-actions")
    seq.baseline = {g.id: (g.credits, g.reputation) for g in seq.work.gangs}  # type: ignore[attr-defined]
    return seq


def take(seq: pb.PostBattle, gang: str, fighter: str, action: str, faces: list[list[int]],
         others: list[str] | None = None, choices: list[str] | None = None) -> pb.PostBattle:
    """One fighter takes an action: rolls use ``faces`` in order, choices ``choices``."""
    seq.add_entry(f"act|{gang}|{fighter}")
    seq.answer(action)
    faces, choices = list(faces), list(choices or [])
    guard = 0
    while seq.pending is not None:
        guard += 1
        assert guard < 50
        p = seq.pending
        if p.kind == "multi":
            seq.answer(others or [])
        elif p.kind == "roll":
            seq.answer({"faces": faces.pop(0), "entered": True})
        elif p.kind == "choice":
            seq.answer(choices.pop(0) if choices else p.default)
        elif p.kind == "number":
            seq.answer(p.default or 0)
        else:
            seq.answer(p.default or "New Turf")
    assert not faces, f"unused faces {faces}"
    return seq


def gang_delta(seq: pb.PostBattle, gid: str) -> tuple[int, int]:
    """Credits and Reputation gained since the Post-Battle Actions step began."""
    g = seq.work.gang(gid)
    credits, rep = getattr(seq, "baseline", {}).get(gid) or (seq.base.gang(gid).credits,
                                                              seq.base.gang(gid).reputation)
    return g.credits - credits, g.reputation - rep


def set_gang(campaign: Any, gid: str, gtype: GangType) -> Any:
    campaign.gang(gid).type = gtype
    return campaign


@pytest.mark.parametrize("d1,d2", [(a, b) for a in range(1, 7) for b in range(1, 7)])
def test_work_the_turf_every_face(d1: int, d2: int) -> None:
    # Venom Sisters: one Turf (Old Ruins); the Leader (+3) and a Juve (+1) go
    seq = pba_seq()
    take(seq, ESCHER, "vexa-nightshade", "work-the-turf", [[d1, d2]], others=["ria-cinder"])
    total = d1 - d2 + 1 + 3 + 1
    assert gang_delta(seq, ESCHER) == (total * 10 if total > 0 else 0, 0)


def test_work_the_turf_modifiers_by_type() -> None:
    c = demo_campaign()
    c.gang(ESCHER).fighters.append(Fighter("merc", "Kal Jerico", FighterType.HIRED_GUN,
                                           skills=["Fixer"]))
    seq = pba_seq(campaign=c)
    take(seq, ESCHER, "sable-thorn", "work-the-turf", [[1, 1]],
         others=["lys-venom", "merc", "kira-ashfall"])
    # 0 + 1 Turf + Champion 2 + Ganger 1 + Merc 2 + Champion 2 = 8
    assert gang_delta(seq, ESCHER)[0] == 80


def test_work_the_turf_once_per_sequence_and_needs_turf() -> None:
    seq = pba_seq()
    take(seq, ESCHER, "vexa-nightshade", "work-the-turf", [[3, 3]])
    seq.add_entry(f"act|{ESCHER}|sable-thorn")
    opt = next(o for o in seq.pending.options if o.id == "work-the-turf")
    assert not opt.enabled and "once per" in opt.reason
    c = demo_campaign()
    c.gang(ESCHER).territories = [Territory("Settlement", TerritoryKind.SPECIAL)]
    seq = pba_seq(campaign=c)
    seq.add_entry(f"act|{ESCHER}|sable-thorn")
    opt = next(o for o in seq.pending.options if o.id == "work-the-turf")
    assert not opt.enabled and "no Turf" in opt.reason


FORAGE = {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2}  # D6 + 1 fighter -> row index


@pytest.mark.parametrize("face", range(1, 7))
def test_forage_every_face(face: int) -> None:
    c = set_gang(demo_campaign(), ESCHER, GangType.ASH_WASTE_NOMADS)
    seq = pba_seq(campaign=c)
    credit_faces = {0: [], 1: [[2]], 2: [[2, 3]]}[FORAGE[face]]
    take(seq, ESCHER, "vexa-nightshade", "forage", [[face]] + credit_faces)
    want = {0: 0, 1: (2 + 1) * 10, 2: (5 + 1) * 10}[FORAGE[face]]
    assert gang_delta(seq, ESCHER) == (want, 0)


def test_forage_ten_plus() -> None:
    c = set_gang(demo_campaign(), ESCHER, GangType.RATSKINS)
    seq = pba_seq(campaign=c)
    others = ["sable-thorn", "kira-ashfall", "mara-quill", "oona-vale"]
    take(seq, ESCHER, "vexa-nightshade", "forage", [[6], [4]], others=others)
    assert gang_delta(seq, ESCHER) == ((4 + 1) * 15, 0)


SOF_GROUP = ["sable-thorn", "mara-quill", "oona-vale"]  # leader + 1 champion + 2 gangers = 4


@pytest.mark.parametrize("face", range(1, 7))
def test_show_of_force_every_face(face: int) -> None:
    seq = pba_seq()
    total = face + 4
    faces = [[face]]
    if total <= 5:  # Misadventure: a D6 per fighter, all 3-5
        faces += [[4]] * 4
    if total >= 12:  # Confrontation
        faces += [[2]] * 4
    take(seq, ESCHER, "vexa-nightshade", "show-of-force", faces, others=SOF_GROUP)
    want = {5: 0, 6: -1, 7: -1, 8: 1, 9: 1, 10: 1}[total]
    assert gang_delta(seq, ESCHER) == (0, want)


@pytest.mark.parametrize("face", range(1, 7))
def test_show_of_force_misadventure_every_face(face: int) -> None:
    seq = pba_seq()
    faces = [[1], [face], [4], [4], [4]]  # 1 + 4 fighters = 5: Misadventure
    if face <= 2:
        faces.insert(2, [1, 2])  # Lasting Injury for Vexa: 12 Out Cold
    take(seq, ESCHER, "vexa-nightshade", "show-of-force", faces, others=SOF_GROUP)
    vexa = seq.work.gang(ESCHER).fighter("vexa-nightshade")
    rep = {1: -1, 2: -1, 3: 0, 4: 0, 5: 0, 6: 1}[face]
    assert gang_delta(seq, ESCHER) == (0, rep)
    assert vexa.xp == 6 + (1 if face == 6 else 0)


def test_show_of_force_misadventure_killed_loses_d3_reputation() -> None:
    seq = pba_seq()
    take(seq, ESCHER, "vexa-nightshade", "show-of-force",
         [[1], [1], [6, 6], [3], [4], [4], [4]], others=SOF_GROUP)
    assert seq.work.gang(ESCHER).fighter("vexa-nightshade").status is FighterStatus.DEAD
    assert gang_delta(seq, ESCHER) == (0, -3)


@pytest.mark.parametrize("face", range(1, 7))
def test_show_of_force_confrontation_every_face(face: int) -> None:
    seq = pba_seq()
    others = SOF_GROUP + ["tessa-gloom", "ria-cinder", "pip-hollow", "kira-ashfall"]  # 8 fighters
    faces = [[6], [face]] + [[2]] * 7  # 6 + 8 = 14
    if face == 1:
        faces.insert(2, [1, 2])  # Out Cold
    if face == 6:
        faces.insert(2, [3])  # D3 XP and Reputation
    take(seq, ESCHER, "vexa-nightshade", "show-of-force", faces, others=others)
    rep = {1: -1, 2: 0, 3: 0, 4: 1, 5: 1, 6: 3}[face]
    xp = {4: 1, 5: 1, 6: 3}.get(face, 0)
    assert gang_delta(seq, ESCHER) == (0, rep)
    assert seq.work.gang(ESCHER).fighter("vexa-nightshade").xp == 6 + xp


def test_show_of_force_needs_a_leader_and_two_others() -> None:
    seq = pba_seq()
    seq.add_entry(f"act|{ESCHER}|vexa-nightshade")
    seq.answer("show-of-force")
    seq.answer(["mara-quill"])
    assert seq.pending.kind == "multi" and "needs at least" in seq.pending.note


@pytest.mark.parametrize("face", range(1, 7))
def test_territory_expansion_every_face(face: int) -> None:
    seq = pba_seq()
    faces = [[face]] + ([[3, 3]] if face + 4 >= 10 else [])
    take(seq, ESCHER, "vexa-nightshade", "territory-expansion", faces,
         others=["sable-thorn", "kira-ashfall", "mara-quill"])  # +4
    g = seq.work.gang(ESCHER)
    if face + 4 <= 5:
        assert len(g.territories) == 2
    elif face + 4 <= 9:
        assert len(g.territories) == 3 and g.territories[-1].kind is TerritoryKind.TURF
    else:
        assert len(g.territories) == 3 and g.territories[-1].kind is TerritoryKind.SPECIAL


def test_territory_expansion_ten_plus_special_with_reroll() -> None:
    seq = pba_seq()
    others = ["sable-thorn", "kira-ashfall", "mara-quill", "oona-vale"]
    seq.add_entry(f"act|{ESCHER}|vexa-nightshade")
    seq.answer("territory-expansion")
    seq.answer(others)
    seq.answer({"faces": [5]})  # 5 + 5 = 10
    seq.answer({"faces": [1, 4]})  # 14: may re-roll once
    assert seq.pending.kind == "choice" and "re-rolled once" in seq.pending.label
    seq.answer("reroll")
    seq.answer({"faces": [4, 4]})
    seq.answer("Drinking Hole")
    t = seq.work.gang(ESCHER).territories[-1]
    assert (t.name, t.kind) == ("Drinking Hole", TerritoryKind.SPECIAL)


@pytest.mark.parametrize("face", range(1, 7))
def test_do_business_every_face(face: int) -> None:
    seq = pba_seq()  # Escher Leader alone: D6 + 1
    total = face + 1
    faces = [[face]]
    if 4 <= total <= 8:
        faces.append([3, 4])  # 2D6x5 = 35
    if total >= 9:
        faces += [[2], [2]]
    take(seq, ESCHER, "vexa-nightshade", "do-business", faces)
    want = {2: (0, -1), 3: (0, -1), 4: (35, 1), 5: (35, 1), 6: (35, 1), 7: (35, 1)}[total]
    assert gang_delta(seq, ESCHER) == want


def test_do_business_nine_plus_and_van_saar_extra_die() -> None:
    c = set_gang(demo_campaign(), ESCHER, GangType.VAN_SAAR)
    seq = pba_seq(campaign=c)
    seq.add_entry(f"act|{ESCHER}|vexa-nightshade")
    seq.answer("do-business")
    seq.answer(["sable-thorn", "kira-ashfall"])
    assert seq.pending.dice == "2D6kh1"
    seq.answer({"faces": [2, 6]})  # keeps 6: 6 + 3 = 9 Business Is Booming
    seq.answer({"faces": [2]})  # (D3+1)x20 = 60
    seq.answer({"faces": [3]})  # D3 Reputation
    assert gang_delta(seq, ESCHER) == (60, 3)


def test_do_business_is_for_leaders_and_champions_once() -> None:
    seq = pba_seq()
    seq.add_entry(f"act|{ESCHER}|mara-quill")
    opt = next(o for o in seq.pending.options if o.id == "do-business")
    assert not opt.enabled and opt.reason == "only Leader, Champion"


@pytest.mark.parametrize("face", range(1, 7))
def test_extort_every_face(face: int) -> None:
    c = set_gang(demo_campaign(), ESCHER, GangType.CAWDOR)
    seq = pba_seq(campaign=c)
    total = face + 1
    faces = [[face], [2]]
    take(seq, ESCHER, "vexa-nightshade", "extort", faces)
    want = (20, -1) if total <= 5 else (50, 0)
    assert gang_delta(seq, ESCHER) == want


def test_extort_twelve_plus_palanite_extra_die() -> None:
    c = set_gang(demo_campaign(), ESCHER, GangType.PALANITE_ENFORCERS)
    seq = pba_seq(campaign=c)
    seq.add_entry(f"act|{ESCHER}|vexa-nightshade")
    seq.answer("extort")
    seq.answer(["sable-thorn", "kira-ashfall", "mara-quill", "oona-vale", "tessa-gloom"])
    assert seq.pending.dice == "2D6kh1"
    for faces in ([1, 6], [3], [2]):
        seq.answer({"faces": faces})
    assert gang_delta(seq, ESCHER) == (150, 2)


@pytest.mark.parametrize("face,sub", [(1, None), (2, 1), (2, 3), (3, 6), (4, None), (5, None),
                                      (6, 1), (6, 4), (6, 6)])
def test_prize_fight_every_face(face: int, sub: int | None) -> None:
    seq = pba_seq()
    faces: list[list[int]] = [[face]]
    if face == 1:
        faces += [[1, 2], [2]]  # Out Cold, D3x5 credits
    elif face in (2, 3):
        faces += [[1, 1], [sub]]  # 2D3x5 = 10, Draw sub-table
    elif face in (4, 5):
        faces += [[3]]  # D3x10
    else:
        faces += [[sub]]
    take(seq, ESCHER, "sable-thorn", "prize-fight", faces)
    sable = seq.work.gang(ESCHER).fighter("sable-thorn")
    if face == 1:
        want, xp = (10, -1), 1
    elif face in (2, 3):
        want, xp = {1: ((10, -1), 0), 3: ((10, 0), 1), 6: ((10, 1), 1)}[sub]
        assert (sable.status is FighterStatus.RECOVERY) == (sub == 1)
    elif face in (4, 5):
        want, xp = (30, 1), 1
    else:
        want, xp = {1: ((25, 1), 1), 4: ((50, 2), 2), 6: ((75, 3), 3)}[sub]
    assert gang_delta(seq, ESCHER) == want
    assert sable.xp == 3 + xp


def test_prize_fight_goliath_may_reroll_once() -> None:
    seq = pba_seq()
    seq.add_entry(f"act|{GOLIATH}|brakk-ironjaw")
    seq.answer("prize-fight")
    seq.answer({"faces": [1]})
    assert seq.pending.kind == "choice" and "re-roll once" in seq.pending.label
    seq.answer("reroll")
    seq.answer({"faces": [4]})
    seq.answer({"faces": [2]})
    assert gang_delta(seq, GOLIATH) == (20, 1)


def specialist_campaign(gtype: GangType = GangType.ESCHER) -> Any:
    c = set_gang(demo_campaign(), ESCHER, gtype)
    c.gang(ESCHER).fighter("mara-quill").type = FighterType.SPECIALIST
    c.gang(GOLIATH).credits = 60
    c.gang(GOLIATH).stash = [Equipment("Frag grenades", 30)]
    return c


@pytest.mark.parametrize("d3", [1, 2, 3])
def test_skulduggery_misadventure_every_face(d3: int) -> None:
    seq = pba_seq(campaign=specialist_campaign())
    faces = [[1], [d3]] + ([[4]] if d3 == 2 else [])
    take(seq, ESCHER, "mara-quill", "skulduggery", faces)
    mara = seq.work.gang(ESCHER).fighter("mara-quill")
    assert mara.status is {1: FighterStatus.DEAD, 2: FighterStatus.ACTIVE,
                           3: FighterStatus.RECOVERY}[d3]
    if d3 == 2:
        assert mara.injuries[0].name == "Hobbled" and mara.injuries[0].roll == "54"


@pytest.mark.parametrize("option,faces,mine,theirs", [
    ("influence", [], (0, 1), (0, 0)),
    ("larceny", [[3]], (20, 0), (-20, 0)),
    ("sabotage", [], (0, 0), (0, -1)),
    ("scratch", [[5]], (30, 0), (0, 0)),
])
def test_successful_skulduggery_options(option: str, faces: list[list[int]], mine: tuple[int, int],
                                        theirs: tuple[int, int]) -> None:
    for face in (3, 4, 5):
        seq = pba_seq(campaign=specialist_campaign())
        take(seq, ESCHER, "mara-quill", "skulduggery", [[face]] + faces, choices=[option])
        assert gang_delta(seq, ESCHER) == mine
        assert gang_delta(seq, GOLIATH) == theirs


def test_skulduggery_malice_sends_an_opposing_crew_fighter_to_recovery() -> None:
    seq = pba_seq(campaign=specialist_campaign())
    take(seq, ESCHER, "mara-quill", "skulduggery", [[4]], choices=["malice", "dak-cinderfist"])
    assert seq.work.gang(GOLIATH).fighter("dak-cinderfist").status is FighterStatus.RECOVERY


def test_significant_success_options() -> None:
    seq = pba_seq(campaign=specialist_campaign())
    take(seq, ESCHER, "mara-quill", "skulduggery", [[6], [2, 3]], choices=["crucible", "influence"])
    assert seq.work.gang(ESCHER).fighter("mara-quill").xp == 4 and gang_delta(seq, ESCHER) == (0, 1)
    seq = pba_seq(campaign=specialist_campaign())
    take(seq, ESCHER, "mara-quill", "skulduggery", [[6]], choices=["double", "influence", "sabotage"])
    assert gang_delta(seq, ESCHER) == (0, 1) and gang_delta(seq, GOLIATH) == (0, -1)
    seq = pba_seq(campaign=specialist_campaign())
    take(seq, ESCHER, "mara-quill", "skulduggery", [[6]], choices=["theft", "Frag grenades"])
    assert [i.name for i in seq.work.gang(ESCHER).stash][-1] == "Frag grenades"
    assert seq.work.gang(GOLIATH).stash == []


def test_double_the_trouble_needs_two_different_options() -> None:
    seq = pba_seq(campaign=specialist_campaign())
    seq.add_entry(f"act|{ESCHER}|mara-quill")
    seq.answer("skulduggery")
    seq.answer({"faces": [6]})
    seq.answer("double")
    seq.answer("influence")
    assert not next(o for o in seq.pending.options if o.id == "influence").enabled


def arbites_with_captive() -> Any:
    c = set_gang(demo_campaign(), ESCHER, GangType.ARBITES)
    for fid in ("dak-cinderfist", "thug-varro"):
        f = c.gang(GOLIATH).fighter(fid)
        f.status, f.captured_by = FighterStatus.CAPTURED, ESCHER
    return c


@pytest.mark.parametrize("face", range(1, 7))
def test_dispense_justice_every_face(face: int) -> None:
    seq = pba_seq(campaign=arbites_with_captive())
    seq.add_entry(f"act|{ESCHER}|vexa-nightshade")
    seq.answer("dispense-justice")
    seq.answer([f"{GOLIATH}/dak-cinderfist", f"{GOLIATH}/thug-varro"])
    seq.answer({"faces": [face]})
    total = face + 2
    if 7 <= total <= 9:
        seq.answer({"faces": [2]})
    elif total >= 10:
        seq.answer({"faces": [1]})
        seq.answer({"faces": [3]})
    want = {True: (0, 2)}.get(total <= 6) or ((50, 2) if total <= 9 else (50, 5))
    assert gang_delta(seq, ESCHER) == want
    assert seq.work.gang(GOLIATH).fighter("thug-varro").status is FighterStatus.DEAD


def test_seek_rare_item_and_seek_buyer_count_for_the_trading_post() -> None:
    seq = pba_seq()
    take(seq, ESCHER, "vexa-nightshade", "seek-rare-item", [])
    take(seq, ESCHER, "sable-thorn", "seek-buyer", [])
    assert seq.facts["seek_rare"][ESCHER] == 1 and seq.facts["seek_buyer"][ESCHER] == 1


def test_sell_to_the_guilders() -> None:
    c = demo_campaign()
    dak = c.gang(GOLIATH).fighter("dak-cinderfist")
    dak.status, dak.captured_by, dak.bounty = FighterStatus.CAPTURED, ESCHER, 1
    seq = pba_seq(campaign=c)
    take(seq, ESCHER, "sable-thorn", "sell-to-guilders", [])
    assert gang_delta(seq, ESCHER)[0] == 70 // 2 + 50
    assert [i.name for i in seq.work.gang(ESCHER).stash][-2:] == ["Combat shotgun", "Flak armour"]
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.captured_by == "guilders" and dak.equipment == []


def test_sell_to_the_guilders_waits_for_a_rescue_chance() -> None:
    seq = S.make_seq(outcome=one_si())
    to_step(seq, "post-battle-actions", {f"fate:{ESCHER}:lys-venom": [3]})
    assert seq.work.gang(ESCHER).fighter("lys-venom").status is FighterStatus.CAPTURED
    seq.add_entry(f"act|{GOLIATH}|brakk-ironjaw")
    opt = next(o for o in seq.pending.options if o.id == "sell-to-guilders")
    assert not opt.enabled and "no rescue chance yet" in opt.reason


@pytest.mark.parametrize("d6,d3", [(1, 3), (6, 1), (3, 3)])
def test_buy_from_the_guilders(d6: int, d3: int) -> None:
    c = demo_campaign()
    c.gang(ESCHER).credits = 500
    lys = c.gang(ESCHER).fighter("lys-venom")
    lys.status, lys.captured_by, lys.bounty = FighterStatus.CAPTURED, "guilders", 1
    seq = pba_seq(campaign=c)
    take(seq, ESCHER, "sable-thorn", "buy-from-guilders", [[d6, d3]], others=["lys-venom"],
         choices=["pay"])
    price = 50 + (d6 - d3) * 5 + 50
    assert gang_delta(seq, ESCHER)[0] == -price
    lys = seq.work.gang(ESCHER).fighter("lys-venom")
    assert lys.status is FighterStatus.ACTIVE and lys.bounty == 0 and lys.equipment == []


def test_post_and_remove_bounty() -> None:
    c = demo_campaign()
    c.gang(ESCHER).credits = 500
    c.gang(GOLIATH).credits = 500
    seq = pba_seq(campaign=c)
    seq.add_entry(f"act|{ESCHER}|sable-thorn")
    seq.answer("post-bounty")
    seq.answer(["brakk-ironjaw"])
    seq.answer({"faces": [1, 2, 3]})
    seq.answer("pay")
    assert gang_delta(seq, ESCHER)[0] == -(50 + 30)
    assert seq.work.gang(GOLIATH).fighter("brakk-ironjaw").bounty == 1
    seq.add_entry(f"act|{GOLIATH}|gorth-slagborn")
    seq.answer("remove-bounty")
    seq.answer(["brakk-ironjaw"])
    seq.answer({"faces": [6, 6, 6]})
    seq.answer("pay")
    assert gang_delta(seq, GOLIATH)[0] == -(50 + 90)
    assert seq.work.gang(GOLIATH).fighter("brakk-ironjaw").bounty == 0


def test_bounty_unpaid_when_funds_are_short() -> None:
    seq = pba_seq()  # Escher: 85 credits
    seq.add_entry(f"act|{ESCHER}|sable-thorn")
    seq.answer("post-bounty")
    seq.answer(["brakk-ironjaw"])
    seq.answer({"faces": [6, 6, 6]})
    pay = next(o for o in seq.pending.options if o.id == "pay")
    assert not pay.enabled and "only 85" in pay.reason


def critical_campaign() -> Any:
    c = demo_campaign()
    c.gang(ESCHER).credits = 300
    c.gang(ESCHER).fighter("lys-venom").status = FighterStatus.CRITICAL
    return c


@pytest.mark.parametrize("face", range(1, 7))
def test_medical_escort_every_face(face: int) -> None:
    seq = pba_seq(campaign=critical_campaign())
    faces = [[3, 4], [face]] + ([[2]] if 2 <= face <= 4 else [])
    take(seq, ESCHER, "sable-thorn", "medical-escort", faces, choices=["lys-venom", "pay"])
    assert gang_delta(seq, ESCHER)[0] == -70
    lys = seq.work.gang(ESCHER).fighter("lys-venom")
    if face == 1:
        assert lys.status is FighterStatus.DEAD
    else:
        assert lys.status is FighterStatus.RECOVERY
        assert [i.name for i in lys.injuries] == (["Eye Injury"] if face <= 4 else [])


def test_medical_escort_unpaid_dies_with_equipment_recovered() -> None:
    seq = pba_seq(campaign=critical_campaign())
    take(seq, ESCHER, "sable-thorn", "medical-escort", [[3, 4]], choices=["lys-venom", "no"])
    assert seq.work.gang(ESCHER).fighter("lys-venom").status is FighterStatus.DEAD
    seq.advance()
    assert seq.step["id"] == "delete-dead"
    stash = [i.name for i in seq.work.gang(ESCHER).stash]
    assert "Frag grenades" in stash and "taken to the doctor" in " ".join(seq.state.lines)


def test_critical_without_escort_dies_in_delete_dead() -> None:
    seq = pba_seq(campaign=critical_campaign())
    seq.advance()
    g = seq.work.gang(ESCHER)
    assert g.member("lys-venom").status is FighterStatus.DEAD
    assert [f.id for f in g.fallen] == ["lys-venom"]  # removed from the roster (seed 004)


# eligibility by gang type and fighter type (Gang War), straight from the seed's lists
HOUSES = ["Cawdor", "Delaque", "Escher", "Goliath", "Orlock", "Van Saar"]
ELIGIBLE_GANGS = {
    "forage": ["Genestealer Cultists", "Ash Waste Nomads", "Cogs", "Ratskins", "Squat Salvagers"],
    "show-of-force": HOUSES + ["Ash Waste Nomads", "Palanite Enforcers", "Squat Salvagers",
                              "Chaos Cultists", "Genestealer Cultists"],
    "territory-expansion": HOUSES + ["Chaos Cultists", "Genestealer Cultists"],
    "do-business": ["Escher", "Orlock", "Van Saar", "Squat Salvagers"],
    "extort": ["Cawdor", "Delaque", "Palanite Enforcers"],
    "prize-fight": ["Cawdor", "Escher", "Goliath", "Orlock", "Ash Waste Nomads", "Cogs",
                    "Squat Salvagers", "Chaos Cultists", "Genestealer Cultists"],
    "skulduggery": ["Delaque", "Escher", "Chaos Cultists"],
    "dispense-justice": ["Palanite Enforcers", "Arbites"],
    "seek-rare-item": HOUSES + ["Chaos Cultists", "Genestealer Cultists"],
    "seek-buyer": HOUSES + ["Chaos Cultists", "Genestealer Cultists"],
    "sell-to-guilders": HOUSES + ["Chaos Cultists", "Genestealer Cultists"],
    "buy-from-guilders": HOUSES + ["Chaos Cultists", "Genestealer Cultists"],
    "post-bounty": HOUSES + ["Palanite Enforcers", "Chaos Cultists", "Genestealer Cultists"],
    "remove-bounty": HOUSES + ["Palanite Enforcers", "Chaos Cultists", "Genestealer Cultists"],
    "medical-escort": HOUSES + ["Palanite Enforcers", "Arbites", "Chaos Cultists"],
    "work-the-turf": [t.value for t in GangType],
}
ELIGIBLE_TYPES = {
    "do-business": {"Leader", "Champion"}, "prize-fight": {"Leader", "Champion"},
    "dispense-justice": {"Leader", "Champion"}, "skulduggery": {"Prospect", "Specialist"},
}
MUTANT_RULE = {"show-of-force", "territory-expansion", "prize-fight", "seek-rare-item",
               "seek-buyer", "sell-to-guilders", "buy-from-guilders", "post-bounty",
               "remove-bounty", "medical-escort"}


@pytest.mark.parametrize("action", sorted(ELIGIBLE_GANGS))
@pytest.mark.parametrize("gtype", [t for t in GangType if t is not GangType.SPYRER_HUNTING_PARTY])
def test_action_gang_eligibility(action: str, gtype: GangType) -> None:
    seq = pba_seq()
    g = seq.work.gang(ESCHER)
    g.type = gtype
    a = pb.get_action("gang-war", action)
    leader = g.fighter("vexa-nightshade")
    why = pb_actions().eligibility(seq, g, leader, {**a, "requires": None}, participant=True)
    allowed = gtype.value in ELIGIBLE_GANGS[action]
    types = ELIGIBLE_TYPES.get(action)
    if types and "Leader" not in types:
        assert why  # a Leader may never take it
        spec = Fighter("s", "S", FighterType.SPECIALIST)
        why = pb_actions().eligibility(seq, g, spec, {**a, "requires": None}, participant=True)
    assert (why == "") == allowed, (action, gtype, why)


@pytest.mark.parametrize("action", sorted(MUTANT_RULE))
@pytest.mark.parametrize("gtype", [GangType.CHAOS_CULTISTS, GangType.GENESTEALER_CULTISTS])
def test_mutants_may_not(action: str, gtype: GangType) -> None:
    seq = pba_seq()
    g = seq.work.gang(ESCHER)
    g.type = gtype
    a = {**pb.get_action("gang-war", action), "requires": None}
    f = Fighter("m", "Mutant", FighterType.LEADER, has_mutations=True)
    if gtype.value in ELIGIBLE_GANGS[action]:
        assert "Mutations" in pb_actions().eligibility(seq, g, f, a, participant=True)


@pytest.mark.parametrize("ftype,skills,slots", [
    (FighterType.LEADER, [], 1), (FighterType.CHAMPION, ["Fixer"], 2),
    (FighterType.PROSPECT, ["Fixer"], 2), (FighterType.SPECIALIST, ["Fixer"], 2),
    (FighterType.GANGER, ["Fixer"], 1), (FighterType.JUVE, [], 1),
    (FighterType.HIRED_GUN, [], 0), (FighterType.HIRED_GUN, ["Fixer"], 1),
    (FighterType.HIRED_GUN, ["Savvy Trader"], 1), (FighterType.HANGER_ON, [], 0),
    (FighterType.BOUNTY_HUNTER, [], 0), (FighterType.DRAMATIS_PERSONAE, [], 0),
])
def test_action_slots_gang_war(ftype: FighterType, skills: list[str], slots: int) -> None:
    seq = pba_seq()
    f = Fighter("x", "X", ftype, skills=skills)
    assert pb_actions().action_slots(seq, seq.work.gang(ESCHER), f) == slots


@pytest.mark.parametrize("ftype,skills,slots", [
    (FighterType.LEADER, [], 1), (FighterType.CHAMPION, ["Fixer"], 2),
    (FighterType.JUVE, [], 1), (FighterType.SPECIALIST, ["Fixer"], 2),
    (FighterType.GANGER, [], 0), (FighterType.PROSPECT, [], 0),
    (FighterType.HIRED_GUN, ["Savvy Trader"], 1),
])
def test_action_slots_turf_war_heroes(ftype: FighterType, skills: list[str], slots: int) -> None:
    seq = pba_seq("turf-war-2017")
    f = Fighter("x", "X", ftype, skills=skills)
    assert pb_actions().action_slots(seq, seq.work.gang(ESCHER), f) == slots


@pytest.mark.parametrize("status", [FighterStatus.DEAD, FighterStatus.CAPTURED,
                                    FighterStatus.CRITICAL, FighterStatus.RECOVERY])
def test_unavailable_fighters_take_no_action(status: FighterStatus) -> None:
    seq = pba_seq()
    f = Fighter("x", "X", FighterType.LEADER, status=status)
    assert pb_actions().action_slots(seq, seq.work.gang(ESCHER), f) == 0


def test_spyrers_skip_post_battle_actions() -> None:
    c = demo_campaign()
    c.gang(ESCHER).type = GangType.SPYRER_HUNTING_PARTY
    seq = pba_seq(campaign=c)
    assert not any(o.id.startswith(f"act|{ESCHER}") for o in seq.entry_options())


def test_savvy_trader_merc_only_seeks() -> None:
    c = demo_campaign()
    c.gang(ESCHER).fighters.append(Fighter("merc", "Trader", FighterType.HIRED_GUN,
                                           skills=["Savvy Trader"]))
    seq = pba_seq(campaign=c)
    seq.add_entry(f"act|{ESCHER}|merc")
    enabled = {o.id for o in seq.pending.options if o.enabled}
    assert enabled == {"seek-rare-item", "seek-buyer"}


def test_fixer_takes_two_actions() -> None:
    c = demo_campaign()
    c.gang(ESCHER).fighter("sable-thorn").skills.append("Fixer")
    seq = pba_seq(campaign=c)
    take(seq, ESCHER, "sable-thorn", "seek-buyer", [])
    take(seq, ESCHER, "sable-thorn", "seek-rare-item", [])
    opt = next(o for o in seq.entry_options() if o.id == f"act|{ESCHER}|sable-thorn")
    assert not opt.enabled


def test_turf_war_expansion_and_exploration_excludes_other_actions() -> None:
    seq = pba_seq("turf-war-2017")
    take(seq, ESCHER, "vexa-nightshade", "expansion-and-exploration", [], choices=["turf"])
    assert seq.work.gang(ESCHER).territory_size == 1
    seq.add_entry(f"act|{ESCHER}|sable-thorn")
    assert not any(o.enabled for o in seq.pending.options)
    seq2 = pba_seq("turf-war-2017")
    take(seq2, ESCHER, "vexa-nightshade", "seek-buyer", [])
    seq2.add_entry(f"act|{ESCHER}|sable-thorn")
    opt = next(o for o in seq2.pending.options if o.id == "expansion-and-exploration")
    assert not opt.enabled


def test_turf_war_show_of_force_uses_the_gang_war_chart() -> None:
    seq = pba_seq("turf-war-2017")
    take(seq, ESCHER, "vexa-nightshade", "show-of-force", [[6]], others=["sable-thorn", "mara-quill"])
    # seed 002: "Roll a D6 on the Show of Force chart": 6 is Backlash (Gang War: 6 + 3 = 9)
    assert gang_delta(seq, ESCHER) == (0, -1)
    assert any("not printed in the 2017 seed" in line for line in seq.state.lines)


def pb_actions() -> Any:
    from munda_tui.rules.postbattle import actions as postbattle_actions

    return postbattle_actions


def test_turf_war_work_the_turf_with_no_fighter() -> None:
    c = demo_campaign()
    c.gang(ESCHER).territory_size = 2
    seq = pba_seq("turf-war-2017", campaign=c)
    seq.add_entry(f"turf|{ESCHER}")
    seq.answer({"faces": [4, 1]})  # 3 + 2 Turf = 5
    assert gang_delta(seq, ESCHER) == (50, 0)
    assert not next(o for o in seq.entry_options() if o.id == f"turf|{ESCHER}").enabled


@pytest.mark.parametrize("ruleset,seed", [("gang-war", "004_90ce6e60c7c38907.txt"),
                                          ("turf-war-2017", "002_25fb5b52c25b1137.txt")])
def test_step_and_action_texts_quote_the_seed(ruleset: str, seed: str) -> None:
    """The rules text on screen is the seed's own words (munda-tui's notes live apart)."""
    path = SEEDS / seed
    if not path.exists():
        pytest.skip("seeds not beside the repo")
    text = norm(path.read_text())
    rs = pb.load_ruleset(ruleset)
    missing = []
    for item in rs["steps"] + rs.get("actions", []):
        for para in item["text"].split("\n"):
            para = re.sub(r"^\s*\d+\.\s+", "", para)
            for sentence in re.split(r"(?<=[.!])\s+", norm(para)):
                if sentence and sentence not in text:
                    missing.append((item["id"], sentence))
    assert missing == []
