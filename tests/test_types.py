"""The package type-checks (pyproject.toml [tool.mypy]), inside the suite.

Run here rather than after the suite in ``.ci/run``: the xdist workers hand this test out
first (tests/conftest.py ``_FIRST``), so mypy's ~12 s of CPU go on while the other workers
run the screens, instead of adding to the end of a CI run. A second run reuses
``.mypy_cache`` and takes about a second.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_package_type_checks() -> None:
    # mypy is in the test extras; a missing mypy fails here rather than skipping the check
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-error-summary", "--hide-error-context"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, "mypy (pyproject.toml [tool.mypy]):\n" + done.stdout + done.stderr
