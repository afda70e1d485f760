"""Campaign figures and reports: win/loss/draw records, chart series, and the
battle report and campaign summary (as ``report_doc.Report``: rendered per format).

Pure: works from a ``Campaign`` and, for a battle, the plain data of its
battle file (``setup``, ``battle``, ``postbattle``, ``report`` tables, each
owned by another part; only ``report`` and the summary are read here).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from munda_tui.rules.core.model import BattleSummary, Campaign, Fighter, FighterStatus, Gang, TerritoryKind
from munda_tui.rules.core.stage import summary_of
from munda_tui.rules.core.status import BattleStatus
from munda_tui.rules.campaign.counters import gang_text
from munda_tui.rules.campaign.report_doc import Heading, Item, Report, from_markdown


@dataclass(frozen=True)
class Record:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.draws

    def __str__(self) -> str:
        return f"{self.wins}/{self.losses}/{self.draws}"


def finished(campaign: Campaign) -> list[BattleSummary]:
    """Battles whose post-battle sequence is done, in order."""
    return sorted((b for b in campaign.battles if b.status == BattleStatus.DONE), key=lambda b: b.number)


def gang_record(campaign: Campaign, gang_id: str) -> Record:
    """Wins, losses and draws over the finished battles the gang fought."""
    w = l = d = 0
    for b in finished(campaign):
        if gang_id not in b.gangs:
            continue
        if not b.winner:
            d += 1
        elif b.winner == gang_id:
            w += 1
        else:
            l += 1
    return Record(w, l, d)


def gang_records(campaign: Campaign) -> dict[str, Record]:
    """:func:`gang_record` of every gang that fought, in one pass over the battles."""
    tally: dict[str, list[int]] = {}
    for b in campaign.battles:
        if b.status != BattleStatus.DONE:
            continue
        for gid in b.gangs:
            t = tally.setdefault(gid, [0, 0, 0])
            t[2 if not b.winner else 0 if b.winner == gid else 1] += 1
    return {gid: Record(*t) for gid, t in tally.items()}


def gang_name(campaign: Campaign, gang_id: str) -> str:
    for g in campaign.gangs:
        if g.id == gang_id:
            return g.name
    return gang_id


def winner_text(campaign: Campaign, battle: BattleSummary, names: dict[str, str] | None = None) -> str:
    """The winner's name, "draw" or "-"; ``names`` (gang id -> name) saves the look-up."""
    if battle.winner:
        return names.get(battle.winner, battle.winner) if names is not None else gang_name(campaign, battle.winner)
    return "draw" if battle.status == BattleStatus.DONE else "-"


def territory_text(gang: Gang) -> str:
    parts = []
    for t in gang.territories:
        mark = {TerritoryKind.SPECIAL: " (S)", TerritoryKind.STRONGHOLD: " (Stronghold)"}.get(t.kind, "")
        parts.append(t.name + mark)
    return ", ".join(parts)


# ---------------------------------------------------------------- charts


@dataclass
class GangSeries:
    """One gang's figures after each finished battle it has a standing for,
    then its figures now."""

    gang_id: str
    name: str
    battles: list[int] = field(default_factory=list)  # battle numbers; 0 = now
    rating: list[int] = field(default_factory=list)
    reputation: list[int] = field(default_factory=list)
    credits: list[int] = field(default_factory=list)


def chart_series(campaign: Campaign) -> list[GangSeries]:
    out = []
    for g in campaign.gangs:
        s = GangSeries(g.id, g.name)
        for b in finished(campaign):
            standing = b.standings.get(g.id)
            if standing is None:
                continue
            s.battles.append(b.number)
            s.rating.append(standing.rating)
            s.reputation.append(standing.reputation)
            s.credits.append(standing.credits)
        s.battles.append(0)
        s.rating.append(g.rating)
        s.reputation.append(g.reputation)
        s.credits.append(g.credits)
        out.append(s)
    return out


# ---------------------------------------------------------------- reports (report_doc)


