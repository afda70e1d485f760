"""The Reinforcements step of the End phase, walked draw by draw.

Whose draw it is comes from the rules (:func:`munda_tui.rules.battle.events.next_to_draw`:
players alternate from the Priority winner until each has drawn the number due or
run out of cards). For each draw: ``r`` draws a card at random from that gang's
Reinforcements deck and rolls the D6 (3+: 9", 1-2: 12" from all enemy models);
a digit 1-6 draws at random and takes that face from a real die; ``c`` lets the
player say which model card they dealt themselves, then ``r`` or 1-6 gives the
D6. Enter alone never rolls (it says which key does). Each arrival is recorded (and saved) at once through the tracker, so ``u``
undoes the last one like any event; Escape skips the rest of the step. The
modal closes when no draw is left.
"""

from __future__ import annotations

import random
from typing import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from munda_tui.widgets.plain import Label, OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.rules.prebattle import scenario as scenario
from munda_tui.rules.battle.events import (
    END,
    Battle,
    Event,
    arrivals_this_step,
    arrival_dice,
    arrival_event,
    draw_at_random,
    next_to_draw,
    priority_order,
)
from munda_tui.rules.core.dice import roll
from munda_tui.screens.common.dialogs import DIALOG_CSS, DialogScreen
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import key_for, keys_in_force, keys_text

CARD, CHOOSE, D6 = "card", "choose", "d6"


def arrival_rule() -> str:
    """The D6 table of the seed, e.g. '3+: 9", 1-2: 12"' (from the rule data)."""
    rows = scenario.rules_text()["reinforcements"]["arrival"]
    parts = []
    for row in rows:
        low, high = scenario.parse_roll_range(row["roll"], 1, 6)
        face = f"{low}+" if high == 6 and low > 1 else (f"{low}-{high}" if low != high else f"{low}")
        parts.append(f'{face} at least {row["distance"]}"')
    return ", ".join(parts)


