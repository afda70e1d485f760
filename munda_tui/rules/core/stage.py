"""The stage host: a battle moved on to its next stage, in one place.

A battle's stage lives twice: in its battle file (the stage's own table: the set-up
marked complete, the tracker's outcome, the post-battle draft) and in the campaign's
summary of it (``BattleSummary.status``, rules.status). A move changes the file's part
and saves it, then builds the campaign's **new values** (:func:`moved_campaign`: the
summary moved on; the post-battle commit: the sequence applied to a copy) and hands them
to their owner to commit (the campaign handle: one transaction that lands whole or
leaves the old values, on disk and in memory). The file's part is a value too: the
stage builds the new one, the move saves it, and the stage adopts it once both landed.
Nothing is changed in place nor undone by hand; when the file's save fails, or the
campaign's commit does, the old values stand (the old part saved again when the commit
failed), so the player stays where they were and moving on again once the disk is fixed
works.

Every stage moves through :func:`move`: the pre-battle flow, the tracker and the
post-battle commit (:mod:`munda_tui.rules.stages.commit`): nothing else calls
``status.advance`` (tests/rules/test_stage.py). :func:`summary_of` is the one lookup of a
battle's summary. The save and the commit are callables the screen hands in (each says
whether it was made and shows its own failure, through the app's one ``guarded_save``):
rules never touch a file.

A crash (kill -9) between the two writes leaves the file's part moved on and the
summary behind it: the next move builds the same values again and lands them
(tests/saves/test_crash.py, tests/rules/postbattle/test_resume.py).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from .model import BattleSummary, Campaign, Standing
from .status import TRANSITIONS, BattleStatus, advance

_UNSET: Any = object()
#: a stage's part of the battle file (a value: built new, never changed in place)
P = TypeVar("P")


def summary_of(campaign: Campaign, number: int) -> BattleSummary | None:
    """Battle ``number``'s summary in the campaign, or None: the first listed with that
    number (two never are in a campaign that saves; the saves name a battle's file after
    this one too)."""
    for s in campaign.battles:
        if s.number == number:
            return s
    return None


def _stage_before(to: BattleStatus) -> BattleStatus:
    return next(s for s, nxt in TRANSITIONS.items() if to in nxt)


def move_summary(campaign: Campaign, number: int, to: BattleStatus, *, winner: str = _UNSET,
                 gangs: list[str] = _UNSET, scenario: str = _UNSET,
                 standings: dict[str, Standing] = _UNSET, date: str = "") -> None:
    """Move battle ``number``'s summary in ``campaign`` on to ``to`` with what the stage
    decided (a field left out is kept; an empty ``scenario`` keeps the one it has), in
    place: for new values being built (:func:`moved_campaign`, the post-battle commit's
    copy), never the owner's. A campaign without the summary gets one, at the stage
    before. Raises BattleStatusError for a move the stages do not allow (nothing changed
    then)."""
    summary = summary_of(campaign, number)
    made = summary is None
    if summary is None:
        summary = BattleSummary(number=number, date=date, status=_stage_before(to))
    advance(summary, to)
    if made:
        campaign.battles.append(summary)
    if winner is not _UNSET:
        summary.winner = winner
    if gangs is not _UNSET:
        summary.gangs = list(gangs)
    if scenario is not _UNSET and scenario:
        summary.scenario = scenario
    if standings is not _UNSET:
        summary.standings = dict(standings)


def moved_campaign(campaign: Campaign, number: int, to: BattleStatus, **decided: Any) -> Campaign:
    """New values: ``campaign`` with battle ``number``'s summary moved on to ``to``
    (:func:`move_summary`'s fields). The summary and the battles' list are new objects;
    everything else is shared with ``campaign``, which is never changed."""
    new = replace(campaign, battles=list(campaign.battles))
    old = summary_of(new, number)
    if old is not None:
        new.battles[next(i for i, s in enumerate(new.battles) if s is old)] = copy.deepcopy(old)
    move_summary(new, number, to, **decided)
    return new


def move(campaign: Campaign, number: int, to: BattleStatus, *, part: P, new_part: P,
         save_part: Callable[[P], bool], commit_campaign: Callable[[Campaign], bool],
         decided: Mapping[str, Any] | None = None, new_campaign: Campaign | None = None) -> bool:
    """Move battle ``number`` on to stage ``to`` with two new values built beforehand:
    ``new_part``, the stage's part of the battle file (the set-up marked complete, the
    record with its outcome, the draft with its prepared commit), and the campaign's new
    values, ``new_campaign`` or, by default, ``campaign`` with the battle's summary moved
    on with what the stage ``decided`` (``winner``, ``gangs``, ``scenario``...: see
    :func:`move_summary`). Building them changes nothing (a move the stages do not allow,
    a change that does not apply, raises here, before anything is written). Then they are
    committed: ``save_part(new_part)`` saves the file's part, ``commit_campaign`` hands
    the campaign's new values to their owner (one transaction that lands whole or leaves
    the old values); each says whether it was made. True when both were: the caller
    adopts ``new_part``. When the file's save fails, nothing was written; when the
    campaign's commit fails, ``part`` (the old value, never changed) is saved again, so
    file and summary agree on disk; False either way, and the old values stand, in memory
    and on disk. Nothing is changed in place, so nothing is undone.

    A save that raises (a crash, as the tests make one) raises through: when the file's
    save raised nothing landed; when the commit raised the old campaign values stand and
    the file keeps its saved part (the post-battle commit's prepared changes, applied
    again by the next commit: a summary behind its file is what a crash between the two
    writes leaves, and what the next move mends)."""
    new = new_campaign if new_campaign is not None else moved_campaign(
        campaign, number, to, **(decided or {}))
    if not save_part(new_part):
        return False
    if not commit_campaign(new):
        save_part(part)  # (the file as it was; a failure here is said by the save too)
        return False
    return True


__all__ = ["move", "move_summary", "moved_campaign", "summary_of"]
