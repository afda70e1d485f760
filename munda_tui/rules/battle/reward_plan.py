"""The reward plan of a revealed Sub-plot: which rewards are banked, rolled, skipped.

When a card is revealed (or its reward walked at the end of the battle) its rewards are
planned line by line: a reward with dice is rolled (by the app or from real dice), one
without dice is fixed, an effect on the battle (``kind = "other"`` or no dice) is shown,
not banked; a reward for a later event ("each later rally") is not banked with the
reveal; a reward gained only if the gang wins (or loses) is not asked once the log says
who won. The players may switch to the upgraded reward, skip a reward that does not apply
(a card with alternatives), add one once more ("for each ...") or mark one reward as not
earned (that one only: a reward already rolled stays); a card may make its own roll first (Cold Trade: D6 + 1 per earlier
kill, 6+). :class:`RewardPlan` holds all that and says it in words; the reveal screen
shows it and hands each key over. Nothing is applied to a gang here: :meth:`RewardPlan.record`
gives the rewards to bank on the battle (a ``reveal`` or ``reward`` event).

The plan lives beside :mod:`munda_tui.rules.subplots.decks` rather than in it: it banks
:class:`munda_tui.rules.battle.events.Reward`, and ``battle`` already reads ``subplots``.
"""

from __future__ import annotations

from ..core.data import RuleData

from dataclasses import dataclass, field

from ..subplots import decks as subplots
from .events import BattleState, Reward, reward_text
from ..core.dice import Roll
from ..core.dice import parse as parse_dice
from .watch import Match

#: what the reveal walks: a card revealed now, its reward walked at the end, or a card
#: revealed now whose reward is walked later (at the end, or in the post-battle sequence)
REVEAL, REWARD, DEFER = "reveal", "reward", "defer"


@dataclass(frozen=True)
class RevealResult:
    """What a walked plan banks: whether the upgraded reward applied, and the rewards."""

    upgraded: bool
    rewards: tuple[Reward, ...]


@dataclass
class RewardLine:
    """One reward of the card, once: its spec, and what was rolled or chosen for it."""

    spec: subplots.Reward
    result: Reward | None = None
    fighter: str = ""  # the fighter key chosen for a reward "to the fighter"
    skipped: bool = False
    not_earned: bool = False  # n: this reward's condition was not met (this one only)
    decided: str = ""  # why the log says it does not apply ("your gang won")

    @classmethod
    def of(cls, spec: subplots.Reward) -> "RewardLine":
        # a reward for a later event ("each later rally") is not banked with the reveal:
        # "once more" adds it when the event happens, so one rally gives its XP once
        return cls(spec, skipped=spec.later)

    @property
    def effect(self) -> bool:
        """An effect on the battle, not a reward to bank."""
        return self.spec.kind == "other" or not self.spec.dice

    @property
    def done(self) -> bool:
        return self.effect or self.skipped or self.not_earned or self.result is not None


@dataclass(frozen=True)
class Ask:
    """What Enter does next: ``record`` (``result``), ``test`` (roll the card's own roll),
    ``fighter`` (ask who gains ``line``'s reward) or ``roll`` (``line``'s ``dice`` for
    ``target``)."""

    step: str
    result: RevealResult | None = None
    line: RewardLine | None = None
    dice: str = ""
    target: str = ""


