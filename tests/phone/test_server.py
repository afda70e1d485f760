"""The hand server over real sockets on 127.0.0.1: what it serves, and the 404s."""

from __future__ import annotations

from munda_tui.rules.battle.events import PhaseEvent

import socket
import threading
import time

import pytest

from munda_tui.phone import Limits, PhoneServer, PhoneServerError
from munda_tui.rules.subplots import decks as subplots

from phone_support import G, THREE_DOWN, V, battle, get, request, status_and_body, views

FAST = Limits(header_seconds=0.5, write_seconds=1.0, keepalive_seconds=1.0,
              miss_delay=0.01, max_delay=0.05, free_misses=3)


@pytest.fixture
def served():  # type: ignore[no-untyped-def]
    c, setup, b = battle()
    server = PhoneServer("127.0.0.1", 0, FAST)
    links = server.start(views(setup, b))
    try:
        yield server, links, setup, b
    finally:
        server.stop()


def path_of(url: str) -> str:
    return url.split("/", 3)[3].join(["/", ""])


def secret_of(url: str) -> str:
    return url.rsplit("/", 1)[1]


def assert_404(answer: bytes) -> None:
    status, headers, body = status_and_body(answer)
    assert status == 404
    assert headers.get("content-length") == "0"
    assert body == b""


def test_each_player_gets_only_their_hand(served) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    assert set(links) == {V, G}
    assert secret_of(links[V]) != secret_of(links[G])
    assert len(secret_of(links[V])) == 32  # token_urlsafe(24)
    mine = {V: ["escher:2", "delaque:10"], G: ["goliath:5", "dark-influences:A"]}
    for gang, other in ((V, G), (G, V)):
        status, headers, body = status_and_body(get(server.port, path_of(links[gang])))
        assert status == 200
        assert headers["content-type"] == "text/html; charset=utf-8"
        assert "default-src 'none'" in headers["content-security-policy"]
        text = body.decode("utf-8")
        for cid in mine[gang]:
            card = subplots.card(cid)
            assert card.name in text
            assert card.text.replace("'", "&#x27;").replace('"', "&quot;")[:60] in text
        for cid in mine[other]:
            assert subplots.card(cid).name not in text
            assert cid not in text
        assert "http" not in text.replace("http-equiv", "")  # nothing loaded from anywhere
    v_page = get(server.port, path_of(links[V])).decode()
    assert "Secretly choose a number: 8" in v_page  # the owner's secret choice


def test_wrong_missing_other_paths_and_methods_get_an_empty_404(served) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    good = secret_of(links[V])
    wrong = good[:-1] + ("A" if good[-1] != "A" else "B")
    for path in ["/", "/h/", "/h", f"/h/{wrong}", f"/h/{wrong}/events", f"/x/{good}",
                 f"/h/{good}/other", f"/h/{good}x", "/favicon.ico", "/../etc/passwd",
                 f"/h/{good[:16]}", "/h/" + "A" * 5000]:
        assert_404(get(server.port, path))
    for raw in [f"POST /h/{good} HTTP/1.1\r\n\r\n".encode(),
                f"HEAD /h/{good} HTTP/1.1\r\n\r\n".encode(),
                f"GET /h/{good}\r\n\r\n".encode(),  # HTTP/0.9
                b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",  # a TLS hello
                b"GET /h/\xff\xfe HTTP/1.1\r\n\r\n"]:
        assert_404(request(server.port, raw))
    # the right page still works afterwards
    assert status_and_body(get(server.port, path_of(links[V])))[0] == 200


def test_oversized_headers_and_slow_clients_get_404_and_do_not_block(served) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    huge = b"GET /h/x HTTP/1.1\r\nX: " + b"a" * 60000 + b"\r\n\r\n"
    assert_404(request(server.port, huge))
    # a slow client that never finishes its headers, while a good page loads at once
    slow = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    slow.sendall(b"GET /h/")
    try:
        assert status_and_body(get(server.port, path_of(links[G]), timeout=2))[0] == 200
        slow.settimeout(3)
        assert_404(slow.recv(4096))  # dropped after header_seconds
    finally:
        slow.close()


def test_many_connections_are_capped_and_the_server_lives(served) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    socks = []
    try:
        for _ in range(server.limits.per_address + 8):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            socks.append(s)
        time.sleep(0.1)
        # the extra ones were answered 404 at once and closed
        refused = 0
        for s in socks[server.limits.per_address:]:
            s.settimeout(2)
            data = s.recv(4096)
            assert_404(data)
            refused += 1
        assert refused == 8
    finally:
        for s in socks:
            s.close()
    time.sleep(0.6)  # the idle ones time out (header_seconds)
    assert status_and_body(get(server.port, path_of(links[V])))[0] == 200


def test_a_burst_of_bad_secrets_is_slowed_and_all_get_404(served) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    assert server.penalty("127.0.0.1") == 0
    answers = [get(server.port, f"/h/{'A' * 32}") for _ in range(30)]
    for answer in answers:
        assert_404(answer)
    assert server.penalty("127.0.0.1") == server.limits.max_delay  # slowed down to the cap
    assert server.penalty("10.9.9.9") == 0  # another address is not


