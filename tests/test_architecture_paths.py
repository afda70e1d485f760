"""ARCHITECTURE.md names files that exist: a module moved (the rules into packages) leaves
no stale path behind in the page that says where everything is."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "ARCHITECTURE.md"
PY = re.compile(r"[\w./-]*\w\.py\b")


def _resolve(token: str, here: Path) -> Path:
    """A path as the page writes it: from the repository (``munda_tui/``, ``tests/``,
    ``scripts/``), from the package (``rules/...``, ``saves/...``), else from ``here``."""
    if token.startswith(("munda_tui/", "tests/", "scripts/")):
        return ROOT / token
    if "/" in token:
        return ROOT / "munda_tui" / token
    return here / token


def _tree_paths() -> list[tuple[int, str, Path]]:
    """Every file the package tree names, with the folder its line puts it in: an entry
    (``name.py`` or ``name/`` at two spaces a level) opens or sits in a folder; a file
    named in an entry's words (and their continuation lines) is that entry's folder's."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = lines.index("### The package tree") + 2  # (after the fence)
    found: list[tuple[int, str, Path]] = []
    folders: list[tuple[int, Path]] = []  # (indent, folder) open at each depth
    here = ROOT
    for n, line in enumerate(lines[start:], start + 1):
        if line.startswith("```"):
            break
        indent = len(line) - len(line.lstrip(" "))
        words = line.split()
        if not words:
            continue
        if indent < 14:  # an entry; deeper lines go on with the words of the one above
            while folders and folders[-1][0] >= indent:
                folders.pop()
            parent = folders[-1][1] if folders else ROOT
            name, words = words[0], words[1:]
            if name.endswith("/"):
                folders.append((indent, parent / name.rstrip("/")))
                here = folders[-1][1]
            else:
                found.append((n, name, parent / name))
                here = parent
        for token in PY.findall(" ".join(words)):
            found.append((n, token, _resolve(token, here)))
    return found


def _text_paths() -> list[tuple[int, str, Path]]:
    """Every ``.py`` path written with its folders anywhere on the page, and every bare
    file name outside the tree (which must then be some file of the repository)."""
    found = []
    for n, line in enumerate(PAGE.read_text(encoding="utf-8").splitlines(), 1):
        for token in PY.findall(line):
            if "/" in token:
                found.append((n, token, _resolve(token, ROOT)))
    return found


def test_the_package_tree_names_files_that_exist() -> None:
    missing = [f"line {n}: {token} ({path.relative_to(ROOT)})"
               for n, token, path in _tree_paths() if not path.exists()]
    assert not missing, "\n".join(missing)


def test_every_path_on_the_page_exists() -> None:
    missing = [f"line {n}: {token}" for n, token, path in _text_paths() if not path.exists()]
    assert not missing, "\n".join(missing)


def test_every_bare_file_name_on_the_page_is_a_file_of_the_repository() -> None:
    names = {p.name for d in ("munda_tui", "tests", "scripts") for p in (ROOT / d).rglob("*.py")}
    text = PAGE.read_text(encoding="utf-8")
    missing = sorted({t for t in PY.findall(text) if "/" not in t and t not in names})
    assert not missing, missing


def test_every_rules_module_named_on_the_page_exists() -> None:
    """``rules.<name>`` (dotted, or ``munda_tui.rules.<name>``) names a module or package
    of munda_tui/rules: the packages since the move (``rules.core.stage``)."""
    rules = ROOT / "munda_tui" / "rules"
    missing = []
    for n, line in enumerate(PAGE.read_text(encoding="utf-8").splitlines(), 1):
        for name in re.findall(r"(?<![\w/])rules\.(\w+)", line):
            if not ((rules / name).is_dir() or (rules / f"{name}.py").exists()):
                missing.append(f"line {n}: rules.{name}")
    assert not missing, "\n".join(missing)
