"""Killing the wizard at every step resumes exactly there; the commit applies once,
whatever the crash window."""

from __future__ import annotations

from munda_tui.rules.postbattle.changes import Xp

from munda_tui.rules.postbattle.sequence import commit_report
import copy
import random
from typing import Any

import pytest

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.stages.commit import apply_postbattle
from munda_tui.rules.core.rulesets import ruleset_ids
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import BattleSummary
from munda_tui.rules.core.outcome import BankedReward, RewardKind

import postbattle_support as S  # tests/ is on sys.path (pyproject: pythonpath)
ESCHER, GOLIATH = S.ESCHER, S.GOLIATH


def rewarded_outcome() -> Any:
    o = S.demo_outcome()
    o.rewards = [BankedReward(ESCHER, RewardKind.CREDITS, 40, "Side Job: The Package"),
                 BankedReward(ESCHER, RewardKind.REPUTATION, 2, "Scenario: won")]
    return o


def campaign() -> Any:
    c = demo_campaign()
    c.battles.append(BattleSummary(number=1, status="post-battle", gangs=[ESCHER, GOLIATH]))
    return c


def script(seq: pb.PostBattle) -> None:
    """The player's own entries, made once the step is reached."""
    sid = seq.step["id"]
    if seq.pending is not None or seq.draft.get("_done_" + sid):
        return
    seq.draft["_done_" + sid] = True
    if sid == "post-battle-actions":
        seq.add_entry(f"act|{ESCHER}|vexa-nightshade")
    elif sid == "buy-common":
        seq.add_entry(f"buy|{ESCHER}")


def run(ruleset: str, kill_at: int | None, rng_seed: int = 5) -> tuple[pb.PostBattle, list[str]]:
    """Play the whole sequence; at step index ``kill_at`` the app dies and reopens from the
    saved draft (TOML round trip). Returns the final sequence and the steps visited."""
    base = campaign()
    rng = random.Random(rng_seed)
    seq = pb.PostBattle(copy.deepcopy(base), 1, pb.new_draft(ruleset), rewarded_outcome())
    visited = []
    killed = False
    for _ in range(3000):
        visited.append(seq.step["id"])
        if kill_at is not None and not killed and seq.current == kill_at:
            killed = True
            saved = S.roundtrip(seq.draft)
            here = (seq.step["id"], seq.pending.id if seq.pending else None)
            seq = pb.PostBattle(copy.deepcopy(base), 1, saved, rewarded_outcome())
            assert (seq.step["id"], seq.pending.id if seq.pending else None) == here
        script(seq)
        if seq.pending is not None:
            p = seq.pending
            if p.kind == "text":
                seq.answer("Knife" if seq.step["id"] == "buy-common" else "X")
            elif p.kind == "number" and seq.step["id"] == "buy-common":
                seq.answer(15)
            else:
                S.answer_default(seq, rng)
            continue
        if seq.at_end:
            return seq, visited
        seq.advance()
    raise AssertionError("did not finish")


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_kill_at_every_step_resumes_there_and_ends_the_same(ruleset: str) -> None:
    whole, _ = run(ruleset, None)
    want = whole.changes()
    for k in range(len(whole.steps)):
        seq, _ = run(ruleset, k)
        assert seq.changes() == want, f"killed at step {k} ({whole.steps[k]['id']})"
        # and the rosters on disk end up exactly as the uninterrupted run's, once
        h = handle_with(seq)
        apply_postbattle(h, 1, seq)
        apply_postbattle(h.reopen(), 1)
        assert rosters(h.disk_campaign) == rosters(whole.work), whole.steps[k]["id"]


def rosters(c: Any) -> list[tuple[Any, ...]]:
    return [(g.id, g.credits, g.reputation, len(g.stash), tuple(
        (f.id, f.xp, str(f.status), len(f.equipment), len(f.injuries)) for f in g.fighters))
        for g in c.gangs]


def handle_with(seq: pb.PostBattle) -> Any:
    return S.MemoryHandle(seq.base, {"postbattle": copy.deepcopy(seq.draft)})


def finished() -> pb.PostBattle:
    seq, _ = run("gang-war", None)
    return seq


def expected_credits(seq: pb.PostBattle) -> int:
    return seq.work.gang(ESCHER).credits


def check_applied_once(h: Any, seq: pb.PostBattle) -> None:
    c = h.disk_campaign
    assert c.gang(ESCHER).credits == expected_credits(seq)
    assert c.gang(ESCHER).reputation == seq.work.gang(ESCHER).reputation
    assert c.gang(ESCHER).fighter("vexa-nightshade").xp == \
        seq.work.gang(ESCHER).fighter("vexa-nightshade").xp
    summary = pb.summary_of(c, 1)
    assert summary.status == "done" and summary.standings[ESCHER].credits == expected_credits(seq)
    data = h.disk_battles[1]
    assert data["postbattle"]["status"] == "done"
    assert commit_report(data["report"]).startswith("# Battle 1")


def test_commit_applies_once_and_twice_is_harmless() -> None:
    seq = finished()
    assert expected_credits(seq) != seq.base.gang(ESCHER).credits
    h = handle_with(seq)
    apply_postbattle(h, 1, seq)
    check_applied_once(h, seq)
    again = h.reopen()
    apply_postbattle(again, 1)
    check_applied_once(again, seq)
    assert again.campaign_saves == 0


def test_crash_before_the_commit_is_recorded() -> None:
    seq = finished()
    h = handle_with(seq)
    h.crash_on = {"battle:1"}
    with pytest.raises(S.Crash):
        apply_postbattle(h, 1, seq)
    h2 = h.reopen()
    assert h2.disk_campaign.gang(ESCHER).credits == seq.base.gang(ESCHER).credits
    draft = h2.load_battle(1)["postbattle"]
    assert "commit" not in draft
    seq2 = pb.PostBattle(h2.campaign, 1, draft, rewarded_outcome())
    assert seq2.at_end
    apply_postbattle(h2, 1, seq2)
    check_applied_once(h2, seq)


