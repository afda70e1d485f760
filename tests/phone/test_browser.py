"""The phone page in Debian's real headless Chromium at 390x844: each player's hand, never
the other's; readable without horizontal scroll; complete without JavaScript; live."""

from __future__ import annotations

import pytest

from munda_tui.phone import Limits, PhoneServer
from munda_tui.rules.subplots import decks as subplots

from chromium_support import WIDTH, Browser
from phone_support import G, THREE_DOWN, V, battle, views

MINE = {V: ["escher:2", "delaque:10"], G: ["goliath:5", "dark-influences:A"]}


@pytest.fixture
def served():  # type: ignore[no-untyped-def]
    c, setup, b = battle()
    server = PhoneServer("127.0.0.1", 0, Limits(keepalive_seconds=2.0))
    links = server.start(views(setup, b))
    try:
        yield server, links, setup, b
    finally:
        server.stop()


def check_hand(browser: Browser, gang: str) -> str:
    other = G if gang == V else V
    text = browser.text()
    for cid in MINE[gang]:
        card = subplots.card(cid)
        assert card.name in text
        assert " ".join(card.text.split())[:80] in " ".join(text.split())
    for cid in MINE[other]:
        assert subplots.card(cid).name not in text
    html = browser.js("document.documentElement.outerHTML")
    for cid in MINE[other]:
        assert subplots.card(cid).name not in html and cid not in html
    # a phone in portrait: nothing wider than the screen, large text
    assert browser.js("document.documentElement.scrollWidth") <= WIDTH
    assert browser.js("parseFloat(getComputedStyle(document.body).fontSize)") >= 18
    return text


def test_each_players_page_shows_their_hand_only(served, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    with Browser(tmp_path) as browser:
        browser.open(links[V])
        text = check_hand(browser, V)
        assert "Hand of The Venom Sisters" in text
        assert "Secretly choose a number: 8" in text
        browser.open(links[G])
        check_hand(browser, G)
        # no request left the page for anything but itself
        resources = browser.js("performance.getEntriesByType('resource').map(e => e.name)")
        assert all(r.startswith(f"http://127.0.0.1:{server.port}/h/") for r in resources)


def test_the_page_is_complete_without_javascript(served, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    with Browser(tmp_path) as browser:
        browser.disable_scripts()
        browser.open(links[G])
        check_hand(browser, G)
        assert "Reload the page" in browser.text()


def test_a_card_met_on_the_tracker_shows_within_two_seconds(served, tmp_path) -> None:  # type: ignore[no-untyped-def]
    server, links, setup, b = served
    with Browser(tmp_path) as browser:
        # count the page's calls to navigator.vibrate (headless Chromium has no motor)
        browser.call("Page.addScriptToEvaluateOnNewDocument", {"source":
                     "window.__buzz=[];navigator.vibrate=function(p){window.__buzz.push(p);"
                     "return true;};"})
        browser.open(links[V])
        browser.wait_text("Live: this page follows the battle.")
        assert "Met: you may reveal it" not in browser.text()
        assert browser.js("window.__buzz.length") == 0  # nothing new on loading
        for ev in THREE_DOWN:
            b.log_event(ev)
        server.publish(views(setup, b))
        seconds = browser.wait_text("Met: you may reveal it", timeout=2.0)
        print(f"card met -> shown on the page in {seconds:.3f} s")
        assert browser.js("window.__buzz") == [[200, 100, 200]]  # asked to vibrate once
        text = browser.text()
        assert "3 enemy fighters Seriously Injured or Out of Action in round 1" in text
        assert "Round 1 · Action phase" in text
        assert browser.js("document.title").startswith("● ")
        assert browser.js("document.querySelectorAll('.card.alert').length") == 2  # + reminder
        assert browser.js("document.documentElement.scrollWidth") <= WIDTH
        shot = browser.screenshot(tmp_path / "phone-page.png")
    assert shot.stat().st_size > 10_000
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # kept in tmp_path as the artifact
