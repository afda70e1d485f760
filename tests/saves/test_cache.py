"""The parse cache beside campaign.toml, the fast comment-free save, and a campaign
prepared in memory (the demo's first frame comes before any disk write)."""

from __future__ import annotations

from pathlib import Path

import pytest

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.saves import Store, cache, files, store as store_module
from munda_tui.saves.errors import SaveError
from munda_tui.saves.folder import load_campaign_dir
from munda_tui.saves.store import has_comments


def _no_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(path, text):  # type: ignore[no-untyped-def]
        raise AssertionError(f"{path} was parsed")

    monkeypatch.setattr(cache, "parse_text", refuse)


def test_a_saved_campaign_opens_and_lists_from_the_cache(data_dir: Path, monkeypatch) -> None:
    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()
    _no_parse(monkeypatch)
    with store.open_campaign("demo") as handle:
        assert handle.campaign == demo_campaign()
    [info] = store.list_campaigns()
    assert (info.name, info.error, info.battles) == (demo_campaign().name, None, 0)
    assert info.gangs == [g.name for g in demo_campaign().gangs]


def test_an_edit_from_outside_is_read_not_the_cache(data_dir: Path) -> None:
    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()
    path = store.campaign_dir("demo") / "campaign.toml"
    gang = store.campaign_dir("demo") / "gangs" / "venom-sisters.toml"
    gang.write_text(gang.read_text().replace('name = "The Venom Sisters"', 'name = "The Viper Sisters"', 1))
    with store.open_campaign("demo") as handle:
        assert handle.campaign.gangs[0].name == "The Viper Sisters"
    assert store.list_campaigns()[0].gangs[0] == "The Viper Sisters"
    path.write_text(path.read_text() + "\n[[[broken\n")
    [info] = store.list_campaigns()
    assert info.error is not None and "campaign.toml" in info.error
    with pytest.raises(SaveError):
        store.open_campaign("demo")


def test_a_damaged_or_missing_cache_is_a_miss(data_dir: Path) -> None:
    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()
    folder = store.campaign_dir("demo") / cache.CACHE_DIR
    text = (store.campaign_dir("demo") / "campaign.toml").read_text()
    (folder / cache.DATA_FILE).write_text(cache.text_key(text).hex() + "\n{broken")
    (folder / cache.SUMMARY_FILE).unlink()
    with store.open_campaign("demo") as handle:
        assert handle.campaign == demo_campaign()
    assert store.list_campaigns()[0].name == demo_campaign().name
    assert {cache.DATA_FILE, cache.OVERVIEW_FILE, cache.SUMMARY_FILE} <= {p.name for p in folder.iterdir()}


def test_the_cache_follows_every_save(data_dir: Path, monkeypatch) -> None:
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as handle:
        handle.campaign.gangs[0].credits = 777
        handle.save()
    _no_parse(monkeypatch)
    with store.open_campaign("demo") as handle:
        assert handle.campaign.gangs[0].credits == 777


