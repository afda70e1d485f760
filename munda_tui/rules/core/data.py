"""Reading the rule data packaged with munda-tui (``munda_tui/rules/data``).

This reads the package's own resources, never the player's disk: override
files from the player's folders are read by ``munda_tui.saves`` and handed to
the rules as parsed dicts.

``data_root(folder)`` points the reader at a copy of the data folder instead (tests
that add a scenario table, a Sub-plot deck or a fighter condition as one data file and
see it in the flow). Every cache built from the data is cleared on the way in and out.
"""

from __future__ import annotations

import contextlib
import functools
import tomllib
from collections.abc import Callable, Iterator
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

_root: Traversable | None = None
#: caches built from the data (cleared when the data root changes)
_caches: list[Callable[[], None]] = []


def _base() -> Traversable:
    return _root if _root is not None else resources.files("munda_tui.rules").joinpath("data")


def derived(fn: Any) -> Any:
    """Register a ``functools.cache``d function built from the data, so it follows the
    data root."""
    _caches.append(fn.cache_clear)
    return fn


@functools.cache
def load_data(relpath: str) -> dict[str, Any]:
    """Parse ``munda_tui/rules/data/<relpath>`` (TOML). Cached: treat as read-only."""
    resource = _base().joinpath(*relpath.split("/"))
    return tomllib.loads(resource.read_bytes().decode("utf-8"))


def list_data(folder: str) -> list[str]:
    """Relative paths of the TOML files in a data folder, sorted."""
    base = _base().joinpath(*folder.split("/"))
    return sorted(
        f"{folder}/{entry.name}"
        for entry in base.iterdir()
        if entry.name.endswith(".toml")
    )


@contextlib.contextmanager
def data_root(folder: Path) -> Iterator[None]:
    """Read the rule data from ``folder`` (a whole copy of the data folder) meanwhile."""
    global _root
    before = _root

    def clear() -> None:
        load_data.cache_clear()
        for clear_cache in _caches:
            clear_cache()

    _root = folder
    clear()
    try:
        yield
    finally:
        _root = before
        clear()
