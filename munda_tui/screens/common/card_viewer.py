"""The Sub-plot card viewer: one card with its deck, source and what the rules data
says about it (when it is revealed, what completes or discards it, its rewards).

    app.push_screen(CardViewerScreen("noble-whims:10"))

Left / right step through the cards (all 130, deck by deck); Escape closes. It shows
any card by id: a rules look-up, it knows nothing of anybody's hand.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from munda_tui.widgets.plain import Label, Static

from munda_tui.rules.subplots import decks as sp
from munda_tui.widgets.playing_card import PlayingCard
from munda_tui.screens.common.typed_app import rule_data_of
from munda_tui.widgets.footer import Footer


class CardViewerScreen(ModalScreen[None]):
    CSS_PATH = "card_viewer.tcss"
    HELP_TITLE = "Sub-plot card"
    HELP = "A rules look-up of one House Sub-plot card: its text verbatim, its deck and source."
    BINDINGS = [
        Binding("escape,q", "close", "Close", id="card_viewer.close"),
        Binding("left,p", "step(-1)", "Previous card", id="card_viewer.step--1"),
        Binding("right,n", "step(1)", "Next card", id="card_viewer.step-1"),
    ]

    def __init__(self, card_id: str) -> None:
        super().__init__()
        self.data = rule_data_of(self)  # the decks in force (the packs' too)
        self.card_ids = [c.id for c in sp.all_cards(self.data)]
        sp.card(card_id, self.data)  # SubplotError for an unknown id
        self.index = self.card_ids.index(card_id)

    @property
    def card(self) -> sp.SubplotCard:
        return sp.card(self.card_ids[self.index], self.data)

    def compose(self) -> ComposeResult:
        with Vertical(id="viewer"):
            yield Label(id="viewer-title", classes="viewer-title")
            with Horizontal(id="viewer-body"):
                with VerticalScroll(id="viewer-face"):
                    yield PlayingCard(None, self.card, id="viewer-card", rule_data=self.data)
                with VerticalScroll(id="viewer-meta"):
                    yield Static(id="viewer-details")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        c = self.card
        d = sp.deck(c.deck, self.data)
        kind = f"{d.house} House deck" if d.kind == "house" else f"suit deck: {d.suit}"
        self.query_one("#viewer-title", Label).update(
            f"{c.name}  ({c.rank_name} of the {d.name} deck, {self.index + 1}/{len(self.card_ids)})"
        )
        face = self.query_one("#viewer-card", PlayingCard)
        face.subplot = c
        face.refresh(layout=True)
        out = Text()
        rows = [
            ("Deck", f"{d.name} ({kind})"),
            ("Source", d.source),
            ("Card id", c.id),
            ("Revealed", f"{sp.REVEALS[c.reveal]}: {c.trigger}"),
            ("Completed", c.completes),
        ]
        if c.discards:
            rows.append(("Discarded", c.discards))
        rows.append(("Once revealed", sp.KEEPS[c.keep]))
        if c.choice:
            when = f" ({sp.REVEALS[c.choose_at]})" if c.choose_at else ""
            rows.append(("Asks", sp.CHOICES[c.choice].prompt + when))
        for label, value in rows:
            out.append(f"{label}: ", style="bold")
            out.append(f"{value}\n")
        out.append("Rewards:\n", style="bold")
        for r in c.rewards:
            out.append(f"  • {r.describe()}\n")
        self.query_one("#viewer-details", Static).update(out)

    def action_step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.card_ids)
        self.show()

    def action_close(self) -> None:
        self.dismiss(None)
