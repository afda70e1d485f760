"""The stage host: a battle moved on to its next stage, in one place.

A battle's stage lives twice: in its battle file (the stage's own table: the set-up
marked complete, the tracker's outcome, the post-battle draft) and in the campaign's
summary of it (``BattleSummary.status``, rules.status). A move changes both and saves
both, in that order; when either save fails, both are put back as they were, so the
player stays where they were and moving on again once the disk is fixed works.

Every stage moves through :func:`move`: the pre-battle flow, the tracker and the
post-battle commit (:mod:`munda_tui.rules.stages.commit`, whose campaign change applies
the sequence to a copy of the campaign, its summary moved with :func:`moved_summary`, as
its single commit point): nothing else calls ``status.advance`` (tests/rules/test_stage.py). :func:`summary_of` is the one lookup of a battle's summary.
The saves are callables the screen hands in (each says whether it was made and shows its
own failure, through the app's one ``guarded_save``): rules never touch a file.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from .model import BattleSummary, Campaign, Standing
from .status import TRANSITIONS, BattleStatus, advance

_UNSET: Any = object()


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


def moved_summary(campaign: Campaign, number: int, to: BattleStatus, *, winner: str = _UNSET,
                  gangs: list[str] = _UNSET, scenario: str = _UNSET,
                  standings: dict[str, Standing] = _UNSET, date: str = "") -> Callable[[], None]:
    """Move battle ``number``'s summary on to ``to`` with what the stage decided (a field
    left out is kept; an empty ``scenario`` keeps the one it has). A campaign without the
    summary gets one, at the stage before. Returns the undo: the summary as it was (a
    summary made here stays, at the stage before: moving on again finds it). Raises BattleStatusError for a move the stages
    do not allow (nothing changed then)."""
    made = summary_of(campaign, number)
    summary = made
    if summary is None:
        summary = BattleSummary(number=number, date=date, status=_stage_before(to))
    was = copy.deepcopy(vars(summary))
    advance(summary, to)
    if made is None:
        campaign.battles.append(summary)
    if winner is not _UNSET:
        summary.winner = winner
    if gangs is not _UNSET:
        summary.gangs = list(gangs)
    if scenario is not _UNSET and scenario:
        summary.scenario = scenario
    if standings is not _UNSET:
        summary.standings = dict(standings)

    def undo() -> None:
        vars(summary).clear()
        vars(summary).update(was)

    return undo


def move(campaign: Campaign, number: int, to: BattleStatus, *,
         change_file: Callable[[], Callable[[], None]],
         save_battle: Callable[[], bool], save_campaign: Callable[[], bool],
         decide: Callable[[], dict[str, Any]] = dict,
         change_campaign: Callable[[], Callable[[], None]] | None = None) -> bool:
    """Move battle ``number`` on to stage ``to``: ``change_file()`` changes the stage's
    part of the battle file in memory (and returns how to put it back), ``save_battle``
    saves the file, then the summary moves on with what ``decide()`` says the stage
    decided (``winner``, ``gangs``, ``scenario``...: see :func:`moved_summary`), or
    ``change_campaign()`` changes the campaign, its summary moved on included (the
    post-battle commit: every change of the sequence; returns how to put it back), and
    ``save_campaign`` saves the campaign. Each save says whether it was made. When one
    fails, the file's part and the campaign are put back as they were (the file saved
    again as it was when the campaign's save failed, so file and summary agree), and
    False is returned; True when both were saved.

    A save that raises (a crash, as the tests make one) puts back what is not on disk and
    raises: the file's part when the file's save raised, the campaign when the campaign's
    did (the file keeps its saved part: the post-battle commit's prepared changes are
    applied again by the next commit)."""
    undo_file = change_file()
    try:
        saved = save_battle()
    except BaseException:
        undo_file()
        raise
    if not saved:
        undo_file()
        return False
    undo_campaign = (change_campaign() if change_campaign is not None
                     else moved_summary(campaign, number, to, **decide()))
    try:
        saved = save_campaign()
    except BaseException:
        undo_campaign()
        raise
    if not saved:
        undo_campaign()
        undo_file()
        save_battle()  # (the file as it was; a failure here is said by the save too)
        return False
    return True


__all__ = ["move", "moved_summary", "summary_of"]
