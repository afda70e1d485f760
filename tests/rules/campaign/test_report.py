"""Records, chart series and Markdown reports."""

from __future__ import annotations

import pytest

from munda_tui.rules.core.model import BattleSummary, FighterStatus, Standing
from munda_tui.rules.campaign.report import (
    battle_report,
    campaign_summary,
    chart_series,
    gang_record,
)
from munda_tui.rules.campaign.report_doc import render_markdown


def _battle_md(*args, **kwargs):  # type: ignore[no-untyped-def]
    return render_markdown(battle_report(*args, **kwargs))


def _summary_md(campaign):  # type: ignore[no-untyped-def]
    return render_markdown(campaign_summary(campaign))


@pytest.fixture
def campaign(demo_campaign):
    c = demo_campaign
    esc, gol = "venom-sisters", "iron-skulls"
    c.battles = [
        BattleSummary(1, "2026-01-01", "Sneak Attack", [esc, gol], esc, "done",
                      {esc: Standing(900, 9, 120), gol: Standing(1000, 6, 80)}),
        BattleSummary(2, "2026-01-08", "Stand-off", [esc, gol], "", "done",
                      {esc: Standing(950, 10, 100), gol: Standing(1010, 7, 90)}),
        BattleSummary(3, "2026-01-15", "Ambush", [gol, esc], gol, "done",
                      {gol: Standing(1050, 9, 40)}),
        BattleSummary(4, "2026-01-22", "", [esc, gol], "", "battle"),
    ]
    return c


def test_records(campaign):
    assert (gang_record(campaign, "venom-sisters").wins,
            gang_record(campaign, "venom-sisters").losses,
            gang_record(campaign, "venom-sisters").draws) == (1, 1, 1)
    assert str(gang_record(campaign, "iron-skulls")) == "1/1/1"
    assert gang_record(campaign, "nobody").played == 0


def test_chart_series_ends_with_now(campaign):
    esc, gol = chart_series(campaign)
    assert esc.battles == [1, 2, 0]
    assert esc.rating[:2] == [900, 950] and esc.rating[-1] == campaign.gang("venom-sisters").rating
    assert esc.reputation == [9, 10, 7]
    assert gol.battles == [1, 2, 3, 0]
    assert gol.credits == [80, 90, 40, 60]


def test_campaign_summary(campaign):
    campaign.gangs[0].fighters[-1].status = FighterStatus.DEAD
    md = _summary_md(campaign)
    assert md.startswith("# Demo: Ashfall Sump\n")
    esc = campaign.gang("venom-sisters")
    assert f"| The Venom Sisters | Escher | {esc.rating} | 7 | 85 | Old Ruins, Settlement (S) | 1/1/1 |" in md
    assert "| 3 | 2026-01-15 | Ambush | The Iron Skulls vs The Venom Sisters | The Iron Skulls | done |" in md
    assert "| 2 | 2026-01-08 | Stand-off |" in md and "| draw | done |" in md
    assert "| Pip Hollow | Little Sister | dead | 0 | 0 | - | Autopistol |" in md


def test_battle_report_with_saved_report(campaign):
    md = _battle_md(
        campaign, 1,
        {"setup": {"ignored": True},
         "report": {"battlefield": "Zone Mortalis", "captives": [],
                    "changes": [{"gang": "The Iron Skulls", "change": "Reputation +1"}]}},
    )
    assert md.startswith("# Demo: Ashfall Sump: battle 1\n")
    assert "- Winner: The Venom Sisters" in md
    assert "| The Iron Skulls | 1000 | 6 | 80 |" in md
    assert "- Battlefield: Zone Mortalis" in md
    assert "- Gang: The Iron Skulls" in md and "  - Change: Reputation +1" in md
    assert "Captives" not in md  # empty entries left out


def test_battle_report_markdown_text_and_missing(campaign):
    saved = "# Battle 2: The Venom Sisters vs The Iron Skulls\n\n- Winner: none (draw)\n"
    md = _battle_md(campaign, 2, {"report": {"markdown": saved, "winner": ""}})
    assert md == saved  # the post-battle sequence's own report, as written
    md = _battle_md(campaign, 2, {"report": {"markdown": "  "}})
    assert "- Winner: draw" in md and "No report yet" in md
    md = _battle_md(campaign, 4, {})
    assert "No report yet" in md and "- Winner: -" in md
    with pytest.raises(KeyError):
        _battle_md(campaign, 9, {})
