"""The pre-battle flow's decisions, for the screens to show and ask (seed 001).

Which scenario tables are rolled at a step, by whom, where each result goes and what is
still missing before the battle: every table in ``data/scenario`` declares its ``step``,
``order`` and ``roller``, so a table added as a data file appears in the flow, is rolled,
stored (``BattleSetup.results``), listed in the summary and required before the battle,
with no code to change. The Core Rules' own tables keep their dedicated fields
(``deployment``, ``objective``, ``crew_table``, each side's ``side_job``) because the
tracker and the post-battle sequence read them.

Choose Crew is decided here too (Core Rules p145-146): the crew half-made is a
``CrewDraft`` in each side of the set-up (X and Y as rolled, the fighters chosen so far),
changed by ``PreBattle.toggle_pick`` / ``set_amount`` / ``deal_crew``..., checked by
``crew_problems`` and emptied into the side's crew by ``commit_crew``; the screen saves the
set-up after each change, so a crew half-made is resumed where it was.
"""

from __future__ import annotations

from munda_tui.rules.core.data import RuleData

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.subplots import decks as sp
from munda_tui.rules.core.wording import plural
from munda_tui.rules.core.dice import Roll, parse
from munda_tui.rules.core.model import Campaign, Fighter, Gang
from munda_tui.rules.prebattle.scenario import ScenarioTable, TableEntry
from munda_tui.rules.prebattle.setup import BattleSetup, CrewDraft, CrewMember, SideSetup


@dataclass(frozen=True)
class Row:
    """One line to roll: a table, and the gang it is for ("" when the table is rolled once)."""

    table: str
    gang: str = ""

    def key(self) -> str:
        """The key of its result in ``BattleSetup.results`` (added tables)."""
        return f"{self.table}:{self.gang}" if self.gang else self.table


def tables_at(tables: dict[str, ScenarioTable], step: str) -> list[ScenarioTable]:
    """The tables a step rolls, in their ``order``."""
    found = [t for t in tables.values() if t.step == step]
    return sorted(found, key=lambda t: (t.order, t.id))


def rows(tables: dict[str, ScenarioTable], setup: BattleSetup, step: str = "scenario") -> list[Row]:
    """The lines a step rolls: one per table, or one per gang for an ``each`` table
    (challenger first)."""
    out: list[Row] = []
    for t in tables_at(tables, step):
        if t.roller == "each":
            out.extend(Row(t.id, gang) for gang in (setup.challenger, setup.challenged))
        else:
            out.append(Row(t.id))
    return out


def result_of(setup: BattleSetup, row: Row) -> str:
    """The entry chosen for a row ("" while it is open)."""
    if row.table == "deployment":
        return setup.deployment
    if row.table == "objective":
        return setup.objective
    if row.table == "crew":
        return setup.crew_table
    if row.table == "side_job":
        return setup.side(row.gang).side_job
    if row.table == "pitch_black":
        return setup.visibility
    return setup.results.get(row.key(), "")


def apply_result(setup: BattleSetup, row: Row, entry: TableEntry) -> None:
    """Store a row's result where the flow and the tracker read it."""
    if row.table == "deployment":
        setup.deployment = entry.name
    elif row.table == "objective":
        setup.objective = entry.name
    elif row.table == "crew":
        sc.apply_crew_entry(setup, entry)
    elif row.table == "side_job":
        side = setup.side(row.gang)
        side.side_job = entry.name
        side.side_job_target = ""
    else:
        setup.results[row.key()] = entry.name


def added_tables(tables: dict[str, ScenarioTable]) -> list[ScenarioTable]:
    """The tables added as data files (not among the Core Rules' five), in flow order."""
    return [t for step in ("scenario", "pitch_black") for t in tables_at(tables, step)
            if t.id not in sc.TABLE_IDS]


