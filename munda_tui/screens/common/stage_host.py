"""The stage host on screen: one battle opened, its file decoded once, its saves and its
move on to the next stage in one place, every failure said one way.

``MundaApp.open_battle`` loads the battle file (a file that does not load is said there,
with the newest backup offered), decodes it once into a
:class:`munda_tui.rules.stages.battle_file.BattleFile` and hands a :class:`StageHost` to
the screen that continues the battle: the pre-battle flow, the tracker or the post-battle
wizard. Each stage reads and changes its typed part of ``host.file``, saves it with
:meth:`StageHost.save` and moves on with :meth:`StageHost.advance` (the rules' one move,
``rules.core.stage.move``: the campaign's new values committed by their owner, the
handle, through the app's ``commit_campaign``, which tells every screen with a
``CampaignCommitted`` message) or, for the post-battle stage,
:meth:`StageHost.apply_postbattle` (the same move, through ``rules.stages.commit``). Every
save goes through the app's ``guarded_save`` (a failure is the error dialog, with its
reason; the player stays where the last save left them), and a battle that cannot be opened is
said by :func:`say_not_opened`. No stage screen loads, saves or decodes the battle file's
data itself (tests/rules/stages/test_battle_file.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from munda_tui.rules.core import stage
from munda_tui.rules.core.status import BattleStatus
from munda_tui.rules.stages.battle_file import BattleFile, Part, part_data
from munda_tui.saves.errors import SaveError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from textual.app import App

    from munda_tui.rules.battle.flow import BattleFlow
    from munda_tui.rules.core.model import Campaign
    from munda_tui.rules.postbattle.sequence import PostBattle
    from munda_tui.saves import CampaignHandle
    from munda_tui.screens.common.typed_app import MundaServices

#: what each part's failed save is called in the error dialog ("... could not be saved")
WHAT = {"setup": "The set-up", "battle": "The battle", "postbattle": "The post-battle step",
        "report": "The battle report"}


def say_not_opened(app: "App[Any]", title: str, where: str, error: BaseException) -> None:
    """A battle whose file loads but does not make what its stage needs (a hand edit,
    another version): said with the file and the reason; nothing is written."""
    from munda_tui.screens.common.dialogs import ErrorScreen

    app.push_screen(ErrorScreen(
        title, f"{where}: {str(error)[:300]}\n\n"
        "The file is left as it is; the rest of the campaign is unchanged."))


class StageHost:
    """One battle opened at its stage: the campaign's handle, the battle file's typed
    parts, the saves and the move on."""

    def __init__(self, app: "MundaServices", handle: "CampaignHandle", file: BattleFile) -> None:
        self.app = app
        self.handle = handle
        self.file = file

    @property
    def number(self) -> int:
        return self.file.number

    @property
    def campaign(self) -> "Campaign":
        return self.handle.campaign

    # --- saves ----------------------------------------------------------------------

    def save(self, part: str, what: str = "", *, fold: bool = False) -> bool:
        """Write one part of the battle file (the others are kept); False when the save
        failed (said in the error dialog, the file on disk as it was). The tracker's
        record (``battle``) is appended to the battle's journal (``saves.battle_log``: one
        line a key) unless ``fold``: then it is written whole into the file (a stage move)."""
        data = self.file.part(part)
        if part == "battle" and not fold:
            return self.app.guarded_save(what or WHAT[part], lambda: self.handle.journal_battle(
                self.number, data))
        return self._write(part, data, what)

    def _write(self, part: str, data: Any, what: str = "") -> bool:
        """One part's data written whole into the battle file (said when it fails)."""
        return self.app.guarded_save(what or WHAT[part], lambda: self.handle.update_battle(
            self.number, part, data, checked=part == "battle"))

    def save_value(self, part: str, value: Part, what: str = "") -> bool:
        """A new value of ``part`` written whole into the battle file, before the file
        adopts it (a stage move: ``rules.core.stage.move``); False when the save failed
        (said; the file on disk as it was)."""
        return self._write(part, part_data(part, value), what)

    def fold_when_left(self) -> None:
        """The tracker is left: its journal folded into the battle file (the TOML a player
        reads). One that cannot be is no loss: the journal is read at the next load and
        folded at the campaign's close or the next stage move."""
        if self.handle.closed:
            return
        try:
            self.handle.fold_battle_log(self.number)
        except (SaveError, OSError):
            pass

    def commit_campaign(self, new: "Campaign") -> bool:
        """The campaign's new values committed by their owner (the app says a failure and
        tells the screens of a commit); False when they did not land (the old stand)."""
        return self.app.commit_campaign(new)

    # --- moving on ------------------------------------------------------------------

    def advance(self, to: BattleStatus, part: str, value: Part, *,
                decided: "Mapping[str, Any] | None" = None, what: str = "") -> bool:
        """Move the battle on to stage ``to`` with ``value``, the new value of the stage's
        ``part`` (built by the stage; the file's own is not changed): the value saved,
        then the campaign's summary moved on with what the stage ``decided`` committed by
        its owner (``rules.core.stage.move``); the file adopts the value when both landed.
        False when one failed (said; the old values stand, in memory and on disk)."""
        if not stage.move(self.campaign, self.number, to, part=getattr(self.file, part),
                          new_part=value, save_part=lambda v: self.save_value(part, v, what),
                          commit_campaign=self.commit_campaign, decided=decided):
            return False
        setattr(self.file, part, value)
        return True

    def finish_battle(self, flow: "BattleFlow", what: str) -> bool:
        """The tracker's move on to the post-battle stage (``BattleFlow.finish``: the
        record with its outcome saved, the campaign's summary committed); the file adopts
        the flow's new record when both landed."""
        if not flow.finish(lambda record: self.save_value("battle", record, what),
                           self.commit_campaign):
            return False
        self.file.battle = flow.battle_record
        return True

    def apply_postbattle(self, seq: "PostBattle | None" = None) -> str | None:
        """Apply the post-battle sequence once (``rules.stages.commit``); its report, or
        None when a save failed (said; file and campaign as they were on disk)."""
        from munda_tui.rules.stages.commit import apply_postbattle

        report: list[str | None] = [None]

        def apply() -> None:
            try:
                report[0] = apply_postbattle(self.handle, self.number, seq, date=self.app.today(),
                                             file=self.file, guard=self.app.guarded_save,
                                             commit_campaign=self.commit_campaign)
            except KeyError as error:  # (a change naming a fighter or item not there)
                raise ValueError(f"not applied: {error}") from error

        # a save that fails is said by its own guarded save (and the commit returns None);
        # a change the rules refuse is said the same way, by this one
        if not self.app.guarded_save("The post-battle sequence", apply):
            return None
        return report[0]

    # --- the stages' flows, from the typed parts ------------------------------------

    def battle_flow(self) -> "BattleFlow":
        """The tracker's flow on the file's set-up and record (a quick battle's set-up
        and a new record become the file's)."""
        from munda_tui.rules.battle.flow import BattleFlow

        flow = BattleFlow(self.campaign, self.number, setup=self.file.setup,
                          record=self.file.battle, rule_data=self.app.rule_data)
        self.file.setup, self.file.battle = flow.setup, flow.battle_record
        return flow


__all__ = ["StageHost", "WHAT", "say_not_opened"]
