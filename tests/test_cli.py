from __future__ import annotations

import json
import subprocess
import sys

from munda_tui import __version__
from munda_tui.cli import main


def test_roll_prints_faces_and_total(capsys) -> None:
    assert main(["roll", "2D6", "--seed", "3"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("2D6 [") and "] = " in out
    assert main(["roll", "2D6", "--seed", "3"]) == 0
    assert capsys.readouterr().out.strip() == out  # same seed, same roll


def test_roll_with_real_faces(capsys) -> None:
    assert main(["roll", "D66", "--faces", "35"]) == 0
    assert capsys.readouterr().out.strip() == "D66 [3, 5] = 35"


def test_roll_rejects_bad_input(capsys) -> None:
    assert main(["roll", "2D7"]) == 2
    assert "D7" in capsys.readouterr().err
    assert main(["roll", "D6", "--faces", "9"]) == 2
    assert "not a D6 face" in capsys.readouterr().err


def test_version() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "munda_tui", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == f"munda-tui {__version__}"


def test_rules_export_is_json(capsys) -> None:
    assert main(["rules", "export", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "Escher" in data["model"]["gang_types"]


def test_rules_export_maps_every_subplot_to_its_watcher_or_reminder(capsys) -> None:
    assert main(["rules", "export", "--format", "json"]) == 0
    section = json.loads(capsys.readouterr().out)["subplot_watchers"]
    cards = {c["id"]: c for c in section["cards"]}
    assert len(cards) == 130
    assert cards["escher:2"]["watcher"]["kind"] == "takedowns_in_round"  # Murder Run
    assert cards["goliath:10"]["watcher"]["kind"] == "activation_wounds"  # Impressive Combo
    assert cards["delaque:10"]["reminder"] == ["battle_start", "chosen_round"]  # Dead of Night
    for c in cards.values():
        assert ("watcher" in c) != ("reminder" in c), c["id"]
        assert all(t in section["timings"] for t in c.get("reminder", [])), c["id"]
        assert c.get("watcher") or c["reminder"], c["id"]


def test_the_tuis_own_options_build_no_subcommand_parser() -> None:
    """Start-up does not build the subcommands' parsers when the command line has only
    the TUI's options; anything else (a subcommand, a stray word, an unknown option,
    --help) gets the whole parser and its messages."""
    from munda_tui.cli import build_parser

    for words in ([], ["--demo"], ["--campaign", "league"], ["--data-dir=/tmp/x", "--campaign=a"],
                  ["--seed", "3", "--today", "2026-01-15"]):
        parser = build_parser(only=None, words=words)
        assert parser._subparsers is None, words
        assert parser.parse_args(words).command is None
    for words in (["--help"], ["report", "demo"], ["nowhere"], ["--bogus"], ["--demo", "x"]):
        assert build_parser(only=None, words=words)._subparsers is not None, words
