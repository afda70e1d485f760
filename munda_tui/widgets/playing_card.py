"""A playing card on screen: face up (rank, suit glyph, the Sub-plot's name, deck and
text), face down (a card back), or a Joker.

    PlayingCard(Card("7", "spades"), subplot_card)      # face up
    PlayingCard(Card("7", "spades"), subplot_card, face_up=False)
    PlayingCard(Card("Joker", "", 1))                    # a Joker face
    PlayingCard.back()                                   # a small anonymous back

``face_up`` is reactive: ``card.face_up = False`` hides it. A face-down card renders
nothing of the card it holds.
"""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..rules.core.cards import Card
from ..rules.core.data import RuleData
from ..rules.subplots.decks import Deck, SubplotCard, SubplotError, deck

RED_SUITS = ("hearts", "diamonds")
BACK_PATTERN = "▚▞"


class PlayingCard(Widget):
    """One card. Styles: ``PlayingCard`` (face), ``.-back``, ``.-joker``, ``.-small``."""

    DEFAULT_CSS = """
    PlayingCard {
        width: 1fr;
        height: auto;
        min-height: 7;
        border: round $foreground 60%;
        padding: 0 1;
        margin: 0 1 1 0;
    }
    PlayingCard.-back {
        border: round $primary;
        color: $primary;
    }
    PlayingCard.-joker {
        border: double $warning;
    }
    PlayingCard.-small {
        width: 14;
        height: 7;
        min-height: 7;
    }
    """

    face_up: reactive[bool] = reactive(True, layout=True)

    def __init__(
        self,
        card: Card | None = None,
        subplot: SubplotCard | None = None,
        *,
        face_up: bool = True,
        small: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
        rule_data: RuleData | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.rule_data = rule_data  # the decks in force (a pack's deck: its name, its suit)
        self._card = card
        self._subplot = subplot
        self.set_reactive(PlayingCard.face_up, face_up and (card is not None or subplot is not None))
        self.set_class(small, "-small")
        self._update_classes()

    @property
    def card(self) -> Card | None:
        return self._card

    @card.setter
    def card(self, value: Card | None) -> None:
        self._card = value
        self._changed()

    @property
    def subplot(self) -> SubplotCard | None:
        return self._subplot

    @subplot.setter
    def subplot(self, value: SubplotCard | None) -> None:
        """Setting the card (or Sub-plot) re-renders the widget."""
        self._subplot = value
        self._changed()

    def _changed(self) -> None:
        self._update_classes()
        if self.is_mounted:
            self.refresh(layout=True)

    @classmethod
    def back(cls, **kwargs: object) -> "PlayingCard":
        """An anonymous small card back (e.g. a hand shown to both players)."""
        return cls(None, None, face_up=False, small=True, **kwargs)  # type: ignore[arg-type]

    def watch_face_up(self, _value: bool) -> None:
        self._update_classes()

    @property
    def showing(self) -> bool:
        return self.face_up and (self.card is not None or self.subplot is not None)

    def _update_classes(self) -> None:
        self.set_class(not self.showing, "-back")
        self.set_class(self.showing and self.card is not None and self.card.is_joker, "-joker")

    def flip(self) -> None:
        self.face_up = not self.face_up

    # --- rendering ---------------------------------------------------------------

    def _deck_of(self, subplot: SubplotCard) -> "Deck":
        """The card's deck, in the decks in force (one no longer known: its id, no suit)."""
        try:
            return deck(subplot.deck, self.rule_data)
        except SubplotError:
            return Deck(id=subplot.deck, name=subplot.deck, kind="house", house="", suit="",
                        source="", intro="", cards=())

    def _corner(self) -> Text:
        card = self.card
        if card is None:  # a Sub-plot looked up without its playing card
            assert self.subplot is not None
            suit = self._deck_of(self.subplot).suit
            card = Card(self.subplot.rank, suit)
            if not suit:  # a House deck "does not use suits": any card of the rank is it
                return Text(f"{self.subplot.rank} (any suit)", style="bold")
        style = "bold red" if card.suit in RED_SUITS else "bold"
        if card.is_joker:
            return Text("JOKER", style="bold")
        return Text(f"{card.rank}{card.glyph}", style=style)

    def render(self) -> Text:
        if not self.showing:
            return self._render_back()
        card = self.card
        out = Text()
        out.append_text(self._corner())
        if card is not None and card.is_joker:
            out.append("\n\n")
            out.append("★ JOKER ★", style="bold")
            if not self.has_class("-small"):
                out.append("\n\nShown to both players:\nreplaced by two new cards.", style="italic")
            return out
        if self.subplot is not None:
            info = self._deck_of(self.subplot)
            out.append("  ")
            out.append(info.name, style="dim")
            out.append("\n")
            out.append(self.subplot.name, style="bold")
            out.append("\n")
            out.append(self.subplot.text)
        return out

    def _render_back(self) -> Text:
        width = max(4, self.content_size.width or 10)
        height = max(3, self.content_size.height or 5)
        lines = []
        for row in range(height):
            pattern = (BACK_PATTERN * width)[row % 2 : row % 2 + width]
            lines.append(pattern)
        mid = height // 2
        label = " ? "
        if width > len(label):
            start = (width - len(label)) // 2
            lines[mid] = lines[mid][:start] + label + lines[mid][start + len(label) :]
        return Text("\n".join(lines))
