"""A revealed Sub-plot, shown to both players, and its reward walked.

The card's text and why it matched are shown; ``g`` switches to the upgraded
reward (pre-set when the log shows its condition held), ``n`` marks a reward
walked at the end as not earned, ``s`` skips a reward that does not apply
(a card with alternatives), ``+`` adds a reward once more ("for each ...");
effects on the battle are shown, not banked. Enter rolls each reward in turn (by the app
or from real dice, through the dice prompt), asking which fighter gets XP
when the card gives it to "the fighter", then Enter records it. Nothing is
applied to a gang here: the rewards are banked on the battle.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static

from munda_tui.rules import subplots
from munda_tui.rules.battle import BattleState, Reward, reward_text
from munda_tui.rules.dice import parse
from munda_tui.rules.watch import Match
from munda_tui.screens.battle.choice import ChoiceScreen
from munda_tui.widgets.dice_prompt import DiceOutcome, DicePrompt
from munda_tui.widgets.playing_card import PlayingCard

REVEAL, REWARD, DEFER = "reveal", "reward", "defer"


@dataclass(frozen=True)
class RevealResult:
    upgraded: bool
    rewards: tuple[Reward, ...]


class _Line:
    def __init__(self, spec: subplots.Reward) -> None:
        self.spec = spec
        self.result: Reward | None = None
        self.fighter = ""
        # a reward for a later event ("each later rally") is not banked with the reveal:
        # + adds it when the event happens, so one rally gives its XP once
        self.skipped = spec.later

    @property
    def effect(self) -> bool:
        """An effect on the battle, not a reward to bank."""
        return self.spec.kind == "other" or not self.spec.dice

    @property
    def done(self) -> bool:
        return self.effect or self.skipped or self.result is not None


class RevealScreen(ModalScreen["RevealResult | None"]):
    CSS_PATH = "modals.tcss"
    BINDINGS = [
        Binding("enter", "next", "Roll / record", id="reveal.next"),
        Binding("g", "upgrade", "Upgrade", tooltip="Switch to / from the upgraded reward", id="reveal.upgrade"),
        Binding("s", "skip", "Skip", tooltip="The next reward does not apply (skip it)", id="reveal.skip"),
        Binding("plus", "again", "Once more", key_display="+",
                tooltip="Add the last reward once more (e.g. 'for each ...')", id="reveal.again"),
        Binding("n", "earned", "Not earned", tooltip="The reward is earned / not earned", id="reveal.earned"),
        Binding("escape", "cancel", "Cancel", id="reveal.cancel"),
    ]

    def __init__(
        self,
        gang_name: str,
        match: Match,
        state: BattleState,
        rng: random.Random,
        *,
        mode: str = REVEAL,
        prefer_entry: bool = False,
        later: str = "",
    ) -> None:
        super().__init__()
        self.gang_name = gang_name
        self.match = match
        self.card = subplots.card(match.card)
        self.state = state
        self.rng = rng
        self.mode = mode
        self.later = later or "at the end of the battle"  # when a deferred reward is walked
        self.prefer_entry = prefer_entry
        self.upgraded = bool(match.upgraded)
        self.earned = match.earned is not False
        # "for each ..." / "whenever ...": the rewards once per time the log shows
        self.lines = [_Line(r) for _ in range(max(1, match.times)) for r in self.card.rewards]
        n = len(self.card.rewards)
        for i, line in enumerate(self.lines):
            if i % n in match.skip:  # the log says this reward does not apply
                line.skipped = True
        # a roll the card makes before its reward (Cold Trade's D6 + 1 per earlier kill)
        self.test_roll: str = ""  # "D6+1 [5] = 6", once rolled
        self.test_passed: bool | None = None if match.test else True

    def compose(self) -> ComposeResult:
        title = (f"{self.gang_name} reveal a Sub-plot" if self.mode != REWARD
                 else f"{self.gang_name}: reward for {self.card.name}")
        with Vertical(id="modal", classes="reveal"):
            yield Label(title, classes="modal-title")
            with VerticalScroll(id="reveal-body"):
                yield PlayingCard(None, self.card, id="reveal-card")
                yield Static("", id="reveal-why", markup=False)
                yield Static("", id="reveal-rewards", markup=False)
            yield Static("", id="reveal-hint", classes="hint", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._resolve_fixed()
        self._show()

    # --- the reward plan ------------------------------------------------------------

    @property
    def has_upgrade(self) -> bool:
        return any(line.spec.upgrade for line in self.lines)

    def _dice(self, line: _Line) -> str:
        spec = line.spec
        if self.upgraded and spec.upgrade:
            return spec.upgrade.dice
        return spec.dice

    def _target(self, line: _Line) -> str | None:
        """The fighter key for the reward, "" for the gang, None: still to ask."""
        if line.spec.to == "every_fighter":
            return "*"
        if line.spec.to != "fighter":
            return ""
        if line.fighter:
            return line.fighter
        f = self.state.fighters.get(self.match.fighter)
        if f is not None and f.gang == self.match.gang:
            return f.key
        return None

    def _resolve_fixed(self) -> None:
        """Rewards without dice (e.g. '2 Gang Tactics') need no roll."""
        for line in self.lines:
            if line.done:
                continue
            expr = parse(self._dice(line))
            target = self._target(line)
            if not expr.dice and target is not None:
                line.result = self._reward(line, expr.minimum, self._dice(line), (), target)

    def _reward(self, line: _Line, total: int, dice: str, faces: tuple[int, ...],
                target: str) -> Reward:
        amount = -total if line.spec.penalty else total
        return Reward(line.spec.kind, amount, fighter=target, dice=dice, faces=faces,
                      note=line.spec.note)

    @property
    def pending(self) -> list[_Line]:
        return [line for line in self.lines if not line.done]

    def _show(self) -> None:
        why = self.match.why
        self.query_one("#reveal-why", Static).update(f"Met: {why}" if why else "")
        out = []
        if self.mode == DEFER:
            out.append(f"Reward: walked {self.later} - "
                       + "; ".join(line.spec.describe() for line in self.lines))
        elif self.match.test and self.test_passed is None and self.earned:
            out.append(f"First the card's roll: {self.match.test}, {self.match.test_target}+ "
                       f"to gain the reward (Enter: roll, by the app or real dice)")
        elif not self.earned:
            if self.test_roll and not self.test_passed:
                out.append(f"Roll {self.test_roll}: not {self.match.test_target}+, "
                           f"no reward")
            else:
                out.append("Reward: not earned (n to change)")
        else:
            if self.mode == REWARD and self.match.earned is None:
                out.append("Earned? The log cannot tell: n if the card's condition was not met")
            if self.has_upgrade:
                out.append("Upgraded reward: " + ("yes" if self.upgraded else "no")
                           + ("  (the log cannot tell: g to switch)"
                              if self.match.upgraded is None else "  (g to switch)"))
            if self.test_roll:
                out.append(f"Roll {self.test_roll}: {self.match.test_target}+, the reward is gained")
            for line in self.lines:
                if line.effect:
                    out.append(f"- effect (not banked): {line.spec.describe()}")
                elif line.skipped:
                    out.append(f"- skipped: {line.spec.describe()}")
                elif line.result is not None:
                    got = reward_text(line.result, self.state)
                    dice = f"  [{line.result.dice} {list(line.result.faces)}]" if line.result.faces else ""
                    out.append(f"- {got}{dice}")
                else:
                    out.append(f"- {line.spec.describe()}: to roll ({self._dice(line)})")
        self.query_one("#reveal-rewards", Static).update("\n".join(out))
        if self.mode != DEFER and self.earned and self.test_passed is None:
            hint = f"Enter: roll {self.match.test} ({self.match.test_target}+)   Esc: cancel"
        elif self.mode == DEFER or not self.earned or not self.pending:
            hint = "Enter: record   Esc: cancel"
        else:
            hint = "Enter: roll the next reward (app or real dice)   s: skip it   Esc: cancel"
        self.query_one("#reveal-hint", Static).update(hint)

    # --- keys ---------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "upgrade":
            return self.has_upgrade and self.mode != DEFER
        if action == "earned":
            return self.mode != DEFER and not self.test_roll  # a roll decided it
        if action == "skip":
            return self.mode != DEFER and self.earned and bool(self.pending)
        if action == "again":
            return self.mode != DEFER and self.earned and any(
                not line.effect for line in self.lines)
        return True

    def action_skip(self) -> None:
        pending = self.pending
        if pending:
            pending[0].skipped = True
            self._show()

    def action_again(self) -> None:
        last = [line for line in self.lines if not line.effect]
        if last:
            done = [line for line in last if line.result is not None]
            spec = (done or last)[-1].spec
            line = _Line(spec)
            self.lines.append(line)
            self._resolve_fixed()
            self._show()

    def action_upgrade(self) -> None:
        self.upgraded = not self.upgraded
        n = len(self.card.rewards)
        for i, line in enumerate(self.lines):
            line.result = None
            line.skipped = i < n * max(1, self.match.times) and i % n in self.match.skip
        self._resolve_fixed()
        self._show()

    def action_earned(self) -> None:
        self.earned = not self.earned
        self._show()

    def action_next(self) -> None:
        if self.mode == DEFER:
            self.dismiss(RevealResult(self.upgraded, ()))
            return
        if self.earned and self.test_passed is None:
            self._roll_test()
            return
        if not self.earned:
            self.dismiss(RevealResult(False, ()))
            return
        pending = self.pending
        if not pending:
            self.dismiss(RevealResult(self.upgraded,
                                      tuple(line.result for line in self.lines if line.result)))
            return
        line = pending[0]
        target = self._target(line)
        if target is None:
            self._ask_fighter(line)
            return
        self._roll(line, target)

    def _ask_fighter(self, line: _Line) -> None:
        crew = [f for f in self.state.crew(self.match.gang)]

        def chosen(key: str | None) -> None:
            if key:
                line.fighter = key
                self._resolve_fixed()
                self._show()
                if line.result is None:
                    self._roll(line, key)

        self.app.push_screen(
            ChoiceScreen(f"{self.card.name}: which fighter gains the XP?",
                         [(f.key, f"{f.name} ({f.type})") for f in crew]),
            chosen,
        )

    def _roll(self, line: _Line, target: str) -> None:
        dice = self._dice(line)

        def rolled(outcome: DiceOutcome | None) -> None:
            if outcome is None or outcome.roll is None:
                return
            r = outcome.roll
            line.result = self._reward(line, r.total, r.expression, tuple(r.faces), target)
            self._show()

        self.app.push_screen(
            DicePrompt(dice, title=self.card.name, who=self.gang_name,
                       detail=line.spec.describe(), rng=self.rng,
                       prefer_entry=self.prefer_entry),
            rolled,
        )

    def _roll_test(self) -> None:
        """The card's own roll before its reward: below the target, no reward."""

        def rolled(outcome: DiceOutcome | None) -> None:
            if outcome is None or outcome.roll is None:
                return
            r = outcome.roll
            self.test_roll = str(r)
            self.test_passed = r.total >= self.match.test_target
            if not self.test_passed:
                self.earned = False
            self._show()

        self.app.push_screen(
            DicePrompt(self.match.test, title=self.card.name, who=self.gang_name,
                       detail=f"{self.match.test_target}+ to gain the reward", rng=self.rng,
                       prefer_entry=self.prefer_entry),
            rolled,
        )

    def action_cancel(self) -> None:
        self.dismiss(None)
