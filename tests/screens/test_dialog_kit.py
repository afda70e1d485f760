"""Every modal question is on the one dialog kit (issue 24: screens ask, flows decide).

Imports every module of munda_tui and fails for a ModalScreen subclass that is neither a
DialogScreen nor listed as not a dialog (screens/common/dialogs.py: NOT_DIALOGS)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from textual.screen import ModalScreen

import munda_tui
from munda_tui.screens.common.dialogs import (
    NOT_DIALOGS,
    OWN_RULES,
    DialogScreen,
)


def modal_screens() -> dict[str, type]:
    found: dict[str, type] = {}
    for module in pkgutil.walk_packages(munda_tui.__path__, "munda_tui."):
        if module.name.endswith("__main__"):
            continue  # runs the app
        loaded = importlib.import_module(module.name)
        for value in vars(loaded).values():
            if (inspect.isclass(value) and issubclass(value, ModalScreen)
                    and value.__module__ == module.name):
                found[f"{module.name}.{value.__qualname__}"] = value
    return found


def test_every_modal_screen_is_a_dialog_or_listed_as_not_one() -> None:
    screens = modal_screens()
    assert "munda_tui.screens.common.dialogs.PickOneScreen" in screens  # the walk sees them
    strays = sorted(
        name for name, cls in screens.items()
        if not issubclass(cls, DialogScreen) and name not in NOT_DIALOGS)
    assert strays == [], f"modal screens not on the dialog kit (dialogs.py): {strays}"


def test_the_lists_name_only_what_exists() -> None:
    screens = modal_screens()
    for name in NOT_DIALOGS:
        assert name in screens and not issubclass(screens[name], DialogScreen), name
    for name in OWN_RULES:
        assert name in screens and issubclass(screens[name], DialogScreen), name
