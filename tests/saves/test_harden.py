"""No traceback, ever (issue 13), on the saves side: every bad file, disk fault, huge
number and hostile name gets a short message and loses nothing."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest

from munda_tui.cli import main
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import Campaign
from munda_tui.saves import SaveError, Store
from munda_tui.saves.errors import WriteFailed
from munda_tui.saves.export import export_text

FIXTURE = Path(__file__).parents[1] / "fixtures" / "yaktribe" / "157849.json"


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file() and p.name != ".lock"}


def _campaign_folders(data_dir: Path) -> list[str]:
    """Everything in the campaigns folder, hidden half-made folders included."""
    folder = data_dir / "campaigns"
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


# --- backups ---------------------------------------------------------------------------


def test_a_kill_between_linking_and_pruning_never_leaves_six_backups(data_dir, monkeypatch) -> None:
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as handle:
        for i in range(7):
            handle.campaign.notes = f"save {i}"
            handle.save()
        assert len(store.backups(handle.file)) == 5

        real_unlink = Path.unlink

        def killed(self: Path, *a: object, **k: object) -> None:
            raise KeyboardInterrupt("killed while pruning")  # the process dies here

        monkeypatch.setattr(Path, "unlink", killed)
        handle.campaign.notes = "save after"
        with pytest.raises(KeyboardInterrupt):
            handle.save()
        monkeypatch.setattr(Path, "unlink", real_unlink)
        assert len(store.backups(handle.file)) <= 5


def test_extra_backups_left_by_an_old_crash_are_pruned_at_the_next_save(data_dir) -> None:
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as handle:
        handle.campaign.notes = "a"
        handle.save()
        bdir = handle.path / ".backups"
        newest = store.backups(handle.file)[0]
        for seq in range(100, 108):  # eight extra, as a crash of an older version may leave
            os.link(newest, bdir / f"campaign.toml.{seq:06d}.bak")
        handle.campaign.notes = "b"
        handle.save()
        assert len(store.backups(handle.file)) == 5


# --- absurd shapes ------------------------------------------------------------------------


def test_a_20000_level_dotted_key_is_refused_before_the_parser(data_dir, capsys) -> None:
    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()
    path = data_dir / "campaigns" / "demo" / "campaign.toml"
    text = path.read_text() + "\n" + ".".join("a" for _ in range(20_000)) + " = 1\n"
    path.write_text(text)
    line = text.count("\n", 0, text.index("a.a.a"))+ 1
    started = time.process_time()
    assert main(["check", str(path)]) == 1
    assert time.process_time() - started < 2  # refused unread (the parser takes ~10 s)
    out = capsys.readouterr().out
    assert f"campaign.toml:{line}:1: a dotted key of more than 64 parts" in out
    assert path.read_text() == text


@pytest.mark.parametrize(
    "body, words",
    [
        ("a = " + "[" * 5000 + "]" * 5000, "nested more than 64 deep"),
        ("k" * 5000 + " = 1", "a key longer than 1000 characters"),
        ('"' + "k" * 5000 + '" = 1', "a key longer than 1000 characters"),
    ],
)
def test_other_absurd_shapes_are_refused_with_a_short_message(tmp_path, body, words) -> None:
    from munda_tui.saves.files import load_campaign_file

    path = tmp_path / "campaign.toml"
    path.write_text("schema_version = 1\n" + body + "\n")
    with pytest.raises(SaveError) as caught:
        load_campaign_file(path)
    assert words in str(caught.value) and caught.value.line == 2
    assert len(str(caught.value)) < 200 + len(str(path))


# --- numbers ------------------------------------------------------------------------------


def test_an_unsaveable_number_in_a_hand_edit_is_named_at_load(data_dir) -> None:
    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()
    path = data_dir / "campaigns" / "demo" / "gangs" / "venom-sisters.toml"
    text = path.read_text()
    edited = text.replace("credits = ", "credits = 99999999999999999999 # was ", 1)
    path.write_text(edited)
    with pytest.raises(SaveError) as caught:
        store.open_campaign("demo")
    message = str(caught.value)
    line = edited[: edited.index("credits = 9999")].count("\n") + 1
    assert f"venom-sisters.toml:{line}:" in message and ": credits" in message
    assert "out of range (0 to 10000000)" in message
    assert "99999999999999999999" not in message  # a 20-digit number, never echoed
    assert path.read_text() == edited


def test_an_unsaveable_number_set_in_memory_is_refused_with_a_message(data_dir) -> None:
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as handle:
        before = handle.file.read_bytes()
        handle.campaign.gangs[0].fighters[0].xp = 10**20
        with pytest.raises(SaveError, match=r"gangs\[0\]\.fighters\[0\]\.xp: XP a 21-digit number is out of range"):
            handle.save()
        assert handle.file.read_bytes() == before


def test_forms_use_the_same_ranges() -> None:
    from munda_tui.rules.campaign.roster import validate_gang

    values, errors = validate_gang({"name": "X", "credits": "99999999999999999999", "reputation": "3"})
    assert values is None and "out of range" in errors["credits"]
    assert "99999999999999999999" not in errors["credits"]
    values, errors = validate_gang({"name": "X" * 10_000, "credits": "1"})
    assert values is None and "60 characters" in errors["name"] and len(errors["name"]) < 100


def test_a_post_battle_number_prompt_refuses_a_huge_entry() -> None:
    from munda_tui.rules.postbattle.sequence import Prompt

    with pytest.raises(ValueError) as caught:
        Prompt(id="n", kind="number", label="Credits").validate("9" * 5000)
    assert len(str(caught.value)) < 100


# --- disk faults ----------------------------------------------------------------------------


def test_a_full_disk_is_a_clear_write_error_and_the_file_is_unchanged(data_dir, monkeypatch) -> None:
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as handle:
        before = _files(handle.path)

        def full(fd: int, data: object) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        monkeypatch.setattr(os, "write", full)
        handle.campaign.notes = "more"
        with pytest.raises(WriteFailed) as caught:
            handle.save()
        monkeypatch.undo()
        assert "the disk is full" in str(caught.value)
        assert _files(handle.path) == before


def test_a_folder_where_the_lock_should_be(data_dir) -> None:
    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()
    (data_dir / "campaigns" / "demo" / ".lock").mkdir()
    with pytest.raises(WriteFailed, match=r"\.lock is a folder where a file should be"):
        store.open_campaign("demo")


def test_a_file_where_the_backups_folder_should_be(data_dir) -> None:
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as handle:
        backups = handle.path / ".backups"
        import shutil

        shutil.rmtree(backups, ignore_errors=True)
        backups.write_text("not a folder")
        before = handle.file.read_bytes()
        handle.campaign.notes = "x"
        with pytest.raises(WriteFailed, match="is a file where a folder should be"):
            handle.save()
        assert handle.file.read_bytes() == before
        assert store.backups(handle.file) == []  # listing does not crash either


@pytest.fixture
def small_tmpfs(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A 256 kB tmpfs (a disk that fills up, and can be made read-only)."""
    mnt = tmp_path / "mnt"
    mnt.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mnt)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here (needs root and CAP_SYS_ADMIN): {done.stderr.decode().strip()}")
    try:
        yield mnt
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)


