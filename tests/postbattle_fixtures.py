"""Shared set-up for the post-battle tests: the demo campaign with battle 1 fought."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from munda_tui.rules.battle import outcome_to_data
from munda_tui.rules.model import BattleSummary, Campaign, PostBattleRuleset
from munda_tui.rules.outcome import BattleOutcome, EndState, FighterOutcome

ESCHER, GOLIATH = "venom-sisters", "iron-skulls"


def demo_outcome() -> BattleOutcome:
    """Venom Sisters beat the Iron Skulls: two Escher Seriously Injured, one Goliath
    Out of Action, a Goliath who fled."""
    F = FighterOutcome
    return BattleOutcome(
        battle=1, gangs=[ESCHER, GOLIATH], winner=ESCHER, scenario="Stand-off",
        battlefield="Underhive", rounds=5,
        fighters=[
            F(ESCHER, "vexa-nightshade", xp=2),
            F(ESCHER, "sable-thorn"),
            F(ESCHER, "lys-venom", EndState.SERIOUSLY_INJURED, consumables_spent=["Frag grenades"]),
            F(ESCHER, "mara-quill", EndState.SERIOUSLY_INJURED),
            F(ESCHER, "ria-cinder", xp=1),
            F(GOLIATH, "brakk-ironjaw"),
            F(GOLIATH, "dak-cinderfist", EndState.OUT_OF_ACTION,
              taken_out_by=f"{ESCHER}/vexa-nightshade"),
            F(GOLIATH, "thug-varro", EndState.FLED),
        ],
        takes_prisoners={ESCHER: True, GOLIATH: True},
    )


def seed_battle(data_dir: Path, *, ruleset: str = "gang-war", outcome: BattleOutcome | None = None,
                tracker: bool = True) -> str:
    """Save the demo campaign with battle 1 waiting for its post-battle sequence."""
    from munda_tui.cli import ensure_demo
    from munda_tui.saves import Store

    slug = ensure_demo(data_dir)
    store = Store(data_dir)
    with store.open_campaign(slug) as h:
        c: Campaign = h.campaign
        c.settings.post_battle_ruleset = PostBattleRuleset(ruleset)
        c.battles = [BattleSummary(number=1, date="2026-01-15", scenario="Stand-off",
                                   gangs=[ESCHER, GOLIATH], status="post-battle")]
        h.save()
        data: dict[str, Any] = {}
        if tracker:
            data["battle"] = {"log": [], "outcome": outcome_to_data(outcome or demo_outcome())}
        h.save_battle(1, data)
    return slug