def test_comment_free_files_are_saved_without_tomlkit(data_dir: Path, monkeypatch) -> None:
    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()

    def refuse(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("tomlkit used")

    monkeypatch.setattr(store_module, "_parse_doc", refuse)
    with store.open_campaign("demo") as handle:
        handle.campaign.name = "Demo # two"  # a '#' in a string is no comment
        handle.save()
        handle.campaign.gangs[0].credits = 5
        handle.save()
    with store.open_campaign("demo") as handle:
        assert (handle.campaign.name, handle.campaign.gangs[0].credits) == ("Demo # two", 5)


def test_comments_are_kept_by_tomlkit(data_dir: Path) -> None:
    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()
    path = store.campaign_dir("demo") / "campaign.toml"
    path.write_text("# our league, season 2\n" + path.read_text())
    with store.open_campaign("demo") as handle:
        handle.campaign.gangs[0].credits = 5
        handle.save()
    assert path.read_text().startswith("# our league, season 2\n")
    assert load_campaign_dir(path.parent)[0].gangs[0].credits == 5


@pytest.mark.parametrize(("text", "comment"), [
    ("a = 1", False), ('a = "#x"', False), ("a = '#'", False), ('a = """x\n#y"""', False),
    ('a = "q\\"#"', False), ("a = 1 # c", True), ("# c\na = 1", True), ('a = "x" # "y"', True),
    ("a = '''\n#'''\n# c", True),
])
def test_has_comments(text: str, comment: bool) -> None:
    assert has_comments(text) is comment


def test_a_prepared_campaign_is_written_once_asked(data_dir: Path) -> None:
    store = Store(data_dir / "fresh")
    handle = store.prepare_campaign(demo_campaign())
    assert not handle.written and not (data_dir / "fresh").exists()
    handle.campaign.gangs[0].credits = 999  # changed before the write: not in it
    handle.write_prepared()
    handle.write_prepared()  # once
    assert handle.written
    on_disk = load_campaign_dir(handle.path)[0]
    assert on_disk == demo_campaign()
    handle.save()
    handle.close()
    assert load_campaign_dir(handle.path)[0].gangs[0].credits == 999
    assert [i.slug for i in store.list_campaigns()] == ["demo"]


def test_a_prepared_campaign_saves_or_closes_onto_disk(data_dir: Path) -> None:
    store = Store(data_dir)
    first = store.prepare_campaign(demo_campaign())
    first.save_battle(1, {"extra": {"number": 1}})  # writes the campaign first
    assert first.written and first.battle_numbers() == [1]
    first.close()
    second = store.prepare_campaign(demo_campaign())
    assert second.slug == "demo-2"
    second.close()
    assert second.closed and (store.campaign_dir("demo-2") / "campaign.toml").is_file()
    second.close()  # idempotent


def test_battle_files_reopen_from_memory_and_from_the_cache(data_dir: Path, monkeypatch) -> None:
    store = Store(data_dir)
    battle = {"extra": {"number": 1}, "battle": {"log": [{"kind": "start", "traits": ("a", "b")}]}}
    with store.create_campaign(demo_campaign()) as handle:
        handle.save_battle(1, battle)
        handle.save_battle(2, {"battle": {"log": []}})  # battle 1 goes to the disk cache
        calls: list[Path] = []
        real = store_module.parse_text
        monkeypatch.setattr(store_module, "parse_text", lambda p, t: calls.append(p) or real(p, t))
        want = {"extra": {"number": 1}, "battle": {"log": [{"kind": "start", "traits": ["a", "b"]}]}}
        assert handle.load_battle(1) == want  # lists, as tomllib reads them
        assert handle.load_battle(2) == {"battle": {"log": []}}
        assert calls == []
        path = handle.battle_path(1)
    with store.open_campaign("demo") as handle:  # a new session: the cache on disk
        assert handle.load_battle(1) == want and handle.load_battle(2) == {"battle": {"log": []}}
        assert calls == []
        path.write_text(path.read_text().replace('"start"', '"begin"'))  # edited outside
        assert handle.load_battle(1)["battle"]["log"][0]["kind"] == "begin"
        assert calls == [path]
        handle.delete_battle(2)
        with pytest.raises(KeyError):
            handle.load_battle(2)


def test_a_battle_loaded_again_unchanged_is_not_checked_again(data_dir: Path, monkeypatch) -> None:
    """Opening a battle loads its file to check it, then the screen loads it: the second
    load gives a fresh copy of the checked data; a changed text is checked again."""
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as handle:
        handle.save_battle(1, {"battle": {"log": [{"kind": "start"}]}})
        checks: list[Path] = []
        real = store_module.load_battle_file
        monkeypatch.setattr(store_module, "load_battle_file",
                            lambda p, t=None, data=None: checks.append(p) or real(p, t, data=data))
        first = handle.load_battle(1)
        second = handle.load_battle(1)
        assert first == second == {"battle": {"log": [{"kind": "start"}]}}
        assert len(checks) == 1
        second["battle"]["log"].append({"kind": "more"})  # a copy: the next load is unchanged
        assert handle.load_battle(1) == first and len(checks) == 1
        path = handle.battle_path(1)
        path.write_text(path.read_text().replace('"start"', '"begin"'))  # same length, outside
        assert handle.load_battle(1)["battle"]["log"][0]["kind"] == "begin"
        assert len(checks) == 2
        path.write_text(path.read_text().replace('kind = "begin"', 'kind = 1234567'))
        with pytest.raises(SaveError):
            handle.load_battle(1)


def test_shared_profiles_are_decoded_once_and_still_checked() -> None:
    from munda_tui.saves import codec

    c = codec.campaign_to_data(demo_campaign())
    fighter = c["gangs"][0]["fighters"][0]
    first = codec.campaign_from_data(c).gangs[0].fighters[0].characteristics
    again = codec.campaign_from_data(c).gangs[0].fighters[0].characteristics
    assert first == again and first is not again  # each fighter its own dict
    fighter["characteristics"] = {**fighter["characteristics"], "ws": True}  # True is not 1
    with pytest.raises(codec.ValidationError, match="boolean"):
        codec.campaign_from_data(c)


def test_an_opening_has_the_overview_of_this_very_text(data_dir: Path, monkeypatch) -> None:
    """``Store.begin_open`` locks and reads; its overview (the campaign screen's first
    rows, ``rules.overview``) is there only when written for this text: after an edit
    from outside, or a damaged or foreign overview file, there is none."""
    from munda_tui.rules.campaign.overview import overview
    from munda_tui.saves import CampaignLocked

    store = Store(data_dir)
    store.create_campaign(demo_campaign()).close()
    folder = store.campaign_dir("demo")
    (folder / cache.CACHE_DIR / cache.OVERVIEW_FILE).unlink()
    opening = store.begin_open("demo")
    assert opening.overview is None
    with pytest.raises(CampaignLocked):
        Store(data_dir).begin_open("demo")  # locked from the first half on
    with opening.finish() as handle:  # (and the overview written for the next open)
        assert handle.campaign == demo_campaign()
        expected = overview(handle.campaign)
    _no_parse(monkeypatch)
    opening = store.begin_open("demo")
    assert opening.overview == expected and expected["gang_count"] == len(demo_campaign().gangs)
    assert expected["gangs"][0][:3] == [demo_campaign().gangs[0].id, demo_campaign().gangs[0].name,
                                        str(demo_campaign().gangs[0].rating)]
    opening.cancel()  # the lock goes with it
    Store(data_dir).begin_open("demo").cancel()

    view = folder / cache.CACHE_DIR / cache.OVERVIEW_FILE
    key, _, body = view.read_text().partition("\n")
    for broken in ('{"version": 1}', body.replace('"version":1', '"version":99'), "[1, 2]",
                   body.replace(f'"{expected["title"]}"', "3")):
        view.write_text(key + "\n" + broken)
        opening = store.begin_open("demo")
        assert opening.overview is None, broken
        opening.cancel()
    monkeypatch.undo()
    path = folder / "gangs" / "venom-sisters.toml"
    path.write_text(path.read_text().replace('name = "The Venom Sisters"', 'name = "The Viper Sisters"', 1))
    opening = store.begin_open("demo")
    assert opening.overview is None  # the file changed: the old rows are not shown
    with opening.finish() as handle:
        assert handle.campaign.gangs[0].name == "The Viper Sisters"
    assert store.begin_open("demo").overview["gangs"][0][1] == "The Viper Sisters"


def test_the_overview_follows_every_save(data_dir: Path) -> None:
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()) as handle:
        handle.campaign.gangs[0].credits = 4321
        handle.save()
    opening = store.begin_open("demo")
    assert opening.overview is not None and opening.overview["gangs"][0][5] == "4321"
    opening.cancel()


