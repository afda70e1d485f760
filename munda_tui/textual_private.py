"""Textual's private parts munda-tui uses beside the key order, in one place.

``munda_tui.key_order`` holds the workaround for Textual issue #6605 (keys in a burst);
``munda_tui.screen_css`` loads a screen's CSS without parsing the others again. Every
other use of a part of Textual that is not its public API goes through this module, so
a Textual upgrade that moves one breaks here alone, and ``tests/test_textual_private.py``
names what went missing (each name is listed in ``key_order.PRIVATE_NAMES``; no other
module reaches them: the same test scans the package).

What is here, and why Textual's public API does not do it:

* a node's own bindings (``DOMNode._bindings``): Textual binds keys per class
  (``BINDINGS``); munda-tui relabels one binding of one dialog (Escape says "Back" or
  "Keep the roll", the post-battle's Escape "Cancel question" or "Leave"), reads the
  label a dialog's Escape has, binds the keys of the packs' conditions on one tracker
  screen (``BindingsMap._add_binding``), and the footer reads the app's bindings as the
  keymap left them (the help key, the More key);
* the footer's parts (``textual.widgets._footer``: ``FooterKey``, ``FooterLabel``,
  ``KeyGroup``) and the header's title (``textual.widgets._header.HeaderTitle``): the
  widgets' own footer and header are built from them, and More lists the keys shown;
* a screen made the bottom of the stack before the app runs
  (``Screen._push_result_callback``): the app starts on a campaign's screen instead of
  Textual's default one, and ``switch_screen`` pops the bottom screen's result
  callback, which Textual pushes for every screen but its default one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual.widgets._footer import FooterKey, FooterLabel, KeyGroup
from textual.widgets._header import HeaderTitle

if TYPE_CHECKING:
    from textual.app import App
    from textual.binding import Binding
    from textual.dom import DOMNode
    from textual.screen import Screen


def bindings_of(node: "DOMNode") -> Iterator[tuple[str, "Binding"]]:
    """(key, binding) for each binding of ``node`` itself, as the keymap left them."""
    return iter(node._bindings)


def binding_on(node: "DOMNode", key: str) -> "Binding | None":
    """``node``'s own first binding on ``key`` (None: none)."""
    bindings = node._bindings.key_to_bindings.get(key)
    return bindings[0] if bindings else None


def relabel(node: "DOMNode", which: "Callable[[Binding], bool]", description: str) -> None:
    """Give ``node``'s bindings that ``which`` picks another footer label (their ids and
    keys kept, so a remapped key still applies); a new list per key: the class's own map
    is shared between instances."""
    keys = node._bindings.key_to_bindings
    for key, bindings in list(keys.items()):
        if any(which(b) and b.description != description for b in bindings):
            keys[key] = [replace(b, description=description) if which(b) else b
                         for b in bindings]


def add_binding(node: "DOMNode", binding: "Binding") -> None:
    """Bind ``binding`` on ``node`` alone (not its class)."""
    node._bindings._add_binding(binding)


def apply_keymap(node: "DOMNode", keymap: "Mapping[str, str]") -> None:
    """``keymap`` applied to ``node``'s own bindings too (``App.set_keymap`` reaches the
    screens' and widgets' bindings, not the app's own map, which a modal screen reads)."""
    node._bindings.apply_keymap(keymap)


def make_bottom_screen(screen: "Screen[Any]", app: "App[Any]") -> None:
    """``screen``, returned by ``App.get_default_screen``, takes a result callback as a
    pushed screen has one (``switch_screen`` pops it)."""
    screen._push_result_callback(app, None)


__all__ = ["FooterKey", "FooterLabel", "HeaderTitle", "KeyGroup", "add_binding", "apply_keymap",
           "binding_on",
           "bindings_of", "make_bottom_screen", "relabel"]
