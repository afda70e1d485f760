"""The `import yaktribe`, `import campaign`, `report` and `export` subcommands."""

from __future__ import annotations

from pathlib import Path

import pytest

from munda_tui.cli import main
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import BattleSummary, Standing
from munda_tui.saves import Store

FIXTURE = Path(__file__).parents[1] / "fixtures" / "yaktribe" / "157849.json"


ROLES = ["--role", "psychic familiar=hanger-on"]


def test_import_yaktribe_creates_the_campaign_named_in_the_file(data_dir, capsys) -> None:
    assert main(["import", "yaktribe", str(FIXTURE), *ROLES]) == 0
    out = capsys.readouterr().out
    assert "Created campaign Taikkuus' Campaign (taikkuus-campaign)" in out
    assert "Gang Rating: computed 1715, file 1715. Matches the file" in out
    with Store(data_dir).open_campaign("taikkuus-campaign") as h:
        assert h.campaign.gangs[0].name == "Max's Marauders"
        by = {f.name: f for f in h.campaign.gangs[0].fighters}
        assert by["Cherub Beta"].type.value == "Hanger-on" and by["Cherub Beta"].label == "Psychic Familiar"
        assert h.campaign.fighter_roles == {"psychic familiar": "Hanger-on"}


def test_import_yaktribe_asks_for_unknown_type_names(data_dir, capsys) -> None:
    assert main(["import", "yaktribe", str(FIXTURE)]) == 2
    err = capsys.readouterr().err
    assert "note: 1 fighter type the app cannot place" in err
    assert "Psychic Familiar: Cherub Alpha II, Cherub Beta, Cherub Alpha" in err
    assert "Propagandist" not in err  # a Hanger-on (Book of Judgement p90)
    assert "--assume-ganger" in err and "Nothing was imported" in err
    assert Store(data_dir).list_campaigns() == []
    assert main(["import", "yaktribe", str(FIXTURE), "--role", "Psychic Familiar=Wizard"]) == 1
    assert "'Wizard' is not a role" in capsys.readouterr().err
    assert main(["import", "yaktribe", str(FIXTURE), "--assume-ganger"]) == 0
    out = capsys.readouterr().out
    assert "Recorded as Gangers (--assume-ganger): Psychic Familiar" in out
    with Store(data_dir).open_campaign("taikkuus-campaign") as h:
        assert h.campaign.fighter_roles == {}  # an assumption is not remembered


def test_import_yaktribe_into_existing_campaign_by_name(data_dir, capsys) -> None:
    Store(data_dir).create_campaign(demo_campaign()).close()
    assert main(["import", "yaktribe", str(FIXTURE), "--campaign", "Demo: Ashfall Sump",
                 "--assume-ganger"]) == 0
    assert "Opened campaign Demo: Ashfall Sump (demo)" in capsys.readouterr().out
    with Store(data_dir).open_campaign("demo") as h:
        assert [g.id for g in h.campaign.gangs] == ["venom-sisters", "iron-skulls", "max-s-marauders"]


def test_import_bad_file_changes_nothing(data_dir, tmp_path, capsys) -> None:
    bad = tmp_path / "gang.json"
    bad.write_text('{"not": "a gang"}')
    assert main(["import", "yaktribe", str(bad), "--campaign", "Fresh"]) == 1
    err = capsys.readouterr().err
    assert "not a Yaktribe gang export" in err and "Nothing was imported" in err
    assert Store(data_dir).list_campaigns() == []


def test_import_into_a_campaign_open_elsewhere_is_refused(data_dir, capsys) -> None:
    store = Store(data_dir)
    with store.create_campaign(demo_campaign()):
        assert main(["import", "yaktribe", str(FIXTURE), "--campaign", "demo"]) == 1
    assert "Nothing was imported" in capsys.readouterr().err
    with Store(data_dir).open_campaign("demo") as h:
        assert len(h.campaign.gangs) == 2


def _campaign_with_battle(data_dir: Path) -> None:
    c = demo_campaign()
    c.battles.append(BattleSummary(1, "2026-03-01", "Ambush", ["venom-sisters", "iron-skulls"],
                                   "iron-skulls", "done",
                                   {"iron-skulls": Standing(1300, 7, 90)}))
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, {"report": {"markdown": "The Skulls held the bridge."}})


