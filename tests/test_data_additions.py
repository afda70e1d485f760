"""One data file each: a scenario table, a Sub-plot deck, a fighter condition and a
post-battle ruleset added as one file of a pack (the player's ``<config>/packs/<pack>/``,
in the package's own format: issue 35) show up in the flow, with no code changed.

The added files are test data, named as such (never shipped, never rules text).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from munda_tui.rules.prebattle import flow as pre
from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.subplots import decks as sp
from munda_tui.rules.core.cards import RANKS, Card
from munda_tui.rules.core.data import RuleData
from munda_tui.rules.core.model import GangType
from munda_tui.saves.packs import load_packs

PACKAGED = Path(sc.__file__).resolve().parents[1] / "data"

TEST_TABLE = '''\
table = "test_hazard"
title = "Test Hazard"
dice = "D3"
roller = "either"
step = "scenario"
order = 25
source = "test data"

[[entries]]
roll = "1"
name = "Test hazard one"
text = "Test text one."

[[entries]]
roll = "2"
name = "Test hazard two"
text = "Test text two."

[[entries]]
roll = "3"
name = "Test hazard three"
text = "Test text three."
'''


def _deck_file() -> str:
    cards = "".join(
        f'''
[[cards]]
rank = "{rank}"
name = "Test plot {rank}"
text = "Test text {rank}."
reveal = "discretion"
trigger = "test"
completes = "on reveal"
rewards = [{{ kind = "reputation", to = "gang", dice = "1" }}]
'''
        for rank in RANKS
    )
    return f'''\
id = "test-cogs"
name = "Test Cogs"
kind = "house"
house = "Cogs"
suit = ""
source = "test data"
{cards}'''


PACK = 'id = "test-club"\ntitle = "Test club (test data)"\nversion = "1"\n'


@pytest.fixture
def data_copy(config_dir: Path) -> Path:
    """A pack of the player's (test data), as a folder of the package's layout."""
    folder = config_dir / "packs" / "test-club"
    folder.mkdir(parents=True)
    (folder / "pack.toml").write_text(PACK, encoding="utf-8")
    return folder


def pack_data(folder: Path) -> RuleData:
    """The rule data with the pack in ``folder``'s config (every file checks)."""
    packs = load_packs(folder.parent.parent)
    assert packs.problems == []
    return packs.data


def test_a_scenario_table_is_one_data_file(data_copy: Path) -> None:
    (data_copy / "scenario").mkdir()
    (data_copy / "scenario" / "test_hazard.toml").write_text(TEST_TABLE, encoding="utf-8")
    data = pack_data(data_copy)
    if True:
        tables = sc.packaged_tables(data)
        assert "test_hazard" in tables
        assert tables["test_hazard"].origin == str(data_copy / "scenario" / "test_hazard.toml")
        setup = sc.new_setup(1, "a", "b")
        rows = pre.rows(tables, setup)
        # its own row, placed by its order between Objective (20) and Crew (30)
        assert [r.table for r in rows] == ["deployment", "objective", "test_hazard", "crew",
                                           "side_job", "side_job"]
        hazard = pre.Row("test_hazard")
        assert pre.result_of(setup, hazard) == ""
        assert "Test Hazard" in pre.missing(tables, setup)
        roll, entry = tables["test_hazard"].roll(random.Random(3))
        pre.apply_result(setup, hazard, entry)
        assert pre.result_of(setup, hazard) == entry.name
        assert "Test Hazard" not in pre.missing(tables, setup)
        assert [(t.id, name) for t, _g, _e, name in pre.added_results(tables, setup)] == [
            ("test_hazard", entry.name)]
        # stored with the set-up and back
        again = type(setup).from_data(setup.to_data())
        assert again.results == {"test_hazard": entry.name}
        assert "test_hazard" in sc.export_tables(tables)
    assert "test_hazard" not in sc.packaged_tables()  # the package's data alone


def test_a_table_without_its_file_leaves_the_setup_file_unchanged() -> None:
    setup = sc.new_setup(1, "a", "b")
    assert "results" not in setup.to_data()


def test_a_bad_step_is_refused_with_its_key(data_copy: Path) -> None:
    (data_copy / "scenario").mkdir()
    path = data_copy / "scenario" / "test_hazard.toml"
    path.write_text(TEST_TABLE.replace('step = "scenario"', 'step = "crews"'), encoding="utf-8")
    packs = load_packs(data_copy.parent.parent)
    assert packs.problems == [f"{path}:5:1: step: must be 'scenario', not 'crews'"]
    assert "test_hazard" not in sc.packaged_tables(packs.data)  # left out


