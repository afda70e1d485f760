"""The pre-battle House Sub-plot draw, on one shared screen that keeps each hand hidden.

Use (the pre-battle flow pushes it as one step)::

    from munda_tui.screens.prebattle.subplot_draw import SubplotDrawScreen
    screen = SubplotDrawScreen(gang_a, gang_b, campaign.settings, app.rng)
    result = await app.push_screen_wait(screen)   # (from a worker)
    if result is not None:                  # None: the players stopped the draw
        result.apply(setup)                 # fills SideSetup.hand / jokers / use_house_deck

``gang_a``/``gang_b`` are ``rules.model.Gang``; ``settings`` is ``rules.model.Settings``
(``subplot_decks`` gives the default House-deck choice, ``shared_deck`` the deck
handling, ``dice_by_hand`` whether the roll-off prompt puts real dice first); ``rng`` is
the app's ``random.Random`` (the shuffle and any roll-off). The dismiss value is a
``rules.subplots.DrawResult`` (each side's hand of card ids, Jokers shown, draw order,
its reason and the roll-off dice).

States: set-up (both gangs, ratings, who draws first and why, deck choices) ->
for each player: privacy curtain -> their draw (cards face up, Jokers announced to
both on an opaque screen) -> hidden (card backs) -> summary (card backs and counts,
peek at your own hand behind the curtain) -> Enter dismisses with the result.

Also here, for the pre-battle and battle screens:

- ``SubplotChoiceScreen(card_id, owner, fighters, enemy_fighters, rng)``: a card revealed
  at Choose Crew / the start of the battle, and the choice it asks for (a fighter, a
  secret number, a point ...). Dismisses with the value to store in
  ``SideSetup.subplot_choices[card_id]`` (``""`` when the card asks nothing; for two
  fighters ``"<own id>|<enemy id>"``), or None when cancelled. Secret choices put up
  the privacy curtain first. List the cards with
  ``rules.subplots.cards_offered_at(side.hand, "choose_crew")``.
- ``DrawnHandScreen(player, hand, cards)``: an opaque view of one player's hand (push it
  after a ``PrivacyCurtain``); ``await peek_hand(app, player, hand, cards)`` does both
  (from a worker).

Every question here is awaited in a worker (``Asking``): no answer comes back through a
callback, and a key typed right after the one that asks waits for the question.
"""

from __future__ import annotations

from munda_tui.rules.core.data import RuleData

import random
from typing import Callable, Optional

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input
from munda_tui.widgets.keys import key_for, keys_text
from munda_tui.widgets.plain import Label, OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.rules.subplots import decks as sp
from munda_tui.rules.core.cards import Card, parse_card
from munda_tui.rules.core.model import Gang, Settings
from munda_tui.screens.common.asking import Asking
from munda_tui.screens.common.typed_app import rule_data_of
from munda_tui.screens.common.dialogs import (DIALOG_CSS, ConfirmScreen, DialogScreen, LineScreen,
                                              ListDialog)
from munda_tui.widgets.curtain import PrivacyCurtain
from munda_tui.widgets.playing_card import PlayingCard
from munda_tui.rules.core.wording import possessive
from munda_tui.widgets.footer import Footer


def player_label(gang: Gang) -> str:
    """'Ana (The Venom Sisters)', or the gang name when no player is recorded."""
    return f"{gang.player} ({gang.name})" if gang.player else gang.name


def hand_cards(hand: list[str], codes: list[str],
               data: RuleData | None = None) -> list[tuple[Card | None, sp.SubplotCard]]:
    """Pair a hand's Sub-plot ids with the playing cards drawn (Jokers skipped)."""
    physical = [parse_card(c) for c in codes]
    physical = [c for c in physical if not c.is_joker]
    out: list[tuple[Card | None, sp.SubplotCard]] = []
    for i, card_id in enumerate(hand):
        out.append((physical[i] if i < len(physical) else None, sp.card(card_id, data)))
    return out


def card_rows(cards: list[PlayingCard], per_row: int = 2) -> list[Horizontal]:
    """Cards laid out two to a row (each row as tall as its tallest card)."""
    rows = []
    for i in range(0, len(cards), per_row):
        chunk: list[Widget] = list(cards[i : i + per_row])
        if len(chunk) < per_row:
            chunk += [Static(classes="card-gap") for _ in range(per_row - len(chunk))]
        rows.append(Horizontal(*chunk, classes="card-row"))
    return rows


