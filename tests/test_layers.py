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
