"""The post-battle rulesets: one data file each, ``data/postbattle/<id>.toml``.

Nothing lists them by hand: the campaign settings' values (checked at load, offered by
the new-campaign and settings choices), ``munda-tui rules export`` and the sequence
itself all read this module, which reads the folder. What a ruleset does differently
(Turf Size tracked as a number, who takes Post-Battle Actions, how a hire is offered...)
is a property in its file that the steps read, never a test of its id. Adding a ruleset
is the recipe in ARCHITECTURE.md ("A post-battle ruleset").
"""

from __future__ import annotations

from typing import Any

from .data import RuleData, given, list_data

#: what every ruleset file says of itself, besides its steps
RULESET_KEYS = ("id", "title", "choice", "order", "source", "steps")


def ruleset_ids(data: RuleData | None = None) -> tuple[str, ...]:
    """Every ruleset's id: its file's name (cheap for the package's own: the folder is
    listed, no file read; a campaign's setting is checked against these at load), then
    the packs' added rulesets."""
    package = tuple(relpath.rsplit("/", 1)[-1].removesuffix(".toml")
                    for relpath in list_data("postbattle"))
    data = given(data)
    if not data.packs:
        return package
    return data.memo("ruleset_ids", lambda: (
        *package, *(i for i in data.item_ids("postbattle") if i not in package)))


def check_ruleset(ruleset: dict[str, Any], relpath: str) -> None:
    """ValueError if a ruleset file lacks what every ruleset says of itself."""
    rid = relpath.rsplit("/", 1)[-1].removesuffix(".toml")
    missing = [k for k in RULESET_KEYS if k not in ruleset]
    if missing:
        raise ValueError(f"{relpath}: no {', '.join(missing)}")
    if ruleset["id"] != rid:
        raise ValueError(f"{relpath}: id {ruleset['id']!r} is not the file's name {rid!r}")


def rulesets(data: RuleData | None = None) -> dict[str, dict[str, Any]]:
    """Every ruleset, by id, in the order the choices list them (their ``order``)."""
    data = given(data)

    def build() -> dict[str, dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for item in data.items("postbattle"):
            if not item.source.pack:
                check_ruleset(item.data, f"postbattle/{item.id}.toml")
            found.append(dict(item.data))
        return {r["id"]: r for r in sorted(found, key=lambda r: (r["order"], r["id"]))}

    return data.memo("rulesets", build)


def load_ruleset(ruleset: str, data: RuleData | None = None) -> dict[str, Any]:
    if ruleset not in ruleset_ids(data):
        raise KeyError(f"unknown post-battle ruleset {ruleset!r}")
    return rulesets(data)[ruleset]


def ruleset_property(ruleset: str, key: str, data: RuleData | None = None) -> Any:
    """One key of a ruleset's file (None for an unknown ruleset or key): reads that file
    alone, as a value is checked at load (not every ruleset)."""
    if ruleset not in ruleset_ids(data):
        return None
    item = given(data).item("postbattle", ruleset) if given(data).packs else None
    if item is not None:
        return item.data.get(key)
    from .data import load_data

    return load_data(f"postbattle/{ruleset}.toml").get(key)


def ruleset_choices(data: RuleData | None = None) -> list[tuple[str, str]]:
    """(label, id) of every ruleset, in order: the new-campaign and settings choices."""
    return [(r["choice"], rid) for rid, r in rulesets(data).items()]


def default_ruleset(data: RuleData | None = None) -> str:
    """The ruleset a new campaign starts with: the first in order."""
    return next(iter(rulesets(data)))