def test_a_subplot_deck_is_one_data_file(data_copy: Path) -> None:
    (data_copy / "subplots").mkdir()
    (data_copy / "subplots" / "test-cogs.toml").write_text(_deck_file(), encoding="utf-8")
    data = pack_data(data_copy)
    if True:
        assert "test-cogs" in sp.deck_ids(data)
        assert sp.house_deck_ids(data)["Cogs"] == "test-cogs"
        assert sp.house_deck(GangType.COGS, data) == "test-cogs"
        assert sp.card("test-cogs:Q", data).name == "Test plot Q"
        # the draw: a Cogs gang drawing from its House deck gets the deck's card for the rank
        assert sp.subplot_for(Card("Q", "hearts"), "test-cogs", data).name == "Test plot Q"
        draw = sp.SubplotDraw(["cogs-gang"], rng=random.Random(1),
                              house_decks={"cogs-gang": "test-cogs"}, data=data)
        assert draw.sides["cogs-gang"].deck == "test-cogs"
        exported = next(d for d in sp.export_section(data) if d["id"] == "test-cogs")
        assert exported["pack"] == "test-club"
        assert exported["file"] == str(data_copy / "subplots" / "test-cogs.toml")
    assert "test-cogs" not in sp.DECK_IDS


def test_the_packaged_deck_lists_come_from_the_deck_files() -> None:
    assert sp.DECK_IDS[:6] == ("cawdor", "delaque", "escher", "goliath", "orlock", "van-saar")
    assert sp.SUIT_DECKS == {"spades": "industrial-sabotage", "hearts": "noble-whims",
                             "clubs": "unforgiving-underhive", "diamonds": "dark-influences"}


async def test_the_added_table_is_a_line_of_the_scenario_step_and_rolls(
        data_copy: Path, data_dir: Path, make_app) -> None:  # type: ignore[no-untyped-def]
    from textual.widgets import OptionList

    from prebattle_states import seed_state
    from support import wait_for_screen

    (data_copy / "scenario").mkdir()
    (data_copy / "scenario" / "test_hazard.toml").write_text(TEST_TABLE, encoding="utf-8")
    if True:  # (the player's pack: the app reads it)
        slug = seed_state(data_dir, "scenario")
        app = make_app(seed=11, campaign=slug)
        async with app.run_test(size=(100, 32)) as pilot:
            await wait_for_screen(pilot, "CampaignScreen")
            app.open_battle(1)
            await wait_for_screen(pilot, "PreBattleScreen")
            lines = pilot.app.screen.query_one("#sc-rolls", OptionList)
            texts = [str(lines.get_option_at_index(i).prompt) for i in range(lines.option_count)]
            assert texts[2].startswith("Test Hazard") and texts[2].endswith("— Enter: roll/choose")
            await pilot.press("a")  # roll everything still open
            await pilot.pause()
            setup = pilot.app.screen.setup
            assert setup.results["test_hazard"].startswith("Test hazard")
            texts = [str(lines.get_option_at_index(i).prompt) for i in range(lines.option_count)]
            assert texts[2].endswith(setup.results["test_hazard"])
            stored = app.handle.load_battle(1)["setup"]["results"]
            assert stored == setup.results


TEST_CONDITION = '''
[[conditions]]
name = "Test Condition"
key = "W"
label = "TestC"
help = "Test Condition: gain or lose"
short = "Tst"
lost = ""
footer = true
'''


def test_a_fighter_condition_is_one_data_file(data_copy: Path) -> None:
    from munda_tui.rules.battle import events as rb
    from munda_tui.rules.battle import conditions as conditions
    from munda_tui.widgets.fighter_table import conditions_text

    (data_copy / "conditions.toml").write_text(TEST_CONDITION, encoding="utf-8")
    data = pack_data(data_copy)
    if True:
        assert "Test Condition" in conditions.names(data)
        assert conditions.find("Test Condition", data).key == "W"
        c = demo_campaign_with_battle()
        setup = rb.default_setup(c, 1, c.gangs[0].id, c.gangs[1].id)
        battle = rb.Battle([rb.start_event(setup, c)])
        fighter = next(iter(battle.state.fighters))
        gain = rb.ConditionEvent(fighter=fighter, condition="Test Condition")
        battle.log_event(gain)
        assert "Test Condition" in battle.state.fighters[fighter].conditions
        assert conditions_text(battle.state.fighters[fighter], data) == "Tst"
        lose = rb.ConditionEvent(fighter=fighter, condition="Test Condition", lost=True)
        assert rb.describe(lose, battle.state).endswith("no longer Test Condition")
    assert "Test Condition" not in rb.CONDITIONS  # the package's alone


def demo_campaign_with_battle():  # type: ignore[no-untyped-def]
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.rules.core.model import BattleSummary

    c = demo_campaign()
    c.battles.append(BattleSummary(1, date="2026-01-15", gangs=[c.gangs[0].id, c.gangs[1].id],
                                   status="battle"))
    return c