@dataclass
class RewardPlan:
    """The rewards of one revealed card, as the players walk them."""

    match: Match
    card: subplots.SubplotCard
    state: BattleState
    mode: str = REVEAL
    later: str = "at the end of the battle"  # when a deferred reward is walked
    upgraded: bool = False
    earned: bool = True
    lines: list[RewardLine] = field(default_factory=list)
    test_roll: str = ""  # the card's own roll, once rolled ("D6+1 [5] = 6")
    test_passed: bool | None = True  # None: still to roll

    @classmethod
    def for_match(cls, match: Match, state: BattleState, *, mode: str = REVEAL,
                  later: str = "", data: RuleData | None = None) -> "RewardPlan":
        """The plan of a met card: the upgrade and "not earned" as the log says, its
        rewards once per time the log shows ("for each ..."), those the log says do not
        apply skipped, and the rewards without dice fixed already."""
        card = subplots.card(match.card, data)
        plan = cls(match, card, state, mode, later or "at the end of the battle",
                   upgraded=bool(match.upgraded), earned=match.earned is not False,
                   test_passed=None if match.test else True)
        plan.lines = [RewardLine.of(r) for _ in range(max(1, match.times)) for r in card.rewards]
        plan._skip_from_log()
        plan._skip_by_outcome()
        plan._resolve_fixed()
        return plan

    # --- what the plan is ----------------------------------------------------------

    @property
    def has_upgrade(self) -> bool:
        return any(line.spec.upgrade for line in self.lines)

    @property
    def pending(self) -> list[RewardLine]:
        """The rewards still to roll or to give a fighter."""
        return [line for line in self.lines if not line.done]

    @property
    def deferred(self) -> bool:
        return self.mode == DEFER

    @property
    def dice_rolled(self) -> bool:
        """Whether a reward's dice were rolled: switching the upgrade would then plan it
        again and roll it afresh, a re-roll without a record."""
        return any(line.result is not None and line.result.faces for line in self.lines)

    def dice(self, line: RewardLine) -> str:
        """The line's dice (the upgraded reward's when the upgrade applies)."""
        spec = line.spec
        if self.upgraded and spec.upgrade:
            return spec.upgrade.dice
        return spec.dice

    def target(self, line: RewardLine) -> str | None:
        """The fighter key for the reward, "*" for every fighter, "" for the gang, None:
        still to ask (the card gives it to "the fighter" and the log does not say who)."""
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

    def allows(self, action: str) -> bool:
        """Whether a key's operation applies now: upgrade, earned, skip, again."""
        if action == "upgrade":
            return self.has_upgrade and not self.deferred and not self.dice_rolled
        if action == "earned":
            # a roll decided it; otherwise n decides the next reward (or takes back the last)
            return not self.deferred and not self.test_roll and (
                not self.earned or bool(self.pending)
                or any(line.not_earned for line in self.lines))
        if action == "skip":
            return not self.deferred and self.earned and bool(self.pending)
        if action == "again":
            return not self.deferred and self.earned and any(
                not line.effect for line in self.lines)
        return True

    # --- the operations ------------------------------------------------------------

    def skip(self) -> bool:
        """The next pending reward does not apply. False when none is pending."""
        pending = self.pending
        if not pending:
            return False
        pending[0].skipped = True
        return True

    def again(self) -> bool:
        """The last reward (the last rolled, else the last of the card) once more."""
        last = [line for line in self.lines if not line.effect]
        if not last:
            return False
        done = [line for line in last if line.result is not None]
        self.lines.append(RewardLine.of((done or last)[-1].spec))
        self._resolve_fixed()
        return True

    def upgrade(self) -> None:
        """Switch to (or from) the upgraded reward: every reward planned again (not once
        a reward's dice are rolled: see :attr:`dice_rolled`)."""
        if self.dice_rolled:
            return
        self.upgraded = not self.upgraded
        for line in self.lines:
            line.result = None
        self._skip_from_log(every=True)
        self._skip_by_outcome()
        self._resolve_fixed()

    def toggle_earned(self) -> None:
        """``n``: one reward is not earned, the next still to roll (a reward already rolled
        and the others stay); with none left to roll, the last marked one is earned again.
        A card the log says was not earned at all is earned again."""
        if not self.earned:
            if not self.test_roll:  # a roll decided it
                self.earned = True
            return
        pending = self.pending
        if pending:
            pending[0].not_earned = True
            return
        marked = [line for line in self.lines if line.not_earned]
        if marked:
            marked[-1].not_earned = False
            self._resolve_fixed()

    def choose_fighter(self, line: RewardLine, key: str) -> None:
        """The fighter who gains ``line``'s reward (a reward without dice is then fixed)."""
        line.fighter = key
        self._resolve_fixed()

    def rolled(self, line: RewardLine, roll: Roll, target: str) -> None:
        """``line``'s dice were rolled (by the app or entered from real dice)."""
        line.result = self._reward(line, roll.total, roll.expression, tuple(roll.faces), target)

    def tested(self, roll: Roll) -> None:
        """The card's own roll: below its target, no reward."""
        self.test_roll = str(roll)
        self.test_passed = roll.total >= self.match.test_target
        if not self.test_passed:
            self.earned = False

    def banked(self) -> RevealResult:
        """What the reveal banks now (nothing when deferred or not earned)."""
        if self.deferred:
            return RevealResult(self.upgraded, ())
        if not self.earned:
            return RevealResult(False, ())
        return RevealResult(self.upgraded,
                            tuple(line.result for line in self.lines if line.result))

    def next(self) -> Ask:
        """What Enter does now."""
        if self.deferred:
            return Ask("record", self.banked())
        if self.earned and self.test_passed is None:
            return Ask("test", dice=self.match.test)
        if not self.earned:
            return Ask("record", self.banked())
        pending = self.pending
        if not pending:
            return Ask("record", self.banked())
        line = pending[0]
        target = self.target(line)
        if target is None:
            return Ask("fighter", line=line)
        return Ask("roll", line=line, dice=self.dice(line), target=target)

    # --- in words ------------------------------------------------------------------

    def text(self) -> list[str]:
        """The plan as the reveal shows it, one line each."""
        m = self.match
        out = []
        if self.deferred:
            out.append(f"Reward: walked {self.later} - "
                       + "; ".join(line.spec.describe() for line in self.lines))
        elif m.test and self.test_passed is None and self.earned:
            out.append(f"First the card's roll: {m.test}, {m.test_target}+ "
                       "to gain the reward ({key:reveal.next}: roll, by the app or real dice)")
        elif not self.earned:
            if self.test_roll and not self.test_passed:
                out.append(f"Roll {self.test_roll}: not {m.test_target}+, no reward")
            else:
                out.append("Reward: not earned ({key:reveal.earned} to change)")
        else:
            if self.mode == REWARD and m.earned is None:
                out.append("Earned? The log cannot tell: {key:reveal.earned} if the next reward's "
                           "condition was not met")
            if self.has_upgrade:
                out.append("Upgraded reward: " + ("yes" if self.upgraded else "no")
                           + ("  (its dice are rolled)" if self.dice_rolled
                              else "  (the log cannot tell: {key:reveal.upgrade} to switch)"
                              if m.upgraded is None else "  ({key:reveal.upgrade} to switch)"))
            if self.test_roll:
                out.append(f"Roll {self.test_roll}: {m.test_target}+, the reward is gained")
            for line in self.lines:
                if line.effect:
                    out.append(f"- effect (not banked): {line.spec.describe()}")
                elif line.decided:
                    out.append(f"- not earned ({line.decided}): {line.spec.describe()}")
                elif line.not_earned:
                    out.append(f"- not earned: {line.spec.describe()}  ({{key:reveal.earned}} to change)")
                elif line.skipped:
                    out.append(f"- skipped: {line.spec.describe()}")
                elif line.result is not None:
                    got = reward_text(line.result, self.state)
                    rolled = (f"  [{line.result.dice} {list(line.result.faces)}]"
                              if line.result.faces else "")
                    out.append(f"- {got}{rolled}")
                else:
                    out.append(f"- {line.spec.describe()}: to roll ({self.dice(line)})")
        return out

    def hint(self) -> str:
        """What the keys do now; each key named by its binding id (``{key:reveal.next}``),
        which the screen fills with the key in force (``widgets.keys.keys_text``)."""
        go, cancel = "{key:reveal.next}", "{key:reveal.cancel}: cancel"
        if not self.deferred and self.earned and self.test_passed is None:
            return f"{go}: roll {self.match.test} ({self.match.test_target}+)   {cancel}"
        if self.deferred or not self.earned or not self.pending:
            return f"{go}: record   {cancel}"
        return f"{go}: roll the next reward (app or real dice)   {{key:reveal.skip}}: skip it   {cancel}"

    # --- inside --------------------------------------------------------------------

    def _skip_from_log(self, every: bool = False) -> None:
        """The rewards the log says do not apply, skipped (of the card's own times; with
        ``every``, the rewards added once more are planned again too)."""
        n = len(self.card.rewards)
        for i, line in enumerate(self.lines):
            if every:
                line.skipped = i < n * max(1, self.match.times) and i % n in self.match.skip
            elif i % n in self.match.skip:
                line.skipped = True

    def _skip_by_outcome(self) -> None:
        """A reward gained only if the gang wins (or loses) is not asked once the log says
        how the battle ended: it is not earned, and says why."""
        st = self.state
        if not st.ended:
            return
        gang = self.match.gang
        won, lost = st.winner == gang, bool(st.winner) and st.winner != gang
        why = "your gang won" if won else "your gang lost" if lost else "a draw"
        for line in self.lines:
            want = line.spec.outcome
            if want and line.result is None and not (won if want == "win" else lost):
                line.skipped, line.decided = True, why

    def _resolve_fixed(self) -> None:
        """Rewards without dice (e.g. '2 Gang Tactics') need no roll."""
        for line in self.lines:
            if line.done:
                continue
            expr = parse_dice(self.dice(line))
            target = self.target(line)
            if not expr.dice and target is not None:
                line.result = self._reward(line, expr.minimum, self.dice(line), (), target)

    def _reward(self, line: RewardLine, total: int, dice: str, faces: tuple[int, ...],
                target: str) -> Reward:
        amount = -total if line.spec.penalty else total
        return Reward(line.spec.kind, amount, fighter=target, dice=dice, faces=faces,
                      note=line.spec.note)