# --- the decoded folder (.cache/decoded.json, issue 30.9) ----------------------------------


def _no_decode(monkeypatch: pytest.MonkeyPatch) -> None:
    from munda_tui.saves import folder

    def refuse(*args, **kw):  # type: ignore[no-untyped-def]
        raise AssertionError("the folder was decoded from its files")

    monkeypatch.setattr(folder, "load_folder", refuse)


def _played(store: Store) -> None:
    with store.create_campaign(demo_campaign()) as handle:
        from munda_tui.rules.core.model import BattleSummary
        from munda_tui.rules.core.status import BattleStatus

        c = handle.campaign
        c.battles.append(BattleSummary(c.next_battle_number(), "2026-12-01", "Stand-off",
                                       [c.gangs[0].id, c.gangs[1].id], c.gangs[0].id, BattleStatus.DONE))
        handle.save()


def test_an_unchanged_folder_opens_from_its_decoded_cache(data_dir: Path, monkeypatch) -> None:
    from munda_tui.saves import folder

    store = Store(data_dir)
    _played(store)
    with store.open_campaign("demo") as handle:  # (decoded from the files: the cache written)
        first = handle.campaign
    assert (store.campaign_dir("demo") / cache.CACHE_DIR / folder.DECODED_FILE).is_file()
    with monkeypatch.context() as m:
        _no_decode(m)
        with store.open_campaign("demo") as handle:
            assert handle.campaign == first
            assert [s.number for s in handle.campaign.battles] == [1]
            assert handle.campaign.gangs[0].fighters[0] is not first.gangs[0].fighters[0]
    directory = store.campaign_dir("demo")
    read = folder.read_folder(directory, (directory / "campaign.toml").read_text())
    found = folder.load_folder(read)
    found.campaign.id = "demo"
    assert found.campaign == first


