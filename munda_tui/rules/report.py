"""Campaign figures and reports: win/loss/draw records, chart series, and the
battle report and campaign summary as Markdown.

Pure: works from a ``Campaign`` and, for a battle, the plain data of its
battle file (``setup``, ``battle``, ``postbattle``, ``report`` tables, each
owned by another part; only ``report`` and the summary are read here).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from munda_tui.rules.model import BattleSummary, Campaign, FighterStatus, Gang, TerritoryKind
from munda_tui.rules.status import BattleStatus


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


# ---------------------------------------------------------------- Markdown


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _table(headers: list[str], rows: list[list[Any]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join(" --- " for _ in headers) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    return lines


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _data_lines(value: Any, depth: int = 0) -> list[str]:
    """Plain battle-file data as a nested Markdown list."""
    pad = "  " * depth
    lines: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list)) and v:
                lines.append(f"{pad}- {_label(str(k))}:")
                lines.extend(_data_lines(v, depth + 1))
            elif v not in (None, [], {}) and str(v).strip():
                lines.append(f"{pad}- {_label(str(k))}: {v}")
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict):
                first, *rest = _data_lines(item, depth + 1) or [f"{pad}  - (empty)"]
                lines.append(f"{pad}- " + first.strip().removeprefix("- "))
                lines.extend(rest)
            elif isinstance(item, list):
                lines.extend(_data_lines(item, depth + 1))
            else:
                lines.append(f"{pad}- {item}")
    else:
        lines.append(f"{pad}- {value}")
    return lines


def roster_lines(gang: Gang) -> list[str]:
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
    return _table(
        ["Fighter", "Type", "Status", "XP", "Adv.", "Rating", "Equipment", "Injuries", "Skills"],
        rows,
    )


def campaign_summary_markdown(campaign: Campaign) -> str:
    lines = [f"# {campaign.name}", ""]
    if campaign.notes:
        lines += [campaign.notes, ""]
    s = campaign.settings
    lines += [
        f"Post-battle ruleset: {s.post_battle_ruleset.value}; Lasting Injury table: "
        f"{s.lasting_injury_table}; Sub-plot decks: {s.subplot_decks}"
        f" ({'shared' if s.shared_deck else 'separate'}).",
        "",
        "## Gangs",
        "",
    ]
    lines += _table(
        ["Gang", "Type", "Rating", "Reputation", "Credits", "Territories", "W/L/D"],
        [
            [g.name, g.type.value, g.rating, g.reputation, g.credits,
             territory_text(g) or "-", str(gang_record(campaign, g.id))]
            for g in campaign.gangs
        ],
    )
    lines += ["", "## Battles", ""]
    if campaign.battles:
        lines += _table(
            ["#", "Date", "Scenario", "Gangs", "Winner", "Status"],
            [
                [b.number, b.date or "-", b.scenario or "-",
                 " vs ".join(gang_name(campaign, g) for g in b.gangs) or "-",
                 winner_text(campaign, b), b.status]
                for b in sorted(campaign.battles, key=lambda b: b.number)
            ],
        )
    else:
        lines.append("No battles yet.")
    for g in campaign.gangs:
        lines += ["", f"## {g.name} ({g.type.value})", "",
                  f"Gang Rating {g.rating}, Reputation {g.reputation}, {g.credits} credits."]
        if g.tactics:
            lines.append(f"Gang Tactics: {', '.join(g.tactics)}.")
        if g.stash:
            lines.append("Stash: " + ", ".join(
                (f"{e.qty}x " if e.qty > 1 else "") + e.name for e in g.stash) + ".")
        lines.append("")
        lines += roster_lines(g)
    return "\n".join(lines) + "\n"


def battle_report_markdown(campaign: Campaign, number: int, data: dict[str, Any] | None = None) -> str:
    """A battle's report. The post-battle sequence saves its full report as
    ``report.markdown`` in the battle file: that is returned as written. Without
    it (an unfinished battle, or a report saved as plain data), the report is
    built from the battle's summary, its standings and the ``report`` table."""
    battle = next((b for b in campaign.battles if b.number == number), None)
    if battle is None:
        raise KeyError(f"no battle {number} in {campaign.name}")
    data = data or {}
    saved = data.get("report")
    if isinstance(saved, dict) and isinstance(saved.get("markdown"), str) and saved["markdown"].strip():
        return saved["markdown"].strip() + "\n"
    lines = [f"# {campaign.name}: battle {number}", ""]
    lines += [
        f"- Date: {battle.date or '-'}",
        f"- Scenario: {battle.scenario or '-'}",
        f"- Gangs: {' vs '.join(gang_name(campaign, g) for g in battle.gangs) or '-'}",
        f"- Winner: {winner_text(campaign, battle)}",
        f"- Status: {battle.status}",
    ]
    if battle.standings:
        lines += ["", "## Standings after the battle", ""]
        lines += _table(
            ["Gang", "Rating", "Reputation", "Credits"],
            [[gang_name(campaign, gid), st.rating, st.reputation, st.credits]
             for gid, st in battle.standings.items()],
        )
    report = data.get("report")
    lines += ["", "## Report", ""]
    body = _data_lines(report) if isinstance(report, dict) else []
    if isinstance(report, str) and report.strip():
        body = [report.strip()]
    lines += body or ["No report yet: the post-battle sequence has not been completed."]
    return "\n".join(lines) + "\n"
