"""docs/packs.md writes one small pack of each kind from scratch: every example is a file
of the pack `our-club` here, `pack check` accepts it and the app uses it (issue 35.8)."""

from __future__ import annotations

from munda_tui.rules.postbattle.changes import change_to_data

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "packs.md"
EXAMPLE = re.compile(r"^File: `([^`]+)`\n```toml\n(.*?)^```", re.M | re.S)


def examples() -> dict[str, str]:
    return {path: body for path, body in EXAMPLE.findall(DOC.read_text(encoding="utf-8"))}


@pytest.fixture
def pack(config_dir: Path) -> Path:
    for rel, body in examples().items():
        path = config_dir / "packs" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    return config_dir / "packs" / "our-club"


def test_the_guide_has_one_example_of_each_kind() -> None:
    from munda_tui.saves.packs import SKELETONS

    files = examples()
    assert "our-club/pack.toml" in files
    places = {rel.split("/", 1)[1] for rel in files}
    for kind, (skeleton, _text) in SKELETONS.items():
        folder = skeleton.split("/")[0] if "/" in skeleton else None
        assert any(p.startswith(f"{folder}/") for p in places) if folder else skeleton in places, kind


def test_pack_check_accepts_every_example(pack: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from munda_tui.cli import main

    assert main(["pack", "check", str(pack)]) == 0
    assert "every pack checks" in capsys.readouterr().out
    for path in sorted(pack.rglob("*.toml")):
        assert main(["pack", "check", str(path)]) == 0, path


def test_the_rules_use_every_example(pack: Path, config_dir: Path) -> None:
    from munda_tui.rules.battle import conditions
    from munda_tui.rules.battle.watch import watcher_table
    from munda_tui.rules.campaign.career import xp_events
    from munda_tui.rules.campaign.yaktribe import fighter_type_from_label
    from munda_tui.rules.core.model import FighterType, GangType
    from munda_tui.rules.core.rulesets import ruleset_choices
    from munda_tui.rules.postbattle import sequence as pb
    from munda_tui.rules.postbattle.core import injury_tables
    from munda_tui.rules.prebattle import scenario as sc
    from munda_tui.rules.subplots import decks as sp
    from munda_tui.saves.catalogue import load_packs as load_catalogues
    from munda_tui.saves.packs import load_packs

    packs = load_packs(config_dir)
    assert packs.problems == []
    data = packs.data
    assert sc.packaged_tables(data)["our_house"].title == "Our house table"
    assert conditions.find("Our condition", data).key == "W"
    assert sp.house_deck(GangType.COGS, data) == "our-deck"
    assert sp.card("our-deck:Q", data).name == "Our plot Q"
    assert watcher_table(data)["our-deck:A"]["kind"] == "flawless_victory"
    assert ("Our club's sequence (our pack)", "our-sequence") in ruleset_choices(data)
    assert pb.new_draft("our-sequence", data=data)["ruleset"] == "our-sequence"
    # the sequence of generic steps, walked with the app's dice to its end
    import random

    from postbattle_support import demo_outcome, drive, make_seq

    seq = make_seq("gang-war")
    seq = pb.PostBattle(seq.base, 1, pb.new_draft("our-aftermath", data=data), demo_outcome(),
                        data=data)
    drive(seq, random.Random(2))
    assert seq.at_end and [s["id"] for s in seq.steps] == [
        "patch-up", "pay", "rest", "salvage", "spend", "keepsake"]
    changes = [change_to_data(ch) for ch in seq.changes()]
    assert any(ch["kind"] == "credits" for ch in changes)
    # the custom counter (a die of it per gang), the choice and the item, as written
    assert [ch["step"] for ch in changes if ch["kind"] == "counter"][:2] == ["salvage"] * 2
    assert all(ch["counter"] == "our_scrap" and ch["name"] == "Our scrap"
               for ch in changes if ch["kind"] == "counter")
    assert [ch["item"]["name"] for ch in changes if ch["kind"] == "add_item"
            and ch["step"] == "keepsake"] == ["Our keepsake"] * 2  # (each gang's Leader)
    from munda_tui.rules.campaign.counters import counters, gang_text

    assert [c.name for c in counters(data)] == ["Our scrap"]
    for g in seq.work.gangs:
        if g.id in seq.outcome.gangs:
            assert 1 <= g.counters["our_scrap"] <= 3 and gang_text(g, data).startswith("Our scrap ")
    assert "our_event" in [e["id"] for e in xp_events(data)]
    assert injury_tables(data)["our-injuries"]["title"] == "Our injury table"
    assert fighter_type_from_label("Our Boss", gang="Our gang", data=data) is FighterType.LEADER
    assert fighter_type_from_label("Our Specialist", data=data) is FighterType.SPECIALIST
    catalogues, problems = load_catalogues(config_dir)
    assert problems == [] and [c.name for _p, c in catalogues] == ["Our club's list"]


async def test_the_app_offers_the_examples(pack: Path, data_dir: Path, make_app) -> None:  # type: ignore[no-untyped-def]
    from textual.widgets import Select

    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.saves import Store
    from support import wait_for_screen

    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await pilot.pause()
        select = app.screen.query_one("#ruleset", Select)
        assert "our-sequence" in [value for _label, value in select._options]
    with Store(data_dir).create_campaign(demo_campaign()):
        pass
    app = make_app(campaign="demo")
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("s")
        await wait_for_screen(pilot, "SettingsScreen")
        packs_line = str(app.screen.query_one("#settings-packs").render())
        assert "Our club's house rules 1 (yours, our-club)" in packs_line
        assert "1 scenario table" in packs_line and "1 Sub-plot deck" in packs_line
        injury = app.screen.query_one("#s-lasting_injury_table", Select)
        assert "our-injuries" in [value for _label, value in injury._options]
