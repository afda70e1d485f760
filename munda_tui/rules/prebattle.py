"""The pre-battle flow's decisions, for the screens to show and ask (seed 001).

Which scenario tables are rolled at a step, by whom, where each result goes and what is
still missing before the battle: every table in ``data/scenario`` declares its ``step``,
``order`` and ``roller``, so a table added as a data file appears in the flow, is rolled,
stored (``BattleSetup.results``), listed in the summary and required before the battle,
with no code to change. The Core Rules' own tables keep their dedicated fields
(``deployment``, ``objective``, ``crew_table``, each side's ``side_job``) because the
tracker and the post-battle sequence read them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from munda_tui.rules import scenario as sc
from munda_tui.rules import subplots as sp
from munda_tui.rules.model import Campaign, Fighter, Gang
from munda_tui.rules.scenario import ScenarioTable, TableEntry
from munda_tui.rules.setup import BattleSetup, SideSetup


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
                 shorten: Callable[[str], str] = str) -> None:
        self.campaign = campaign
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
            card = sp.card(card_id)
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
            out.append(f"- {pb.gang_name(side.gang)}: {len(side.hand)} card(s) (hidden), {side.jokers} Joker(s)")
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
