"""Issue #25 (items 1, 2, 7, 10, 11): Turf War 2017 and the 2023 Lasting Injury table,
each test quoting the seed sentence it follows (or the reading it makes, listed in
``munda-tui rules export``)."""

from __future__ import annotations

from munda_tui.rules.battle.events import StateEvent

from munda_tui.rules.core.rulesets import ruleset_ids

from typing import Any

import pytest

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.battle.events import (
    OUT_OF_ACTION,
    SERIOUSLY_INJURED,
    Battle,
    Event,
    default_setup,
    outcome,
    start_event,
)
from munda_tui.rules.campaign.demo import demo_campaign

import postbattle_support as S

ESCHER, GOLIATH = S.ESCHER, S.GOLIATH
VEXA = f"{ESCHER}/vexa-nightshade"


def logged_battle() -> tuple[Any, Any]:
    """Vexa Seriously Injures a Goliath, then takes him and another Out of Action."""
    c = demo_campaign()
    setup = default_setup(c, 1, ESCHER, GOLIATH)
    b = Battle([start_event(setup, c)])
    b.log_event(StateEvent(fighter=f"{GOLIATH}/dak-cinderfist", state=SERIOUSLY_INJURED,
                   attacker=VEXA))
    b.log_event(StateEvent(fighter=f"{GOLIATH}/dak-cinderfist", state=OUT_OF_ACTION,
                   attacker=VEXA))
    b.log_event(StateEvent(fighter=f"{GOLIATH}/thug-varro", state=OUT_OF_ACTION, attacker=VEXA))
    o = outcome(b.state, setup)
    o.winner = ESCHER
    return c, o


# --- item 2: Kills and XP awards in Turf War 2017 ------------------------------------------


@pytest.mark.parametrize("ruleset", ["gang-war", "turf-war-2017"])
def test_kills_counted_and_xp_awards_offered_in_both_rulesets(ruleset: str) -> None:
    # seed 002, End of Battle Events: "double check that details such as XP gained for
    # taking opponents Out of Action have been annotated correctly" -- the same sentence
    # as seed 004's Wrap Up: the same log gives the same Kills and XP in both rulesets.
    c, o = logged_battle()
    c.settings.xp_awards = {"seriously_injured": 1, "out_of_action": 2}  # the Arbitrator's
    seq = S.make_seq(ruleset, outcome=o, campaign=c)
    while seq.pending is None or not seq.pending.id.startswith("xp:"):
        assert seq.pending is None and not seq.at_end, "the XP awards were never offered"
        seq.advance()
    assert seq.pending.id == f"xp:{ESCHER}"
    assert seq.step["id"] == ("wrap-up" if ruleset == "gang-war" else "end-of-battle")
    seq.answer("accept")
    vexa = seq.work.gang(ESCHER).fighter("vexa-nightshade")
    assert vexa.kills == 2
    assert vexa.xp == 6 + 1 + 2 * 2


# --- item 7: Show of Force is a D6 under Turf War 2017 ----------------------------------------


def at_actions(ruleset: str, c: Any = None) -> pb.PostBattle:
    import random

    seq = S.make_seq(ruleset, campaign=c)
    return S.drive(seq, random.Random(1), until="post-battle-actions")


def show_of_force(seq: pb.PostBattle, face: int) -> int:
    """Vexa, Oona and Tessa make a Show of Force; the D6 shows ``face``: the change in
    Reputation."""
    before = seq.work.gang(ESCHER).reputation
    seq.add_entry(f"act|{ESCHER}|vexa-nightshade")
    seq.answer("show-of-force")
    seq.answer(["oona-vale", "tessa-gloom"])
    assert seq.pending is not None and seq.pending.kind == "roll"
    assert seq.pending.dice == "D6"
    label, table = seq.pending.label, pb.table_lines(seq, seq.pending)
    seq.answer({"faces": [face], "entered": True})
    assert seq.pending is None
    show_of_force.label, show_of_force.table = label, table  # type: ignore[attr-defined]
    return seq.work.gang(ESCHER).reputation - before