def test_a_gang_file_edited_by_hand_is_read_not_the_decoded_cache(data_dir: Path, monkeypatch) -> None:
    store = Store(data_dir)
    _played(store)
    store.open_campaign("demo").close()
    gang = store.campaign_dir("demo") / "gangs" / "venom-sisters.toml"
    gang.write_text(gang.read_text().replace('name = "The Venom Sisters"', 'name = "The Viper Sisters"', 1))
    with store.open_campaign("demo") as handle:
        assert handle.campaign.gangs[0].name == "The Viper Sisters"


def test_a_damaged_decoded_cache_is_a_miss(data_dir: Path) -> None:
    from munda_tui.saves import folder

    store = Store(data_dir)
    _played(store)
    with store.open_campaign("demo") as handle:
        want = handle.campaign
    path = store.campaign_dir("demo") / cache.CACHE_DIR / folder.DECODED_FILE
    head = path.read_bytes().partition(b"\n")[0]
    for body in (b"{broken", b'[{"id": 1}]', b"[]", b""):
        path.write_bytes(head + b"\n" + body)
        with store.open_campaign("demo") as handle:
            assert handle.campaign == want


def test_a_hand_edited_decoded_cache_is_a_miss(data_dir: Path) -> None:
    """The cached values are checked by type only: one edited in the cache (out of range
    here) is not taken; the campaign opens as its files say."""
    from munda_tui.saves import folder

    store = Store(data_dir)
    _played(store)
    with store.open_campaign("demo") as handle:
        want = handle.campaign
    path = store.campaign_dir("demo") / cache.CACHE_DIR / folder.DECODED_FILE
    raw = path.read_bytes()
    credits = str(want.gangs[0].credits).encode()
    assert credits in raw
    path.write_bytes(raw.replace(credits, b"99999999999999999999", 1))
    with store.open_campaign("demo") as handle:
        assert handle.campaign == want


def test_a_save_after_an_open_from_the_decoded_cache_writes_only_what_changed(data_dir: Path, monkeypatch) -> None:
    store = Store(data_dir)
    _played(store)
    store.open_campaign("demo").close()
    gangs = store.campaign_dir("demo") / "gangs"
    before = {p.name: p.read_text() for p in gangs.iterdir()}
    written: list[str] = []
    from munda_tui.saves import folder

    real = folder.gang_text_and_data

    def counted(gang, *args, **kw):  # type: ignore[no-untyped-def]
        written.append(getattr(gang, "id", "?"))
        return real(gang, *args, **kw)

    monkeypatch.setattr(folder, "gang_text_and_data", counted)
    with store.open_campaign("demo") as handle:
        handle.campaign.gangs[0].credits += 5
        handle.save()
        gid = handle.campaign.gangs[0].id
    assert written == [gid]  # (the others compared by their data: not made again)
    after = {p.name: p.read_text() for p in gangs.iterdir()}
    assert [n for n in before if before[n] != after[n]] == ["venom-sisters.toml"]
