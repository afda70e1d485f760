"""The campaign with a history that the campaign-screen tests share: the demo gangs, the
Yaktribe fixture's gang, three battles fought and one set up."""

from __future__ import annotations

import json
from pathlib import Path

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import BattleSummary, Campaign, Standing
from munda_tui.rules.campaign.yaktribe import gang_from_yaktribe
from munda_tui.saves import Store

FIXTURE = Path(__file__).parent / "fixtures" / "yaktribe" / "157849.json"


def campaign_with_history() -> Campaign:
    """The demo campaign, the Yaktribe gang, three battles fought and one set up."""
    c = demo_campaign()
    c.gangs.append(gang_from_yaktribe(json.loads(FIXTURE.read_text("utf-8"))).gang)
    esc, gol, gsc = "venom-sisters", "iron-skulls", "max-s-marauders"
    c.battles = [
        BattleSummary(1, "2026-01-01", "Sneak Attack", [esc, gol], esc, "done",
                      {esc: Standing(980, 8, 120), gol: Standing(1200, 5, 70)}),
        BattleSummary(2, "2026-01-08", "Stand-off", [gol, gsc], "", "done",
                      {gol: Standing(1240, 6, 95), gsc: Standing(1650, 15, 60)}),
        BattleSummary(3, "2026-01-15", "Ambush", [esc, gsc], gsc, "done",
                      {esc: Standing(1040, 7, 100), gsc: Standing(1715, 16, 30)}),
        BattleSummary(4, "2026-01-22", "", [esc, gol], "", "setup"),
    ]
    return c


def seed(data_dir: Path, campaign: Campaign | None = None) -> str:
    """Save ``campaign`` (the one with a history by default); its slug."""
    campaign = campaign or campaign_with_history()
    Store(data_dir).create_campaign(campaign).close()
    return campaign.id
