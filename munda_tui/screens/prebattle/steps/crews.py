"""Each gang's crew (Core Rules p145-146): Random, Custom or Hybrid selection, Reinforcements.

The crew half-made is the flow's (``PreBattle.crew_draft``, saved in the set-up after each
change): this panel shows it, asks, and hands every decision to the flow.
"""

from __future__ import annotations

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from munda_tui.widgets.keys import key_for, keys_text
from munda_tui.widgets.plain import OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.rules.prebattle import flow as pre
from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.campaign.career import status_text
from munda_tui.rules.core.model import Fighter, Gang
from munda_tui.rules.core.readings import note as reading_note
from munda_tui.rules.core.wording import plural
from munda_tui.rules.prebattle.setup import CrewMember, SideSetup
from munda_tui.screens.common.dialogs import LineScreen, PickOneScreen, picks
from munda_tui.screens.prebattle.modals import DealtCardsModal
from munda_tui.screens.prebattle.steps.base import StepPanel
from munda_tui.screens.common.dice_prompt import DiceOutcome, DicePrompt


class CrewStep(StepPanel):
    BINDINGS = [
        Binding("space", "choose", "Choose", id="crew_step.toggle"),
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

    # state (all of it the flow's) ------------------------------------------------------

    @property
    def side(self) -> SideSetup:
        return self.setup.sides[self.side_i]

    @property
    def gang_id(self) -> str:
        return self.side.gang

    @property
    def gang(self) -> Gang:
        return self.flow.gang(self.side.gang)

    @property
    def method(self) -> sc.CrewMethod:
        return self.flow.crew_method(self.gang_id)

    @property
    def reinf_size(self) -> str:
        return self.flow.reinforcement_size(self.gang_id)

    def _amount(self, which: str) -> int | None:
        return self.flow.crew_amount(self.gang_id, which)

    def _open_side(self, i: int) -> None:
        self.side_i = i
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
        return self.flow.crew_done(self.gang_id)

    def _fighter_prompt(self, f: Fighter) -> str:
        kind = f.label or f.type.value
        if not f.can_fight:
            return f"     {f.name} ({kind}) — {status_text(f)}: cannot take part"
        member = next((m for m in self.side.crew if m.fighter == f.id), None)
        in_deck = any(m.fighter == f.id for m in self.side.reinforcements)
        pick = self.flow.crew_pick(self.gang_id, f.id)
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
        entry = self.flow.crew_entry()
        method = self.method
        reinf_size = self.reinf_size
        pick_n, deal_n = self.flow.crew_counts(g.id)
        head = [
            f"Crew {self.side_i + 1} of {len(self.setup.sides)}: {g.name} ({role}) — "
            f"{self.setup.crew_table}: {method.label}"
        ]
        # the note reads the table's own method: once a player adjusts it (m), it is stale
        if entry is not None and entry.note and sc.crew_plans(entry)[role].method.label == method.label:
            head.append(f"Reading note: {entry.note}")
        if reinf_size:
            # once the crew is chosen the deck is dealt: what it holds, not the table's X
            # (a gang with no fighter left over has an empty deck)
            held = (f", {len(self.side.reinforcements)} in the deck"
                    if self.flow.crew_done(g.id) else "")
            head.append(
                f"Reinforcements ({reinf_size}{held}): {self.setup.reinforcements_each_round} "
                f"arrive each round from round {self.setup.reinforcements_from_round}"
            )
        self.query_one("#crew-head", Static).update("\n".join(head))
        ol = self.query_one("#crew-fighters", OptionList)
        for f in g.fighters:
            ol.replace_option_prompt(f"f-{f.id}", Text(self._fighter_prompt(f)))
        lines = []
        method_text = sc.rules_text()["methods"][method.kind]
        lines.append(f"{method_text['name']} ({method_text['label']}, Core Rules p{method_text['page']})")
        amounts = [f"X = {self._amount_text('x')}"]
        if method.kind == "hybrid":
            amounts.append(f"Y = {self._amount_text('y')}")
        lines.append("   ".join(amounts))
        revealed = pre.revealed_subplots(self.side, self.flow)
        if revealed:
            lines.append("Revealed at Choose Crew: " + "; ".join(revealed))
        reduction = sc.crew_reduction(self.side, self.flow.data)
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
            if reinf_size:
                lines.append(f"Reinforcements deck ({len(self.side.reinforcements)}, in order):")
                lines.extend(
                    f"  {self.flow.fighter_label(g.id, m.fighter, m.loadout)}"
                    for m in self.side.reinforcements
                )
            help_text = keys_text(self, "[c] starting crew · [r] Reinforcements deck · "
                                        "{key:pre_battle.next_step}: next · {key:crew_step.redo}: redo this crew")
        else:
            x, y = self._amount("x"), self._amount("y")
            if x is not None:
                if pick_n:
                    lines.append(f"Chosen: {len(self.flow.crew_picks(g.id))} of {pick_n}")
                if deal_n:
                    lines.append(f"To deal from the shuffled rest: {deal_n}")
            keys = []
            if x is None:
                keys.append("{key:crew_step.amount-x}: roll X")
            if method.kind == "hybrid" and y is None:
                keys.append("{key:crew_step.amount-y}: roll Y")
            if pick_n:
                keys.append("{key:crew_step.toggle}: choose · {key:crew_step.loadout}: model card")
            if deal_n or reinf_size:
                keys.append("{key:crew_step.deal}: deal · {key:crew_step.real_cards}: enter real cards")
            else:
                keys.append("{key:pre_battle.next_step}: confirm")
            keys.append("{key:crew_step.method}: adjust method")
            help_text = keys_text(self, "[x] chosen · " + " · ".join(keys))
        self.query_one("#crew-result", Static).update("\n".join(lines))
        self.query_one("#crew-help", Static).update(help_text)
        self.refresh_bindings()

    def _amount_text(self, which: str) -> str:
        expr = self.flow.amount_expr(self.gang_id, which)
        value = self._amount(which)
        if sc.is_fixed(expr):
            return expr
        if value is None:
            return f"{expr} (press {key_for(self, f'crew_step.amount-{which}')} to roll)"
        return f"{expr} → {value}"

    def _changed(self) -> None:
        """The draft (or the crew) changed: saved, and shown."""
        self.changed()
        self._redraw()

    # actions ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that mean something now."""
        if not hasattr(self, "side_i"):
            return True
        method = self.method
        if action == "redo":
            return self._done()
        if action == "subplots":
            return bool(self.setup.subplots and self.side.hand)
        if self._done() and action in ("choose", "loadout", "amount", "deal", "real_cards", "method"):
            return False
        if action == "amount":
            which = str(parameters[0]) if parameters else "x"
            expr = self.flow.amount_expr(self.gang_id, which)
            return bool(expr) and not sc.is_fixed(expr)
        if action in ("choose", "loadout"):
            if method.kind == "random":
                return False
            if action == "loadout":
                return any(len(sc.model_cards(f)) > 1 for f in sc.eligible(self.gang))
        if action in ("deal", "real_cards"):
            return method.kind != "custom" or bool(self.reinf_size)
        return True

    def _highlighted(self) -> Fighter | None:
        ol = self.query_one("#crew-fighters", OptionList)
        if ol.highlighted is None:
            return None
        return self.gang.fighters[ol.highlighted]

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_choose()

    def action_choose(self) -> None:
        f = self._highlighted()
        if f is None or not f.can_fight or self._done():
            return
        problem = self.flow.toggle_pick(self.gang_id, f.id)
        if problem:
            self.say(keys_text(self, problem), severity="warning")
            return
        self._changed()

    def action_loadout(self) -> None:
        f = self._highlighted()
        pick = self.flow.crew_pick(self.gang_id, f.id) if f is not None else None
        if f is None or pick is None:
            return
        cards = sc.model_cards(f)
        if len(cards) < 2:
            self.say(f"{f.name} has one model card.")
            return

        def done(i: int | None) -> None:
            if i is not None:
                self.flow.choose_card(self.gang_id, f.id, cards[i])
                self._changed()

        self.ask(
            PickOneScreen(f"Model card for {f.name}",
                          picks([c or f"{f.name} (own card)" for c in cards]), cancel_label="Back"),
            done,
        )

    def action_amount(self, which: str, reason: str = "") -> None:
        gang_id = self.gang_id
        expr = self.flow.amount_expr(gang_id, which)
        if not expr or sc.is_fixed(expr):
            return
        label = f"{self.method.label}: {which.upper()} for {self.gang.name}"
        if self._amount(which) is not None and not reason:
            # rolled already: a second press re-rolls only with a reason, kept in the record
            self.ask_reroll(label, self.flow.amount_record(gang_id, which),
                            lambda why: self.action_amount(which, why))
            return
        values = self.flow.amount_values(gang_id, which)

        def done(outcome: DiceOutcome | None) -> None:
            if outcome is None:
                return
            if outcome.how == "chosen":
                self.flow.set_amount(gang_id, which, values[outcome.choice or 0], "chosen", None, reason)
            else:
                assert outcome.roll is not None
                self.flow.set_amount(gang_id, which, outcome.roll.total, outcome.how, outcome.roll, reason)
            self._changed()

        self.ask(
            DicePrompt(
                expr,
                title=label,
                rng=self.rng,
                who=self.gang.name,
                choices=[str(v) for v in values],
                prefer_entry=self.flow.prefer_dice,
            ),
            done,
        )

    def _ready(self) -> str:
        problems = self.flow.crew_problems(self.gang_id)
        return keys_text(self, problems[0]) if problems else ""

    def _choose_crew(self, crew: list[CrewMember], deck: list[CrewMember]) -> None:
        self.flow.commit_crew(self.gang_id, crew, deck)
        self._changed()
        self._apply_reduction()

    def _apply_reduction(self) -> None:
        """A revealed Contempt for the Weak takes the number chosen off the crew: the
        player marks which fighters leave it."""
        n = sc.crew_reduction_due(self.side, self.flow.data)
        if not n:
            return
        limit = sc.crew_reduction_limit(self.gang, self.flow.crew_size(self.gang_id))
        if n > limit:
            card_id = sc.crew_reduction(self.side, self.flow.data)[0]  # type: ignore[index]
            self.say(f"At most {limit} for this crew: choose the number again.", severity="warning")
            del self.side.subplot_choices[card_id]
            self._changed()
            self.action_subplots()
            return
        crew = list(self.side.crew)
        side, gang = self.side, self.gang

        def done(marked: list[int] | None) -> None:
            if marked is None:
                self._redraw()
                return
            try:
                sc.reduce_crew(side, gang, [crew[i].fighter for i in marked], self.flow.data)
            except sc.CrewError as error:
                self.say(str(error), severity="error")
                return
            self._changed()

        self.ask(
            DealtCardsModal(f"Contempt for the Weak: mark the {plural(n, 'fighter')} who leave the crew",
                            [self.flow.fighter_label(self.gang.id, m.fighter, m.loadout)
                             for m in crew], n),
            done,
        )

    def action_deal(self) -> None:
        problem = self._ready()
        if problem:
            self.say(problem, severity="warning")
            return
        try:
            self.flow.deal_crew(self.gang_id, self.rng)
        except sc.CrewError as error:
            self.say(str(error), severity="error")
            return
        self._changed()
        self._apply_reduction()

    @work(group="dialog")
    async def action_real_cards(self) -> None:
        """t: the crew, then its Reinforcements deck, marked as dealt from the real deck
        (one dialog after the other; Escape in either changes nothing)."""
        problem = self._ready()
        if problem:
            self.say(problem, severity="warning")
            return
        gang_id, gang = self.gang_id, self.gang
        _, deal_n = self.flow.crew_counts(gang_id)
        options = self.flow.cards_left(gang_id, self.flow.crew_picks(gang_id))
        label = lambda m: self.flow.fighter_label(gang_id, m.fighter, m.loadout)  # noqa: E731

        try:
            if deal_n:  # a Random or Hybrid crew: first the model cards dealt
                marked = await self.answer(
                    DealtCardsModal(f"{gang.name}: mark the {deal_n} model cards you dealt",
                                    [label(m) for m in options], deal_n))
                if marked is None:
                    return
                crew = self.flow.select_crew(gang_id, dealt=[options[i] for i in marked])
            else:
                crew = self.flow.select_crew(gang_id)
        except sc.CrewError as error:
            self.say(str(error), severity="error")
            return
        if not self.flow.reinforcement_size(gang_id):
            self._choose_crew(crew, [])
            return
        opts = self.flow.cards_left(gang_id, crew)
        n = min(self.flow.reinforcements_count(gang_id, self.rng), len({m.fighter for m in opts}))
        marked = await self.answer(
            DealtCardsModal(f"Reinforcements deck for {gang.name}: mark the {n} dealt, in order",
                            [label(m) for m in opts], n))
        if marked is None:
            return
        try:
            deck = sc.reinforcements_deck(gang, crew, n, dealt=[opts[i] for i in marked])
        except sc.CrewError as error:
            self.say(str(error), severity="error")
            return
        self._choose_crew(crew, deck)

    def action_method(self) -> None:
        def check(text: str) -> str:
            try:
                sc.parse_method(text)
            except sc.CrewError as error:
                return keys_text(self, str(error))
            return ""

        def done(text: str | None) -> None:
            if text is None:
                return
            self.flow.set_crew_method(self.gang_id, text)
            self.changed()
            self._open_side(self.side_i)

        self.ask(
            LineScreen(
                f"Crew method for {self.gang.name}",
                value=self.method.label,
                detail="Random (X), Custom (X) or Hybrid (X+Y); X and Y may be dice, e.g. "
                       "Hybrid (3+D3).",
                check=check,
                allow_empty=True,  # the check says what an empty method lacks
                hint="Enter to confirm, {key:line.cancel} to go back",
                cancel_label="Back",
            ),
            done,
        )

    @work(group="dialog")
    async def action_subplots(self) -> None:
        """Choose Crew: the owner (alone, behind the curtain) sees the Sub-plots
        revealed or secretly chosen now, and makes the choice each asks, one card after
        the other (Escape on a card leaves its choice for later)."""
        from munda_tui.rules.subplots import decks as sp
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

        offered = [c for c in sp.cards_offered_at(side.hand, "choose_crew", self.flow.data)
                   if c.id not in side.subplot_choices]

        if not await self.answer(PrivacyCurtain(owner, "to see your Sub-plots at Choose Crew")):
            return
        if not offered:
            self.say("None of your Sub-plots is revealed or chosen at Choose Crew.")
            return
        for card in offered:
            bounds, bounds_note = None, ""
            if card.choice == sc.CREW_REDUCTION:  # "by up to half the number of models..."
                bounds = (0, sc.crew_reduction_limit(gang, self.flow.crew_size(self.gang_id)))
                bounds_note = reading_note("contempt-for-the-weak")
            value = await self.answer(
                SubplotChoiceScreen(card.id, owner, members(gang, side.crew),
                                    members(enemy, enemy_side.crew), self.rng,
                                    moment="choose_crew", bounds=bounds,
                                    bounds_note=bounds_note))
            if value is not None:
                side.subplot_choices[card.id] = value
                self._changed()
        self._apply_reduction()

    def action_redo(self) -> None:
        self.flow.redo_crew(self.gang_id)
        self.changed()
        self._open_side(self.side_i)

    def finish(self) -> str | None:
        gang_id = self.gang_id
        if not self._done():
            problem = self._ready()
            if problem:
                return problem
            if self.flow.needs_cards(gang_id):
                return (f"Deal the cards: {key_for(self, 'crew_step.deal')} (munda-tui deals) or "
                        f"{key_for(self, 'crew_step.real_cards')} (enter the real cards).")
            try:
                crew = self.flow.select_crew(gang_id)
            except sc.CrewError as error:
                return keys_text(self, str(error))
            self._choose_crew(crew, [])  # asks who leaves the crew, if a Sub-plot reduces it
            if sc.crew_reduction_due(self.side, self.flow.data):
                return "Contempt for the Weak: mark who leaves the crew first."
        elif sc.crew_reduction_due(self.side, self.flow.data):
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
