"""80x24 plays a whole battle (issue 32, item 5): from the campaign screen to the report,
at 80 columns and 24 rows, a player pressing only the keys the footer shows, or those its
one-key overflow (`.` More) lists: every key a stage needs is reachable, and what does
not fit scrolls."""

from __future__ import annotations

import re
from typing import Any

from support import screen_text, settle, wait_for_screen, wait_until

SIZE = (80, 24)


def _footer(app: Any) -> list[Any]:
    """The footer's keys the player sees whole (those the palette's key or the edge cut
    are not)."""
    from textual.widgets._footer import FooterKey

    keys = [k for k in app.screen.query(FooterKey) if k.display and k.region.width]
    edge = min([k.region.x for k in keys if k.has_class("-command-palette")], default=app.size.width)
    return [k for k in keys if k.region.right <= edge and not k.has_class("-command-palette")]


async def act(pilot: Any, key: str, ways: list[str] | None = None) -> None:
    """Press ``key`` as a player reading the footer only: the key when the footer shows
    it, else its line in `.` More's list (picked with the arrows and Enter); an
    AssertionError naming the screen when neither shows it. ``ways`` collects which."""
    from textual.binding import Binding

    app = pilot.app
    await pilot.pause()
    # a screen just pushed (a curtain) lays its footer's keys out a frame later: a player
    # reads the footer once it shows them
    await wait_until(pilot, lambda: _footer(app), f"{type(app.screen).__name__}'s footer keys")
    screen = type(app.screen).__name__
    footer = _footer(app)
    if any(k.key == key for k in footer):
        await pilot.press(key)
        if ways is not None:
            ways.append(f"{screen} {key}")
        return
    shown = [f"{k.key_display} {k.description}" for k in footer]
    assert any(k.key == "full_stop" for k in footer), f"{screen}: no {key!r} in the footer, no More: {shown}"
    await pilot.press("full_stop")
    await wait_for_screen(pilot, "PickOneScreen")
    lines = [re.sub(r"^\d+  ", "", str(o.prompt)) for o in app.screen.query_one("#dialog-options").options]
    display = app.get_key_display(Binding(key, ""))
    index = next((i for i, line in enumerate(lines) if line.startswith(f"{display}  ")), None)
    assert index is not None, f"{screen}: {key!r} neither in the footer ({shown}) nor in More ({lines})"
    for _ in range(index):
        await pilot.press("down")
    await pilot.press("enter")
    await pilot.pause()
    if ways is not None:
        ways.append(f"{screen} . More {key}")


