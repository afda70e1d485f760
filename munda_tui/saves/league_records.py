"""A league's merge by the records (issue 30): the union of both sides' record files,
folded by the rules (``rules.history.fold``) into the gang files. Git never merges a
gang file: it is written from the fold, the same on every laptop in any sync order.

This module works on texts (``saves.league`` reads the blobs and writes the merge); it
runs no git itself.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules.history import fold as folding
from ..rules.history.fold import Question, Record
from . import codec
from .files import GANGS_DIR, RECORDS_DIR, toml_loads


@dataclass
class Folded:
    """What the merged records fold to."""

    gangs: dict[str, str]  # gang file path -> its text
    fold: folding.Fold
    records: dict[str, Record] = field(default_factory=dict)  # id -> record
    problems: list[str] = field(default_factory=list)  # record files refused (path:line:col: why)


def parse_records(texts: Mapping[str, str], refs: Any) -> tuple[dict[str, Record], list[str]]:
    from . import records

    out: dict[str, Record] = {}
    problems: list[str] = []
    for path, text in sorted(texts.items()):
        try:
            r = records.from_data(toml_loads(text), refs.number_of)
        except tomllib.TOMLDecodeError as error:
            problems.append(f"{path}:{getattr(error, 'lineno', 1)}:{getattr(error, 'colno', 1)}: "
                            f"{getattr(error, 'msg', str(error))}")
            continue
        except ValueError as error:
            problems.append(f"{path}:1:1: {error}")
            continue
        out[r.id] = r
    return out, problems


def fold_texts(directory: Path, record_texts: Mapping[str, str], old_gangs: Mapping[str, str],
               known: Mapping[str, Record] | None = None, refs: Any = None) -> Folded:
    """The gang files (path -> text) the records (path -> text) fold to; ``old_gangs``
    this laptop's gang files (their comments kept where the fold leaves a gang as it is);
    ``known``: records already read (path -> record, read through ``refs``).
    A record file that does not load is left out and named in ``problems``; a folded
    gang that would not load raises SaveError (never written, never pushed)."""
    from . import cache
    from .errors import SaveError
    from .folder import gang_file_name, gang_text_and_data, load_gang_file, parsed_gang
    from .records import FileCodec, Refs

    refs = refs or Refs({})
    recs, problems = parse_records(record_texts, refs)
    for r in (known or {}).values():
        recs.setdefault(r.id, r)
    result = folding.fold(recs.values(), FileCodec(refs))
    gangs: dict[str, str] = {}
    for gid, data in result.gangs.items():
        path = f"{GANGS_DIR}/{gang_file_name(gid)}"
        full = {"schema_version": codec.SCHEMA_VERSIONS[codec.GANG], **data}
        old = old_gangs.get(path)
        if old is not None:  # (a gang the fold left as this laptop has it: its file as it is)
            try:
                same = cache.parsed(directory / path, old) == full
            except SaveError:
                same = False
            if same:
                gangs[path] = old
                continue
        text = gang_text_and_data(None, int(data.get("order", 0)), old, data=full)[0]  # type: ignore[arg-type]
        if text != old:
            load_gang_file(directory / path, text)  # (SaveError: a gang that does not load)
            cache.remember_parse(directory / path, text, parsed_gang(directory / path, text))
        gangs[path] = text
    return Folded(gangs, result, recs, problems)


def is_record(path: str) -> bool:
    return path.startswith(RECORDS_DIR + "/") and path.endswith(".toml")


def record_of(text: str) -> dict[str, Any]:
    """A record file's data ({} when it does not read)."""
    try:
        return toml_loads(text)
    except (tomllib.TOMLDecodeError, ValueError):
        return {}


def snapshot(handle: Any) -> tuple[set[tuple[str, int]], set[tuple[str, str]]]:
    """The open questions and the answers applied, as the open campaign folds now."""
    keeper = handle._records
    return ({(q.record, q.index) for q in keeper.questions}, {(c.id, r.id) for c, r in keeper.answered})


def news(handle: Any, before: tuple[set[tuple[str, int]], set[tuple[str, str]]]) -> list[str]:
    """What a sync did to this laptop's battles and edits (issue 30.5), in words: each
    change of theirs that now waits for the Arbitrator, each answer that voided or
    changed one (``before``: :func:`snapshot` before the sync)."""
    from .folder import battle_stem
    from .records import player

    keeper = handle._records
    me = player()
    numbers = {battle_stem(name): n for n, name in handle._battle_files.items()}
    names = {g.id: g.name for g in handle.campaign.gangs}
    out: list[str] = []

    def title(battle: str, date: str) -> str:
        if battle:
            n = numbers.get(battle)
            return f"Battle {n} (yours)" if n else "Your battle"
        return f"Your roster edit of {date}" if date else "Your roster edit"

    for q in keeper.questions:
        if q.by == me and (q.record, q.index) not in before[0]:
            out.append(f"{title(q.battle, q.date)}: {names.get(q.gang, q.gang)}: {q.what} waits for the "
                       f"Arbitrator ({q.why})")
    for c, r in keeper.answered:
        if r.by == me and (c.id, r.id) not in before[1]:
            ch = r.changes[c.index] if c.index < len(r.changes) else {}
            what = folding.change_words(ch, lambda g: names.get(g, g)) if ch else "its change"
            verb = {"void": "voided", "keep": "kept", "amount": f"set to {c.amount:+d}"}.get(c.answer, c.answer)
            out.append(f"{title(r.battle, r.date)}: {what} {verb} by the Arbitrator's answer")
    return out


__all__ = ["Folded", "fold_texts", "is_record", "parse_records", "record_of", "news", "snapshot"]
