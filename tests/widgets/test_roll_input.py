"""The inline roll (widgets/roll_input.py) in a narrow pane: its instruction wraps, never
cut (at 80 columns the post-battle pane cut '(tens, units), then Enter' off)."""

from __future__ import annotations

from textual.app import App, ComposeResult

from munda_tui.widgets.roll_input import RollInput


class _Narrow(App[None]):
    def compose(self) -> ComposeResult:
        yield RollInput("D66", id="roll")


async def test_the_instruction_wraps_in_a_narrow_pane() -> None:
    app = _Narrow()
    async with app.run_test(size=(44, 8)) as pilot:
        await pilot.pause()
        roll = app.query_one(RollInput)
        shown = " ".join(roll.render_line(y).text.strip() for y in range(roll.size.height))
        assert roll.size.height >= 2
        assert "(tens, units), then Enter" in shown
