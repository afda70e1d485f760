"""House Sub-plots, if both players agree: the draw."""

from __future__ import annotations

from typing import Any

from munda_tui.widgets.plain import Static

from munda_tui.rules.subplots import decks as sp
from munda_tui.rules.core.wording import plural
from munda_tui.screens.prebattle.steps.base import AgreeStep


class SubplotsStep(AgreeStep):
    NO = "No Sub-plots this battle"
    YES = "Both players agree: draw Sub-plots"
    UNDECIDED = "Draw the Sub-plots (Enter), or choose No Sub-plots."
    CHOICE_ID, STATUS_ID = "sp-choice", "sp-status"

    def hint(self) -> str:
        return "House Sub-plots (Core Rulebook 2023 p243): used only if both players agree."

    def agreed(self) -> bool:
        return self.setup.subplots or self._draw_under_way()

    def decided(self) -> bool:
        return self.setup.subplots

    def _draw_under_way(self) -> bool:
        """A draw begun and not finished (saved card by card): it goes on, never afresh."""
        if not self.setup.subplot_draw:
            return False
        if not sp.draw_begun(self.setup.subplot_draw):
            return True  # its roll-off made (saved): the draw goes on from it
        try:
            return not sp.resume_draw(self.setup.subplot_draw, self.flow.data)[0].done
        except sp.SubplotError:
            return False

    def _show(self, problem: str = "") -> None:
        record = self.setup.subplot_draw
        if problem:
            text = problem
        elif not self.setup.subplots and record and not sp.draw_begun(record):
            text = ("The roll-off for the Sub-plot draw is made (saved): drawing Sub-plots "
                    "goes on from it.")
        elif not self.setup.subplots and record:
            try:
                done = sp.resume_draw(record, self.flow.data)[0].done
            except sp.SubplotError as error:
                text = f"The saved Sub-plot draw cannot be read: {error}"
            else:
                text = ("Sub-plots: not used. The draw already made is kept: choosing to draw "
                        "Sub-plots restores it." if done else
                        "The Sub-plot draw is under way (saved): choosing to draw Sub-plots "
                        "goes on where it was.")
        elif not self.setup.subplots:
            text = "Sub-plots: not used."
        else:
            parts = []
            for side in self.setup.sides:
                jokers = f", {plural(side.jokers, 'Joker')} shown" if side.jokers else ""
                parts.append(f"{self.flow.gang_name(side.gang)}: "
                             f"{plural(len(side.hand), 'card')} in hand{jokers}")
            text = "Sub-plots drawn (hands stay hidden):\n" + "\n".join(parts)
        self.query_one("#sp-status", Static).update(text)

    def _none(self) -> None:
        self.setup.subplots = False
        for side in self.setup.sides:
            side.hand = []
            side.jokers = 0
            side.use_house_deck = False
            side.subplot_choices = {}

    def agree(self) -> None:
        if self.setup.subplots:  # already drawn: Enter goes on (Esc back, then choose again to redraw)
            self.next_step()
            return
        from munda_tui.screens.prebattle.subplot_draw import SubplotDrawScreen

        def apply(result: Any) -> None:
            for side in self.setup.sides:
                side.subplot_choices = {}
            result.apply(self.setup)
            self.setup.subplots = True
            self.changed()
            self._show()

        def done(result: Any) -> None:
            if result is None:
                self._show()  # left or stopped: a draw begun stays saved
                return
            apply(result)

        def saved(record: dict[str, Any]) -> None:  # each card as it is drawn
            self.setup.subplot_draw = record
            self.changed()

        record = self.setup.subplot_draw or None
        if record and sp.draw_begun(record):
            try:
                session, order = sp.resume_draw(record, self.flow.data)
            except sp.SubplotError as error:
                self._show(f"The saved Sub-plot draw cannot be read: {error}")
                return
            if session.done:  # drawn before: the same hands again, never a new draw
                apply(session.result(order.reason, order.rolloff))
                return
        if record and not sp.draw_begun(record):
            try:
                sp.saved_rolloff(record)
            except sp.SubplotError as error:
                self._show(str(error).capitalize())
                return
        a, b = (self.flow.gang(side.gang) for side in self.setup.sides)
        self.ask(
            SubplotDrawScreen(a, b, self.flow.campaign.settings, self.rng,
                              resume=record, on_change=saved),
            done,
        )
