"""The club's packs (issue 35): every kind a pack holds, read from the player's folder
(``<config>/packs/<pack>/``) and from a campaign's (``<campaign>/packs/<pack>/``), in the
package's own format; a broken file reported as ``path:line:col: message`` and left out,
the rest applying, never rewritten; an item replaced only when its file says so.

Every pack here is TEST DATA: neutral made-up club content, never rules text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from munda_tui.rules.core.cards import RANKS
from munda_tui.rules.core.data import PACKAGE, RuleData
from munda_tui.saves.packs import add_pack, check_path, load_packs

PACKAGED = Path(__file__).resolve().parents[2] / "munda_tui" / "rules" / "data"


def manifest(pack_id: str = "test-club", version: str = "1") -> str:
    return f'id = "{pack_id}"\ntitle = "Test club (test data)"\nversion = "{version}"\n'


def write_pack(root: Path, files: dict[str, str], pack_id: str = "test-club",
               version: str = "1") -> Path:
    folder = root / "packs" / pack_id
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.toml").write_text(manifest(pack_id, version), encoding="utf-8")
    for rel, text in files.items():
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        (folder / rel).write_text(text, encoding="utf-8")
    return folder


def deck_text(deck_id: str = "test-cogs", house: str = "Cogs") -> str:
    cards = "".join(
        f'\n[[cards]]\nrank = "{r}"\nname = "Test plot {r}"\ntext = "Test text {r}."\n'
        f'reveal = "discretion"\ntrigger = "test"\ncompletes = "on reveal"\n'
        f'rewards = [{{ kind = "reputation", to = "gang", dice = "1" }}]\n' for r in RANKS)
    return (f'id = "{deck_id}"\nname = "Test Cogs"\nkind = "house"\nhouse = "{house}"\n'
            f'suit = ""\nsource = "test data"\n{cards}')


def ruleset_text() -> str:
    text = (PACKAGED / "postbattle" / "gang-war.toml").read_text(encoding="utf-8")
    return (text.replace('id = "gang-war"', 'id = "test-league"', 1)
            .replace('title = "Gang War"', 'title = "Test League"', 1)
            .replace('choice = "Gang War (Core Rules post-battle sequence)"',
                     'choice = "Test League (test data)"', 1)
            .replace("order = 10", "order = 90", 1))


TABLE = '''table = "test_hazard"
title = "Test Hazard"
dice = "D3"
roller = "either"
order = 25
source = "test data"
''' + "".join(f'\n[[entries]]\nroll = "{n}"\nname = "Test hazard {n}"\ntext = "Test text {n}."\n'
              for n in (1, 2, 3))

#: one file of each kind, and how the rules see its item: (kind, id)
KIND_FILES: dict[str, tuple[str, str, str]] = {
    "scenario": ("scenario/test_hazard.toml", TABLE, "test_hazard"),
    "subplots": ("subplots/test-cogs.toml", deck_text(), "test-cogs"),
    "postbattle": ("postbattle/test-league.toml", ruleset_text(), "test-league"),
    "conditions": ("conditions.toml", '[[conditions]]\nname = "Test Condition"\nkey = "W"\n'
                   'label = "TestC"\nhelp = "Test Condition: gain or lose"\nshort = "Tst"\n',
                   "Test Condition"),
    "xp_awards": ("xp_awards.toml", '[[events]]\nid = "test_event"\nlabel = "a test event"\n'
                  'per = "each test event (test data)"\n', "test_event"),
    "injuries": ("injuries.toml", '[tables.test-injuries]\ntitle = "Test injuries"\n'
                 'dice = "D6"\nsource = "test data"\n\n[[tables.test-injuries.rows]]\nmin = 1\n'
                 'max = 6\nname = "Test injury"\neffect = "test data"\n', "test-injuries"),
    "fighter_roles": ("fighter_roles.toml", '[types]\n"test runner" = "Ganger"\n\n[[lists]]\n'
                      'gang = "Test Gang"\ntypes = { "test boss" = "Leader" }\n', "test runner"),
    "watchers": ("watchers.toml", '[cards."cawdor:3"]\nkind = "win_by_round"\nbefore_round = 3\n',
                 "cawdor:3"),
    "counters": ("counters.toml", '[[counters]]\nid = "test_scrap"\nname = "Test scrap"\nmin = 0\n',
                 "test_scrap"),
}


@pytest.mark.parametrize("where", ["player", "campaign"])
@pytest.mark.parametrize("kind", sorted(KIND_FILES))
def test_each_kind_loads_from_the_players_and_the_campaigns_folder(
        tmp_path: Path, kind: str, where: str) -> None:
    config, campaign = tmp_path / "config", tmp_path / "campaign"
    rel, text, item_id = KIND_FILES[kind]
    folder = write_pack(config if where == "player" else campaign, {rel: text})
    if kind == "watchers" and PACKAGE.item("watchers", item_id) is not None:
        pytest.fail("the test's watcher card has one in the package: pick another")
    packs = load_packs(config, campaign)
    assert packs.problems == []
    item = packs.data.item(kind, item_id)
    assert item is not None, packs.data.item_ids(kind)
    assert item.source.pack == "test-club"
    assert item.source.file == str(folder / rel)
    assert packs.packs[0].where == where
    assert PACKAGE.item(kind, item_id) is None  # the package's data alone has none


def test_the_kinds_reach_the_rules_that_read_them(tmp_path: Path) -> None:
    from munda_tui.rules.battle import conditions
    from munda_tui.rules.battle.watch import watcher_table
    from munda_tui.rules.campaign.career import xp_events
    from munda_tui.rules.campaign.yaktribe import fighter_type_from_label
    from munda_tui.rules.core.model import FighterType
    from munda_tui.rules.postbattle.core import injury_table
    from munda_tui.rules.subplots.decks import card

    write_pack(tmp_path, {rel: text for rel, text, _id in KIND_FILES.values()})
    packs = load_packs(tmp_path)
    assert packs.problems == []
    data = packs.data
    assert conditions.short("Test Condition", data) == "Tst"
    assert "test_event" in [e["id"] for e in xp_events(data)]
    assert injury_table("test-injuries", data)["title"] == "Test injuries"
    assert watcher_table(data)["cawdor:3"]["kind"] == "win_by_round"
    assert card("test-cogs:K", data).name == "Test plot K"
    # a gang the package does not know: the club supplies its fighters' roles
    assert fighter_type_from_label("Test Boss", gang="Test Gang", data=data) is FighterType.LEADER
    assert fighter_type_from_label("Test Runner", data=data) is FighterType.GANGER
    assert fighter_type_from_label("Test Boss", gang="Test Gang") is None


def test_the_campaigns_packs_come_after_the_players(tmp_path: Path) -> None:
    write_pack(tmp_path / "config", {}, "mine")
    write_pack(tmp_path / "campaign", {}, "ours")
    packs = load_packs(tmp_path / "config", tmp_path / "campaign")
    assert [(p.id, p.where) for p in packs.packs] == [("mine", "player"), ("ours", "campaign")]
    assert [r["id"] for r in packs.records()] == ["mine", "ours"]


def test_a_broken_file_is_said_with_its_line_left_out_and_never_rewritten(tmp_path: Path) -> None:
    bad = TABLE.replace('title = "Test Hazard"', 'tilte = "Test Hazard"')
    folder = write_pack(tmp_path, {"scenario/test_hazard.toml": bad,
                                   "conditions.toml": KIND_FILES["conditions"][1]})
    path = folder / "scenario" / "test_hazard.toml"
    before = path.read_bytes()
    packs = load_packs(tmp_path)
    assert packs.problems == [
        f"{path}:2:1: tilte: unknown key 'tilte' (did you mean 'title'?)"]
    assert packs.data.item("scenario", "test_hazard") is None  # left out
    assert packs.data.item("conditions", "Test Condition") is not None  # the rest applies
    assert path.read_bytes() == before
    assert check_path(folder) == packs.problems
    assert check_path(path) == packs.problems


def test_a_toml_error_and_a_bad_manifest_are_said_with_their_place(tmp_path: Path) -> None:
    folder = write_pack(tmp_path, {"xp_awards.toml": "[[events]\n"})
    packs = load_packs(tmp_path)
    assert len(packs.problems) == 1
    assert packs.problems[0].startswith(f"{folder / 'xp_awards.toml'}:1:")
    (folder / "pack.toml").write_text('id = "test-club"\ntitle = "T"\nverison = "1"\n')
    packs = load_packs(tmp_path)
    assert packs.problems == [f"{folder / 'pack.toml'}:3:1: verison: unknown key 'verison' "
                              "(did you mean 'version'?)"]
    assert packs.packs == ()


def test_a_shared_id_replaces_only_when_the_file_says_so(tmp_path: Path) -> None:
    from munda_tui.rules.core.rulesets import load_ruleset

    text = (PACKAGED / "postbattle" / "gang-war.toml").read_text(encoding="utf-8").replace(
        'title = "Gang War"', 'title = "Gang War, test club edition"', 1)
    folder = write_pack(tmp_path, {"postbattle/gang-war.toml": text})
    packs = load_packs(tmp_path)
    path = folder / "postbattle" / "gang-war.toml"
    assert len(packs.problems) == 1
    assert packs.problems[0].startswith(f"{path}:")
    assert "'gang-war' is already a post-battle ruleset" in packs.problems[0]
    assert 'replaces = "gang-war"' in packs.problems[0]
    assert load_ruleset("gang-war", packs.data)["title"] == "Gang War"  # not replaced
    path.write_text('replaces = "gang-war"\n' + text, encoding="utf-8")
    packs = load_packs(tmp_path)
    assert packs.problems == []
    assert load_ruleset("gang-war", packs.data)["title"] == "Gang War, test club edition"
    item = packs.data.item("postbattle", "gang-war")
    assert item is not None and item.replaced is not None and not item.replaced.pack
    # replacing what nothing before has is said too
    path.write_text('replaces = "test-nothing"\n' + text, encoding="utf-8")
    assert "'test-nothing' is not an item of this file" in load_packs(tmp_path).problems[0]


def test_a_condition_with_a_taken_key_is_refused(tmp_path: Path) -> None:
    text = KIND_FILES["conditions"][1].replace('key = "W"', 'key = "b"')
    write_pack(tmp_path, {"conditions.toml": text})
    problems = load_packs(tmp_path).problems
    assert len(problems) == 1 and "key b used twice" in problems[0]


def test_two_packs_with_one_id_keep_the_first(tmp_path: Path) -> None:
    write_pack(tmp_path / "config", {}, "test-club")
    write_pack(tmp_path / "campaign", {}, "test-club")
    packs = load_packs(tmp_path / "config", tmp_path / "campaign")
    assert [p.where for p in packs.packs] == ["player"]
    assert "pack id 'test-club' is also the id of" in packs.problems[0]


def test_a_file_of_no_kind_is_said(tmp_path: Path) -> None:
    folder = write_pack(tmp_path, {"tables/house.toml": 'a = 1\n'})
    assert load_packs(tmp_path).problems == [
        f"{folder / 'tables' / 'house.toml'}:1:1: not a file a pack holds (catalogue.toml, "
        "conditions.toml, counters.toml, fighter_roles.toml, injuries.toml, postbattle/*.toml, "
        "scenario/*.toml, subplots/*.toml, watchers.toml, xp_awards.toml)"]


def test_a_one_file_catalogue_pack_is_a_pack_of_the_same_loader(config_dir: Path) -> None:
    from munda_tui.saves.catalogue import load_packs as load_catalogue_packs

    (config_dir / "packs").mkdir(parents=True)
    (config_dir / "packs" / "list.toml").write_text(
        'name = "Test list"\n\n[[items]]\nname = "Test blade"\ncost = 5\n', encoding="utf-8")
    write_pack(config_dir, {"catalogue.toml": '[[items]]\nname = "Test net"\ncost = 3\n'})
    packs = load_packs(config_dir)
    assert packs.problems == []
    assert [(p.id, p.title) for p in packs.packs] == [("list", "Test list"),
                                                      ("test-club", "Test club (test data)")]
    catalogues, problems = load_catalogue_packs(config_dir)
    assert problems == []
    assert sorted(item.name for _path, cat in catalogues for item in cat.items) == [
        "Test blade", "Test net"]


def test_add_pack_copies_a_checked_pack_into_the_campaign(tmp_path: Path) -> None:
    folder = write_pack(tmp_path / "config", {"conditions.toml": KIND_FILES["conditions"][1]})
    campaign = tmp_path / "campaign"
    campaign.mkdir()
    target = add_pack(folder, campaign)
    assert target == campaign / "packs" / "test-club"
    packs = load_packs(None, campaign)
    assert packs.problems == [] and packs.packs[0].where == "campaign"
    assert packs.records()[0]["hash"] == load_packs(tmp_path / "config").records()[0]["hash"]
    from munda_tui.saves.errors import SaveError

    with pytest.raises(SaveError, match="has a pack of that name already"):
        add_pack(folder, campaign)


def test_a_rule_data_is_given_not_global() -> None:
    """Two RuleData side by side never share what they built (no module global)."""
    from munda_tui.rules.battle import conditions
    from munda_tui.rules.core.data import Pack, PackFile

    rel, text, _ = KIND_FILES["conditions"]
    import tomllib

    one = RuleData((Pack("test-club", "T", "1", files=(PackFile(rel, tomllib.loads(text), "x"),)),))
    assert "Test Condition" in conditions.names(one)
    assert "Test Condition" not in conditions.names(RuleData())
    assert "Test Condition" not in conditions.names()


def test_munda_tui_check_lists_a_broken_pack_of_the_config_and_of_a_campaign(
        tmp_path: Path, config_dir: Path) -> None:
    from munda_tui.saves.check import check_paths

    bad = TABLE.replace('title = "Test Hazard"', 'tilte = "Test Hazard"')
    mine = write_pack(config_dir, {"scenario/test_hazard.toml": bad})
    expected = f"{mine / 'scenario' / 'test_hazard.toml'}:2:1: tilte: unknown key 'tilte'"
    problems = check_paths([config_dir])
    assert len(problems) == 1 and problems[0].startswith(expected)
    (config_dir / "packs" / "test-club" / "scenario" / "test_hazard.toml").write_text(TABLE)
    assert check_paths([config_dir]) == []


async def test_the_app_says_a_broken_pack_once_at_start_up(config_dir: Path, make_app) -> None:
    bad = TABLE.replace('title = "Test Hazard"', 'tilte = "Test Hazard"')
    folder = write_pack(config_dir, {"scenario/test_hazard.toml": bad})
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]
        assert len([m for m in said if "A pack file was left out" in m]) == 1
        assert any(f"{folder / 'scenario' / 'test_hazard.toml'}:2:1" in m.replace("\n", "")
                   for m in said)
        app._say_pack_problems()  # (again: nothing new to say)
        assert len([n for n in app._notifications if "left out" in str(n.message)]) == 1


async def test_a_battle_records_its_packs_and_says_when_one_is_missing_or_changed(
        config_dir: Path, data_dir: Path, make_app) -> None:  # type: ignore[no-untyped-def]
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.saves import Store
    from support import wait_for_screen

    folder = write_pack(config_dir, {"conditions.toml": KIND_FILES["conditions"][1]})
    with Store(data_dir).create_campaign(demo_campaign()):
        pass
    app = make_app(campaign="demo")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        number = app.new_battle()
        await wait_for_screen(pilot, "PreBattleScreen")
        await pilot.pause()
        recorded = app.handle.load_battle(number)["packs"]["played_with"]
        assert recorded == load_packs(config_dir).records()
        assert not [n for n in app._notifications if "played with other packs" in str(n.message)]
    (folder / "pack.toml").write_text(manifest(version="2"), encoding="utf-8")
    app = make_app(campaign="demo")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        app.open_battle(number)
        await wait_for_screen(pilot, "PreBattleScreen")  # (it opens)
        said = [str(n.message) for n in app._notifications]
        assert any("pack 'test-club' changed since (version 1 then, 2 now)" in m for m in said)
    import shutil

    shutil.rmtree(folder)
    app = make_app(campaign="demo")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        app.open_battle(number)
        await wait_for_screen(pilot, "PreBattleScreen")
        said = [str(n.message) for n in app._notifications]
        assert any("pack 'test-club' 1 is missing now" in m for m in said)


async def test_a_battle_set_up_before_packs_were_recorded_says_it_has_no_record(
        config_dir: Path, data_dir: Path, make_app) -> None:  # type: ignore[no-untyped-def]
    """Issue 35.5: a battle file without a [packs] record (set up before battles kept
    one) opens and says plainly it has no record, never that a pack is missing or
    changed; a battle set up with no pack in force records none (an empty list) and
    says nothing when a pack is in force later."""
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.saves import Store
    from support import wait_for_screen

    with Store(data_dir).create_campaign(demo_campaign()):
        pass
    app = make_app(campaign="demo")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        plain = app.new_battle()  # (no pack in force)
        await wait_for_screen(pilot, "PreBattleScreen")
        await pilot.pause()
        assert app.handle.load_battle(plain)["packs"] == {"played_with": []}
        app.pop_screen()
        await wait_for_screen(pilot, "CampaignScreen")
        older = app.new_battle()
        await wait_for_screen(pilot, "PreBattleScreen")
        await pilot.pause()
        path = app.handle.battle_path(older)
    text = path.read_text(encoding="utf-8")
    start = text.index("[packs]")
    path.write_text(text[:start] + text[start:].split("\n", 2)[2], encoding="utf-8")
    write_pack(config_dir, {"conditions.toml": KIND_FILES["conditions"][1]})
    app = make_app(campaign="demo")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        assert "packs" not in app.handle.load_battle(older)
        app.open_battle(older)
        await wait_for_screen(pilot, "PreBattleScreen")  # (it opens)
        said = [str(n.message) for n in app._notifications]
        assert any(f"Battle {older} has no record of the packs it was played with" in m
                   and "(test-club 1)" in m for m in said), said
        assert not any("missing" in m or "changed" in m for m in said)
        app.pop_screen()
        await wait_for_screen(pilot, "CampaignScreen")
        app._notifications.clear()
        app.open_battle(plain)
        await wait_for_screen(pilot, "PreBattleScreen")
        assert not [n for n in app._notifications if "pack" in str(n.message).lower()]


def test_record_changes_says_a_changed_content_and_an_unreadable_record() -> None:
    from munda_tui.rules.core.data import Pack
    from munda_tui.rules.packs.check import record_changes

    data = RuleData((Pack("test-club", "T", "1", digest="bbb"),))
    assert record_changes([{"id": "test-club", "version": "1", "hash": "bbb"}], data) == []
    assert record_changes([{"id": "test-club", "version": "1", "hash": "aaa"}], data) == [
        "pack 'test-club' 1 changed since (same version, other content)"]
    assert record_changes("nonsense", data) == [
        "its record of the packs it was played with does not read"]


def test_a_packs_deck_is_drawn_hidden_and_followed_as_a_house_deck(tmp_path: Path) -> None:
    """Issue 35.6: a pack's House deck (test data) is drawn for that House's gang, its
    cards are known to the tracker (names, the owner's hand view, its watcher), and an
    export another player reads leaves them out until revealed, as a House deck's."""
    import random

    from munda_tui.rules.battle import events as rb
    from munda_tui.rules.battle.flow import BattleFlow
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.rules.core.model import BattleSummary
    from munda_tui.rules.subplots import decks as sp

    write_pack(tmp_path, {"subplots/test-cogs.toml": deck_text(),
                          "watchers.toml": '[cards."test-cogs:A"]\nkind = "flawless_victory"\n'})
    data = load_packs(tmp_path).data
    # the draw: the Cogs gang's cards come from the pack's deck, and a saved draw resumes
    draw = sp.draw_all(["cogs", "other"], random.Random(4),
                       house_decks={"cogs": sp.house_deck("Cogs", data), "other": None},
                       data=data)
    hand = draw.sides["cogs"].hand
    assert hand and all(c.startswith("test-cogs:") for c in hand)
    order = sp.DrawOrder("cogs", "other", "test")
    again, _order = sp.resume_draw(sp.draw_record(draw, order), data)
    assert again.sides["cogs"].hand == hand
    with pytest.raises(sp.SubplotError):  # (without the pack, its deck is not known)
        sp.resume_draw(sp.draw_record(draw, order))
    # the tracker: the cards by name, in the owner's view, watched
    c = demo_campaign()
    c.battles.append(BattleSummary(1, date="2026-01-15", gangs=[c.gangs[0].id, c.gangs[1].id],
                                   status="battle"))
    setup = rb.default_setup(c, 1, c.gangs[0].id, c.gangs[1].id)
    setup.sides[0].hand = ["test-cogs:A"]
    flow = BattleFlow(c, 1, setup=setup, rule_data=data)
    assert flow.unknown_cards == [] and flow.card_names["test-cogs:A"] == "Test plot A"
    assert [m.card for m in flow.hand_matches(c.gangs[0].id)] == ["test-cogs:A"]
    views = flow.phone_views()
    assert [v.name for v in views[c.gangs[0].id].cards] == ["Test plot A"]
    assert views[c.gangs[1].id].cards == ()  # the other player's view holds none of it
    assert BattleFlow(c, 1, setup=setup).unknown_cards == ["test-cogs:A"]  # (no pack)
    # what leaves the table: the hidden card is left out of an export
    public, withheld = sp.without_hidden_cards(
        {"setup": setup.to_data(), "battle": flow.battle_record.to_data()})
    assert withheld == 1 and public["setup"]["sides"][0]["hand"] == []


def test_a_packs_choose_crew_card_is_read_as_a_house_decks_is(tmp_path: Path,
                                                                config_dir: Path) -> None:
    """Issue 35.6: the public checks read the packs in force, not only the package's
    decks: a pack deck's card revealed at Choose Crew with an open choice reduces the
    crew (its bound checked), is public in the tracker's record, and is kept in an export
    another player reads, as a House deck's card is (each failed with the package's
    decks alone: the card was unknown there, so kept hidden and no crew reduced)."""
    from munda_tui.rules.battle import events as rb
    from munda_tui.rules.battle.record import public_cards
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.rules.prebattle import scenario as sc
    from munda_tui.rules.prebattle.setup import CrewMember
    from munda_tui.rules.subplots import decks as sp
    from munda_tui.saves import Store
    from munda_tui.saves.export import export_data

    text = deck_text().replace(
        'name = "Test plot A"\ntext = "Test text A."\nreveal = "discretion"',
        'name = "Test plot A"\ntext = "Test text A."\nreveal = "choose_crew"\n'
        'choice = "crew_reduction"', 1)
    write_pack(config_dir, {"subplots/test-cogs.toml": text})
    data = load_packs(config_dir).data
    assert sp.card("test-cogs:A", data).choice == "crew_reduction"
    c = demo_campaign()
    gang = c.gangs[0]
    setup = rb.default_setup(c, 1, gang.id, c.gangs[1].id)
    side = setup.sides[0]
    side.hand = ["test-cogs:A"]
    side.subplot_choices = {"test-cogs:A": "1"}
    side.crew = [CrewMember(f.id) for f in gang.fighters[:3]]
    assert sc.crew_reduction(side, data) == ("test-cogs:A", 1)
    assert sc.crew_reduction_due(side, data) == 1
    sc.reduce_crew(side, gang, [gang.fighters[0].id], data)
    assert side.crew_removed == [gang.fighters[0].id]
    assert sc.crew_reduction(side) is None  # (without the pack: no such card)
    assert public_cards(setup, data) == {gang.id: {"test-cogs:A": "1"}}
    assert public_cards(setup) == {}
    battle = {"setup": setup.to_data(), "battle": {"log": []}}
    public, withheld = sp.without_hidden_cards(battle, data)
    assert withheld == 0 and public["setup"]["sides"][0]["hand"] == ["test-cogs:A"]
    # the export reads the packs in force for the campaign (the player's here)
    store = Store(tmp_path / "data")
    with store.create_campaign(demo_campaign()) as handle:
        handle.update_battle(1, "setup", setup.to_data())
        exported = export_data(handle)
    sides = exported["battles"][0]["data"]["setup"]["sides"]
    assert sides[0]["hand"] == ["test-cogs:A"] and "subplots_withheld" not in exported


def test_a_pack_added_on_one_laptop_reaches_the_other_on_sync(tmp_path: Path) -> None:
    """Issue 35.7 (the shared files): `pack add` on one laptop of a league, a sync, and the
    other laptop's campaign has the pack in force after its own sync."""
    import shutil as _shutil
    import subprocess

    from munda_tui.saves import Store
    from munda_tui.saves.league import init, join, sync

    if _shutil.which("git") is None:
        pytest.skip("needs git")
    from league_support import league

    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    ana, bo = Store(tmp_path / "ana"), Store(tmp_path / "bo")
    with ana.create_campaign(league()) as handle:
        init(handle, str(remote))
    assert join(bo, str(remote)) == "club-league"
    mine = write_pack(tmp_path / "config", {"conditions.toml": KIND_FILES["conditions"][1],
                                            "catalogue.toml": '[[items]]\nname = "Test net"\n'})
    with ana.open_campaign("club-league") as handle:
        add_pack(mine, handle.path)
        sync(handle)
    with bo.open_campaign("club-league") as handle:
        sync(handle)
        packs = load_packs(None, handle.path)
        assert packs.problems == []
        assert [(p.id, p.where) for p in packs.packs] == [("test-club", "campaign")]
        assert packs.records() == load_packs(tmp_path / "config").records()
        assert (handle.path / "packs" / "test-club" / "catalogue.toml").is_file()  # (not the
        # campaign's own catalogue.toml, which each laptop learns and never shares)


def _two_versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A league of two laptops (Ana, Bo) sharing pack test-club version 1; then Ana makes
    it version 2 (its condition's short name changed) and syncs, and Bo adds a scenario
    table to his version 1: (ana's store, bo's store, Ana's pack files, Bo's)."""
    import shutil as _shutil
    import subprocess

    from munda_tui.saves import Store
    from munda_tui.saves.league import init, join, sync

    if _shutil.which("git") is None:
        pytest.skip("needs git")
    from league_support import league

    remote = tmp_path / "remote.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    ana, bo = Store(tmp_path / "ana"), Store(tmp_path / "bo")
    with ana.create_campaign(league()) as handle:
        init(handle, str(remote))
    assert join(bo, str(remote)) == "club-league"
    mine = write_pack(tmp_path / "config", {"conditions.toml": KIND_FILES["conditions"][1]})
    monkeypatch.setenv("MUNDA_PLAYER", "Ana")
    with ana.open_campaign("club-league") as handle:
        add_pack(mine, handle.path)
        sync(handle)
    with bo.open_campaign("club-league") as handle:
        sync(handle)
        assert load_packs(None, handle.path).packs[0].version == "1"
    with ana.open_campaign("club-league") as handle:
        folder = handle.path / "packs" / "test-club"
        (folder / "pack.toml").write_text(manifest(version="2"), encoding="utf-8")
        (folder / "conditions.toml").write_text(
            KIND_FILES["conditions"][1].replace('short = "Tst"', 'short = "Ts2"'), encoding="utf-8")
        sync(handle)
        anas = _files(folder)
    with bo.open_campaign("club-league") as handle:
        folder = handle.path / "packs" / "test-club"
        (folder / "scenario").mkdir()
        (folder / "scenario" / "test_hazard.toml").write_text(TABLE, encoding="utf-8")
        bos = _files(folder)
    return ana, bo, anas, bos


def _files(folder: Path) -> dict[str, bytes]:
    """A folder's files (its backups left out: each laptop's own)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and ".backups" not in p.relative_to(folder).parts}