def test_turf_war_show_of_force_rolls_a_d6_on_the_chart() -> None:
    # seed 002, Show of Force: "Roll a D6 on the Show of Force chart to determine the
    # outcome." -- no fighters added (seed 004's Gang War roll: "Roll a D6 and add the
    # number of fighters participating in the Show of Force"). A 6 on the borrowed Gang War
    # chart is Backlash (6-7), not 6 + 3 = 9, Successful Flex.
    seq = at_actions("turf-war-2017")
    assert show_of_force(seq, 6) == -1
    assert "fighters" not in show_of_force.label  # type: ignore[attr-defined]
    assert "+ fighters" not in show_of_force.table[0]  # type: ignore[attr-defined]
    assert any("6: Backlash: lose 1 Reputation." in line for line in seq.state.lines)
    # the reading says so, in the rules export's readings and on the action
    from munda_tui.rules.core.readings import note, reading

    r = reading("turf-borrowed-rules")
    assert "Roll a D6 and add the number of fighters participating in the Show of Force" in r.seed
    assert "Show of Force" in r.app
    from munda_tui.rules.postbattle.core import get_action

    detail = pb.action_detail(get_action("turf-war-2017", "show-of-force"))
    assert note("turf-borrowed-rules") in detail


def test_gang_war_show_of_force_still_adds_the_fighters() -> None:
    # seed 004: "Roll a D6 and add the number of fighters participating in the Show of Force"
    seq = at_actions("gang-war")
    assert show_of_force(seq, 6) == 1  # 6 + 3 = 9: Successful Flex
    assert "+ 3 fighters" in show_of_force.label  # type: ignore[attr-defined]
    assert "+ fighters" in show_of_force.table[0]  # type: ignore[attr-defined]


# --- item 11: seed text shown as seed text, the app's words marked as the app's ----------------

SEEDS = {"gang-war": "004_90ce6e60c7c38907.txt", "turf-war-2017": "002_25fb5b52c25b1137.txt"}
SEED_DIR = __import__("pathlib").Path(__file__).resolve().parents[4] / "shared" / "seeds"


def norm(text: str) -> str:
    return " ".join(text.replace("’", "'").split())


@pytest.mark.parametrize("ruleset", sorted(SEEDS))
def test_step_and_action_texts_are_the_seeds_lines(ruleset: str) -> None:
    # seeds/README.md: "Quote card names and texts from them verbatim". Every line of a
    # step's or action's rules text is a line of the seed (a heading such as "Losing
    # Territory" or "Recruit Hangers-on" stays a heading, not "Losing Territory: If ...").
    path = SEED_DIR / SEEDS[ruleset]
    if not path.exists():
        pytest.skip("seeds not beside the repo")
    seed = norm(path.read_text(encoding="utf-8"))
    rs = pb.load_ruleset(ruleset)
    missing = []
    for item in rs["steps"] + rs.get("actions", []):
        for line in filter(None, (norm(x) for x in item["text"].split("\n"))):
            sentences = __import__("re").split(r"(?<=[.!:])\s+", line)
            if not all(s in seed for s in sentences):
                missing.append((item["id"], line[:60]))
    assert missing == []


APP_HEADINGS = ("Losing Territory:", "Recruit Hangers-on:", "Gaining Territories:",
                "Stealing Territory:", "Stealing Turf:", "Arbites:", "Fate of the Fallen 1-2:")


@pytest.mark.parametrize("ruleset", sorted(SEEDS))
def test_no_heading_joined_to_its_text(ruleset: str) -> None:
    # The seed prints "Losing Territory" and "Recruit Hangers-on" as headings on their own
    # line; "Losing Territory: If a gang's ..." was the app's joining, shown as seed text.
    rs = pb.load_ruleset(ruleset)
    for item in rs["steps"] + rs.get("actions", []):
        for heading in APP_HEADINGS:
            assert heading not in item["text"], (item["id"], heading)


def test_special_territories_rows_the_seed_does_not_print_are_marked_as_the_apps() -> None:
    # seed 002 gives only "On a result of 7 or more, the gang gains a new Special Territory"
    # and "On a result of 0 or less, they lose one of their Special Territories": the 2-6 and
    # 1-5 rows are munda-tui's words and say so wherever a row is shown.
    from munda_tui.rules.postbattle.core import Prompt, get_table, row_text

    for tid, seed_row, app_row in (("special-territory-gain", (7, 99), (2, 6)),
                                   ("special-territory-loss", (-99, 0), (1, 5))):
        t = get_table("turf-war-2017", tid)
        rows = {(r["min"], r["max"]): r for r in t["rows"]}
        assert not rows[seed_row].get("app")
        assert row_text(rows[seed_row]) == rows[seed_row]["text"]
        assert rows[app_row].get("app") is True
        assert row_text(rows[app_row]).startswith("munda-tui: ")
        seq = S.make_seq("turf-war-2017")
        lines = pb.table_lines(seq, Prompt("x", "roll", "x", dice="D6", table=tid))
        shown = next(x for x in lines if x.startswith(f"{app_row[0]}-{app_row[1]}"))
        assert "munda-tui: " in shown


