"""A report as structured data, and the renderers that turn it into text.

A battle's report (the post-battle sequence writes it), a battle summary and the
campaign summary are each a :class:`Report`: a title and a list of blocks (a heading, a
paragraph, a bulleted list, a table). The battle file keeps the blocks (``[report]
blocks``, plain data: :meth:`Report.to_data`), and every format is rendered from them by
a renderer (``rules.report_formats.RENDERERS``): Markdown (the screens, the default),
Discord messages (at most 2,000 characters each, tables as aligned code blocks:
``rules.discord``) and JSON (the blocks as they are, for other tools).

A battle file written before reports were kept as blocks holds its Markdown
(``[report] markdown``): :func:`from_markdown` reads it back into blocks (headings,
tables, paragraphs), so every renderer works on old files too.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Union


@dataclass(frozen=True)
class Heading:
    """A heading: level 1 (the report's title) to 6."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    """Lines of text, shown together."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class Item:
    """One bullet, with the bullets beneath it."""

    text: str
    items: tuple["Item", ...] = ()


@dataclass(frozen=True)
class Bullets:
    """A bulleted list."""

    items: tuple[Item, ...]


@dataclass(frozen=True)
class Table:
    """A table: its column headings and rows of cells (text, as shown)."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


Block = Union[Heading, Paragraph, Bullets, Table]


@dataclass
class Report:
    """A report: its blocks, in order (the first is usually its level-1 heading)."""

    blocks: list[Block] = field(default_factory=list)

    # building ------------------------------------------------------------------------
    def heading(self, text: str, level: int = 2) -> None:
        self.blocks.append(Heading(text, level))

    def paragraph(self, *lines: str) -> None:
        self.blocks.append(Paragraph(tuple(lines)))

    def bullets(self, *items: str | Item) -> None:
        self.blocks.append(Bullets(tuple(i if isinstance(i, Item) else Item(i) for i in items)))

    def table(self, headers: list[str], rows: list[list[Any]]) -> None:
        self.blocks.append(Table(tuple(headers), tuple(tuple(str(c) for c in r) for r in rows)))

    @property
    def title(self) -> str:
        return next((b.text for b in self.blocks if isinstance(b, Heading) and b.level == 1), "")

    # plain data (the battle file's [report] blocks, and JSON) --------------------------
    def to_data(self) -> list[dict[str, Any]]:
        return [_block_data(b) for b in self.blocks]

    @classmethod
    def from_data(cls, data: Any) -> "Report":
        """The report saved as :meth:`to_data`; ValueError says what is wrong and where
        (``blocks[3].rows[0]``), as a hand-edited battle file may be."""
        if not isinstance(data, list):
            raise ValueError("blocks: a list of blocks")
        return cls([_block(d, f"blocks[{i}]") for i, d in enumerate(data)])


def _item_data(item: Item) -> dict[str, Any]:
    out: dict[str, Any] = {"text": item.text}
    if item.items:
        out["items"] = [_item_data(i) for i in item.items]
    return out


def _block_data(b: Block) -> dict[str, Any]:
    if isinstance(b, Heading):
        return {"kind": "heading", "level": b.level, "text": b.text}
    if isinstance(b, Paragraph):
        return {"kind": "paragraph", "lines": list(b.lines)}
    if isinstance(b, Bullets):
        return {"kind": "bullets", "items": [_item_data(i) for i in b.items]}
    return {"kind": "table", "headers": list(b.headers), "rows": [list(r) for r in b.rows]}


def _text(d: dict[str, Any], key: str, where: str) -> str:
    value = d.get(key)
    if not isinstance(value, str):
        raise ValueError(f"{where}.{key}: a string")
    return value


def _texts(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{where}: a list of strings")
    return tuple(value)


def _item(d: Any, where: str, depth: int = 0) -> Item:
    if not isinstance(d, dict):
        raise ValueError(f"{where}: a table with a text")
    if depth > 8:
        raise ValueError(f"{where}: bullets nested more than 8 deep")
    subs = d.get("items", [])
    if not isinstance(subs, list):
        raise ValueError(f"{where}.items: a list of bullets")
    return Item(_text(d, "text", where),
                tuple(_item(s, f"{where}.items[{i}]", depth + 1) for i, s in enumerate(subs)))


def _block(d: Any, where: str) -> Block:
    if not isinstance(d, dict):
        raise ValueError(f"{where}: a table with a kind")
    kind = d.get("kind")
    if kind == "heading":
        level = d.get("level", 2)
        if not isinstance(level, int) or isinstance(level, bool) or not 1 <= level <= 6:
            raise ValueError(f"{where}.level: a whole number from 1 to 6")
        return Heading(_text(d, "text", where), level)
    if kind == "paragraph":
        return Paragraph(_texts(d.get("lines"), f"{where}.lines"))
    if kind == "bullets":
        items = d.get("items")
        if not isinstance(items, list):
            raise ValueError(f"{where}.items: a list of bullets")
        return Bullets(tuple(_item(x, f"{where}.items[{i}]") for i, x in enumerate(items)))
    if kind == "table":
        headers = _texts(d.get("headers"), f"{where}.headers")
        rows = d.get("rows")
        if not isinstance(rows, list):
            raise ValueError(f"{where}.rows: a list of rows")
        return Table(headers, tuple(_texts(r, f"{where}.rows[{i}]") for i, r in enumerate(rows)))
    raise ValueError(f"{where}.kind: one of heading, paragraph, bullets, table (found {kind!r})")


# --- reading old Markdown reports ---------------------------------------------------------

_HEADING = re.compile(r"(#{1,6})\s+(.*)")
_BULLET = re.compile(r"( *)[-*] (.*)")


def _cells(line: str) -> list[str]:
    inner = line.strip()[1:]
    if inner.endswith("|") and not inner.endswith("\\|"):
        inner = inner[:-1]
    return [p.strip().replace("\\|", "|") for p in re.split(r"(?<!\\)\|", inner)]


def _is_rule(cells: list[str]) -> bool:
    return any(cells) and all(re.fullmatch(r":?-{3,}:?", c) for c in cells if c)


def _bullets(lines: list[str]) -> Bullets:
    """Markdown bullets (two spaces a level) as nested items."""
    root: list[tuple[str, list[Any]]] = []
    stack: list[tuple[int, list[Any]]] = [(-1, root)]
    for line in lines:
        m = _BULLET.fullmatch(line)
        depth, text = (len(m.group(1)) // 2, m.group(2)) if m else (stack[-1][0] + 1, line.strip())
        while len(stack) > 1 and stack[-1][0] >= depth:
            stack.pop()
        node: tuple[str, list[Any]] = (text, [])
        stack[-1][1].append(node)
        stack.append((depth, node[1]))

    def build(nodes: list[tuple[str, list[Any]]]) -> tuple[Item, ...]:
        return tuple(Item(t, build(kids)) for t, kids in nodes)

    return Bullets(build(root))


def from_markdown(text: str) -> Report:
    """A Markdown report (as the app wrote them before, or typed by hand) as blocks."""
    report = Report()
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        m = _HEADING.fullmatch(line.strip())
        if m:
            report.heading(m.group(2).strip(), len(m.group(1)))
            i += 1
            continue
        j = i
        if line.lstrip().startswith("|"):
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                j += 1
            rows = [r for r in (_cells(x) for x in lines[i:j]) if not _is_rule(r)]
            if rows:
                width = max(len(r) for r in rows)
                rows = [r + [""] * (width - len(r)) for r in rows]
                report.table(rows[0], rows[1:])
            else:  # (rules only: no table to show, the text as it is)
                report.paragraph(*lines[i:j])
        else:
            while (j < len(lines) and lines[j].strip() and not lines[j].lstrip().startswith("|")
                   and not _HEADING.fullmatch(lines[j].strip())):
                j += 1
            block = lines[i:j]
            if all((m := _BULLET.fullmatch(x)) and len(m.group(1)) % 2 == 0 for x in block):
                report.blocks.append(_bullets(block))
            else:
                report.paragraph(*block)
        i = j
    return report


# --- renderers ----------------------------------------------------------------------------


def _md_cell(value: str) -> str:
    return value.replace("|", "\\|").replace("\n", " ")


def _md_items(items: tuple[Item, ...], depth: int = 0) -> list[str]:
    out: list[str] = []
    for item in items:
        out.append("  " * depth + "- " + item.text)
        out.extend(_md_items(item.items, depth + 1))
    return out


def markdown_lines(block: Block) -> list[str]:
    if isinstance(block, Heading):
        return ["#" * block.level + " " + block.text]
    if isinstance(block, Paragraph):
        return list(block.lines)
    if isinstance(block, Bullets):
        return _md_items(block.items)
    lines = ["| " + " | ".join(block.headers) + " |",
             "|" + "|".join(" --- " for _ in block.headers) + "|"]
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in block.rows]
    return lines


def render_markdown(report: Report) -> str:
    """Markdown: the blocks one after another, a blank line between two."""
    return "\n\n".join("\n".join(markdown_lines(b)) for b in report.blocks) + "\n"


def render_json(report: Report) -> str:
    """JSON: the blocks as the battle file keeps them, for other tools."""
    return json.dumps({"format": "munda-tui report", "version": 1, "title": report.title,
                       "blocks": report.to_data()}, ensure_ascii=False, indent=2) + "\n"
