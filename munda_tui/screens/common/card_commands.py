"""Command palette look-up of any House Sub-plot card by name or text.

The app registers it: ``COMMANDS = App.COMMANDS | {SubplotCardCommands}``. Choosing a
hit opens ``CardViewerScreen`` on that card.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.command import Hit, Hits, Provider

from munda_tui.rules.subplots import decks as sp


class SubplotCardCommands(Provider):
    """Sub-plot cards: match the name (fuzzy) or words of the text."""

    def _show_card(self, card_id: str) -> None:
        from munda_tui.screens.common.card_viewer import CardViewerScreen

        self.app.push_screen(CardViewerScreen(card_id))

    def _label(self, c: sp.SubplotCard) -> str:
        return f"Sub-plot: {c.name} ({sp.deck(c.deck, self._data()).name} {c.rank})"

    def _data(self) -> Any:
        """The decks in force (the packs' too)."""
        return getattr(self.app, "rule_data", None)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        words = query.lower().split()
        for c in sp.all_cards(self._data()):
            label = self._label(c)
            score = matcher.match(label)
            if score <= 0 and words and all(w in c.text.lower() for w in words):
                score = 0.2  # a match in the text ranks below name matches
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(label),
                    partial(self._show_card, c.id),
                    text=label,
                    help=c.text[:120] + ("…" if len(c.text) > 120 else ""),
                )
