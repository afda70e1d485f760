"""The battle file as typed parts (issue 24, one stage host): decoded once when a battle is
opened, each stage reading and writing its part through it, written back as it was read;
no stage screen (nor the post-battle sequence) loads, saves or decodes the raw dict."""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as hs
from support import examples

from munda_tui.rules.battle.events import BattleError, default_setup
from munda_tui.rules.battle.flow import BattleFlow
from munda_tui.rules.battle.record import BattleRecord
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.campaign.report_doc import Report, render_markdown
from munda_tui.rules.postbattle.sequence import commit_report, new_draft
from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.prebattle.setup import BattleSetup
from munda_tui.rules.stages.battle_file import PARTS, BattleFile, BattleReport, PostBattleDraft

PACKAGE = Path(__file__).resolve().parents[3] / "munda_tui"
V, G = "venom-sisters", "iron-skulls"
CAMPAIGN = demo_campaign()

#: the stage screens and the post-battle sequence: they get the typed parts
STAGE_CODE = [*(PACKAGE / "screens" / stage for stage in ("prebattle", "battle", "postbattle")),
              PACKAGE / "rules" / "postbattle" / "sequence.py"]
#: what reads or writes a battle file's data: the saves' calls and the parts' decoders
RAW_CALLS = {"load_battle", "save_battle", "update_battle", "outcome_from_data", "BattleFlow",
             "resume"}
DECODERS = {"BattleSetup", "BattleRecord"}  # (their from_data: the battle file's, once)


def _raw_uses() -> list[str]:
    """Every place in the stage code that loads, saves or decodes a battle file's data
    itself, as ``path:line what``."""
    found = []
    files = [p for root in STAGE_CODE for p in ([root] if root.is_file() else sorted(root.rglob("*.py")))]
    for path in files:
        rel = path.relative_to(PACKAGE).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name in RAW_CALLS:
                    found.append(f"{rel}:{node.lineno} {name}()")
                if name == "from_data" and isinstance(f, ast.Attribute) and \
                        isinstance(f.value, ast.Name) and f.value.id in DECODERS:
                    found.append(f"{rel}:{node.lineno} {f.value.id}.from_data()")
                if name == "get" and node.args and isinstance(node.args[0], ast.Constant) \
                        and node.args[0].value in PARTS:
                    found.append(f"{rel}:{node.lineno} .get({node.args[0].value!r})")
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) \
                    and node.slice.value in PARTS:
                found.append(f"{rel}:{node.lineno} [{node.slice.value!r}]")
    return found


def test_no_stage_screen_loads_saves_or_decodes_the_battle_file_itself() -> None:
    """The pre-battle flow, the tracker and the wizard (and the post-battle sequence) read
    and write the battle file only through the typed parts the stage host hands them."""
    assert _raw_uses() == []


# --- the typed round trip -----------------------------------------------------------------

_words = hs.text(alphabet="abc XYZ-'é", max_size=12)
_plain = hs.recursive(hs.one_of(hs.integers(-5, 5), hs.booleans(), _words),
                      lambda inner: hs.lists(inner, max_size=3) | hs.dictionaries(
                          hs.sampled_from(["a", "b", "c"]), inner, max_size=3), max_leaves=6)


def _setup(objective: str, step: str, complete: bool, rolls: int) -> BattleSetup:
    s = default_setup(CAMPAIGN, 1, V, G)
    s.objective, s.step, s.complete = objective, step, complete
    s.rolls = [{"table": "Deployment", "faces": [i % 6 + 1]} for i in range(rolls)]
    return s


def _record(setup: BattleSetup, events: list[int], ended: bool) -> BattleRecord:
    flow = BattleFlow(CAMPAIGN, 1, {"setup": setup.to_data()})
    fighters = sorted(flow.state.fighters)
    for n in events:
        f = fighters[n % len(fighters)]
        ev = [flow.xp(f, 1 + n % 3), flow.next_phase(), flow.vp(flow.gangs[n % 2], 1),
              flow.flesh_wound(f)][n % 4]
        try:
            flow.log_event(ev)
        except BattleError:
            continue
    if ended:
        flow.log_event(flow.end(G, ()))
        flow.battle_record = flow.battle_record.finished(flow.setup, flow.card_names)
    return flow.battle_record


