"""The player's config and where saves live."""

from __future__ import annotations

from pathlib import Path

import platformdirs

from munda_tui.saves import default_config_dir, default_data_dir
from munda_tui.saves.config import Config, load_config, save_config
from munda_tui.saves.check import check_paths


def test_defaults_when_there_is_no_config(config_dir):
    config = load_config(config_dir)
    assert config == Config()
    assert config.theme == "textual-dark" and config.load_error is None


def test_save_and_load(config_dir):
    config = Config(theme="nord", post_battle_ruleset="turf-war-2017", dice_by_hand=True)
    save_config(config_dir, config)
    loaded = load_config(config_dir)
    assert loaded == config
    assert loaded.new_campaign_settings().post_battle_ruleset == "turf-war-2017"
    assert loaded.new_campaign_settings().dice_by_hand is True
    text = (config_dir / "config.toml").read_text()
    assert text.startswith("schema_version = 1\n") and 'theme = "nord"' in text
    assert "load_error" not in text
    assert check_paths([config_dir / "config.toml"]) == []


def test_comments_survive_and_backups_are_kept(config_dir):
    save_config(config_dir, Config())
    path = config_dir / "config.toml"
    path.write_text("# my settings\n" + path.read_text().replace('theme = "textual-dark"', 'theme = "textual-dark"  # easy on the eyes'))
    config = load_config(config_dir)
    config.dice_by_hand = True
    save_config(config_dir, config)
    text = path.read_text()
    assert text.startswith("# my settings\n")
    assert 'theme = "textual-dark"  # easy on the eyes' in text
    assert "dice_by_hand = true" in text
    for theme in ("a", "b", "c", "d", "e", "f"):
        config.theme = theme
        save_config(config_dir, config)
    assert len(list((config_dir / ".backups").glob("config.toml.*.bak"))) == 5


def test_a_broken_config_gives_defaults_and_is_kept_when_saving(config_dir):
    path = config_dir / "config.toml"
    path.write_text('schema_version = 1\ntheme = 42\n')
    config = load_config(config_dir)
    assert config == Config()
    assert config.load_error == f"{path}:2:1: theme: expected a string, found an integer (42)"
    assert check_paths([path]) == [config.load_error]
    config.theme = "nord"
    save_config(config_dir, config)
    assert load_config(config_dir).theme == "nord"
    assert (config_dir / ".backups" / "config.toml.broken-1").read_text() == 'schema_version = 1\ntheme = 42\n'


def test_newer_config_is_not_loaded(config_dir):
    path = config_dir / "config.toml"
    path.write_text('schema_version = 9\ntheme = "x"\n')
    assert "newer munda-tui" in load_config(config_dir).load_error


def test_method_forms(config_dir):
    Config(theme="gruvbox").save(config_dir)
    assert Config.load(config_dir).theme == "gruvbox"


def test_config_dir_is_created(tmp_path):
    target = tmp_path / "a" / "b"
    save_config(target, Config(theme="x"))
    assert load_config(target).theme == "x"


def test_dirs_from_environment(data_dir, config_dir):
    assert default_data_dir() == data_dir
    assert default_config_dir() == config_dir


def test_platform_dirs_without_environment(monkeypatch):
    monkeypatch.delenv("MUNDA_TUI_DATA_DIR")
    monkeypatch.delenv("MUNDA_TUI_CONFIG_DIR")
    assert default_data_dir() == platformdirs.user_data_path("munda-tui", appauthor=False)
    assert default_config_dir() == platformdirs.user_config_path("munda-tui", appauthor=False)
    assert isinstance(default_data_dir(), Path)


def test_a_typo_in_a_default_setting_is_named_like_any_bad_value(config_dir):
    """Issue 26 item 12: the config's defaults for new campaigns are enumerated settings
    too; a typo is reported as path:line:col (it would have made every new campaign
    unopenable at the settings screen)."""
    path = config_dir / "config.toml"
    path.write_text('schema_version = 1\nsubplot_decks = "House"\nlasting_injury_table = "rulebook-2018"\n')
    config = load_config(config_dir)
    assert config == Config()
    assert config.load_error == (f"{path}:2:1: subplot_decks: unknown value 'House'; "
                                 "expected one of 'house', 'suit'")
    assert check_paths([path]) == [config.load_error]
