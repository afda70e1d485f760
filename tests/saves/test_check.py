"""`munda-tui check`: path:line:col: message for every save that does not load."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from munda_tui.saves import SaveError
from munda_tui.saves.check import check_paths, files_to_check

LINE = re.compile(r"^(?P<path>.+):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)$", re.S)


@pytest.fixture
def saved(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        handle.save_battle(1, {"extra": {"scenario": "Sneak Attack"}})
        handle.save_battle(2, {"battle": {"events": []}})
        handle.campaign.gangs[0].credits += 5
        handle.save()
        # the battle files' names, shortest first (as the tests below name them)
        for n in (1, 2):
            handle.battle_path(n).rename(handle.battles_dir / f"battle-{n:06d}.toml")
        return handle.path


def _battle(saved, n):
    return saved / "battles" / f"battle-{n:06d}.toml"


def test_all_good_is_empty(saved, data_dir):
    assert check_paths([data_dir]) == []
    assert check_paths([saved]) == []
    assert check_paths([saved / "campaign.toml", _battle(saved, 1), saved / "gangs" / "iron-skulls.toml"]) == []
    assert check_paths([data_dir / "campaigns"]) == []
    assert check_paths([]) == []  # the data dir from MUNDA_TUI_DATA_DIR


def test_default_data_dir_that_does_not_exist_yet(monkeypatch, tmp_path):
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "never-created"))
    assert check_paths(None) == []


def test_files_checked_skip_backups_lock_and_temps(saved, data_dir):
    (saved / ".campaign.toml.999999.abcd.tmp").write_text("junk")
    (saved / "battles" / "notes.txt").write_text("junk")
    names = [p.relative_to(saved).as_posix() for p in files_to_check(data_dir)]
    assert names == ["campaign.toml", "gangs/iron-skulls.toml", "gangs/venom-sisters.toml",
                     "battles/battle-000001.toml", "battles/battle-000002.toml"]
    assert (saved / ".backups").is_dir()


def test_syntax_error_has_exact_line_and_column(saved, data_dir):
    battle = _battle(saved, 2)
    battle.write_text('schema_version = 1\n\n[battle]\nevents = [1, 2\nround = 3\n')
    [problem] = check_paths([data_dir])
    m = LINE.match(problem)
    assert m is not None
    assert m["path"] == str(battle)
    assert (m["line"], m["col"]) == ("5", "1")
    assert m["message"].startswith("TOML syntax:")


def test_validation_error_points_at_the_key(saved):
    path = saved / "gangs" / "iron-skulls.toml"  # the second gang
    lines = path.read_text().splitlines()
    # the third fighter of the second gang gets a wrong xp
    fighter_starts = [i for i, line in enumerate(lines) if line == "[[fighters]]"]
    xp_line = next(i for i in range(fighter_starts[2], len(lines)) if lines[i].startswith("xp = "))
    lines[xp_line] = 'xp = "lots"'
    path.write_text("\n".join(lines) + "\n")
    [problem] = check_paths([saved])
    assert problem == f'{path}:{xp_line + 1}:1: fighters[2].xp: expected an integer, found a string (\'lots\')'


def test_unknown_key_and_bad_enum_are_named(saved):
    path = saved / "gangs" / "iron-skulls.toml"
    text = path.read_text()
    path.write_text(text.replace('type = "Goliath"', 'type = "Goliath"\n  colour = "red"'))
    [problem] = check_paths([path])
    assert ": colour: unknown key 'colour'" in problem
    path.write_text(text.replace('type = "Goliath"', 'type = "Goliaths"'))
    [problem] = check_paths([path])
    assert "type: unknown value 'Goliaths'; expected one of 'Cawdor'" in problem


def test_every_broken_file_is_listed(saved, data_dir, store, full_campaign):
    store.create_campaign(full_campaign).close()
    _battle(saved, 1).write_bytes(b"schema_version = 1\nx = \"\xff\"\n")
    (data_dir / "campaigns" / "full" / "campaign.toml").write_text("schema_version = 1\n")
    empty = data_dir / "campaigns" / "empty"
    empty.mkdir()
    problems = check_paths([data_dir])
    assert problems == [
        f"{_battle(saved, 1)}:2:6: not valid UTF-8 text (byte 0xff)",
        f"{empty / 'campaign.toml'}:1:1: file not found",
        # a folder with gangs/ is of the split layout whatever its schema_version says
        f"{data_dir / 'campaigns' / 'full' / 'campaign.toml'}:1:1: schema_version: 1 contradicts "
        "the folder's layout: a folder with gang files or split battle files says schema_version = 2 "
        "(nothing was migrated or changed)",
    ]
    assert all(LINE.match(p) for p in problems)


def test_missing_path(tmp_path):
    missing = tmp_path / "nope"
    assert check_paths([missing]) == [f"{missing}:1:1: no such file or folder"]


def test_check_reads_an_old_schema_without_writing(store, data_dir):
    V0 = (Path(__file__).parent / "v0_campaign.toml").read_text(encoding="utf-8")
    directory = data_dir / "campaigns" / "tuesday"
    directory.mkdir(parents=True)
    (directory / "campaign.toml").write_text(V0)
    assert check_paths([data_dir]) == []
    assert (directory / "campaign.toml").read_text() == V0
    assert sorted(p.name for p in directory.iterdir()) == ["campaign.toml"]


def test_save_error_format():
    error = SaveError("/x/campaign.toml", 3, 7, "bad")
    assert str(error) == "/x/campaign.toml:3:7: bad"
    assert (error.line, error.column, error.message) == (3, 7, "bad")


def test_an_export_file_is_checked_as_an_export(saved, tmp_path):
    # `munda-tui check` on the file `munda-tui export` wrote: it imports, so no problem
    # (it was "missing schema_version": the export's first table is not a campaign save)
    from munda_tui.saves import Store
    from munda_tui.saves.export import write_export

    with Store(saved.parent.parent).open_campaign(saved.name) as handle:
        out = write_export(handle, tmp_path / "shared.toml")
    assert check_paths([out]) == []
    broken = tmp_path / "broken.toml"
    broken.write_text(out.read_text().replace("[campaign]\n", "[campaign]\nid = 5\n", 1))
    (problem,) = check_paths([broken])
    assert LINE.match(problem) and problem.startswith(f"{broken}:")