class ReinforcementScreen(DialogScreen["str | None"]):
    """Dismisses with "done" when every draw due is made, None when skipped (Escape)."""

    CSS_PATH = [DIALOG_CSS, "modals.tcss"]  # the kit's frame; its own sizes
    AUTO_FOCUS = ""  # keys go to the screen; the deck list takes focus only when shown
    BINDINGS = [
        Binding("r", "draw", "Draw/roll for me", id="reinforcement.draw"),
        Binding("enter", "enter", "Which key rolls", show=False, id="reinforcement.enter"),
        Binding("1", "digit(1)", "Real D6 (card no.)", key_display="1-6", id="reinforcement.digit-1"),
        *[Binding(str(i), f"digit({i})", f"D6 {i}", show=False, id=f"reinforcement.digit-{i}") for i in range(2, 10)],
        Binding("c", "choose", "Pick card", id="reinforcement.choose"),
        Binding("u", "undo", "Undo", id="reinforcement.undo"),
        Binding("escape", "back", "Back/skip", id="reinforcement.back"),
    ]

    def __init__(
        self,
        battle: Battle,
        log_event: Callable[[Event], bool],
        undo: Callable[[], None],
        rng: random.Random,
        *,
        prefer_entry: bool = False,
    ) -> None:
        super().__init__()
        self.battle = battle
        self.log_event = log_event
        self.undo = undo
        self.rng = rng
        self.prefer_entry = prefer_entry
        self.asking = CARD
        self.drawn = ""  # fighter key of the card drawn, waiting for its D6
        self.dice = arrival_dice()

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="reinforcements"):
            yield Label("", id="dialog-title")
            yield Static("", id="reinf-rule", classes="hint", markup=False)
            yield Static("", id="reinf-sides", markup=False)
            yield Static("", id="reinf-arrived", markup=False)
            yield Static("", id="reinf-turn", markup=False)
            yield OptionList(id="reinf-deck", classes="hidden")
            yield Static("", id="reinf-hint", classes="hint", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._show()

    # --- what is shown --------------------------------------------------------------

    @property
    def gang(self) -> str:
        return next_to_draw(self.battle.state)

    def _show(self) -> None:
        st = self.battle.state
        order = priority_order(st)
        first = st.sides[order[0]].name if order else "-"
        self.query_one("#dialog-title", Label).update(
            f"Round {st.round} · End phase · Reinforcements step")
        self.query_one("#reinf-rule", Static).update(
            f"From {first} (Priority), players alternate drawing at random from their "
            f"Reinforcements deck. {self.dice} for each: {arrival_rule()} from all enemy models.")
        lines = []
        for g in order:
            line_side = st.sides[g]
            if line_side.step_round != st.round:
                continue
            lines.append(f"{line_side.name[:22]:<22} due {line_side.due}  "
                         f"arrived {line_side.arrived}  deck {len(line_side.reserves)}")
        self.query_one("#reinf-sides", Static).update("\n".join(lines))
        arrived = [
            f"  {st.name_of(ev.fighter)}: {ev.dice or self.dice} {ev.faces[0]}, "
            f'at least {ev.distance}"' if ev.faces else f"  {st.name_of(ev.fighter)}: arrived"
            for ev in arrivals_this_step(self.battle.log)
        ]
        self.query_one("#reinf-arrived", Static).update(
            "Arrived:\n" + "\n".join(arrived[-4:]) if arrived else "Arrived: none yet")
        gang = self.gang
        side = st.sides.get(gang)
        deck = self.query_one("#reinf-deck", OptionList)
        deck.set_class(self.asking != CHOOSE, "hidden")
        # every key as the player has it (widgets.keys: {key:<binding id>})
        faces = self._digits(6)
        if side is None:
            turn, hint = "No draw left.", "{key:reinforcement.back}: close"
        elif self.asking == D6:
            turn = f"{side.name}: {st.name_of(self.drawn)} drawn. Roll the {self.dice}."
            hint = (f"{{key:reinforcement.draw}}: roll the {self.dice} for me   {faces}: the face "
                    "of a real die   {key:reinforcement.back}: back")
        elif self.asking == CHOOSE:
            turn = f"{side.name}: which model card did you draw?"
            hint = (f"{self._digits(9)} or up/down + "
                    "{key:reinforcement.enter}: the card   {key:reinforcement.back}: back")
        else:
            turn = f"{side.name} draw ({side.arrived + 1} of {side.due})"
            hint = (f"{{key:reinforcement.draw}}: draw at random, roll the {self.dice}   {faces}: "
                    f"draw at random, a real {self.dice}   {{key:reinforcement.choose}}: I drew the "
                    "card myself   {key:reinforcement.undo}: undo   {key:reinforcement.back}: skip")
        self.query_one("#reinf-turn", Static).update(turn)
        self.query_one("#reinf-hint", Static).update(keys_text(self, hint))

    def _digit(self, n: int) -> str:
        """The key of the digit ``n`` as the player has it: "3", or its remapped key."""
        binding_id = f"reinforcement.digit-{n}"
        return str(n) if keys_in_force(self, binding_id) == [str(n)] else key_for(self, binding_id)

    def _digits(self, last: int) -> str:
        """The keys of the digits 1 to ``last`` as the player has them: "1-6", or the
        remapped keys' names ("f5-f10")."""
        return f"{self._digit(1)}-{self._digit(last)}"

    # --- keys -------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("choose", "undo"):
            return self.asking == CARD
        return True

    def action_enter(self) -> None:
        """Enter never rolls: a tap meant as "next" must not roll the arrival D6."""
        if self.gang and self.asking in (CARD, D6):
            self.notify(keys_text(self, (
                f"{{key:reinforcement.enter}} does not roll: {{key:reinforcement.draw}} draws and "
                f"rolls the {self.dice} for me, {self._digits(6)} takes the face of a real "
                "die.")), timeout=4)
        elif not self.gang:
            self.dismiss("done")

    def action_draw(self) -> None:
        gang = self.gang
        if not gang:
            self.dismiss("done")
            return
        if self.asking == CARD:
            self.drawn = draw_at_random(self.battle.state, gang, self.rng)
            if self.prefer_entry:  # real dice by default: ask the face
                self.asking = D6
                self._show()
                return
        elif self.asking != D6:
            return
        self._arrive(roll(self.dice, self.rng).faces[0])

    def action_digit(self, n: int) -> None:
        gang = self.gang
        if not gang:
            return
        if self.asking == CHOOSE:
            deck = self.battle.state.sides[gang].reserves
            if 1 <= n <= len(deck):
                self._chosen(deck[n - 1])
            return
        if not 1 <= n <= 6:
            return
        if self.asking == CARD:
            self.drawn = draw_at_random(self.battle.state, gang, self.rng)
        self._arrive(n)

    def action_choose(self) -> None:
        gang = self.gang
        if not gang:
            return
        st = self.battle.state
        deck = self.query_one("#reinf-deck", OptionList)
        deck.clear_options()
        deck.add_options([
            # each card's number key as the player has it (the digits pick the card)
            Option(f"{self._digit(i)}  {st.name_of(k)}" if i < 10 else f"   {st.name_of(k)}", id=k)
            for i, k in enumerate(st.sides[gang].reserves, start=1)
        ])
        self.asking = CHOOSE
        self._show()
        deck.highlighted = 0
        deck.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._chosen(str(event.option.id))

    def _chosen(self, key: str) -> None:
        self.drawn = key
        self.asking = D6
        self.set_focus(None)
        self._show()

    def _arrive(self, face: int) -> None:
        key, self.drawn, self.asking = self.drawn, "", CARD
        self.log_event(arrival_event(key, face))
        if not self.gang:
            self.dismiss("done")
            return
        self._show()

    def action_undo(self) -> None:
        st = self.battle.state
        log = self.battle.log
        if st.phase == END and log and log[-1].arrival:
            self.undo()
        else:
            self.notify("Nothing to undo: no Reinforcement has arrived in this step yet.",
                        timeout=4)
        self._show()

    def action_back(self) -> None:
        if self.asking != CARD:
            self.asking, self.drawn = CARD, ""
            self.set_focus(None)
            self._show()
            return
        self.dismiss(None)