async def test_the_tracker_binds_the_added_condition_and_lists_it(
        data_copy: Path, data_dir: Path, make_app) -> None:  # type: ignore[no-untyped-def]
    """The tracker's keys, help and table come from the packs in force: a pack's condition
    has its key on the tracker, in its help, and the key records it."""
    from munda_tui.rules.battle import events as rb
    from munda_tui.saves import Store
    from munda_tui.screens.battle.screen import BattleScreen
    from support import wait_for_screen

    (data_copy / "conditions.toml").write_text(TEST_CONDITION, encoding="utf-8")
    c = demo_campaign_with_battle()
    setup = rb.default_setup(c, 1, c.gangs[0].id, c.gangs[1].id)
    data = {"setup": setup.to_data(),
            "battle": {**rb.Battle([rb.start_event(setup, c)]).to_data(), "start_walked": True}}
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, data)
    assert not any(b.key == "W" for b in BattleScreen.BINDINGS)  # (the package's keys)
    app = make_app(seed=1, campaign=c.id)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        app.open_battle(1)
        await wait_for_screen(pilot, "BattleScreen")
        screen = app.screen
        binding = next(b for _k, b in screen._bindings if b.key == "W")
        assert binding.action == "condition('Test Condition')"
        assert binding.id == "battle.condition-test-condition"
        assert "Tst Test Condition" in screen.HELP
        await pilot.press("W")
        await pilot.pause()
        log = rb.Battle.from_data(app.handle.load_battle(1)["battle"]).log
        assert log[-1].kind == "condition" and log[-1].condition == "Test Condition"
        assert "Tst" in screen.table(0).render_line(1).text + "".join(
            screen.table(0)._rows.values())


def _test_ruleset(data_copy: Path) -> None:
    """A post-battle ruleset that is test data: Gang War's steps under another id, title
    and choice, placed after the shipped ones."""
    text = (PACKAGED / "postbattle" / "gang-war.toml").read_text(encoding="utf-8")
    text = text.replace('id = "gang-war"', 'id = "test-league"', 1)
    text = text.replace('title = "Gang War"', 'title = "Test League"', 1)
    text = text.replace('choice = "Gang War (Core Rules post-battle sequence)"',
                        'choice = "Test League (test data)"', 1)
    text = text.replace("order = 10", "order = 90", 1)
    (data_copy / "postbattle").mkdir()
    (data_copy / "postbattle" / "test-league.toml").write_text(text, encoding="utf-8")


def test_a_post_battle_ruleset_is_one_data_file(data_copy: Path) -> None:
    from munda_tui.rules.postbattle import sequence as pb
    from munda_tui.rules.core.rulesets import default_ruleset, ruleset_choices

    _test_ruleset(data_copy)
    data = pack_data(data_copy)
    if True:
        assert ruleset_choices(data)[-1] == ("Test League (test data)", "test-league")
        assert default_ruleset(data) == "gang-war"  # (still the first in order)
        assert [r["id"] for r in pb.export_section(data)["rulesets"]][-1] == "test-league"
        draft = pb.new_draft("test-league", data=data)
        assert draft["ruleset"] == "test-league"
    assert "test-league" not in dict(map(reversed, ruleset_choices()))  # type: ignore[arg-type]


async def test_a_new_ruleset_file_alone_appears_in_the_new_campaign_choices(
        data_copy: Path, make_app, data_dir) -> None:
    from textual.widgets import Select

    from munda_tui.saves import Store

    _test_ruleset(data_copy)
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        select = app.screen.query_one("#ruleset", Select)
        assert ("Test League (test data)", "test-league") in [
            (str(label), value) for label, value in select._options]
        for ch in "League":
            await pilot.press(ch)
        select.value = "test-league"  # (as picked from the list)
        await pilot.press("enter")
        await pilot.pause()
    with Store(data_dir).open_campaign("league") as handle:
        assert handle.campaign.settings.post_battle_ruleset == "test-league"


def test_the_model_default_is_the_first_ruleset_and_no_code_names_a_ruleset() -> None:
    import re

    import munda_tui
    from munda_tui.rules.core.model import Settings
    from munda_tui.rules.core.rulesets import default_ruleset, ruleset_ids
    from munda_tui.saves.config import Config

    assert Settings().post_battle_ruleset == Config().post_battle_ruleset == default_ruleset()
    package = Path(munda_tui.__file__).resolve().parent
    pattern = re.compile("|".join(re.escape(f'"{rid}"') for rid in ruleset_ids()))
    named = [f"{p.relative_to(package)}:{i}" for p in sorted(package.rglob("*.py"))
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line) and "post_battle_ruleset: str =" not in line]
    assert named == [], "a branch on a ruleset id: make it a property of the ruleset's file"
