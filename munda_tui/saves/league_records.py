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
    records: dict[str, Record] = field(default_factory=dict)  # id -> record (of those read here)
    problems: list[str] = field(default_factory=list)  # record files refused (path:line:col: why)
    #: the fold put aside (``rules.history.fold.fold_state``) and the record files it
    #: folded (name -> git blob id); None when a record's file name is not its own
    state: dict[str, Any] | None = None
    state_records: dict[str, str] | None = None


def parse_records(texts: Mapping[str, str], refs: Any,
                  names: dict[str, str] | None = None) -> tuple[dict[str, Record], list[str]]:
    """The records of ``texts`` (path -> text) by id, and the files that do not load;
    ``names``, when given, gets each record's id -> its file's path."""
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
        if names is not None:
            names[r.id] = path
    return out, problems


def fold_texts(directory: Path, record_texts: Mapping[str, str], old_gangs: Mapping[str, str],
               known: Mapping[str, Record] | None = None, refs: Any = None,
               blobs: Mapping[str, str] | None = None) -> Folded:
    """The gang files (path -> text) the records (path -> text) fold to; ``old_gangs``
    this laptop's gang files (their comments kept where the fold leaves a gang as it is);
    ``known``: records already read (path -> record, read through ``refs``); ``blobs``:
    each record file's git blob id (path -> id), to put the fold aside
    (:attr:`Folded.state`). A record file that does not load is left out and named in
    ``problems``; a folded gang that would not load raises SaveError (never written,
    never pushed)."""
    from .records import FileCodec, Refs

    refs = refs or Refs({})
    paths: dict[str, str] = {}
    recs, problems = parse_records(record_texts, refs, paths)
    for path, r in (known or {}).items():
        if r.id not in recs:
            recs[r.id] = r
            paths[r.id] = path
    result, state = folding.fold_state(recs.values(), FileCodec(refs))
    folded = Folded(gang_texts(directory, result, old_gangs), result, recs, problems)
    if blobs is not None:
        folded.state, folded.state_records = state, _named_blobs(recs.values(), paths, blobs)
    return folded


def _named_blobs(recs: Any, paths: Mapping[str, str], blobs: Mapping[str, str]) -> dict[str, str] | None:
    """Each record's file name -> its blob id; None when a record is not in the file its
    id and date name (the kept fold goes by file names: ``records.kept_fold``)."""
    from .records import file_name

    out: dict[str, str] = {}
    for r in recs:
        path = paths.get(r.id, "")
        name = path[len(RECORDS_DIR) + 1:]
        if name != file_name(r) or path not in blobs:
            return None
        out[name] = blobs[path]
    return out


def fold_on(directory: Path, kept: Mapping[str, Any], record_blobs: Mapping[str, str],
            read: Any, old_gangs: Mapping[str, str], refs: Any) -> Folded | None:
    """The records of ``record_blobs`` (path -> git blob id) folded on from the fold put
    aside (``kept``: :func:`records.kept_fold`'s): only the records it has not folded
    are read (``read``: paths -> their texts) and folded, and only the gangs they name
    made again. None where that cannot be (a record it folded changed or went, a new one
    sorts before its last, an answer to one it folded): fold them all.
    The result is :func:`fold_texts`'s (tests/rules/history/test_fold_on.py)."""
    from .folder import gang_file_name
    from .records import FileCodec

    folded_blobs: Mapping[str, str] = kept["records"]
    prefix = RECORDS_DIR + "/"
    if any(record_blobs.get(prefix + name) != blob for name, blob in folded_blobs.items()):
        return None
    new = [p for p in record_blobs if p[len(prefix):] not in folded_blobs]
    paths: dict[str, str] = {}
    recs, problems = parse_records(read(new), refs, paths)
    by_id = {name[11:-5]: prefix + name for name in folded_blobs}  # (<date>-<id>.toml: checked when kept)
    asked: dict[str, Record] = {}

    def record(rid: str) -> Record:
        if rid not in asked:
            path = by_id[rid]
            found, _bad = parse_records(read([path]), refs)
            if rid not in found:
                raise KeyError(rid)
            asked[rid] = found[rid]
        return asked[rid]

    untouched: set[str] = set()
    try:
        result, state = folding.fold_on(kept["state"], recs.values(), FileCodec(refs), record, untouched)
    except ValueError:
        return None
    # (a gang the new records left as the kept fold has it, whose file is the text that
    # fold made or kept: that text, not read again to compare)
    said = kept.get("texts")
    texts: Mapping[str, Any] = said if isinstance(said, dict) else {}
    same = {path for path in (f"{GANGS_DIR}/{gang_file_name(gid)}" for gid in untouched)
            if path in old_gangs and texts.get(path) == text_digest(old_gangs[path])}
    folded = Folded(gang_texts(directory, result, old_gangs, same), result, recs, problems)
    named = _named_blobs(recs.values(), paths, record_blobs)
    if named is not None:
        folded.state, folded.state_records = state, {**folded_blobs, **named}
    return folded


from .records import text_digest  # noqa: E402  (the kept fold's digests: records keeps them)


def gang_texts(directory: Path, result: folding.Fold, old_gangs: Mapping[str, str],
               kept: set[str] | frozenset[str] = frozenset()) -> dict[str, str]:
    """Each gang file's text (path -> text) as the fold ``result`` has the gang: this
    laptop's text (``old_gangs``) where it holds the same (known to: ``kept``), else
    made and loaded (SaveError: a gang that does not load)."""
    from . import cache
    from .errors import SaveError
    from .folder import gang_file_name, gang_text_and_data, load_gang_file, parsed_gang

    gangs: dict[str, str] = {}
    for gid, data in result.gangs.items():
        path = f"{GANGS_DIR}/{gang_file_name(gid)}"
        full = {"schema_version": codec.SCHEMA_VERSIONS[codec.GANG], **data}
        old = old_gangs.get(path)
        if old is not None and path in kept:
            gangs[path] = old
            continue
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
    return gangs


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


__all__ = ["Folded", "fold_on", "fold_texts", "gang_texts", "text_digest", "is_record", "parse_records", "record_of", "news", "snapshot"]
