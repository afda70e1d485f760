"""The stage host (rules.stage, issue 24): a battle moves on to its next stage in one
place, with the battle file saved and the campaign's new values committed by their owner
(issue 33.4: the old values never changed in place; the file's part put back when either
fails); a battle's summary is looked up in one place."""

from __future__ import annotations

import ast
import copy
import re
from pathlib import Path

from munda_tui.rules.core import stage as stage
from munda_tui.rules.battle.events import default_setup
from munda_tui.rules.battle.flow import BattleFlow
from munda_tui.rules.core.model import BattleSummary
from munda_tui.rules.core.status import BattleStatus

PACKAGE = Path(__file__).resolve().parents[2] / "munda_tui"
V, G = "venom-sisters", "iron-skulls"


def _advance_calls() -> list[str]:
    """Every call of rules.status.advance in the package (by name or through the module)
    and every module that imports it, as ``path:line``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        rel = path.relative_to(PACKAGE).as_posix()
        imported = False
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("status") \
                    and any(a.name == "advance" for a in node.names):
                imported = True
            if isinstance(node, ast.Call):
                f = node.func
                by_name = isinstance(f, ast.Name) and f.id == "advance"
                by_module = (isinstance(f, ast.Attribute) and f.attr == "advance"
                             and isinstance(f.value, ast.Name) and f.value.id == "status")
                if by_name or by_module:
                    found.append(f"{rel}:{node.lineno}")
        if imported and not any(c.startswith(rel + ":") for c in found):
            found.append(f"{rel}: imports advance")
    return found


def test_advance_of_a_battle_stage_is_called_from_one_place() -> None:
    calls = _advance_calls()
    assert len(calls) == 1 and calls[0].startswith("rules/core/stage.py:"), calls


def test_a_battles_summary_is_looked_up_in_one_place() -> None:
    """No loop over ``campaign.battles`` matching ``.number`` but rules.stage.summary_of."""
    found = [f"{p.relative_to(PACKAGE)}:{i}"
             for p in sorted(PACKAGE.rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\.number\s*==", line)]
    assert len(found) == 1 and found[0].startswith("rules/core/stage.py:"), found


class _File:
    """A stage's part of a battle file (a value, never changed in place), and what was
    saved of it."""

    def __init__(self) -> None:
        self.part = {"complete": False}
        self.saved: list[dict[str, bool]] = []


class _Owner:
    """The campaign's owner: it adopts new values when their commit lands."""

    def __init__(self, campaign) -> None:  # type: ignore[no-untyped-def]
        self.campaign = campaign
        self.ok = True

    def commit(self, new) -> bool:  # type: ignore[no-untyped-def]
        if self.ok:
            self.campaign = new
        return self.ok


def _move(owner: _Owner, file: _File, battle_ok: bool, campaign_ok: bool, to: BattleStatus) -> bool:
    def save_battle(part: dict[str, bool]) -> bool:
        if battle_ok:
            file.saved.append(copy.deepcopy(part))
        return battle_ok

    owner.ok = campaign_ok
    new = {"complete": True}
    moved = stage.move(owner.campaign, 1, to, part=file.part, new_part=new, save_part=save_battle,
                       commit_campaign=owner.commit,
                       decided={"winner": G, "gangs": [V, G], "scenario": "Turf War"})
    if moved:
        file.part = new  # (adopted once both landed)
    return moved


