"""Keys read in one burst act in order, each on the screen it was meant for.

Why this exists: Textual hands a key to the screen on top the moment it is read (Textual
issue #6605). A key that opens a screen and the next key typed right after it, read in
one burst (a player typing ahead, or a loaded laptop reading three keys at once), are
dispatched before the new screen is mounted or before the first key's effects (a
table's ``RowSelected`` that opens a campaign) have been handled: the second key's action
found none of the new screen's widgets and ended the app, or reached the old screen's
bindings and was lost. :class:`KeyOrderApp` holds such a key and gives it back to the
app, in order, once the screen on top is set up and the key before it has had all its
effects (after 2 s it goes anyway).

What would let it go: a Textual that queues keys behind a pending screen change and
behind the messages an earlier key set off (the fix of #6605). Then ``MundaApp`` derives
from ``App`` again and this module is deleted with ``tests/screens/test_bursts.py``
still passing.

It is built on Textual's private names, listed in ``PRIVATE_NAMES`` and checked against
the installed Textual by ``tests/test_textual_private.py`` (the pin in pyproject.toml
allows only the minor versions where they were read). The other private names munda-tui
uses are listed there too: ``MundaApp``'s crash file and notices (methods it overrides),
``munda_tui.screen_css`` and ``munda_tui.textual_private`` (every other use: no other
module reaches one, the test scans the package). ``tests/screens/test_bursts.py``'s
``test_the_key_order_workaround_keeps_a_burst_in_order`` runs a burst with this
workaround switched off (``KeyOrderApp.HOLD_KEYS``) and fails loudly when a Textual
upgrade breaks the workaround, or makes it needless.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from functools import partial

from textual import events
from textual.app import App
from textual.message_pump import MessagePump
from textual.screen import Screen

#: the private parts of Textual this module (and MundaApp) relies on: (class, attribute)
PRIVATE_NAMES: tuple[tuple[str, str], ...] = (
    ("textual.screen.Screen", "_mounted_event"),           # is the screen set up yet
    ("textual.message_pump.MessagePump", "_message_queue"),  # has a node work pending
    ("textual.app.App", "_screen_stack"),                  # the stack, without its checks
    ("textual.app.App", "_replace_screen"),                # a screen taken down
    ("textual.app.App", "_on_key"),                        # a key back for the bindings
    ("textual.app.App", "_handle_exception"),              # munda_tui.crash's crash file
    ("textual.app.App", "_print_error_renderables"),       # ... and its short note
    ("textual.app.App", "_exit_renderables"),              # ... printed instead of them
    ("textual.app.App", "_exception"),                     # ... about this error
    ("textual.screen.Screen", "_push_result_callback"),    # the bottom campaign screen (textual_private)
    # munda_tui.screen_css: a screen's CSS loaded without parsing all the others again
    ("textual.app.App", "_load_screen_css"),
    ("textual.css.stylesheet.Stylesheet", "_parse_cache"),
    ("textual.css.stylesheet.Stylesheet", "_variables"),
    ("textual.css.stylesheet.Stylesheet", "_invalid_css"),
    ("textual.css.stylesheet.Stylesheet", "_rules"),
    ("textual.css.stylesheet.Stylesheet", "_rules_map"),
    ("textual.css.stylesheet.Stylesheet", "_require_parse"),
    ("textual.dom.DOMNode", "_css_type_name"),
    ("textual.dom.DOMNode", "_selector_names"),
    ("textual.dom.DOMNode", "_get_component_classes"),
    ("textual.dom.DOMNode", "_css_bases"),
    # MundaApp's notices go at the player's next key
    ("textual.app.App", "_notifications"),
    ("textual.app.App", "_unnotify"),
    ("textual.app.App", "_refresh_notifications"),
    # munda_tui.textual_private: a node's own bindings, the footer's and header's parts
    ("textual.dom.DOMNode", "_bindings"),
    ("textual.binding.BindingsMap", "_add_binding"),
    ("textual.widgets._footer", "FooterKey"),
    ("textual.widgets._footer", "FooterLabel"),
    ("textual.widgets._footer", "KeyGroup"),
    ("textual.widgets._header", "HeaderTitle"),
)


class KeyOrderApp(App[None]):
    """An App whose keys in a burst wait for the screen they reach (see the module)."""

    #: the workaround in force (False: Textual's own order, for the test that proves the
    #: workaround is still what keeps a burst in order)
    HOLD_KEYS: bool = True

    def __init__(self) -> None:
        super().__init__()
        # keys read while the screen they go to was still setting itself up, in order
        # (see _hold_key); those given back to the app, and when the first was held
        self._held_keys: deque[events.Key] = deque()
        self._released_keys: set[events.Key] = set()
        self._held_since = 0.0
        self._release_pending = False
        self._release_token = 0  # (each wait for a release has its own: see _release_key)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and self.HOLD_KEYS \
                and self._hold_key(event):
            return
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        # A key no widget took comes back here for the screen's and the app's bindings:
        # by then the screen on top may be one just opened by an earlier key and not yet
        # set up (its action would find none of its widgets). It waits for it, first.
        if self.HOLD_KEYS and not self._screen_ready():
            event.prevent_default()  # (not Textual's App._on_key, now)
            if not self._held_keys:
                self._held_since = time.monotonic()
            self._held_keys.appendleft(events.Key(event.key, event.character))
            self._release_when_ready()

    def _screen_ready(self) -> bool:
        """Whether the screen on top is set up for a key: mounted, and not changing its
        own body (a screen sets ``settling`` while it swaps a part a key would reach,
        as the pre-battle flow does between two steps)."""
        if not self._screen_stack:
            return False
        screen = self.screen
        return screen._mounted_event.is_set() and not getattr(screen, "settling", False)

    def _hold_key(self, key: events.Key) -> bool:
        """Whether ``key`` waits: a key for a screen still setting itself up (a key that
        opens a screen and the next one, read in one burst: the next one's action found
        none of the new screen's widgets and ended the app), a key read while the one
        before it is still on its way (see :meth:`_busy`), or behind such a key. Held
        keys go to the app again, in order, each once the screen on top is set up and
        the key before it has had all its effects."""
        released = key in self._released_keys
        if released:
            self._released_keys.discard(key)
        ready = self._screen_ready()
        if released:
            if ready:
                return False
            self._held_keys.appendleft(key)  # (still first: the screen changed again)
        elif self._held_keys or not ready or self._busy():
            if not self._held_keys:
                self._held_since = time.monotonic()
            self._held_keys.append(key)
        else:
            return False
        self._release_when_ready()
        return True

    def _busy(self) -> list[MessagePump]:
        """The app and the nodes of the screen on top that have messages still to handle.

        A key read by the app goes to the focused widget, bubbles up to the screen and
        back to the app (where its binding runs), and what it does may be one more
        message (Enter on a table: RowSelected, whose handler opens a campaign). The
        next key of a burst, read meanwhile, reached its binding before that: it found
        the list of campaigns still on top and was lost (Escape, Enter, r: no roster).
        A key waits until none of these queues has anything left."""
        nodes: list[MessagePump] = [self]
        if self._screen_stack:
            nodes.extend(self.screen.walk_children(with_self=True))
        return [node for node in nodes if not node._message_queue.empty()]

    def _release_when_ready(self) -> None:
        """Release the first held key as soon as the screen on top is set up (checked
        every 5 ms) and every queue :meth:`_busy` names has handled what it held (a
        callback queued behind it in each: no polling); after 2 s it goes anyway."""
        if self._release_pending or not self._held_keys:
            return
        self._release_pending = True
        self._release_token += 1
        token = self._release_token
        late = time.monotonic() - self._held_since >= 2
        busy = [] if late or not self._screen_ready() else self._busy()
        if not busy:
            # (never set_timer(0): in Textual 8.2 such a timer's task ends on a
            # ZeroDivisionError and never calls back, Textual issue #6370; the held keys
            # then waited for ever)
            if late or self._screen_ready():
                self.call_later(partial(self._release_key, token))
            else:
                self.set_timer(0.005, partial(self._release_key, token))
            return
        left = [len(busy)]

        def drained() -> None:
            left[0] -= 1
            if left[0] == 0:
                self._release_key(token)

        for node in busy:
            if not node.call_later(drained):  # (closing: nothing more comes from it)
                left[0] -= 1
        if left[0] == 0:
            self.call_later(partial(self._release_key, token))
        else:  # (a node taken down before it gets to the callback: after 2 s anyway)
            self.set_timer(2, partial(self._release_key, token))

    def _release_key(self, token: int) -> None:
        if token != self._release_token:
            return  # (released already by the other way of the same wait)
        self._release_pending = False
        if not self._held_keys:
            return
        late = time.monotonic() - self._held_since >= 2
        if not late and (not self._screen_ready() or self._busy()):
            self._release_when_ready()  # (a screen never set up gets its keys after 2 s anyway)
            return
        held = self._held_keys.popleft()
        key = events.Key(held.key, held.character)
        # from the app, as a key read from the terminal is: a message's sender is the
        # pump it was made in, and a key stops bubbling at its sender (this runs in the
        # last queue it waited for: a screen's, whose bindings then never saw the key)
        key.set_sender(self)
        self._released_keys.add(key)
        self._held_since = time.monotonic()
        self.post_message(key)
        self._release_when_ready()  # (the next once this one has had its effects)

    async def _replace_screen(self, screen: Screen) -> Screen:
        # A screen left before its own set-up ran (a key that opens it and one that leaves
        # it, read in one burst) is taken down once that set-up is done: its on_mount,
        # run on a screen already taken down, found none of its widgets and ended the app.
        if self.HOLD_KEYS and screen.is_running and not screen._mounted_event.is_set():
            try:
                await asyncio.wait_for(screen._mounted_event.wait(), timeout=2)
            except asyncio.TimeoutError:  # pragma: no cover - never seen: taken down anyway
                pass
        return await super()._replace_screen(screen)
