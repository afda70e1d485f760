"""A campaign survives the disk unchanged, and so do the player's comments."""

from __future__ import annotations

import copy
import tomllib

from munda_tui.rules.core.model import Equipment, Fighter, FighterType, Gang, GangType
from munda_tui.saves import Store
from munda_tui.saves.codec import campaign_from_data, campaign_to_data


def test_full_campaign_round_trips_through_the_codec(full_campaign):
    data = campaign_to_data(full_campaign)
    assert data["schema_version"] == 2
    assert campaign_from_data(copy.deepcopy(data)) == full_campaign


def test_full_campaign_round_trips_through_the_store(store, full_campaign):
    expected = copy.deepcopy(full_campaign)
    with store.create_campaign(full_campaign) as handle:
        assert handle.slug == "full"
        text = (handle.path / "gangs" / f"{expected.gangs[0].id}.toml").read_text(encoding="utf-8")
    # the file is plain TOML that any reader understands
    assert tomllib.loads(text)["fighters"][0]["name"] == "Krag Ironjaw"
    with store.open_campaign("full") as handle:
        assert handle.campaign == expected
        assert handle.campaign.gangs[0].rating == expected.gangs[0].rating
    [info] = store.list_campaigns()
    assert (info.slug, info.name, info.error, info.battles) == ("full", expected.name, None, 2)
    assert info.gangs == [g.name for g in expected.gangs]


def test_changes_are_saved(store, full_campaign):
    with store.create_campaign(full_campaign) as handle:
        gang = handle.campaign.gang("iron-skulls")
        gang.fighter("krag").xp = 99
        gang.fighters.remove(gang.fighter("brak"))
        # Pip, retired, is off the roster among the departed (issue 31): a change there too
        assert gang.member("pip") in gang.departed
        gang.departed.remove(gang.member("pip"))
        gang.fighters.append(Fighter(id="new", name="New Blood", type=FighterType.JUVE, cost=25))
        handle.campaign.gangs.insert(0, Gang(id="cogs", name="Cogs", type=GangType.COGS))
        handle.campaign.gangs[2].stash.append(Equipment("Photo-goggles", 35, rarity="Rare (9)"))
        expected = copy.deepcopy(handle.campaign)
        handle.save()
    with store.open_campaign("full") as handle:
        assert handle.campaign == expected


def test_slug_is_unique_and_becomes_the_id(store, full_campaign):
    a = store.create_campaign(full_campaign)
    second = copy.deepcopy(full_campaign)
    b = store.create_campaign(second)
    assert (a.slug, b.slug) == ("full", "full-2")
    assert b.campaign.id == "full-2"
    a.close()
    b.close()
    assert [i.slug for i in store.list_campaigns()] == ["full", "full-2"]
    store.delete_campaign("full")
    assert [i.slug for i in store.list_campaigns()] == ["full-2"]
    assert [p.name for p in store.campaigns_dir.iterdir()] == ["full-2"]


COMMENTED_EDITS = [
    # (file, find, replace with) applied to the written files by a player
    ("campaign.toml", 'schema_version = 2\n', '# Our club campaign. Do not touch the schema!\nschema_version = 2\n'),
    ("gangs/iron-skulls.toml", 'name = "The Iron Skulls"', 'name = "The Iron Skulls"  # Bo\'s lads'),
    ("gangs/iron-skulls.toml", 'id = "krag"\n', 'id = "krag"\n# the boss, promoted in battle 2\n'),
    ("campaign.toml", '[settings]\n', '[settings]\n# we play Turf War\n'),
    ("gangs/venom-sisters.toml", 'id = "sister-8"\n', 'id = "sister-8"  # last one in\n'),
]


def _commented(handle):
    for name, find, replace in COMMENTED_EDITS:
        path = handle.path / name
        text = path.read_text(encoding="utf-8")
        assert text.count(find) == 1, find
        path.write_text(text.replace(find, replace), encoding="utf-8")


def test_comments_survive_a_save(store, full_campaign):
    store.create_campaign(full_campaign).close()
    with store.open_campaign("full") as handle:
        _commented(handle)
    with store.open_campaign("full") as handle:
        campaign = handle.campaign
        campaign.gang("iron-skulls").fighter("krag").xp += 1
        campaign.gang("iron-skulls").credits = 5
        sisters = campaign.gang("venom-sisters")
        sisters.fighters.remove(sisters.fighter("sister-3"))  # elements matched by id
        sisters.fighters.append(Fighter(id="sister-9", name="Sister 9"))
        campaign.gangs.reverse()  # even reordered, each gang keeps its comments
        expected = copy.deepcopy(campaign)
        handle.save()
        texts = {name: (handle.path / name).read_text(encoding="utf-8") for name, _f, _r in COMMENTED_EDITS}
    for name, _find, replace in COMMENTED_EDITS:
        assert replace in texts[name]
    skulls = texts["gangs/iron-skulls.toml"]
    assert "xp = 13" in skulls and "credits = 5" in skulls
    assert 'id = "sister-3"' not in texts["gangs/venom-sisters.toml"]
    with store.open_campaign("full") as handle:
        assert handle.campaign == expected