def test_each_stage_move_keeps_the_old_values_and_commits_new_ones(demo_campaign) -> None:
    """Issue 33.4: the move builds new values (the file's part and the campaign's) and
    they are adopted when both land; the old values are never changed (on main the
    summary was moved in place and put back by hand when the save failed, and the file's
    part was changed in place and put back by an undo the stage handed in)."""
    for before, to in ((BattleStatus.SETUP, BattleStatus.BATTLE),
                       (BattleStatus.BATTLE, BattleStatus.POST_BATTLE),
                       (BattleStatus.POST_BATTLE, BattleStatus.DONE)):
        c = copy.deepcopy(demo_campaign)
        c.battles.append(BattleSummary(number=1, status=before, gangs=[V], scenario="Sneak Attack"))
        summary = copy.deepcopy(vars(stage.summary_of(c, 1)))
        owner, file = _Owner(c), _File()
        old = file.part
        assert not _move(owner, file, False, True, to)  # the file's save fails
        assert owner.campaign is c and vars(stage.summary_of(c, 1)) == summary
        assert file.part is old and old == {"complete": False} and file.saved == []
        assert not _move(owner, file, True, False, to)  # the campaign's commit fails
        assert owner.campaign is c and vars(stage.summary_of(c, 1)) == summary
        assert file.part is old and old == {"complete": False}
        # the old part was saved again: file and summary agree on disk too
        assert file.saved == [{"complete": True}, {"complete": False}]
        assert _move(owner, file, True, True, to)
        s = stage.summary_of(owner.campaign, 1)
        assert s is not None and s.status == to and s.winner == G and s.gangs == [V, G]
        assert s.scenario == "Turf War" and file.part == {"complete": True}
        assert old == {"complete": False}  # (never changed)
        assert owner.campaign is not c and vars(stage.summary_of(c, 1)) == summary  # (never changed)
        assert owner.campaign.gangs is c.gangs or owner.campaign.gangs == c.gangs


def test_finishing_a_battle_whose_campaign_save_fails_saves_its_file_back_as_it_was(demo_campaign) -> None:
    flow = BattleFlow(demo_campaign, 1, {"setup": default_setup(demo_campaign, 1, V, G).to_data()})
    flow.log_event(flow.end(G, ()))
    saved = []

    def save_battle(record) -> bool:  # type: ignore[no-untyped-def]
        saved.append(record.outcome)
        return True

    battles = [vars(b).copy() for b in demo_campaign.battles]
    record = flow.battle_record
    assert not flow.finish(save_battle, lambda new: False)
    assert flow.battle_record is record and record.outcome is None
    assert saved[0] is not None and saved[-1] is None  # the outcome saved, then the old record
    assert [vars(b) for b in demo_campaign.battles] == battles  # the old values stand


def test_a_move_whose_save_raises_leaves_what_is_on_disk(demo_campaign) -> None:
    """A save that raises (a crash, as the post-battle commit's tests make one): nothing
    is adopted; when the file's save raised nothing was written, when the campaign's did
    the file keeps its saved part (the commit's prepared changes) and the summary stands."""
    import pytest

    c = copy.deepcopy(demo_campaign)
    c.battles.append(BattleSummary(number=1, status=BattleStatus.SETUP, gangs=[V]))
    summary = copy.deepcopy(vars(stage.summary_of(c, 1)))
    old, new = {"complete": False}, {"complete": True}
    saved: list[dict[str, bool]] = []

    def crash(part: dict[str, bool]) -> bool:
        raise OSError("crash")

    def crash_commit(new) -> bool:  # type: ignore[no-untyped-def]
        raise OSError("crash")

    with pytest.raises(OSError):
        stage.move(c, 1, BattleStatus.BATTLE, part=old, new_part=new, save_part=crash,
                   commit_campaign=lambda new: True)
    assert old == {"complete": False} and vars(stage.summary_of(c, 1)) == summary
    with pytest.raises(OSError):
        stage.move(c, 1, BattleStatus.BATTLE, part=old, new_part=new,
                   save_part=lambda part: saved.append(part) is None, commit_campaign=crash_commit)
    assert saved == [new] and vars(stage.summary_of(c, 1)) == summary


def test_a_move_the_stages_do_not_allow_writes_nothing(demo_campaign) -> None:
    """The new values are built before anything is saved: a move the stages refuse
    raises with nothing written (on main the file's part was saved first)."""
    import pytest

    from munda_tui.rules.core.status import BattleStatusError

    c = copy.deepcopy(demo_campaign)
    c.battles.append(BattleSummary(number=1, status=BattleStatus.SETUP, gangs=[V]))
    saved: list[object] = []
    with pytest.raises(BattleStatusError):
        stage.move(c, 1, BattleStatus.DONE, part={}, new_part={"x": 1},
                   save_part=lambda part: saved.append(part) is None,
                   commit_campaign=lambda new: True)
    assert saved == []
