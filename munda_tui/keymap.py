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

from pathlib import Path
from typing import Any, Iterable, Mapping

from textual.binding import Binding
from textual.dom import DOMNode

def _import_all() -> None:
    """Every module that declares a screen's or a widget's bindings, imported (by name:
    tests/test_keymap_ids.py fails on a module with bindings not listed here). The
    app's own bindings are found once it is imported (it imports this module, not the
    other way round: no import circle)."""
    from .screens.battle import (  # noqa: F401
        attack, bindings, end, hand, log, reinforcements, reveal, screen, start,
    )
    from .screens.campaign import (  # noqa: F401
        campaign, catalogue, charts, fighter_form, hire, import_gang, league, roster, settings,
    )
    from .screens.common import card_viewer, dialogs, dice_prompt, help  # noqa: F401
    from .screens.home import home, new_campaign  # noqa: F401
    from .screens.postbattle import screen as postbattle_screen  # noqa: F401
    from .screens.prebattle import modals, subplot_draw  # noqa: F401
    from .screens.prebattle import screen as prebattle_screen  # noqa: F401
    from .screens.prebattle.steps import (  # noqa: F401
        crews, gangs, pitch_black, scenario, side_jobs, summary,
    )
    from .widgets import curtain, fighter_table  # noqa: F401

    try:
        from .screens.battle import phone  # noqa: F401
    except ImportError:  # an optional extra not installed (the phone server)
        pass


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


#: the modifiers Textual puts before a key's name ("ctrl+n", "alt+shift+up")
MODIFIERS = ("ctrl", "shift", "alt", "super", "hyper", "meta")
#: names people write for a key, and Textual's name for it
_ALIASES = {"return": "enter", "esc": "escape", "del": "delete", "spacebar": "space",
            "pgup": "pageup", "pgdn": "pagedown", "ins": "insert", "bs": "backspace",
            "control": "ctrl", "ctl": "ctrl", "cmd": "super", "option": "alt"}
_KEY_NAMES: set[str] | None = None


def _key_names() -> set[str]:
    """The names of the keys Textual reads from a terminal, without modifiers: its
    ``Keys`` (less the internal ``<any>`` ones and ``return``, which it never sends:
    Return is ``enter``) and the kitty protocol's functional keys."""
    global _KEY_NAMES
    if _KEY_NAMES is None:
        from textual._keyboard_protocol import FUNCTIONAL_KEYS
        from textual.keys import KEY_NAME_REPLACEMENTS, Keys

        names = {k.value.rsplit("+", 1)[-1] for k in Keys}
        names |= set(FUNCTIONAL_KEYS.values()) | set(KEY_NAME_REPLACEMENTS.values())
        _KEY_NAMES = {n for n in names if n and not n.startswith("<") and n not in ("return", "ctrl-at")}
    return _KEY_NAMES


def _is_key(base: str) -> bool:
    from textual.keys import key_to_character

    if len(base) == 1:  # a character: "r", "R", "?", "+"
        return base.isprintable() and not base.isspace()
    return base in _key_names() or (base.islower() and key_to_character(base) is not None)


def key_name_problem(name: str) -> str | None:
    """Why ``name`` is not a key Textual can send (None when it is one). Textual itself
    accepts any string in a keymap, and a binding to a misspelt name never fires
    (Textualize/textual#5119: keymap and bindings are not validated)."""
    if len(name) == 1:
        return None if _is_key(name) else f"{name!r} is not a key"
    *mods, base = name.split("+")
    if name.endswith("++"):  # "ctrl++": the + key with ctrl
        mods, base = name[:-2].split("+"), "+"
    bad = [m for m in mods if m not in MODIFIERS]
    if len(set(mods)) != len(mods):
        return f"{name!r} names a modifier twice"
    if bad or not base or not _is_key(base):
        fixed = [_ALIASES.get(m.lower(), m.lower()) for m in mods]
        fixed.append(_ALIASES.get(base.lower(), base if len(base) == 1 else base.lower()))
        guess = "+".join(fixed)
        if all(m in MODIFIERS for m in fixed[:-1]) and fixed[-1] and _is_key(fixed[-1]) \
                and guess != name:
            hint = f" (did you mean {guess!r}?)"
        else:
            import difflib

            close = difflib.get_close_matches(base.lower(), sorted(_key_names()), n=1)
            hint = f" (did you mean {'+'.join([*mods, close[0]])!r}?)" if close and not bad else \
                f" (modifiers: {', '.join(MODIFIERS)})" if bad else ""
        return f"{name!r} is not a key name{hint}"
    return None