def test_crash_during_the_campaign_save() -> None:
    seq = finished()
    h = handle_with(seq)
    h.crash_on = {"campaign"}
    with pytest.raises(S.Crash):
        apply_postbattle(h, 1, seq)
    # the in-memory campaign is rolled back too
    assert h.campaign.gang(ESCHER).credits == seq.base.gang(ESCHER).credits
    h2 = h.reopen()
    assert h2.disk_campaign.gang(ESCHER).credits == seq.base.gang(ESCHER).credits
    assert h2.load_battle(1)["postbattle"]["status"] == "committing"
    apply_postbattle(h2, 1)
    check_applied_once(h2, seq)


def test_crash_after_the_campaign_save_does_not_apply_twice() -> None:
    seq = finished()
    h = handle_with(seq)
    h.crash_on = {"battle:2"}
    with pytest.raises(S.Crash):
        apply_postbattle(h, 1, seq)
    h2 = h.reopen()
    assert pb.is_applied(h2.disk_campaign, 1)
    assert h2.load_battle(1)["postbattle"]["status"] == "committing"
    apply_postbattle(h2, 1)
    check_applied_once(h2, seq)
    assert h2.campaign_saves == 0


def test_each_reward_applied_once_in_the_roster() -> None:
    seq = finished()
    h = handle_with(seq)
    apply_postbattle(h, 1, seq)
    h2 = h.reopen()
    apply_postbattle(h2, 1)
    base = seq.base.gang(ESCHER)
    got = h2.disk_campaign.gang(ESCHER)
    rewards = [c for c in seq.changes() if c.reason == "Side Job: The Package"]
    assert len(rewards) == 1
    assert got.reputation >= base.reputation  # +2 once (no losses in this run)
    vexa_xp = [c for c in seq.changes() if isinstance(c, Xp) and c.fighter == "vexa-nightshade"
               and c.reason == "XP earned in the battle"]
    assert [c.amount for c in vexa_xp] == [2]


def test_applied_campaign_refuses_a_second_application() -> None:
    seq = finished()
    commit = pb.commit_table(seq)
    new = pb.applied_campaign(seq.base, 1, commit)
    with pytest.raises(pb.PostBattleError):
        pb.applied_campaign(new, 1, commit)


def test_commit_needs_every_step_finished() -> None:
    seq = S.make_seq()
    with pytest.raises(pb.PostBattleError):
        pb.commit_table(seq)


def test_back_keeps_answers_and_a_roll_is_never_undone() -> None:
    seq = S.make_seq()
    S.drive(seq, random.Random(1), until="lasting-injuries")
    si = [s for s in seq.states if s.id == "seriously-injured"][0]
    lines = list(si.lines)
    assert seq.back()
    assert seq.step["id"] == "seriously-injured" and seq.state.lines == lines
    draft = copy.deepcopy(seq.draft)
    with pytest.raises(pb.PostBattleError, match=r"\{key:post_battle.reroll\} re-rolls or corrects"):
        seq.undo()  # the last answer is Mara's fate: a roll, kept
    assert seq.draft == draft


def test_a_reroll_keeps_both_rolls_and_the_report_shows_them() -> None:
    seq = S.make_seq()
    S.drive(seq, random.Random(1), until="seriously-injured",
            faces={f"fate:{ESCHER}:lys-venom": [3], f"fate:{ESCHER}:mara-quill": [1]})
    last = seq.last_roll()
    assert last is not None and last.id == f"fate:{ESCHER}:mara-quill"
    with pytest.raises(pb.PostBattleError, match="say why"):
        seq.reroll({"faces": [6], "entered": True}, "  ")
    with pytest.raises(pb.PostBattleError):  # a 7 is no D6 face: nothing changes
        seq.reroll({"faces": [7], "entered": True}, "typo")
    seq.reroll({"faces": [6], "entered": True}, "the die was cocked")
    answer = seq.answers[f"fate:{ESCHER}:mara-quill"]
    assert answer["value"]["faces"] == [6]
    assert answer["history"][0]["value"]["faces"] == [1]
    assert seq.rerolls() == [f"{last.label}: re-rolled: 1 → 6, the die was cocked (real dice)"]
    # the record survives the battle file and the rest of the sequence
    again = pb.PostBattle(seq.base, 1, S.roundtrip(seq.draft), S.demo_outcome())
    assert again.rerolls() == seq.rerolls()
    S.drive(again, random.Random(2))
    report = again.report()
    assert "## Re-rolls and corrections" in report
    assert f"- {last.label}: re-rolled: 1 → 6, the die was cocked (real dice)" in report


def test_changing_the_draft_after_a_failed_commit_voids_the_prepared_commit() -> None:
    seq = finished()
    h = handle_with(seq)
    h.crash_on = {"campaign"}
    with pytest.raises(S.Crash):
        apply_postbattle(h, 1, seq)
    # the file on disk holds the prepared commit; the sequence's draft is the old value
    assert h.disk_battles[1]["postbattle"]["status"] == "committing"
    assert "commit" not in seq.draft and seq.draft.get("status", "draft") == "draft"
    assert seq.back()  # the players go back and change something
    assert "commit" not in seq.draft and seq.draft.get("status", "draft") == "draft"
    h.crash_on = set()
    while not seq.at_end:
        seq.advance()
    apply_postbattle(h, 1, seq)
    check_applied_once(h, seq)
