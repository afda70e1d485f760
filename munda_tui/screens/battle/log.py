"""The whole battle log and a summary of both sides (Side Jobs, Gang Tactics,
revealed Sub-plots and banked rewards). Hidden hands never appear here."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from munda_tui.widgets.plain import Label, Static

from munda_tui.rules.battle.events import Battle, describe, reward_text
from munda_tui.screens.common.dialogs import DIALOG_CSS, DialogScreen
from munda_tui.widgets.footer import Footer


def summary_text(battle: Battle, card_names: dict[str, str]) -> str:
    st = battle.state
    lines = []
    for side in st.sides.values():
        lines.append(f"{side.name}: {side.vp} VP")
        if side.side_job or side.side_job_done:
            done = " (achieved)" if side.side_job_done else ""
            lines.append(f"  Side Job: {side.side_job or '-'}{done}")
        if side.tactics:
            lines.append(f"  Gang Tactics played: {', '.join(side.tactics)}")
        if side.bottle_failed:
            lines.append(f"  Bottle tests failed: {side.bottle_failed}")
        if side.reserves:
            lines.append("  Reinforcements to come: "
                         + ", ".join(st.name_of(k) for k in side.reserves))
        for card in side.revealed:
            got = [reward_text(r, st) for c, r in side.rewards if c == card]
            lines.append(f"  Revealed {card_names.get(card, card)}: "
                         + (", ".join(got) or "no reward yet"))
    return "\n".join(lines)


class LogScreen(DialogScreen[None]):
    CSS_PATH = [DIALOG_CSS, "modals.tcss"]  # the kit's frame; its own sizes
    BINDINGS = [Binding("escape,L,q", "close", "Close", id="log.close")]

    def __init__(self, battle: Battle, card_names: dict[str, str]) -> None:
        super().__init__()
        self.battle = battle
        self.card_names = card_names

    def compose(self) -> ComposeResult:
        st = self.battle.state
        text = "\n".join(
            f"{i:>3} {describe(ev, st, self.card_names)}"
            for i, ev in enumerate(self.battle.log, start=1)
        )
        with Vertical(id="dialog", classes="log"):
            yield Label(f"Battle log: {len(self.battle.log)} events", id="dialog-title")
            with VerticalScroll(id="log-body"):
                yield Static(summary_text(self.battle, self.card_names), id="log-summary",
                             markup=False)
                yield Static(text, id="log-all", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        body = self.query_one("#log-body", VerticalScroll)
        body.focus()
        body.scroll_end(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
