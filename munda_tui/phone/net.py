"""Where the hand server listens: the laptop's LAN address by default.

:func:`lan_address` asks the operating system which local address it would use for the
local network: a UDP socket is *connected* (which sends nothing at all, it only picks a
route) to a documentation address and its own address is read back. No packet leaves
the machine. ``MUNDA_TUI_PHONE_BIND`` overrides the default (tests use 127.0.0.1).
"""

from __future__ import annotations

import ipaddress
import os
import socket

DEFAULT_PORT = 8765
_PROBE = ("192.0.2.1", 9)  # TEST-NET-1: never routed anywhere; nothing is sent to it


def lan_address() -> str:
    """This machine's address on the local network, or 127.0.0.1 when it has none."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(_PROBE)  # UDP connect: no packet is sent
            address = s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    return address if address and address != "0.0.0.0" else "127.0.0.1"


def default_host() -> str:
    return os.environ.get("MUNDA_TUI_PHONE_BIND", "").strip() or lan_address()


class BindError(ValueError):
    """Not an address to listen on (a player-readable message)."""


def parse_bind(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``"192.168.1.20"``, ``"192.168.1.20:8800"``, ``"[::1]:8800"``, ``"::1"`` ->
    (host, port). BindError with a clear message otherwise."""
    text = text.strip()
    if not text:
        raise BindError("Type the address to serve on, e.g. 192.168.1.20 or 192.168.1.20:8765.")
    host, port_text = text, ""
    if text.startswith("["):
        host, _, rest = text[1:].partition("]")
        if rest and not rest.startswith(":"):
            raise BindError(f"{text!r}: write an IPv6 address as [addr]:port.")
        port_text = rest[1:]
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        raise BindError(f"{host!r} is not an IP address of this machine "
                        "(e.g. 192.168.1.20; 0.0.0.0 means every address).") from None
    port = default_port
    if port_text:
        if not port_text.isdigit() or not 0 <= int(port_text) <= 65535:
            raise BindError(f"{port_text!r} is not a port (0 to 65535; 0 picks a free one).")
        port = int(port_text)
    return str(ip), port
