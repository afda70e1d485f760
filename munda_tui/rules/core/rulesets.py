"""The post-battle rulesets: one data file each, ``data/postbattle/<id>.toml``.

Nothing lists them by hand: the campaign settings' values (checked at load, offered by
the new-campaign and settings choices), ``munda-tui rules export`` and the sequence
itself all read this module, which reads the folder. What a ruleset does differently
(Turf Size tracked as a number, who takes Post-Battle Actions, how a hire is offered...)
is a property in its file that the steps read, never a test of its id. Adding a ruleset
is the recipe in ARCHITECTURE.md ("A post-battle ruleset").
"""

from __future__ import annotations

import functools
from typing import Any

from .data import derived, list_data, load_data

#: what every ruleset file says of itself, besides its steps
RULESET_KEYS = ("id", "title", "choice", "order", "source", "steps")


@derived
@functools.cache
def ruleset_ids() -> tuple[str, ...]:
    """Every ruleset's id: its file's name (cheap: the folder is listed, no file read;
    a campaign's setting is checked against these at load)."""
    return tuple(relpath.rsplit("/", 1)[-1].removesuffix(".toml")
                 for relpath in list_data("postbattle"))


@derived
@functools.cache
def rulesets() -> dict[str, dict[str, Any]]:
    """Every ruleset, by id, in the order the choices list them (their ``order``)."""
    found: list[dict[str, Any]] = []
    for rid in ruleset_ids():
        relpath = f"postbattle/{rid}.toml"
        data = load_data(relpath)
        missing = [k for k in RULESET_KEYS if k not in data]
        if missing:
            raise ValueError(f"{relpath}: no {', '.join(missing)}")
        if data["id"] != rid:
            raise ValueError(f"{relpath}: id {data['id']!r} is not the file's name {rid!r}")
        found.append(data)
    return {r["id"]: r for r in sorted(found, key=lambda r: (r["order"], r["id"]))}


def load_ruleset(ruleset: str) -> dict[str, Any]:
    if ruleset not in ruleset_ids():
        raise KeyError(f"unknown post-battle ruleset {ruleset!r}")
    return rulesets()[ruleset]


def ruleset_property(ruleset: str, key: str) -> Any:
    """One key of a ruleset's file (None for an unknown ruleset or key): reads that file
    alone, as a value is checked at load (not every ruleset)."""
    if ruleset not in ruleset_ids():
        return None
    return load_data(f"postbattle/{ruleset}.toml").get(key)


def ruleset_choices() -> list[tuple[str, str]]:
    """(label, id) of every ruleset, in order: the new-campaign and settings choices."""
    return [(r["choice"], rid) for rid, r in rulesets().items()]


def default_ruleset() -> str:
    """The ruleset a new campaign starts with: the first in order."""
    return next(iter(rulesets()))
