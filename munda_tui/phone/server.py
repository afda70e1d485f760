"""The hand server: each player's hand page and its live feed, nothing else.

Built on the standard library's asyncio streams, in a thread of its own with its own
event loop, so nothing a phone (or anyone on the network) does can stall the
tracker: the tracker only hands over immutable :class:`~munda_tui.rules.battle.hand_view.
HandView` values with :meth:`PhoneServer.publish`.

Routes, for a player's secret ``S`` (``secrets.token_urlsafe(24)``, new each time the
server starts and for each battle):

- ``GET /h/S`` the hand page (HTML, complete without JavaScript)
- ``GET /h/S/events`` server-sent events: the hand again whenever it changes

Everything else (any other path, a wrong or missing secret, a secret of another
battle, another method, a malformed, oversized or too slow request) is answered
``404`` with an empty body. Secrets are compared with :func:`hmac.compare_digest`
against every live secret, and never logged (the server logs nothing at all).
An address that keeps sending wrong requests is answered more and more slowly (each
such request waits before it is even read further); connections are capped in
number, per address and in total, and each request must arrive within a few seconds.
The server never touches a file.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Mapping

from munda_tui.rules.battle.hand_view import HandView

from . import page
from .net import lan_address

NOT_FOUND = (
    b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nCache-Control: no-store\r\n"
    b"Connection: close\r\n\r\n"
)
_COMMON = (
    "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n"
    "Referrer-Policy: no-referrer\r\nX-Frame-Options: DENY\r\n"
    f"Content-Security-Policy: {page.CSP}\r\n"
)


class PhoneServerError(RuntimeError):
    """The server could not start (the message says why, e.g. the address is taken)."""


@dataclass
class Limits:
    """How much the server puts up with. The defaults suit a table of players."""

    max_connections: int = 64  # in total, page loads and live feeds together
    per_address: int = 12  # open connections from one address
    feeds_per_secret: int = 4  # live feeds per player (a phone that reconnects)
    header_bytes: int = 8192  # request line and headers
    header_seconds: float = 5.0  # to send them
    write_seconds: float = 5.0  # for a client to take a response
    keepalive_seconds: float = 15.0  # a comment on an idle feed (finds dead phones)
    free_misses: int = 5  # wrong requests from one address before slowing down
    miss_delay: float = 0.25  # the first wait, doubled for each further miss
    max_delay: float = 4.0
    forget_seconds: float = 60.0  # a miss is forgotten after this long


@dataclass
class _Hand:
    view: HandView
    version: int = 0
    feeds: list[asyncio.StreamWriter] = field(default_factory=list)


def _unspecified(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False


def format_url(host: str, port: int, secret: str) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/h/{secret}"


class PhoneServer:
    """``start(views)`` binds and serves; ``publish(views)`` updates (any thread);
    ``links`` maps each gang to its URL; ``stop()`` ends it all."""

    def __init__(self, host: str, port: int = 0, limits: Limits | None = None) -> None:
        self.host = host
        self.port = port
        # the address the links name: the LAN address when serving on every address
        self.link_host = lan_address() if _unspecified(host) else host
        self.limits = limits or Limits()
        self._secrets: dict[str, bytes] = {}  # gang -> secret (bytes)
        self._hands: dict[str, _Hand] = {}
        self._battle: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopping: asyncio.Event | None = None
        self._changed: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._per_address: dict[str, int] = {}
        self._misses: dict[str, tuple[float, float]] = {}  # address -> (count, when)
        self._lock = threading.Lock()
        self.connections = 0
        self.served = 0  # responses with content (pages and feeds)
        self.refused = 0  # 404s
        self.errors = 0  # unexpected errors swallowed (never printed)

    # --- the tracker's side (any thread) -------------------------------------------

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def address(self) -> tuple[str, int]:
        return self.host, self.port

    @property
    def links(self) -> dict[str, str]:
        with self._lock:
            return {g: format_url(self.link_host, self.port, s.decode("ascii"))
                    for g, s in self._secrets.items()}

    def start(self, views: Mapping[str, HandView]) -> dict[str, str]:
        """Bind, serve ``views``; the links. PhoneServerError if it cannot bind."""
        if self.running:
            raise PhoneServerError("already serving")
        self._rekey(views)
        ready = threading.Event()
        problem: list[str] = []

        def run() -> None:
            try:
                asyncio.run(self._main(views, ready, problem))
            except BaseException as error:  # noqa: BLE001 - reported to start(), never printed
                if not ready.is_set():
                    problem.append(str(error) or type(error).__name__)
                    ready.set()

        self._thread = threading.Thread(target=run, name="munda-tui-phone", daemon=True)
        self._thread.start()
        ready.wait(10)
        if problem or not ready.is_set():
            self._thread.join(2)
            self._thread = None
            why = problem[0] if problem else "it did not start in time"
            raise PhoneServerError(f"cannot serve on {self.host}:{self.port}: {why}")
        return self.links

    def publish(self, views: Mapping[str, HandView]) -> None:
        """The hands as they are now. A view of another battle retires the old secrets
        (their links answer 404 from now on) and makes new ones: read ``links`` again."""
        loop = self._loop
        if loop is None or not self.running:
            return
        battle = next(iter(views.values())).battle if views else None
        fresh = battle != self._battle
        if fresh:
            self._rekey(views)
        try:
            loop.call_soon_threadsafe(self._apply, dict(views), fresh)
        except RuntimeError:  # the loop is closing
            pass

    def retire(self) -> None:
        """Every secret answers 404 from now on (a finished battle); feeds are closed."""
        with self._lock:
            self._secrets = {}
            self._battle = None
        loop = self._loop
        if loop is not None and self.running:
            try:
                loop.call_soon_threadsafe(self._apply, {}, True)
            except RuntimeError:
                pass

    def stop(self) -> None:
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and self.running:
            try:
                loop.call_soon_threadsafe(stopping.set)
            except RuntimeError:
                pass
        if self._thread is not None:
            self._thread.join(5)
        self._thread = None
        with self._lock:
            self._secrets = {}

    def penalty(self, address: str) -> float:
        """The wait an address's next request gets (seconds; 0 for a good neighbour)."""
        count = self._miss_count(address, time.monotonic())
        extra = count - self.limits.free_misses
        if extra <= 0:
            return 0.0
        return min(self.limits.miss_delay * 2 ** (extra - 1), self.limits.max_delay)

    # --- inside the server's loop ----------------------------------------------------

    def _rekey(self, views: Mapping[str, HandView]) -> None:
        with self._lock:
            self._secrets = {g: secrets.token_urlsafe(24).encode("ascii") for g in views}
            self._battle = next(iter(views.values())).battle if views else None

    async def _main(self, views: Mapping[str, HandView], ready: threading.Event,
                    problem: list[str]) -> None:
        loop = asyncio.get_running_loop()
        loop.set_exception_handler(self._swallow)
        self._stopping = asyncio.Event()
        self._changed = asyncio.Event()
        self._hands = {g: _Hand(v) for g, v in views.items()}
        try:
            server = await asyncio.start_server(
                self._client, self.host, self.port, limit=self.limits.header_bytes,
                backlog=self.limits.max_connections, reuse_address=True)
        except OSError as error:
            problem.append(error.strerror or str(error))
            ready.set()
            return
        self.port = server.sockets[0].getsockname()[1]
        self._loop = loop
        ready.set()
        try:
            await self._stopping.wait()
        finally:
            server.close()
            for task in list(self._tasks):
                task.cancel()
            if self._tasks:
                await asyncio.wait(self._tasks, timeout=2)
            self._loop = None

    def _swallow(self, loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        self.errors += 1  # nothing printed: a message could carry a request's path

    def _apply(self, views: dict[str, HandView], fresh: bool = False) -> None:
        """New views; ``fresh``: new secrets (or none), so every open feed is closed."""
        for gang in list(self._hands):
            if fresh or gang not in views:
                for w in self._hands.pop(gang).feeds:
                    w.close()
        for gang, view in views.items():
            hand = self._hands.get(gang)
            if hand is None:
                self._hands[gang] = _Hand(view, 1)
            elif hand.view != view:
                hand.view, hand.version = view, hand.version + 1
        if self._changed is not None:
            self._changed.set()
            self._changed = asyncio.Event()

    def _miss_count(self, address: str, now: float) -> float:
        count, when = self._misses.get(address, (0.0, now))
        forget = self.limits.forget_seconds
        return max(0.0, count - (now - when) * self.limits.free_misses / forget) if forget else count

    def _miss(self, address: str) -> None:
        now = time.monotonic()
        self._misses[address] = (self._miss_count(address, now) + 1, now)
        if len(self._misses) > 4096:  # many addresses: keep the worst
            worst = sorted(self._misses.items(), key=lambda kv: -kv[1][0])[:1024]
            self._misses = dict(worst)

    def _gang_of(self, secret: bytes) -> str | None:
        """The gang whose secret this is: compared with every secret, in constant time."""
        with self._lock:
            items = list(self._secrets.items())
        found = None
        for gang, known in items:
            if hmac.compare_digest(known, secret):
                found = gang
        return found

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        peer = writer.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.connections += 1
        crowded = (len(self._tasks) > self.limits.max_connections
                   or self._per_address.get(address, 0) >= self.limits.per_address)
        self._per_address[address] = self._per_address.get(address, 0) + 1
        try:
            if crowded:
                self._miss(address)
                await self._refuse(writer)
                return
            wait = self.penalty(address)
            if wait:
                await asyncio.sleep(wait)
            await self._serve(address, reader, writer)
        except asyncio.CancelledError:
            pass
        except Exception:  # noqa: BLE001 - a bad client must never stop the server
            self.errors += 1
        finally:
            left = self._per_address.get(address, 1) - 1
            if left > 0:
                self._per_address[address] = left
            else:
                self._per_address.pop(address, None)
            writer.close()
            if task is not None:
                self._tasks.discard(task)

    async def _refuse(self, writer: asyncio.StreamWriter,
                      reader: asyncio.StreamReader | None = None) -> None:
        """The empty 404. With ``reader``: what the client still sends is read and
        dropped for a moment (64 KiB, half a second at most), so closing with unread
        input does not reset the connection before the client has read the 404."""
        self.refused += 1
        try:
            writer.write(NOT_FOUND)
            await asyncio.wait_for(writer.drain(), self.limits.write_seconds)
            if reader is not None and writer.can_write_eof():
                writer.write_eof()
                await asyncio.wait_for(self._drop(reader), 0.5)
        except (OSError, asyncio.TimeoutError, ValueError):
            pass

    @staticmethod
    async def _drop(reader: asyncio.StreamReader) -> None:
        left = 1 << 16
        while left > 0:
            chunk = await reader.read(min(left, 8192))
            if not chunk:
                return
            left -= len(chunk)

    async def _serve(self, address: str, reader: asyncio.StreamReader,
                     writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"),
                                          self.limits.header_seconds)
        except (asyncio.LimitOverrunError, asyncio.IncompleteReadError, asyncio.TimeoutError,
                ValueError, OSError):
            self._miss(address)
            await self._refuse(writer, reader)
            return
        gang, feed = self._route(head)
        if gang is None:
            self._miss(address)
            await self._refuse(writer)
            return
        if feed:
            await self._feed(gang, writer)
        else:
            await self._page(gang, writer)

    def _route(self, head: bytes) -> tuple[str | None, bool]:
        line = head.split(b"\r\n", 1)[0]
        parts = line.split(b" ")
        if len(parts) != 3 or parts[0] != b"GET" or not parts[2].startswith(b"HTTP/1."):
            return None, False
        path = parts[1].split(b"?", 1)[0]
        if not path.startswith(b"/h/"):
            return None, False
        rest = path[3:]
        feed = rest.endswith(b"/events")
        if feed:
            rest = rest[: -len(b"/events")]
        elif rest.endswith(b"/"):
            rest = rest[:-1]
        if not rest or len(rest) > 64:
            return None, False
        gang = self._gang_of(rest)
        if gang is None or gang not in self._hands:
            return None, False
        return gang, feed

    async def _send(self, writer: asyncio.StreamWriter, data: bytes) -> None:
        writer.write(data)
        await asyncio.wait_for(writer.drain(), self.limits.write_seconds)

    async def _page(self, gang: str, writer: asyncio.StreamWriter) -> None:
        body = page.page(self._hands[gang].view).encode("utf-8")
        head = ("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                f"Content-Length: {len(body)}\r\n{_COMMON}Connection: close\r\n\r\n")
        self.served += 1
        try:
            await self._send(writer, head.encode("ascii") + body)
        except (OSError, asyncio.TimeoutError):
            pass

    async def _feed(self, gang: str, writer: asyncio.StreamWriter) -> None:
        hand = self._hands[gang]
        hand.feeds.append(writer)
        while len(hand.feeds) > self.limits.feeds_per_secret:
            hand.feeds.pop(0).close()  # the oldest (a phone that reconnected)
        self.served += 1
        head = ("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                f"{_COMMON}Connection: close\r\n\r\n")
        try:
            # what was sent is read before each await: a change that comes in while a
            # send is under way is sent next, never lost
            view, sent = hand.view, hand.version
            await self._send(writer, head.encode("ascii") + b"retry: 1000\n\n"
                             + page.event(view, alert=False))
            alerts = view.alerts
            while True:
                if self._hands.get(gang) is not hand or writer not in hand.feeds:
                    return  # retired, stopped, or replaced by a newer feed
                if hand.version != sent:
                    view, sent = hand.view, hand.version
                    await self._send(writer, page.event(view, alert=bool(view.alerts - alerts)))
                    alerts = view.alerts
                    continue
                changed = self._changed
                assert changed is not None
                try:
                    await asyncio.wait_for(changed.wait(), self.limits.keepalive_seconds)
                except asyncio.TimeoutError:
                    await self._send(writer, b": still here\n\n")
        except (OSError, asyncio.TimeoutError):
            pass
        finally:
            if writer in hand.feeds:
                hand.feeds.remove(writer)