def test_a_turf_increase_below_7_says_the_apps_words() -> None:
    import random

    c = demo_campaign()
    seq = S.make_seq("turf-war-2017", campaign=c)
    S.drive(seq, random.Random(1), until="turf")
    seq.add_entry(f"increase|{ESCHER}")
    while seq.pending is not None:
        S.answer_default(seq, random.Random(1))
    seq.advance()
    assert seq.step["id"] == "special-territories"
    seq.answer({"faces": [3], "entered": True})  # 3 + 1 = 4
    assert any(line.endswith("= 4: munda-tui: no new Special Territory.")
               for line in seq.state.lines), seq.state.lines


# --- item 1: Turf War 2017 Reputation below 0, in save, load, model and forms -----------------

from munda_tui.rules.campaign import roster as rr  # noqa: E402
from munda_tui.rules.core.model import Gang  # noqa: E402


def with_reputation(ruleset: str, reputation: int) -> Any:
    c = demo_campaign()
    c.settings.post_battle_ruleset = ruleset
    c.gang(ESCHER).reputation = reputation
    return c


def test_turf_war_reputation_below_zero_is_saved_and_loaded() -> None:
    # reading turf-reputation-floor: seed 002 sets no floor ("If the same gang both gains and
    # loses Reputation, any gains are applied before any losses."), so -2 is saved and read
    # back as -2 (the model no longer resets it to 0 on load).
    from munda_tui.saves import codec

    data = codec.campaign_to_data(with_reputation("turf-war-2017", -2))
    assert codec.campaign_from_data(data).gang(ESCHER).reputation == -2
    assert Gang("g", "G", reputation=-2).reputation == -2


def test_gang_war_reputation_below_zero_is_refused_at_load() -> None:
    # seed 004, Reputation: "Reputation cannot fall below 0."
    from munda_tui.saves import codec

    data = codec.campaign_to_data(with_reputation("gang-war", -2))
    with pytest.raises(codec.ValidationError) as caught:
        codec.campaign_from_data(data)
    assert str(caught.value) == ("gangs[0].reputation: Reputation is never below 0 under "
                                 "Gang War (found -2)")


@pytest.mark.parametrize("ruleset,typed,expected", [
    ("turf-war-2017", "-2", -2), ("gang-war", "-2", "Reputation is never below 0 under Gang War (found -2)"),
    ("gang-war", "3", 3)])
def test_the_gang_form_takes_the_campaigns_range(ruleset: str, typed: str, expected: Any) -> None:
    values, errors = rr.validate_gang({"name": "Ash", "reputation": typed}, ruleset=ruleset)
    if isinstance(expected, int):
        assert errors == {} and values is not None and values.reputation == expected
    else:
        assert values is None and errors["reputation"] == expected


def test_the_limits_agree_with_each_rulesets_floor() -> None:
    # one rule, two places: the post-battle steps' floor (data/postbattle/*.toml
    # reputation_floor) and the range every form, load and import checks (rules.limits)
    from munda_tui.rules.core import limits as limits

    for ruleset in ruleset_ids():
        floor = pb.load_ruleset(ruleset).get("reputation_floor", True)
        lo, _ = limits.field_range("Gang", "reputation", ruleset)
        assert (lo == 0) is floor, ruleset


def test_a_turf_war_battle_leaving_reputation_below_zero_is_applied_and_saved() -> None:
    # the case: the working copy reached -2 and applying the battle failed with
    # "Reputation is never below 0 (found -2)"
    import random

    from munda_tui.saves import codec

    c = with_reputation("turf-war-2017", 1)
    seq = S.make_seq("turf-war-2017", campaign=c)
    S.drive(seq, random.Random(1), until="reputation")
    seq.add_entry(f"rep|{ESCHER}")
    seq.answer(-3)
    seq.answer("lost the scenario")
    assert seq.work.gang(ESCHER).reputation == -2
    S.drive(seq, random.Random(1))
    applied = pb.applied_campaign(c, 1, pb.commit_table(seq))
    back = codec.campaign_from_data(codec.campaign_to_data(applied))
    assert back.gang(ESCHER).reputation == -2
    assert back.battles[-1].standings[ESCHER].reputation == -2


# --- item 10: the 2023 Lasting Injury table asks or applies what each result names -------------

from munda_tui.rules.core.model import FighterStatus  # noqa: E402
from munda_tui.rules.core.outcome import BattleOutcome, EndState, FighterOutcome  # noqa: E402

DAK = f"injury:{GOLIATH}:dak-cinderfist"


