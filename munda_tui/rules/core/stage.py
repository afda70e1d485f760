"""The stage host: a battle moved on to its next stage, in one place.

A battle's stage lives twice: in its battle file (the stage's own table: the set-up
marked complete, the tracker's outcome, the post-battle draft) and in the campaign's
summary of it (``BattleSummary.status``, rules.status). A move changes the file's part
and saves it, then builds the campaign's **new values** (:func:`moved_campaign`: the
summary moved on; the post-battle commit: the sequence applied to a copy) and hands them
to their owner to commit (the campaign handle: one transaction that lands whole or
leaves the old values, on disk and in memory). Nothing of the campaign is changed in
place nor undone by hand; when the file's save fails, or the campaign's commit does, the
file's part is put back (and saved again as it was), so the player stays where they were
and moving on again once the disk is fixed works.

Every stage moves through :func:`move`: the pre-battle flow, the tracker and the
post-battle commit (:mod:`munda_tui.rules.stages.commit`): nothing else calls
``status.advance`` (tests/rules/test_stage.py). :func:`summary_of` is the one lookup of a
battle's summary. The save and the commit are callables the screen hands in (each says
whether it was made and shows its own failure, through the app's one ``guarded_save``):
rules never touch a file.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace
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


def move(campaign: Campaign, number: int, to: BattleStatus, *,
         change_file: Callable[[], Callable[[], None]],
         save_battle: Callable[[], bool], commit_campaign: Callable[[Campaign], bool],
         decide: Callable[[], dict[str, Any]] = dict,
         next_campaign: Callable[[], Campaign] | None = None) -> bool:
    """Move battle ``number`` on to stage ``to``: ``change_file()`` changes the stage's
    part of the battle file in memory (and returns how to put it back), ``save_battle``
    saves the file; then the campaign's new values are built, the summary moved on with
    what ``decide()`` says the stage decided (``winner``, ``gangs``, ``scenario``...: see
    :func:`move_summary`), or ``next_campaign()`` builds them (the post-battle commit:
    every change of the sequence applied to a copy), and ``commit_campaign`` hands them
    to their owner: one transaction that lands whole or leaves the old values. Each says
    whether it was made. When one fails, the file's part is put back (the file saved
    again as it was when the campaign's commit failed, so file and summary agree) and
    False is returned; True when both were made. ``campaign`` is never changed.

    A save that raises (a crash, as the tests make one) puts back what is not on disk and
    raises: the file's part when the file's save raised; when the commit raised, the old
    values stand and the file keeps its saved part (the post-battle commit's prepared
    changes are applied again by the next commit)."""
    undo_file = change_file()
    try:
        saved = save_battle()
    except BaseException:
        undo_file()
        raise
    if not saved:
        undo_file()
        return False
    new = next_campaign() if next_campaign is not None else moved_campaign(campaign, number, to, **decide())
    if not commit_campaign(new):
        undo_file()
        save_battle()  # (the file as it was; a failure here is said by the save too)
        return False
    return True


__all__ = ["move", "move_summary", "moved_campaign", "summary_of"]