def test_a_really_full_disk(small_tmpfs) -> None:
    store = Store(small_tmpfs)
    with store.create_campaign(demo_campaign()) as handle:
        handle.save_battle(1, {"report": {"markdown": "first"}})
        before = _files(handle.path)
        with pytest.raises(WriteFailed, match="the disk is full") as caught:
            handle.save_battle(1, {"report": {"markdown": "x" * 400_000}})
        assert "400000" not in str(caught.value)
        assert _files(handle.path) == before
        assert handle.load_battle(1) == {"report": {"markdown": "first"}}
        assert not [p for p in handle.path.rglob("*.tmp")]


def test_a_really_read_only_data_folder(small_tmpfs) -> None:
    store = Store(small_tmpfs)
    with store.create_campaign(demo_campaign()):
        pass
    before = _files(small_tmpfs / "campaigns" / "demo")
    subprocess.run(["mount", "-o", "remount,ro", str(small_tmpfs)], check=True)
    store = Store(small_tmpfs)  # starting on a read-only folder does not crash
    assert [i.slug for i in store.list_campaigns()] == ["demo"]
    with pytest.raises(WriteFailed, match="read-only"):
        store.open_campaign("demo")  # the lock cannot be written
    with pytest.raises(WriteFailed, match="read-only"):
        store.create_campaign(Campaign(id="", name="New"))
    assert _files(small_tmpfs / "campaigns" / "demo") == before


