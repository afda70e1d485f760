"""The tracker's side of the phone hands: where to serve, and each player's link behind
their own privacy curtain (as text and as a QR code drawn in the terminal).

- ``bind_dialog(default)``: the address (and port) to serve on, the laptop's LAN address
  filled in (the dialog kit's ``LineScreen``). Dismisses with the text or None.
- ``LinkScreen(gang_name, player, url)``: one player's link and its QR code, on an opaque
  screen; push it after the player's ``PrivacyCurtain`` (the tracker's ``_show_links``
  walks each player so, in a worker). Without the
  optional QR encoder it shows the link and how to install the encoder.
- ``PhoneLink``: the server of one open battle (start, publish each change, stop).
- ``PhoneKeys``: the tracker's ``m`` and ``M`` keys (a part of the battle screen).

The server itself is :mod:`munda_tui.phone`; the hands it shows are
:mod:`munda_tui.rules.battle.hand_view`. Nothing here shows a secret on the shared screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping

from textual import work

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from munda_tui.widgets.plain import Label, Static

from munda_tui.phone import (
    Limits, PhoneServer, PhoneServerError, QrUnavailable, default_host, parse_bind, qr_lines,
)
from munda_tui.phone.net import DEFAULT_PORT, BindError
from munda_tui.rules.battle.hand_view import HandView
from munda_tui.screens.common.dialogs import DIALOG_CSS, DialogScreen, ErrorScreen, LineScreen
from munda_tui.widgets.curtain import PrivacyCurtain
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import keys_text


def bind_dialog(default: str) -> LineScreen:
    """The kit's type-a-line dialog asking the address (and port) to serve on, ``default``
    (the laptop's LAN address) filled in; an address ``parse_bind`` refuses is said in
    the dialog. Dismisses with the text (``parse_bind`` gives (host, port)) or None."""

    def problem(text: str) -> str | None:
        try:
            parse_bind(text)
        except BindError as error:
            return str(error)
        return None

    return LineScreen(
        "Each player's hand on their own phone",
        detail="Serves only the two hand pages, each at its own secret link, to phones on "
               "this network (the same Wi-Fi). Address to serve on (this laptop's; :port "
               f"optional, {DEFAULT_PORT} by default, 0 picks a free one):",
        value=default,
        check=problem,
        allow_empty=True,  # parse_bind says what an empty address lacks
        hint="Enter to serve, {key:line.cancel} to cancel · {key:battle.phones} on the tracker stops it",
    )


def qr_text(url: str) -> Text | None:
    """The link's QR code, painted white on black (light modules are the glyphs)."""
    try:
        lines = qr_lines(url)
    except QrUnavailable:
        return None
    return Text("\n".join(lines), style="#ffffff on #000000", no_wrap=True)


class LinkScreen(DialogScreen[None]):
    CSS_PATH = [DIALOG_CSS, "modals.tcss"]  # the kit's frame; its own sizes
    BINDINGS = [Binding("escape,enter", "hide", "Hide the link", priority=True, id="link.hide")]

    def __init__(self, gang_name: str, player: str, url: str) -> None:
        super().__init__(opaque=True)  # behind its owner's curtain
        self.gang_name = gang_name
        self.player = player
        self.url = url

    def compose(self) -> ComposeResult:
        who = f" ({self.player})" if self.player else ""
        with Vertical(id="dialog", classes="phone-link"):
            yield Label(f"Phone link of {self.gang_name}{who}: only you are looking",
                        id="dialog-title")
            code = qr_text(self.url)
            if code is not None:
                yield Static(code, id="link-qr")
                hint = "Scan it with your phone's camera, or type the link:"
            else:
                from munda_tui.phone import INSTALL_HINT

                hint = (f"No QR code: its encoder is not installed ({INSTALL_HINT}). "
                        "Type the link into your phone's browser:")
            yield Static(hint, classes="hint", markup=False)
            yield Static(self.url, id="link-url", markup=False)
        yield Footer()

    def action_hide(self) -> None:
        self.dismiss(None)


class PhoneLink:
    """The hand server of one open battle."""

    limits: Limits | None = None  # the server's defaults (tests make the waits short)

    def __init__(self) -> None:
        self.server: PhoneServer | None = None

    @property
    def running(self) -> bool:
        return self.server is not None and self.server.running

    @property
    def address(self) -> str:
        if self.server is None:
            return ""
        host, port = self.server.address
        return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"

    @property
    def links(self) -> dict[str, str]:
        return self.server.links if self.server is not None else {}

    def start(self, host: str, port: int, views: Mapping[str, HandView]) -> None:
        """PhoneServerError (a clear message) if it cannot serve there."""
        self.stop()
        server = PhoneServer(host, port, self.limits)
        server.start(views)
        self.server = server

    def publish(self, views: Mapping[str, HandView]) -> None:
        if self.running:
            assert self.server is not None
            self.server.publish(views)

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None


class PhoneKeys:
    """The tracker's ``m`` and ``M`` (a part of the battle screen): serve each player's hand
    on their phone, the address asked first, then each player in turn sees their own link
    behind their curtain; ``m`` again, or leaving the battle, stops it."""

    phones: PhoneLink
    if TYPE_CHECKING:  # the battle screen's
        from munda_tui.rules.battle.flow import BattleFlow

        flow: BattleFlow
        gangs: list[str]
        app: Any

        @property
        def side_gang(self) -> str: ...

        def message(self, text: str) -> None: ...
        def refresh_view(self) -> None: ...
        async def ask(self, screen: Any) -> Any: ...

    @work(group="dialog")
    async def action_phones(self) -> None:
        if self.phones.running:
            self.phones.stop()
            self.message("Phones: stopped; the links no longer work.")
            self.refresh_view()
            return
        address = await self.ask(bind_dialog(f"{default_host()}:{DEFAULT_PORT}"))
        if address is None:
            self.message("Phones: not started.")
            return
        host, port = parse_bind(address)  # the dialog accepted it
        try:
            self.phones.start(host, port, self.flow.phone_views())
        except PhoneServerError as error:
            self.app.push_screen(ErrorScreen("The phone links could not be served", str(error)))
            return
        self.refresh_view()
        await self._show_links([g for g in self.gangs if self.flow.hands.get(g)])

    async def _show_links(self, gangs: list[str]) -> None:
        """Each player in turn: their curtain, then their link and its QR code (a player
        who leaves the curtain with Esc is skipped). From a worker."""
        for gang in gangs:
            if not self.phones.running:
                return
            name, player = self.flow.side_name(gang), self.flow.player(gang)
            if await self.ask(PrivacyCurtain(player or name, f"to see the phone link of {name}")):
                await self.ask(LinkScreen(name, player, self.phones.links.get(gang, "")))
        if self.phones.running:
            self.message(keys_text(self.app, f"Phones: serving the hands on {self.phones.address} "
                                       "({key:battle.phones} stops, {key:battle.phone_link} shows "
                                       "a link again)."))

    @work(group="dialog")
    async def action_phone_link(self) -> None:
        if not self.phones.running:
            self.message("Phones are not served: m serves each player's hand on their phone.")
        elif not self.flow.hands.get(self.side_gang):
            self.message(f"{self.flow.side_name(self.side_gang)} hold no Sub-plots.")
        else:
            await self._show_links([self.side_gang])

    def on_unmount(self) -> None:
        self.phones.stop()  # leaving the battle stops the phones


__all__ = ["bind_dialog", "LinkScreen", "PhoneKeys", "PhoneLink", "PhoneServerError", "qr_text"]
