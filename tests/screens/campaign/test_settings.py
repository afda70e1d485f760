"""Campaign settings: every choice of rules.model.Settings, saved on Ctrl+S."""

from __future__ import annotations

from pathlib import Path

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import Settings
from munda_tui.saves import Store
from support import wait_for_screen


def seed(data_dir: Path) -> str:
    c = demo_campaign()
    Store(data_dir).create_campaign(c).close()
    return c.id




async def open_settings(pilot) -> None:  # type: ignore[no-untyped-def]
    await wait_for_screen(pilot, "CampaignScreen")
    await pilot.press("s")
    await wait_for_screen(pilot, "SettingsScreen")


def test_settings_snapshot(snap_compare, make_app, data_dir) -> None:
    slug = seed(data_dir)
    assert snap_compare(make_app(campaign=slug), terminal_size=(80, 24), run_before=open_settings)


async def test_change_every_setting_and_save(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_settings(pilot)
        # three selects: open, move down, choose
        for _ in range(3):
            await pilot.press("enter", "down", "enter", "tab")
        # four switches: toggle each
        for _ in range(4):
            await pilot.press("space", "tab")
        states = [str(app.screen.query_one(f"#state-{k}").render())
                  for k in ("shared_deck", "strict_secrecy", "dice_by_hand",
                            "turf_fixer_merc_two_actions")]
        assert states == ["Off", "On", "On", "Off"]
        # the XP awards table ships empty: the Arbitrator types it from their rulebook
        assert all(i.value == "" for i in app.screen.query("Input"))
        await pilot.press(*"x")  # a word is refused, nothing saved
        assert "must be a whole number" in str(app.screen.query_one("#settings-status").render())
        await pilot.press("backspace", "1", "tab", "2")  # SI caused 1, OOA caused 2
        assert "Ctrl+S" in str(app.screen.query_one("#settings-status").render())
        assert app.handle.campaign.settings == Settings()  # not applied before saving
        await pilot.press("ctrl+s")
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
    with Store(data_dir).open_campaign(slug) as h:
        assert h.campaign.settings == Settings(
            post_battle_ruleset="turf-war-2017",
            lasting_injury_table="core-2023",
            subplot_decks="suit",
            shared_deck=False,
            strict_secrecy=True,
            dice_by_hand=True,
            xp_awards={"seriously_injured": 1, "out_of_action": 2},
            turf_fixer_merc_two_actions=False,
        )


async def test_leaving_unsaved_asks(make_app, data_dir) -> None:
    slug = seed(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_settings(pilot)
        await pilot.press("enter", "down", "enter", "escape")
        await wait_for_screen(pilot, "ConfirmScreen")
        await pilot.press("n")  # stay
        await wait_for_screen(pilot, "SettingsScreen")
        await pilot.press("escape", "y")  # leave without saving
        await wait_for_screen(pilot, "CampaignScreen")
    with Store(data_dir).open_campaign(slug) as h:
        assert h.campaign.settings == Settings()


import pytest  # noqa: E402


@pytest.mark.parametrize("key, value", [("subplot_decks", "nope"), ("lasting_injury_table", "Core 2032")])
async def test_a_hand_edited_setting_typo_is_refused_at_open_not_at_the_settings_screen(
        make_app, data_dir, key, value) -> None:
    """Issue 26 item 12: `munda-tui check` said "all saves load", the campaign opened and
    `s` ended the app (InvalidSelectValueError). The value is checked at load with the
    others: the campaign refuses to open and says where and why; nothing is changed."""
    from munda_tui.saves.check import check_paths

    seed(data_dir)
    path = data_dir / "campaigns" / "demo" / "campaign.toml"
    text = path.read_text(encoding="utf-8")
    line = next(i for i, ln in enumerate(text.split("\n"), 1) if ln.startswith(f"{key} ="))
    text = text.replace(f'{key} = "{getattr(Settings(), key)}"', f'{key} = "{value}"', 1)
    path.write_text(text, encoding="utf-8")
    where = f"campaign.toml:{line}:1: settings.{key}: unknown value '{value}'; expected one of"
    problems = check_paths([path])
    assert len(problems) == 1 and where in problems[0]
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        if app.handle is not None:  # (before the fix: it opened, and s ended the app)
            await pilot.press("s")
            await pilot.pause()
        assert app.handle is None
        message = str(app.screen.query_one("#dialog-message").render())
        assert where in message
        await pilot.press("escape")
        await pilot.pause()
    assert path.read_text(encoding="utf-8") == text


def test_the_screen_offers_exactly_the_values_the_load_accepts() -> None:
    from munda_tui.rules.core.limits import CHOICES as ALLOWED, choices
    from munda_tui.rules.postbattle.core import injury_tables
    from munda_tui.screens.campaign.settings import setting_options

    assert ALLOWED[("Settings", "lasting_injury_table")] == tuple(injury_tables())
    for (owner, key) in ALLOWED:
        options = setting_options(key)
        assert options is not None and sorted(v for _label, v in options) == sorted(choices(owner, key) or ())


@pytest.mark.parametrize("key, value", [("post_battle_ruleset", "test-league"),
                                        ("lasting_injury_table", "core-2032")])
async def test_a_value_a_pack_may_supply_opens_says_so_and_the_settings_offer_it(
        make_app, data_dir, key, value) -> None:
    """Issue 35: a ruleset or Lasting Injury table id no pack in force has (a typo, or its
    pack missing on this laptop) loads; `munda-tui check` names it with its line, the app
    says so when the campaign opens, and the settings screen shows it without ending."""
    from textual.widgets import Select

    from munda_tui.saves.check import check_paths

    slug = seed(data_dir)
    path = data_dir / "campaigns" / "demo" / "campaign.toml"
    text = path.read_text(encoding="utf-8")
    line = next(i for i, ln in enumerate(text.split("\n"), 1) if ln.startswith(f"{key} ="))
    text = text.replace(f'{key} = "{getattr(Settings(), key)}"', f'{key} = "{value}"', 1)
    path.write_text(text, encoding="utf-8")
    problems: list[str] = []
    assert check_paths([path], notes=problems) == []  # it loads, as the app opens it
    assert len(problems) == 1  # what check says of it, as a note (exit 0)
    words = {"post_battle_ruleset": "post-battle ruleset",
             "lasting_injury_table": "Lasting Injury table"}[key]
    assert f"campaign.toml:{line}:1: settings.{key}: the {words} '{value}' is in no pack in force" in problems[0]
    assert "a pack missing here, or a typo" in problems[0] and "Nothing is lost" in problems[0]
    app = make_app(campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.pause()
        assert app.handle is not None
        assert any(f"The {words} '{value}' is in no pack in force" in str(n.message)
                   for n in app._notifications)
        await open_settings(pilot)
        select = app.screen.query_one(f"#s-{key}", Select)
        assert select.value == value
        assert f"{value} (unknown: a typo, or its pack is missing)" in [
            str(label) for label, _v in select._options]
    assert path.read_text(encoding="utf-8") == text


async def test_a_setting_whose_pack_is_missing_names_the_pack_and_what_to_do(
        make_app, data_dir, config_dir) -> None:
    """Issue 35 (review): a campaign records the pack its ruleset comes from (written with
    its next save), so on a laptop without that pack it still opens, the app names the
    missing pack and what the player can do, `munda-tui check` says the same, and the
    settings name it beside the value. The pack is test data."""
    import shutil

    from textual.widgets import Select

    from munda_tui.saves.check import check_paths
    packaged = Path(__file__).resolve().parents[3] / "munda_tui" / "rules" / "data"
    ruleset = (packaged / "postbattle" / "gang-war.toml").read_text(encoding="utf-8")
    ruleset = (ruleset.replace('id = "gang-war"', 'id = "test-league"', 1)
               .replace('choice = "Gang War (Core Rules post-battle sequence)"',
                        'choice = "Test League (test data)"', 1).replace("order = 10", "order = 90", 1))
    folder = config_dir / "packs" / "test-club"
    (folder / "postbattle").mkdir(parents=True)
    (folder / "pack.toml").write_text('id = "test-club"\ntitle = "Test club (test data)"\n'
                                      'version = "1"\n', encoding="utf-8")
    (folder / "postbattle" / "test-league.toml").write_text(ruleset, encoding="utf-8")
    campaign = demo_campaign()
    campaign.settings.post_battle_ruleset = "test-league"
    with Store(data_dir).create_campaign(campaign):
        pass
    path = data_dir / "campaigns" / "demo" / "campaign.toml"
    app = make_app(campaign="demo")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        assert not [n for n in app._notifications if "not here" in str(n.title)]
        await open_settings(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert 'post_battle_ruleset = "test-club"' in path.read_text(encoding="utf-8")
    shutil.rmtree(folder)
    text = path.read_text(encoding="utf-8")
    notes: list[str] = []
    assert check_paths([path], notes=notes) == []  # it loads, as the app opens it
    problems = notes  # what check says of it (as "note: ...", exit 0)
    assert len(problems) == 1, problems
    assert ("settings.post_battle_ruleset: the post-battle ruleset 'test-league' comes from "
            "the pack 'test-club', which is not in force on this computer") in problems[0]
    assert "munda-tui pack add" in problems[0] and "Nothing is lost" in problems[0]
    app = make_app(campaign="demo")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")  # (it opens)
        said = [str(n.message) for n in app._notifications
                if n.title == "A pack this campaign plays is not here"]
        assert len(said) == 1 and "the pack 'test-club'" in said[0]
        assert "munda-tui pack add" in said[0] and "settings (s)" in said[0]
        note = str(app.screen.query_one("#left-out").render())  # (and on the screen)
        assert app.screen.query_one("#left-out").display
        assert "comes from the pack 'test-club'" in note and "munda-tui pack add" in note
        await open_settings(pilot)
        select = app.screen.query_one("#s-post_battle_ruleset", Select)
        assert "test-league (unknown here: its pack 'test-club' is not in force)" in [
            str(label) for label, _v in select._options]
    assert path.read_text(encoding="utf-8") == text
