"""Hand edits (issue 26, item 18): comments in a battle file survive the app's next
save (the README says comments survive), and a hand edit made while the campaign is
open is never silently undone by the app's next save: a change the save keeps (another
part of the battle file, a comment) says nothing; one the save replaces is kept aside in
.backups and the player is told where."""

from __future__ import annotations

import tomllib

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.saves import Store
from munda_tui.saves.files import load_battle_file
from scripts.generate import generated_battle_file


def _battle(tmp_path, events: int = 6):  # type: ignore[no-untyped-def]
    campaign, data = generated_battle_file(seed=3, per_side=4, events=events)
    store = Store(tmp_path / "saves")
    notices: list[str] = []
    store.on_notice = notices.append
    handle = store.create_campaign(campaign)
    handle.save_battle(1, data)
    return store, handle, data, notices


def _next_event(data: dict) -> dict:  # type: ignore[type-arg]
    battle = dict(data["battle"])
    battle["log"] = [*battle["log"], {"kind": "note", "note": "one more", "round": 1}]
    return battle


def test_comments_in_a_battle_file_survive_the_next_saves(tmp_path) -> None:
    store, h, data, notices = _battle(tmp_path)
    with h:
        path = h.battle_path(1)
        lines = path.read_text(encoding="utf-8").split("\n")
        first = lines.index("[[battle.log]]")
        lines.insert(0, "# Battle 1: the grudge match (by hand)")
        lines.insert(first + 2, "# the first event, as we played it")
        lines = [ln + "  # agreed at the table" if ln.startswith("battlefield =") else ln for ln in lines]
        assert any(ln.endswith("# agreed at the table") for ln in lines)
        path.write_text("\n".join(lines), encoding="utf-8")
        h.load_battle(1)  # the tracker opens the battle
        h.update_battle(1, "battle", _next_event(data))  # and saves an event
        h.update_battle(1, "report", {"markdown": "# Battle 1"})  # and the report
        text = path.read_text(encoding="utf-8")
        assert text.startswith("# Battle 1: the grudge match (by hand)\n")
        assert "# the first event, as we played it\n" in text
        assert "  # agreed at the table\n" in text
        loaded, _ = load_battle_file(path)  # uncached: the text itself
        assert loaded["battle"] == _next_event(data) and loaded["report"] == {"markdown": "# Battle 1"}
        assert notices == []


def test_a_hand_edit_of_the_part_the_app_saves_is_kept_aside_and_said(tmp_path) -> None:
    store, h, data, notices = _battle(tmp_path)
    with h:
        path = h.battle_path(1)
        h.load_battle(1)
        h.update_battle(1, "battle", _next_event(data))
        # an edit of another part is read again and kept by the save: nothing to say
        path.write_text(path.read_text(encoding="utf-8") + '\n[report]\nmarkdown = "by hand"\n', encoding="utf-8")
        h.update_battle(1, "battle", _next_event(data))
        assert load_battle_file(path)[0]["report"] == {"markdown": "by hand"}
        assert notices == [] and not list(tmp_path.rglob("*.edited*.bak"))
        # an edit of the part the app saves is replaced: kept aside, and said
        edited = path.read_text(encoding="utf-8").replace('note = "one more"', 'note = "typed by hand"')
        path.write_text(edited, encoding="utf-8")  # while the campaign is open
        battle = _next_event(data)
        battle["log"] = [*battle["log"], {"kind": "note", "note": "and another", "round": 1}]
        h.update_battle(1, "battle", battle)  # the tracker's record, as it holds it
        kept = path.parent.parent / ".backups" / "battles" / f"{path.name}.edited.bak"
        assert kept.exists() and kept.read_text(encoding="utf-8") == edited
        assert len(notices) == 1
        assert notices[0].startswith(f"battles/{path.name} was changed outside munda-tui while the campaign was open")
        assert f"{path.name}.edited.bak" in notices[0]
        assert tomllib.loads(path.read_text(encoding="utf-8"))["battle"] == battle


def test_a_hand_edit_of_campaign_toml_while_open_is_kept_aside_and_said(tmp_path) -> None:
    store = Store(tmp_path / "saves")
    notices: list[str] = []
    store.on_notice = notices.append
    store.create_campaign(demo_campaign()).close()
    with store.open_campaign("demo") as h:
        edited = h.file.read_text(encoding="utf-8").replace("shared_deck = true", "shared_deck = false", 1)
        h.file.write_text(edited, encoding="utf-8")
        h.campaign.notes = "changed in the app"
        h.save()
        kept = list(tmp_path.rglob("campaign.toml.edited*.bak"))
        assert [p.read_text(encoding="utf-8") for p in kept] == [edited]
        assert notices and notices[0].startswith("campaign.toml was changed outside munda-tui")
        # a comment added by hand is kept by the save: nothing to say
        notices.clear()
        h.file.write_text("# ours\n" + h.file.read_text(encoding="utf-8"), encoding="utf-8")
        h.campaign.notes = "changed again"
        h.save()
        assert h.file.read_text(encoding="utf-8").startswith("# ours\n") and notices == []


def test_a_backup_restored_by_the_app_is_no_outside_edit(tmp_path) -> None:
    store, h, data, notices = _battle(tmp_path)
    with h:
        path = h.battle_path(1)
        h.update_battle(1, "battle", _next_event(data))
        h.update_battle(1, "battle", data["battle"])
        backup = store.backups(path)[0]  # the version with one more event
        store.restore_backup(backup, path)
        battle = _next_event(data)
        battle["log"] = battle["log"][:-1] + [{"kind": "note", "note": "after the restore", "round": 1}]
        h.update_battle(1, "battle", battle)
        assert notices == [] and not list(tmp_path.rglob("*.edited*.bak"))
        assert load_battle_file(path)[0]["battle"] == battle