def test_the_live_feed_sends_the_hand_and_each_change(served) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    try:
        s.sendall(f"GET {path_of(links[V])}/events HTTP/1.1\r\n\r\n".encode())
        buf = b""
        while buf.count(b"event: hand") < 1:
            buf += s.recv(65536)
        assert b"text/event-stream" in buf
        assert b'"alert":false' in buf
        for ev in THREE_DOWN:
            b.log_event(ev)
        server.publish(views(setup, b))
        deadline = time.monotonic() + 3
        while buf.count(b"event: hand") < 2 and time.monotonic() < deadline:
            buf += s.recv(65536)
        last = buf.rsplit(b"event: hand", 1)[1]
        assert b'"alert":true' in last  # Murder Run met: the phone is asked to vibrate
        assert b"Met: you may reveal it" in last
        assert subplots.card("goliath:5").name.encode() not in buf
    finally:
        s.close()


def test_another_battle_retires_the_old_secrets(served) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    old = path_of(links[V])
    assert status_and_body(get(server.port, old))[0] == 200
    c2, setup2, b2 = battle(number=2)
    server.publish(views(setup2, b2))
    new = server.links
    assert path_of(new[V]) != old
    time.sleep(0.05)
    assert_404(get(server.port, old))
    assert status_and_body(get(server.port, path_of(new[V])))[0] == 200
    server.retire()  # the battle finished
    time.sleep(0.05)
    assert_404(get(server.port, path_of(new[V])))


def test_stop_closes_the_port_and_a_taken_port_is_a_clear_error() -> None:
    c, setup, b = battle()
    server = PhoneServer("127.0.0.1", 0, FAST)
    server.start(views(setup, b))
    port = server.port
    other = PhoneServer("127.0.0.1", port, FAST)
    with pytest.raises(PhoneServerError, match="cannot serve on 127.0.0.1"):
        other.start(views(setup, b))
    server.stop()
    assert not server.running
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


def test_secrets_are_never_printed(served, capfd) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    get(server.port, path_of(links[V]))
    get(server.port, "/h/" + "B" * 32)
    request(server.port, b"garbage\r\n\r\n")
    out, err = capfd.readouterr()
    assert secret_of(links[V]) not in out + err
    assert out + err == ""


def test_publishing_from_many_threads_at_once(served) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    vs = views(setup, b)
    threads = [threading.Thread(target=lambda: [server.publish(vs) for _ in range(50)])
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert status_and_body(get(server.port, path_of(links[V])))[0] == 200
    assert server.errors == 0


def read_events(s: socket.socket, count: int, timeout: float = 3.0) -> bytes:
    buf = b""
    deadline = time.monotonic() + timeout
    while buf.count(b"event: hand") < count and time.monotonic() < deadline:
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        buf += chunk
    return buf


def test_a_reminder_that_comes_buzzes_the_phone(served) -> None:  # type: ignore[no-untyped-def]
    from munda_tui.rules.battle.events import Event

    server, links, setup, b = served
    s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    try:
        s.sendall(f"GET {path_of(links[V])}/events HTTP/1.1\r\n\r\n".encode())
        assert b'"alert":false' in read_events(s, 1)
        b.log_event(PhaseEvent(round=2, phase="priority"))  # no reminder for round 2
        server.publish(views(setup, b))
        assert b'"alert":false' in read_events(s, 1).rsplit(b"event: hand", 1)[1]
        for rnd in range(3, 9):  # Dead of Night's secret number: 8
            b.log_event(PhaseEvent(round=rnd, phase="priority"))
        server.publish(views(setup, b))
        last = read_events(s, 1).rsplit(b"event: hand", 1)[1]
        assert b'"alert":true' in last
        assert b"the round whose number the owner chose" in last
    finally:
        s.close()


def test_feeds_per_player_are_capped_oldest_first(served) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    feeds = []
    try:
        for _ in range(server.limits.feeds_per_secret + 1):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=3)
            s.sendall(f"GET {path_of(links[G])}/events HTTP/1.1\r\n\r\n".encode())
            assert b"event: hand" in read_events(s, 1)
            feeds.append(s)
        first = feeds[0]
        first.settimeout(3)
        rest = b""
        while True:  # the oldest feed is closed by the server
            chunk = first.recv(65536)
            if not chunk:
                break
            rest += chunk
        assert b"event: hand" not in rest
    finally:
        for s in feeds:
            s.close()


def test_serving_on_every_address_names_the_lan_address_in_links(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from munda_tui.phone import server as server_module

    monkeypatch.setattr(server_module, "lan_address", lambda: "192.168.1.23")
    s = PhoneServer("0.0.0.0", 8765)
    s._rekey(views(*battle()[1:]))
    assert all(url.startswith("http://192.168.1.23:8765/h/") for url in s.links.values())
    assert PhoneServer("127.0.0.1").link_host == "127.0.0.1"
