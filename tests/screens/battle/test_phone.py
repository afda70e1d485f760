"""The tracker's phone key (m): serve on 127.0.0.1, each link behind its player's curtain,
pages that follow the tracker (in real headless Chromium too), 404s that leave the
tracker responsive, m again (or leaving the battle) stops it."""

from __future__ import annotations

import re
import socket
import threading

import pytest
from textual.app import App

from munda_tui.screens.battle.phone import LinkScreen, bind_dialog
from munda_tui.screens.common.dialogs import LineScreen

from phone_support import SIZE, G, V, get, make_battle, open_battle, request, status_and_body
from phone_support import screen_text as _text

HANDS = {V: ["escher:2", "delaque:10"], G: ["goliath:5"]}
THREE_DOWN_KEYS = ["n", "right", "down", "down", "down", "down", "s", "enter",  # Thug Varro SI
                   "down", "o", "enter",  # Krug Ashenhide OOA
                   "down", "down", "s", "enter"]  # Zorn Blackslag SI


@pytest.fixture(autouse=True)
def loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MUNDA_TUI_PHONE_BIND", "127.0.0.1")  # never the LAN in tests


async def start_phones(pilot) -> dict[str, str]:  # type: ignore[no-untyped-def]
    """m, port 0 typed over the default, each player's curtain and link; the links."""
    app = pilot.app
    await pilot.press("m")
    assert isinstance(app.screen, LineScreen) and "own phone" in app.screen.title_text
    assert app.screen.query_one("Input").value == "127.0.0.1:8765"
    await pilot.press("end", "backspace", "backspace", "backspace", "backspace", "0", "enter")
    links = {}
    for gang, player in ((V, "Ana"), (G, "Ben")):
        await pilot.pause()
        assert f"Only {player} should look" in _text(app)
        assert "/h/" not in _text(app)  # nothing before the curtain is lifted
        await pilot.press("enter")
        assert isinstance(app.screen, LinkScreen)
        url = str(app.screen.query_one("#link-url").render())
        links[gang] = url
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/h/[A-Za-z0-9_-]{32}", url)
        assert "█" in str(app.screen.query_one("#link-qr").render())  # the QR code
        await pilot.press("enter")  # hide it
    await pilot.pause()
    return links


def port_and_path(url: str) -> tuple[int, str]:
    rest = url.split("//", 1)[1]
    hostport, path = rest.split("/", 1)
    return int(hostport.rsplit(":", 1)[1]), "/" + path


async def test_m_serves_each_hand_behind_curtains_and_m_again_stops(make_app, data_dir) -> None:  # type: ignore[no-untyped-def]
    make_battle(data_dir, HANDS, choices={V: {"delaque:10": "8"}})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        links = await start_phones(pilot)
        assert links[V] != links[G]
        shared = _text(app)
        assert "phones on 127.0.0.1:" in shared and "/h/" not in shared
        assert "Phones: serving the hands on 127.0.0.1:" in shared
        port, v_path = port_and_path(links[V])
        page = status_and_body(get(port, v_path))[2].decode()
        assert "Murder Run" in page and "Pit Fight" not in page
        assert "Secretly choose a number: 8" in page
        g_page = status_and_body(get(port, port_and_path(links[G])[1]))[2].decode()
        assert "Pit Fight" in g_page and "Murder Run" not in g_page

        await pilot.press(*THREE_DOWN_KEYS)  # Murder Run met on the tracker
        await pilot.pause()
        assert "Met: you may reveal it" in get(port, v_path).decode()
        assert "Met: you may reveal it" not in get(port, port_and_path(links[G])[1]).decode()

        await pilot.press("left", "M", "enter")  # Ana's link again, behind her curtain
        assert str(app.screen.query_one("#link-url").render()) == links[V]
        await pilot.press("enter")

        on_disk = "".join(p.read_text(encoding="utf-8") for p in data_dir.rglob("*.toml"))
        for url in links.values():  # the secrets are never written anywhere
            assert url.rsplit("/", 1)[1] not in on_disk

        await pilot.press("m")  # stops
        await pilot.pause()
        assert "Phones: stopped" in _text(app)
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()


