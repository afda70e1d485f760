"""The battle tracker's compact log: the last events, newest at the bottom.

Only the lines that fit are described on each update, so a long log costs
nothing. Revealed Sub-plots are named; hidden hands never appear here.
"""

from __future__ import annotations

from munda_tui.widgets.plain import Static

from munda_tui.rules.battle.events import Battle, describe


class EventLog(Static):
    DEFAULT_CSS = """
    EventLog { height: 4; padding: 0 1; }
    """

    def __init__(self, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__("", markup=False, **kwargs)
        self._shown: tuple[int, int, int] | None = None
        self._last: tuple[Battle, dict[str, str], int | None] | None = None

    def on_resize(self) -> None:
        if self._last is not None:
            self._shown = None
            self.show(*self._last)

    def show(self, battle: Battle, card_names: dict[str, str], lines: int | None = None) -> None:
        self._last = (battle, card_names, lines)
        n = lines or max(1, self.content_size.height or 2)
        key = (battle.revision, len(battle.log), n)
        if key == self._shown:
            return
        self._shown = key
        start = max(0, len(battle.log) - n)
        text = "\n".join(
            f"{i + 1:>3} {describe(ev, battle.state, card_names)}"
            for i, ev in enumerate(battle.log[start:], start=start)
        )
        self.update(text, layout=False)
