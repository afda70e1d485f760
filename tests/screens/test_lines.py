"""widgets/lines.py: rows of text where a change repaints only the rows it changed."""

from __future__ import annotations

from textual.app import App, ComposeResult

from munda_tui.widgets.lines import Lines

from support import screen_text


class LinesApp(App[None]):
    CSS = "Lines { width: 12; height: 5; }"

    def compose(self) -> ComposeResult:
        yield Lines(["✓ Outcome", "▶ Lasting Injuries", "· Wrap Up"], id="rows")


async def test_rows_are_cut_with_an_ellipsis_and_only_changed_rows_repaint() -> None:
    app = LinesApp()
    async with app.run_test(size=(20, 5)) as pilot:
        await pilot.pause()
        rows = app.query_one(Lines)
        text = screen_text(app).splitlines()
        assert text[0].startswith("✓ Outcome")
        assert text[1].startswith("▶ Lasting I…")  # twelve cells, the last an ellipsis
        assert text[2].startswith("· Wrap Up")
        rows.set_lines(["✓ Outcome", "✓ Lasting Injuries", "· Wrap Up"])
        assert rows._styles_cache._dirty_lines == {1}  # the one row that changed
        assert not rows._layout_required
        await pilot.pause()
        assert screen_text(app).splitlines()[1].startswith("✓ Lasting I…")
        rows.set_lines(["✓ Outcome", "✓ Lasting Injuries", "✓ Wrap Up", "▶ Report"])
        assert rows._layout_required  # one row more: laid out again
        await pilot.pause()
        assert [line[:12].rstrip() for line in screen_text(app).splitlines()[:4]] == [
            "✓ Outcome", "✓ Lasting I…", "✓ Wrap Up", "▶ Report"]
        assert rows.lines == ["✓ Outcome", "✓ Lasting Injuries", "✓ Wrap Up", "▶ Report"]