def added_results(tables: dict[str, ScenarioTable], setup: BattleSetup) -> list[tuple[ScenarioTable, str, TableEntry | None, str]]:
    """(table, gang, entry, name) for each added table's decided rows, for the summary."""
    out: list[tuple[ScenarioTable, str, TableEntry | None, str]] = []
    for t in added_tables(tables):
        for row in rows(tables, setup, t.step):
            if row.table != t.id:
                continue
            name = result_of(setup, row)
            if not name:
                continue
            try:
                entry: TableEntry | None = t.entry(name)
            except KeyError:
                entry = None
            out.append((t, row.gang, entry, name))
    return out


def missing(tables: dict[str, ScenarioTable], setup: BattleSetup) -> list[str]:
    """What is still to decide before the battle (empty: ready): the Core Rules' checks
    and every row of a table added at the scenario step."""
    out = sc.missing_for_battle(setup)
    for row in rows(tables, setup, "scenario"):
        if row.table in sc.TABLE_IDS or result_of(setup, row):
            continue
        title = tables[row.table].title
        out.append(f"{row.gang}: {title}" if row.gang else title)
    return out


class PreBattle:
    """One battle's set-up flow: the campaign, the set-up decided so far (None until the
    gangs are chosen), the scenario tables in force and the override files not used.
    The screen shows it and asks; the step panels read and change it, and say when the
    screen must save or move on (messages), never reaching into the screen."""

    def __init__(self, campaign: Campaign, number: int, tables: dict[str, ScenarioTable],
                 problems: Sequence[Any] = (), setup: BattleSetup | None = None,
                 shorten: Callable[[str], str] = str, data: RuleData | None = None) -> None:
        self.campaign = campaign
        #: the rule data in force (a pack's Sub-plot deck: its cards by id)
        self.data = data
        self.number = number
        self.tables = tables
        self.problems = list(problems)
        self.setup = setup
        self.short_path = shorten  # an override file's path as the player knows it

    @property
    def prefer_dice(self) -> bool:
        return bool(self.campaign.settings.dice_by_hand)

    def gang(self, gang_id: str) -> Gang:
        return self.campaign.gang(gang_id)

    def gang_name(self, gang_id: str) -> str:
        try:
            return self.gang(gang_id).name
        except KeyError:
            return gang_id

    def fighter(self, ref: str) -> Fighter:
        """A fighter by "gang/fighter"."""
        gang_id, fighter_id = ref.split("/", 1)
        return self.gang(gang_id).fighter(fighter_id)

    def fighter_label(self, gang_id: str, fighter_id: str, loadout: str = "") -> str:
        try:
            f = self.gang(gang_id).fighter(fighter_id)
        except KeyError:
            return fighter_id
        card = f" [{loadout}]" if loadout else ""
        return f"{f.name} ({f.label or f.type.value}){card}"

    def missing(self) -> list[str]:
        """What is still to decide before the battle (empty: ready)."""
        assert self.setup is not None
        return missing(self.tables, self.setup)

    def summary_markdown(self) -> str:
        return summary_markdown(self)

    # --- Choose Crew: the crew draft ------------------------------------------------------
    # Every method takes the gang's id; the side is the set-up's side of that gang.

    def side(self, gang_id: str) -> SideSetup:
        assert self.setup is not None
        return self.setup.side(gang_id)

    def crew_entry(self) -> TableEntry | None:
        """The Crew table entry in force (None before Crew is rolled)."""
        assert self.setup is not None
        try:
            return self.tables["crew"].entry(self.setup.crew_table)
        except KeyError:
            return None

    def crew_method(self, gang_id: str) -> sc.CrewMethod:
        """How this gang selects its crew; a method that does not read is Custom (10)."""
        try:
            return sc.parse_method(self.side(gang_id).crew_method)
        except sc.CrewError:
            return sc.CrewMethod("custom", "10")

    def reinforcement_size(self, gang_id: str) -> str:
        """Reinforcements (X) for this gang under the Crew entry, "" for none."""
        entry = self.crew_entry()
        assert self.setup is not None
        return sc.reinforcement_size(self.setup, entry, gang_id) if entry is not None else ""

    def crew_draft(self, gang_id: str) -> CrewDraft:
        """The crew half-made (empty once the crew is chosen)."""
        return self.side(gang_id).draft

    def crew_done(self, gang_id: str) -> bool:
        return bool(self.side(gang_id).crew)

    def amount_expr(self, gang_id: str, which: str) -> str:
        """X or Y of the method as written ("" for a Y the method has not)."""
        method = self.crew_method(gang_id)
        if which == "x":
            return method.x
        return method.y if method.kind == "hybrid" else ""

    def amount_values(self, gang_id: str, which: str) -> list[int]:
        """Every value X or Y can take (what may be entered or chosen)."""
        expr = self.amount_expr(gang_id, which)
        if not expr:
            return []
        parsed = parse(expr)
        return list(range(parsed.minimum, parsed.maximum + 1))

    def crew_amount(self, gang_id: str, which: str) -> int | None:
        """X or Y: fixed by the method, as rolled in the draft, or (crew chosen) as its roll
        was recorded; None while still to roll. A stored value the dice cannot show (a hand
        edit) counts as not rolled."""
        expr = self.amount_expr(gang_id, which)
        if not expr:
            return None
        if sc.is_fixed(expr):
            return sc.fixed_value(expr)
        value: Any = self.crew_draft(gang_id).amounts.get(which)
        if value is None and self.crew_done(gang_id):
            assert self.setup is not None
            rec = sc.find_roll(self.setup.rolls, f"crew_{which}", gang_id)
            value = rec.get("total", rec.get("result")) if rec else None
            try:
                value = int(value) if value is not None else None
            except (TypeError, ValueError):
                value = None
        if isinstance(value, int) and value in self.amount_values(gang_id, which):
            return value
        return None

    def crew_counts(self, gang_id: str) -> tuple[int, int]:
        """(fighters the player chooses, fighters dealt) as far as X and Y are known."""
        x = self.crew_amount(gang_id, "x") or 0
        y = self.crew_amount(gang_id, "y") or 0
        return sc.expected_counts(self.gang(gang_id), self.crew_method(gang_id), x, y)

    def crew_picks(self, gang_id: str) -> list[CrewMember]:
        """The fighters chosen so far that may still be chosen (able to fight, once each,
        a Model Card they have), at most as many as are chosen."""
        gang = self.gang(gang_id)
        able = {f.id: f for f in sc.eligible(gang)}
        out: list[CrewMember] = []
        for m in self.crew_draft(gang_id).picks:
            f = able.get(m.fighter)
            if f is None or m.loadout not in sc.model_cards(f) or any(o.fighter == m.fighter for o in out):
                continue
            out.append(m)
        return out[: self.crew_counts(gang_id)[0]]

    def crew_pick(self, gang_id: str, fighter_id: str) -> CrewMember | None:
        return next((m for m in self.crew_picks(gang_id) if m.fighter == fighter_id), None)

    def toggle_pick(self, gang_id: str, fighter_id: str) -> str:
        """Choose a fighter for the crew, or unchoose them: "" when done, else why not (a
        key named as ``{key:<binding id>}``: the screen shows the key in force)."""
        if self.crew_done(gang_id):
            return "The crew is chosen: {key:crew_step.redo} redoes it."
        try:
            f = self.gang(gang_id).fighter(fighter_id)
        except KeyError:
            return f"No fighter {fighter_id!r} in {self.gang_name(gang_id)}."
        if not f.can_fight:
            return f"{f.name} cannot take part."
        if self.crew_amount(gang_id, "x") is None:
            return "Roll X first ({key:crew_step.amount-x})."
        draft = self.crew_draft(gang_id)
        picks = self.crew_picks(gang_id)
        pick_n, _ = self.crew_counts(gang_id)
        existing = self.crew_pick(gang_id, fighter_id)
        if existing is not None:
            picks.remove(existing)
        elif not pick_n:
            return f"{self.crew_method(gang_id).label} deals the whole crew: press {{key:crew_step.deal}}."
        elif len(picks) >= pick_n:
            return f"{pick_n} already chosen."
        else:
            picks.append(CrewMember(fighter_id, ""))
        draft.picks = picks
        return ""

    def choose_card(self, gang_id: str, fighter_id: str, card: str) -> None:
        """The Model Card a chosen fighter takes part with (one of ``model_cards``)."""
        f = self.gang(gang_id).fighter(fighter_id)
        if card not in sc.model_cards(f):
            raise sc.CrewError(f"{f.name} has no Model Card {card!r}")
        draft = self.crew_draft(gang_id)
        picks = self.crew_picks(gang_id)
        draft.picks = [CrewMember(m.fighter, card) if m.fighter == fighter_id else m for m in picks]

    def amount_record(self, gang_id: str, which: str) -> dict[str, Any] | None:
        """The record of X or Y rolled for the crew half-made (None before)."""
        return sc.find_roll(self.crew_draft(gang_id).rolls, f"crew_{which}", gang_id)

    def set_amount(self, gang_id: str, which: str, value: int, how: str = "chosen",
                   roll: Roll | None = None, reason: str = "") -> None:
        """X or Y rolled by munda-tui (``how`` "app"), from real dice ("dice", ``roll``) or
        chosen outright; a second value keeps the first and ``reason`` in its record.
        Fighters chosen beyond a smaller X leave the draft."""
        if value not in self.amount_values(gang_id, which):
            expr = self.amount_expr(gang_id, which) or "nothing"
            raise sc.CrewError(f"{which.upper()} is {expr}: {value} cannot be")
        name = self.gang_name(gang_id)
        rec: dict[str, Any] = {"table": f"crew_{which}", "label": f"Crew {which.upper()} ({name})",
                               "by": gang_id, "how": how, "result": str(value), "roll": str(value)}
        if roll is not None and how != "chosen":
            rec.update(dice=roll.expression, faces=list(roll.faces), total=roll.total)
        draft = self.crew_draft(gang_id)
        draft.amounts[which] = value
        draft.rolls = sc.replace_roll(draft.rolls, rec, reason)
        draft.picks = self.crew_picks(gang_id)

    def roll_amount(self, gang_id: str, which: str, rng: random.Random, reason: str = "") -> int:
        """munda-tui rolls X or Y."""
        value, r = sc.resolve_amount(self.amount_expr(gang_id, which), rng=rng)
        self.set_amount(gang_id, which, value, "app", r, reason)
        return value

    def crew_problems(self, gang_id: str) -> list[str]:
        """What must be done before the crew can be dealt or confirmed (empty: ready)."""
        if self.crew_done(gang_id):
            return []
        out = []
        if self.crew_amount(gang_id, "x") is None:
            out.append("Roll X first ({key:crew_step.amount-x}).")
        if self.crew_method(gang_id).kind == "hybrid" and self.crew_amount(gang_id, "y") is None:
            out.append("Roll Y first ({key:crew_step.amount-y}).")
        pick_n, _ = self.crew_counts(gang_id)
        picked = len(self.crew_picks(gang_id))
        if not out and picked != pick_n:
            out.append(f"Choose {plural(pick_n, 'fighter')} first ({{key:crew_step.toggle}}), "
                       f"{picked} chosen.")
        return out

    def needs_cards(self, gang_id: str) -> bool:
        """Cards are dealt for this crew (Random X, Hybrid's Y, or Reinforcements)."""
        return bool(self.crew_counts(gang_id)[1] or self.reinforcement_size(gang_id))

    def _check_ready(self, gang_id: str) -> None:
        problems = self.crew_problems(gang_id)
        if problems:
            raise sc.CrewError(problems[0])

    def select_crew(self, gang_id: str, rng: random.Random | None = None,
                    dealt: Sequence[CrewMember] | None = None) -> list[CrewMember]:
        """The starting crew from the fighters chosen, the rest dealt at random by ``rng``
        or ``dealt`` (the real cards); raises CrewError."""
        self._check_ready(gang_id)
        x = self.crew_amount(gang_id, "x") or 0
        y = self.crew_amount(gang_id, "y") or 0
        return sc.select_crew(self.gang(gang_id), self.crew_method(gang_id), x, y,
                              self.crew_picks(gang_id), rng=rng, dealt=dealt)

    def reinforcements_count(self, gang_id: str, rng: random.Random) -> int:
        """Reinforcements (X): the number of cards in the deck (rolled by ``rng`` if X is
        dice, the roll kept with the draft's)."""
        size = self.reinforcement_size(gang_id)
        if not size:
            return 0
        value, r = sc.resolve_amount(size, rng=rng)
        if r is not None:
            draft = self.crew_draft(gang_id)
            draft.rolls.append({"table": "reinforcements", "by": gang_id, "how": "app",
                                "label": f"Reinforcements ({self.gang_name(gang_id)})",
                                "dice": r.expression, "faces": list(r.faces), "total": r.total,
                                "result": str(value), "roll": str(value)})
        return value

    def cards_left(self, gang_id: str, crew: Sequence[CrewMember]) -> list[CrewMember]:
        """Every Model Card of the eligible fighters not in ``crew``: the cards dealt from."""
        out_of = {m.fighter for m in crew}
        return [CrewMember(f.id, c) for f in sc.eligible(self.gang(gang_id)) if f.id not in out_of
                for c in sc.model_cards(f)]

    def deal_crew(self, gang_id: str, rng: random.Random) -> None:
        """munda-tui deals: the rest of the crew at random, then the Reinforcements deck;
        the crew is chosen. Raises CrewError (nothing changes)."""
        crew = self.select_crew(gang_id, rng=rng)
        deck: list[CrewMember] = []
        if self.reinforcement_size(gang_id):
            deck = sc.reinforcements_deck(self.gang(gang_id), crew,
                                          self.reinforcements_count(gang_id, rng), rng=rng)
        self.commit_crew(gang_id, crew, deck)

    def commit_crew(self, gang_id: str, crew: Sequence[CrewMember],
                    deck: Sequence[CrewMember] = ()) -> None:
        """The crew is chosen: the side's crew and Reinforcements deck, the draft's rolls in
        the set-up's rolls, the draft emptied."""
        assert self.setup is not None
        side = self.side(gang_id)
        side.crew = list(crew)
        side.reinforcements = list(deck)
        for rec in side.draft.rolls:
            self.setup.rolls = sc.replace_roll(self.setup.rolls, rec, "crew chosen again")
        side.draft = CrewDraft()

    def redo_crew(self, gang_id: str) -> None:
        """Choose this crew again from the start."""
        side = self.side(gang_id)
        side.crew = []
        side.reinforcements = []
        side.crew_removed = []
        side.draft = CrewDraft()

    def set_crew_method(self, gang_id: str, text: str) -> None:
        """Adjust the method ("Hybrid (3+D3)"); the crew half-made starts again. Raises CrewError."""
        method = sc.parse_method(text)
        side = self.side(gang_id)
        side.crew_method = method.label
        side.draft = CrewDraft()

    def crew_size(self, gang_id: str) -> int:
        """The crew "as determined by the scenario": the chosen crew, else the counts."""
        side = self.side(gang_id)
        if side.crew:
            return len(side.crew) + len(side.crew_removed)
        if self.crew_amount(gang_id, "x") is None:
            return sc.gang_models(self.gang(gang_id))
        return sum(self.crew_counts(gang_id))


