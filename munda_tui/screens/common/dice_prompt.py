"""A dice prompt: "roll for me", "I rolled real dice" or "choose the result".

Usage (from any screen; ``self.app.rng`` keeps tests deterministic)::

    from munda_tui.screens.common.dice_prompt import DicePrompt, DiceOutcome

    def done(outcome: DiceOutcome | None) -> None:
        if outcome is None:            # Escape: nothing decided
            return
        if outcome.how == "chosen":    # picked outright (e.g. by the Arbitrator)
            entry = entries[outcome.choice]
        else:                          # "app" or "dice": outcome.roll is a dice.Roll
            total = outcome.roll.total

    self.app.push_screen(
        DicePrompt("D6", title="Deployment", who="Ana rolls",
                   rng=self.app.rng, choices=["1 Sniping Range", ...],
                   prefer_entry=campaign.settings.dice_by_hand),
        done,
    )

Keys (named in its texts as in force: ``widgets.keys.key_for``): ``r`` roll for me (Enter never rolls, not even on the "roll" line: a
second tap of Enter must not roll or re-roll), ``e`` enter the faces of real dice (typed as
``3 5``, or ``35`` for a D66), ``c`` choose the result outright (only when
``choices`` are given), Escape goes back / cancels. Each line of the menu is taken by
its number too (``1`` rolls for me: a digit is deliberate, unlike Enter), as every dialog's. The prompt never applies
a result itself: the caller hands the outcome to the rules.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input
from munda_tui.widgets.keys import key_for
from munda_tui.widgets.plain import Label, OptionList, Static
from rich.text import Text
from textual.widgets.option_list import Option

from munda_tui.rules.core.dice import DiceError, Roll, parse, parse_faces, roll, roll_faces
from munda_tui.screens.common.dialogs import ListDialog
from munda_tui.widgets.footer import Footer

if TYPE_CHECKING:
    from textual.widget import Widget


@dataclass(frozen=True)
class DiceOutcome:
    """What the player decided: ``how`` is "app" (rolled by munda-tui),
    "dice" (real dice, ``roll.entered`` is True) or "chosen" (``choice`` is
    the index into the prompt's ``choices``; ``roll`` is None)."""

    how: str
    roll: Roll | None = None
    choice: int | None = None


class DicePrompt(ListDialog[Optional[DiceOutcome]]):
    """Ask how a roll is made; dismisses with a :class:`DiceOutcome` or None.
    Drawn in the dialog kit's frame (``dialogs.tcss``)."""

    BINDINGS = [
        Binding("r", "roll", "Roll for me", id="dice.roll"),
        Binding("e", "enter", "Real dice", id="dice.enter"),
        Binding("c", "choose", "Choose result", id="dice.choose"),
        Binding("escape", "back", "Back", id="dice.back"),
    ]

    def __init__(
        self,
        expression: str,
        *,
        title: str,
        rng: random.Random,
        who: str = "",
        detail: str = "",
        choices: Sequence[str] = (),
        prefer_entry: bool = False,
    ) -> None:
        super().__init__()
        self.expr = parse(expression)
        self.title_text = title
        self.rng = rng
        self.who = who
        self.detail = detail
        self.choices = list(choices)
        self.prefer_entry = prefer_entry
        self._mode = "menu"

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dice"):
            yield Label(f"{self.title_text}: roll {self.expr.source}", id="dialog-title")
            if self.who or self.detail:
                yield Static(
                    " — ".join(t for t in (self.who, self.detail) if t),
                    id="dice-detail",
                    classes="dialog-detail",
                    markup=False,
                )
            roll, enter, choose = (key_for(self, f"dice.{a}") for a in ("roll", "enter", "choose"))
            menu = [
                Option(Text(f"{roll}  Roll {self.expr.source} for me"), id="roll"),
                Option(Text(f"{enter}  Enter the {self._dice_words()} I rolled"), id="enter"),
            ]
            if self.choices:
                menu.append(Option(Text(f"{choose}  Choose the result outright"), id="choose"))
            yield OptionList(*menu, id="dice-menu")
            yield Input(
                placeholder=self._placeholder(), id="dice-faces", classes="hidden"
            )
            yield OptionList(
                *[Option(Text(c), id=f"choice-{i}") for i, c in enumerate(self.choices)],
                id="dice-choices",
                classes="hidden",
            )
            yield Static("", id="dice-error", classes="dialog-error", markup=False)
        yield Footer()

    def _dice_words(self) -> str:
        n = len(self.expr.dice)
        return "die" if n == 1 else f"{n} dice"

    def _placeholder(self) -> str:
        example = " ".join("3" for _ in self.expr.dice)
        d66 = " (D66: tens then units)" if "66" in self.expr.source else ""
        return f"faces of {self.expr.source}, e.g. {example}{d66}; Enter to confirm"

    def on_mount(self) -> None:
        if self.prefer_entry:
            self.action_enter()
        else:
            self.query_one("#dice-menu", OptionList).focus()

    def _show(self, mode: str) -> None:
        self._mode = mode
        self.query_one("#dice-menu").set_class(mode != "menu", "hidden")
        self.query_one("#dice-faces").set_class(mode != "enter", "hidden")
        self.query_one("#dice-choices").set_class(mode != "choose", "hidden")
        self.query_one("#dice-error", Static).update("")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("roll", "enter", "choose") and self._mode != "menu":
            return False
        if action == "choose" and not self.choices:
            return False
        return super().check_action(action, parameters)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or ""
        if option_id == "roll":  # Enter on the line: a tap must not roll
            self.query_one("#dice-error", Static).update(
                f"Enter does not roll: press {key_for(self, 'dice.roll')} to roll for me "
                f"(or {key_for(self, 'dice.enter')} for real dice).")
        elif option_id == "enter":
            self.action_enter()
        elif option_id == "choose":
            self.action_choose()
        elif option_id.startswith("choice-"):
            self.dismiss(DiceOutcome("chosen", None, int(option_id.split("-", 1)[1])))

    def line_taken(self, lines: "Widget") -> None:
        """A line's number typed takes that line: ``1`` on the menu rolls for me (a
        digit is a deliberate key, not a second tap of Enter), ``2`` asks the faces,
        ``3`` the result; on the results list the number picks the result."""
        highlighted = getattr(lines, "highlighted_option", None)
        if self._mode == "menu" and highlighted is not None and highlighted.id == "roll":
            self.action_roll()
            return
        super().line_taken(lines)

    def action_roll(self) -> None:
        self.dismiss(DiceOutcome("app", roll(self.expr, self.rng)))

    def action_enter(self) -> None:
        self._show("enter")
        field = self.query_one("#dice-faces", Input)
        field.value = ""
        field.focus()

    def action_choose(self) -> None:
        if not self.choices:
            return
        self._show("choose")
        self.query_one("#dice-choices", OptionList).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            faces = parse_faces(self.expr, event.value)
            result = roll_faces(self.expr, faces)
        except DiceError as error:
            self.query_one("#dice-error", Static).update(str(error))
            return
        self.dismiss(DiceOutcome("dice", result))

    def action_back(self) -> None:
        if self._mode != "menu":
            self._show("menu")
            self.query_one("#dice-menu", OptionList).focus()
        else:
            self.dismiss(None)