async def test_wrong_secrets_get_404_and_the_tracker_stays_responsive(make_app, data_dir, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from munda_tui.phone import Limits
    from munda_tui.screens.battle.phone import PhoneLink

    monkeypatch.setattr(PhoneLink, "limits", Limits(miss_delay=0.01, max_delay=0.05))
    make_battle(data_dir, HANDS)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        links = await start_phones(pilot)
        port, v_path = port_and_path(links[V])
        answers: list[bytes] = []

        def burst() -> None:
            for i in range(40):
                path = ["/h/" + "A" * 32, "/", "/h/", "/favicon.ico", v_path + "x"][i % 5]
                answers.append(get(port, path))

        # a slow client that never finishes, an oversized request, many idle connections
        held = [socket.create_connection(("127.0.0.1", port), timeout=5) for _ in range(20)]
        held[0].sendall(b"GET /h/")
        huge = request(port, b"GET /h/x HTTP/1.1\r\nX: " + b"a" * 60_000 + b"\r\n\r\n")
        worker = threading.Thread(target=burst)
        worker.start()
        await pilot.press("n")  # the tracker goes on while all that comes in
        await pilot.pause()
        assert "Action phase" in _text(app)
        worker.join(30)
        for s in held:
            s.close()
        assert status_and_body(huge)[0] == 404 and status_and_body(huge)[2] == b""
        assert len(answers) == 40
        assert app.screen.phones.server.penalty("127.0.0.1") > 0  # slowed down
        for answer in answers:
            status, headers, body = status_and_body(answer)
            assert (status, headers.get("content-length"), body) == (404, "0", b"")
        await pilot.press("n")
        await pilot.pause()
        assert "End phase" in _text(app)
        # and the player's page is still served
        assert status_and_body(get(port, v_path))[0] == 200
        # leaving the battle stops the server
        await pilot.press("escape")
        await pilot.pause()
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()


async def test_an_address_that_is_not_this_machines_is_refused_clearly(make_app, data_dir) -> None:  # type: ignore[no-untyped-def]
    make_battle(data_dir, HANDS)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("m", "end", *["backspace"] * 14, *"laptop", "enter")
        assert "is not an IP address" in _text(app)
        await pilot.press("escape")
        assert "Phones: not started." in _text(app)


async def test_the_phone_page_follows_the_tracker_in_chromium(make_app, data_dir, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from chromium_support import WIDTH, Browser

    make_battle(data_dir, HANDS)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        links = await start_phones(pilot)
        with Browser(tmp_path) as browser:
            browser.open(links[V])
            browser.wait_text("Live: this page follows the battle.")
            text = browser.text()
            assert "Murder Run" in text and "Pit Fight" not in text
            assert "Met: you may reveal it" not in text
            await pilot.press(*THREE_DOWN_KEYS)  # logged on the tracker
            await pilot.pause()
            browser.wait_text("Met: you may reveal it", timeout=2.0)
            assert "Thug Varro" in browser.text()
            assert browser.js("document.documentElement.scrollWidth") <= WIDTH
            shot = browser.screenshot(tmp_path / "phone-from-tracker.png")
        assert shot.stat().st_size > 10_000


class _One(App[None]):
    def __init__(self, screen) -> None:  # type: ignore[no-untyped-def]
        super().__init__()
        self._first = screen

    def on_mount(self) -> None:
        self.push_screen(self._first)


URL = "http://192.168.1.23:8765/h/Zk3pQ9v_2mXcL8rT0aYbN4sW6dE1fG7h"


def test_snapshot_link_screen_with_qr_at_80x24(snap_compare) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("segno")
    assert snap_compare(_One(LinkScreen("The Venom Sisters", "Ana", URL)), terminal_size=(80, 24))


def test_snapshot_bind_screen(snap_compare) -> None:  # type: ignore[no-untyped-def]
    assert snap_compare(_One(bind_dialog("192.168.1.23:8765")), terminal_size=(80, 24))


async def test_an_old_secret_gets_404_and_finishing_the_battle_stops_serving(make_app, data_dir) -> None:  # type: ignore[no-untyped-def]
    make_battle(data_dir, HANDS)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        old = await start_phones(pilot)
        await pilot.press("m")  # stop
        new = await start_phones(pilot)  # and serve again: new secrets
        port, _ = port_and_path(new[V])
        for gang in (V, G):
            assert port_and_path(new[gang])[1] != port_and_path(old[gang])[1]
            status, headers, body = status_and_body(get(port, port_and_path(old[gang])[1]))
            assert (status, headers.get("content-length"), body) == (404, "0", b"")
            assert status_and_body(get(port, port_and_path(new[gang])[1]))[0] == 200
        await pilot.press("n")  # the tracker goes on
        await pilot.pause()
        assert "Action phase" in _text(app)
        await pilot.press("E", "enter")  # the battle ends; the phones still follow it
        await pilot.pause()
        assert "Battle over" in get(port, port_and_path(new[V])[1]).decode()
        await pilot.press("F", "escape", "escape", "y")  # finish (no last looks)
        await pilot.pause()
        assert type(app.screen).__name__ == "PostBattleScreen"
        with pytest.raises(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()


async def test_without_the_qr_encoder_the_link_screen_says_how_to_install_it(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from munda_tui.phone import QrUnavailable
    from munda_tui.screens.battle import phone

    def missing(url: str) -> list[str]:
        raise QrUnavailable("not installed")

    monkeypatch.setattr(phone, "qr_lines", missing)
    app = _One(LinkScreen("The Venom Sisters", "Ana", URL))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = _text(app)
        assert "pip install 'munda-tui[phone]'" in text
        assert URL in text
        assert not app.screen.query("#link-qr")


async def test_a_player_who_leaves_the_curtain_is_skipped_and_m_shows_it_later(make_app, data_dir) -> None:  # type: ignore[no-untyped-def]
    # the walk of the links is one worker: the address, then each player's curtain and link
    make_battle(data_dir, HANDS)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("m")
        await pilot.pause()
        await pilot.press("end", "backspace", "backspace", "backspace", "backspace", "0", "enter")
        await pilot.pause()
        assert "Only Ana should look" in _text(app)
        await pilot.press("escape")  # Ana is not at the table: her link is not shown
        await pilot.pause()
        assert "Only Ben should look" in _text(app) and "/h/" not in _text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LinkScreen) and "Ben" in _text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert "Phones: serving the hands on 127.0.0.1:" in _text(app)
        await pilot.press("M")  # Ana's link again, for the selected crew (hers)
        await pilot.pause()
        assert "Only Ana should look" in _text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LinkScreen) and "Ana" in _text(app)
        await pilot.press("enter")
        await pilot.press("m")  # stops
        await pilot.pause()
        assert "Phones: stopped" in _text(app)


async def test_a_bad_address_is_said_in_the_dialog() -> None:
    app = _One(bind_dialog("192.168.1.23:8765"))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("end", "9", "9", "enter")  # port 876599
        await pilot.pause()
        assert isinstance(app.screen, LineScreen) and app.screen.error
        assert "876599" in app.screen.error
        await pilot.press("backspace", "backspace", "enter")
        await pilot.pause()
        assert not isinstance(app.screen, LineScreen)
