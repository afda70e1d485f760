"""The private Textual names munda-tui relies on are still there in the installed Textual.

``munda_tui.key_order`` (keys in a burst, a workaround for Textual issue #6605) and the
app's crash handling use parts of Textual that are not its public API. pyproject.toml pins
Textual to the minor versions where they were read; this test says which name went
missing if a Textual inside that range (or a widened pin) drops or renames one, instead
of a key that silently does nothing at the table.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

from munda_tui.key_order import PRIVATE_NAMES


@pytest.mark.parametrize(("owner", "name"), PRIVATE_NAMES, ids=[f"{o}.{n}" for o, n in PRIVATE_NAMES])
def test_private_textual_name_exists(owner: str, name: str) -> None:
    try:  # a module's own name (textual.widgets._footer.FooterKey)
        assert hasattr(importlib.import_module(owner), name), f"{owner}.{name} is gone from the installed Textual"
        return
    except ModuleNotFoundError:
        pass
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


#: the modules that may use Textual's private names: the key-order workaround, the
#: screens' CSS loader, and textual_private (every other use); the app's own overrides
#: (the crash file, the notices) are methods of MundaApp, listed in PRIVATE_NAMES too
ALLOWED = {"key_order.py", "screen_css.py", "textual_private.py", "app.py"}
#: private parts of Textual reached from a module, as they are written there
REACHES = re.compile(r"\._bindings\b|\._add_binding\b|\bkey_to_bindings\b|\btextual\.widgets\._\w+"
                     r"|\._push_result_callback\b|\._screen_stack\b|\._css_type_name\b"
                     r"|\._mounted_event\b|\._message_queue\b")


def test_no_module_reaches_a_private_textual_name_but_the_gathered_ones() -> None:
    """Issue 33.5: the private names are used in key_order.py, screen_css.py and
    textual_private.py alone (app.py overrides the crash and notice methods and uses none
    of these), so a Textual upgrade that moves one breaks in one place; on main the
    screens, the footer and the header reached them themselves."""
    package = Path(__file__).resolve().parents[1] / "munda_tui"
    found = [f"{p.relative_to(package)}:{n}: {m.group(0)}"
             for p in sorted(package.rglob("*.py")) if p.name not in ALLOWED - {"app.py"}
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             for m in [REACHES.search(line)] if m and not line.lstrip().startswith("#")]
    allowed_keymap = [f for f in found if f.startswith("keymap.py:") and "key_to_bindings" in f]
    assert [f for f in found if f not in allowed_keymap] == []
