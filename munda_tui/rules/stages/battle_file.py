"""A battle file as typed parts, decoded once when a battle is opened.

A battle file (``saves`` reads and writes its bytes) holds one top-level table per stage:
``setup`` (the pre-battle flow's :class:`BattleSetup`), ``battle`` (the tracker's
:class:`BattleRecord`), ``postbattle`` (the wizard's :class:`PostBattleDraft`) and
``report`` (the :class:`BattleReport` the commit writes). :meth:`BattleFile.from_data`
turns the plain dict ``saves`` loaded into those parts, and :meth:`BattleFile.part` /
:meth:`BattleFile.to_data` turn them back into plain data for ``saves`` to write: no stage
reads or writes the dict itself (tests/rules/stages/test_battle_file.py).

The tracker's record replays its log when decoded (30 ms for 1,000 events): it is decoded
the first time it is asked for (:attr:`BattleFile.battle`), once, and the post-battle
stage, which needs only the outcome, reads :attr:`BattleFile.outcome` alone. A part never
decoded is written back exactly as it was read; tables this version does not know are
kept as they are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..battle.events import outcome_from_data
from ..battle.record import BattleRecord
from ..core.outcome import BattleOutcome
from ..prebattle.setup import BattleSetup

#: the parts, in the order a new file lists them
PARTS = ("setup", "battle", "postbattle", "report")

class _Unread:
    """A part not decoded yet (its table is still in ``BattleFile.read``)."""


_UNREAD = _Unread()


@dataclass
class PostBattleDraft:
    """The wizard's draft (the ``postbattle`` table): the answers, entries and step the
    post-battle sequence replays (:class:`munda_tui.rules.postbattle.sequence.PostBattle`
    walks ``data`` itself, so the draft on disk is the sequence's own), and the commit it
    prepared."""

    data: dict[str, Any]

    @property
    def status(self) -> str:
        """``draft``, ``committing`` (the commit prepared, not applied yet) or ``done``."""
        return str(self.data.get("status", "draft"))

    @property
    def prepared(self) -> dict[str, Any] | None:
        """The commit prepared (the ``commit`` table): the changes, report, standings to apply once."""
        commit = self.data.get("commit")
        return commit if isinstance(commit, dict) else None

    @property
    def finishing(self) -> bool:
        """Prepared or applied: opening the stage finishes the commit, never walks again."""
        return self.status in ("done", "committing")


@dataclass
class BattleReport:
    """The ``report`` table the commit writes: the report as blocks (``markdown`` for a
    report saved before reports were blocks), the winner, each gang's standing after the
    battle and the commit's token."""

    blocks: list[dict[str, Any]] | None = None
    markdown: str = ""
    winner: str = ""
    standings: dict[str, dict[str, Any]] = field(default_factory=dict)
    applied: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> "BattleReport":
        extra = dict(data)
        blocks = extra.pop("blocks", None)
        markdown = extra.pop("markdown", "")
        return cls(blocks=blocks if isinstance(blocks, list) else None,
                   markdown=markdown if isinstance(markdown, str) else "",
                   winner=str(extra.pop("winner", "")),
                   standings=dict(extra.pop("standings", {}) or {}),
                   applied=str(extra.pop("applied", "")), extra=extra)

    @classmethod
    def of_commit(cls, commit: dict[str, Any]) -> "BattleReport":
        """The report a prepared commit writes (a draft committed before reports were
        blocks holds the Markdown itself)."""
        saved = commit["report"]
        return cls(blocks=None if isinstance(saved, str) else saved,
                   markdown=saved if isinstance(saved, str) else "",
                   winner=commit.get("winner", ""), standings=commit["standings"],
                   applied=commit["token"])

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.blocks is not None:
            out["blocks"] = self.blocks
        else:
            out["markdown"] = self.markdown
        out.update(winner=self.winner, standings=self.standings, applied=self.applied)
        out.update(self.extra)
        return out

    def text(self, number: int | None = None) -> str:
        """The report in Markdown (as every saved report is read: ``commit_report``),
        titled with ``number``, the battle's number now."""
        from ..postbattle.sequence import commit_report

        return commit_report(self.to_data(), number)


#: a part's value (None: the file has no such part yet)
Part = BattleSetup | BattleRecord | PostBattleDraft | BattleReport | None


def part_data(name: str, value: Part) -> Any:
    """A part's value (a :class:`BattleSetup`, :class:`BattleRecord`,
    :class:`PostBattleDraft` or :class:`BattleReport`; None: none) as plain data, for
    ``saves`` to write: a stage move saves the new value before the file adopts it."""
    if name not in PARTS:
        raise KeyError(f"no part {name!r} in a battle file")
    if value is None:
        return None
    return value.data if isinstance(value, PostBattleDraft) else value.to_data()


@dataclass
class BattleFile:
    """One battle's file as typed parts (None: the stage has not written its part yet)."""

    number: int
    setup: BattleSetup | None = None
    postbattle: PostBattleDraft | None = None
    report: BattleReport | None = None
    #: the tables as read: the tracker's until it is decoded, and those this version does
    #: not know (written back as they are, in their place)
    read: dict[str, Any] = field(default_factory=dict)
    _battle: BattleRecord | None | _Unread = field(default=_UNREAD, repr=False, compare=False)
    _outcome: BattleOutcome | None | _Unread = field(default=_UNREAD, repr=False, compare=False)

    # --- reading ----------------------------------------------------------------------

    @classmethod
    def from_data(cls, number: int, data: dict[str, Any]) -> "BattleFile":
        """The parts of a battle file's data as ``saves`` loaded it ({}: no file yet).
        A part that does not make its type raises (KeyError, TypeError, ValueError),
        said by whoever opens the battle; the tracker's record is decoded when first
        asked for (:attr:`battle`)."""
        setup = data.get("setup")
        draft = data.get("postbattle")
        report = data.get("report")
        return cls(number=number,
                   setup=BattleSetup.from_data(setup) if setup else None,
                   postbattle=PostBattleDraft(draft) if draft else None,
                   report=BattleReport.from_data(report) if report else None,
                   read=dict(data))

    @property
    def battle(self) -> BattleRecord | None:
        """The tracker's record as it was saved (decoded once, when first asked for: its
        log replayed), or None when the battle has no ``battle`` table yet."""
        if isinstance(self._battle, _Unread):
            table = self.read.get("battle")
            self._battle = BattleRecord.from_data(table) if table else None
        return self._battle

    @battle.setter
    def battle(self, record: BattleRecord | None) -> None:
        self._battle = record
        self._outcome = _UNREAD

    @property
    def outcome(self) -> BattleOutcome | None:
        """What the tracker handed on when the battle was finished (None: fought without
        the tracker, or not finished). Read without replaying the log when the record
        was not decoded; an outcome that does not decode raises."""
        if not isinstance(self._battle, _Unread):
            return None if self._battle is None else self._battle.outcome
        if isinstance(self._outcome, _Unread):
            stored = (self.read.get("battle") or {}).get("outcome")
            self._outcome = outcome_from_data(stored) if stored else None
        return self._outcome

    # --- writing ----------------------------------------------------------------------

    def part(self, name: str) -> Any:
        """One part as plain data, for ``saves`` to write (None: the file has none)."""
        if name == "battle" and isinstance(self._battle, _Unread):
            return self.read.get("battle")
        if name not in PARTS:
            raise KeyError(f"no part {name!r} in a battle file")
        value: Part = getattr(self, name)
        return part_data(name, value)

    def to_data(self) -> dict[str, Any]:
        """The whole file as plain data: each part (an empty table read stays), the
        tables this version does not know, in the order they were read."""
        out: dict[str, Any] = {}
        for name in [*self.read, *(p for p in PARTS if p not in self.read)]:
            value = self.part(name) if name in PARTS else self.read[name]
            if value is None and name in PARTS:
                value = self.read.get(name)  # (an empty table read: written back)
            if value is not None:
                out[name] = value
        return out


__all__ = ["BattleFile", "BattleReport", "PARTS", "Part", "PostBattleDraft", "part_data"]