def _data_items(value: Any, depth: int = 0) -> list[Item]:
    """Plain battle-file data as nested bullets."""
    items: list[Item] = []
    if depth > 8:  # (a hand-made report nested deeper: shown flat from here)
        return [Item(str(value))]
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list)) and v:
                items.append(Item(f"{_label(str(k))}:", tuple(_data_items(v, depth + 1))))
            elif v not in (None, [], {}) and str(v).strip():
                items.append(Item(f"{_label(str(k))}: {v}"))
    elif isinstance(value, list):
        for entry in value:
            if isinstance(entry, dict):
                first, *rest = _data_items(entry, depth + 1) or [Item("(empty)")]
                items.append(Item(first.text, first.items + tuple(rest)))
            elif isinstance(entry, list):
                items.extend(_data_items(entry, depth + 1))
            else:
                items.append(Item(str(entry)))
    else:
        items.append(Item(str(value)))
    return items


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def add_roster(report: Report, gang: Gang) -> None:
    rows = []
    for f in gang.fighters:
        status = f.status.value
        gear = ", ".join(
            (f"{e.qty}x " if e.qty > 1 else "") + e.name + (" (?)" if e.cost is None else "")
            for e in f.equipment
        )
        rows.append([
            f.name, f.label or f.type.value, status, f.xp, f.advancements,
            "-" if f.status in (FighterStatus.DEAD, FighterStatus.RETIRED) else f.rating,
            gear, ", ".join(i.name for i in f.injuries), ", ".join(f.skills),
        ])
    report.table(
        ["Fighter", "Type", "Status", "XP", "Adv.", "Rating", "Equipment", "Injuries", "Skills"],
        rows,
    )


def campaign_summary(campaign: Campaign, data: Any = None) -> Report:
    """The campaign's summary (``munda-tui report``); ``data``: the rule data in force
    (the club's own counters' names: a pack's, issue 35)."""
    report = Report()
    report.heading(campaign.name, 1)
    if campaign.notes:
        report.paragraph(campaign.notes)
    s = campaign.settings
    report.paragraph(
        f"Post-battle ruleset: {s.post_battle_ruleset}; Lasting Injury table: "
        f"{s.lasting_injury_table}; Sub-plot decks: {s.subplot_decks}"
        f" ({'shared' if s.shared_deck else 'separate'}).")
    report.heading("Gangs")
    report.table(
        ["Gang", "Type", "Rating", "Reputation", "Credits", "Territories", "W/L/D"],
        [
            [g.name, g.type.value, g.rating, g.reputation, g.credits,
             territory_text(g) or "-", str(gang_record(campaign, g.id))]
            for g in campaign.gangs
        ],
    )
    report.heading("Battles")
    if campaign.battles:
        report.table(
            ["#", "Date", "Scenario", "Gangs", "Winner", "Status"],
            [
                [b.number, b.date or "-", b.scenario or "-",
                 " vs ".join(gang_name(campaign, g) for g in b.gangs) or "-",
                 winner_text(campaign, b), b.status]
                for b in sorted(campaign.battles, key=lambda b: b.number)
            ],
        )
    else:
        report.paragraph("No battles yet.")
    for g in campaign.gangs:
        report.heading(f"{g.name} ({g.type.value})")
        lines = [f"Gang Rating {g.rating}, Reputation {g.reputation}, {g.credits} credits."]
        counters = gang_text(g, data)
        if counters:  # (the club's own counters)
            lines.append(counters.replace(" · ", ", ") + ".")
        if g.tactics:
            lines.append(f"Gang Tactics: {', '.join(g.tactics)}.")
        if g.stash:
            lines.append("Stash: " + ", ".join(
                (f"{e.qty}x " if e.qty > 1 else "") + e.name for e in g.stash) + ".")
        report.paragraph(*lines)
        add_roster(report, g)
        if g.fallen:
            report.paragraph("Fallen: " + fallen_text(g) + ".")
        if g.departed:  # the retired (and others who left alive), kept apart
            report.paragraph("Left the roster: " + fallen_text(g, g.departed) + ".")
    return report


def fallen_text(gang: Gang, fighters: list[Fighter] | None = None) -> str:
    """The gang's dead, removed from the roster and kept in its history (seed 004,
    Delete Dead Fighters): "Name (battle 3: Critical Injury ...)", in the order they fell
    (``fighters``: others kept apart so, the departed)."""
    parts = []
    for f in gang.fallen if fighters is None else fighters:
        when = [f"battle {f.status_battle}"] if f.status_battle else []
        when += [f.status_why] if f.status_why else []
        parts.append(f.name + (f" ({': '.join(when)})" if when else ""))
    return ", ".join(parts)


