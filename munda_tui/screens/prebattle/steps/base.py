"""What every step panel of the pre-battle flow shares (see ``screens/prebattle/screen.py``).

Each panel shows a part of the ``BattleSetup`` and asks for the next decision; the rules
(``rules.prebattle``, ``rules.scenario``) decide every result. A panel is given what it
shows (the flow, the RNG) and tells its screen what to do by messages: save
(``Changed``), go on (``Next``), start the battle, say something (``Say``), open a dialog
(``Ask``). It never calls the screen or the app. ``finish()`` returns None when the flow
may go on, or a message (possibly empty) when the step stays; ``back()`` returns True
when the panel went back internally.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from munda_tui.widgets.keys import key_for, keys_text
from munda_tui.widgets.plain import OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.rules.prebattle import flow as pre
from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.core.dice import Roll
from munda_tui.rules.prebattle.scenario import ScenarioTable, TableEntry
from munda_tui.rules.prebattle.setup import BattleSetup
from munda_tui.screens.common.dice_prompt import DiceOutcome, DicePrompt

Severity = Literal["information", "warning", "error"]
T = TypeVar("T")

STEP_TITLES = {
    "gangs": "Gangs",
    "battlefield": "Battlefield",
    "scenario": "Scenario",
    "pitch_black": "Pitch Black",
    "crews": "Crews",
    "side_jobs": "Side Jobs",
    "subplots": "Sub-plots",
    "summary": "Summary",
}


class StepPanel(Vertical):
    """One step of the flow. It reads and changes the flow (``rules.prebattle.PreBattle``)
    and tells its screen what to do by messages: it never calls the screen."""

    class Changed(Message):
        """A decision was made: the screen saves the set-up (the flow resumes here)."""

    class Next(Message):
        """The step is done: the screen checks it (``finish``) and shows the next one."""

    class StartBattle(Message):
        """The summary's s: the screen starts the battle if nothing is missing."""

    class Say(Message):
        """A line for the player (a refusal, a reminder): the screen shows it."""

        def __init__(self, text: str, severity: Severity = "information") -> None:
            super().__init__()
            self.text = text
            self.severity: Severity = severity

    class Ask(Message):
        """A question in a dialog: the screen opens it; ``then`` gets its answer."""

        def __init__(self, dialog: Screen[Any], then: Callable[[Any], None]) -> None:
            super().__init__()
            self.dialog = dialog
            self.then = then

    def __init__(self, flow: pre.PreBattle, rng: random.Random, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.flow = flow
        self.rng = rng  # every roll the panel makes (the app's, seeded in tests)

    @property
    def setup(self) -> BattleSetup:
        """The set-up being decided (every step after the gangs has one)."""
        assert self.flow.setup is not None
        return self.flow.setup

    def finish(self) -> str | None:
        return None

    def back(self) -> bool:
        return False

    # --- messages up -----------------------------------------------------------------

    def changed(self) -> None:
        """Save after a decision (the flow resumes here after a restart)."""
        self.post_message(StepPanel.Changed())

    def next_step(self) -> None:
        self.post_message(StepPanel.Next())

    def say(self, text: str, severity: Severity = "information") -> None:
        # a key named {key:<binding id>} (the rules' texts do) is the key in force
        self.post_message(StepPanel.Say(keys_text(self, text), severity))

    def ask(self, dialog: Screen[Any], then: Callable[[Any], None]) -> None:
        self.post_message(StepPanel.Ask(dialog, then))

    async def answer(self, dialog: Screen[T]) -> T | None:
        """Ask (the screen opens the dialog, as for ``ask``) and wait for the answer, so
        questions that follow one another read in order. Call it from a worker
        (``@work`` on the action), as Textual's ``push_screen_wait``; None when the
        dialog was dismissed without one."""
        answered: asyncio.Future[T | None] = asyncio.get_running_loop().create_future()

        def then(value: T | None) -> None:
            if not answered.done():
                answered.set_result(value)

        self.ask(dialog, then)
        return await answered

    # --- questions the steps share -----------------------------------------------------

    def ask_reroll(self, label: str, rec: dict[str, Any] | None, then: Callable[[str], None]) -> None:
        """``R``: ask why a roll already made changes, then call ``then(reason)``."""
        from munda_tui.screens.common.reroll import reroll_reason

        was = f"{rec.get('result', '')} ({pre.how_text(rec, changes=False)})" if rec else "not rolled"

        def done(reason: str | None) -> None:
            if reason is not None:
                then(reason)

        self.ask(reroll_reason(label, was), done)

    def ask_table(self, table: ScenarioTable, title: str, who: str,
                  then: Callable[[TableEntry, Roll | None, str], None]) -> None:
        """Roll on a table (munda-tui rolls, real dice, or the result chosen outright);
        ``then(entry, roll, how)`` gets the entry (``roll`` None when it was chosen)."""

        def done(outcome: DiceOutcome | None) -> None:
            if outcome is None:
                return
            if outcome.how == "chosen":
                entry, r = table.entries[outcome.choice or 0], None
            else:
                assert outcome.roll is not None
                r, entry = outcome.roll, table.entry_for(outcome.roll.total)
            then(entry, r, outcome.how)

        self.ask(
            DicePrompt(
                table.dice,
                title=title,
                rng=self.rng,
                who=who,
                choices=[f"{e.roll:>4}  {e.name}" for e in table.entries],
                prefer_entry=self.flow.prefer_dice,
            ),
            done,
        )


class ListDetailStep(StepPanel):
    """A list of lines to decide (``LIST_ID``) beside the highlighted line's detail
    (``DETAIL_ID``); Enter on a line decides it (``action_decide``)."""

    HINT = ""
    ROW_ID = LIST_ID = SCROLL_ID = DETAIL_ID = ""

    def compose(self) -> ComposeResult:
        yield Static(keys_text(self, self.HINT), classes="hint")  # {key:<id>}: the key in force
        with Horizontal(id=self.ROW_ID):
            yield OptionList(id=self.LIST_ID)
            with VerticalScroll(id=self.SCROLL_ID):
                yield Static("", id=self.DETAIL_ID, markup=False)

    def on_mount(self) -> None:
        self._refresh()
        ol = self.query_one(f"#{self.LIST_ID}", OptionList)
        ol.highlighted = 0
        ol.focus()
        self._detail()

    @property
    def current(self) -> int:
        """The highlighted line."""
        return self.query_one(f"#{self.LIST_ID}", OptionList).highlighted or 0

    def _refresh(self) -> None:
        raise NotImplementedError

    def _detail(self) -> None:
        raise NotImplementedError

    def action_decide(self) -> None:
        raise NotImplementedError

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_decide()


class AgreeStep(StepPanel):
    """A rule used only if both players agree: "no" (the first line, the step is done) or
    "yes" (``agree``: roll, draw...); the status below (``_show``) says what is in force."""

    NO = YES = UNDECIDED = ""
    CHOICE_ID = STATUS_ID = ""

    def hint(self) -> str:
        raise NotImplementedError

    def agreed(self) -> bool:
        """The players agreed before (the "yes" line is highlighted on return)."""
        raise NotImplementedError

    def decided(self) -> bool:
        """The "yes" is carried out: the step may end on it."""
        raise NotImplementedError

    def agree(self) -> None:
        raise NotImplementedError

    def _none(self) -> None:
        raise NotImplementedError

    def _show(self) -> None:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        yield Static(self.hint(), classes="hint", markup=False)
        yield OptionList(Option(Text(self.NO)), Option(Text(self.YES)), id=self.CHOICE_ID)
        yield Static("", id=self.STATUS_ID, markup=False)

    def on_mount(self) -> None:
        ol = self.query_one(f"#{self.CHOICE_ID}", OptionList)
        ol.highlighted = 1 if self.agreed() else 0
        ol.focus()
        self._show()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index == 0:
            self._none()
            self.next_step()
            return
        self.agree()

    def finish(self) -> str | None:
        if self.query_one(f"#{self.CHOICE_ID}", OptionList).highlighted == 0:
            self._none()
            return None
        return None if self.decided() else self.UNDECIDED


def replace_roll(setup: BattleSetup, record: dict[str, Any], reason: str = "") -> None:
    """Keep one record per table and roller; a new decision keeps the old one and why."""
    setup.rolls = sc.replace_roll(setup.rolls, record, reason)
