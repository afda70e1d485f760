"""`munda-tui export` and `munda-tui report` never contain a Sub-plot not yet revealed:
a campaign with a battle in progress (two hidden hands, one card revealed, one undone
reveal waiting in the redo stack, a secret number, a met card the owner has looked at)."""

from __future__ import annotations

from munda_tui.rules.battle.events import RevealEvent

import tomllib

from munda_tui.cli import main
from munda_tui.rules.subplots import decks as subplots
from munda_tui.rules.battle.events import Battle, Event, default_setup, start_event
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import BattleSummary
from munda_tui.saves import Store

REVEALED = "escher:2"  # Murder Run, revealed in the battle
HIDDEN = ["escher:7", "delaque:10", "goliath:Q"]  # never revealed


def _campaign(data_dir) -> str:
    campaign = demo_campaign()
    a, b = campaign.gangs
    setup = default_setup(campaign, 1, a.id, b.id)
    setup.subplots = True
    setup.side(a.id).hand = [REVEALED, "escher:7"]
    setup.side(b.id).hand = ["delaque:10", "goliath:Q"]
    setup.side(b.id).subplot_choices = {"delaque:10": "9"}  # Dead of Night's secret number
    battle = Battle([start_event(setup, campaign)])
    battle.log_event(RevealEvent(gang=a.id, card=REVEALED))
    battle.log_event(RevealEvent(gang=b.id, card="goliath:Q"))
    battle.undo()  # the reveal undone: in the redo stack, still hidden
    campaign.battles.append(BattleSummary(number=1, scenario="Test", gangs=[a.id, b.id],
                                          status="battle"))
    store = Store(data_dir)
    with store.create_campaign(campaign) as handle:
        data = {"setup": setup.to_data(), "battle": {**battle.to_data(),
                                                     "seen": {a.id: ["escher:7", REVEALED]}}}
        handle.save_battle(1, data)
        return handle.campaign.id


def _hidden_on(text: str) -> list[str]:
    found = []
    for cid in HIDDEN:
        if cid in text or subplots.card(cid).name in text:
            found.append(cid)
    return found


def test_export_leaves_every_unrevealed_card_out(tmp_path, capsys) -> None:
    slug = _campaign(tmp_path / "data")
    out = tmp_path / "export.toml"
    assert main(["--data-dir", str(tmp_path / "data"), "export", slug, "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert _hidden_on(text) == []
    assert REVEALED in text  # a revealed card is public
    assert "9" not in tomllib.loads(text)["battles"][0]["data"]["setup"]["sides"][1].get(
        "subplot_choices", {}).values()
    data = tomllib.loads(text)
    assert data["subplots_withheld"] == 3
    err = capsys.readouterr().err
    assert "3 Sub-plots not yet revealed were left out" in err
    # to stdout too
    assert main(["--data-dir", str(tmp_path / "data"), "export", slug, "-o", "-"]) == 0
    assert _hidden_on(capsys.readouterr().out) == []


def test_report_lists_only_revealed_subplots(tmp_path, capsys) -> None:
    slug = _campaign(tmp_path / "data")
    for args in (["report", slug], ["report", slug, "--battle", "1"]):
        assert main(["--data-dir", str(tmp_path / "data"), *args]) == 0
        assert _hidden_on(capsys.readouterr().out) == []


def test_the_battle_file_itself_keeps_the_hands(tmp_path) -> None:
    """Only what leaves the laptop is stripped: the saved battle still holds both hands."""
    slug = _campaign(tmp_path / "data")
    with Store(tmp_path / "data").open_campaign(slug) as handle:
        sides = handle.load_battle(1)["setup"]["sides"]
    assert [s["hand"] for s in sides] == [[REVEALED, "escher:7"], ["delaque:10", "goliath:Q"]]


def test_an_export_with_withheld_cards_imports_back(tmp_path, capsys) -> None:
    """The other player imports the export: the count of withheld cards each side records
    is the export's note, not a set-up field to refuse ('unknown key subplots_withheld')."""
    slug = _campaign(tmp_path / "data")
    out = tmp_path / "export.toml"
    assert main(["--data-dir", str(tmp_path / "data"), "export", slug, "-o", str(out)]) == 0
    assert "subplots_withheld = 2" in out.read_text(encoding="utf-8")  # a side's own count
    assert main(["--data-dir", str(tmp_path / "other"), "import", "campaign", str(out)]) == 0
    assert main(["check", str(out)]) == 0
    with Store(tmp_path / "other").open_campaign(slug) as handle:
        sides = handle.load_battle(1)["setup"]["sides"]
    assert [s["hand"] for s in sides] == [[REVEALED], []]
