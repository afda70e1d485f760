"""A screen's CSS loaded the first time it opens, without parsing every other CSS again.

Textual (``App._load_screen_css``) loads a screen's ``CSS_PATH`` the first time that screen
is pushed, then re-parses *every* source of the app's stylesheet (each widget's
DEFAULT_CSS, each .tcss already loaded) in a fresh ``Stylesheet`` with an empty parse
cache, and restyles every node of the app. Opening the post-battle sequence the first time
spent ~90 ms there, as did the first dialog, the first roster, and so on.

:func:`load_screen_css` does the same, with the same result, except that the fresh
stylesheet starts from the app stylesheet's parse cache (same sources, same variables: a
change of variables clears that cache): only the new files are parsed (same rules, same
order), and only the nodes a new rule may reach are restyled (:func:`restyle`): a new
rule may reach a widget of another screen, but the post-battle sequence's rules, say,
reach none of the campaign screen's widgets beneath it, which Textual restyled all.

Private Textual names used here are listed in ``munda_tui.key_order.PRIVATE_NAMES``.
"""

from __future__ import annotations

import inspect
from typing import Any

from textual.app import App
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.screen import Screen
from textual.scrollbar import ScrollBar, ScrollBarCorner

__all__ = ["load_screen_css", "reparse", "restyle"]

# the names a rule reaching a scrollbar would have (Textual restyles those of a scrollable
# widget with it): a new rule with one of these restyles every node, as Textual does
_SCROLLBAR_NAMES = frozenset({"*"}) | {
    cls.__name__ for bar in (ScrollBar, ScrollBarCorner) for cls in bar._css_bases(bar)}


def reparse(stylesheet: Stylesheet) -> None:
    """``Stylesheet.reparse`` (a fresh stylesheet, so that an error leaves this one as it
    was), reusing what this stylesheet has parsed already."""
    fresh = Stylesheet(variables=stylesheet._variables)
    fresh._parse_cache = stylesheet._parse_cache  # results for the same variables
    for read_from, (css, is_defaults, tie_breaker, scope) in stylesheet.source.items():
        fresh.add_source(css, read_from=read_from, is_default_css=is_defaults,
                         tie_breaker=tie_breaker, scope=scope)
    try:
        fresh.parse()
    except Exception:
        stylesheet._invalid_css.update(fresh._invalid_css)  # (as Textual does)
        raise
    stylesheet._rules = fresh.rules
    stylesheet._rules_map = None
    stylesheet.source = fresh.source
    stylesheet._require_parse = False


def load_screen_css(app: App[Any], screen: Screen[Any]) -> None:
    """Textual's ``App._load_screen_css``, with :func:`reparse`."""
    if app.css_monitor is not None:
        app.css_monitor.add_paths(screen.css_path)
    stylesheet = app.stylesheet
    rules_before = list(stylesheet._rules)  # (a source not parsed yet: its rules count as new)
    update = False
    for path in screen.css_path:
        if not stylesheet.has_source(str(path), ""):
            stylesheet.read(path)
            update = True
    if screen.CSS:
        try:
            screen_path = inspect.getfile(screen.__class__)
        except (TypeError, OSError):
            screen_path = ""
        screen_class_var = f"{screen.__class__.__name__}.CSS"
        if not stylesheet.has_source(screen_path, screen_class_var):
            stylesheet.add_source(
                screen.CSS,
                read_from=(screen_path, screen_class_var),
                is_default_css=False,
                scope=screen._css_type_name if screen.SCOPED_CSS else "",
            )
            update = True
    if update:
        reparse(stylesheet)
        restyle(app, rules_before)


def restyle(app: App[Any], rules_before: list[RuleSet]) -> None:
    """Restyle the nodes of ``app`` a rule added since ``rules_before`` may reach: what
    ``stylesheet.update(app)`` does, without the nodes no new rule can match (a rule
    matches only a node that has its last selector's type, id or class, the names that
    ``Stylesheet.apply`` itself picks its rules by): every other node would get the same
    rules again."""
    stylesheet = app.stylesheet
    before = {id(rule) for rule in rules_before}
    names: set[str] = set()
    for rule in stylesheet.rules:
        if id(rule) not in before:
            names.update(rule.selector_names)
    if "*" in names or not names.isdisjoint(_SCROLLBAR_NAMES):
        stylesheet.update(app)
        return
    stylesheet.update_nodes(
        node for node in app.walk_children(with_self=True)
        if not names.isdisjoint(node._selector_names)
        or not names.isdisjoint(f".{name}" for name in node._get_component_classes()))