# --- small modals ---------------------------------------------------------------------------


class JokerScreen(DialogScreen[None]):
    """A Joker, announced to both players on an opaque screen."""

    # the kit's frame, opaque; the card's layout in subplot_draw.tcss
    CSS_PATH = [DIALOG_CSS, "subplot_draw.tcss"]
    BINDINGS = [Binding("enter", "close", "Continue the draw", priority=True, id="joker.close")]

    def __init__(self, player: str, opponent: str, card: Card, count: int) -> None:
        super().__init__(opaque=True)
        self.player = player
        self.opponent = opponent
        self.card = card
        self.count = count

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="joker"):
            yield Label(f"Joker! {self.player} drew a Joker.", classes="dialog-title")
            yield PlayingCard(self.card, id="joker-card")
            yield Static(
                f"Show it to {self.opponent}. {self.player} draws two new cards instead "
                f"(without showing them): {self.count} Sub-plots, three at most.",
                id="joker-text",
            )
            yield Static(f"Then only {self.player} looks again. Press {key_for(self, 'joker.close')}.",
                         classes="hint")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


class DrawnHandScreen(DialogScreen[None]):
    """One player's hand, face up, on an opaque screen. Enter, Escape or h hides it."""

    # the kit's frame, opaque; the cards' layout in subplot_draw.tcss
    CSS_PATH = [DIALOG_CSS, "subplot_draw.tcss"]
    BINDINGS = [Binding("escape,enter,h", "close", "Hide my cards", priority=True, id="hand.close")]

    def __init__(self, player: str, cards: list[tuple[Card | None, sp.SubplotCard]]) -> None:
        super().__init__(opaque=True)
        self.player = player
        self.cards = cards

    def compose(self) -> ComposeResult:
        with Vertical(id="hand-view"):
            yield Label(f"{possessive(self.player)} Sub-plots ({len(self.cards)})", classes="dialog-title")
            with VerticalScroll(id="hand-cards"):
                yield from card_rows([PlayingCard(p, sub, rule_data=rule_data_of(self))
                                      for p, sub in self.cards])
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


async def peek_hand(app: App, player: str, hand: list[str], codes: list[str]) -> None:
    """Curtain, then the hand (from a worker; for the summary here and for the battle
    tracker)."""
    cards = hand_cards(hand, codes, rule_data_of(app))
    if await app.push_screen_wait(PrivacyCurtain(player, "to look at your House Sub-plots")):
        await app.push_screen_wait(DrawnHandScreen(player, cards))


