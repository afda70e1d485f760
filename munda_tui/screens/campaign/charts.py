"""Campaign charts: Gang Rating, Reputation and credits per battle, every gang.

One sparkline per gang and figure, from the standings recorded after each
finished battle, ending with the gang's figures now; under them, each gang's fallen. The numbers beside each
line give its first value, its lowest and highest, and now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Sparkline
from munda_tui.widgets.plain import Label, Static
from munda_tui.widgets.header import Header

from munda_tui.rules.campaign.report import GangSeries, chart_series, fallen_text, finished
from munda_tui.widgets.footer import Footer

if TYPE_CHECKING:
    from munda_tui.saves import CampaignHandle

METRICS: list[tuple[str, str]] = [
    ("rating", "Gang Rating"),
    ("reputation", "Reputation"),
    ("credits", "Credits"),
]


def figures(values: list[int]) -> str:
    """'first → now (low–high)' for a series."""
    if len(values) == 1:
        return f"now {values[0]}"
    return f"{values[0]} → {values[-1]}  ({min(values)}–{max(values)})"


class ChartsScreen(Screen[None]):
    HELP_TITLE = "Charts"
    HELP = (
        "Each line is one gang: its figure after each finished battle, left to right, "
        "ending with now. Low values are drawn short, high values tall, each line on its "
        "own scale; the numbers on the right are the first value, now, and the range."
    )
    CSS_PATH = "charts.tcss"
    BINDINGS = [
        Binding("0", "show('')", "All", id="charts.show"),
        Binding("1", "show('rating')", "Rating", id="charts.show-rating"),
        Binding("2", "show('reputation')", "Reputation", id="charts.show-reputation"),
        Binding("3", "show('credits')", "Credits", id="charts.show-credits"),
        Binding("escape", "back", "Back", id="charts.back"),
    ]

    def __init__(self, handle: "CampaignHandle") -> None:
        super().__init__()
        self.handle = handle
        self.series: list[GangSeries] = chart_series(handle.campaign)

    def compose(self) -> ComposeResult:
        campaign = self.handle.campaign
        done = finished(campaign)
        yield Header()
        with VerticalScroll(id="charts"):
            yield Label(f"{campaign.name}: the campaign so far", classes="title")
            yield Static(
                f"{len(done)} finished battles"
                + (f" (battles {done[0].number}–{done[-1].number})" if len(done) > 1 else "")
                + ", then now." if done else
                "No finished battles yet: each line shows the gang's figures now.",
                id="charts-hint",
                classes="hint",
            )
            if not self.series:
                yield Static("No gangs yet.", classes="hint")
            width = max((len(s.name) for s in self.series), default=10)
            width = min(max(width, 10), 24)
            tall = len(self.series) <= 3  # two lines a chart while it fits 80x24
            for key, title in METRICS:
                with Vertical(classes="metric", id=f"metric-{key}"):
                    yield Label(title, classes="metric-title")
                    for s in self.series:
                        values: list[int] = getattr(s, key)
                        with Horizontal(classes="chart-row" + (" tall" if tall else "")):
                            name = s.name if len(s.name) <= width else s.name[: width - 1] + "…"
                            yield Label(name, classes="chart-name").set_styles(f"width: {width + 1};")
                            if len(values) > 1:
                                yield Sparkline(values, id=f"spark-{key}-{s.gang_id}",
                                                classes="spark")
                            else:
                                yield Static("no finished battle yet", classes="spark hint")
                            yield Label(figures(values), classes="chart-figures")
            # the dead leave the roster and stay in the gang's history (seed 004)
            fallen = [(g.name, fallen_text(g)) for g in campaign.gangs if g.fallen]
            if fallen:
                with Vertical(classes="metric", id="charts-fallen"):
                    yield Label("Fallen", classes="metric-title")
                    for name, text in fallen:
                        yield Static(f"{name}: {text}", classes="hint")
        yield Footer()

    def action_show(self, key: str) -> None:
        for metric, _ in METRICS:
            self.query_one(f"#metric-{metric}").display = not key or metric == key

    def action_back(self) -> None:
        self.dismiss(None)
