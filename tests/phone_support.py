"""Shared by the phone tests: a battle with two hands, its views, a raw HTTP client."""

from __future__ import annotations

from munda_tui.rules.battle.events import PhaseEvent, PriorityEvent, StateEvent

import socket
import time

from munda_tui.rules.battle.events import Battle, Event, default_setup, start_event
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.battle.hand_view import hand_views
from munda_tui.rules.battle.watch import HandWatch

V, G = "venom-sisters", "iron-skulls"
HANDS = {V: ["escher:2", "delaque:10"], G: ["goliath:5", "dark-influences:A"]}
CHOICES = {V: {"delaque:10": "8"}}


def battle(number: int = 1, hands=HANDS, choices=CHOICES):  # type: ignore[no-untyped-def]
    c = demo_campaign()
    setup = default_setup(c, number, V, G)
    setup.objective = "Sabotage"
    for side in setup.sides:
        side.hand = list(hands.get(side.gang, []))
        side.subplot_choices = dict((choices or {}).get(side.gang, {}))
    return c, setup, Battle([start_event(setup, c)])


def views(setup, b):  # type: ignore[no-untyped-def]
    run = HandWatch({s.gang: list(s.hand) for s in setup.sides}, facts=setup)
    for ev in b.log:
        run.feed(ev)
    return hand_views(setup, b.state, run.matches(), {V: "Ana", G: "Bo"}, run.reminders())


THREE_DOWN = [
    PriorityEvent(gang=V),
    PhaseEvent(round=1, phase="action"),
    StateEvent(fighter=f"{G}/thug-varro", state="seriously_injured"),
    StateEvent(fighter=f"{G}/dak-cinderfist", state="seriously_injured"),
    StateEvent(fighter=f"{G}/zorn-blackslag", state="out_of_action"),
]


def request(port: int, raw: bytes, timeout: float = 5.0, host: str = "127.0.0.1") -> bytes:
    """Send raw bytes, read the whole answer (the server closes after each response)."""
    with socket.create_connection((host, port), timeout=timeout) as s:
        s.sendall(raw)
        chunks = []
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks)


def get(port: int, path: str, timeout: float = 5.0) -> bytes:
    return request(port, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode(), timeout)


def status_and_body(answer: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0] else 0
    headers = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    return status, headers, body


# --- for the tracker's Pilot tests (the demo campaign's battle 1 in the tracker) ---------

SIZE = (80, 24)


def make_battle(data_dir, hands, choices=None) -> None:  # type: ignore[no-untyped-def]
    from munda_tui.rules.core.model import BattleSummary
    from munda_tui.saves import Store

    c = demo_campaign()
    c.battles.append(BattleSummary(1, date="2026-01-15", gangs=[V, G], status="battle"))
    setup = default_setup(c, 1, V, G)
    setup.objective = "Sabotage"
    for side in setup.sides:
        side.hand = list(hands.get(side.gang, []))
        side.subplot_choices = dict((choices or {}).get(side.gang, {}))
    setup.subplots = bool(hands)
    with Store(data_dir).create_campaign(c) as h:
        # the start of the game already walked (tests/screens/test_battle_start.py walks it)
        h.save_battle(1, {"setup": setup.to_data(), "battle": {"start_walked": True}})


async def open_battle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.pause()
    pilot.app.open_battle(1)
    await pilot.pause()


def screen_text(app) -> str:  # type: ignore[no-untyped-def]
    """Every line the current screen shows (statics, option lists, crew tables)."""
    from textual.widgets import Input, OptionList, Static

    from munda_tui.widgets.fighter_table import FighterTable

    parts = []
    for w in app.screen.query("*"):
        if isinstance(w, Static):
            parts.append(str(w.render()))
        elif isinstance(w, Input):
            parts.append(w.value)
        elif isinstance(w, OptionList):
            parts.extend(str(w.get_option_at_index(i).prompt) for i in range(w.option_count))
        elif isinstance(w, FighterTable):
            parts.extend(w.render_line(y).text for y in range(w.size.height))
    return "\n".join(parts)