def injured_2023(faces: list[int]) -> pb.PostBattle:
    """Dak is taken Out of Action by Vexa; his Lasting Injury on the 2023 table shows
    ``faces``."""
    c = demo_campaign()
    c.settings.lasting_injury_table = "core-2023"
    o = BattleOutcome(battle=1, gangs=[ESCHER, GOLIATH], winner=ESCHER, fighters=[
        FighterOutcome(ESCHER, "vexa-nightshade"),
        FighterOutcome(GOLIATH, "dak-cinderfist", EndState.OUT_OF_ACTION,
                       taken_out_by=f"{ESCHER}/vexa-nightshade")])
    seq = S.make_seq(outcome=o, campaign=c)
    while not (seq.pending is not None and seq.pending.id == DAK):
        assert seq.pending is None and not seq.at_end
        seq.advance()
    seq.answer({"faces": faces, "entered": True})
    return seq


def test_core_2023_convalescence_puts_the_fighter_into_recovery() -> None:
    # reference/lasting-injuries.md, Core Rulebook (2023): "31-36 | Convalescence" -- the
    # result names it: the fighter convalesces, in Recovery (as the 2018 table's Grievous
    # Injury "goes into Recovery"); the reading core-2023-results says so.
    from munda_tui.rules.core.readings import reading

    seq = injured_2023([3, 4])
    assert seq.pending is None
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.status is FighterStatus.RECOVERY and dak.status_why == "Convalescence"
    assert any("Dak Cinderfist goes into Recovery (Convalescence)" in x for x in seq.state.lines)
    assert "Convalescence" in reading("core-2023-results").app


def test_core_2023_lesson_learned_asks_the_xp_and_the_recovery() -> None:
    # reference/lasting-injuries.md: "11 | Lesson Learned" (2018: "D3 XP, goes into
    # Recovery"; the 2023 effect is not printed): the XP is asked, from the player's book,
    # and whether the fighter goes into Recovery.
    from munda_tui.rules.core.readings import note

    seq = injured_2023([1, 1])
    p = seq.pending
    assert p is not None and p.kind == "number" and p.id == f"{DAK}:0:xp"
    assert "Lesson Learned" in p.label and p.note == note("core-2023-results")
    seq.answer(3)
    p = seq.pending
    assert p is not None and p.kind == "choice" and p.id == f"{DAK}:0:recovery"
    seq.answer("recovery")
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.xp == 3 and dak.status is FighterStatus.RECOVERY


def test_core_2023_lesson_learned_without_recovery() -> None:
    seq = injured_2023([1, 1])
    seq.answer(2)
    seq.answer("no")
    dak = seq.work.gang(GOLIATH).fighter("dak-cinderfist")
    assert dak.xp == 2 and dak.status is FighterStatus.ACTIVE


def test_core_2023_memorable_death_asks_the_attackers_xp() -> None:
    # reference/lasting-injuries.md: "66 | Memorable Death" (2018: "the fighter dies; the
    # attacker gains 1 XP"; 2023's XP not printed): the attacker's XP is asked.
    seq = injured_2023([6, 6])
    p = seq.pending
    assert p is not None and p.kind == "number" and p.id == f"{DAK}:0:attacker_xp"
    assert "Vexa Nightshade" in p.label
    seq.answer(1)
    assert seq.work.gang(ESCHER).fighter("vexa-nightshade").xp == 6 + 1


@pytest.mark.parametrize("ruleset,kept,warned", [("turf-war-2017", -3, False),
                                                 ("gang-war", 0, True)])
def test_a_yaktribe_import_takes_the_campaigns_range(ruleset: str, kept: int,
                                                     warned: bool) -> None:
    # the same rule for an import: Turf War 2017 keeps a Reputation below 0 (readings:
    # turf-reputation-floor); Gang War records it as 0 and says why (seed 004:
    # "Reputation cannot fall below 0.")
    import json
    from pathlib import Path

    from munda_tui.rules.campaign.yaktribe import gang_from_yaktribe

    fixture = Path(__file__).parents[2] / "fixtures" / "yaktribe" / "157849.json"
    data = json.loads(fixture.read_text("utf-8"))
    data["gang"]["reputation"] = "-3"
    result = gang_from_yaktribe(data, ruleset=ruleset)
    assert result.gang.reputation == kept
    said = [w for w in result.warnings if "Reputation" in w]
    assert said == (["Reputation is never below 0 under Gang War (found -3): recorded as 0."]
                    if warned else [])


def test_the_hand_entry_step_is_munda_tuis_words() -> None:
    # A battle fought without the tracker starts at munda-tui's own Battle Outcome step: no
    # seed prints it, so its words are shown as munda-tui's, not as rules text.
    from munda_tui.rules.postbattle.core import HAND_ENTRY_STEP

    assert HAND_ENTRY_STEP["text"] == ""
    assert pb.step_notes(HAND_ENTRY_STEP)[0].startswith("No battle record from the tracker")
