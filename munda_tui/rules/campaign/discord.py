"""A report cut into Discord messages (at most 2,000 characters each), from its blocks
(``report_doc.Report``): the Discord renderer.

Discord renders headings (``#``, ``##``, ``###``), lists, bold and code blocks, but
no tables: a table becomes a code block with its columns aligned (its header
repeated when it is cut between messages). Deeper headings become bold lines.
Messages are cut between paragraphs where possible, else between lines, else
(a single line longer than a message) between words.
"""

from __future__ import annotations

import re

from .report_doc import Heading, Report, Table, from_markdown, markdown_lines

LIMIT = 2000
FENCE = "```"
#: a mention Discord would act on when the report is pasted: ``@everyone``, ``@here``,
#: ``<@id>``, ``<@&role>``, ``<#channel>`` (a gang or fighter may be named so)
MENTION = re.compile(r"@(everyone|here)|<(@[!&]?|#)(?=\d)")
ZWSP = "\u200b"


def defuse_mentions(text: str) -> str:
    """``text`` with every mention broken by a zero-width space: shown the same in
    Discord, pinging nobody."""
    return MENTION.sub(lambda m: f"@{ZWSP}{m.group(1)}" if m.group(1) else f"<{ZWSP}{m.group(2)}",
                       text)


def _aligned(headers: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> list[str]:
    """A table as aligned text: ["\0table", header, rule, "\0rows", row, ...]."""
    table = [list(headers), *[list(r) for r in rows]]
    n = max(len(r) for r in table)
    table = [r + [""] * (n - len(r)) for r in table]
    widths = [max(len(r[i]) for r in table) for i in range(n)]

    def text(r: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()

    return ["\0table", text(table[0]), "  ".join("-" * w for w in widths).rstrip(), "\0rows",
            *[text(r) for r in table[1:]]]


def _blocks(report: Report) -> list[list[str]]:
    """Each block's lines as Discord shows them (mentions defused); a table is one block
    already aligned. Headings deeper than ``###`` are bold lines (Discord has none)."""
    out: list[list[str]] = []
    for block in report.blocks:
        if isinstance(block, Table):
            out.append(_aligned(tuple(defuse_mentions(c) for c in block.headers),
                                tuple(tuple(defuse_mentions(c) for c in r) for r in block.rows)))
        elif isinstance(block, Heading) and block.level > 3:
            out.append([f"**{defuse_mentions(block.text)}**"])
        else:
            out.append([defuse_mentions(line) for line in markdown_lines(block)])
    return [b for b in out if b]


def _split_line(line: str, limit: int) -> list[str]:
    out, cur = [], ""
    for word in line.split(" "):
        while len(word) > limit:  # no space to cut at
            if cur:
                out.append(cur)
                cur = ""
            out.append(word[:limit])
            word = word[limit:]
        cand = f"{cur} {word}" if cur else word
        if len(cand) > limit:
            out.append(cur)
            cur = word
        else:
            cur = cand
    if cur:
        out.append(cur)
    return out


def _table_pieces(block: list[str], limit: int) -> list[str]:
    """A table as one or more fenced code blocks, each within ``limit``."""
    k = block.index("\0rows")
    header, rows = block[1:k], block[k + 1:]
    room = limit - len(FENCE) * 2 - 2  # the fences and their newlines
    if len("\n".join(header)) > room - 2:  # a header wider than a message: cut it too,
        cap = max(1, (room - 2) // 3)  # leaving room for one row beneath it
        header = [line[:cap] for line in header]
    pieces: list[str] = []
    cur = list(header)
    for row in rows:
        row = row[: max(1, room - len("\n".join(header)) - 1)]  # a row wider than a message
        if len("\n".join([*cur, row])) > room and len(cur) > len(header):
            pieces.append(f"{FENCE}\n" + "\n".join(cur) + f"\n{FENCE}")
            cur = list(header)
        cur.append(row)
    pieces.append(f"{FENCE}\n" + "\n".join(cur) + f"\n{FENCE}")
    return pieces


def discord_messages(markdown: str, limit: int = LIMIT) -> list[str]:
    """A Markdown text (an old battle file's report, or one typed by hand) as Discord
    messages: read into blocks (``report_doc.from_markdown``), then as a report."""
    return report_messages(from_markdown(markdown), limit)


def report_messages(report: Report, limit: int = LIMIT) -> list[str]:
    """``report`` as Discord messages, in order, none longer than ``limit``; names
    that are mentions ping nobody (:func:`defuse_mentions`)."""
    pieces: list[str] = []
    for block in _blocks(report):
        if block and block[0] == "\0table":
            pieces.extend(_table_pieces(block, limit))
            continue
        text = "\n".join(block)
        if len(text) <= limit:
            pieces.append(text)
            continue
        cur: list[str] = []
        for line in block:
            for part in _split_line(line, limit) if len(line) > limit else [line]:
                if cur and len("\n".join([*cur, part])) > limit:
                    pieces.append("\n".join(cur))
                    cur = []
                cur.append(part)
        if cur:
            pieces.append("\n".join(cur))
    messages: list[str] = []
    cur_msg = ""
    for piece in pieces:
        # a heading starts a new message when the current one is well filled
        heading = piece.startswith("#")
        cand = f"{cur_msg}\n\n{piece}" if cur_msg else piece
        if len(cand) > limit or (heading and cur_msg and len(cur_msg) > limit * 3 // 4):
            messages.append(cur_msg)
            cur_msg = piece
        else:
            cur_msg = cand
    if cur_msg:
        messages.append(cur_msg)
    return [m for m in messages if m.strip()]
