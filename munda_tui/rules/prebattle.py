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

from dataclasses import dataclass

from munda_tui.rules import scenario as sc
from munda_tui.rules.scenario import ScenarioTable, TableEntry
from munda_tui.rules.setup import BattleSetup


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
