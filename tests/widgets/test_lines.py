"""widgets/lines.py: rows of text where a change repaints only the rows it changed."""

from __future__ import annotations

from textual.app import App, ComposeResult

from munda_tui.widgets.lines import Lines, WrappedText

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


class WrappedApp(App[None]):
    CSS = "VerticalScroll { height: 3; width: 14; } WrappedText { width: 1fr; }"

    def compose(self) -> ComposeResult:
        from textual.containers import VerticalScroll

        with VerticalScroll():
            yield WrappedText("one two three four five six seven eight nine ten", id="text")


async def test_a_wrapped_text_draws_the_rows_in_view_and_repaints_what_changed(monkeypatch) -> None:
    from textual.content import Content

    app = WrappedApp()
    async with app.run_test(size=(20, 5)) as pilot:
        await pilot.pause()
        text = app.query_one(WrappedText)
        rows = [c.plain for c in Content(text.text).wrap(12)]  # as a Static wraps it
        assert text.rows(12) == rows and len(rows) > 3
        assert [line[:12].rstrip() for line in screen_text(app).splitlines()[:3]] == rows[:3]
        drawn: list[int] = []
        real = WrappedText.render_line
        monkeypatch.setattr(WrappedText, "render_line",
                            lambda self, y: drawn.append(y) or real(self, y))
        new = text.text.replace("two", "TWO")  # the first row alone changes
        text.update(new)
        assert text._styles_cache._dirty_lines == {0} and not text._layout_required
        await pilot.pause()
        assert set(drawn) <= {0, 1, 2}  # never a row out of view
        assert screen_text(app).splitlines()[0].startswith("one TWO")
        text.update(new + " eleven twelve thirteen")  # more rows: laid out again
        assert text._layout_required
        await pilot.pause()
        assert text.size.height == len(text.rows(12)) > len(rows)
