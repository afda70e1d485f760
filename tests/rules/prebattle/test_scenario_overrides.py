"""Arbitrator's Toolkit: override files replace or extend the scenario tables
(seed 001, Core Rules p144); bad files are reported with path, line and what
is wrong, never silently ignored."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from munda_tui.rules.prebattle import scenario as sc
from munda_tui.saves.overrides import load_scenario_tables, locate, read_overrides


def _write(folder: Path, name: str, text: str) -> Path:
    (folder / "tables").mkdir(parents=True, exist_ok=True)
    path = folder / "tables" / name
    path.write_text(text, encoding="utf-8")
    return path


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

REPLACE = '''table = "deployment"
mode = "replace"
dice = "D3"
title = "Cycle 2 deployment"
[[entries]]
roll = "1-2"
name = "Close Quarters"
text = "Within 6 of the centre."
[[entries]]
roll = "3"
name = "Face Off"
text = "Opposite edges."
'''


def test_no_files_gives_the_packaged_tables(config_dir, tmp_path):
    tables, problems = load_scenario_tables(config_dir, tmp_path / "campaign")
    assert problems == []
    assert tables == sc.packaged_tables()


def test_extend_and_replace_from_config_and_campaign(config_dir, tmp_path):
    camp = tmp_path / "campaign"
    p1 = _write(config_dir, "objective.toml", EXTEND)
    p2 = _write(camp, "deploy.toml", REPLACE)
    tables, problems = load_scenario_tables(config_dir, camp)
    assert problems == []
    obj = tables["objective"]
    assert obj.entry_for(6).name == "Loot and Scoot"
    assert obj.entry_for(1).name == "King of the Hive"
    assert str(p1) in obj.origin
    dep = tables["deployment"]
    assert dep.dice == "D3" and dep.title == "Cycle 2 deployment"
    assert [e.name for e in dep.entries] == ["Close Quarters", "Face Off"]
    assert dep.origin == str(p2)
    assert dep.roller == "challenger"  # who rolls stays as the seed says
    r, e = dep.roll(random.Random(1))
    assert 1 <= r.total <= 3 and e.covers(r.total)


def test_campaign_files_apply_after_config_files(config_dir, tmp_path):
    camp = tmp_path / "campaign"
    _write(config_dir, "a.toml", EXTEND)
    _write(camp, "a.toml", EXTEND.replace("Loot and Scoot", "Campaign Loot"))
    tables, problems = load_scenario_tables(config_dir, camp)
    assert not problems
    assert tables["objective"].entry_for(6).name == "Campaign Loot"


def test_malformed_toml_reports_path_line_and_column(config_dir, tmp_path):
    bad = _write(config_dir, "broken.toml", 'table = "crew"\n[[entries]]\nroll = "1\nname = "x"\n')
    good = _write(config_dir, "good.toml", EXTEND)
    tables, problems = load_scenario_tables(config_dir, None)
    assert len(problems) == 1
    p = problems[0]
    assert p.path == bad and p.line == 3 and p.col is not None
    assert "TOML syntax" in p.message
    assert str(p).startswith(f"{bad}:3:")
    # the good file still applies, the bad one is left out (and reported)
    assert tables["objective"].entry_for(6).name == "Loot and Scoot"
    files, _ = read_overrides(config_dir, None)
    assert [f.path for f in files] == [good]


@pytest.mark.parametrize(
    "text, key, line, words",
    [
        ('table = "weather"\n[[entries]]\nroll = "1"\nname = "a"\ntext = "b"\n', "table", 1, "must be one of"),
        ('table = "objective"\nmode = "merge"\n', "mode", 2, "extend"),
        (EXTEND.replace('roll = "6"', 'roll = "7"'), "entries[0].roll", 4, "outside"),
        (EXTEND.replace('roll = "6"', 'roll = "5-7"'), "entries[0].roll", 4, "outside"),
        (EXTEND.replace('name = "Loot and Scoot"\n', ""), "entries[0].name", 3, "missing"),
        (EXTEND.replace("vp_to_win = 0", 'vp_to_win = "three"'), "entries[0].vp_to_win", 9, "whole number"),
        (EXTEND.replace("vp_to_win = 0", "colour = 1"), "entries[0].colour", 9, "unknown key"),
        (REPLACE.replace('roll = "3"', 'roll = "2"'), "entries[1].roll", 10, "overlaps"),
        (REPLACE.replace('roll = "1-2"', 'roll = "1"'), "entries", 5, "no entry for D3 result(s) 2"),
        (REPLACE.replace('dice = "D3"', 'dice = "D7"'), "dice", 3, "D7"),
        ('table = "pitch_black"\n[[entries]]\nroll = "1"\nname = "Dark"\ntext = "t"\n', "entries[0].visibility", 2, "missing"),
        ('table = "crew"\n[[entries]]\nroll = "2"\nname = "All in"\ntext = "t"\n', "entries[0].crew", 2, "missing"),
        ('table = "crew"\n[[entries]]\nroll = "2"\nname = "All in"\ntext = "t"\n[entries.crew.both]\nmethod = "hybrid"\nx = "3"\n',
         "entries[0].crew.both.y", 6, "Hybrid needs"),
        ('table = "crew"\n[[entries]]\nroll = "2"\nname = "All in"\ntext = "t"\n[entries.crew.both]\nmethod = "custom"\nx = "D7"\n',
         "entries[0].crew.both.x", 8, "D7"),
        ('table = "crew"\n[[entries]]\nroll = "2"\nname = "All in"\ntext = "t"\n[entries.crew.everyone]\nmethod = "custom"\nx = "3"\n',
         "entries[0].crew.everyone", 6, "both, attacker or defender"),
        ('table = "side_job"\n[[entries]]\nroll = "2"\nname = "Job"\ntext = "t"\n[entries.target]\nside = "own"\npick = "random"\nprefer_types = ["Wizard"]\n',
         "entries[0].target.prefer_types", 9, "fighter types"),
    ],
)
def test_bad_contents_are_reported_with_key_and_line(config_dir, text, key, line, words):
    path = _write(config_dir, "bad.toml", text)
    tables, problems = load_scenario_tables(config_dir, None)
    assert len(problems) == 1, problems
    p = problems[0]
    assert p.path == path
    assert p.key == key
    assert p.line == line
    assert words in p.message
    assert tables == sc.packaged_tables()  # nothing of the bad file applied


def test_table_error_names_path_and_key():
    with pytest.raises(sc.TableError) as exc:
        sc.apply_override(sc.packaged_tables(), {"table": "crew", "entries": []}, "x.toml")
    assert str(exc.value) == "x.toml: entries: must be a non-empty list of [[entries]]"


def test_locate():
    text = '# c\ntable = "crew"\n[[entries]]\nroll = "1"\n[[entries]]\nroll = "2"\n[entries.crew.both]\nx = "3"\n'
    assert locate(text, "table") == 2
    assert locate(text, "entries[1].roll") == 6
    assert locate(text, "entries[1].crew.both.x") == 8
    assert locate(text, "entries[5].roll") is None


@pytest.mark.parametrize(
    "text, where, words",
    [
        ('table = "crew"\nx = ' + "[" * 600 + "]" * 600 + "\n", ":2:5", "nested more than 64 deep"),
        ('table = "crew"\n' + ".".join("a" for _ in range(20_000)) + " = 1\n", ":2:1", "dotted key of more than 64 parts"),
        ('table = "crew"\nx = ' + "{ a = " * 70 + "1" + " }" * 70 + "\n", ":2:1", "nested more than 64 deep"),
        ('table = "crew"\n"' + "k" * 5000 + '" = 1\n', ":2:1", "a key longer than 1000 characters"),
    ],
    ids=["600-deep-array", "20000-part-key", "70-deep-inline", "5000-char-key"],
)
def test_table_files_go_through_the_guarded_reader(config_dir, text, where, words):
    """Issue 26 item 13: what save files are refused for (nesting, dotted keys, long
    keys), an Arbitrator table file is too: one short problem, quickly, nothing raised."""
    import time

    bad = _write(config_dir, "hostile.toml", text)
    started = time.process_time()
    tables, problems = load_scenario_tables(config_dir, None)
    assert time.process_time() - started < 2  # (the parser alone took 6-8 s on the dotted key)
    assert [str(p) for p in problems] == [str(problems[0])] and words in problems[0].message
    assert str(problems[0]).startswith(f"{bad}{where}:")
    assert len(str(problems[0])) < 200 + len(str(bad))
    assert tables == load_scenario_tables(None, None)[0]  # the packaged tables, unchanged
