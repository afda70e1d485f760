"""The pre-battle flow (seed 001, Core Rules p139-147).

Choose the two gangs and who challenged whom -> battlefield -> scenario rolls
(Deployment, Objective, Crew, each Side Job) -> Pitch Black if both agree ->
each crew -> the fighters Side Jobs pick -> Sub-plots if both agree -> a
summary -> start the battle.

The set-up (``rules.prebattle.setup.BattleSetup``, the battle file's ``setup`` part as the
stage host decoded it) is saved after every step (``StageHost.save``), so closing the app
resumes the flow at ``BattleSetup.step``; starting the battle is the host's move on.
Every rule result comes from ``rules.prebattle.scenario``; this screen only shows it and
asks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.screen import Screen
from munda_tui.widgets.plain import Static
from munda_tui.widgets.header import Header

from munda_tui.rules.prebattle import flow as pre
from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.core import stage as stage
from munda_tui.rules.core.model import BattleSummary, Campaign
from munda_tui.rules.prebattle.setup import BattleSetup
from munda_tui.rules.core.status import BattleStatus
from munda_tui.saves.overrides import load_scenario_tables
from munda_tui.screens.prebattle.steps import STEP_CLASSES, STEP_TITLES, StepPanel
from munda_tui.screens.common.asking import Asking
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.widgets.footer import Footer

if TYPE_CHECKING:
    from munda_tui.screens.common.stage_host import StageHost


class PreBattleScreen(Asking, Screen[None]):
    HELP_TITLE = "Pre-battle set-up"
    HELP = (
        "Set up a battle step by step as the Core Rules (p139-147) say: the gangs and who "
        "challenged whom, the battlefield, the scenario rolls (the challenger rolls Deployment "
        "and Objective, the challenged player Crew, each player their Side Job), Pitch Black, "
        "Sub-plots, each crew ({key:crew_step.subplots} shows a player's Choose Crew Sub-plots behind the curtain), "
        "the fighters Side Jobs pick and a summary. Every roll can be made by munda-tui, "
        "entered from real dice or chosen outright. {key:pre_battle.next_step} goes on, "
        "{key:pre_battle.back} goes back a step; the "
        "set-up is saved after every step, so closing the app resumes it."
    )
    CSS_PATH = "prebattle.tcss"
    BINDINGS = [
        Binding("n", "next_step", "Next", id="pre_battle.next_step"),
        Binding("escape", "back", "Back", id="pre_battle.back"),
    ]

    def __init__(self, host: "StageHost") -> None:
        super().__init__()
        self.host = host  # the battle opened: its file's parts, the saves, the move on
        self.handle = host.handle
        self.number = host.number
        self.step = "gangs"
        # the flow the step panels read and change (its tables are loaded on mount), on the
        # set-up as the battle file has it
        self.flow = pre.PreBattle(host.campaign, host.number, {}, setup=host.file.setup,
                                  shorten=self.short_path)
        # the steps shown and those whose panel is in place (see show_step)
        self._asked = self._shown = 0
        self._swap = asyncio.Lock()

    # --- the flow --------------------------------------------------------------------

    @property
    def campaign(self) -> Campaign:
        return self.handle.campaign

    @property
    def setup(self) -> BattleSetup | None:
        return self.flow.setup

    @setup.setter
    def setup(self, value: BattleSetup | None) -> None:
        self.flow.setup = value

    @property
    def tables(self) -> dict[str, sc.ScenarioTable]:
        return self.flow.tables

    @property
    def problems(self) -> list[Any]:
        return self.flow.problems

    def short_path(self, path: str) -> str:
        """An override file's path from its folder: "<config>/tables/x.toml"
        (the user config dir) or "<campaign>/tables/x.toml"."""
        from pathlib import Path

        p = Path(path)
        for label, base in (("<campaign>", self.handle.path), ("<config>", munda_app(self).config_dir)):
            try:
                return f"{label}/{p.relative_to(base).as_posix()}"
            except ValueError:
                continue
        return path

    @property
    def prefer_dice(self) -> bool:
        return bool(self.campaign.settings.dice_by_hand)

    # --- compose and life cycle -------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="pb-progress", markup=False)
        yield Container(id="pb-body")
        yield Footer()

    def on_mount(self) -> None:
        data = munda_app(self).rule_data
        tables, problems = load_scenario_tables(munda_app(self).config_dir, self.handle.path, data)
        self.flow.tables, self.flow.problems, self.flow.data = tables, list(problems), data
        if self.setup is not None:
            step = self.setup.step or "battlefield"
        else:
            step = "gangs"
        self.sub_title = f"Battle {self.number}: set-up"
        self.show_step(step if step in sc.STEPS else "gangs")

    def show_step(self, step: str) -> None:
        self.step = step
        names = " › ".join(
            f"[{STEP_TITLES[s]}]" if s == step else STEP_TITLES[s] for s in sc.STEPS
        )
        self.query_one("#pb-progress", Static).update(names)
        # The step's panel replaces the one shown once that one is gone, one swap at a
        # time, and keys wait meanwhile (``settling``, read by the app): two steps shown
        # in one burst of keys mounted a panel into a body still taking the last one
        # down (the same id twice), or took a panel down before its own set-up ran.
        self._asked += 1
        self.run_worker(self._show_panel(step, self._asked), group="pb-step")
        if self.setup is not None and self.setup.step != step:
            self.setup.step = step
            self.save()

    @property
    def settling(self) -> bool:
        """Whether a step's panel is still being put in place, or a question of a panel
        is on its way (keys wait for it)."""
        return self._swapping or super().settling

    @property
    def _swapping(self) -> bool:
        """Whether a step's panel is still being put in place."""
        return self._shown < self._asked

    async def _show_panel(self, step: str, asked: int) -> None:
        async with self._swap:
            try:
                if asked == self._asked:  # (a step shown after it is the one to show)
                    body = self.query_one("#pb-body", Container)
                    await body.remove_children()
                    panel = STEP_CLASSES[step](self.flow, munda_app(self).rng, id=f"step-{step}")
                    await body.mount(panel)
            finally:
                self._shown = max(self._shown, asked)

    @property
    def panel(self) -> StepPanel:
        return self.query_one("#pb-body", Container).query_one(StepPanel)

    def save(self) -> bool:
        """Write the set-up into the battle file and the campaign's summary.
        A failed save is shown as every save is (the app's guarded_save: its reason in
        the error dialog; nothing is lost on screen) and returns False."""
        if self.setup is None:
            return True
        self.host.file.setup = self.setup  # (a set-up begun by the gangs step)
        return self.host.save("setup") and self._save_summary()

    def _save_summary(self) -> bool:
        assert self.setup is not None
        summary = self._summary()
        if summary is not None:
            gangs = [self.setup.challenger, self.setup.challenged]
            scenario = self.setup.objective
            if summary.gangs != gangs or summary.scenario != scenario:
                # new values (the summary replaced), committed by the campaign's owner
                moved = replace(summary, gangs=gangs, scenario=scenario)
                return self.host.commit_campaign(replace(self.campaign, battles=[
                    moved if s is summary else s for s in self.campaign.battles]))
        return True

    def _summary(self) -> BattleSummary | None:
        return stage.summary_of(self.campaign, self.number)

    # --- navigation -------------------------------------------------------------------

    def on_step_panel_changed(self, message: StepPanel.Changed) -> None:
        message.stop()
        self.save()

    def on_step_panel_next(self, message: StepPanel.Next) -> None:
        message.stop()
        self.action_next_step()

    def on_step_panel_start_battle(self, message: StepPanel.StartBattle) -> None:
        message.stop()
        self.start_battle()

    def on_step_panel_say(self, message: StepPanel.Say) -> None:
        message.stop()
        self.notify(message.text, severity=message.severity)

    def on_step_panel_ask(self, message: StepPanel.Ask) -> None:
        message.stop()
        self._ask_for_panel(message.dialog, message.then)

    @work(group="dialog")
    async def _ask_for_panel(self, dialog: Any, then: Callable[[Any], None]) -> None:
        """A panel's question, awaited here as every stage's (the panel gets the answer)."""
        then(await self.ask(dialog))

    def action_next_step(self) -> None:
        if self._swapping:  # (a step's own message, from a panel on its way out)
            return
        panel = self.panel
        problem = panel.finish()
        if problem is not None:  # the step stays (and says why, if it has to)
            if problem:
                self.notify(problem, severity="warning", timeout=4)
            return
        if self.step == "summary":
            return
        nxt = sc.STEPS[sc.STEPS.index(self.step) + 1]
        self.save()
        self.show_step(nxt)

    def action_back(self) -> None:
        if self._swapping:
            return
        panel = self.panel
        if panel.back():
            return
        index = sc.STEPS.index(self.step)
        if index == 0:
            self.dismiss(None)
            return
        self.show_step(sc.STEPS[index - 1])

    def start_battle(self) -> None:
        """The set-up is complete: the battle begins (the tracker takes over)."""
        assert self.setup is not None
        missing = self.flow.missing()
        if missing:
            self.notify("Still to decide: " + ", ".join(missing), severity="warning")
            return
        self.host.file.setup = self.setup
        # new values: the set-up marked complete (the screen's own kept until they land)
        setup = replace(self.setup, complete=True, step="summary")
        if not self.host.advance(
                BattleStatus.BATTLE, "setup", setup,
                decided={"gangs": [setup.challenger, setup.challenged],
                         "scenario": setup.objective}):
            return  # (said by the save; the set-up and the summary are as they were)
        self.setup = setup
        munda_app(self).open_battle(self.number)