def _in_force(handle: Any) -> tuple[str, list[str]]:
    """The campaign pack in force on a laptop: its version and its files."""
    [pack] = load_packs(None, handle.path).packs
    return pack.version, sorted(f.relpath for f in pack.files)


def test_two_versions_of_one_pack_in_a_league_are_a_league_question(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35.7: two laptops with different versions of one pack get a league question,
    not a silent choice nor a mix of files. The sync goes through (nothing stops it); the
    league's version stays in packs/test-club, Bo's is set aside whole in
    packs/.versions; until the Arbitrator answers each laptop keeps its version (said);
    the answer (Bo's version, here) is shared, and then both laptops play the same pack
    and hold the same files. On main the sync stopped with a conflict to choose o/t on
    the campaign screen."""
    from munda_tui.saves.league import sync
    from munda_tui.saves.league_packs import PackQuestion

    ana, bo, anas, bos = _two_versions(tmp_path, monkeypatch)
    monkeypatch.setenv("MUNDA_PLAYER", "Bo")
    with bo.open_campaign("club-league") as handle:
        result = sync(handle)
        assert result.pushed and not result.conflicts
        assert any("Pack test-club: the league has another version; this laptop keeps its version 1" in line
                   for line in result.yours), result.yours
        assert _files(handle.path / "packs" / "test-club") == anas  # the league's, whole
        [aside] = [
            p for p in (handle.path / "packs" / ".versions" / "test-club").iterdir() if p.is_dir()]
        assert _files(aside) == bos  # Bo's, whole
        assert _in_force(handle) == ("1", ["conditions.toml", "scenario/test_hazard.toml"])  # Bo keeps his
        [q] = handle.questions
        assert isinstance(q, PackQuestion) and q.held and q.by == "Bo"
        assert (q.version, q.league_version) == ("1", "2")
        assert q.rule == ("Until the Arbitrator answers, each laptop keeps its version: this laptop "
                          "plays version 1 (set aside).")
    with ana.open_campaign("club-league") as handle:
        sync(handle)
        assert _in_force(handle) == ("2", ["conditions.toml"])  # Ana keeps hers
        [q] = handle.questions
        assert not q.held and "this laptop plays version 2 (the league's)" in q.rule
        handle.answer_question(q, "aside")  # the Arbitrator takes Bo's
        assert handle.questions == []
        assert _files(handle.path / "packs" / "test-club") == bos
        assert not (handle.path / "packs" / ".versions").exists()
        assert _in_force(handle) == ("1", ["conditions.toml", "scenario/test_hazard.toml"])
        sync(handle)
        ana_files = _files(handle.path / "packs")
    monkeypatch.setenv("MUNDA_PLAYER", "Bo")
    with bo.open_campaign("club-league") as handle:
        sync(handle)
        assert handle.questions == []
        assert _files(handle.path / "packs") == ana_files  # every laptop the same
        [pack] = load_packs(None, handle.path).packs
        assert pack.path == str(handle.path / "packs" / "test-club")  # (the hold is void)


def test_the_league_version_answer_drops_the_set_aside_one_everywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Answered "league" (by Bo, who set his version aside): the set-aside version goes
    (kept in the backups), Bo plays the league's version 2 at once, and Ana's laptop is
    the same after the sync."""
    from munda_tui.saves.league import sync

    ana, bo, anas, bos = _two_versions(tmp_path, monkeypatch)
    monkeypatch.setenv("MUNDA_PLAYER", "Bo")
    with bo.open_campaign("club-league") as handle:
        sync(handle)
        [q] = handle.questions
        with pytest.raises(ValueError, match="not an answer to a pack question"):
            handle.answer_question(q, "void")
        handle.answer_question(q, "league")
        assert handle.questions == []
        assert _in_force(handle) == ("2", ["conditions.toml"])
        assert list((handle.path / ".backups").rglob("test_hazard.toml*"))  # nothing lost
        sync(handle)
        bo_files = _files(handle.path / "packs")
    with ana.open_campaign("club-league") as handle:
        sync(handle)
        assert handle.questions == [] and _files(handle.path / "packs") == bo_files == {
            f"test-club/{k}": v for k, v in anas.items()}


def test_a_packs_fighter_roles_answer_an_export_of_a_gang_the_package_does_not_list(
        tmp_path: Path) -> None:
    """The club supplies the Spyrers' types itself (the roles here are TEST DATA, not a
    reading of any book): the import asks no role for them."""
    from munda_tui.saves.importer import read_yaktribe

    export = Path(__file__).resolve().parents[1] / "fixtures" / "yaktribe" / "families" / "spyrers.json"
    assert read_yaktribe(export).unknown_types  # (the package knows none of them)
    write_pack(tmp_path, {"fighter_roles.toml": '[[lists]]\ngang = "Spyrer"\ntypes = { '
                          '"jakara" = "Ganger", "malcadon" = "Ganger", "orrus" = "Ganger", '
                          '"yeld" = "Ganger" }\n'})
    packs = load_packs(tmp_path)
    assert packs.problems == []
    assert read_yaktribe(export, rule_data=packs.data).unknown_types == {}


def test_a_pack_of_two_versions_from_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """`munda-tui sync` goes through and says this laptop keeps its version; `league
    answer` lists the pack's question with the rule in force and takes `aside`."""
    from munda_tui.cli import main

    ana, bo, anas, bos = _two_versions(tmp_path, monkeypatch)
    monkeypatch.setenv("MUNDA_PLAYER", "Bo")
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "bo"))
    assert main(["sync", "club-league"]) == 0
    out = capsys.readouterr().out
    assert "this laptop keeps its version 1 until the Arbitrator answers" in out, out
    assert main(["league", "answer", "club-league"]) == 0
    listed = capsys.readouterr().out
    assert "1. Pack test-club: two versions (the league plays version 2; Bo had version 1" in listed
    assert "this laptop plays version 1 (set aside)" in listed and "league|aside" in listed
    assert main(["league", "answer", "club-league", "1", "void"]) == 1
    assert "the rules do not allow 'void' here: league | aside" in capsys.readouterr().err
    assert main(["league", "answer", "club-league", "1", "aside"]) == 0
    assert "0 question(s) left" in capsys.readouterr().out
    assert _files(tmp_path / "bo" / "campaigns" / "club-league" / "packs" / "test-club") == bos
