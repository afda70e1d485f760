"""munda_tui.rules is pure: no Textual, no Rich, no file I/O."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parents[2] / "munda_tui" / "rules"


def test_importing_rules_loads_neither_textual_nor_rich() -> None:
    code = (
        "import sys, pkgutil, importlib, munda_tui.rules as r\n"
        "for m in pkgutil.walk_packages(r.__path__, 'munda_tui.rules.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_rules_never_open_files() -> None:
    forbidden = {"open", "write_text", "read_text", "write_bytes", "mkdir", "unlink"}
    offenders = []
    for path in RULES.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in forbidden:
                    offenders.append(f"{path.name}:{node.lineno} {name}()")
    assert offenders == []
