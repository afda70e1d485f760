"""`munda-tui pack list | check | new | add` and `rules export` with packs (issue 35.5, 35.8).

Every pack here is TEST DATA or a skeleton's placeholder club text, never rules text.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from munda_tui.cli import main
from munda_tui.saves.packs import SKELETONS, load_packs


@pytest.mark.parametrize("kind", sorted(SKELETONS))
def test_pack_new_writes_a_skeleton_of_each_kind_that_loads_as_it_is(
        kind: str, config_dir: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from munda_tui.rules.packs.check import pack_items

    assert main(["pack", "new", kind, "Our Club"]) == 0
    out = capsys.readouterr().out
    folder = config_dir / "packs" / "our-club"
    assert f"wrote {folder / 'pack.toml'}" in out
    packs = load_packs(config_dir)
    assert packs.problems == []
    kinds = {row["kind"] for row in pack_items(packs.data)}
    assert kind in kinds or (kind == "fighter_roles" and "fighter_lists" in kinds)
    assert main(["pack", "check", str(folder)]) == 0
    assert "every pack checks" in capsys.readouterr().out
    # placeholder club text only: a skeleton holds no rules text
    for path in folder.rglob("*.toml"):
        text = path.read_text(encoding="utf-8")
        assert "Our" in text or "our" in text
    # never over a file that is there
    assert main(["pack", "new", kind, "Our Club"]) == 1
    assert "is there already" in capsys.readouterr().err


def test_pack_check_and_list_say_a_broken_file_with_its_place(
        config_dir: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["pack", "new", "conditions", "Test Club"]) == 0
    path = config_dir / "packs" / "test-club" / "conditions.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("short =", "shrot ="),
                    encoding="utf-8")
    capsys.readouterr()
    assert main(["pack", "check"]) == 1
    out = capsys.readouterr().out
    assert f"{path}:" in out and "unknown key 'shrot' (did you mean 'short'?)" in out
    assert main(["pack", "list"]) == 1
    out = capsys.readouterr().out
    assert "test-club 1: Our club's pack (yours," in out
    assert "adds nothing yet" in out and f"left out: {path}:" in out
    assert main(["check", str(config_dir)]) == 1
    assert "unknown key 'shrot'" in capsys.readouterr().out


def test_pack_add_copies_a_pack_into_a_campaign_and_list_shows_it(
        config_dir: Path, data_dir: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.saves import Store

    with Store(data_dir).create_campaign(demo_campaign()):
        pass
    assert main(["pack", "new", "scenario", "Test Club", "--dir", str(tmp_path / "mine")]) == 0
    assert main(["pack", "add", str(tmp_path / "mine" / "test-club"), "--campaign", "demo"]) == 0
    target = data_dir / "campaigns" / "demo" / "packs" / "test-club"
    assert f"added {target}" in capsys.readouterr().out
    assert (target / "scenario" / "test_club.toml").is_file()
    assert main(["pack", "list", "--campaign", "demo"]) == 0
    out = capsys.readouterr().out
    assert "(the campaign's," in out and "adds 1 scenario table" in out
    assert main(["pack", "add", str(tmp_path / "nothing"), "--campaign", "demo"]) == 1
    assert "not a pack folder" in capsys.readouterr().err


def test_rules_export_names_every_pack_item_with_its_pack_and_file(
        config_dir: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    for kind in ("scenario", "subplots", "postbattle", "conditions"):
        assert main(["pack", "new", kind, "Test Club"]) == 0
    capsys.readouterr()
    assert main(["rules", "export"]) == 0
    data = json.loads(capsys.readouterr().out)
    folder = config_dir / "packs" / "test-club"
    items = {(i["kind"], i["id"]): i for i in data["packs"]["items"]}
    assert items["scenario", "test_club"]["file"] == str(folder / "scenario" / "test_club.toml")
    assert items["conditions", "Our condition"]["pack"] == "test-club"
    assert "test_club" in data["scenario_tables"]
    assert "test-club" in [r["id"] for r in data["post_battle"]["rulesets"]]
    deck = next(d for d in data["subplot_decks"] if d["id"] == "test-club")
    assert deck["pack"] == "test-club" and deck["file"] == str(folder / "subplots" / "test-club.toml")
    assert data["packs"]["packs"][0]["id"] == "test-club"