# --- slugs and names ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Battles", "battles", "CON", "nul", "Com1", "LPT9", "aux", "campaigns"])
def test_slugs_never_take_the_apps_folder_names_or_windows_device_names(data_dir, name) -> None:
    store = Store(data_dir)
    with store.create_campaign(Campaign(id="", name=name)) as handle:
        assert handle.slug not in {"battles", "campaigns", "con", "nul", "com1", "lpt9", "aux"}
        assert handle.slug.startswith(name.lower())
        handle.campaign.notes = "again"
        handle.save()
        assert (handle.path / ".backups").is_dir()  # the backups stay in its own folder
        assert store.backups(handle.file)


def test_a_campaign_toml_is_always_in_its_own_folder() -> None:
    from munda_tui.saves.store import campaign_dir_of

    p = Path("/d/campaigns/battles/campaign.toml")
    assert campaign_dir_of(p) == Path("/d/campaigns/battles")


def test_a_10000_character_name_is_refused_shortly_by_the_api(data_dir) -> None:
    store = Store(data_dir)
    with pytest.raises(SaveError) as caught:
        store.create_campaign(Campaign(id="", name="N" * 10_000))
    assert "at most 60" in str(caught.value) and len(str(caught.value)) < 300
    assert _campaign_folders(data_dir) == []


def test_the_same_name_created_at_once_gives_each_its_own_folder(data_dir) -> None:
    barrier = threading.Barrier(6)
    slugs: list[str] = []
    errors: list[BaseException] = []

    def create() -> None:
        try:
            barrier.wait()
            with Store(data_dir).create_campaign(Campaign(id="", name="Sump Wars")) as handle:
                slugs.append(handle.slug)
        except BaseException as error:  # noqa: BLE001
            errors.append(error)

    threads = [threading.Thread(target=create) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert sorted(slugs) == sorted(set(slugs)) and len(slugs) == 6
    infos = Store(data_dir).list_campaigns()
    assert sorted(i.slug for i in infos) == sorted(slugs) and all(i.error is None for i in infos)


def test_two_processes_creating_the_same_name_both_succeed(data_dir) -> None:
    import sys

    code = (
        "import sys; from munda_tui.saves import Store; from munda_tui.rules.core.model import Campaign\n"
        "with Store(sys.argv[1]).create_campaign(Campaign(id='', name='Twin')) as h: print(h.slug)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    procs = [subprocess.Popen([sys.executable, "-c", code, str(data_dir)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for _ in range(2)]
    outs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert sorted(o[0].decode().strip() for o in outs) == ["twin", "twin-2"]


# --- hostile imports ------------------------------------------------------------------------------


def _gang(**changes: object) -> dict:
    data = json.loads(FIXTURE.read_text())
    gang = data["gang"] if "gang" in data else data
    gang.update(changes)
    return data


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"gang": ' + "[" * 5000 + "]" * 5000 + "}", "nested"),
        (None, "digit number is far too large"),
        (None, "lone surrogate"),
        (None, "at most 60"),
    ],
    ids=["5000-deep", "5000-digits", "surrogate", "10000-char-name"],
)
def test_hostile_yaktribe_files_get_a_short_message_and_change_nothing(data_dir, tmp_path, capsys, text, words) -> None:
    path = tmp_path / "gang.json"
    if words.startswith("digit"):
        raw = FIXTURE.read_text()
        text = raw.replace('"credits":', '"credits": ' + "9" * 5000 + ', "was":', 1)
    elif words == "lone surrogate":
        text = json.dumps(_gang(gang_name="Bad \ud800 name"))
    elif words == "at most 60":
        text = json.dumps(_gang(gang_name="N" * 10_000))
    path.write_text(text, encoding="utf-8")
    assert main(["import", "yaktribe", str(path), "--campaign", "Sump"]) == 1
    err = capsys.readouterr().err
    assert words in err and "Nothing was imported" in err
    assert "Traceback" not in err and len(err) < 400 + len(str(path))
    assert _campaign_folders(data_dir) == []


