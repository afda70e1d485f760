"""Fighter conditions (Broken, Blaze, Insane, ...) as data (``data/conditions.toml``).

One table per condition feeds the tracker's key bindings and help, the fighter table's
Cond column and the log's words: a new condition is one data file entry, no code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.data import RuleData, given
from ..core.wording import did_you_mean


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


KEYS = ("name", "key", "label", "help", "short", "lost", "footer")


def condition_from_data(raw: Any, where: str) -> Condition:
    """One ``[[conditions]]`` table; ConditionError naming ``where`` and the key."""
    if not isinstance(raw, dict):
        raise ConditionError(f"{where}: not a table")
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise ConditionError(f"{where}.{unknown[0]}: unknown key {unknown[0]!r}"
                             f"{did_you_mean(unknown[0], KEYS)}")
    for k in ("name", "key", "label", "help", "short"):
        if not isinstance(raw.get(k), str) or not raw[k].strip():
            raise ConditionError(f"{where}.{k}: must be non-empty text")
    if not isinstance(raw.get("lost", ""), str):
        raise ConditionError(f"{where}.lost: must be text")
    if not isinstance(raw.get("footer", False), bool):
        raise ConditionError(f"{where}.footer: must be true or false")
    return Condition(name=raw["name"], key=raw["key"], label=raw["label"],
                     help=raw["help"], short=raw["short"], lost=raw.get("lost", ""),
                     footer=bool(raw.get("footer", False)))


def conditions(data: RuleData | None = None) -> tuple[Condition, ...]:
    """Every condition of data/conditions.toml in file order, then the packs'."""
    data = given(data)
    return data.memo("conditions", lambda: _build(data))


def _build(data: RuleData) -> tuple[Condition, ...]:
    out: list[Condition] = []
    for i, item in enumerate(data.items("conditions")):
        out.append(condition_from_data(item.data, f"{item.source.file}: conditions[{i}]"))
    for attr in ("name", "key"):
        seen = [getattr(c, attr) for c in out]
        twice = sorted({s for s in seen if seen.count(s) > 1})
        if twice:
            raise ConditionError(f"conditions.toml: {attr} {', '.join(twice)} used twice")
    return tuple(out)


def names(data: RuleData | None = None) -> tuple[str, ...]:
    return tuple(c.name for c in conditions(data))


def find(name: str, data: RuleData | None = None) -> Condition | None:
    """The condition named ``name`` (None for one named by hand in the tracker)."""
    return next((c for c in conditions(data) if c.name == name), None)


def short(name: str, data: RuleData | None = None) -> str:
    """The fighter table's form: the data's short, else the name's first three letters."""
    c = find(name, data)
    return c.short if c is not None else name[:3]


def lost_text(name: str, data: RuleData | None = None) -> str:
    c = find(name, data)
    return c.lost_text if c is not None else f"no longer {name}"