def saved_report(data: dict[str, Any]) -> Report | None:
    """The report the post-battle sequence saved in a battle file (``[report] blocks``;
    ``markdown`` in files written before), or None. ValueError: blocks that do not
    read (the battle file's check says where)."""
    saved = data.get("report")
    if not isinstance(saved, dict):
        return None
    if "blocks" in saved:
        return Report.from_data(saved["blocks"])
    if isinstance(saved.get("markdown"), str) and saved["markdown"].strip():
        return from_markdown(saved["markdown"])
    return None


#: a battle report's title as the post-battle sequence writes it: "Battle 3: A vs B"
_TITLE_NUMBER = re.compile(r"^Battle \d+(?=:)")
_MARKDOWN_TITLE_NUMBER = re.compile(r"^(# +)Battle \d+(?=:)", re.M)


def numbered(report: Report, number: int) -> Report:
    """A saved battle report with the battle's number as it is now (issue 30.4). The
    title was written with the number the battle had when it was applied; a league's
    sync may give it another (the order of the league's records, the same on every
    laptop), so the number is rendered when the report is shown, never kept from the save:
    two reports never both say "Battle 3"."""
    blocks = list(report.blocks)
    for i, b in enumerate(blocks):
        if isinstance(b, Heading) and b.level == 1:
            blocks[i] = Heading(_TITLE_NUMBER.sub(f"Battle {number}", b.text, count=1), 1)
            break
    return Report(blocks)


def numbered_data(data: dict[str, Any], number: int) -> dict[str, Any]:
    """A battle file's data with its saved report's title numbered ``number`` (an export
    shows it as :func:`numbered` does); as it is where the report does not read."""
    saved = data.get("report")
    if not isinstance(saved, dict):
        return data
    if "blocks" in saved:
        try:
            blocks = numbered(Report.from_data(saved["blocks"]), number).to_data()
        except ValueError:
            return data
        return {**data, "report": {**saved, "blocks": blocks}}
    if isinstance(saved.get("markdown"), str):
        return {**data, "report": {**saved, "markdown": numbered_markdown(saved["markdown"], number)}}
    return data


def numbered_markdown(text: str, number: int) -> str:
    """A report saved as Markdown (files written before the blocks) titled with the
    battle's number now, as :func:`numbered`."""
    return _MARKDOWN_TITLE_NUMBER.sub(lambda m: f"{m.group(1)}Battle {number}", text, count=1)


def battle_report(campaign: Campaign, number: int, data: dict[str, Any] | None = None) -> Report:
    """A battle's report. The post-battle sequence saves its full report in the battle
    file: that is returned as saved. Without it (an unfinished battle, or a report saved
    as plain data), the report is built from the battle's summary, its standings and
    the ``report`` table."""
    battle = summary_of(campaign, number)
    if battle is None:
        raise KeyError(f"no battle {number} in {campaign.name}")
    data = data or {}
    saved = saved_report(data)
    if saved is not None:
        return numbered(saved, number)  # (the number it has now: issue 30.4)
    report = Report()
    report.heading(f"{campaign.name}: battle {number}", 1)
    report.bullets(
        f"Date: {battle.date or '-'}",
        f"Scenario: {battle.scenario or '-'}",
        f"Gangs: {' vs '.join(gang_name(campaign, g) for g in battle.gangs) or '-'}",
        f"Winner: {winner_text(campaign, battle)}",
        f"Status: {battle.status}",
    )
    if battle.standings:
        report.heading("Standings after the battle")
        report.table(
            ["Gang", "Rating", "Reputation", "Credits"],
            [[gang_name(campaign, gid), st.rating, st.reputation, st.credits]
             for gid, st in battle.standings.items()],
        )
    body = data.get("report")
    report.heading("Report")
    if isinstance(body, str) and body.strip():
        report.paragraph(body.strip())
    elif isinstance(body, dict) and (items := _data_items(body)):
        report.bullets(*items)
    else:
        report.paragraph("No report yet: the post-battle sequence has not been completed.")
    return report