class SubplotChoiceScreen(Asking, ListDialog[Optional[str]]):
    """A Sub-plot offered to its owner at Choose Crew / the start of the battle, with
    the choice it asks for. See the module docstring for the dismiss value."""

    # the kit's frame, opaque (a secret choice is made behind the owner's curtain), and
    # this dialog's own layout: the card beside the question
    CSS_PATH = [DIALOG_CSS, "subplot_draw.tcss"]
    BINDINGS = [
        Binding("escape", "cancel", "Not now", id="subplot_choice.cancel"),
        Binding("r", "random", "Pick at random", id="subplot_choice.random"),
        Binding("enter", "confirm", "Confirm", show=True, id="subplot_choice.confirm"),
    ]

    def __init__(
        self,
        card_id: str,
        owner: str,
        fighters: list[tuple[str, str]] | None = None,
        enemy_fighters: list[tuple[str, str]] | None = None,
        rng: random.Random | None = None,
        moment: str = "",
        curtained: bool = False,
        pick_at_random: bool = False,
        bounds: tuple[int, int] | None = None,
        bounds_note: str = "",
    ) -> None:
        super().__init__(opaque=True)
        self.card = sp.card(card_id, rule_data_of(self))
        # a number whose range depends on the battle (Contempt for the Weak: the crew)
        self.bounds = bounds or self.card.choice_range
        self.bounds_note = bounds_note
        self.owner = owner
        self.fighters = fighters or []
        self.enemy_fighters = enemy_fighters or []
        self.rng = rng or random.Random()
        self.moment = moment or self.card.reveal
        self.info = sp.CHOICES[self.card.choice]
        self.curtained = curtained  # already behind the owner's curtain: no second one
        # a "randomly select" card: the app picks on opening (the player may instead
        # choose the fighter they picked at the table); never re-rolled silently
        self.pick_at_random = pick_at_random and self.info.random
        self.picked = ""

    def compose(self) -> ComposeResult:
        c, info = self.card, self.info
        revealed = sp.reveals_card(c, self.moment)
        with Vertical(id="dialog", classes="subplot-choice"):
            head = f"{self.owner}: {c.name}"
            head += " - reveal it now" if revealed else " - a secret choice (do not reveal the card)"
            yield Label(head, id="dialog-title")
            with Horizontal(id="choice-body"):
                yield PlayingCard(None, c, id="choice-card")
                with Vertical(id="choice-ask"):
                    prompt = info.prompt or "This card asks for no choice."
                    if self.bounds:
                        prompt += f" ({self.bounds[0]}-{self.bounds[1]})"
                    if self.bounds_note:
                        prompt += f"\n{self.bounds_note}"
                    yield Static(prompt, id="choice-prompt")
                    if info.kind in ("fighter", "fighter_and_enemy_fighter"):
                        yield OptionList(*[Option(n, id=i) for i, n in self.fighters], id="own")
                    if info.kind in ("enemy_fighter", "fighter_and_enemy_fighter"):
                        yield OptionList(*[Option(n, id=i) for i, n in self.enemy_fighters], id="enemy")
                    if info.kind in ("number", "text"):
                        hint = ""
                        if self.bounds:
                            hint = f"{self.bounds[0]}-{self.bounds[1]}"
                        yield Input(placeholder=hint, id="choice-input")
                    yield Static("", id="choice-error", classes="dialog-error")
        yield Footer()

    def on_mount(self) -> None:
        self._focus_first()
        if self.pick_at_random:
            self.action_random()
        if self.info.secret and not self.curtained:
            self._curtain()

    @work(group="dialog")
    async def _curtain(self) -> None:
        """A secret choice: only the owner looks (Esc on the curtain: not now)."""
        if not await self.ask(PrivacyCurtain(self.owner, "to make a secret Sub-plot choice")):
            self.dismiss(None)
        else:
            self._focus_first()

    def _focus_first(self) -> None:
        for widget in self.query("Input, OptionList"):
            widget.focus()
            return

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "random":
            return self.info.random and not self.picked
        return super().check_action(action, parameters)

    def _lists(self) -> list[OptionList]:
        return list(self.query(OptionList))

    def action_random(self) -> None:
        if self.picked:
            return
        names = []
        for option_list in self._lists():
            if option_list.option_count:
                option_list.highlighted = self.rng.randrange(option_list.option_count)
                names.append(str(option_list.get_option_at_index(option_list.highlighted).prompt))
        self.picked = " and ".join(names)
        self.query_one("#choice-error", Static).update(
            f"Picked at random by the app: {self.picked}. {key_for(self, 'subplot_choice.confirm')} "
            "confirms (or choose the "
            f"fighter you picked at the table)" if names else "No fighter to pick from")
        self.refresh_bindings()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        lists = self._lists()
        if event.option_list is lists[0] and len(lists) > 1:
            lists[1].focus()
            return
        self.action_confirm()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_confirm()

    def action_confirm(self) -> None:
        error = self.query_one("#choice-error", Static)
        kind = self.info.kind
        if kind in ("number", "text"):
            try:
                value = sp.check_choice(self.card, self.query_one("#choice-input", Input).value,
                                        self.bounds)
            except sp.SubplotError as problem:
                error.update(str(problem))
                return
            self.dismiss(value)
            return
        picks = []
        for option_list in self._lists():
            index = option_list.highlighted
            if index is None:
                error.update(self.info.prompt)
                option_list.focus()
                return
            picks.append(option_list.get_option_at_index(index).id or "")
        self.dismiss("|".join(picks))

    def action_cancel(self) -> None:
        self.dismiss(None)


# --- the draw screen -------------------------------------------------------------------------


