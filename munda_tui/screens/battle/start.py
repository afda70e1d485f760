"""The start of the game: each player, alone behind the privacy curtain, walks the
Sub-plots that act once the crews are known and before round 1.

The cards come from :func:`munda_tui.rules.subplots.decks.start_of_game_cards`: those revealed
"at the start of the game/battle", those whose secret choice is made then (Dead of
Night's number, Follow the Leader's enemy, Memory Fades to Myth's fighter), and Choose
Crew fighter choices not made in the pre-battle. "Randomly select" cards are picked by
the app from the deployed crew (or the player enters the fighter they picked at the
table); every choice is stored in ``SideSetup.subplot_choices`` and shown again only on
that player's own peek (secret ones) or on both sides (cards revealed now).

Both players are always walked, even with nothing to walk, so the curtain itself says
nothing about a hand. ``walk_start_of_game(app, flow.start_walk())`` runs in a worker of
the battle screen and returns the gangs whose players walked.
"""

from __future__ import annotations

from typing import Any, Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from munda_tui.widgets.plain import Label, Static

from munda_tui.rules.subplots import decks as sp
from munda_tui.rules.battle.flow import StartWalk
from munda_tui.screens.common.dialogs import DialogScreen
from munda_tui.screens.prebattle.subplot_draw import SubplotChoiceScreen
from munda_tui.widgets.curtain import PrivacyCurtain
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import key_for


class NothingAtTheStart(DialogScreen[None]):
    """Behind the curtain: this player has no Sub-plot to walk now."""

    BINDINGS = [Binding("enter,escape", "close", "Done", priority=True, id="battle_start.close")]

    def __init__(self, owner: str) -> None:
        super().__init__(opaque=True)  # behind the owner's curtain
        self.owner = owner

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Label(f"{self.owner}: the start of the battle", id="dialog-title")
            yield Static("None of your Sub-plots acts at the start of the battle.")
            yield Static(f"{key_for(self, 'battle_start.close')}: done (then pass the laptop on).",
                         classes="dialog-hint")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


async def walk_start_of_game(app: Any, walks: Sequence[StartWalk]) -> list[str]:
    """Walk each player in turn (the flow's :meth:`~munda_tui.rules.battle.flow.BattleFlow.start_walk`);
    the gangs whose players walked (Esc at a curtain leaves that player's walk for later).
    Each choice is stored in the player's ``SideSetup.subplot_choices``."""
    walked: list[str] = []
    for walk in walks:
        side, owner = walk.side, walk.owner
        ready = await app.push_screen_wait(
            PrivacyCurtain(owner, "to walk your Sub-plots at the start of the battle "
                                  "(before round 1)"))
        if not ready:
            continue
        walked.append(side.gang)
        if not walk.cards:
            await app.push_screen_wait(NothingAtTheStart(owner))
            continue
        for card in walk.cards:
            own = [(i, n) for i, n, _ in sp.choice_pool(card, walk.own)]
            them = [(i, n) for i, n, _ in sp.choice_pool(card, walk.enemy)]
            value = await app.push_screen_wait(SubplotChoiceScreen(
                card.id, owner, own, them, app.rng,
                moment="start_of_battle", curtained=True, pick_at_random=True))
            if value is not None:  # Esc: not revealed now (e.g. Folly of the Faithless
                side.subplot_choices[card.id] = value  # with no enemy Psyker)
    return walked


__all__ = ["NothingAtTheStart", "walk_start_of_game"]
