"""`munda-tui check` and the app read every file through one validation (issue 34): for
every campaign, gang and battle file they agree on whether it loads and say the same
`path:line:col: message`, at the line of the value; a warm `.cache/` changes nothing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from munda_tui.rules.core.model import BattleSummary, Standing
from munda_tui.saves import SaveError
from munda_tui.saves.check import check_paths


@pytest.fixture
def folder(store, demo_campaign):
    """A split campaign with two battles (numbers 1 and 2, with summaries)."""
    with store.create_campaign(demo_campaign) as handle:
        gangs = [g.id for g in handle.campaign.gangs]
        handle.campaign.battles.append(BattleSummary(1, "2026-03-01", gangs=gangs,
                                                     standings={gangs[0]: Standing(rating=500, reputation=3, credits=10)}))
        handle.campaign.battles.append(BattleSummary(2, "2026-03-08", gangs=gangs))
        handle.save()
        return handle.path, handle.battle_path(1), handle.battle_path(2)


def _line_of(path: Path, start: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.startswith(start))


def _opened(store, slug: str = "demo") -> tuple[list[int], list[str]]:
    with store.open_campaign(slug) as handle:
        return [b.number for b in handle.campaign.battles], list(handle.problems)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (old, text)
    path.write_text(text.replace(old, new, 1))


@pytest.mark.parametrize("old, new, key, message", [
    ('date = "2026-03-01"', "date = 5", "date = ", "summary.date: expected a string, found an integer (5)"),
    ('date = "2026-03-01"', 'date = "2026-03-01"\nweather = "ash"', "weather = ",
     "summary.weather: unknown key 'weather'"),
    ("credits = 10", "credits = 999999999", "credits = ", "summary.standings.{gang}.credits: "),
    ("number = 1", "number = -1", "number = ", "number: battle number -1 is out of range (0 to 9999)"),
    ("number = 1", 'number = "one"', "number = ", "number: expected an integer, found a string"),
])
def test_a_battle_files_summary_and_number_are_checked_by_both_at_their_line(
        store, folder, old, new, key, message):
    directory, first, _second = folder
    _edit(first, old, new)
    with store.open_campaign("demo") as handle:
        gang = handle.campaign.gangs[0].id
        numbers, problems = [b.number for b in handle.campaign.battles], list(handle.problems)
    line = _line_of(first, key)
    assert numbers == [2]  # left out: and said
    [said] = problems
    assert said.startswith(f"{first}:{line}:") and message.format(gang=gang) in said
    assert check_paths([directory]) == [said]
    assert check_paths([first]) == [said]
    shutil.rmtree(directory / ".cache")  # a cold cache: the same
    assert _opened(store) == (numbers, problems)


def test_a_current_campaign_toml_saying_schema_version_1_is_an_error_at_its_line(store, folder):
    directory, _first, _second = folder
    campaign = directory / "campaign.toml"
    _edit(campaign, "schema_version = 2", "schema_version = 1")
    before = {p: p.read_bytes() for p in directory.rglob("*.toml")}
    with pytest.raises(SaveError) as caught:
        store.open_campaign("demo")
    line = _line_of(campaign, "schema_version")
    assert (caught.value.path, caught.value.line) == (campaign, line)
    assert "contradicts the folder's layout" in str(caught.value)
    assert check_paths([directory]) == [str(caught.value)]
    # nothing migrated, nothing written
    assert {p: p.read_bytes() for p in directory.rglob("*.toml")} == before
    assert not list((directory / ".backups").glob("campaign.toml.schema*"))


_FALLEN = '{id = "old-1", name = "Gone", type = "Ganger"}'


@pytest.mark.parametrize("old, new, key, message", [
    ('id = "iron-skulls"', 'id = ""', "id = ", "id: gang id must not be empty"),
    ("fallen = []", 'fallen = [{id = "", name = "Gone", type = "Ganger"}]', "fallen = ",
     "fallen[0].id: fallen fighter id must not be empty"),
    ("fallen = []", f"fallen = [{_FALLEN}, {_FALLEN}]", "fallen = ",
     "fallen[1].id: duplicate fallen fighter id 'old-1'"),
])
def test_check_refuses_what_the_open_refuses_in_a_gang_file(store, folder, old, new, key, message):
    directory, _first, _second = folder
    gang_file = directory / "gangs" / "iron-skulls.toml"
    _edit(gang_file, old, new)
    with pytest.raises(SaveError) as caught:
        store.open_campaign("demo")
    assert caught.value.path == gang_file and message in str(caught.value)
    assert caught.value.line == _line_of(gang_file, key)
    assert check_paths([directory]) == [str(caught.value)]
    assert check_paths([gang_file]) == [str(caught.value)]


def test_a_warm_cache_does_not_keep_a_battle_whose_number_a_hand_edit_broke(store, folder):
    directory, first, _second = folder
    assert _opened(store) == ([1, 2], [])  # the index now knows battle 1
    _edit(first, "number = 1", "number = -1")
    warm = _opened(store)
    shutil.rmtree(directory / ".cache")
    cold = _opened(store)
    assert warm == cold and warm[0] == [2] and len(warm[1]) == 1
    assert check_paths([directory]) == warm[1]


def test_a_left_out_battle_keeps_its_number_and_is_offered_its_backup(store, folder):
    directory, first, _second = folder
    with store.open_campaign("demo") as handle:  # a second version: a backup of the first
        handle.campaign.battles[0].scenario = "Sneak Attack"
        handle.save()
    _edit(first, "number = 1", "number = \"x\"")
    with store.open_campaign("demo") as handle:
        assert [b.number for b in handle.campaign.battles] == [2]
        [lo] = handle.left_out()
        assert lo.path == first and lo.number == 1 and lo.backup is not None
        assert lo.error == handle.problems[0]
        assert handle.next_battle_number() == 3
        with pytest.raises(SaveError) as caught:  # neither read nor written over
            handle.load_battle(1)
        assert str(caught.value) == lo.error
        handle.campaign.battles.append(BattleSummary(1, "2026-04-01"))
        with pytest.raises(SaveError):
            handle.save()
        handle.campaign.battles.pop()
        store.restore_backup(lo.backup, first)
        assert [b.number for b in handle.campaign.battles] == [1, 2]
        assert handle.left_out() == [] and handle.next_battle_number() == 3


def test_a_battle_file_lost_with_its_backups_is_said_warm_or_cold(store, folder):
    directory, first, _second = folder
    with store.open_campaign("demo") as handle:
        handle.campaign.battles[0].scenario = "Sneak Attack"
        handle.save()
    first.unlink()
    warm = _opened(store)
    shutil.rmtree(directory / ".cache")
    cold = _opened(store)
    assert warm == cold == ([2], [f"{first}:1:1: the battle file is missing"])
    assert check_paths([directory]) == warm[1]
    with store.open_campaign("demo") as handle:
        [lo] = handle.left_out()
        assert lo.number == 1 and lo.backup is not None and handle.next_battle_number() == 3


def test_the_backups_folder_is_listed_again_only_when_it_changed(store, folder, monkeypatch):
    """A league keeps 10,000 backups: the lost battle files are found from the backups
    folder listed again only when it changed (its inode, mtime and ctime)."""
    from munda_tui.saves import folder as folder_module

    directory, first, _second = folder
    with store.open_campaign("demo") as handle:  # a second version: a backup of the first
        handle.campaign.battles[0].scenario = "Sneak Attack"
        handle.save()
    listed: list[int] = []
    real = folder_module.lost_battles

    def counting(*args):  # type: ignore[no-untyped-def]
        listed.append(1)
        return real(*args)

    monkeypatch.setattr(folder_module, "lost_battles", counting)
    _opened(store)
    _opened(store)
    assert len(listed) <= 1  # (the first open after the close's index lists it)
    listed.clear()
    first.unlink()  # a battle file gone: the backups folder is as it was, the file is said
    assert _opened(store)[1] == [f"{first}:1:1: the battle file is missing"]
    assert listed == []
    (directory / ".backups" / "battles" / "2026-01-01-abcdef.toml.000001.bak").write_text("x")
    _opened(store)
    assert listed == [1]


def test_an_old_battle_file_the_split_left_behind_is_said_by_both(store, full_campaign):
    """The split of an old folder leaves a battle file that does not load where it is
    (battles/0002.toml): every later open lists it as left out (with its number, from
    its name), and check says the same line; it was silently never read again."""
    from saves.test_folder import _old_league, write_old_folder

    campaign, battles = _old_league(full_campaign)
    directory = write_old_folder(store.data_dir, campaign, battles)
    broken = directory / "battles" / "0002.toml"
    broken.write_text("schema_version = 1\n[battle\n")
    with store.open_campaign("old") as handle:  # split: the broken file stays
        assert any(p.startswith(f"{broken}:") for p in handle.problems)
        # named at this same open, as at the next (it was only from the next open on)
        [lo] = handle.left_out()
        assert lo.path == broken and lo.number == 2 and lo.error == handle.problems[0]
        at_the_split = [b.number for b in handle.campaign.battles]
        assert 2 not in at_the_split and handle.next_battle_number() > max(at_the_split + [2])
    assert broken.exists()
    numbers, problems = _opened(store, "old")
    assert numbers == at_the_split
    [said] = problems
    assert said.startswith(f"{broken}:2:") and "TOML syntax" in said
    assert check_paths([directory]) == [said]
    with store.open_campaign("old") as handle:
        [lo] = handle.left_out()
        assert lo.path == broken and lo.number == 2
        assert handle.next_battle_number() > max(numbers)


@pytest.mark.parametrize("bad, col, said", [
    ('{"set": {"outcome": 5}}', 1, "battle.outcome: "),  # a part the file would not load with
    ('{"keep": 0, "log": [{"kind": 7}]}', 1, "battle.log[0]: an event needs a kind"),
    ('{"set": {"seen": {}}, "oops"}', 29, "not a journal line: "),  # not JSON
    ('{"keep": -1}', 1, "not a journal line: "),  # not a journal line's shape
])
def test_check_reads_the_trackers_journal_as_the_app_folds_it(store, folder, bad, col, said):
    """`munda-tui check` never read `battles/<stem>.events` (the tracker's journal): a line
    the app leaves out, or whose change the battle file would not load with (the fold
    wrote it into the .toml, which then did not load), passed. Both now say the same
    `path:line:col`, and the app opens the battle as it was before that line."""
    directory, first, _second = folder
    journal = first.with_suffix(".events")
    journal.write_text('{"set": {"seen": {"g": ["escher:A"]}}}\n' + bad + '\n{"set": {"seen": {}}}\n')
    [checked] = check_paths([directory])
    assert checked.startswith(f"{journal}:2:{col}: {said}"), checked
    assert check_paths([journal]) == [checked]
    with store.open_campaign("demo") as handle:
        battle = handle.load_battle(1)["battle"]
        assert battle["seen"] == {"g": ["escher:A"]} and "outcome" not in battle  # up to line 1
        assert handle.journal_problems == {1: checked}
        handle.fold_battle_log(1)  # written whole: the journal kept aside, the file loads
    assert not journal.exists() and check_paths([directory]) == []
    assert (directory / ".backups" / "battles" / f"{journal.name}.broken.bak").read_text().count("\n") == 3


def test_a_ruleset_no_pack_has_opens_and_check_says_so_as_a_note(store, folder, capsys) -> None:
    """A campaign.toml naming a post-battle ruleset no pack in force has (the fuzz's
    ``-gang-war``: a typo, or a pack missing on this laptop) opens, saying so; `check`
    agrees that it loads (nothing listed, exit 0) and says the same as a note at its line.
    It was listed as a file that does not load (exit 1) while the app opened it."""
    from munda_tui.cli import main

    path = folder[0] / "campaign.toml"
    _edit(path, 'post_battle_ruleset = "gang-war"', 'post_battle_ruleset = "-gang-war"')
    line = _line_of(path, "post_battle_ruleset")
    with store.open_campaign("demo"):
        pass  # it opens
    notes: list[str] = []
    assert check_paths([path], notes=notes) == [] and check_paths([folder[0]]) == []
    assert len(notes) == 1 and f"campaign.toml:{line}:1: settings.post_battle_ruleset:" in notes[0]
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"note: {path}:{line}:1: settings.post_battle_ruleset:" in out and "all saves load" in out
