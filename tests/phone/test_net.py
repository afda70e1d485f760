"""Where the hand server listens: ADDR[:PORT] parsing and the LAN address's fallback."""

from __future__ import annotations

import re
import socket

import pytest

from munda_tui.phone import net
from munda_tui.phone.net import BindError, default_host, parse_bind


@pytest.mark.parametrize("text,want", [
    ("192.168.1.20", ("192.168.1.20", 8765)),
    (" 192.168.1.20:8800 ", ("192.168.1.20", 8800)),
    ("127.0.0.1:0", ("127.0.0.1", 0)),
    ("0.0.0.0", ("0.0.0.0", 8765)),
    ("::1", ("::1", 8765)),
    ("[::1]:9000", ("::1", 9000)),
    ("[fe80::1]", ("fe80::1", 8765)),
])
def test_addresses_and_ports(text: str, want: tuple[str, int]) -> None:
    assert parse_bind(text) == want


@pytest.mark.parametrize("text,message", [
    ("", "Type the address"),
    ("my-laptop", "is not an IP address"),
    ("192.168.1.300", "is not an IP address"),
    ("192.168.1.20:http", "is not a port"),
    ("192.168.1.20:70000", "is not a port"),
    ("[::1]9000", "write an IPv6 address as [addr]:port"),
])
def test_bad_addresses_say_why(text: str, message: str) -> None:
    with pytest.raises(BindError, match=re.escape(message)):
        parse_bind(text)


def test_the_environment_overrides_the_lan_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUNDA_TUI_PHONE_BIND", "127.0.0.1")
    assert default_host() == "127.0.0.1"


def test_no_network_falls_back_to_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    class NoRoute:
        def __init__(self, *a: object) -> None:
            pass

        def __enter__(self) -> "NoRoute":
            return self

        def __exit__(self, *a: object) -> None:
            pass

        def connect(self, address: object) -> None:
            raise OSError("Network is unreachable")

    monkeypatch.setattr(net.socket, "socket", NoRoute)
    assert net.lan_address() == "127.0.0.1"
    assert socket.socket is NoRoute  # (the module's own socket, restored after the test)
