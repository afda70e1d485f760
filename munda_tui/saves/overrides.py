"""Arbitrator's Toolkit: scenario table override files on the player's disk.

A campaign may replace or extend the scenario tables (seed 001, "Arbitrator's
Toolkit: customising these tables") with TOML files in

1. the user config dir: ``<config_dir>/tables/*.toml`` (every campaign), then
2. the campaign's folder: ``<campaign_dir>/tables/*.toml`` (this campaign),

applied in that order, files sorted by name within a folder. This module only
finds, reads and parses the files; what they mean and whether they are valid
is decided by :mod:`munda_tui.rules.prebattle.scenario` (see its docstring for the
format). A bad file is never silently ignored: every problem comes back as an
:class:`OverrideProblem` with its path, line (and column for TOML syntax
errors) and what is wrong, and the file is left out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..rules.core.data import RuleData
from .errors import SaveError
from .files import parse_text, read_text

TABLES_DIR = "tables"


@dataclass(frozen=True)
class OverrideFile:
    path: Path
    data: dict[str, Any]
    text: str


@dataclass(frozen=True)
class OverrideProblem:
    path: Path
    message: str
    line: int | None = None
    col: int | None = None
    key: str = ""

    def __str__(self) -> str:
        where = str(self.path)
        if self.line is not None:
            where += f":{self.line}"
            if self.col is not None:
                where += f":{self.col}"
        key = f" [{self.key}]" if self.key else ""
        return f"{where}:{key} {self.message}"


def override_paths(config_dir: Path | None, campaign_dir: Path | None) -> list[Path]:
    """The override files, in the order they apply."""
    paths: list[Path] = []
    for base in (config_dir, campaign_dir):
        if base is None:
            continue
        folder = Path(base) / TABLES_DIR
        if folder.is_dir():
            paths.extend(sorted(p for p in folder.glob("*.toml") if p.is_file()))
    return paths


def read_overrides(
    config_dir: Path | None, campaign_dir: Path | None
) -> tuple[list[OverrideFile], list[OverrideProblem]]:
    """Parse every override file; syntax errors come back as problems."""
    files: list[OverrideFile] = []
    problems: list[OverrideProblem] = []
    for path in override_paths(config_dir, campaign_dir):
        # the reader every save file goes through: the shape (nesting, dotted keys, size)
        # is checked before the parser sees the text, so a hostile file is one problem
        try:
            text = read_text(path)
            data = parse_text(path, text)
        except SaveError as error:
            problems.append(OverrideProblem(path, error.message, error.line, error.column))
            continue
        files.append(OverrideFile(path, data, text))
    return files, problems


_INDEX = re.compile(r"^(\w+)\[(\d+)\]$")


def locate(text: str, key: str) -> int | None:
    """Best-effort line number (1-based) of a dotted key such as
    ``entries[2].roll`` or ``entries[0].crew.both.x`` in a TOML text."""
    lines = text.splitlines()
    start, end = 0, len(lines)
    section: list[str] = []
    found: int | None = None
    for part in (p for p in key.split(".") if p):
        m = _INDEX.match(part)
        name = m.group(1) if m else part
        dotted = re.escape(".".join([*section, name]))
        if m:
            header = re.compile(r"^\s*\[\[\s*" + dotted + r"\s*\]\]")
            hits = [i for i in range(start, end) if header.match(lines[i])]
            idx = int(m.group(2))
            if idx >= len(hits):
                return found
            start = hits[idx]
            end = hits[idx + 1] if idx + 1 < len(hits) else end
        else:
            pattern = re.compile(
                r"^\s*(?:[\"']?" + re.escape(name) + r"[\"']?\s*=|\[\[?\s*" + dotted + r"\s*[\].])"
            )
            hit = next((i for i in range(start, end) if pattern.match(lines[i])), None)
            if hit is None:
                return found
            start = hit
        found = start + 1
        section.append(name)
    return found


def load_scenario_tables(
    config_dir: Path | None, campaign_dir: Path | None, data: RuleData | None = None,
) -> tuple[dict[str, Any], list[OverrideProblem]]:
    """The scenario tables (the package's, then the packs' in ``data``) with every valid
    override applied, and every problem found (syntax or content) with its path and line."""
    from munda_tui.rules.prebattle.scenario import apply_overrides, packaged_tables

    files, problems = read_overrides(config_dir, campaign_dir)
    tables, errors = apply_overrides([(str(f.path), f.data) for f in files],
                                     packaged_tables(data))
    texts = {str(f.path): f.text for f in files}
    for err in errors:
        line = locate(texts.get(err.path, ""), err.key) if err.key else None
        problems.append(OverrideProblem(Path(err.path), err.message, line, None, err.key))
    return tables, problems