def test_player_edits_in_unchanged_parts_survive(store, full_campaign):
    store.create_campaign(full_campaign).close()
    path = store.campaign_dir("full") / "gangs" / "iron-skulls.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('name = "Brak"', 'name = "Brak the Bold"  # renamed at the table'), encoding="utf-8")
    with store.open_campaign("full") as handle:
        assert handle.campaign.gang("iron-skulls").fighter("brak").name == "Brak the Bold"
        handle.campaign.gang("scum").credits = 7
        handle.save()
    text = path.read_text(encoding="utf-8")
    assert 'name = "Brak the Bold"  # renamed at the table' in text


def test_comment_added_while_open_is_kept(store, full_campaign):
    with store.create_campaign(full_campaign) as handle:
        text = handle.file.read_text(encoding="utf-8")
        handle.file.write_text("# written in an editor meanwhile\n" + text, encoding="utf-8")
        handle.campaign.gangs[0].credits += 1
        handle.save()
        assert handle.file.read_text(encoding="utf-8").startswith("# written in an editor meanwhile\n")


def test_saving_an_unchanged_campaign_keeps_the_file_and_backups(store, full_campaign):
    with store.create_campaign(full_campaign) as handle:
        handle.campaign.gangs[0].credits += 1
        handle.save()
        before = handle.file.stat().st_ino
        backups = store.backups(handle.file)
        handle.save()
        handle.save()
        assert handle.file.stat().st_ino == before
        assert store.backups(handle.file) == backups


def test_first_battle_summary_turns_the_empty_list_into_tables(store, demo_campaign):
    from munda_tui.rules.core.model import BattleSummary

    with store.create_campaign(demo_campaign) as handle:
        assert "battles" not in handle.file.read_text(encoding="utf-8")  # (their own files)
        handle.campaign.battles.append(BattleSummary(1, "2026-01-15"))
        handle.save()
        handle.campaign.battles.append(BattleSummary(2, "2026-01-22", status="battle"))
        handle.save()
        texts = [handle.battle_path(n).read_text(encoding="utf-8") for n in (1, 2)]
        assert [p.name[:11] for p in (handle.battle_path(1), handle.battle_path(2))] == ["2026-01-15-", "2026-01-22-"]
        expected = copy.deepcopy(handle.campaign)
    assert [t.count("[summary]") for t in texts] == [1, 1]
    assert "number = 2" in texts[1] and 'status = "battle"' in texts[1]
    with store.open_campaign("demo") as handle:
        assert handle.campaign == expected


def test_battle_files_round_trip(store, demo_campaign):
    data = {
        "extra": {"scenario": "Sneak Attack", "crews": {"a": ["x", "y"]}, "attacker": "a"},
        "battle": {"events": [{"kind": "ooa", "fighter": "f\"1", "round": i, "ok": i % 2 == 0, "r": 0.5} for i in range(5)]},
        "postbattle": {},
        "report": {"lines": ["a", "b\nc"]},
    }
    with store.create_campaign(demo_campaign) as handle:
        assert handle.battle_numbers() == []
        handle.save_battle(7, data)
        handle.save_battle(12, {"setup": {}})
        assert handle.battle_numbers() == [7, 12]
        assert handle.battle_path(7).name.startswith("battle-")  # no summary, no date
        assert handle.load_battle(7) == data
        loaded = handle.load_battle(7)
        loaded["battle"]["events"].append({"kind": "end"})
        handle.save_battle(7, loaded)
        assert handle.load_battle(7) == loaded
        assert tomllib.loads(handle.battle_path(7).read_text())["schema_version"] == 1
    with Store(store.data_dir).open_campaign("demo") as handle:
        assert handle.load_battle(7) == loaded


def test_missing_battle_is_a_key_error(store, demo_campaign):
    import pytest

    with store.create_campaign(demo_campaign) as handle, pytest.raises(KeyError):
        handle.load_battle(3)


def test_non_plain_battle_data_is_refused_and_nothing_written(store, demo_campaign):
    import datetime

    import pytest

    with store.create_campaign(demo_campaign) as handle:
        handle.save_battle(1, {"extra": {"a": 1}})
        with pytest.raises(TypeError, match=r"extra\.when"):
            handle.save_battle(1, {"extra": {"when": datetime.date(2026, 1, 1)}})
        assert handle.load_battle(1) == {"extra": {"a": 1}}


def test_awkward_strings_save_in_place(store, demo_campaign):
    awkward = ['a\r\nb', 'three """ quotes\n', "ends with a backslash\\", "\x00\x1f\x7f", "line\nbreak\ttab", "'''\n'"]
    with store.create_campaign(demo_campaign) as handle:
        handle.file.write_text("# mine\n" + handle.file.read_text(encoding="utf-8"), encoding="utf-8")
        for i, text in enumerate(awkward):
            handle.campaign.gangs[0].fighters[i].notes = text
        handle.campaign.notes = "\n".join(awkward)
        expected = copy.deepcopy(handle.campaign)
        handle.save()
        assert handle.file.read_text(encoding="utf-8").startswith("# mine\n")
    with store.open_campaign("demo") as handle:
        assert handle.campaign == expected


def test_an_invalid_campaign_is_not_saved(store, demo_campaign):
    import pytest

    from munda_tui.saves import SaveError

    with store.create_campaign(demo_campaign) as handle:
        before = handle.file.read_bytes()
        gang = handle.campaign.gangs[0]
        gang.fighters.append(copy.deepcopy(gang.fighters[0]))  # a duplicate id
        with pytest.raises(SaveError, match=r"not saved: gangs\[0\]\.fighters\[\d+\]\.id: duplicate fighter id"):
            handle.save()
        assert handle.file.read_bytes() == before
