"""The tracker's Sub-plot watch (and the battle's state, for a kind that cannot take
itself back) after an undo feeds on from a copy of itself a few dozen
events back (``BattleFlow._watch_marks``), not from the battle's start: a key's cost does
not grow with the log (issue 33.2/33.6). A watch made anew and fed the whole log stays
the check."""

from __future__ import annotations

import random

import pytest

from munda_tui.rules.battle import events as events_module
from munda_tui.rules.battle import flow as flow_module
from munda_tui.rules.battle.events import Battle, replay
from munda_tui.rules.battle.flow import WATCH_MARK_EVERY, WATCH_MARKS_KEPT, BattleFlow
from munda_tui.rules.battle.watch import HandWatch, watcher_table
from scripts.generate import generated_battle_file

HANDS = {"red-blades": ["escher:A", "escher:2"], "grey-hammers": ["goliath:A", "goliath:2"]}


def _flow(events: int, seed: int = 1) -> BattleFlow:
    campaign, data = generated_battle_file(seed=seed, per_side=6, events=events, hands=HANDS)
    return BattleFlow(campaign, 1, data)


def _replayed(flow: BattleFlow) -> tuple[list[object], list[object]]:
    """The hands against the whole log, from the start: what the marks must agree with."""
    run = HandWatch(flow.hands, watcher_table(flow.rule_data), facts=flow.setup,
                    data=flow.rule_data)
    for ev in flow.battle.log:
        run.feed(ev)
    return run.matches(), run.reminders()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_redo_and_new_events_watch_as_a_replay_would(seed: int) -> None:
    flow = _flow(260, seed)
    rng = random.Random(seed)
    assert flow.matches == _replayed(flow)[0]
    for _ in range(40):
        roll = rng.random()
        if roll < 0.5:
            for _ in range(rng.choice((1, 1, 2, 5, 40, 120))):
                flow.undo()
        elif roll < 0.8:
            for _ in range(rng.randint(1, 30)):
                flow.redo()
        else:  # a new event: the undone ones cannot come back
            flow.log_event(flow.next_phase())
        matches, reminders = _replayed(flow)
        assert flow.matches == matches
        assert flow.reminders == reminders
        assert flow.battle.state == replay(flow.battle.log)


def test_an_undo_feeds_on_from_a_mark_not_from_the_start(monkeypatch: pytest.MonkeyPatch) -> None:
    flow = _flow(2000)
    flow.matches  # noqa: B018 - fed once, the whole log
    fed: list[int] = []
    feed = HandWatch.feed

    def counted(self: HandWatch, ev: object) -> None:
        fed.append(1)
        feed(self, ev)  # type: ignore[arg-type]

    monkeypatch.setattr(HandWatch, "feed", counted)
    for _ in range(3):
        flow.undo()
        flow.matches  # noqa: B018
    for _ in range(3):
        flow.redo()
        flow.matches  # noqa: B018
    # each undo walks at most the events since the latest mark (the whole log before: 2,000)
    assert len(fed) <= 3 * WATCH_MARK_EVERY + 3
    assert flow.matches == _replayed(flow)[0]
    assert len(flow._watch_marks) <= WATCH_MARKS_KEPT
    assert flow_module.WATCH_MARK_EVERY == WATCH_MARK_EVERY


def test_undoing_a_kind_that_cannot_take_itself_back_replays_from_a_mark(
        monkeypatch: pytest.MonkeyPatch) -> None:
    flow = _flow(2000)
    battle = flow.battle
    applied: list[int] = []
    counting = [False]
    apply = events_module.apply

    def counted(state: object, ev: object) -> None:
        if counting[0]:
            applied.append(1)
        apply(state, ev)  # type: ignore[arg-type]

    monkeypatch.setattr(events_module, "apply", counted)
    replays = 0
    for _ in range(60):
        before = len(applied)
        counting[0] = True
        battle.undo()
        counting[0] = False
        replays += len(applied) > before
        assert battle.state == replay(battle.log)
    assert replays >= 3  # (the generated log has such kinds)
    # each replayed from a mark at most 32 x 3 events back (from the start before: ~2,000)
    assert len(applied) <= replays * Battle.STATE_MARK_EVERY * Battle.STATE_MARKS_KEPT


def test_every_watcher_kind_copies_and_feeds_on_as_the_original() -> None:
    campaign, data = generated_battle_file(seed=4, per_side=6, events=400, hands=HANDS)
    flow = BattleFlow(campaign, 1, data)
    table = watcher_table(flow.rule_data)
    hands = {gang: sorted(table) for gang in flow.hands}  # every card the tracker watches
    run = HandWatch(hands, table, facts=flow.setup, data=flow.rule_data)
    log = flow.battle.log
    for ev in log[:200]:
        run.feed(ev)
    copied = run.copy()
    assert copied.matches() == run.matches()
    for ev in log[200:]:
        run.feed(ev)
        copied.feed(ev)
    assert copied.matches() == run.matches() and copied.reminders() == run.reminders()
    assert copied.data is run.data and copied.facts is run.facts