@settings(max_examples=examples(30), deadline=None)
@given(objective=_words, step=hs.sampled_from(sc.STEPS), complete=hs.booleans(),
       rolls=hs.integers(0, 3), events=hs.lists(hs.integers(0, 40), max_size=12),
       ended=hs.booleans(), answers=hs.dictionaries(_words, _plain, max_size=3),
       paragraphs=hs.lists(_words, max_size=3), credits=hs.integers(0, 900),
       extra=hs.dictionaries(hs.sampled_from(["notes", "house_rules", "x"]), _plain, max_size=2),
       parts=hs.sets(hs.sampled_from(PARTS)))
def test_a_battle_file_round_trips_through_its_typed_parts(
        objective: str, step: str, complete: bool, rolls: int, events: list[int], ended: bool,
        answers: dict[str, Any], paragraphs: list[str], credits: int, extra: dict[str, Any],
        parts: set[str]) -> None:
    setup = _setup(objective, step, complete, rolls)
    record = _record(setup, events, ended)
    draft = new_draft("gang-war")
    draft["answers"] = answers
    doc = Report()
    doc.heading("Battle 1", 1)
    doc.paragraph(*paragraphs)
    report = BattleReport(blocks=doc.to_data(), winner=G, applied="battle-1",
                          standings={V: {"rating": 1000, "reputation": 5, "credits": credits}})
    whole = {"setup": setup.to_data(), "battle": record.to_data(), "postbattle": draft,
             "report": report.to_data()}
    data = {**extra, **{k: v for k, v in whole.items() if k in parts}}
    read = copy.deepcopy(data)

    f = BattleFile.from_data(1, data)
    assert f.to_data() == read and list(f.to_data()) == list(read)  # untouched: as read
    # each part typed, as the stage that owns it made it
    assert f.setup == (setup if "setup" in parts else None)
    assert f.postbattle == (PostBattleDraft(draft) if "postbattle" in parts else None)
    assert f.outcome == (record.outcome if "battle" in parts else None)  # (no replay)
    if "report" in parts:
        assert f.report == report and f.report.text() == render_markdown(doc)
        assert f.report.text() == commit_report(read["report"])
    else:
        assert f.report is None
    decoded = f.battle  # the log replayed once, then the same record
    assert decoded is f.battle
    assert (decoded.to_data() if decoded else None) == (record.to_data() if "battle" in parts else None)
    assert f.outcome == (record.outcome if "battle" in parts else None)
    assert f.to_data() == read  # every part decoded and written back: the same data
    for name in PARTS:
        assert f.part(name) == read.get(name)


def test_a_part_a_stage_writes_is_the_files_from_then_on() -> None:
    f = BattleFile.from_data(3, {"notes": {"who": "Ann"}})
    assert (f.setup, f.battle, f.postbattle, f.report, f.outcome) == (None, None, None, None, None)
    setup = _setup("Sneak Attack", "summary", True, 0)
    f.setup = setup
    f.battle = _record(setup, [1, 2, 3], ended=True)
    f.postbattle = PostBattleDraft(new_draft("gang-war"))
    assert f.outcome is not None and f.outcome.winner == G
    data = f.to_data()
    assert list(data) == ["notes", "setup", "battle", "postbattle"]
    again = BattleFile.from_data(3, copy.deepcopy(data))
    assert again.setup == setup and again.outcome == f.outcome
    assert again.battle is not None and again.battle.to_data() == f.part("battle")
    assert again.postbattle is not None and again.postbattle.status == "draft"


def test_a_draft_says_where_its_commit_stands() -> None:
    d = new_draft("gang-war")
    assert (PostBattleDraft(d).status, PostBattleDraft(d).finishing) == ("draft", False)
    d.update(status="committing", commit={"token": "battle-1"})
    assert PostBattleDraft(d).finishing and PostBattleDraft(d).prepared == {"token": "battle-1"}


def test_a_report_saved_as_markdown_reads_back_as_it_was() -> None:
    table = {"markdown": "# Battle 2\n\nOld.", "winner": V, "standings": {}, "applied": "battle-2",
             "comment": "kept"}
    r = BattleReport.from_data(dict(table))
    assert r.text() == "# Battle 2\n\nOld." and r.to_data() == table
    assert BattleReport.of_commit({"report": "# Battle 2", "standings": {}, "token": "t"}).text() == "# Battle 2"


def test_an_outcome_that_does_not_decode_is_said_when_read() -> None:
    f = BattleFile.from_data(1, {"battle": {"log": [], "outcome": {"fighters": [{"end_state": "melted"}]}}})
    try:
        f.outcome
    except (ValueError, TypeError, KeyError):
        pass
    else:
        raise AssertionError("a broken outcome was read as none")