async def test_a_whole_battle_at_80x24_by_the_keys_the_footer_shows(make_app: Any) -> None:
    """New battle, the pre-battle steps (scenario rolled, the Sub-plot draw for both
    players behind the curtain, both crews chosen and dealt), the tracker (a phase, two
    events, the end), the whole post-battle sequence (its long texts and tables
    scrolled) and its report, at 80x24. The post-battle's list of several (Consumables)
    had no Enter in its footer and no More: the player was stuck there by the footer."""
    app = make_app(seed=11, demo=True)
    ways: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await act(pilot, "n", ways)  # new battle
        await wait_for_screen(pilot, "PreBattleScreen")
        await act(pilot, "n", ways)  # the gangs: next
        await act(pilot, "n", ways)  # the battlefield: next
        await act(pilot, "a", ways)  # the scenario: every line rolled by the app
        await act(pilot, "n", ways)
        await act(pilot, "n", ways)  # no Pitch Black
        await pilot.press("down", "enter")  # both players agree: draw Sub-plots
        await wait_for_screen(pilot, "SubplotDrawScreen")
        await act(pilot, "enter", ways)  # start the draw
        for player in ("Ana", "Ben"):
            await wait_for_screen(pilot, "PrivacyCurtain")
            assert f"Only {player}" in screen_text(app)
            await act(pilot, "enter", ways)
            await wait_for_screen(pilot, "SubplotDrawScreen")
            for key in ("d", "h", "enter"):  # draw, hide, pass the laptop on
                await act(pilot, key, ways)
        assert "The draw is done" in screen_text(app)
        await act(pilot, "enter", ways)
        await wait_for_screen(pilot, "PreBattleScreen")
        await act(pilot, "n", ways)  # the crews
        for chosen in (4, 3):  # Hybrid (4+4): four chosen, four dealt; then Custom (3)
            for _ in range(chosen):
                await act(pilot, "space", ways)
                await pilot.press("down")
            await act(pilot, "d", ways)
            await act(pilot, "n", ways)
        await act(pilot, "n", ways)  # the Side Jobs
        summary = app.screen.query_one("#summary-scroll") if app.screen.query("#summary-scroll") else None
        await act(pilot, "s", ways)  # start the battle
        for player in ("Ana", "Ben"):  # each player's Sub-plots walked before round 1
            await wait_for_screen(pilot, "PrivacyCurtain")
            await act(pilot, "enter", ways)
            await wait_for_screen(pilot, "NothingAtTheStart")
            await act(pilot, "enter", ways)
        await wait_for_screen(pilot, "BattleScreen")
        await act(pilot, "n", ways)  # the Action phase
        await pilot.press("right", "down")
        await act(pilot, "s", ways)  # Gorth Slagborn Seriously Injured
        await wait_for_screen(pilot, "AttackScreen")
        await pilot.press("enter")  # (by whom: not recorded)
        await wait_for_screen(pilot, "BattleScreen")
        await pilot.press("down")
        await act(pilot, "o", ways)  # Mord Hammerhand Out of Action
        await wait_for_screen(pilot, "AttackScreen")
        await pilot.press("enter")
        await wait_for_screen(pilot, "BattleScreen")
        text = screen_text(app)
        assert "Gorth Slagborn: Seriously Injured" in text and "Mord Hammerhand: Out of Action" in text
        await act(pilot, "E", ways)  # the end: who won
        await wait_for_screen(pilot, "EndScreen")
        await pilot.press("enter")
        await wait_for_screen(pilot, "BattleScreen")
        await act(pilot, "F", ways)  # finish
        while type(app.screen).__name__ == "PrivacyCurtain":  # each a last look: skipped
            await act(pilot, "escape", ways)
        await wait_for_screen(pilot, "ConfirmScreen")
        await act(pilot, "y", ways)
        await wait_for_screen(pilot, "PostBattleScreen")
        scrolled = False
        for _ in range(120):
            # read the step once it is laid out: a table's scroll range comes a layout pass
            # after its text (on a loaded machine the check read 0 and the step went by)
            await settle(pilot)
            text = screen_text(app)
            if "Step 26/26" in text:
                break
            lines = app.screen.query_one("#pb-lines")
            if not scrolled and lines.max_scroll_y > 0:  # a table or text taller than the room
                await act(pilot, "pagedown", ways)
                await wait_until(pilot, lambda: lines.scroll_y > 0, "the table scrolled")
                await act(pilot, "pageup", ways)
                scrolled = True
            if "for me — or type real dice" in text or "(r: roll for me)" in text:
                await act(pilot, "r", ways)
            else:
                await act(pilot, "enter", ways)
        assert "Step 26/26" in screen_text(app) and scrolled
        await act(pilot, "enter", ways)  # applied to both gangs once: the report
        await wait_until(pilot, lambda: "Both rosters are updated" in screen_text(app), "the report")
        report = app.screen.query_one("#pb-lines")
        assert report.max_scroll_y > 0  # the report is longer than 24 rows: it scrolls
        await pilot.press("full_stop")  # More lists the keys its footer never shows: said so
        await wait_for_screen(pilot, "PickOneScreen")
        assert "More keys (not in the footer)" in screen_text(app)
        await pilot.press("escape")
        await wait_for_screen(pilot, "PostBattleScreen")
        await act(pilot, "pagedown", ways)
        await wait_until(pilot, lambda: report.scroll_y > 0, "the report scrolled")
        await act(pilot, "enter", ways)
        await wait_for_screen(pilot, "CampaignScreen")
        assert [b.status for b in app.handle.campaign.battles] == ["done"]
    assert summary is None or summary  # (the summary's own scroll: see the pre-battle's tests)
    assert any(". More" in way for way in ways)  # (keys the footer had no room for: reached)
