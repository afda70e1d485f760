"""Each gang's crew (Core Rules p145-146): Random, Custom or Hybrid selection, Reinforcements."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.rules import prebattle as pre
from munda_tui.rules import scenario as sc
from munda_tui.rules import subplots as sp
from munda_tui.rules.career import status_text
from munda_tui.rules.dice import parse
from munda_tui.rules.readings import note as reading_note
from munda_tui.rules.setup import CrewMember, SideSetup
from munda_tui.screens.prebattle.modals import ChoiceModal, DealtCardsModal, TextModal
from munda_tui.screens.prebattle.steps.base import StepPanel, replace_roll
from munda_tui.widgets.dice_prompt import DiceOutcome, DicePrompt


class CrewStep(StepPanel):
    BINDINGS = [
        Binding("space", "toggle", "Choose", id="crew_step.toggle"),
        Binding("l", "loadout", "Card", id="crew_step.loadout"),
        Binding("x", "amount('x')", "Roll X", id="crew_step.amount-x"),
        Binding("y", "amount('y')", "Roll Y", id="crew_step.amount-y"),
        Binding("d", "deal", "Deal", id="crew_step.deal"),
        Binding("t", "real_cards", "Real cards", id="crew_step.real_cards"),
        Binding("m", "method", "Method", id="crew_step.method"),
        Binding("u", "redo", "Redo crew", id="crew_step.redo"),
        Binding("p", "subplots", "Sub-plots (private)", id="crew_step.subplots"),
    ]

    def compose(self) -> ComposeResult:
        yield Static("", id="crew-head", markup=False)
        with Horizontal(id="crew-row"):
            yield OptionList(id="crew-fighters")
            with VerticalScroll(id="crew-scroll"):
                yield Static("", id="crew-result", markup=False)
        yield Static("", id="crew-help", classes="hint", markup=False)

    def on_mount(self) -> None:
        sides = self.setup.sides
        undone = [i for i, s in enumerate(sides) if not s.crew]
        self._open_side(undone[0] if undone else len(sides) - 1)

    # state ---------------------------------------------------------------------------

    @property
    def side(self) -> SideSetup:
        return self.setup.sides[self.side_i]

    @property
    def gang(self):  # type: ignore[no-untyped-def]
        return self.flow.gang(self.side.gang)

    def _entry(self):  # type: ignore[no-untyped-def]
        try:
            return self.flow.tables["crew"].entry(self.setup.crew_table)
        except KeyError:
            return None

    def _open_side(self, i: int) -> None:
        self.side_i = i
        try:
            self.method = sc.parse_method(self.side.crew_method)
        except sc.CrewError:
            self.method = sc.CrewMethod("custom", "10")
        entry = self._entry()
        self.reinf_size = sc.reinforcement_size(self.setup, entry, self.side.gang) if entry else ""
        self.x: int | None = sc.fixed_value(self.method.x) if sc.is_fixed(self.method.x) else None
        self.y: int | None = None
        if self.method.kind == "hybrid":
            self.y = sc.fixed_value(self.method.y) if sc.is_fixed(self.method.y) else None
        self.amount_rolls: list[dict[str, Any]] = []
        self.picks: list[CrewMember] = []
        if self.side.crew:
            self.picks = []  # the crew is decided: show it
        ol = self.query_one("#crew-fighters", OptionList)
        ol.clear_options()
        for f in self.gang.fighters:
            ol.add_option(Option(Text(self._fighter_prompt(f)), id=f"f-{f.id}", disabled=not f.can_fight))
        first = next((k for k, f in enumerate(self.gang.fighters) if f.can_fight), None)
        if first is not None:
            ol.highlighted = first
        ol.focus()
        self._redraw()

    def _done(self) -> bool:
        return bool(self.side.crew)

    def _counts(self) -> tuple[int, int]:
        return sc.expected_counts(self.gang, self.method, self.x or 0, self.y or 0)

    def _pick_of(self, fighter_id: str) -> CrewMember | None:
        return next((m for m in self.picks if m.fighter == fighter_id), None)

    def _fighter_prompt(self, f) -> str:  # type: ignore[no-untyped-def]
        kind = f.label or f.type.value
        if not f.can_fight:
            return f"     {f.name} ({kind}) — {status_text(f)}: cannot take part"
        member = next((m for m in self.side.crew if m.fighter == f.id), None)
        in_deck = any(m.fighter == f.id for m in self.side.reinforcements)
        pick = self._pick_of(f.id)
        if member is not None:
            mark = "[c]"
        elif in_deck:
            mark = "[r]"
        elif pick is not None:
            mark = "[x]"
        else:
            mark = "[ ]"
        chosen = member or pick
        cards = sc.model_cards(f)
        card = ""
        if chosen is not None and chosen.loadout:
            card = f" · {chosen.loadout}"
        elif len(cards) > 1:
            card = f" ({len(cards)} cards)"
        return f"{mark} {f.name} ({kind}){card}"

    def _redraw(self) -> None:
        g = self.gang
        role = sc.role_of(self.setup, g.id)
        entry = self._entry()
        pick_n, deal_n = self._counts()
        head = [
            f"Crew {self.side_i + 1} of {len(self.setup.sides)}: {g.name} ({role}) — "
            f"{self.setup.crew_table}: {self.method.label}"
        ]
        if entry is not None and entry.note:
            head.append(f"Reading note: {entry.note}")
        if self.reinf_size:
            head.append(
                f"Reinforcements ({self.reinf_size}): {self.setup.reinforcements_each_round} arrive "
                f"each round from round {self.setup.reinforcements_from_round}"
            )
        self.query_one("#crew-head", Static).update("\n".join(head))
        ol = self.query_one("#crew-fighters", OptionList)
        for f in g.fighters:
            ol.replace_option_prompt(f"f-{f.id}", Text(self._fighter_prompt(f)))
        lines = []
        method_text = sc.rules_text()["methods"][self.method.kind]
        lines.append(f"{method_text['name']} ({method_text['label']}, Core Rules p{method_text['page']})")
        amounts = [f"X = {self._amount_text('x')}"]
        if self.method.kind == "hybrid":
            amounts.append(f"Y = {self._amount_text('y')}")
        lines.append("   ".join(amounts))
        revealed = pre.revealed_subplots(self.side, self.flow)
        if revealed:
            lines.append("Revealed at Choose Crew: " + "; ".join(revealed))
        reduction = sc.crew_reduction(self.side)
        if reduction is not None and reduction[1]:
            if self.side.crew_removed:
                names = ", ".join(self.flow.fighter_label(g.id, f) for f in self.side.crew_removed)
                lines.append(f"Crew reduced by {len(self.side.crew_removed)}: {names}")
            else:
                lines.append(f"Crew to be reduced by {reduction[1]} once chosen (n asks which)")
            lines.append(reading_note("contempt-for-the-weak"))
        if self._done():
            lines.append("")
            lines.append(f"Starting crew ({len(self.side.crew)}):")
            lines.extend(
                f"  {self.flow.fighter_label(g.id, m.fighter, m.loadout)}" for m in self.side.crew
            )
            if self.reinf_size:
                lines.append(f"Reinforcements deck ({len(self.side.reinforcements)}, in order):")
                lines.extend(
                    f"  {self.flow.fighter_label(g.id, m.fighter, m.loadout)}"
                    for m in self.side.reinforcements
                )
            help_text = "[c] starting crew · [r] Reinforcements deck · n: next · u: redo this crew"
        else:
            if self.x is not None:
                if pick_n:
                    lines.append(f"Chosen: {len(self.picks)} of {pick_n}")
                if deal_n:
                    lines.append(f"To deal from the shuffled rest: {deal_n}")
            keys = []
            if self.x is None:
                keys.append("x: roll X")
            if self.method.kind == "hybrid" and self.y is None:
                keys.append("y: roll Y")
            if pick_n:
                keys.append("space: choose · l: model card")
            if deal_n or self.reinf_size:
                keys.append("d: deal · t: enter real cards")
            else:
                keys.append("n: confirm")
            keys.append("m: adjust method")
            help_text = "[x] chosen · " + " · ".join(keys)
        self.query_one("#crew-result", Static).update("\n".join(lines))
        self.query_one("#crew-help", Static).update(help_text)
        self.refresh_bindings()

    def _amount_text(self, which: str) -> str:
        expr = self.method.x if which == "x" else self.method.y
        value = self.x if which == "x" else self.y
        if sc.is_fixed(expr):
            return expr
        if value is None:
            return f"{expr} (press {which} to roll)"
        return f"{expr} → {value}"

    # actions ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that mean something now."""
        if not hasattr(self, "method"):
            return True
        if action == "redo":
            return self._done()
        if action == "subplots":
            return bool(self.setup.subplots and self.side.hand)
        if self._done() and action in ("toggle", "loadout", "amount", "deal", "real_cards", "method"):
            return False
        if action == "amount":
            which = str(parameters[0]) if parameters else "x"
            expr = self.method.x if which == "x" else self.method.y
            return bool(expr) and not sc.is_fixed(expr)
        if action in ("toggle", "loadout"):
            if self.method.kind == "random":
                return False
            if action == "loadout":
                return any(len(sc.model_cards(f)) > 1 for f in sc.eligible(self.gang))
        if action in ("deal", "real_cards"):
            return self.method.kind != "custom" or bool(self.reinf_size)
        return True

    def _highlighted(self):  # type: ignore[no-untyped-def]
        ol = self.query_one("#crew-fighters", OptionList)
        if ol.highlighted is None:
            return None
        return self.gang.fighters[ol.highlighted]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_toggle()

    def action_toggle(self) -> None:
        f = self._highlighted()
        if f is None or not f.can_fight or self._done():
            return
        if self.x is None:
            self.say("Roll X first (x).", severity="warning")
            return
        pick_n, _ = self._counts()
        existing = self._pick_of(f.id)
        if existing is not None:
            self.picks.remove(existing)
        elif not pick_n:
            self.say(f"{self.method.label} deals the whole crew: press d.", severity="warning")
            return
        elif len(self.picks) >= pick_n:
            self.say(f"{pick_n} already chosen.", severity="warning")
            return
        else:
            self.picks.append(CrewMember(f.id, ""))
        self._redraw()

    def action_loadout(self) -> None:
        f = self._highlighted()
        pick = self._pick_of(f.id) if f is not None else None
        if f is None or pick is None:
            return
        cards = sc.model_cards(f)
        if len(cards) < 2:
            self.say(f"{f.name} has one model card.")
            return

        def done(i: int | None) -> None:
            if i is not None:
                idx = self.picks.index(pick)
                self.picks[idx] = CrewMember(f.id, cards[i])
                self._redraw()

        self.ask(
            ChoiceModal(f"Model card for {f.name}", [c or f"{f.name} (own card)" for c in cards]),
            done,
        )

    def action_amount(self, which: str, reason: str = "") -> None:
        expr = self.method.x if which == "x" else self.method.y
        if not expr or sc.is_fixed(expr):
            return
        if (self.x if which == "x" else self.y) is not None and not reason:
            # rolled already: a second press re-rolls only with a reason, kept in the record
            rec = sc.find_roll(self.amount_rolls, f"crew_{which}", self.side.gang)
            self.ask_reroll(f"{self.method.label}: {which.upper()} for {self.gang.name}", rec,
                        lambda why: self.action_amount(which, why))
            return
        parsed = parse(expr)
        values = list(range(parsed.minimum, parsed.maximum + 1))
        gang_name = self.gang.name

        def done(outcome: DiceOutcome | None) -> None:
            if outcome is None:
                return
            if outcome.how == "chosen":
                value = values[outcome.choice or 0]
                rec = {"table": f"crew_{which}", "label": f"Crew {which.upper()} ({gang_name})",
                       "by": self.side.gang, "how": "chosen", "result": str(value), "roll": str(value)}
            else:
                assert outcome.roll is not None
                value = outcome.roll.total
                rec = {"table": f"crew_{which}", "label": f"Crew {which.upper()} ({gang_name})",
                       "by": self.side.gang, "how": outcome.how, "result": str(value),
                       "roll": str(value), "dice": outcome.roll.expression,
                       "faces": list(outcome.roll.faces), "total": outcome.roll.total}
            if which == "x":
                self.x = value
                self.picks = self.picks[: self._counts()[0]]
            else:
                self.y = value
            self.amount_rolls = sc.replace_roll(self.amount_rolls, rec, reason)
            self._redraw()

        self.ask(
            DicePrompt(
                expr,
                title=f"{self.method.label}: {which.upper()} for {gang_name}",
                rng=self.rng,
                who=f"{gang_name}",
                choices=[str(v) for v in values],
                prefer_entry=self.flow.prefer_dice,
            ),
            done,
        )

    def _ready(self) -> str:
        if self.x is None:
            return "Roll X first (x)."
        if self.method.kind == "hybrid" and self.y is None:
            return "Roll Y first (y)."
        pick_n, _ = self._counts()
        if len(self.picks) != pick_n:
            return f"Choose {pick_n} fighter(s) first (space), {len(self.picks)} chosen."
        return ""

    def _reinf_n(self) -> int:
        if not self.reinf_size:
            return 0
        value, r = sc.resolve_amount(self.reinf_size, rng=self.rng)
        if r is not None:
            self.amount_rolls.append({"table": "reinforcements", "by": self.side.gang, "how": "app",
                                      "label": f"Reinforcements ({self.gang.name})",
                                      "dice": r.expression, "faces": list(r.faces), "total": r.total,
                                      "result": str(value), "roll": str(value)})
        return value

    def _commit(self, crew: list[CrewMember], deck: list[CrewMember]) -> None:
        self.side.crew = crew
        self.side.reinforcements = deck
        for rec in self.amount_rolls:
            replace_roll(self.setup, rec, "crew chosen again")
        self.picks = []
        self.changed()
        self._redraw()
        self._apply_reduction()

    def _crew_size(self) -> int:
        """The crew "as determined by the scenario": the chosen crew, else the counts."""
        if self.side.crew:
            return len(self.side.crew) + len(self.side.crew_removed)
        if self.x is None:
            return sc.gang_models(self.gang)
        return sum(self._counts())

    def _apply_reduction(self) -> None:
        """A revealed Contempt for the Weak takes the number chosen off the crew: the
        player marks which fighters leave it."""
        n = sc.crew_reduction_due(self.side)
        if not n:
            return
        limit = sc.crew_reduction_limit(self.gang, self._crew_size())
        if n > limit:
            card_id = sc.crew_reduction(self.side)[0]  # type: ignore[index]
            self.say(f"At most {limit} for this crew: choose the number again.",
                            severity="warning")
            del self.side.subplot_choices[card_id]
            self.changed()
            self._redraw()
            self.action_subplots()
            return
        crew = list(self.side.crew)

        def done(marked: list[int] | None) -> None:
            if marked is None:
                self._redraw()
                return
            try:
                sc.reduce_crew(self.side, self.gang, [crew[i].fighter for i in marked])
            except sc.CrewError as error:
                self.say(str(error), severity="error")
                return
            self.changed()
            self._redraw()

        self.ask(
            DealtCardsModal(f"Contempt for the Weak: mark the {n} fighter(s) who leave the crew",
                            [self.flow.fighter_label(self.gang.id, m.fighter, m.loadout)
                             for m in crew], n),
            done,
        )

    def action_deal(self) -> None:
        problem = self._ready()
        if problem:
            self.say(problem, severity="warning")
            return
        rng = self.rng
        try:
            crew = sc.select_crew(self.gang, self.method, self.x or 0, self.y or 0, self.picks, rng=rng)
            deck = sc.reinforcements_deck(self.gang, crew, self._reinf_n(), rng=rng) if self.reinf_size else []
        except sc.CrewError as error:
            self.say(str(error), severity="error")
            return
        self._commit(crew, deck)

    def _card_options(self, exclude: set[str]) -> list[CrewMember]:
        out = []
        for f in sc.eligible(self.gang):
            if f.id in exclude:
                continue
            out.extend(CrewMember(f.id, c) for c in sc.model_cards(f))
        return out

    def action_real_cards(self) -> None:
        problem = self._ready()
        if problem:
            self.say(problem, severity="warning")
            return
        _, deal_n = self._counts()
        picked = {m.fighter for m in self.picks}
        options = self._card_options(picked)
        label = lambda m: self.flow.fighter_label(self.gang.id, m.fighter, m.loadout)  # noqa: E731

        def reinforcements(crew: list[CrewMember]) -> None:
            if not self.reinf_size:
                self._commit(crew, [])
                return
            in_crew = {m.fighter for m in crew}
            opts = self._card_options(in_crew)
            n = min(self._reinf_n(), len({m.fighter for m in opts}))

            def got(marked: list[int] | None) -> None:
                if marked is None:
                    return
                try:
                    deck = sc.reinforcements_deck(
                        self.gang, crew, n, dealt=[opts[i] for i in marked]
                    )
                except sc.CrewError as error:
                    self.say(str(error), severity="error")
                    return
                self._commit(crew, deck)

            self.ask(
                DealtCardsModal(f"Reinforcements deck for {self.gang.name}: mark the {n} dealt, in order",
                                [label(m) for m in opts], n),
                got,
            )

        if deal_n == 0:
            try:
                crew = sc.select_crew(self.gang, self.method, self.x or 0, self.y or 0, self.picks)
            except sc.CrewError as error:
                self.say(str(error), severity="error")
                return
            reinforcements(crew)
            return

        def dealt(marked: list[int] | None) -> None:
            if marked is None:
                return
            try:
                crew = sc.select_crew(
                    self.gang, self.method, self.x or 0, self.y or 0, self.picks,
                    dealt=[options[i] for i in marked],
                )
            except sc.CrewError as error:
                self.say(str(error), severity="error")
                return
            reinforcements(crew)

        self.ask(
            DealtCardsModal(f"{self.gang.name}: mark the {deal_n} model cards you dealt",
                            [label(m) for m in options], deal_n),
            dealt,
        )

    def action_method(self) -> None:
        def check(text: str) -> str:
            try:
                sc.parse_method(text)
            except sc.CrewError as error:
                return str(error)
            return ""

        def done(text: str | None) -> None:
            if text is None:
                return
            self.side.crew_method = sc.parse_method(text).label
            self.changed()
            self._open_side(self.side_i)

        self.ask(
            TextModal(
                f"Crew method for {self.gang.name}",
                self.method.label,
                "Random (X), Custom (X) or Hybrid (X+Y); X and Y may be dice, e.g. Hybrid (3+D3).",
                check,
            ),
            done,
        )

    def action_subplots(self) -> None:
        """Choose Crew: the owner (alone, behind the curtain) sees the Sub-plots
        revealed or secretly chosen now, and makes the choice each asks."""
        from munda_tui.rules import subplots as sp
        from munda_tui.widgets.curtain import PrivacyCurtain
        from munda_tui.screens.prebattle.subplot_draw import SubplotChoiceScreen, player_label

        side = self.side
        gang = self.gang
        enemy_side = next(s for s in self.setup.sides if s is not side)
        enemy = self.flow.gang(enemy_side.gang)
        owner = player_label(gang)

        def members(g, crew):  # type: ignore[no-untyped-def]
            pool = [g.fighter(m.fighter) for m in crew] if crew else sc.eligible(g)
            return [(f.id, f.name) for f in pool]

        offered = [c for c in sp.cards_offered_at(side.hand, "choose_crew")
                   if c.id not in side.subplot_choices]

        def offer(cards: list) -> None:  # type: ignore[type-arg]
            if not cards:
                self._apply_reduction()
                return
            card = cards[0]

            def chosen(value: str | None) -> None:
                if value is not None:
                    side.subplot_choices[card.id] = value
                    self.changed()
                    self._redraw()
                offer(cards[1:])

            bounds, bounds_note = None, ""
            if card.choice == sc.CREW_REDUCTION:  # "by up to half the number of models..."
                bounds = (0, sc.crew_reduction_limit(gang, self._crew_size()))
                bounds_note = reading_note("contempt-for-the-weak")
            self.ask(
                SubplotChoiceScreen(card.id, owner, members(gang, side.crew),
                                    members(enemy, enemy_side.crew), self.rng,
                                    moment="choose_crew", bounds=bounds,
                                    bounds_note=bounds_note),
                chosen,
            )

        def ready(ok: bool | None) -> None:
            if not ok:
                return
            if not offered:
                self.say("None of your Sub-plots is revealed or chosen at Choose Crew.")
                return
            offer(offered)

        self.ask(PrivacyCurtain(owner, "to see your Sub-plots at Choose Crew"), ready)

    def action_redo(self) -> None:
        self.side.crew = []
        self.side.reinforcements = []
        self.side.crew_removed = []
        self.changed()
        self._open_side(self.side_i)

    def finish(self) -> str | None:
        if not self._done():
            pick_n, deal_n = self._counts()
            problem = self._ready()
            if problem:
                return problem
            if deal_n or self.reinf_size:
                return "Deal the cards: d (munda-tui deals) or t (enter the real cards)."
            try:
                crew = sc.select_crew(self.gang, self.method, self.x or 0, self.y or 0, self.picks)
            except sc.CrewError as error:
                return str(error)
            self._commit(crew, [])  # asks who leaves the crew, if a Sub-plot reduces it
            if sc.crew_reduction_due(self.side):
                return "Contempt for the Weak: mark who leaves the crew first."
        elif sc.crew_reduction_due(self.side):
            self._apply_reduction()
            return "Contempt for the Weak: mark who leaves the crew first."
        if self.side_i + 1 < len(self.setup.sides):
            self._open_side(self.side_i + 1)
            return ""
        return None

    def back(self) -> bool:
        if self.side_i > 0:
            self._open_side(self.side_i - 1)
            return True
        return False