def check_keymap(keymap: Mapping[str, Any], path: Path,
                 text: str | None) -> tuple[dict[str, str], list[str]]:
    """The usable part of ``keymap`` and a ``path:line:col: message`` per problem: an id
    no binding has, an empty key, a key name Textual cannot send. Linear in the size of
    the keymap and of the file (the file is scanned once for every problem's place)."""
    from .saves.errors import key_positions

    known = all_bindings()
    by_action: dict[str, list[str]] = {}
    for k in known:
        by_action.setdefault(k.split(".")[-1], []).append(k)
    positions = key_positions(text) if text is not None else {}
    good: dict[str, str] = {}
    problems: list[str] = []

    def problem(binding_id: str, message: str) -> None:
        # (as str(SaveError(path, line, col, str(ValidationError(...)))) says it, without
        # building both for each of thousands of ids)
        line, col = positions.get(("keymap", binding_id)) or positions.get(("keymap",)) or (1, 1)
        problems.append(f"{path}:{line}:{col}: keymap.{binding_id}: {message}")

    for binding_id, keys in keymap.items():
        if binding_id not in known:
            close = sorted(by_action.get(binding_id.split(".")[-1], ()))
            hint = f" (did you mean {', '.join(close[:3])}?)" if close else " (? lists the ids)"
            problem(binding_id, f"no key binding has the id {binding_id!r}{hint}")
            continue
        names = [k.strip() for k in str(keys).split(",")]
        if not keys or not all(names):
            problem(binding_id, "expected one key or several, comma-separated (e.g. \"space\" "
                                "or \"n,ctrl+n\")")
            continue
        wrong = [p for p in map(key_name_problem, names) if p]
        if wrong:
            problem(binding_id, f"{'; '.join(wrong)}: the binding keeps its own key")
            continue
        good[binding_id] = ",".join(names)
    return good, problems


def theme_problem(theme: str, themes: Iterable[str], path: Path, text: str | None) -> str | None:
    """``path:line:col: message`` when the config names a theme Textual does not have
    (the default theme is used then)."""
    from .saves.errors import SaveError, key_positions

    known = sorted(set(themes))
    if theme in known:
        return None
    import difflib

    close = difflib.get_close_matches(theme, known, n=1)
    hint = f"did you mean {close[0]!r}?" if close else f"themes: {', '.join(known)}"
    line, col = (key_positions(text).get(("theme",)) if text is not None else None) or (1, 1)
    return str(SaveError(path, line, col,
                         f"theme: no theme is called {theme!r} ({hint}); the default theme is used"))


def config_problems(config: Any, path: Path, text: str | None,
                    themes: Iterable[str]) -> tuple[dict[str, str], list[str]]:
    """What the app says of a config the codec loaded (``saves.config.Config``): the
    keymap it can apply, and a ``path:line:col: message`` per id, key or theme it cannot
    use. The app and ``munda-tui check`` both ask this."""
    good, problems = check_keymap(config.keymap, path, text) if config.keymap else ({}, [])
    theme = theme_problem(config.theme, themes, path, text)
    return good, ([theme] if theme else []) + problems


def keep_declared_order() -> None:
    """Keys remapped by the keymap keep their binding's place among the others.

    Textual's ``BindingsMap.apply_keymap`` removes a remapped binding's keys and adds its
    new keys at the end of the map: the footer (which shows the keys in the map's order
    and cuts those that do not fit) and ``?`` then put a remapped key last
    (``"campaign.new_battle" = "n,ctrl+n"`` dropped "n New battle" off the campaign's
    footer at 100 columns). Wrapped once: after Textual's own, the map is put back in the
    order the bindings had before, a binding's keys in the keymap's order (the first key
    of a binding with several is the one the footer and the help show)."""
    from textual.binding import BindingsMap

    apply = BindingsMap.apply_keymap
    if getattr(apply, "_keeps_order", False):
        return

    def apply_keymap(self: BindingsMap, keymap: Any) -> Any:
        place: dict[str, int] = {}
        for n, (key, bindings) in enumerate(self.key_to_bindings.items()):
            for b in bindings:
                place.setdefault(b.id or f"key:{key}", n)
        result = apply(self, keymap)
        last = len(place)
        items = list(self.key_to_bindings.items())
        items.sort(key=lambda item: min((place.get(b.id or f"key:{item[0]}", last)
                                          for b in item[1]), default=last))
        self.key_to_bindings.clear()
        self.key_to_bindings.update(items)
        return result

    apply_keymap._keeps_order = True  # type: ignore[attr-defined]
    BindingsMap.apply_keymap = apply_keymap  # type: ignore[method-assign]
