"""Where a battle stands, and the moves between its stages, in one place.

``setup`` (the pre-battle flow) -> ``battle`` (the tracker) -> ``post-battle`` (the
wizard) -> ``done``. A battle fought without the tracker is created at ``post-battle``
(the wizard's Battle Outcome step asks what happened). Screens never write a status
string: they call :func:`advance`, which refuses a move the stages do not allow.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol


class BattleStatus(StrEnum):
    SETUP = "setup"
    BATTLE = "battle"
    POST_BATTLE = "post-battle"
    DONE = "done"


#: status -> the statuses a battle may move on to
TRANSITIONS: dict[BattleStatus, frozenset[BattleStatus]] = {
    BattleStatus.SETUP: frozenset({BattleStatus.BATTLE}),
    BattleStatus.BATTLE: frozenset({BattleStatus.POST_BATTLE}),
    BattleStatus.POST_BATTLE: frozenset({BattleStatus.DONE}),
    BattleStatus.DONE: frozenset(),
}

#: the status a new battle starts at: its set-up, or (fought without the tracker) the
#: post-battle sequence
FIRST = BattleStatus.SETUP
FIRST_BY_HAND = BattleStatus.POST_BATTLE


class BattleStatusError(ValueError):
    """A move between stages that the flow does not allow."""


class _HasStatus(Protocol):
    number: int
    status: BattleStatus


def advance(summary: _HasStatus, to: BattleStatus) -> BattleStatus:
    """Move a battle's summary on to ``to``; its status before (to put back if the save
    that follows fails). Moving to the status it already has is allowed (a resumed
    commit); anything else not in :data:`TRANSITIONS` raises BattleStatusError."""
    before = BattleStatus(summary.status)
    if to != before and to not in TRANSITIONS[before]:
        raise BattleStatusError(f"battle {summary.number} cannot go from {before} to {to}")
    summary.status = to
    return before
