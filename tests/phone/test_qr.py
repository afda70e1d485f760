"""The link's QR code drawn with half blocks: the same modules as segno's matrix, small
enough for an 80x24 terminal, light modules drawn (dark-on-light on a dark terminal)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from munda_tui.phone import qr

segno = pytest.importorskip("segno", reason="segno is in the optional extra munda-tui[phone]")

URL = "http://192.168.100.200:65535/h/" + "Ab-_" * 8


def test_the_drawing_holds_exactly_segnos_modules() -> None:
    lines = qr.qr_lines(URL, border=2)
    code = segno.make(URL, error="l", micro=False)
    want = [[bool(v) for v in row] for row in code.matrix_iter(border=2)]
    got = qr.qr_matrix(lines)[: len(want)]
    assert got == want
    assert all(len(line) == len(want[0]) for line in lines)


def test_a_long_lan_link_fits_an_80x24_terminal() -> None:
    lines = qr.qr_lines(URL)
    assert len(lines[0]) <= 41 and len(lines) <= 19  # version 4 at most, with its border


def test_the_quiet_zone_is_light() -> None:
    lines = qr.qr_lines(URL, border=2)
    assert set(lines[0]) == {"█"} and set(lines[-1]) <= {"█", "▀"}
    assert all(line[0] == "█" and line[-1] == "█" for line in lines)


def test_without_segno_the_message_says_how_to_install_it() -> None:
    code = (
        "import sys; sys.modules['segno'] = None\n"
        "from munda_tui.phone import qr\n"
        "assert not qr.available()\n"
        "try:\n    qr.qr_lines('x')\nexcept qr.QrUnavailable as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'munda-tui[phone]'" in out.stdout


def test_the_phone_package_never_imports_screens_or_textual() -> None:
    code = (
        "import sys, munda_tui.phone, munda_tui.phone.server, munda_tui.phone.page\n"
        "bad = sorted(n for n in sys.modules if n.startswith(('munda_tui.screens', 'textual',"
        " 'munda_tui.saves', 'munda_tui.widgets')))\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