class SubplotDrawScreen(Asking, Screen[sp.DrawResult | None]):
    """Both players draw their House Sub-plots; see the module docstring."""

    CSS_PATH = "subplot_draw.tcss"
    HELP_TITLE = "House Sub-plot draw"
    HELP = """
The gang with the lower Gang Rating draws first; on equal ratings a D6 roll-off decides
(ties are re-rolled). Each player draws one card without showing it. A Joker is shown
to the opponent and replaced by two new cards; a second Joker does the same, for three
Sub-plots at most. A House gang may use its own House deck (rank only) instead of the
four suit decks of the 2018 Rulebook.

Before each player's draw the screen waits behind a curtain until only that player
looks. Draw with the app's shuffled deck ({key:subplot_draw.draw}) or type the card you
drew from a real deck ({key:subplot_draw.type_card}). {key:subplot_draw.hide} hides your
cards again. In the summary each hand shows as card backs; {key:subplot_draw.peek-0} or
{key:subplot_draw.peek-1} lets a player peek at their own hand, behind the curtain.
Sources: Core Rulebook (2023) p243, Necromunda Rulebook (2018) p150.
"""
    BINDINGS = [
        Binding("1", "deck(0)", "Deck of gang 1", id="subplot_draw.deck-0"),
        Binding("2", "deck(1)", "Deck of gang 2", id="subplot_draw.deck-1"),
        Binding("1", "peek(0)", "Peek: gang 1", id="subplot_draw.peek-0"),
        Binding("2", "peek(1)", "Peek: gang 2", id="subplot_draw.peek-1"),
        Binding("s", "toggle_shared", "Shared deck", id="subplot_draw.toggle_shared"),
        Binding("r", "roll_off", "Roll-off", id="subplot_draw.roll_off"),
        Binding("e", "enter_roll_off", "Real dice", id="subplot_draw.enter_roll_off"),
        Binding("d", "draw", "Draw a card", id="subplot_draw.draw"),
        Binding("c", "type_card", "Type a real card", id="subplot_draw.type_card"),
        Binding("h", "hide", "Hide my cards", id="subplot_draw.hide"),
        Binding("enter", "next", "Continue", id="subplot_draw.next"),
        Binding("escape", "stop", "No Sub-plots", id="subplot_draw.stop"),
        # once the draw has begun Esc only leaves: the draw is kept and goes on later
        Binding("escape", "leave", "Leave the draw (kept)", id="subplot_draw.leave"),
    ]
    #: which actions each state offers
    ACTIONS = {
        "setup": {"deck", "toggle_shared", "roll_off", "enter_roll_off", "next", "stop"},
        "turn": {"draw", "type_card", "hide", "stop", "leave"},
        "hidden": {"next", "stop", "leave"},
        "summary": {"peek", "next", "stop", "leave"},
    }
    ALL_ACTIONS = frozenset().union(*ACTIONS.values())

    def __init__(self, gang_a: Gang, gang_b: Gang, settings: Settings, rng: random.Random,
                 *, resume: dict | None = None,
                 on_change: Callable[[dict], None] | None = None) -> None:
        """``resume``: a draw saved by ``on_change`` (``rules.subplots.draw_record``), taken
        up where it was; ``on_change(record)`` is called as soon as the draw starts and
        after each card, so a card once seen is kept (SubplotError if ``resume`` is
        unreadable: check it with ``rules.subplots.resume_draw`` first)."""
        super().__init__()
        self.gangs = [gang_a, gang_b]
        self.settings = settings
        self.rng = rng
        self.data = rule_data_of(self)  # the decks in force (a pack's House deck)
        self.contenders = [
            sp.Contender(g.id, g.name, g.rating, sp.house_deck(g.type, self.data))
            for g in self.gangs
        ]
        self.use_house = {
            c.gang: bool(c.house_deck) and settings.subplot_decks == "house" for c in self.contenders
        }
        self.shared = settings.shared_deck
        self.rolls: list[tuple[int, int]] = []
        self.order: sp.DrawOrder | None = None
        self.session: sp.SubplotDraw | None = None
        self.phase = "setup"
        self.turn_gang: str | None = None
        self.message = ""
        self.on_change = on_change
        self._decide_order()
        if resume and not sp.draw_begun(resume):  # only the roll-off was made: it stands
            self.rolls = sp.saved_rolloff(resume)
            self._decide_order()
            self.message = "The roll-off made before is kept."
        elif resume:
            self.session, self.order = sp.resume_draw(resume, self.data)
            self.shared = self.session.shared_deck
            for gang_id, side in self.session.sides.items():
                self.use_house[gang_id] = side.use_house_deck
            if self.session.done:
                self.phase = "summary"
            else:
                self.phase = "hidden"
                last = self.session.history[-1].gang if self.session.history else None
                self.turn_gang = last or self.session.current
            self.message = "The draw goes on where it was saved."

    def _changed(self) -> None:
        if self.on_change is not None and self.session is not None and self.order is not None:
            self.on_change(sp.draw_record(self.session, self.order))

    # --- helpers ---------------------------------------------------------------------

    def gang(self, gang_id: str) -> Gang:
        return next(g for g in self.gangs if g.id == gang_id)

    def player(self, gang_id: str) -> str:
        return player_label(self.gang(gang_id))

    def _decide_order(self) -> None:
        try:
            first, second = self.contenders
            self.order = sp.draw_order(first, second, self.rolls)
        except sp.SubplotError:
            self.order = None

    def deck_label(self, gang_id: str) -> str:
        contender = next(c for c in self.contenders if c.gang == gang_id)
        if self.use_house[gang_id] and contender.house_deck:
            return f"{sp.deck(contender.house_deck, self.data).name} House deck"
        return "suit decks (Rulebook 2018)"

    # --- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Label("House Sub-plots: the draw", classes="title")
        yield Static(id="public")
        yield Static(id="status")
        yield VerticalScroll(id="cards")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_view()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in self.ALL_ACTIONS:
            return True
        if action in ("stop", "leave"):
            # Esc says what it does: before the draw begins it ends the Sub-plots; once
            # begun (the decks shuffled and saved, a card seen or not) it only leaves, the
            # draw kept
            return (self.session is not None) == (action == "leave")
        if action not in self.ACTIONS[self.phase]:
            return False
        if self.phase == "setup":
            if action in ("roll_off", "enter_roll_off"):
                return self.order is None
            if action == "deck":
                return bool(self.contenders[int(parameters[0])].house_deck)  # type: ignore[call-overload]
            if action == "next":
                return True if self.order is not None else None
        if self.phase == "turn" and self.session is not None and self.turn_gang:
            left = self.session.remaining(self.turn_gang)
            if action in ("draw", "type_card"):
                return left > 0
            if action == "hide":
                return left == 0
        return True

    def refresh_view(self) -> None:
        self.query_one("#public", Static).update(self._public_text())
        self.query_one("#status", Static).update(self._status_text())
        self._show_cards()
        self.refresh_bindings()

    def _public_text(self) -> Text:
        out = Text()
        for i, (g, c) in enumerate(zip(self.gangs, self.contenders), start=1):
            out.append(f"[{i}] ", style="bold")
            out.append(g.name, style="bold")
            out.append(f" ({g.type}{', ' + g.player if g.player else ''})", style="dim")
            out.append(f"  rating {c.rating}  deck: {self.deck_label(g.id)}")
            if self.session is not None:
                side = self.session.sides[g.id]
                out.append(f"  hand {len(side.hand)}")
                if side.jokers:
                    out.append(f"  Jokers {side.jokers}", style="bold yellow")
            out.append("\n")
        out.append("Deck: ")
        out.append("one shared deck" if self.shared else "a full deck for each player")
        out.append("\n")
        if self.order is not None:
            first = self.gang(self.order.first).name
            out.append(f"{first} draws first. ", style="bold")
            out.append(self.order.reason)
        else:
            out.append("Who draws first: ", style="bold")
            faces = ", ".join(f"{a}-{b}" for a, b in self.rolls)
            out.append(
                f"equal Gang Ratings ({self.contenders[0].rating}): a D6 roll-off decides"
                + (f" (tied so far: {faces})" if self.rolls else "")
            )
        return out

    def _status_text(self) -> Text:
        out = Text()
        if self.message:
            out.append(self.message + "\n", style="bold yellow")
        if self.phase == "setup":
            if self.order is None:
                if self.settings.dice_by_hand:
                    out.append(keys_text(self, "Roll a D6 each and press {key:subplot_draw.enter_roll_off} "
                                               "to enter the dice (or {key:subplot_draw.roll_off}: the app rolls)."))
                else:
                    out.append(keys_text(self, "Press {key:subplot_draw.roll_off} to roll the D6 roll-off, "
                                               "or {key:subplot_draw.enter_roll_off} to enter real dice."))
            else:
                out.append(f"Press {key_for(self, 'subplot_draw.next')} to start the draw")
                out.append(f" ({self.player(self.order.first)} first).")
        elif self.phase == "turn" and self.session is not None and self.turn_gang:
            left = self.session.remaining(self.turn_gang)
            out.append(f"{self.player(self.turn_gang)} is drawing. ", style="bold")
            if left:
                out.append(
                    f"Draw {left} card{'s' if left > 1 else ''}: {key_for(self, 'subplot_draw.draw')} "
                    f"draws from the app's deck, {key_for(self, 'subplot_draw.type_card')} types the "
                    "card you drew from a real deck."
                )
            else:
                out.append(f"Your draw is complete. Read your cards, then press "
                           f"{key_for(self, 'subplot_draw.hide')} to hide them.")
        elif self.phase == "hidden" and self.session is not None and self.turn_gang:
            nxt = self.session.current
            out.append(f"{possessive(self.player(self.turn_gang))} cards are hidden. ", style="bold")
            if nxt is not None:
                out.append(f"Press {key_for(self, 'subplot_draw.next')} to pass the laptop to "
                           f"{self.player(nxt)}.")
            else:
                out.append(f"Press {key_for(self, 'subplot_draw.next')} for the summary.")
        elif self.phase == "summary":
            out.append("The draw is done. ", style="bold")
            out.append(keys_text(self, "{key:subplot_draw.peek-0} / {key:subplot_draw.peek-1}: peek at "
                                       "your own hand (behind the curtain). {key:subplot_draw.next}: done."))
        return out

    def _show_cards(self) -> None:
        box = self.query_one("#cards", VerticalScroll)
        box.remove_children()
        if self.session is None:
            return
        if self.phase in ("turn", "hidden") and self.turn_gang:
            face_up = self.phase == "turn"
            drawn = self.session.drawn_by(self.turn_gang)
            jokers = [PlayingCard(d.card, small=True) for d in drawn if d.is_joker]
            if jokers:
                box.mount(Horizontal(*jokers, classes="card-row"))
            cards = [PlayingCard(d.card, d.subplot, face_up=face_up) for d in drawn if not d.is_joker]
            # two to a row when there is room; on a narrow screen (80x24) one, full width,
            # so a card's text is read whole rather than half of it below the fold
            box.mount_all(card_rows(cards, per_row=2 if self.app.size.width >= 100 else 1))
        elif self.phase == "summary":
            hands = []
            for i, g in enumerate(self.gangs, start=1):
                side = self.session.sides[g.id]
                n = len(side.hand)
                label = f"[{i}] {g.name}: {n} Sub-plot{'s' if n != 1 else ''}"
                if side.jokers:
                    label += f" ({side.jokers} Joker{'s' if side.jokers > 1 else ''} shown)"
                backs = [PlayingCard.back() for _ in side.hand]
                jokers = [
                    PlayingCard(Card("Joker", "", 1), small=True) for _ in range(side.jokers)
                ]
                hands.append(Vertical(Label(label, classes="hand-label"),
                                      Horizontal(*backs, *jokers, classes="hand-row"),
                                      classes="hand"))
            box.mount(Vertical(*hands, id="hands"))

    # --- actions -----------------------------------------------------------------------------

    def _say(self, message: str) -> None:
        self.message = message
        self.refresh_view()

    def action_deck(self, index: int) -> None:
        gang = self.gangs[index]
        if self.phase == "setup" and self.contenders[index].house_deck:
            self.use_house[gang.id] = not self.use_house[gang.id]
            self._say(f"{gang.name} uses the {self.deck_label(gang.id)}.")

    @work(group="dialog")
    async def action_peek(self, index: int) -> None:
        gang = self.gangs[index]
        if self.phase == "summary" and self.session is not None:
            side = self.session.sides[gang.id]
            await peek_hand(self.app, self.player(gang.id), side.hand, side.cards)

    def action_toggle_shared(self) -> None:
        self.shared = not self.shared
        self._say("One shared deck." if self.shared else "Each player shuffles a full deck.")

    def action_roll_off(self) -> None:
        if self.order is not None:
            return
        pair = (self.rng.randint(1, 6), self.rng.randint(1, 6))
        self._record_roll(pair)

    def _record_roll(self, pair: tuple[int, int]) -> None:
        self.rolls.append(pair)
        self._decide_order()
        if self.on_change is not None:  # saved at once: closing the app keeps the roll
            self.on_change(sp.rolloff_record(self.rolls))
        names = [c.name for c in self.contenders]
        text = f"Roll-off: {names[0]} {pair[0]}, {names[1]} {pair[1]}"
        self._say(text + (": a tie, roll again." if pair[0] == pair[1] else "."))

    @work(group="dialog")
    async def action_enter_roll_off(self) -> None:
        names = [c.name for c in self.contenders]

        def validate(text: str) -> str | None:
            parts = text.replace(",", " ").split()
            if len(parts) != 2 or not all(p.isdigit() and 1 <= int(p) <= 6 for p in parts):
                return f"type two D6 faces: {possessive(names[0])} then {possessive(names[1])}, e.g. 4 2"
            return None

        text = await self.ask(
            LineScreen("D6 roll-off",
                       detail=f"{possessive(names[0])} die, then {possessive(names[1])} (e.g. 4 2)",
                       check=validate, placeholder="4 2", opaque=True))
        if text:
            a, b = (int(p) for p in text.replace(",", " ").split())
            self._record_roll((a, b))

    @work(group="dialog")
    async def action_next(self) -> None:
        if self.phase == "setup":
            if self.order is None:
                self._say(keys_text(self, "Roll the roll-off first ({key:subplot_draw.roll_off}), or "
                                          "enter real dice ({key:subplot_draw.enter_roll_off})."))
                return
            houses = {g: (c.house_deck if self.use_house[g] else None)
                      for g, c in ((c.gang, c) for c in self.contenders)}
            self.session = sp.SubplotDraw(
                [self.order.first, self.order.second], rng=self.rng,
                house_decks=houses, shared_deck=self.shared, data=self.data,
            )
            self.message = ""
            self._changed()
            await self._curtain_for(self.order.first)
        elif self.phase == "hidden" and self.session is not None:
            nxt = self.session.current
            self.message = ""
            if nxt is None:
                self.phase = "summary"
                self.turn_gang = None
                self.refresh_view()
            else:
                await self._curtain_for(nxt)
        elif self.phase == "summary":
            self.dismiss(self.result())

    async def _curtain_for(self, gang_id: str) -> None:
        if await self.ask(PrivacyCurtain(self.player(gang_id), "to draw your House Sub-plots")):
            self.phase = "turn"
            self.turn_gang = gang_id
        self.refresh_view()

    def action_draw(self) -> None:
        self._draw(None)

    @work(group="dialog")
    async def action_type_card(self) -> None:
        session = self.session
        if session is None or self.phase != "turn":
            return

        def validate(text: str) -> str | None:
            try:
                session.parse(text)
            except sp.SubplotError as error:
                return str(error)
            return None

        text = await self.ask(
            LineScreen(
                "The card you drew",
                detail="Type the card from your real deck: AS, 10h, Q♦, queen of diamonds or "
                       "joker", check=validate, placeholder="e.g. Q♦",
                opaque=True))  # over this player's own cards, behind the curtain
        if text:
            self._draw(text)

    def _draw(self, entered: str | None) -> None:
        session = self.session
        if session is None or self.phase != "turn" or session.current != self.turn_gang:
            return
        try:
            drawn = session.draw(entered)
        except sp.SubplotError as error:
            self._say(str(error))
            return
        self.message = ""
        self._changed()
        self.refresh_view()
        if drawn.is_joker:
            gang_id = drawn.gang
            opponent = next(g for g in self.gangs if g.id != gang_id)
            self.app.push_screen(
                JokerScreen(self.player(gang_id), player_label(opponent), drawn.card,
                            session.remaining(gang_id) + len(session.sides[gang_id].hand))
            )

    def action_hide(self) -> None:
        if self.phase == "turn":
            self.phase = "hidden"
            self.refresh_view()

    def action_leave(self) -> None:
        self.action_stop()

    @work(group="dialog")
    async def action_stop(self) -> None:
        if self.session is not None:
            # the draw has begun (saved as it began): kept, never thrown away for a new one
            question = ConfirmScreen("Leave the draw for now?",
                                     "Every card drawn is kept: choosing to draw Sub-plots "
                                     "again goes on with this draw where it is.")
        else:
            question = ConfirmScreen("Play without House Sub-plots?",
                                     "The draw stops and no Sub-plots are used in this battle.")
        if await self.ask(question):
            self.dismiss(None)

    def result(self) -> sp.DrawResult:
        assert self.session is not None and self.order is not None
        return self.session.result(self.order.reason, self.order.rolloff)
