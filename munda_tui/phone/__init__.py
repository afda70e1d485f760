"""Each player's hidden hand on their own phone (issue #16).

I/O only: a small web server (:mod:`.server`, standard-library asyncio in a thread),
the page it serves (:mod:`.page`), the terminal QR code of a link (:mod:`.qr`, with the
optional ``segno``) and the laptop's LAN address (:mod:`.net`). What a hand shows comes
from :mod:`munda_tui.rules.battle.hand_view`; this package never imports a screen.
"""

from .net import default_host, lan_address, parse_bind
from .qr import INSTALL_HINT, QrUnavailable, qr_lines
from .server import Limits, PhoneServer, PhoneServerError, format_url

__all__ = [
    "INSTALL_HINT", "Limits", "PhoneServer", "PhoneServerError", "QrUnavailable",
    "default_host", "format_url", "lan_address", "parse_bind", "qr_lines",
]