def test_a_10000_character_campaign_name_on_the_command_line(data_dir, capsys) -> None:
    assert main(["import", "yaktribe", str(FIXTURE), "--campaign", "C" * 10_000]) == 1
    err = capsys.readouterr().err
    assert "at most 60" in err and len(err) < 400
    assert _campaign_folders(data_dir) == []


def _export_with(data_dir: Path, tmp_path: Path, numbers: list[int]) -> Path:
    store = Store(data_dir / "src")
    with store.create_campaign(demo_campaign()) as handle:
        handle.save_battle(1, {"report": {"markdown": "one"}})
        text = export_text(handle)
    text = text.replace("number = 1\n", "".join(f"number = {n}\n" for n in numbers[:1]), 1)
    path = tmp_path / "camp.munda.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize("number", [-1, 10_000, 10**30])
def test_import_campaign_with_a_bad_battle_number_leaves_nothing(data_dir, tmp_path, capsys, number) -> None:
    path = _export_with(data_dir, tmp_path, [number])
    assert main(["import", "campaign", str(path)]) == 1
    err = capsys.readouterr().err
    assert "out of range (0 to 9999)" in err and "Nothing was imported" in err
    assert str(10**30) not in err
    assert _campaign_folders(data_dir) == []


def test_import_campaign_is_all_or_nothing_when_a_write_fails(data_dir, tmp_path, monkeypatch, capsys) -> None:
    path = _export_with(data_dir, tmp_path, [1])
    from munda_tui.saves import atomic

    calls = {"n": 0}
    real = atomic._atomic_write

    def second_fails(*args: object, **kw: object) -> None:
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(atomic, "_atomic_write", second_fails)
    assert main(["import", "campaign", str(path)]) == 1
    assert "the disk is full" in capsys.readouterr().err
    assert _campaign_folders(data_dir) == []


# --- battle files -----------------------------------------------------------------------------------


def test_a_battle_file_with_an_unknown_crew_key_names_the_field(data_dir) -> None:
    from munda_tui.rules.battle.events import default_setup

    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as handle:
        setup = default_setup(handle.campaign, 1, *[g.id for g in handle.campaign.gangs[:2]])
        data = setup.to_data()
        data["sides"][0]["crew"][1]["note"] = "x"
        handle.save_battle(1, {"setup": data})
        text = handle.battle_path(1).read_text()
    with store.open_campaign("demo") as handle:
        with pytest.raises(SaveError) as caught:
            handle.load_battle(1)
        assert "setup.sides[0].crew[1].note: unknown key 'note'" in str(caught.value)
        assert caught.value.line > 1
        assert handle.battle_path(1).read_text() == text


# --- the crash handler --------------------------------------------------------------------------------


def test_an_escaping_error_writes_a_crash_file_and_exits_non_zero(tmp_path, monkeypatch, capsys) -> None:
    import munda_tui.cli as cli

    def boom(args: object) -> int:
        raise RuntimeError("something nobody expected")

    monkeypatch.setitem(cli.SUBCOMMANDS, "roll", (cli.SUBCOMMANDS["roll"][0], (cli._add_roll, boom)))
    assert main(["roll", "D6"]) == 70
    err = capsys.readouterr().err
    assert "Traceback" not in err and "saves are intact" in err
    crash = list((tmp_path / "log").glob("crash-*.txt"))
    assert len(crash) == 1 and str(crash[0]) in err
    assert "RuntimeError: something nobody expected" in crash[0].read_text()


# --- numbers typed anywhere else -------------------------------------------------------------------


@pytest.mark.parametrize("words", [["roll", "9" * 5000], ["roll", "2D6", "--faces", "9" * 5000 + " 3"], ["roll", "D6+" * 3000]])
def test_huge_dice_input_gets_a_short_message(capsys, words) -> None:
    assert main(words) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err) < 200


def test_equipment_and_xp_award_entries_use_the_ranges() -> None:
    from munda_tui.rules.core.limits import RANGES
    from munda_tui.rules.campaign.roster import validate_equipment

    item, errors = validate_equipment({"name": "Lasgun", "cost": "9" * 40, "qty": "1"})
    assert item is None and "out of range" in errors["cost"] and len(errors["cost"]) < 120
    item, errors = validate_equipment({"name": "Lasgun", "cost": "15", "qty": str(10**9)})
    assert item is None and "out of range" in errors["qty"]
    assert RANGES[("Settings", "xp_awards")] == (0, 1_000)
