"""Textual's Footer, rebuilt only when what it shows changes.

Textual's ``Footer`` recomposes all its keys whenever a screen's bindings may have
changed (a focus change, a modal closing, ``refresh_bindings``), and each new key
then restyles itself once or twice as its ``compact`` reactive settles (a class
added and removed: a full CSS pass per key). With the tracker's footer that was a
third of the CPU of opening a battle, and a post-battle step, which refreshes its
bindings, rebuilt the footer every time.

This one looks and behaves the same (same widgets, classes and CSS, the same keys
in the same order, the command palette key on the right), but:

* it recomposes only when the keys it would show differ from those it shows (key,
  label, description, enabled, tooltip, group),
* when only the keys change (no key group before or after, the same compactness) it
  updates the keys it has in place (hiding those left over, for the next time there
  are more), at once, in the same frame as the change that
  caused it (a post-battle step changing its keys cost a second layout of the whole
  screen and a rebuild of every key, ~40% of the step), and
* each key is built with its final ``compact`` value and class, so mounting it costs
  no restyle (and no data binding to the footer: a change of ``compact`` recomposes).
  As in Textual, the command palette's key is always compact.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import groupby
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Footer as TextualFooter

from munda_tui.textual_private import FooterKey, FooterLabel, KeyGroup, bindings_of

if TYPE_CHECKING:
    from textual.screen import Screen

__all__ = ["Footer"]


class Footer(TextualFooter):
    """A Footer that rebuilds its keys only when they change (see the module)."""

    # Textual's compact footer gives every key a right margin, the palette key too: docked
    # right it then ends one cell short of the edge, and keys too many for the width show
    # through that last cell ("^p palettee" in the tracker at 80 columns).
    DEFAULT_CSS = """
    Footer.-compact FooterKey.-command-palette {
        margin-right: 0;
    }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple[Any, ...] | None = None

    def _groups(self) -> tuple[list[list[tuple[Binding, bool, str]]], Any]:
        """The shown bindings grouped by action (Textual's order), and the command
        palette's (binding, enabled) or None."""
        active_bindings = self.screen.active_bindings
        by_action: defaultdict[str, list[tuple[Binding, bool, str]]] = defaultdict(list)
        for _node, binding, enabled, tooltip in active_bindings.values():
            if binding.show:
                by_action[binding.action].append((binding, enabled, tooltip))
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            found = active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                palette = (found[1], found[2])
        groups = list(by_action.values())
        help_ = self._help_key(by_action)
        if help_ is not None:
            # the help key is never cut off: on a dialog (whose footer leaves out the app's
            # keys) it is added, and when the keys are too many for the width it goes first
            groups = [g for g in groups if g is not help_]
            width = self.app.size.width - (13 if palette is not None else 0)
            wide = sum(len(self.app.get_key_display(g[0][0])) + len(g[0][0].description) + 3
                       for g in groups + [help_])
            # More: the keys too many for the width, or keys the screen needs that its
            # footer never shows (``more_keys_wanted``: the post-battle report's scrolling)
            wanted = getattr(self.screen, "more_keys_wanted", None)
            overflow = wide > width or (wanted is not None and wanted())
            more = self._more_key() if overflow else None
            if more is not None:  # what Escape does stays in view, after More
                back = [g for g in groups if any(b.key == "escape" for b, _e, _t in g)]
                groups = back + [g for g in groups if g not in back]
            groups = [help_] + ([more] if more else []) + groups if overflow \
                else groups + [help_]
        return groups, palette

    def _more_key(self) -> list[tuple[Binding, bool, str]] | None:
        """The app's overflow key (``.`` More: the keys the footer has no room for), shown
        after the help key when the keys are too many for the width."""
        app = self.app
        for _key, binding in bindings_of(app):
            if binding.action == "more_keys" and app.check_action(binding.action, ()):
                return [(binding, True, binding.tooltip)]
        return None

    HELP_ACTIONS = ("help", "help_in_field")

    def _help_key(self, by_action: dict[str, list[tuple[Binding, bool, str]]]
                  ) -> list[tuple[Binding, bool, str]] | None:
        """The app's help key in force (``?``, or F1 in a text field), as a key group."""
        for action in self.HELP_ACTIONS:
            if action in by_action:
                return by_action[action]
        app = self.app
        for _key, binding in bindings_of(app):
            if binding.action in self.HELP_ACTIONS and binding.show and \
                    app.check_action(binding.action, ()):
                return [(binding, True, binding.tooltip)]
        return None

    def _signature(self, shown: tuple[list[list[tuple[Binding, bool, str]]], Any] | None = None
                   ) -> tuple[Any, ...]:
        """Everything the keys show (``shown``: :meth:`_groups`, when already asked):
        equal signatures, equal footers."""
        groups, palette = self._groups() if shown is None else shown
        display = self.app.get_key_display
        keys = tuple(
            (b.key, display(b), b.description, b.action, enabled, tooltip, b.tooltip,
             None if b.group is None else (b.group.description, b.group.compact))
            for group in groups for b, enabled, tooltip in group
        )
        pal = None if palette is None else (
            palette[0].key, display(palette[0]), palette[0].description, palette[0].action,
            palette[1], palette[0].tooltip)
        return (self.compact, keys, pal)

    def _key(self, binding: Binding, description: str, enabled: bool, tooltip: str,
             classes: str = "", compact: bool | None = None) -> FooterKey:
        compact = self.compact if compact is None else compact
        key = FooterKey(
            binding.key,
            self.app.get_key_display(binding),
            description,
            binding.action,
            disabled=not enabled,
            tooltip=tooltip,
            classes=f"{classes} -compact" if compact else classes,
        )
        key.set_reactive(FooterKey.compact, compact)  # its watcher then changes nothing
        return key

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        shown = self._groups()
        self._shown = self._signature(shown)
        groups, palette = shown
        self.styles.grid_size_columns = len(groups)
        for group, multi_bindings_iterable in groupby(groups, lambda multi: multi[0][0].group):
            multi_bindings = list(multi_bindings_iterable)
            if group is not None and len(multi_bindings) > 1:
                with KeyGroup(classes="-compact" if group.compact else ""):
                    for multi in multi_bindings:
                        binding, enabled, tooltip = multi[0]
                        yield self._key(binding, "", enabled, tooltip or binding.description,
                                        classes="-grouped")
                yield FooterLabel(group.description)
            else:
                for multi in multi_bindings:
                    binding, enabled, tooltip = multi[0]
                    yield self._key(binding, binding.description, enabled, tooltip)
        if palette is not None:
            binding, enabled = palette
            # not bound to the footer's compact in Textual either: always compact
            yield self._key(binding, binding.description, enabled,
                            binding.tooltip or binding.description, classes="-command-palette",
                            compact=True)

    def on_mount(self) -> None:
        # Textual's Footer.on_mount (called after this one) subscribes to be told by a
        # message; this one is told in the handler that changed the bindings, so that the
        # keys change in the same frame as what changed them
        self.call_next(self._told_at_once)

    def _told_at_once(self) -> None:
        if self.is_attached:
            signal = self.screen.bindings_updated_signal
            signal.unsubscribe(self)
            signal.subscribe(self, self.bindings_changed, immediate=True)

    def watch_compact(self, compact: bool) -> None:
        if self._shown is not None and self._shown[0] != compact and self.is_attached:
            self.call_after_refresh(self.recompose)

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen:
            if self._shown is not None and self.is_mounted and self._update_in_place():
                return
            self.call_after_refresh(self._recompose_if_changed)

    def _update_in_place(self) -> bool:
        """Show the keys now in force by changing the keys shown (and adding or removing
        some at the end); False when that cannot be done (a key group, a change of
        compactness): then the footer is rebuilt after the next frame, as before."""
        shown = self._groups()  # (every binding's check_action: asked once per change)
        signature = self._signature(shown)
        if signature == self._shown:
            return True
        groups, palette = shown
        if any(group[0][0].group is not None for group in groups) or \
                signature[0] != self._shown[0]:  # type: ignore[index]
            return False  # keys in a group (compose may put them in a KeyGroup): rebuilt
        keys: list[FooterKey] = []
        palette_key: FooterKey | None = None
        for child in self.children:
            if not isinstance(child, FooterKey) or "-grouped" in child.classes:
                return False  # a key group or its label: rebuilt
            if child.has_class("-command-palette"):
                palette_key = child
            elif not child._closing:
                keys.append(child)
        if (palette is None) != (palette_key is None):
            return False
        self._shown = signature
        self.styles.grid_size_columns = len(groups)
        wanted = [group[0] for group in groups]
        for key, (binding, enabled, tooltip) in zip(keys, wanted):
            self._change(key, binding, binding.description, enabled, tooltip)
            key.display = True
        for key in keys[len(wanted):]:  # kept hidden for the next time there are more
            key.display = False
        if len(wanted) > len(keys):
            new = [self._key(binding, binding.description, enabled, tooltip)
                   for binding, enabled, tooltip in wanted[len(keys):]]
            self.mount(*new, before=palette_key) if palette_key is not None else self.mount(*new)
        if palette is not None and palette_key is not None:
            binding, enabled = palette
            self._change(palette_key, binding, binding.description, enabled,
                         binding.tooltip or binding.description)
        return True

    def _change(self, key: FooterKey, binding: Binding, description: str, enabled: bool,
                tooltip: str) -> None:
        """Make a shown key show ``binding`` (what :meth:`_key` would have built)."""
        display = self.app.get_key_display(binding)
        text_changed = (key.key_display, key.description) != (display, description)
        key.key, key.action = binding.key, binding.action
        if key._disabled == enabled:  # disabled now and enabled wanted, or the reverse
            key._disabled = not enabled
            key.set_class(not enabled, "-disabled")  # (restyled and repainted)
        if (key.tooltip or "") != (tooltip or ""):
            key.tooltip = tooltip or None
        if text_changed:  # an unchanged key is not repainted
            key.key_display, key.description = display, description
            key.refresh(layout=True)

    async def _recompose_if_changed(self) -> None:
        if not self.is_attached:
            return
        if self._shown is not None and self._signature() == self._shown:
            return
        await self.recompose()
