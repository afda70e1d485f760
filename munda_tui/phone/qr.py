"""A QR code drawn with text: two modules per character cell (half blocks).

The encoding itself comes from ``segno`` (pure Python, no dependencies, in the optional
extra ``munda-tui[phone]``); this module only draws its matrix. Light modules are the
drawn glyphs and dark ones are blanks, so on the usual dark terminal the code reads
dark-on-light even with NO_COLOR; screens also paint it white on black to be sure.
"""

from __future__ import annotations

INSTALL_HINT = "pip install 'munda-tui[phone]'"

#: (top light, bottom light) -> the glyph
_GLYPHS = {
    (False, False): " ",
    (True, False): "▀",
    (False, True): "▄",
    (True, True): "█",
}


class QrUnavailable(RuntimeError):
    """segno is not installed: the message says how to install it."""


def available() -> bool:
    try:
        import segno  # noqa: F401
    except ImportError:
        return False
    return True


def qr_lines(text: str, border: int = 2) -> list[str]:
    """The QR code of ``text`` as lines of half-block characters (light = glyph)."""
    try:
        import segno
    except ImportError:
        raise QrUnavailable(f"No QR code: its encoder is not installed ({INSTALL_HINT}).") from None
    code = segno.make(text, error="l", micro=False)
    rows = [[not bool(v) for v in row] for row in code.matrix_iter(border=border)]
    if len(rows) % 2:
        rows.append([True] * len(rows[0]))  # the quiet zone is light
    return [
        "".join(_GLYPHS[(top, bottom)] for top, bottom in zip(rows[y], rows[y + 1]))
        for y in range(0, len(rows), 2)
    ]


def qr_matrix(lines: list[str]) -> list[list[bool]]:
    """Back from drawn lines to rows of modules (True = dark): for tests and checks."""
    out: list[list[bool]] = []
    for line in lines:
        top = [ch in " ▄" for ch in line]
        bottom = [ch in " ▀" for ch in line]
        out.extend([top, bottom])
    return out
