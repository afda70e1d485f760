"""Reading the rule data packaged with munda-tui (``munda_tui/rules/data``).

This reads the package's own resources, never the player's disk: override
files from the player's folders are read by ``munda_tui.saves`` and handed to
the rules as parsed dicts.
"""

from __future__ import annotations

import functools
import tomllib
from importlib import resources
from typing import Any


@functools.cache
def load_data(relpath: str) -> dict[str, Any]:
    """Parse ``munda_tui/rules/data/<relpath>`` (TOML). Cached: treat as read-only."""
    resource = resources.files("munda_tui.rules").joinpath("data", *relpath.split("/"))
    return tomllib.loads(resource.read_bytes().decode("utf-8"))


def list_data(folder: str) -> list[str]:
    """Relative paths of the TOML files in a data folder, sorted."""
    base = resources.files("munda_tui.rules").joinpath("data", *folder.split("/"))
    return sorted(
        f"{folder}/{entry.name}"
        for entry in base.iterdir()
        if entry.name.endswith(".toml")
    )
