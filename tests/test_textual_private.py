"""The private Textual names munda-tui relies on are still there in the installed Textual.

``munda_tui.key_order`` (keys in a burst, a workaround for Textual issue #6605) and the
app's crash handling use parts of Textual that are not its public API. pyproject.toml pins
Textual to the minor versions where they were read; this test says which name went
missing if a Textual inside that range (or a widened pin) drops or renames one, instead
of a key that silently does nothing at the table.
"""

from __future__ import annotations

import importlib

import pytest

from munda_tui.key_order import PRIVATE_NAMES


@pytest.mark.parametrize(("owner", "name"), PRIVATE_NAMES, ids=[f"{o}.{n}" for o, n in PRIVATE_NAMES])
def test_private_textual_name_exists(owner: str, name: str) -> None:
    module, _, cls_name = owner.rpartition(".")
    cls = getattr(importlib.import_module(module), cls_name)
    if hasattr(cls, name):
        return
    # instance attributes are set in __init__: look there
    init = getattr(cls, "__init__")
    source = importlib.import_module(cls.__module__).__file__
    assert source is not None
    with open(source, encoding="utf-8") as f:
        text = f.read()
    assert f"self.{name}" in text, f"{owner}.{name} is gone from the installed Textual"
