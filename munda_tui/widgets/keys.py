"""The key in force for a binding id, for every text that names a key.

A key a player may remap (the config's ``[keymap]``, see :mod:`munda_tui.keymap`) is
named in prose through :func:`key_for` (``f"press {key_for(self, 'post_battle.roll')} to
roll"``) or :func:`keys_text` (``"{key:post_battle.roll} rolls for you"``), never as a
literal: the prompt, the hint and the help then name the key the footer shows and the
binding answers to. Imports only Textual, so widgets, screens and the app all use it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Mapping, Union

from textual.binding import Binding
from textual.dom import DOMNode

if TYPE_CHECKING:
    from textual.app import App

#: where a text is shown: a widget or screen (its app's keymap), the app, or, where no app
#: runs (the command line), the config's ``[keymap]`` itself
Where = Union["DOMNode", "App[object]", Mapping[str, str]]

#: how prose names the keys whose footer glyph reads badly in a sentence
_PROSE = {"enter": "Enter", "escape": "Esc", "tab": "Tab", "backspace": "Backspace",
          "shift+tab": "Shift+Tab", "delete": "Del"}

_defaults: dict[str, Binding] = {}
_classes_seen = 0


def _subclasses(cls: type) -> list[type]:
    out: list[type] = []
    todo: list[type] = [cls]
    while todo:
        subs: list[type] = todo.pop().__subclasses__()
        out.extend(subs)
        todo.extend(subs)
    return out


def default_binding(binding_id: str) -> Binding | None:
    """The binding with ``binding_id`` as declared (its keys before any keymap), among
    the classes of munda-tui imported so far (a text names a key of a class in use)."""
    global _classes_seen
    found = _defaults.get(binding_id)
    if found is not None:
        return found
    classes = [c for c in _subclasses(DOMNode) if c.__module__.startswith("munda_tui.")]
    if len(classes) != _classes_seen:  # a module imported since: look again
        _classes_seen = len(classes)
        for cls in classes:
            for b in cls.__dict__.get("BINDINGS", []):
                if isinstance(b, Binding) and b.id:
                    _defaults.setdefault(b.id, b)
    return _defaults.get(binding_id)


def _app(node: Where) -> "App[object] | None":
    from textual.app import App

    if isinstance(node, App):
        return node
    if isinstance(node, Mapping):  # a keymap, no app
        return None
    try:
        return node.app
    except RuntimeError:  # (NoActiveAppError) a node not (or no longer) in an app: declared keys
        return None


def _keymap(node: Where) -> Mapping[str, str]:
    if isinstance(node, Mapping):
        return node
    return getattr(_app(node), "_keymap", None) or {}


def keys_in_force(node: Where, binding_id: str) -> list[str]:
    """The keys (Textual's names: ``"r"``, ``"space"``, ``"ctrl+n"``) that
    ``binding_id`` answers to now: the keymap's, else the binding's own."""
    keymap = _keymap(node)
    remapped = keymap.get(binding_id)
    if remapped:
        return [k.strip() for k in remapped.split(",") if k.strip()]
    binding = default_binding(binding_id)
    if binding is None:
        return []
    return [k.strip() for k in binding.key.split(",") if k.strip()]


def key_for(node: Where, binding_id: str) -> str:
    """How a text names the key in force for ``binding_id``: the first of its keys as the
    footer shows it (``r``, ``space``, ``?``, ``f5``; ``Enter``, ``Esc``, ``Ctrl+N`` in words), or
    the binding's own ``key_display`` while it is not remapped. An id no class declares
    gives the id itself (a test keeps every id a text uses declared)."""
    app, keymap = _app(node), _keymap(node)
    binding = default_binding(binding_id)
    if binding_id not in keymap and binding is not None and binding.key_display:
        return binding.key_display
    keys = keys_in_force(node, binding_id)
    if not keys:
        return binding_id
    return _prose(app, keys[0])


def _prose(app: "App[object] | None", key: str) -> str:
    """A key as a sentence names it: the footer's name (``r``, ``space``, ``?``, ``f5``),
    but ``Enter``, ``Esc``, ``Ctrl+S`` (the footer's ``^s`` reads badly in words)."""
    if key in _PROSE:
        return _PROSE[key]
    *mods, base = key.split("+") if not key.endswith("++") else [*key[:-2].split("+"), "+"]
    if mods and base:
        shown = _prose(app, base)
        shown = shown.upper() if len(shown) == 1 else shown
        return "+".join([*(m.capitalize() for m in mods), shown])
    probe = Binding(key, "", show=False)
    if app is not None:
        return app.get_key_display(probe)
    from textual.app import App

    return App.get_key_display(None, probe)  # type: ignore[arg-type]


def keys_for(node: Where, binding_id: str, joiner: str = " or ") -> str:
    """Every key in force for ``binding_id``, as :func:`key_for` names one, Enter first:
    ``Enter or Esc`` (a binding with two keys), ``f5`` (remapped to one)."""
    app, keymap = _app(node), _keymap(node)
    binding = default_binding(binding_id)
    if binding_id not in keymap and binding is not None and binding.key_display:
        return binding.key_display
    names: list[str] = []
    for key in keys_in_force(node, binding_id):
        name = _prose(app, key)
        if name not in names:
            names.append(name)
    names.sort(key=lambda name: name != "Enter")  # "Enter or Esc", as a player reads it
    return joiner.join(names) or binding_id


_PLACEHOLDER = re.compile(r"\{key:([a-z][a-z0-9_]*\.[A-Za-z0-9_()'\-]+)\}")


def keys_text(node: Where, text: str) -> str:
    """``text`` with every ``{key:<binding id>}`` replaced by :func:`key_for` (in an
    f-string, write ``{{key:<binding id>}}``); an id no class declares is left as it is.
    Where no app runs (the command line), ``node`` is the config's keymap: the classes
    that declare the ids must be imported (``munda_tui.keymap.all_bindings()`` does)."""
    def one(m: re.Match[str]) -> str:
        binding_id = m.group(1)
        return key_for(node, binding_id) if default_binding(binding_id) else m.group(0)

    return _PLACEHOLDER.sub(one, text)
