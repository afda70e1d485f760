"""The dialog kit: every small modal question of munda-tui, one look (``dialogs.tcss``).

- :class:`PickOneScreen` -- pick one of a list: ↑/↓ and Enter, or the option's number
  (1-9); Escape cancels. Dismisses with the picked option's ``value`` or None.
- :class:`LineScreen` -- type one line: Enter submits, Escape cancels. An optional
  ``check(text)`` returns an error message (shown in the dialog, nothing lost) or
  None/"" to accept. Dismisses with the cleaned text or None.
- :class:`ConfirmScreen` -- yes/no; True only on an explicit yes.
- :class:`ErrorScreen` -- what went wrong; Enter or Escape closes it.
- :class:`ListDialog` -- the frame of every other dialog with a list: 1-9 takes line N
  of the list with the focus, as in PickOneScreen (what a number does there is the
  dialog's: pick it as Enter would, toggle it, or put the cursor on it).
  :data:`OWN_NUMBERS` lists the dialogs whose 1-9 mean something else, and why.

The dice prompt (``screens/common/dice_prompt.py``) is built on the same frame, and so
is every other modal question of the screens (a form, the hire, the Joker): the few modal
screens that are not dialogs are listed in :data:`NOT_DIALOGS`, the dialogs keeping rules
of their own beside ``dialogs.tcss`` in :data:`OWN_RULES`.

Every dialog is a :class:`DialogScreen`: the screen beneath stays visible, dimmed, unless
the dialog is made ``opaque`` (one opened behind a player's privacy curtain, over what
only that player may see: nothing beneath shows through). Use them from a callback::

    self.app.push_screen(PickOneScreen("Who won Priority?", [Pick("a", "Ana")]), done)

or, where one answer leads to the next question, from a worker::

    @work
    async def action_x(self) -> None:
        reason = await self.app.push_screen_wait(LineScreen("Why?"))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Generic, Optional, Sequence, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input
from munda_tui.widgets.keys import key_for, keys_for, keys_text
from munda_tui.widgets.plain import Button
from munda_tui.widgets.plain import Label, OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.widgets.footer import Footer
from munda_tui.textual_private import binding_on, relabel

if TYPE_CHECKING:
    from textual.app import CSSPathType
    from textual.screen import Screen
    from textual.widget import Widget

T = TypeVar("T")
R = TypeVar("R")

#: absolute, so a dialog defined in another package finds the one stylesheet
DIALOG_CSS = str(Path(__file__).with_name("dialogs.tcss"))


#: The modal screens that are not dialogs, and why (tests/screens/test_dialog_kit.py fails
#: on any other ModalScreen that is not a DialogScreen): full-screen viewers and covers.
NOT_DIALOGS: dict[str, str] = {
    "munda_tui.screens.common.help.HelpScreen": "the keys and help, a full-screen viewer",
    "munda_tui.screens.common.card_viewer.CardViewerScreen": "a card, a full-screen viewer",
    "munda_tui.screens.campaign.campaign.ReportScreen": "a battle's report, a viewer",
    "munda_tui.widgets.curtain.PrivacyCurtain": "covers the whole screen, asks nothing",
}

#: Dialogs on the kit that keep rules of their own beside dialogs.tcss (their own box and
#: fields' layout; the screen's frame, dimming and opacity are the kit's).
OWN_RULES: dict[str, str] = {
    "munda_tui.screens.campaign.hire.HireScreen": "DEFAULT_CSS: the hire form's rows",
    "munda_tui.screens.campaign.catalogue.EntryScreen": "DEFAULT_CSS: the entry's rows",
    "munda_tui.screens.campaign.fighter_form.FormScreen": "fighter_form.tcss: the form's fields",
    "munda_tui.screens.campaign.roster.TerritoriesScreen": "roster.tcss: its box and list",
    "munda_tui.screens.home.new_campaign.NewCampaignScreen": "new_campaign.tcss: its form",
    "munda_tui.screens.prebattle.subplot_draw.JokerScreen": "subplot_draw.tcss: the card",
    "munda_tui.screens.prebattle.subplot_draw.DrawnHandScreen": "subplot_draw.tcss: the cards",
    "munda_tui.screens.prebattle.subplot_draw.SubplotChoiceScreen":
        "subplot_draw.tcss: the card beside the question",
    "munda_tui.screens.battle.attack.AttackScreen": "battle/modals.tcss: its lists' height",
    "munda_tui.screens.battle.end.EndScreen": "battle/modals.tcss: the fled line in bold",
    "munda_tui.screens.battle.hand.HandScreen": "battle/modals.tcss: the whole height (a card)",
    "munda_tui.screens.battle.log.LogScreen": "battle/modals.tcss: the whole height (the log)",
    "munda_tui.screens.battle.phone.LinkScreen":
        "battle/modals.tcss: no border, as wide as the QR code (80x24)",
    "munda_tui.screens.battle.reinforcements.ReinforcementScreen":
        "battle/modals.tcss: the sides' lines in bold",
    "munda_tui.screens.battle.reveal.RevealScreen":
        "battle/modals.tcss: the whole height (a card and its rewards)",
    "munda_tui.screens.campaign.league.ConflictScreen":
        "league.tcss: 90% of the screen (both sides' changes)",
    "munda_tui.screens.campaign.league.LeagueTextScreen":
        "league.tcss: as tall as its lines, scrolled (a league's status or history)",
}


#: Dialogs with a list whose 1-9 mean something else, and why (every other dialog with a
#: list is a ListDialog or a PickOneScreen: tests/screens/test_dialog_lines.py).
OWN_NUMBERS: dict[str, str] = {
    "munda_tui.screens.battle.attack.AttackScreen":
        "1-9 and 0 toggle the weapon traits (logged in one key each); ↑/↓ pick the attacker",
    "munda_tui.screens.battle.reinforcements.ReinforcementScreen":
        "1-6 are a real D6's face; in its card list (c) 1-9 take the card of that number",
}


class DialogScreen(ModalScreen[R]):
    """The frame every dialog shares: a bordered box (``#dialog``) in the middle of the
    dimmed screen, a bold title (``#dialog-title``), muted detail (``.dialog-detail``),
    an error line (``.dialog-error``) and a hint (``.dialog-hint``)."""

    CSS_PATH: ClassVar[CSSPathType | None] = DIALOG_CSS

    def __init__(self, *, opaque: bool = False) -> None:
        # opaque: nothing beneath shows through (a dialog over a player's own cards,
        # behind the privacy curtain); else the screen beneath stays visible, dimmed
        super().__init__(classes="opaque" if opaque else None)

    def relabel(self, key: str, description: str) -> None:
        """Give this dialog's binding on ``key`` another footer label (e.g. Escape says
        "Back" in the pre-battle flow, "Keep the roll" when asked why a roll changes).
        The binding keeps its id, so a remapped key still applies."""
        relabel(self, lambda b: b.key == key, description)


def line_bindings(prefix: str) -> list[BindingType]:
    """1-9: line N of the list with the focus (``action_line``), ids ``<prefix>.line-N``."""
    return [Binding(str(i), f"line({i})", f"Line {i}", show=False, id=f"{prefix}.line-{i}")
            for i in range(1, 10)]


def focused_lines(screen: "Screen[Any]") -> "Widget | None":
    """The list with the focus on ``screen`` (an OptionList, a SelectionList, a
    DataTable), or None."""
    from ...widgets.plain import DataTable, OptionList, SelectionList

    focused = screen.focused
    return focused if isinstance(focused, (OptionList, SelectionList, DataTable)) else None


def cursor_to_line(lines: "Widget", n: int) -> bool:
    """Put the cursor of ``lines`` on its line ``n`` (from 1); False when it has no such
    line (or the line cannot be picked: a disabled option)."""
    from ...widgets.plain import DataTable, OptionList, SelectionList

    index = n - 1
    if isinstance(lines, DataTable):
        if not 0 <= index < lines.row_count:
            return False
        lines.move_cursor(row=index)
        return True
    if isinstance(lines, (OptionList, SelectionList)):
        if not 0 <= index < lines.option_count or lines.get_option_at_index(index).disabled:
            return False
        lines.highlighted = index
        return lines.highlighted == index
    return False


def enter_on_line(lines: "Widget") -> None:
    """What Enter does on the line under the cursor (a SelectionList: toggles it)."""
    from ...widgets.plain import DataTable

    if isinstance(lines, DataTable):
        lines.action_select_cursor()
    else:
        lines.action_select()  # type: ignore[attr-defined]


class ListDialog(DialogScreen[R]):
    """A dialog with a list: 1-9 takes line N of the list with the focus (the README's
    promise for every dialog: "a list: ↑/↓ and enter, or the line's number"). By default
    the number picks the line as Enter on it would (a SelectionList's: toggles it);
    :meth:`line_taken` says otherwise for a dialog whose Enter is not about one line
    (it syncs every choice made, or reveals a card)."""

    BINDINGS = line_bindings("dialog")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "line":  # in force only on a list (a field takes its digits)
            return focused_lines(self) is not None
        return True

    def action_line(self, n: int) -> None:
        lines = focused_lines(self)
        if lines is None:
            raise SkipAction()
        if cursor_to_line(lines, n):
            self.line_taken(lines)

    def line_taken(self, lines: "Widget") -> None:
        """The cursor is on the line whose number was typed: Enter on it, by default."""
        enter_on_line(lines)


class ErrorScreen(DialogScreen[None]):
    """Shows what went wrong; Enter or Escape closes it. Nothing is lost."""

    BINDINGS = [
        Binding("escape,enter", "dismiss_dialog", "Close", id="error.dismiss_dialog"),
    ]

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.title_text = title
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="error"):
            yield Label(self.title_text, id="dialog-title")
            yield Static(self.message, id="dialog-message", markup=False)
            yield Static(f"{keys_for(self, 'error.dismiss_dialog')} to close", classes="dialog-hint")
        yield Footer()  # its own keys, not those of the screen beneath (they do nothing here)

    def action_dismiss_dialog(self) -> None:
        self.dismiss(None)


class ConfirmScreen(DialogScreen[bool]):
    """Asks a yes/no question; dismisses with True only on an explicit yes."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes", id="confirm.answer-True"),
        Binding("n,escape", "answer(False)", "No", id="confirm.answer-False"),
    ]

    def __init__(self, question: str, detail: str = "", yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(self.question, id="dialog-title")
            if self.detail:
                yield Static(self.detail, id="dialog-message", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button(f"{self.yes} ({key_for(self, 'confirm.answer-True')})", id="yes",
                             variant="error")
                yield Button(f"{self.no} ({key_for(self, 'confirm.answer-False')})", id="no",
                             variant="primary")
        yield Footer()  # its own keys, not those of the screen beneath (they do nothing here)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


@dataclass(frozen=True)
class Pick(Generic[T]):
    """One line of a :class:`PickOneScreen`: what picking it returns (``value``), what
    it says (``label``, shown as plain text) and whether it can be picked now
    (``enabled``; when not, the line is greyed out and says ``reason``)."""

    value: T
    label: str
    enabled: bool = True
    reason: str = ""


def picks(labels: Sequence[str]) -> list[Pick[int]]:
    """Lines whose value is their index (0, 1, ...)."""
    return [Pick(i, label) for i, label in enumerate(labels)]


class PickOneScreen(DialogScreen[Optional[T]]):
    """Pick one line: ↑/↓ and Enter, or its number (1-9); Escape cancels (None)."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel", id="pick_one.cancel"),
        *[Binding(str(i), f"pick({i})", f"Option {i}", show=False, id=f"pick_one.pick-{i}")
          for i in range(1, 10)],
    ]

    def __init__(self, title: str, options: Sequence[Pick[T]], detail: str = "",
                 cancel_label: str = "", opaque: bool = False) -> None:
        super().__init__(opaque=opaque)
        self.title_text = title
        self.options = list(options)
        self.detail = detail
        if cancel_label:
            self.relabel("escape", cancel_label)

    def _prompt(self, n: int, option: Pick[T]) -> Text:
        number = f"{key_for(self, f'pick_one.pick-{n}')}  " if n < 10 else "   "
        why = f"  — {option.reason}" if not option.enabled and option.reason else ""
        return Text(number + option.label + why)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="pick-one"):
            yield Label(self.title_text, id="dialog-title")
            if self.detail:
                yield Static(self.detail, classes="dialog-detail", markup=False)
            yield OptionList(
                *[Option(self._prompt(n, o), id=f"pick-{n - 1}", disabled=not o.enabled)
                  for n, o in enumerate(self.options, start=1)],
                id="dialog-options",
            )
            yield Static("", classes="dialog-error", markup=False)
            yield Static(f"↑/↓ and Enter, or its number, to pick · "
                         f"{key_for(self, 'pick_one.cancel')}: {self._cancel_word()}",
                         classes="dialog-hint")
        yield Footer()

    def _cancel_word(self) -> str:
        binding = binding_on(self, "escape")
        return binding.description if binding else "Cancel"

    def on_mount(self) -> None:
        option_list = self.query_one(OptionList)
        option_list.focus()
        for i, option in enumerate(self.options):
            if option.enabled:
                option_list.highlighted = i
                break

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._pick(int((event.option.id or "pick-0").split("-", 1)[1]))

    def _pick(self, index: int) -> None:
        option = self.options[index]
        if not option.enabled:
            self.query_one(".dialog-error", Static).update(
                f"{option.label}: {option.reason or 'not now'}")
            return
        self.dismiss(option.value)

    def action_pick(self, n: int) -> None:
        if 1 <= n <= len(self.options):
            self._pick(n - 1)

    def action_cancel(self) -> None:
        self.dismiss(None)


def strip(text: str) -> str:
    """The text without leading or trailing spaces."""
    return text.strip()


def squash(text: str) -> str:
    """The text with every run of spaces made one (a name, a reason)."""
    return " ".join(text.split())


class LineScreen(DialogScreen[Optional[str]]):
    """Type one line; Enter submits, Escape cancels (None).

    ``clean`` makes the text kept (:func:`strip` by default, :func:`squash` for names);
    an empty text is refused with ``empty_error`` unless ``allow_empty``; ``check`` gets
    the cleaned text and returns an error message (kept in the dialog, the text stays
    to be corrected) or None/"" to accept it.
    """

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="line.cancel")]

    def __init__(
        self,
        title: str,
        *,
        detail: str = "",
        value: str = "",
        placeholder: str = "",
        check: Callable[[str], str | None] | None = None,
        allow_empty: bool = False,
        empty_error: str = "Type it, then Enter ({key:line.cancel}: cancel).",
        clean: Callable[[str], str] = strip,
        hint: str = "Enter to confirm, {key:line.cancel} to cancel",
        cancel_label: str = "",
        classes: str = "",
        opaque: bool = False,
    ) -> None:
        super().__init__(opaque=opaque)
        self.title_text = title
        self.detail = detail
        self.value = value
        self.placeholder = placeholder
        self.check = check
        self.allow_empty = allow_empty
        self.empty_error = empty_error
        self.clean = clean
        self.hint = hint
        self.frame_classes = classes
        if cancel_label:
            self.relabel("escape", cancel_label)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes=" ".join(("line", self.frame_classes)).strip()):
            yield Label(self.title_text, id="dialog-title")
            if self.detail:
                yield Static(self.detail, classes="dialog-detail", markup=False)
            yield Input(self.value, placeholder=self.placeholder, id="dialog-input")
            yield Static("", classes="dialog-error", markup=False)
            if self.hint:  # ({key:<binding id>}: the key in force)
                yield Static(keys_text(self, self.hint), classes="dialog-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @property
    def error(self) -> str:
        """The error shown now ("" when none)."""
        return str(self.query_one(".dialog-error", Static).render())

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = self.clean(event.value)
        problem: str | None = ""
        if not text and not self.allow_empty:
            problem = keys_text(self, self.empty_error)
        elif self.check is not None:
            problem = self.check(text)
        if problem:
            self.query_one(".dialog-error", Static).update(problem)
            return
        self.dismiss(text)

    def action_cancel(self) -> None:
        self.dismiss(None)
