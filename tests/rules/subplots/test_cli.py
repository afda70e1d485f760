"""`munda-tui draw`: one player's Sub-plot draw printed for the shell."""

from __future__ import annotations

import json

from munda_tui.cli import main


def test_draw_with_a_house_deck_and_typed_cards(capsys):
    assert main(["draw", "--house", "van saar", "--seed", "4", "--card", "joker", "9h", "--card", "KS"]) == 0
    out = capsys.readouterr().out
    assert "2 drawn from the Van Saar deck" in out
    assert "Joker (typed) - show it to your opponent" in out
    assert "Reliable Tech  [Van Saar, House of Artifice, p90]" in out
    assert "Burning with Energy" in out
    assert "Reward: 2D6x10 credits" in out
    assert "Revealed: Choose Crew" in out


def test_draw_is_repeatable_with_a_seed(capsys):
    main(["draw", "--seed", "11"])
    first = capsys.readouterr().out
    main(["draw", "--seed", "11"])
    assert capsys.readouterr().out == first
    assert "drawn from the suit decks" in first


def test_draw_refuses_unknown_cards_and_houses(capsys):
    assert main(["draw", "--card", "eleven of cups"]) == 2
    assert "munda-tui draw:" in capsys.readouterr().err
    assert main(["draw", "--house", "Ratskins"]) == 2
    assert "not a House with its own deck" in capsys.readouterr().err
    assert main(["draw", "--card", "AS", "AS"]) == 2  # one card draw, and AS is out already
    assert capsys.readouterr().err


def test_rules_export_has_the_subplot_decks(capsys):
    assert main(["rules", "export", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    decks = data["subplot_decks"]
    assert [d["name"] for d in decks] == [
        "Cawdor", "Delaque", "Escher", "Goliath", "Orlock", "Van Saar",
        "Industrial Sabotage", "Noble Whims", "Unforgiving Underhive", "Dark Influences",
    ]
    assert {d["kind"] for d in decks[:6]} == {"house"} and {d["kind"] for d in decks[6:]} == {"suit"}
    assert [d["suit"] for d in decks[6:]] == ["spades", "hearts", "clubs", "diamonds"]
    assert sum(len(d["cards"]) for d in decks) == 130
    assert decks[2]["cards"][0]["rewards"][0]["upgrade"]["dice"] == "D6"
