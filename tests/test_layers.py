"""The layers hold (this is how ``.ci/run`` runs lint-imports; mypy: test_types.py):
rules and saves never import a screen, widgets no screen, no import circle at any depth
(the contracts in pyproject.toml [tool.importlinter])."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_are_kept(capsys: pytest.CaptureFixture[str]) -> None:
    from importlinter import cli  # in the test extras: missing, this fails instead of skipping
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        code = cli.lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    finally:
        os.chdir(here)
    out = capsys.readouterr().out
    assert code == 0, out
    assert "0 broken" in out


def _circles(graph: object, modules: set[str]) -> list[list[str]]:
    """The import circles among ``modules``: each strongly connected group (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.find_modules_directly_imported_by(v):  # type: ignore[attr-defined]
            if w not in modules:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for m in sorted(modules):
        if m not in index:
            visit(m)
    return found


def test_no_import_circle_not_even_for_annotations() -> None:
    """No module imports, even under ``if TYPE_CHECKING:``, a module that imports it back
    (directly or round a longer circle): a type a module needs from one that imports it
    is a Protocol where it is used (``postbattle_core.Sequence``, ``typed_app.MundaServices``)."""
    import sys

    import grimp  # (import-linter's graph)

    graph = grimp.build_graph("munda_tui", exclude_type_checking_imports=False)
    # (the walk is recursive; the limit is put back: a test after this one in the same
    # worker relies on the default, as a 5,000-deep file refused by RecursionError does)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        circles = _circles(graph, set(graph.modules))
    finally:
        sys.setrecursionlimit(limit)
    assert circles == []


def test_the_circle_finder_finds_a_circle() -> None:
    class Graph:
        edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}

        def find_modules_directly_imported_by(self, m: str) -> set[str]:
            return self.edges[m]

    assert _circles(Graph(), {"a", "b", "c", "d"}) == [["a", "b", "c"]]


def test_sub_plot_effects_live_in_rules_subplots() -> None:
    """Issue 33.4: what a revealed card does (data/subplot_effects.toml) is read and walked
    in rules/subplots/effects.py alone, below every stage (the layers contract keeps it
    from importing one); on main the post-battle walk lived in
    rules/postbattle/subplot_effects.py."""
    rules = ROOT / "munda_tui" / "rules"
    readers = sorted(p.relative_to(rules).as_posix() for p in rules.rglob("*.py")
                     if "subplot_effects.toml" in p.read_text(encoding="utf-8"))
    assert readers == ["subplots/effects.py"], readers
    assert [p.name for p in rules.rglob("*subplot*.py")] == [], "Sub-plot code outside rules/subplots/"
