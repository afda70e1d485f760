"""The steps of the pre-battle flow, one panel each (see ``prebattle.py``).

Each panel shows a part of the ``BattleSetup`` and asks for the next
decision; the rules (``rules.scenario``) decide every result. ``finish()``
returns None when the flow may go on, or a message (possibly empty) when the
step stays; ``back()`` returns True when the panel went back internally.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Label, Markdown, OptionList, Static
from rich.text import Text
from textual.widgets.option_list import Option

from munda_tui.rules.career import status_text
from munda_tui.rules import prebattle as pre
from munda_tui.rules import scenario as sc
from munda_tui.rules import subplots as sp
from munda_tui.rules.dice import parse
from munda_tui.rules.setup import CrewMember, SideSetup
from munda_tui.widgets.dice_prompt import DiceOutcome, DicePrompt
from munda_tui.screens.prebattle.modals import ChoiceModal, DealtCardsModal, TextModal
from munda_tui.rules.readings import note as reading_note
from munda_tui.screens.common.typed_app import munda_app



STEP_TITLES = {
    "gangs": "Gangs",
    "battlefield": "Battlefield",
    "scenario": "Scenario",
    "pitch_black": "Pitch Black",
    "crews": "Crews",
    "side_jobs": "Side Jobs",
    "subplots": "Sub-plots",
    "summary": "Summary",
}


class StepPanel(Vertical):
    """One step of the flow. It reads and changes the flow (``rules.prebattle.PreBattle``)
    and tells its screen what to do by messages (save, go on, start the battle): it never
    calls the screen."""

    class Changed(Message):
        """A decision was made: the screen saves the set-up (the flow resumes here)."""

    class Next(Message):
        """The step is done: the screen checks it (``finish``) and shows the next one."""

    class StartBattle(Message):
        """The summary's s: the screen starts the battle if nothing is missing."""

    def __init__(self, flow: pre.PreBattle, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.flow = flow

    @property
    def setup(self):  # type: ignore[no-untyped-def]
        return self.flow.setup

    def finish(self) -> str | None:
        return None

    def back(self) -> bool:
        return False

    def changed(self) -> None:
        """Save after a decision (the flow resumes here after a restart)."""
        self.post_message(StepPanel.Changed())

    def next_step(self) -> None:
        self.post_message(StepPanel.Next())


def _replace_roll(setup, record: dict[str, Any], reason: str = "") -> None:  # type: ignore[no-untyped-def]
    """Keep one record per table and roller; a new decision keeps the old one and why."""
    setup.rolls = sc.replace_roll(setup.rolls, record, reason)


def _ask_reroll(step: "StepPanel", label: str, rec: dict[str, Any] | None,
                then: Any) -> None:
    """``R``: ask why a roll already made changes, then call ``then(reason)``."""
    from munda_tui.widgets.reroll import RerollReason

    was = f"{rec.get('result', '')} ({pre.how_text(rec, changes=False)})" if rec else "not rolled"

    def done(reason: str | None) -> None:
        if reason is not None:
            then(reason)

    step.app.push_screen(RerollReason(label, was), done)


# --- 1. gangs -----------------------------------------------------------------------


class GangsStep(StepPanel):
    BINDINGS = [Binding("a", "swap_attacker", "Swap attacker", id="gangs_step.swap_attacker")]

    def compose(self) -> ComposeResult:
        gangs = self.flow.campaign.gangs
        yield Static(
            "Who fights? The challenger rolls Deployment and Objective, the challenged "
            "player rolls Crew. Tab moves between the lists; a swaps attacker and defender.",
            classes="hint",
        )
        with Horizontal(id="gang-lists"):
            with Vertical():
                yield Label("Challenger", classes="title")
                yield OptionList(*[self._option(g) for g in gangs], id="challenger")
            with Vertical():
                yield Label("Challenged", classes="title")
                yield OptionList(*[self._option(g) for g in gangs], id="challenged")
        yield Static("", id="attacker", markup=False)
        yield Static("", id="tables-note", markup=False)

    @staticmethod
    def _option(g) -> Option:  # type: ignore[no-untyped-def]
        who = f" · {g.player}" if g.player else ""
        return Option(Text(f"{g.name} · {g.type.value}{who} · {g.rating}"))

    def on_mount(self) -> None:
        gangs = self.flow.campaign.gangs
        ids = [g.id for g in gangs]
        self.attacker_is_challenger = True
        ch, cd = 0, 1 if len(ids) > 1 else 0
        if self.setup is not None:
            if self.setup.challenger in ids:
                ch = ids.index(self.setup.challenger)
            if self.setup.challenged in ids:
                cd = ids.index(self.setup.challenged)
            self.attacker_is_challenger = sc.attacker_of(self.setup) == self.setup.challenger
        if ids:
            self.query_one("#challenger", OptionList).highlighted = ch
            self.query_one("#challenged", OptionList).highlighted = cd
        self.query_one("#challenger", OptionList).focus()
        self._tables_note()
        self._update()

    def _tables_note(self) -> None:
        short = self.flow.short_path
        lines = []
        for problem in self.flow.problems:
            where = short(str(problem.path))
            if problem.line is not None:
                where += f":{problem.line}" + (f":{problem.col}" if problem.col is not None else "")
            key = f" [{problem.key}]" if problem.key else ""
            lines.append(f"Table file not used: {where}{key} {problem.message}")
        for t in self.flow.tables.values():
            if t.origin:
                origin = ", ".join(short(o) for o in t.origin.split(", "))
                lines.append(f"{t.title} table from {origin}")
        note = self.query_one("#tables-note", Static)
        note.update("\n".join(lines))
        note.set_class(bool(self.flow.problems), "error-text")

    def _picked(self) -> tuple[str, str]:
        gangs = self.flow.campaign.gangs
        a = self.query_one("#challenger", OptionList).highlighted
        b = self.query_one("#challenged", OptionList).highlighted
        if a is None or b is None or not gangs:
            return "", ""
        return gangs[a].id, gangs[b].id

    def _update(self) -> None:
        ch, cd = self._picked()
        text = ""
        if ch and ch == cd:
            text = "Choose two different gangs."
        elif ch:
            att, dfn = (ch, cd) if self.attacker_is_challenger else (cd, ch)
            text = (
                f"Attacker: {self.flow.gang_name(att)}   Defender: {self.flow.gang_name(dfn)}"
                "   (a to swap)\n" + reading_note("attacker-default")
            )
        if len(self.flow.campaign.gangs) < 2:
            text = "The campaign needs two gangs for a battle: add a gang first."
        self.query_one("#attacker", Static).update(text)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._update()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id == "challenger":
            self.query_one("#challenged", OptionList).focus()
        else:
            self.next_step()

    def action_swap_attacker(self) -> None:
        self.attacker_is_challenger = not self.attacker_is_challenger
        self._update()

    def finish(self) -> str | None:
        ch, cd = self._picked()
        if len(self.flow.campaign.gangs) < 2:
            return "The campaign needs two gangs for a battle."
        if ch == cd:
            return "Choose two different gangs."
        attacker = ch if self.attacker_is_challenger else cd
        setup = self.setup
        if setup is None or (setup.challenger, setup.challenged) != (ch, cd):
            self.flow.setup = sc.new_setup(self.flow.number, ch, cd, attacker)
        elif setup.attacker != attacker:
            setup.attacker = attacker
            if setup.crew_table:
                try:
                    sc.apply_crew_entry(setup, self.flow.tables["crew"].entry(setup.crew_table))
                except KeyError:
                    setup.crew_table = ""
        return None


# --- 2. battlefield ----------------------------------------------------------------------


class BattlefieldStep(StepPanel):
    def compose(self) -> ComposeResult:
        self.fields = sc.battlefields()
        yield Static(
            "The battlefield (Core Rules p140). Enter chooses; Tunnel Warfare needs both "
            "players to agree.",
            classes="hint",
        )
        with Horizontal(id="bf-row"):
            yield OptionList(*[Option(Text(b["name"])) for b in self.fields], id="battlefields")
            with VerticalScroll(id="bf-scroll"):
                yield Static("", id="bf-text", markup=False)

    def on_mount(self) -> None:
        names = [b["name"] for b in self.fields]
        ol = self.query_one("#battlefields", OptionList)
        ol.highlighted = names.index(self.setup.battlefield) if self.setup.battlefield in names else 0
        ol.focus()
        self._show()

    def _show(self) -> None:
        i = self.query_one("#battlefields", OptionList).highlighted or 0
        b = self.fields[i]
        defender = self.flow.gang_name(
            self.setup.challenged if sc.attacker_of(self.setup) == self.setup.challenger else self.setup.challenger
        )
        first = f"Defender ({defender}) places terrain first."
        agree = "\nBoth players must agree." if b.get("both_agree") else ""
        reading = f"\n\n{reading_note(b['reading'])}" if b.get("reading") else ""
        self.query_one("#bf-text", Static).update(
            f"{b['name']} (Core Rules p{b['page']})\n\n{b['text']}\n\n{first}{agree}{reading}"
        )

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.next_step()

    def finish(self) -> str | None:
        i = self.query_one("#battlefields", OptionList).highlighted or 0
        self.setup.battlefield = self.fields[i]["name"]
        return None


# --- 3. scenario rolls -----------------------------------------------------------------------


class ScenarioStep(StepPanel):
    BINDINGS = [
        Binding("enter", "decide", "Roll / enter / choose", show=True, id="scenario_step.decide"),
        Binding("a", "roll_rest", "Roll the rest", id="scenario_step.roll_rest"),
        Binding("R", "reroll", "Re-roll / correct", id="scenario_step.reroll"),
    ]

    def rows(self) -> list[tuple[str, str]]:
        """(table, gang) per line: the tables whose data says this step rolls them."""
        return [(r.table, r.gang) for r in pre.rows(self.flow.tables, self.setup)]

    def compose(self) -> ComposeResult:
        yield Static(
            "Scenario generation (Core Rules p144-147). Enter on a line: roll it (r), enter "
            "real dice (e) or choose the result (c); a rolls everything still open; R "
            "re-rolls or corrects a line (asks why, keeps both).",
            classes="hint",
        )
        with Horizontal(id="sc-row"):
            yield OptionList(id="sc-rolls")
            with VerticalScroll(id="sc-scroll"):
                yield Static("", id="sc-detail", markup=False)

    def on_mount(self) -> None:
        self._refresh()
        ol = self.query_one("#sc-rolls", OptionList)
        ol.highlighted = 0
        ol.focus()
        self._detail()

    def _result(self, table_id: str, gang: str) -> str:
        return pre.result_of(self.setup, pre.Row(table_id, gang))

    def _record(self, table_id: str, by: str) -> dict[str, Any] | None:
        for r in self.setup.rolls:
            if r.get("table") == table_id and r.get("by") == by:
                return r
        return None

    def _roller(self, table_id: str, gang: str) -> str:
        return sc.roller_gang(self.flow.tables[table_id], self.setup, gang)

    def _prompt(self, table_id: str, gang: str) -> str:
        table = self.flow.tables[table_id]
        title = table.title if not gang else f"{table.title}"
        result = self._result(table_id, gang) or "— Enter to roll"
        who = self.flow.gang_name(self._roller(table_id, gang))
        return f"{title:<10} {who[:18]:<18} {result}"

    def _refresh(self) -> None:
        ol = self.query_one("#sc-rolls", OptionList)
        keep = ol.highlighted
        ol.clear_options()
        ol.add_options([Option(Text(self._prompt(t, g))) for t, g in self.rows()])
        if keep is not None:
            ol.highlighted = keep

    def _detail(self) -> None:
        i = self.query_one("#sc-rolls", OptionList).highlighted or 0
        table_id, gang = self.rows()[i]
        table = self.flow.tables[table_id]
        result = self._result(table_id, gang)
        who = self.flow.gang_name(self._roller(table_id, gang))
        lines = [f"{table.title} table ({table.dice}) — {who} rolls."]
        if table.origin:
            lines.append(f"From {table.origin}")
        if result:
            try:
                entry = table.entry(result)
            except KeyError:
                entry = None
            rec = self._record(table_id, self._roller(table_id, gang))
            lines.append("")
            lines.append(f"{entry.roll if entry else ''} {result}  ({pre.how_text(rec)})".strip())
            if entry is not None:
                lines.append(entry.text)
                if entry.note:
                    lines.append(f"\nReading note: {entry.note}")
                if table_id == "crew":
                    for side in self.setup.sides:
                        role = sc.role_of(self.setup, side.gang)
                        lines.append(f"{self.flow.gang_name(side.gang)} ({role}): {side.crew_method}")
                    if self.setup.reinforcements_rule:
                        lines.append(f"Reinforcements arrive: {self.setup.reinforcements_rule}")
                lines.append(f"\n{entry.reference}")
        else:
            lines.append("")
            lines.extend(f"{e.roll:>4}  {e.name}" for e in table.entries)
        self.query_one("#sc-detail", Static).update("\n".join(lines))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_decide()

    def action_decide(self, reason: str = "") -> None:
        i = self.query_one("#sc-rolls", OptionList).highlighted or 0
        table_id, gang = self.rows()[i]
        table = self.flow.tables[table_id]
        by = self._roller(table_id, gang)
        label = table.title if not gang else f"{table.title} for {self.flow.gang_name(gang)}"
        if self._result(table_id, gang) and not reason:  # Enter never re-rolls
            self.app.notify(f"{label} is rolled: {self._result(table_id, gang)}. R re-rolls "
                            "or corrects it (asks why; both are kept).")
            return

        def done(outcome: DiceOutcome | None) -> None:
            if outcome is None:
                return
            if outcome.how == "chosen":
                entry, r = table.entries[outcome.choice or 0], None
            else:
                assert outcome.roll is not None
                r, entry = outcome.roll, table.entry_for(outcome.roll.total)
            self._apply(table_id, gang, by, entry, outcome.how, r, reason)

        self.app.push_screen(
            DicePrompt(
                table.dice,
                title=label + (" (again)" if reason else ""),
                rng=munda_app(self).rng,
                who=f"{self.flow.gang_name(by)} rolls",
                choices=[f"{e.roll:>4}  {e.name}" for e in table.entries],
                prefer_entry=self.flow.prefer_dice,
            ),
            done,
        )

    def action_reroll(self) -> None:
        i = self.query_one("#sc-rolls", OptionList).highlighted or 0
        table_id, gang = self.rows()[i]
        if not self._result(table_id, gang):
            self.action_decide()
            return
        table = self.flow.tables[table_id]
        label = table.title if not gang else f"{table.title} for {self.flow.gang_name(gang)}"
        _ask_reroll(self, label, self._record(table_id, self._roller(table_id, gang)),
                    lambda reason: self.action_decide(reason))

    def _apply(self, table_id, gang, by, entry, how, r, reason="") -> None:  # type: ignore[no-untyped-def]
        s = self.setup
        table = self.flow.tables[table_id]
        pre.apply_result(s, pre.Row(table_id, gang), entry)
        label = table.title if not gang else f"{table.title} ({self.flow.gang_name(gang)})"
        _replace_roll(s, sc.record_roll(table, by, entry, how, r, label), reason)
        self.changed()
        self._refresh()
        self._detail()

    def action_roll_rest(self) -> None:
        for table_id, gang in self.rows():
            if not self._result(table_id, gang):
                table = self.flow.tables[table_id]
                r, entry = table.roll(munda_app(self).rng)
                self._apply(table_id, gang, self._roller(table_id, gang), entry, "app", r)

    def finish(self) -> str | None:
        missing = [
            self.flow.tables[t].title for t, g in self.rows() if not self._result(t, g)
        ]
        if missing:
            return "Still to roll: " + ", ".join(missing)
        return None


# --- 4. pitch black ----------------------------------------------------------------------------


class PitchBlackStep(StepPanel):
    BINDINGS = [Binding("R", "reroll", "Re-roll / correct", id="pitch_black_step.reroll")]

    def compose(self) -> ComposeResult:
        table = self.flow.tables["pitch_black"]
        yield Static(table.intro, classes="hint", markup=False)
        yield OptionList(
            Option(Text("No Pitch Black: the battle is fought in normal light")),
            Option(Text("Both players agree: roll on the Pitch Black table")),
            id="pb-choice",
        )
        yield Static("", id="pb-result", markup=False)

    def on_mount(self) -> None:
        ol = self.query_one("#pb-choice", OptionList)
        ol.highlighted = 1 if self.setup.pitch_black else 0
        ol.focus()
        self._show()

    def _show(self) -> None:
        table = self.flow.tables["pitch_black"]
        lines = [f"{table.title} table ({table.dice}, {table.source} p{table.page}):"]
        lines.extend(f"{e.roll:>4}  {e.name}: {e.text}" for e in table.entries)
        if self.setup.pitch_black and self.setup.visibility:
            rec = next((r for r in self.setup.rolls if r.get("table") == "pitch_black"), None)
            lines.append("")
            lines.append(f"In effect: {self.setup.visibility}  ({pre.how_text(rec)})")
            lines.append(sc.rules_text()["visibility"]["text"])
        self.query_one("#pb-result", Static).update("\n".join(lines))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index == 0:
            self._none()
            self.next_step()
            return
        if self.setup.pitch_black and self.setup.visibility:  # Enter never re-rolls
            self.app.notify(f"Rolled: {self.setup.visibility}. R re-rolls or corrects it "
                            "(asks why; both are kept).")
            return
        self._roll()

    def action_reroll(self) -> None:
        if not (self.setup.pitch_black and self.setup.visibility):
            return
        rec = next((r for r in self.setup.rolls if r.get("table") == "pitch_black"), None)
        _ask_reroll(self, "Pitch Black", rec, self._roll)

    def _roll(self, reason: str = "") -> None:
        table = self.flow.tables["pitch_black"]

        def done(outcome: DiceOutcome | None) -> None:
            if outcome is None:
                return
            if outcome.how == "chosen":
                entry, r = table.entries[outcome.choice or 0], None
            else:
                assert outcome.roll is not None
                r, entry = outcome.roll, table.entry_for(outcome.roll.total)
            self.setup.pitch_black = True
            self.setup.visibility = sc.visibility_text(entry)
            _replace_roll(self.setup, sc.record_roll(table, self.setup.challenger, entry,
                                                     outcome.how, r), reason)
            self.changed()
            self._show()

        self.app.push_screen(
            DicePrompt(
                table.dice,
                title="Pitch Black",
                rng=munda_app(self).rng,
                who="Both players agreed",
                choices=[f"{e.roll:>4}  {e.name}" for e in table.entries],
                prefer_entry=self.flow.prefer_dice,
            ),
            done,
        )

    def _none(self) -> None:
        self.setup.pitch_black = False
        self.setup.visibility = ""
        self.setup.rolls = [r for r in self.setup.rolls if r.get("table") != "pitch_black"]

    def finish(self) -> str | None:
        if self.query_one("#pb-choice", OptionList).highlighted == 0:
            self._none()
            return None
        if not self.setup.visibility:
            return "Roll on the Pitch Black table (Enter), or choose No Pitch Black."
        return None


# --- 5. crews ---------------------------------------------------------------------------------


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
        self.screen.refresh_bindings()

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
            self.app.notify("Roll X first (x).", severity="warning")
            return
        pick_n, _ = self._counts()
        existing = self._pick_of(f.id)
        if existing is not None:
            self.picks.remove(existing)
        elif not pick_n:
            self.app.notify(f"{self.method.label} deals the whole crew: press d.", severity="warning")
            return
        elif len(self.picks) >= pick_n:
            self.app.notify(f"{pick_n} already chosen.", severity="warning")
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
            self.app.notify(f"{f.name} has one model card.")
            return

        def done(i: int | None) -> None:
            if i is not None:
                idx = self.picks.index(pick)
                self.picks[idx] = CrewMember(f.id, cards[i])
                self._redraw()

        self.app.push_screen(
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
            _ask_reroll(self, f"{self.method.label}: {which.upper()} for {self.gang.name}", rec,
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

        self.app.push_screen(
            DicePrompt(
                expr,
                title=f"{self.method.label}: {which.upper()} for {gang_name}",
                rng=munda_app(self).rng,
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
        value, r = sc.resolve_amount(self.reinf_size, rng=munda_app(self).rng)
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
            _replace_roll(self.setup, rec, "crew chosen again")
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
            self.app.notify(f"At most {limit} for this crew: choose the number again.",
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
                self.app.notify(str(error), severity="error")
                return
            self.changed()
            self._redraw()

        self.app.push_screen(
            DealtCardsModal(f"Contempt for the Weak: mark the {n} fighter(s) who leave the crew",
                            [self.flow.fighter_label(self.gang.id, m.fighter, m.loadout)
                             for m in crew], n),
            done,
        )

    def action_deal(self) -> None:
        problem = self._ready()
        if problem:
            self.app.notify(problem, severity="warning")
            return
        rng = munda_app(self).rng
        try:
            crew = sc.select_crew(self.gang, self.method, self.x or 0, self.y or 0, self.picks, rng=rng)
            deck = sc.reinforcements_deck(self.gang, crew, self._reinf_n(), rng=rng) if self.reinf_size else []
        except sc.CrewError as error:
            self.app.notify(str(error), severity="error")
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
            self.app.notify(problem, severity="warning")
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
                    self.app.notify(str(error), severity="error")
                    return
                self._commit(crew, deck)

            self.app.push_screen(
                DealtCardsModal(f"Reinforcements deck for {self.gang.name}: mark the {n} dealt, in order",
                                [label(m) for m in opts], n),
                got,
            )

        if deal_n == 0:
            try:
                crew = sc.select_crew(self.gang, self.method, self.x or 0, self.y or 0, self.picks)
            except sc.CrewError as error:
                self.app.notify(str(error), severity="error")
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
                self.app.notify(str(error), severity="error")
                return
            reinforcements(crew)

        self.app.push_screen(
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

        self.app.push_screen(
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
            self.app.push_screen(
                SubplotChoiceScreen(card.id, owner, members(gang, side.crew),
                                    members(enemy, enemy_side.crew), munda_app(self).rng,
                                    moment="choose_crew", bounds=bounds,
                                    bounds_note=bounds_note),
                chosen,
            )

        def ready(ok: bool | None) -> None:
            if not ok:
                return
            if not offered:
                self.app.notify("None of your Sub-plots is revealed or chosen at Choose Crew.")
                return
            offer(offered)

        self.app.push_screen(PrivacyCurtain(owner, "to see your Sub-plots at Choose Crew"), ready)

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


# --- 6. side jobs ------------------------------------------------------------------------------


class SideJobsStep(StepPanel):
    BINDINGS = [
        Binding("enter", "decide", "Pick / roll", id="side_jobs_step.decide"),
        Binding("a", "pick_rest", "Pick the rest at random", id="side_jobs_step.pick_rest"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(
            "Side Jobs that pick a fighter do so from the deployed crews (Core Rules p147). "
            "Enter on a line picks: at random by munda-tui, or the fighter you picked at the table.",
            classes="hint",
        )
        with Horizontal(id="sj-row"):
            yield OptionList(id="sj-list")
            with VerticalScroll(id="sj-scroll"):
                yield Static("", id="sj-detail", markup=False)

    def on_mount(self) -> None:
        self._refresh()
        ol = self.query_one("#sj-list", OptionList)
        ol.highlighted = 0
        ol.focus()
        self._detail()

    def _entry(self, side: SideSetup):  # type: ignore[no-untyped-def]
        try:
            return self.flow.tables["side_job"].entry(side.side_job)
        except KeyError:
            return None

    def _enemy(self, side: SideSetup) -> SideSetup:
        return next(s for s in self.setup.sides if s is not side)

    def _status(self, side: SideSetup) -> str:
        entry = self._entry(side)
        target = (entry.extra.get("target") if entry else None) or {}
        if not target:
            return "picks no fighter"
        if side.side_job_target:
            return "→ " + self._target_name(side.side_job_target)
        res = self._candidates(side)
        if res.new_side_job:
            return "no fighter qualifies: Enter to generate a new Side Job"
        return "Enter to pick the fighter"

    def _target_name(self, ref: str) -> str:
        gang_id, fid = ref.split("/", 1)
        return self.flow.fighter_label(gang_id, fid)

    def _candidates(self, side: SideSetup) -> sc.TargetResult:
        entry = self._entry(side)
        if entry is None:
            return sc.TargetResult()
        enemy = self._enemy(side)
        return sc.side_job_candidates(entry, self.flow.gang(side.gang), side.crew,
                                      self.flow.gang(enemy.gang), enemy.crew)

    def _refresh(self) -> None:
        ol = self.query_one("#sj-list", OptionList)
        keep = ol.highlighted
        ol.clear_options()
        for side in self.setup.sides:
            ol.add_option(Option(Text(f"{self.flow.gang_name(side.gang)}: {side.side_job}\n   {self._status(side)}")))
        if keep is not None:
            ol.highlighted = keep

    def _detail(self) -> None:
        i = self.query_one("#sj-list", OptionList).highlighted or 0
        side = self.setup.sides[i]
        entry = self._entry(side)
        lines = [f"{self.flow.gang_name(side.gang)}: {side.side_job}"]
        if entry is not None:
            lines += ["", entry.text, "", entry.reference]
        if side.side_job_target:
            lines += ["", f"Picked: {self._target_name(side.side_job_target)}"]
        self.query_one("#sj-detail", Static).update("\n".join(lines))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_decide()

    def _set(self, side: SideSetup, ref: str) -> None:
        side.side_job_target = ref
        self.changed()
        self._refresh()
        self._detail()

    def _new_job(self, side: SideSetup) -> None:
        table = self.flow.tables["side_job"]

        def done(outcome: DiceOutcome | None) -> None:
            if outcome is None:
                return
            if outcome.how == "chosen":
                entry, r = table.entries[outcome.choice or 0], None
            else:
                assert outcome.roll is not None
                r, entry = outcome.roll, table.entry_for(outcome.roll.total)
            side.side_job = entry.name
            side.side_job_target = ""
            _replace_roll(self.setup, sc.record_roll(
                table, side.gang, entry, outcome.how, r,
                f"Side Job ({self.flow.gang_name(side.gang)}, generated again)"),
                "no deployed fighter qualifies: a new Side Job is generated")
            self.changed()
            self._refresh()
            self._detail()

        self.app.push_screen(
            DicePrompt(
                table.dice,
                title=f"New Side Job for {self.flow.gang_name(side.gang)}",
                rng=munda_app(self).rng,
                who=f"{self.flow.gang_name(side.gang)} rolls",
                choices=[f"{e.roll:>4}  {e.name}" for e in table.entries],
                prefer_entry=self.flow.prefer_dice,
            ),
            done,
        )

    def action_decide(self) -> None:
        i = self.query_one("#sj-list", OptionList).highlighted or 0
        side = self.setup.sides[i]
        entry = self._entry(side)
        spec = (entry.extra.get("target") if entry else None) or {}
        if not spec:
            self.app.notify(f"{side.side_job} picks no fighter.")
            return
        res = self._candidates(side)
        if res.new_side_job:
            self._new_job(side)
            return
        if not res.candidates:
            self.app.notify("No deployed fighter qualifies.", severity="warning")
            return
        names = [self._target_name(c) for c in res.candidates]
        random_pick = spec.get("pick") == "random"
        options = (["Pick at random for me"] if random_pick else []) + names

        def done(k: int | None) -> None:
            if k is None:
                return
            if random_pick and k == 0:
                assert entry is not None
                enemy = self._enemy(side)
                picked = sc.side_job_target(
                    entry, self.flow.gang(side.gang), side.crew, self.flow.gang(enemy.gang), enemy.crew,
                    munda_app(self).rng,
                )
                self._set(side, picked.fighter)
            else:
                self._set(side, res.candidates[k - 1 if random_pick else k])

        how = "randomly selected" if random_pick else "chosen by the player"
        self.app.push_screen(
            ChoiceModal(f"{side.side_job}: the fighter {how}", options,
                        "Pick at random, or the fighter you selected at the table." if random_pick else ""),
            done,
        )

    def action_pick_rest(self) -> None:
        for side in self.setup.sides:
            entry = self._entry(side)
            spec = (entry.extra.get("target") if entry else None) or {}
            if spec.get("pick") == "random" and not side.side_job_target:
                enemy = self._enemy(side)
                picked = sc.side_job_target(
                    entry, self.flow.gang(side.gang), side.crew, self.flow.gang(enemy.gang), enemy.crew,
                    munda_app(self).rng,
                )
                if picked.fighter:
                    self._set(side, picked.fighter)

    def finish(self) -> str | None:
        for side in self.setup.sides:
            entry = self._entry(side)
            spec = (entry.extra.get("target") if entry else None) or {}
            if spec and not side.side_job_target:
                return f"{self.flow.gang_name(side.gang)}: {side.side_job} still needs its fighter."
        return None


# --- 7. sub-plots -------------------------------------------------------------------------------


class SubplotsStep(StepPanel):
    def compose(self) -> ComposeResult:
        yield Static(
            "House Sub-plots (Core Rulebook 2023 p243): used only if both players agree.",
            classes="hint",
        )
        options = [
            Option(Text("No Sub-plots this battle")),
            Option(Text("Both players agree: draw Sub-plots")),
        ]
        yield OptionList(*options, id="sp-choice")
        yield Static("", id="sp-status", markup=False)

    def on_mount(self) -> None:
        ol = self.query_one("#sp-choice", OptionList)
        ol.highlighted = 1 if self.setup.subplots or self._draw_under_way() else 0
        ol.focus()
        self._show()

    def _draw_under_way(self) -> bool:
        """A draw begun and not finished (saved card by card): it goes on, never afresh."""
        if not self.setup.subplot_draw:
            return False
        try:
            return not sp.resume_draw(self.setup.subplot_draw)[0].done
        except sp.SubplotError:
            return False

    def _show(self, problem: str = "") -> None:
        record = self.setup.subplot_draw
        if problem:
            text = problem
        elif not self.setup.subplots and record:
            try:
                done = sp.resume_draw(record)[0].done
            except sp.SubplotError as error:
                text = f"The saved Sub-plot draw cannot be read: {error}"
            else:
                text = ("Sub-plots: not used. The draw already made is kept: choosing to draw "
                        "Sub-plots restores it." if done else
                        "The Sub-plot draw is under way (saved): choosing to draw Sub-plots "
                        "goes on where it was.")
        elif not self.setup.subplots:
            text = "Sub-plots: not used."
        else:
            parts = []
            for side in self.setup.sides:
                jokers = f", {side.jokers} Joker(s) shown" if side.jokers else ""
                parts.append(f"{self.flow.gang_name(side.gang)}: {len(side.hand)} card(s) in hand{jokers}")
            text = "Sub-plots drawn (hands stay hidden):\n" + "\n".join(parts)
        self.query_one("#sp-status", Static).update(text)

    def _none(self) -> None:
        self.setup.subplots = False
        for side in self.setup.sides:
            side.hand = []
            side.jokers = 0
            side.use_house_deck = False
            side.subplot_choices = {}

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index == 0:
            self._none()
            self.next_step()
            return
        if self.setup.subplots:  # already drawn: Enter goes on (Esc back, then choose again to redraw)
            self.next_step()
            return
        from munda_tui.screens.prebattle.subplot_draw import SubplotDrawScreen

        def apply(result: Any) -> None:
            for side in self.setup.sides:
                side.subplot_choices = {}
            result.apply(self.setup)
            self.setup.subplots = True
            self.changed()
            self._show()

        def done(result: Any) -> None:
            if result is None:
                self._show()  # left or stopped: a draw begun stays saved
                return
            apply(result)

        def saved(record: dict[str, Any]) -> None:  # each card as it is drawn
            self.setup.subplot_draw = record
            self.changed()

        record = self.setup.subplot_draw or None
        if record:
            try:
                session, order = sp.resume_draw(record)
            except sp.SubplotError as error:
                self._show(f"The saved Sub-plot draw cannot be read: {error}")
                return
            if session.done:  # drawn before: the same hands again, never a new draw
                apply(session.result(order.reason, order.rolloff))
                return
        a, b = (self.flow.gang(side.gang) for side in self.setup.sides)
        self.app.push_screen(
            SubplotDrawScreen(a, b, self.flow.campaign.settings, munda_app(self).rng,
                              resume=record, on_change=saved),
            done,
        )

    def finish(self) -> str | None:
        if self.query_one("#sp-choice", OptionList).highlighted == 0:
            self._none()
            return None
        if not self.setup.subplots:
            return "Draw the Sub-plots (Enter), or choose No Sub-plots."
        return None


# --- 8. summary ------------------------------------------------------------------------------------


class SummaryStep(StepPanel):
    BINDINGS = [Binding("s", "start", "Start battle", id="summary_step.start")]

    def compose(self) -> ComposeResult:
        yield Static("The whole set-up. s starts the battle; Esc goes back to change it.", classes="hint")
        with VerticalScroll(id="summary-scroll"):
            yield Markdown(self.flow.summary_markdown(), id="summary")

    def on_mount(self) -> None:
        self.query_one("#summary-scroll").focus()

    def action_start(self) -> None:
        self.post_message(StepPanel.StartBattle())

    def finish(self) -> str | None:
        self.post_message(StepPanel.StartBattle())
        return ""


STEP_CLASSES: dict[str, type[StepPanel]] = {
    "gangs": GangsStep,
    "battlefield": BattlefieldStep,
    "scenario": ScenarioStep,
    "pitch_black": PitchBlackStep,
    "crews": CrewStep,
    "side_jobs": SideJobsStep,
    "subplots": SubplotsStep,
    "summary": SummaryStep,
}
