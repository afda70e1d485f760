"""The post-battle commit: a sequence's changes applied to the campaign exactly once.

1. the changes, the report and the standings are recorded in a new draft
   (``prepared_draft``: status ``committing``) and the battle file saved with it;
2. the campaign's new values are built (the changes applied to a copy, its summary of
   the battle moved to ``done``) and committed by their owner in one transaction that
   lands whole or leaves the old values: the single commit point. Steps 1 and 2 are the
   stage host's one move (:func:`munda_tui.rules.core.stage.move`);
3. the report is written to the battle file's ``report`` part and the draft marked
   ``done`` (new values too, adopted once saved).

A crash before 2 leaves the campaign untouched (commit again: the same stored changes
apply); a crash after 2 is recognised by the summary's status ``done`` and only step 3 is
redone. The battle file is the :class:`BattleFile` the stage host opened (read here only
when none is handed in); ``saves`` writes its bytes, through the :class:`CampaignOwner`
handed in (the saves' campaign handle, typed by what the commit uses of it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from ..core import stage
from ..core.model import Campaign
from ..core.status import BattleStatus
from ..postbattle.sequence import (
    PostBattle, PostBattleError, applied_campaign, is_applied, prepared_draft,
)
from .battle_file import BattleFile, BattleReport, PostBattleDraft

#: how a save is run: ``guard(what, save)`` runs ``save`` and says whether it was made
#: (the app's ``guarded_save`` says a failure on screen); by default a failure raises
Guard = Callable[[str, Callable[[], object]], bool]


class CampaignOwner(Protocol):
    """What the commit uses of the campaign's owner (``saves``' campaign handle): the
    campaign's values, the battle file's data, and the one commit of new values."""

    @property
    def campaign(self) -> Campaign: ...

    def load_battle(self, number: int) -> dict[str, object]: ...

    def save_battle(self, number: int, data: dict[str, object]) -> object: ...

    def commit(self, campaign: Campaign) -> None:
        """Write ``campaign`` (new values) in one transaction and adopt it; on a failure
        (raised) the old values stand, on disk and in memory."""


def _raise(what: str, save: Callable[[], object]) -> bool:
    save()
    return True


def apply_postbattle(owner: CampaignOwner, number: int, seq: PostBattle | None = None, date: str = "", *,
                     file: BattleFile | None = None, guard: Guard = _raise,
                     commit_campaign: Callable[[Campaign], bool] | None = None) -> str | None:
    """Apply the post-battle sequence of battle ``number`` exactly once; the report.

    ``file`` is the battle file as the stage host opened it (loaded here when not given);
    ``commit_campaign`` commits the campaign's new values (by default the owner's
    ``commit`` run through ``guard``; the app's also tells the screens). Safe to call
    again after a crash at any point. None when a save failed (said by ``guard``; file
    and campaign as they were on disk and in memory). Every step builds new values and
    ``file`` adopts each once it is on disk: nothing is changed in place to be put back."""
    if file is None:
        file = BattleFile.from_data(number, owner.load_battle(number))
    bf = file

    def save_file(new: BattleFile) -> bool:
        return guard("The post-battle sequence", lambda: owner.save_battle(number, new.to_data()))

    draft = PostBattleDraft(seq.draft) if seq is not None else file.postbattle
    if draft is not None and draft.status == "done":
        return file.report.text(number) if file.report is not None else ""
    if seq is None and (draft is None or draft.prepared is None):
        raise PostBattleError("the sequence has not been committed")
    # new values: the draft with the commit it prepared (the one saved when resumed)
    prepared = PostBattleDraft(prepared_draft(seq)) if seq is not None else draft
    assert prepared is not None and prepared.prepared is not None
    if not is_applied(owner.campaign, number):
        # the campaign's new values: the changes applied to a copy (nothing half-applied
        # if a change fails; built before anything is written)
        new = applied_campaign(owner.campaign, number, prepared.prepared, date)

        def commit_values(values: Campaign) -> bool:
            return guard("The campaign", lambda: owner.commit(values))

        if not stage.move(owner.campaign, number, BattleStatus.DONE, part=file.postbattle,
                          new_part=prepared,
                          save_part=(lambda p: save_file(replace(bf, postbattle=p)))
                          if seq is not None else (lambda p: True),
                          commit_campaign=commit_campaign or commit_values, new_campaign=new):
            return None
    # (else a crash after the commit point: the campaign has it, the file is finished)
    file.postbattle = prepared
    return _finish(file, save_file)


def _finish(file: BattleFile, save_file: Callable[[BattleFile], bool]) -> str | None:
    """Step 3: the report part written and the draft marked done, new values the file
    adopts once they are saved (a failed save leaves it as it was: committing again
    finishes it)."""
    assert file.postbattle is not None and file.postbattle.prepared is not None
    commit = file.postbattle.prepared
    report = BattleReport.of_commit(commit)
    done = PostBattleDraft({**file.postbattle.data, "status": "done", "applied": commit["token"]})
    if not save_file(replace(file, postbattle=done, report=report)):
        return None
    file.postbattle, file.report = done, report
    return report.text()


__all__ = ["CampaignOwner", "apply_postbattle"]
