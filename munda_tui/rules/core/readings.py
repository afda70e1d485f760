"""The readings: how munda-tui reads the seeds where it had to choose (data/readings.toml).

Each reading has an id, the seed's words, what the app does, why, and the
campaign setting that changes it (if any). Screens show :func:`note` where the
reading applies; ``munda-tui rules export`` lists them all (:func:`export_section`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .data import load_data

FIELDS = ("id", "title", "source", "seed", "app", "why", "setting", "where")


@dataclass(frozen=True)
class Reading:
    id: str
    title: str
    source: str
    seed: str
    app: str
    why: str
    setting: str
    where: str


def readings() -> list[Reading]:
    out = []
    for row in load_data("readings.toml")["readings"]:
        out.append(Reading(**{k: str(row.get(k, "")) for k in FIELDS}))
    return out


def reading(reading_id: str) -> Reading:
    for r in readings():
        if r.id == reading_id:
            return r
    raise KeyError(f"no reading {reading_id!r}")


def note(reading_id: str) -> str:
    """The line a screen shows where the reading applies."""
    r = reading(reading_id)
    setting = f" (campaign setting: {r.setting})" if r.setting else ""
    return f"munda-tui reading: {r.app}{setting}"


def for_setting(setting: str) -> list[Reading]:
    """The readings a campaign setting changes (shown beside the setting)."""
    return [r for r in readings() if r.setting == setting]


def export_section() -> list[dict[str, Any]]:
    return [asdict(r) for r in readings()]
