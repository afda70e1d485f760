"""A Markdown report cut into Discord messages (at most 2,000 characters each).

Discord renders headings (``#``, ``##``, ``###``), lists, bold and code blocks, but
no tables: a table becomes a code block with its columns aligned (its header
repeated when it is cut between messages). Deeper headings become bold lines.
Messages are cut between paragraphs where possible, else between lines, else
(a single line longer than a message) between words.
"""

from __future__ import annotations

import re

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


def _cells(line: str) -> list[str]:
    inner = line.strip()[1:]
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    parts = re.split(r"(?<!\\)\|", inner)
    return [p.strip().replace("\\|", "|") for p in parts]


def _is_rule(cells: list[str]) -> bool:
    return all(re.fullmatch(r":?-{3,}:?", c) for c in cells if c) and any(cells)


def _table_block(lines: list[str]) -> tuple[list[str], list[str]]:
    """(header lines, row lines) of a Markdown table as aligned text."""
    rows = [_cells(line) for line in lines]
    rows = [r for r in rows if not _is_rule(r)]
    n = max(len(r) for r in rows)
    rows = [r + [""] * (n - len(r)) for r in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(n)]

    def text(r: list[str]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()

    header = [text(rows[0]), "  ".join("-" * w for w in widths).rstrip()]
    return header, [text(r) for r in rows[1:]]


def _blocks(markdown: str) -> list[list[str]]:
    """Paragraphs (lists of lines); a table is one block already fenced."""
    out: list[list[str]] = []
    para: list[str] = []
    lines = markdown.splitlines()
    i = 0

    def flush() -> None:
        if para:
            out.append(list(para))
            para.clear()

    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("|"):
            flush()
            j = i
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            header, rows = _table_block(lines[i:j])
            out.append(["\0table", *header, "\0rows", *rows])
            i = j
            continue
        if not line.strip():
            flush()
        else:
            m = re.match(r"(#{4,})\s+(.*)", line)
            para.append(f"**{m.group(2).strip()}**" if m else line)
        i += 1
    flush()
    return out


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
    """``markdown`` as Discord messages, in order, none longer than ``limit``; names
    that are mentions ping nobody (:func:`defuse_mentions`)."""
    pieces: list[str] = []
    for block in _blocks(defuse_mentions(markdown)):
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
