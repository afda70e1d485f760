"""The start of the game: each player, alone behind the privacy curtain, walks the
Sub-plots that act once the crews are known and before round 1.

The cards come from :func:`munda_tui.rules.subplots.start_of_game_cards`: those revealed
"at the start of the game/battle", those whose secret choice is made then (Dead of
Night's number, Follow the Leader's enemy, Memory Fades to Myth's fighter), and Choose
Crew fighter choices not made in the pre-battle. "Randomly select" cards are picked by
the app from the deployed crew (or the player enters the fighter they picked at the
table); every choice is stored in ``SideSetup.subplot_choices`` and shown again only on
that player's own peek (secret ones) or on both sides (cards revealed now).

Both players are always walked, even with nothing to walk, so the curtain itself says
nothing about a hand. ``walk_start_of_game(screen)`` runs in a worker of the battle
screen and returns the gangs whose players walked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from munda_tui.widgets.plain import Label, Static

from munda_tui.rules import subplots as sp
from munda_tui.rules.battle import NOT_DEPLOYED
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.screens.common.dialogs import DialogScreen
from munda_tui.screens.prebattle.subplot_draw import SubplotChoiceScreen
from munda_tui.widgets.curtain import PrivacyCurtain
from munda_tui.widgets.footer import Footer

if TYPE_CHECKING:
    from munda_tui.rules.battle import BattleState
    from munda_tui.rules.setup import BattleSetup


class Tracker(Protocol):
    """What the walk reads of the battle screen (a protocol: the screen imports this
    module, and an import back, even for annotations, made a circle)."""

    setup: BattleSetup
    gangs: list[str]

    @property
    def app(self) -> Any: ...

    @property
    def state(self) -> BattleState: ...

    def _player(self, gang: str) -> str: ...


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
            yield Static("Enter: done (then pass the laptop on).", classes="dialog-hint")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


def _crew(screen: Tracker, gang: str) -> list[tuple[str, str, str]]:
    """The gang's deployed crew as (fighter id, name, type)."""
    return [(f.id, f"{f.name} ({f.type})", f.type) for f in screen.state.crew(gang)
            if f.state != NOT_DEPLOYED]


async def walk_start_of_game(screen: Tracker) -> list[str]:
    """Walk each player in turn; the gangs whose players walked (Esc at a curtain
    leaves that player's walk for later)."""
    app = munda_app(screen)
    walked: list[str] = []
    for side in screen.setup.sides:
        gang = side.gang
        if gang not in screen.state.sides:
            continue
        owner = screen._player(gang) or screen.state.sides[gang].name
        enemy = next((g for g in screen.gangs if g != gang), "")
        offered = sp.start_of_game_cards(side.hand, side.subplot_choices)
        ready = await app.push_screen_wait(
            PrivacyCurtain(owner, "to walk your Sub-plots at the start of the battle "
                                  "(before round 1)"))
        if not ready:
            continue
        walked.append(gang)
        if not offered:
            await app.push_screen_wait(NothingAtTheStart(owner))
            continue
        for card in offered:
            own = [(i, n) for i, n, _ in sp.choice_pool(card, _crew(screen, gang))]
            them = [(i, n) for i, n, _ in sp.choice_pool(card, _crew(screen, enemy))]
            value = await app.push_screen_wait(SubplotChoiceScreen(
                card.id, owner, own, them, app.rng,
                moment="start_of_battle", curtained=True, pick_at_random=True))
            if value is not None:  # Esc: not revealed now (e.g. Folly of the Faithless
                side.subplot_choices[card.id] = value  # with no enemy Psyker)
    return walked


__all__ = ["NothingAtTheStart", "walk_start_of_game"]