def revealed_subplots(side: SideSetup, pb: PreBattle) -> list[str]:
    """Sub-plots revealed (not secretly chosen) at Choose Crew, for everyone."""
    assert pb.setup is not None

    def name(part: str) -> str:
        assert pb.setup is not None
        for s in pb.setup.sides:
            try:
                return pb.gang(s.gang).fighter(part).name
            except KeyError:
                continue
        return part

    out = []
    for card_id, value in side.subplot_choices.items():
        try:
            card = sp.card(card_id, pb.data)
        except (KeyError, sp.SubplotError):
            continue
        if card.reveal != "choose_crew" or card.choice_info.secret:
            continue
        shown = " and ".join(name(p) for p in value.split("|")) if value else ""
        out.append(f"{card.name} ({shown})" if shown else card.name)
    return out


def how_text(rec: dict[str, Any] | None, changes: bool = True) -> str:
    """How a roll was made: "D6 [5] = 5, real dice" (and its re-rolls), "chosen outright"."""
    if not rec:
        return ""
    if rec.get("how") == "chosen":
        text = "chosen outright"
    else:
        faces = ", ".join(str(f) for f in rec.get("faces", []))
        who = "rolled by munda-tui" if rec.get("how") == "app" else "real dice"
        text = f"{rec.get('dice', '')} [{faces}] = {rec.get('total', '')}, {who}"
    if changes:
        text += "".join(f"; {c}" for c in sc.reroll_lines(rec))
    return text


