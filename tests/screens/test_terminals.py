"""Odd terminals (issue 13): every screen renders under NO_COLOR=1, at 80x24 and with the
ANSI theme (textual-ansi, now ansi-dark/ansi-light); the tracker and the post-battle wizard are read back as text there;
help lines wrap instead of being cut."""

from __future__ import annotations

import asyncio
import html
import re
from pathlib import Path
from typing import Any

import pytest

from harden_support import make_campaign

SIZE = (80, 24)


def screen_text(app: Any) -> str:
    """The screen as text, one line a row (read from Textual's own screenshot)."""
    svg = app.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = {}
    for m in re.finditer(r'<text[^>]*\sx="([\d.]+)"[^>]*\sy="([\d.]+)"[^>]*>([^<]*)</text>', svg):
        rows.setdefault(float(m.group(2)), []).append((float(m.group(1)), html.unescape(m.group(3))))
    return "\n".join("".join(t for _x, t in sorted(parts)) for _y, parts in sorted(rows.items())).replace("\xa0", " ")


async def _settle(pilot: Any, n: int = 3) -> None:
    for _ in range(n):
        await pilot.pause()


def _app(make_app: Any, monkeypatch: pytest.MonkeyPatch, theme: str, **kw: Any) -> Any:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(**kw)
    app.theme = theme
    return app


def test_a_config_naming_textual_ansi_gets_the_ansi_theme(config_dir, make_app) -> None:
    # "textual-ansi" is what Textual called its ANSI theme before "ansi-dark"
    (config_dir / "config.toml").write_text('schema_version = 1\ntheme = "textual-ansi"\n')
    assert make_app().theme == "ansi-dark"


@pytest.mark.parametrize("theme", ["textual-dark"])  # the battle stages below use ansi-dark
def test_every_campaign_screen_renders_in_monochrome_at_80x24(data_dir, make_app, monkeypatch, theme) -> None:
    make_campaign(data_dir, "battle")
    app = _app(make_app, monkeypatch, theme, campaign="demo")
    seen: list[str] = []

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await _settle(pilot)
            assert app.no_color
            for key in ("r", "c", "s", "i", "question_mark"):
                await pilot.press(key)
                await _settle(pilot)
                seen.append(type(app.screen).__name__)
                assert screen_text(app).strip()
                await pilot.press("escape")
                await _settle(pilot)
                assert type(app.screen).__name__ == "CampaignScreen", key
            app.open_battle(1)
            await _settle(pilot, 4)
            seen.append(type(app.screen).__name__)
            await pilot.press("question_mark")
            await _settle(pilot)
            seen.append(type(app.screen).__name__)
            await pilot.press("escape")
            await pilot.press("L")  # the whole log
            await _settle(pilot)
            seen.append(type(app.screen).__name__)
            await pilot.press("escape")
            await pilot.press("h")  # the privacy curtain before a hand
            await _settle(pilot)
            seen.append(type(app.screen).__name__)

    asyncio.run(go())
    assert "BattleScreen" in seen and "HelpScreen" in seen and len(set(seen)) >= 5, seen


@pytest.mark.parametrize("theme", ["ansi-light"])
def test_home_and_new_campaign_render_in_monochrome(make_app, monkeypatch, theme) -> None:
    app = _app(make_app, monkeypatch, theme)

    async def go() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await _settle(pilot)
            assert "Campaigns" in screen_text(app) or screen_text(app).strip()
            await pilot.press("n")
            await _settle(pilot)
            assert type(app.screen).__name__ == "NewCampaignScreen"
            assert screen_text(app).strip()

    asyncio.run(go())


@pytest.mark.parametrize("status", ["setup", "post-battle", "done"])
def test_each_battle_stage_renders_in_monochrome_ansi_at_80x24(data_dir, make_app, monkeypatch, status) -> None:
    make_campaign(data_dir, status)
    app = _app(make_app, monkeypatch, "ansi-dark", campaign="demo")

    async def go() -> str:
        async with app.run_test(size=SIZE) as pilot:
            await _settle(pilot)
            app.open_battle(1)
            await _settle(pilot, 5)
            assert type(app.screen).__name__ in ("PreBattleScreen", "PostBattleScreen")
            text = screen_text(app)
            await pilot.press("question_mark")
            await _settle(pilot)
            assert type(app.screen).__name__ == "HelpScreen"
            return text

    text = asyncio.run(go())
    assert text.strip()


def test_the_tracker_as_text_in_monochrome_at_80x24(data_dir, make_app, monkeypatch) -> None:
    make_campaign(data_dir, "battle")
    app = _app(make_app, monkeypatch, "ansi-dark", campaign="demo")

    async def go() -> str:
        async with app.run_test(size=SIZE) as pilot:
            await _settle(pilot)
            app.open_battle(1)
            await _settle(pilot, 4)
            await pilot.press("down", "p")  # a fighter Pinned: the table redraws rows
            await _settle(pilot)
            return screen_text(app)

    text = asyncio.run(go())
    assert max(len(line) for line in text.split("\n")) <= SIZE[0]
    assert "Fighter" in text and "State" in text  # both crews' tables
    assert "Venom" in text or "Sisters" in text
    assert "Pinned" in text or "Pin" in text


def test_the_post_battle_wizard_as_text_in_monochrome_at_80x24(data_dir, make_app, monkeypatch) -> None:
    make_campaign(data_dir, "post-battle")
    app = _app(make_app, monkeypatch, "ansi-dark", campaign="demo")

    async def go() -> str:
        async with app.run_test(size=SIZE) as pilot:
            await _settle(pilot)
            app.open_battle(1)
            await _settle(pilot, 5)
            assert type(app.screen).__name__ == "PostBattleScreen"
            return screen_text(app)

    text = asyncio.run(go())
    assert max(len(line) for line in text.split("\n")) <= SIZE[0]
    assert "Post-Battle Sequence" in text
    assert "Gang War" in text or "Battle" in text


def test_help_lines_wrap_instead_of_being_cut_at_80x24(data_dir, make_app, monkeypatch) -> None:
    make_campaign(data_dir, "battle")
    app = _app(make_app, monkeypatch, "ansi-dark", campaign="demo")

    async def go() -> tuple[list[tuple[str, str]], list[str]]:
        async with app.run_test(size=SIZE) as pilot:
            await _settle(pilot)
            app.open_battle(1)
            await _settle(pilot, 4)
            await pilot.press("question_mark")
            await _settle(pilot)
            help_screen = app.screen
            from textual.widgets import DataTable

            table = help_screen.query_one(DataTable)
            cells = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
            width = list(table.columns.values())[1].width
            assert all(len(line) <= width for cell in cells for line in cell.split("\n"))
            return help_screen.keys, cells

    keys, cells = asyncio.run(go())
    shown = [" ".join(c.split()) for c in cells]
    for (_key, description), cell in zip(keys, shown):
        assert cell == " ".join(description.split())  # every word is there, none cut
    assert any("\n" in c for c in cells)  # at 80 columns some do wrap
