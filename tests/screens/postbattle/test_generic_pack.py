"""A post-battle sequence the package does not ship, written as data (issue 35.3): a
pack's ruleset built only from the generic resolvers (roll a table for each fighter
matching a filter, gain credits / XP, set a status), walked through the wizard by
keyboard, committed once, in the report.

The pack is TEST DATA: made-up club content, never rules text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from munda_tui.rules.core.outcome import BattleOutcome, EndState, FighterOutcome
from munda_tui.saves.packs import load_packs
import postbattle_support as S
from postbattle_support import ESCHER, GOLIATH
from support import wait_for_screen

RULESET = '''\
id = "test-generic"
title = "Test generic sequence"
choice = "Test generic sequence (test data)"
order = 90
source = "test data"

[[steps]]
id = "hurt"
title = "Test hurts"
resolver = "roll_table"
table = "test-hurt"
text = "Test text: each fighter Seriously Injured rolls on the test table."
[steps.filter]
end_state = ["seriously_injured"]

[[steps]]
id = "pay"
title = "Test pay"
resolver = "gain"
what = "credits"
amount = 10
text = "Test text: each gang gains 10 credits."

[[steps]]
id = "xp"
title = "Test XP"
resolver = "gain"
what = "xp"
dice = "D3"
each = "fighter"
text = "Test text: each fighter standing at the end gains D3 XP."
[steps.filter]
end_state = ["standing"]

[[steps]]
id = "rest"
title = "Test rest"
resolver = "set_status"
status = "recovery"
text = "Test text: each fighter Seriously Injured goes into Recovery."
[steps.filter]
end_state = ["seriously_injured"]

[[steps]]
id = "scrap"
title = "Test scrap"
resolver = "gain"
what = "test_scrap"
amount = 2
per = "territories"
text = "Test text: each gang gains 2 test scrap for each of its Territories."

[[steps]]
id = "spend"
title = "Test spend"
resolver = "choose"
pick = 2
text = "Test text: each gang picks up to two, each once."
options = [
    { name = "Test coins", text = "Test: 5 credits", effects = [{ gain = "credits", amount = 5 }] },
    { name = "Test trinket", effects = [{ add_item = "Test trinket", cost = 5 }] },
    { name = "Test melt", effects = [{ gain = "test_scrap", amount = -1 }] },
]

[[steps]]
id = "toll"
title = "Test toll"
resolver = "item"
remove = "Frag grenades"
text = "Test text: each gang gives up one Frag grenade."

[tables.test-hurt]
title = "Test hurt table"
dice = "D6"
source = "test data"

[[tables.test-hurt.rows]]
min = 1
max = 3
text = "Test: the gang loses 5 credits"
effects = [{ gain = "credits", amount = -5 }]

[[tables.test-hurt.rows]]
min = 4
max = 6
text = "Test: 1 XP"
effects = [{ gain = "xp", amount = 1 }]
'''


def outcome() -> BattleOutcome:
    F = FighterOutcome
    return BattleOutcome(
        battle=1, gangs=[ESCHER, GOLIATH], winner=ESCHER, scenario="Stand-off",
        battlefield="Underhive", fighters=[
            F(ESCHER, "vexa-nightshade"), F(ESCHER, "lys-venom", EndState.SERIOUSLY_INJURED),
            F(GOLIATH, "brakk-ironjaw"), F(GOLIATH, "gorth-slagborn")],
        takes_prisoners={ESCHER: True, GOLIATH: True})


def write_pack(config_dir: Path) -> None:
    folder = config_dir / "packs" / "test-club"
    (folder / "postbattle").mkdir(parents=True)
    (folder / "pack.toml").write_text('id = "test-club"\ntitle = "Test club (test data)"\n'
                                      'version = "1"\n', encoding="utf-8")
    (folder / "postbattle" / "test-generic.toml").write_text(RULESET, encoding="utf-8")
    (folder / "counters.toml").write_text(COUNTERS, encoding="utf-8")


COUNTERS = '''[[counters]]
id = "test_scrap"
name = "Test scrap"
text = "Test data: a club's own resource."
min = 0
'''


def test_the_generic_ruleset_checks_and_a_bad_filter_is_said(config_dir: Path) -> None:
    write_pack(config_dir)
    assert load_packs(config_dir).problems == []
    path = config_dir / "packs" / "test-club" / "postbattle" / "test-generic.toml"
    path.write_text(RULESET.replace('end_state = ["standing"]', 'end_state = ["upright"]'),
                    encoding="utf-8")
    problems = load_packs(config_dir).problems
    assert len(problems) == 1 and problems[0].startswith(f"{path}:")
    assert "steps[2].filter.end_state: must be a list of: standing" in problems[0]
    path.write_text(RULESET.replace("amount = -5", 'amount = "five"'), encoding="utf-8")
    assert "effects[0].amount: must be a whole number" in load_packs(config_dir).problems[0]


async def test_a_sequence_of_generic_steps_is_walked_by_keyboard(
        make_app: Any, data_dir: Path, config_dir: Path) -> None:
    write_pack(config_dir)
    slug = S.seed_battle(data_dir, ruleset="test-generic", outcome=outcome())
    app = make_app(seed=5, campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        c = app.handle.campaign
        credits = {g: c.gang(g).credits for g in (ESCHER, GOLIATH)}
        xp = {f: c.gang(ESCHER).fighter(f).xp for f in ("vexa-nightshade", "lys-venom")}
        app.open_battle(1)
        await wait_for_screen(pilot, "PostBattleScreen")
        await pilot.pause()
        screen = app.screen
        assert [s["id"] for s in screen.seq.steps] == [
            "hurt", "pay", "xp", "rest", "scrap", "spend", "toll"]
        keys = picks = 0
        while screen.seq is not None and keys < 60:
            pending = screen.seq.pending
            if pending is not None and pending.kind == "multi":  # (the choice: two, by keys)
                await pilot.press("space", "down", "space", "enter")
                picks += 1
            else:
                await pilot.press("r" if pending is not None and pending.kind == "roll"
                                  else "enter")
            await pilot.pause()
            keys += 1
        assert screen.seq is None, "the sequence was not committed"
        assert picks == 2  # (one choice a gang)
        c = app.handle.campaign
        lys = c.gang(ESCHER).fighter("lys-venom")
        assert lys.status.value == "recovery"  # the set_status step
        hurt_row_xp = lys.xp - xp["lys-venom"]  # 1 on a 4-6, else the gang lost 5
        assert hurt_row_xp in (0, 1)
        assert c.gang(ESCHER).credits == credits[ESCHER] + 10 - (0 if hurt_row_xp else 5) + 5
        assert c.gang(GOLIATH).credits == credits[GOLIATH] + 10 + 5
        # the custom counter: 2 a Territory (two each), the choice's trinket, the toll
        assert c.gang(ESCHER).counters == {"test_scrap": 4}
        assert c.gang(GOLIATH).counters == {"test_scrap": 4}
        assert [e.name for e in c.gang(ESCHER).stash].count("Test trinket") == 1
        assert "Frag grenades" not in [e.name for e in c.gang(GOLIATH).stash]
        gang_file = (data_dir / "campaigns" / slug / "gangs" / "iron-skulls.toml").read_text(
            encoding="utf-8")
        assert "counters = {test_scrap = 4}" in gang_file  # (readable TOML)
        # shown on the standings (a column of its own) and the roster
        from munda_tui.widgets.plain import DataTable

        for _ in range(3):  # (the report, then the campaign)
            if type(app.screen).__name__ == "CampaignScreen":
                break
            await pilot.press("escape")
            await pilot.pause()
        await wait_for_screen(pilot, "CampaignScreen")
        gangs = app.screen.query_one("#gangs", DataTable)
        assert "counter:test_scrap" in [str(k.value) for k in gangs.columns]
        assert str(gangs.columns["counter:test_scrap"].label).strip() == "Test scrap"  # type: ignore[index]
        assert gangs.get_cell(GOLIATH, "counter:test_scrap") == "4"
        gangs.move_cursor(row=gangs.get_row_index(GOLIATH))
        await pilot.press("r")
        await wait_for_screen(pilot, "RosterScreen")
        summary = str(app.screen.query_one("#gang-summary").render())
        assert "Wealth" in summary and "Test scrap 4 · " in summary
        assert 1 <= c.gang(ESCHER).fighter("vexa-nightshade").xp - xp["vexa-nightshade"] <= 3
        report = app.handle.load_battle(1)["report"]
        from munda_tui.rules.postbattle.sequence import commit_report

        text = commit_report(report)
        assert "Test generic sequence" in text and "+10 credits" in text
        assert "Test scrap +4" in text and "Test trinket" in text
