"""Issue 26 item 10: the config's defaults for new campaigns are those of every campaign
created: with n on the list, and by `munda-tui import yaktribe` into a new campaign."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from munda_tui.cli import main
from munda_tui.rules.core.model import Settings
from munda_tui.saves import Store

from support import wait_for_screen

FIXTURE = Path(__file__).parents[2] / "fixtures" / "yaktribe" / "157849.json"

DEFAULTS = (  # config.toml written by hand: no schema_version
    'post_battle_ruleset = "turf-war-2017"\n'
    'lasting_injury_table = "core-2023"\n'
    'subplot_decks = "suit"\n'
    "shared_deck = false\n"
    "strict_secrecy = true\n"
    "dice_by_hand = true\n"
)

EXPECTED = Settings(post_battle_ruleset="turf-war-2017",
                    lasting_injury_table="core-2023", subplot_decks="suit", shared_deck=False,
                    strict_secrecy=True, dice_by_hand=True)


async def test_a_campaign_made_with_n_takes_the_configs_defaults(
        make_app: Any, config_dir: Path, data_dir: Path) -> None:
    (config_dir / "config.toml").write_text(DEFAULTS, encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "HomeScreen")
        assert app.config.load_error is None
        await pilot.press("n")
        await wait_for_screen(pilot, "NewCampaignScreen")
        await pilot.press(*"Sump", "enter")
        await wait_for_screen(pilot, "HomeScreen")
    with Store(data_dir).open_campaign("sump") as h:
        assert h.campaign.settings == EXPECTED


async def test_the_form_can_still_choose_the_other_ruleset(
        make_app: Any, config_dir: Path, data_dir: Path) -> None:
    (config_dir / "config.toml").write_text(DEFAULTS, encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "HomeScreen")
        await pilot.press("n")
        await wait_for_screen(pilot, "NewCampaignScreen")
        from textual.widgets import Select

        app.screen.query_one("#ruleset", Select).value = "gang-war"
        await pilot.press(*"Sump", "enter")
        await wait_for_screen(pilot, "HomeScreen")
    with Store(data_dir).open_campaign("sump") as h:
        s = h.campaign.settings
        assert s.post_battle_ruleset == "gang-war" and s.dice_by_hand
        assert s.subplot_decks == "suit"


def test_an_import_into_a_new_campaign_takes_the_configs_defaults(
        config_dir: Path, data_dir: Path) -> None:
    (config_dir / "config.toml").write_text(DEFAULTS, encoding="utf-8")
    assert main(["import", "yaktribe", str(FIXTURE), "--role", "psychic familiar=hanger-on"]) == 0
    with Store(data_dir).open_campaign("taikkuus-campaign") as h:
        assert h.campaign.settings == EXPECTED
