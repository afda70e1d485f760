"""Fighter conditions (Broken, Blaze, Insane, ...) as data (``data/conditions.toml``).

One table per condition feeds the tracker's key bindings and help, the fighter table's
Cond column and the log's words: a new condition is one data file entry, no code.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..core.data import derived, load_data


class ConditionError(ValueError):
    """A bad conditions file (which entry, which key, what is wrong)."""


@dataclass(frozen=True)
class Condition:
    name: str
    key: str
    label: str
    help: str
    short: str
    lost: str = ""
    footer: bool = False

    @property
    def lost_text(self) -> str:
        """What the log says when a fighter loses it."""
        return self.lost or f"no longer {self.name}"


_KEYS = {"name", "key", "label", "help", "short", "lost", "footer"}


@derived
@functools.cache
def conditions() -> tuple[Condition, ...]:
    """Every condition of data/conditions.toml, in file order."""
    out: list[Condition] = []
    for i, raw in enumerate(load_data("conditions.toml").get("conditions", [])):
        where = f"conditions.toml: conditions[{i}]"
        unknown = set(raw) - _KEYS
        if unknown:
            raise ConditionError(f"{where}.{sorted(unknown)[0]}: unknown key")
        for k in ("name", "key", "label", "help", "short"):
            if not isinstance(raw.get(k), str) or not raw[k].strip():
                raise ConditionError(f"{where}.{k}: must be non-empty text")
        out.append(Condition(name=raw["name"], key=raw["key"], label=raw["label"],
                             help=raw["help"], short=raw["short"], lost=raw.get("lost", ""),
                             footer=bool(raw.get("footer", False))))
    for attr in ("name", "key"):
        seen = [getattr(c, attr) for c in out]
        twice = sorted({s for s in seen if seen.count(s) > 1})
        if twice:
            raise ConditionError(f"conditions.toml: {attr} {', '.join(twice)} used twice")
    return tuple(out)


def names() -> tuple[str, ...]:
    return tuple(c.name for c in conditions())


def find(name: str) -> Condition | None:
    """The condition named ``name`` (None for one named by hand in the tracker)."""
    return next((c for c in conditions() if c.name == name), None)


def short(name: str) -> str:
    """The fighter table's form: the data's short, else the name's first three letters."""
    c = find(name)
    return c.short if c is not None else name[:3]


def lost_text(name: str) -> str:
    c = find(name)
    return c.lost_text if c is not None else f"no longer {name}"