def summary_markdown(pb: PreBattle) -> str:
    """The whole set-up as Markdown (the summary step, before the battle starts)."""
    s = pb.setup
    assert s is not None
    t = pb.tables
    out = [f"## Battle {s.number}: {pb.gang_name(s.challenger)} challenges {pb.gang_name(s.challenged)}"]
    att = sc.attacker_of(s)
    dfn = s.challenged if att == s.challenger else s.challenger
    out.append(f"Attacker: **{pb.gang_name(att)}** · Defender: **{pb.gang_name(dfn)}**")
    out.append(f"\n### Battlefield: {s.battlefield}")
    out.append(f"Visibility: {s.visibility}" if s.visibility else "Visibility: normal (no Pitch Black)")

    def entry(table_id: str, name: str) -> TableEntry | None:
        try:
            return t[table_id].entry(name)
        except KeyError:
            return None

    dep = entry("deployment", s.deployment)
    out.append(f"\n### Deployment: {s.deployment}")
    if dep is not None:
        out.append(dep.text)
    out.append(f"\nStarting with the defender ({pb.gang_name(dfn)}), players alternate placing a model.")
    obj = entry("objective", s.objective)
    out.append(f"\n### Objective: {s.objective}")
    if obj is not None:
        out.append(obj.text.replace("\n", "\n\n"))
    for table, gang, found, name in added_results(t, s):
        who = f" ({pb.gang_name(gang)})" if gang else ""
        out.append(f"\n### {table.title}{who}: {name}")
        if found is not None:
            out.append(found.text)
    out.append("\n### Side Jobs")
    for side in s.sides:
        target = ""
        if side.side_job_target:
            g, f = side.side_job_target.split("/", 1)
            target = f" — {pb.fighter_label(g, f)}"
        out.append(f"- **{pb.gang_name(side.gang)}**: {side.side_job}{target}")
    out.append(f"\n### Crews: {s.crew_table}")
    if s.reinforcements_rule:
        out.append(f"Reinforcements: {s.reinforcements_rule}")
    for side in s.sides:
        out.append(f"\n**{pb.gang_name(side.gang)}** ({sc.role_of(s, side.gang)}), {side.crew_method}:")
        for m in side.crew:
            out.append(f"- {pb.fighter_label(side.gang, m.fighter, m.loadout)}")
        if side.reinforcements:
            out.append(f"\nReinforcements deck ({len(side.reinforcements)}):")
            for m in side.reinforcements:
                out.append(f"- {pb.fighter_label(side.gang, m.fighter, m.loadout)}")
    out.append("\n### Sub-plots")
    if s.subplots:
        for side in s.sides:
            jokers = f", {plural(side.jokers, 'Joker')} shown" if side.jokers else ""
            out.append(f"- {pb.gang_name(side.gang)}: {plural(len(side.hand), 'card')} (hidden){jokers}")
            for text in revealed_subplots(side, pb):
                out.append(f"  - revealed at Choose Crew: {text}")
    else:
        out.append("Not used.")
    out.append("\n### Rolls")
    for r in s.rolls:
        label = r.get("label") or r.get("what") or r.get("table") or "Roll"
        if "how" not in r:  # a record from another part (e.g. the Sub-plot roll-off)
            out.append(f"- {label}: {r.get('faces', '')}")
            continue
        by = pb.gang_name(r.get("by", ""))
        out.append(f"- {label}: {r.get('result')} ({how_text(r)}; {by})")
    return "\n".join(out)
