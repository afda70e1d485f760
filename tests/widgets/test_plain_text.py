"""Names are shown as typed, never read as markup.

Textual reads a str in a Label, a Static, an option, a selection, a DataTable cell or a
notification as markup: a gang named "The [/] Sisters" (a closing tag with nothing to
close) ended the app on the campaign screen. Every screen now takes those widgets from
``munda_tui.widgets.plain`` and the app's notifications are plain text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import postbattle_support as S
from support import screen_text, wait_for_screen

PACKAGE = Path(__file__).resolve().parents[2] / "munda_tui"
PLAIN = {"Label", "Static", "Button", "OptionList", "SelectionList", "DataTable"}

#: what players type, and what files hold: an unclosed closing tag, a style, an action
#: link, an emoji code, a lone bracket, a backslash
HOSTILE = {
    "campaign": "Sump [/] League",
    "gang0": "The [/] Sisters [bold]",
    "gang1": "Iron [@click=app.quit]Fist[/]",
    "fighter": "Vexa [/b] :skull: \\",
    "item": "Needle [red]pistol",
    "territory": "Old [/] Ruins",
}


def test_no_screen_takes_these_widgets_from_textual() -> None:
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path.relative_to(PACKAGE).as_posix().startswith("widgets/plain/"):
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip().startswith("from textual.widgets import"):
                names = {n.strip().split(" as ")[0] for n in line.split("import", 1)[1].split(",")}
                if names & PLAIN:
                    offenders.append(f"{path.relative_to(PACKAGE)}: {line.strip()}")
    assert offenders == []


def _hostile_campaign(data_dir: Path) -> str:
    from munda_tui.saves import Store

    slug = S.seed_battle(data_dir, tracker=True)
    with Store(data_dir).open_campaign(slug) as h:
        c = h.campaign
        c.name = HOSTILE["campaign"]
        c.gangs[0].name, c.gangs[1].name = HOSTILE["gang0"], HOSTILE["gang1"]
        c.gangs[0].fighters[0].name = HOSTILE["fighter"]
        c.gangs[0].fighters[0].equipment[0].name = HOSTILE["item"]
        c.gangs[0].territories[0].name = HOSTILE["territory"]
        c.gangs[0].fighters[0].skills = ["[/]"]
        h.save()
    return slug


async def _steady(pilot: Any, app: Any) -> None:
    for _ in range(4):
        await pilot.pause()
    assert app.crash_file is None and app.is_running, type(app.screen).__name__


async def test_hostile_names_on_every_campaign_screen(make_app: Any, data_dir: Path) -> None:
    slug = _hostile_campaign(data_dir)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_screen(pilot, "HomeScreen")
        await _steady(pilot, app)
        assert HOSTILE["campaign"] in screen_text(app)
        app.open_campaign(slug)
        await wait_for_screen(pilot, "CampaignScreen")
        await _steady(pilot, app)
        text = screen_text(app)
        assert HOSTILE["gang0"] in text and "Iron [@click=app.quit]Fis" in text
        assert app.screen.query_one("#gangs").get_row_at(0)[0] == HOSTILE["gang0"]
        app.notify(f"Saved {HOSTILE['gang0']}")  # a notification quoting a name
        await _steady(pilot, app)
        await pilot.press("r")  # the roster: fighters, equipment, detail
        await wait_for_screen(pilot, "RosterScreen")
        await _steady(pilot, app)
        text = screen_text(app)
        assert "Vexa [/b] :skull: \\" in text and "Needle [red]pistol" in text
        await pilot.press("t")  # Territories
        await _steady(pilot, app)
        assert HOSTILE["territory"] in screen_text(app)
        await pilot.press("escape")
        await _steady(pilot, app)
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        for key in ("c", "escape", "s", "escape", "question_mark", "escape", "k", "escape"):
            await pilot.press(key)  # charts, settings, keys, catalogue
            await _steady(pilot, app)
        await pilot.press("n")  # a new battle's set-up: the gangs to choose from
        await wait_for_screen(pilot, "PreBattleScreen")
        await _steady(pilot, app)
        assert HOSTILE["gang0"] in screen_text(app)
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        app.open_battle(1)  # the post-battle sequence of the battle waiting for it
        await wait_for_screen(pilot, "PostBattleScreen")
        for key in ("enter", "enter", "enter", "r", "enter", "r", "enter", "enter"):
            await pilot.press(key)
            await _steady(pilot, app)


async def test_hostile_names_in_the_tracker(make_app: Any, data_dir: Path) -> None:
    """The crews, the attack dialog's fighters and the event log name them as typed."""
    from munda_tui.rules.battle.events import default_setup
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.rules.core.model import BattleSummary
    from munda_tui.saves import Store

    c = demo_campaign()
    c.gangs[0].name, c.gangs[1].name = HOSTILE["gang0"], HOSTILE["gang1"]
    c.gangs[0].fighters[0].name = HOSTILE["fighter"]
    c.gangs[1].fighters[0].name = "Brakk [/]"
    c.gangs[0].player = "Ana [/]"  # the curtain: "Pass the laptop to ...", "... is ready"
    v, g = c.gangs[0].id, c.gangs[1].id
    c.battles.append(BattleSummary(1, date="2026-01-15", gangs=[v, g], status="battle"))
    setup = default_setup(c, 1, v, g)
    setup.sides[0].hand = ["escher:2"]
    setup.subplots = True
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, {"setup": setup.to_data(), "battle": {"start_walked": True}})
    app = make_app(campaign="demo")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        app.open_battle(1)
        await wait_for_screen(pilot, "BattleScreen")
        await _steady(pilot, app)
        text = screen_text(app)
        assert "Vexa [/b] :sk" in text and "Brakk [/]" in text, text
        for key in ("n", "right", "s", "down", "f", "1", "enter", "left", "x", "o", "enter", "u"):
            await pilot.press(key)  # Seriously Injured by a fighter named "[/b]", logged
            await _steady(pilot, app)
        assert type(app.screen).__name__ == "BattleScreen"
        assert "Brakk [/]" in screen_text(app)
        await pilot.press("h")  # the curtain before Ana's hand
        await _steady(pilot, app)
        assert "Only Ana [/] should look" in screen_text(app)
        await pilot.press("enter")
        await _steady(pilot, app)