def test_report_summary_and_battle(data_dir, capsys) -> None:
    _campaign_with_battle(data_dir)
    assert main(["report", "demo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Demo: Ashfall Sump\n")
    assert "| The Iron Skulls | Goliath |" in out and "| 1/0/0 |" in out
    assert main(["report", "Demo: Ashfall Sump", "--battle", "1"]) == 0
    out = capsys.readouterr().out
    assert out == "The Skulls held the bridge.\n"  # the saved report, as written
    assert main(["report", "demo", "--battle", "7"]) == 1
    assert "no battle 7" in capsys.readouterr().err
    assert main(["report", "nowhere"]) == 1
    assert "no campaign 'nowhere'" in capsys.readouterr().err


def test_report_for_discord_in_messages_of_at_most_2000_characters(data_dir, capsys) -> None:
    _campaign_with_battle(data_dir)
    assert main(["report", "demo", "--discord"]) == 0
    out = capsys.readouterr().out
    parts = out.split("--- message ")[1:]
    assert len(parts) >= 2 and out.startswith("--- message 1/")
    for part in parts:
        head, _, body = part.partition("\n")
        n = int(head.split("(")[1].split()[0])
        assert len(body.rstrip("\n")) == n <= 2000
    assert "```" in out and "| The Iron Skulls | Goliath |" not in out
    assert main(["report", "demo", "--battle", "1", "--discord"]) == 0
    assert capsys.readouterr().out == ("--- message 1/1 (27 characters) ---\n"
                                       "The Skulls held the bridge.\n")


def test_report_formats(data_dir, capsys) -> None:
    import json

    _campaign_with_battle(data_dir)
    assert main(["report", "demo", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["title"] == "Demo: Ashfall Sump"
    assert any(b["kind"] == "table" and "The Iron Skulls" in b["rows"][1] for b in data["blocks"])
    assert main(["report", "demo", "--battle", "1", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["blocks"] == [
        {"kind": "paragraph", "lines": ["The Skulls held the bridge."]}]
    assert main(["report", "demo", "--format", "discord"]) == 0
    by_format = capsys.readouterr().out
    assert main(["report", "demo", "--discord"]) == 0
    assert capsys.readouterr().out == by_format
    assert main(["report", "demo", "--format", "markdown"]) == 0
    assert capsys.readouterr().out.startswith("# Demo: Ashfall Sump\n")
    assert main(["report", "demo", "--discord", "--format", "json"]) == 1
    assert "two formats" in capsys.readouterr().err


def test_export_then_import_campaign(data_dir, tmp_path, capsys, monkeypatch) -> None:
    _campaign_with_battle(data_dir)
    out_file = tmp_path / "share.toml"
    assert main(["export", "demo", "-o", str(out_file)]) == 0
    assert f"Wrote Demo: Ashfall Sump to {out_file}" in capsys.readouterr().out
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "friend"))
    assert main(["import", "campaign", str(out_file)]) == 0
    assert "as demo: 2 gangs, 1 battle (1 battle file)" in capsys.readouterr().out
    with Store(tmp_path / "friend").open_campaign("demo") as h:
        assert h.load_battle(1)["report"]["markdown"] == "The Skulls held the bridge."
    with Store(data_dir).open_campaign("demo") as mine:
        assert h.campaign.gangs == mine.campaign.gangs


def test_export_to_stdout(data_dir, capsys) -> None:
    _campaign_with_battle(data_dir)
    assert main(["export", "demo", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith('format = "munda-tui-campaign"')
    assert "[[battles]]" in out


@pytest.mark.parametrize("argv", [["import"], ["import", "yaktribe"], ["report"]])
def test_usage_errors(argv, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2


def test_import_yaktribe_notes_name_the_roster_key_as_the_player_has_it(data_dir, config_dir,
                                                                        capsys) -> None:
    """Issue 26.2: the note on an export without item kinds named the roster's key as
    "(i)"; with the key remapped in the config, the note names the player's key."""
    (config_dir / "config.toml").write_text('[keymap]\n"roster.edit_item" = "f7"\n', "utf-8")
    assert main(["import", "yaktribe", str(FIXTURE), *ROLES]) == 0
    out = capsys.readouterr().out
    assert "set each weapon's kind in the roster (f7)" in out
