"""A player's peek at their own Sub-plot hand, behind the privacy curtain.

Open it with :func:`peek` from a worker (the curtain first, then the hand). Each card shows
where it stands against the log (met and why, still watched, to reveal by
hand, discarded, revealed); ``r`` reveals the card under the cursor, Escape
hides the hand again. Nothing of the hand is left on screen afterwards.
"""

from __future__ import annotations

from typing import Any, Sequence

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from munda_tui.widgets.plain import Label, OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.rules.subplots import decks as subplots
from munda_tui.rules.battle.flow import Peek
from munda_tui.rules.battle.watch import DISCARDED, MANUAL, MET, MISSED, REVEALED, WATCHING, Match
from munda_tui.screens.common.typed_app import rule_data_of
from munda_tui.screens.common.asking import Asking
from munda_tui.screens.common.dialogs import ConfirmScreen, DIALOG_CSS, ListDialog
from munda_tui.widgets.curtain import PrivacyCurtain
from munda_tui.widgets.playing_card import PlayingCard
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import keys_text

STATUS_TEXT = {
    MET: "MET - you may reveal it",
    WATCHING: "watched by the tracker, not met yet",
    MANUAL: "depends on the table: reveal it ({key:hand.reveal}) when it happens",
    DISCARDED: "discarded",
    MISSED: "not met",
    REVEALED: "revealed",
}


def status_line(m: Match) -> str:
    text = STATUS_TEXT.get(m.status, m.status)
    if m.status == MET and m.reward_at == "end":
        text += " (reward at the end of the battle)"
    return text


class HandScreen(Asking, ListDialog["str | None"]):
    """Dismisses with the card id to reveal, or None."""

    CSS_PATH = [DIALOG_CSS, "modals.tcss"]  # the kit's frame; its own sizes
    BINDINGS = [
        Binding("r", "reveal", "Reveal card", id="hand.reveal"),
        Binding("escape,h", "hide", "Hide hand", id="hand.hide"),
    ]

    def __init__(self, gang_name: str, player: str, matches: Sequence[Match],
                 shown: set[str] | frozenset[str] = frozenset(),
                 notes: dict[str, str] | None = None,
                 passed: dict[str, str] | None = None) -> None:
        super().__init__(opaque=True)  # only the owner looks: nothing beneath shows
        self.gang_name = gang_name
        self.player = player
        self.matches = list(matches)
        self.shown = shown  # cards already shown to both players in the pre-battle
        # card id -> lines for the owner only: a secret choice, a reminder due now
        self.notes = notes or {}
        # card id -> its moment, passed without the card revealed (Choose Crew, ...)
        self.passed = passed or {}

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="hand"):
            who = f" ({self.player})" if self.player else ""
            yield Label(f"Hand of {self.gang_name}{who}: only you are looking",
                        id="dialog-title")
            if not self.matches:
                yield Static("No Sub-plots in this hand.", classes="hint")
            yield OptionList(
                *[Option(f"{subplots.card(m.card, rule_data_of(self)).name} - {self._status(m)}",
                         id=str(i)) for i, m in enumerate(self.matches)],
                id="hand-cards",
            )
            yield PlayingCard(None, subplots.card(self.matches[0].card, rule_data_of(self))
                              if self.matches else None, rule_data=rule_data_of(self),
                              id="hand-card")
            yield Static("", id="hand-why", markup=False)
        yield Footer()

    def _status(self, m: Match) -> str:
        if m.card in self.shown and m.status == MANUAL:
            # shown at Choose Crew or in the start-of-the-battle walk: both before round 1
            return keys_text(self, "shown to both before round 1 ({key:hand.reveal} walks its reward "
                             "when earned)")
        if m.card in self.passed and m.status == MANUAL:
            return f"its moment was at {self.passed[m.card]}: that time has passed"
        text = keys_text(self, STATUS_TEXT.get(m.status, m.status))
        if "Reminder" in self.notes.get(m.card, ""):
            text += " - its time is now"
        return text

    def on_mount(self) -> None:
        self.query_one("#hand-cards", OptionList).focus()
        self._show(0)

    def _show(self, index: int | None) -> None:
        if index is None or not self.matches:
            return
        m = self.matches[index]
        card = self.query_one("#hand-card", PlayingCard)
        card.subplot = subplots.card(m.card, rule_data_of(self))
        card.refresh(layout=True)
        why = f"Why: {m.why}" if m.why else ""
        status = (self._status(m) if m.card in self.shown or m.card in self.passed
                  else keys_text(self, status_line(m)))
        self.query_one("#hand-why", Static).update(
            "\n".join(t for t in (status, why, self.notes.get(m.card, "")) if t))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show(event.option_index)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_reveal()

    @work(group="dialog")
    async def action_reveal(self) -> None:
        index = self.query_one("#hand-cards", OptionList).highlighted
        if index is None or not self.matches:
            return
        m = self.matches[index]
        if m.status in (MET, MANUAL):
            self.dismiss(m.card)
            return
        if m.status in (WATCHING, MISSED):
            # the players know better than the log (an event not logged, a trait skipped)
            if await self.ask(ConfirmScreen(
                    "The log does not show this card met. Reveal it anyway?",
                    keys_text(self, "Log the missing events first if you can ({key:battle.undo} "
                              "undoes, keys add them); revealing now walks its reward as the "
                              "card says."),
                    yes="Reveal", no="Keep hidden")):
                self.dismiss(m.card)
            return
        self.notify(f"Not now: {keys_text(self, STATUS_TEXT.get(m.status, m.status))}.", severity="warning")

    def line_taken(self, lines: Any) -> None:
        """A card's number shows it (r reveals it, as Enter does)."""

    def action_hide(self) -> None:
        self.dismiss(None)


async def peek(app: Any, look: Peek) -> tuple[bool, str | None]:
    """The owner's curtain, then their hand (from a worker): whether they looked (False:
    the curtain was left with Esc, nobody looked) and the card they reveal, if any. What
    only the owner reads (their choices, the reminders due, the moments passed) is the
    look's."""
    ready = await app.push_screen_wait(PrivacyCurtain(  # (the flow's reason names keys by id)
        look.player or look.gang_name,
        keys_text(app, look.reason) or f"to look at the Sub-plots of {look.gang_name}"))
    if not ready:
        return False, None
    card = await app.push_screen_wait(HandScreen(
        look.gang_name, look.player, look.matches, look.shown, look.notes, look.passed))
    return True, card
