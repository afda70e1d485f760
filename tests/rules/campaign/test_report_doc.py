"""Reports as blocks (rules/report_doc.py): kept as data, rendered per format."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from support import examples

from munda_tui.rules.campaign.report import battle_report, campaign_summary
from munda_tui.rules.campaign.report_formats import RENDERERS
from munda_tui.rules.campaign.report_doc import (
    Bullets,
    Heading,
    Item,
    Paragraph,
    Report,
    Table,
    from_markdown,
    render_json,
    render_markdown,
)


def _sample() -> Report:
    r = Report()
    r.heading("Battle 3: The Venom Sisters vs The Iron Skulls", 1)
    r.bullets("Scenario: Ambush", Item("Changes:", (Item("Vex: +2 XP"), Item("Rating 1000 -> 1030"))))
    r.heading("Standings")
    r.table(["Gang", "Rating"], [["The Venom Sisters", 1030], ["A | B", 900]])
    r.paragraph("Two lines", "of text.")
    return r


def test_markdown_of_each_block() -> None:
    assert render_markdown(_sample()) == (
        "# Battle 3: The Venom Sisters vs The Iron Skulls\n\n"
        "- Scenario: Ambush\n- Changes:\n  - Vex: +2 XP\n  - Rating 1000 -> 1030\n\n"
        "## Standings\n\n"
        "| Gang | Rating |\n| --- | --- |\n| The Venom Sisters | 1030 |\n| A \\| B | 900 |\n\n"
        "Two lines\nof text.\n")


def test_data_round_trip_and_json_keeps_every_block() -> None:
    r = _sample()
    assert Report.from_data(r.to_data()) == r
    data = json.loads(render_json(r))
    assert data["format"] == "munda-tui report" and data["title"] == r.title
    assert Report.from_data(data["blocks"]) == r


@pytest.mark.parametrize(("blocks", "where"), [
    ("x", "blocks"),
    ([{"kind": "chart"}], "blocks[0].kind"),
    ([{"kind": "heading", "text": "T", "level": 9}], "blocks[0].level"),
    ([{"kind": "table", "headers": ["a"], "rows": [["x"], [1]]}], "blocks[0].rows[1]"),
    ([{"kind": "bullets", "items": [{"text": "a", "items": [{"txt": "b"}]}]}],
     "blocks[0].items[0].items[0].text"),
])
def test_bad_blocks_say_where(blocks: object, where: str) -> None:
    with pytest.raises(ValueError) as error:
        Report.from_data(blocks)
    assert str(error.value).startswith(where + ":")


def test_an_old_markdown_report_reads_back_into_blocks() -> None:
    old = ("# Battle 1: A vs B\n\n- Winner: A\n- Changes:\n  - Vex: +2 XP\n\n"
           "## Standings\n\n| Gang | Rating |\n| --- | --- |\n| A | 1 |\n\nSome words.\n")
    report = from_markdown(old)
    assert [type(b) for b in report.blocks] == [Heading, Bullets, Heading, Table, Paragraph]
    assert render_markdown(report) == old


@settings(max_examples=examples(80), deadline=None)
@given(hs.lists(hs.text(alphabet="ab |#-\n", max_size=80), max_size=20))
def test_any_markdown_reads_and_renders_in_every_format(parts: list[str]) -> None:
    report = from_markdown("\n".join(parts))
    for render in RENDERERS.values():
        assert isinstance(render(report), str)
    assert Report.from_data(report.to_data()) == report


def test_the_campaign_summary_and_a_battle_in_every_format(demo_campaign) -> None:
    from munda_tui.rules.core.model import BattleSummary

    c = demo_campaign
    c.battles.append(BattleSummary(1, "2026-03-01", "Ambush", [g.id for g in c.gangs[:2]], "", "done"))
    for report in (campaign_summary(c), battle_report(c, 1, {"report": {"loot": ["Lasgun"]}})):
        assert report.title
        assert RENDERERS["markdown"](report).startswith(f"# {report.title}\n")
        assert json.loads(RENDERERS["json"](report))["blocks"] == report.to_data()
        assert RENDERERS["discord"](report).startswith("--- message 1/")


def test_the_battle_file_keeps_the_blocks_and_its_check_says_where_they_are_wrong() -> None:
    from munda_tui.saves import battle_schema
    from munda_tui.saves.codec import ValidationError

    battle_schema.check_part("report", {"blocks": _sample().to_data()})
    bad = _sample().to_data()
    bad[3]["rows"][1] = ["A | B", 900]
    with pytest.raises(ValidationError) as error:
        battle_schema.check_part("report", {"blocks": bad})
    assert str(error.value) == "report.blocks[3].rows[1]: a list of strings"
