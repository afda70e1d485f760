"""The pre-battle step panels, one module per step of the flow (``base`` has what they
share: the messages a panel posts to its screen, the dice and re-roll questions)."""

from __future__ import annotations

from munda_tui.screens.prebattle.steps.base import STEP_TITLES, StepPanel
from munda_tui.screens.prebattle.steps.battlefield import BattlefieldStep
from munda_tui.screens.prebattle.steps.crews import CrewStep
from munda_tui.screens.prebattle.steps.gangs import GangsStep
from munda_tui.screens.prebattle.steps.pitch_black import PitchBlackStep
from munda_tui.screens.prebattle.steps.scenario import ScenarioStep
from munda_tui.screens.prebattle.steps.side_jobs import SideJobsStep
from munda_tui.screens.prebattle.steps.subplots import SubplotsStep
from munda_tui.screens.prebattle.steps.summary import SummaryStep

#: step name (``rules.scenario.STEPS``) -> its panel
STEP_CLASSES: dict[str, type[StepPanel]] = {
    "gangs": GangsStep,
    "battlefield": BattlefieldStep,
    "scenario": ScenarioStep,
    "pitch_black": PitchBlackStep,
    "crews": CrewStep,
    "side_jobs": SideJobsStep,
    "subplots": SubplotsStep,
    "summary": SummaryStep,
}

__all__ = ["STEP_CLASSES", "STEP_TITLES", "StepPanel"]
