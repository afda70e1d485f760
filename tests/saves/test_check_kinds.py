"""Issue 26 item 17: `munda-tui check` knows each file kind by its place and says what
the app would say: a config's keymap and theme as the app warns of them, Arbitrator table
files (<config>/tables, <campaign>/tables) as tables, not as saves."""

from __future__ import annotations

from pathlib import Path

from munda_tui.cli import main

EXTEND = '''table = "objective"
mode = "extend"
[[entries]]
roll = "6"
name = "Loot and Scoot"
text = "Grab the loot."
victory = "Most loot wins."
draw = "Equal loot."
vp_to_win = 0
'''

BAD = 'table = "deployment"\nmode = "replace"\ndice = "D7"\n'


def test_a_config_with_an_unknown_keymap_id_is_said_as_the_app_says_it(
        config_dir: Path, capsys) -> None:
    path = config_dir / "config.toml"
    path.write_text('theme = "nord"\n\n[keymap]\n"campaign.no_such_thing" = "x"\n'
                    '"campaign.roster" = "Return"\n', encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"{path}:4:1: keymap.campaign.no_such_thing: no key binding has the id "
        "'campaign.no_such_thing' (? lists the ids)",
        f"{path}:5:1: keymap.campaign.roster: 'Return' is not a key name (did you mean "
        "'enter'?): the binding keeps its own key",
    ]
    path.write_text('theme = "nord"\n[keymap]\n"campaign.roster" = "f5"\n', encoding="utf-8")
    assert main(["check", str(path)]) == 0


def test_a_good_table_file_is_accepted_where_the_app_reads_it(
        config_dir: Path, data_dir: Path, store, demo_campaign, capsys) -> None:
    (config_dir / "tables").mkdir()
    table = config_dir / "tables" / "loot.toml"
    table.write_text(EXTEND, encoding="utf-8")
    with store.create_campaign(demo_campaign) as handle:
        campaign_dir = handle.path
    (campaign_dir / "tables").mkdir()
    mine = campaign_dir / "tables" / "cycle2.toml"
    mine.write_text(EXTEND.replace("Loot and Scoot", "Cycle Two"), encoding="utf-8")
    for target in (table, config_dir / "tables", config_dir, mine, campaign_dir, data_dir):
        assert main(["check", str(target)]) == 0, (target, capsys.readouterr().out)
    assert main(["check"]) == 0  # the data dir and the config folder
    assert "missing schema_version" not in capsys.readouterr().out


def test_a_bad_table_file_is_said_with_its_key_and_line(
        config_dir: Path, store, demo_campaign, capsys) -> None:
    (config_dir / "tables").mkdir()
    bad = config_dir / "tables" / "bad.toml"
    bad.write_text(BAD, encoding="utf-8")
    assert main(["check", str(bad)]) == 1
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith(f"{bad}:3:1: [dice] ") and "D7" in line, line
    assert main(["check"]) == 1  # found in the config folder with no path given
    assert capsys.readouterr().out.startswith(f"{bad}:3:1: ")
    with store.create_campaign(demo_campaign) as handle:
        campaign_dir = handle.path
    (campaign_dir / "tables").mkdir()
    theirs = campaign_dir / "tables" / "bad.toml"
    theirs.write_text(BAD, encoding="utf-8")
    assert main(["check", str(campaign_dir)]) == 1
    assert capsys.readouterr().out.startswith(f"{theirs}:3:1: [dice] ")
