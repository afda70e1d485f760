"""Remappable keys: every binding has an id; ``[keymap]`` in the user config remaps them.

The config (``<config dir>/config.toml``)::

    [keymap]
    "post_battle.roll" = "space"        # one key
    "campaign.new_battle" = "n,ctrl+n"  # or several, comma-separated

is handed to Textual's :meth:`textual.app.App.set_keymap` (binding id -> keys). The
ids are ``<screen>.<action>`` and ``?`` lists them beside the keys in force. An id
no screen has, or an empty key, is reported as ``path:line:col: message`` and
left out; the rest of the keymap applies.
"""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path
from typing import Any, Mapping

from textual.binding import Binding
from textual.dom import DOMNode

#: module names (under munda_tui) that define every screen and widget with bindings
_PACKAGES = ("munda_tui.screens", "munda_tui.widgets")


def _import_all() -> None:
    # the app's own bindings are found once it is imported (it imports this module, not
    # the other way round: no import circle)
    for name in _PACKAGES:
        package = importlib.import_module(name)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{name}."):
            try:
                importlib.import_module(info.name)
            except ImportError:  # an optional extra not installed (e.g. the phone server)
                continue


def _subclasses(cls: type) -> list[type]:
    out: list[type] = []
    todo: list[type] = [cls]
    while todo:
        subs: list[type] = todo.pop().__subclasses__()
        out.extend(subs)
        todo.extend(subs)
    return out


def all_bindings() -> dict[str, tuple[type, Binding]]:
    """Every binding of munda-tui by id: ``{id: (class, binding)}``."""
    _import_all()
    out: dict[str, tuple[type, Binding]] = {}
    for cls in _subclasses(DOMNode):
        if not cls.__module__.startswith("munda_tui."):
            continue
        for b in cls.__dict__.get("BINDINGS", []):
            if isinstance(b, Binding) and b.id:
                out.setdefault(b.id, (cls, b))
    return out


def unnamed_bindings() -> list[str]:
    """Bindings without an id (there should be none: a test keeps it so)."""
    _import_all()
    out = []
    for cls in _subclasses(DOMNode):
        if cls.__module__.startswith("munda_tui."):
            for b in cls.__dict__.get("BINDINGS", []):
                if not isinstance(b, Binding) or not b.id:
                    out.append(f"{cls.__module__}.{cls.__name__}: {b!r}")
    return out


def check_keymap(keymap: Mapping[str, Any], path: Path,
                 text: str | None) -> tuple[dict[str, str], list[str]]:
    """The usable part of ``keymap`` and a ``path:line:col: message`` per problem."""
    from .saves.codec import ValidationError
    from .saves.errors import validation_error

    known = all_bindings()
    good: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, keys in keymap.items():
        where = ("keymap", binding_id)
        if binding_id not in known:
            close = sorted(k for k in known if k.split(".")[-1] == binding_id.split(".")[-1])
            hint = f" (did you mean {', '.join(close[:3])}?)" if close else " (? lists the ids)"
            problems.append(str(validation_error(path, text, ValidationError(
                where, f"no key binding has the id {binding_id!r}{hint}"))))
            continue
        names = [k.strip() for k in str(keys).split(",")]
        if not keys or not all(names):
            problems.append(str(validation_error(path, text, ValidationError(
                where, "expected one key or several, comma-separated (e.g. \"space\" or "
                       "\"n,ctrl+n\")"))))
            continue
        good[binding_id] = ",".join(names)
    return good, problems
