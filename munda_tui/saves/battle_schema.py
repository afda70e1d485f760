"""What a battle file may hold, checked when it is loaded (as ``campaign.toml`` is).

A battle file's parts are owned by the pre-battle flow (``setup``), the tracker
(``battle``), the post-battle wizard (``postbattle``) and the report (``report``).
Each part's shape is checked here, strictly where the rules have a dataclass for it
(the set-up, the outcome), by type elsewhere, so a hand edit or a broken file is
refused at load with the key path that is wrong (``setup.sides[0].crew[1].note:
unknown key``) instead of failing in a screen. Each logged event is checked field by
field against ``rules.battle.Event``; what the events or the draft *mean* is the
rules' business: an event that does not replay is kept aside by
``rules.battle.Battle.load``, never lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules.core.outcome import BattleOutcome
from ..rules.prebattle.setup import BattleSetup
from . import codec
from .codec import KeyPath, ValidationError, _describe, from_data

#: The post-battle draft's statuses.
DRAFT_STATUSES = ("draft", "committing", "done")


def _table(value: Any, keypath: KeyPath) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValidationError(keypath, f"expected a table, found {_describe(value)}")
    return value


def _tables(value: Any, keypath: KeyPath) -> list[Mapping[str, Any]]:
    if not isinstance(value, list):
        raise ValidationError(keypath, f"expected an array of tables, found {_describe(value)}")
    for i, item in enumerate(value):
        _table(item, (*keypath, i))
    return value


def _typed(part: Mapping[str, Any], key: str, tp: type | tuple[type, ...], what: str, keypath: KeyPath) -> None:
    if key in part:
        value = part[key]
        if not isinstance(value, tp) or (tp is int and isinstance(value, bool)):
            raise ValidationError((*keypath, key), f"expected {what}, found {_describe(value)}")


def _outcome(value: Any, keypath: KeyPath) -> None:
    from_data(BattleOutcome, value, keypath)


def check_setup(setup: Any) -> None:
    if isinstance(setup, Mapping) and not setup:
        return  # an empty [setup]: the pre-battle flow has not begun
    from_data(BattleSetup, setup, ("setup",))


def check_battle(part: Any) -> None:
    kp: KeyPath = ("battle",)
    part = _table(part, kp)
    for key in ("log", "redo", "rejected"):
        if key in part:
            events = _tables(part[key], (*kp, key))
            if key != "rejected":  # events kept aside as not replaying stay as they are
                from ..rules.battle.events import EVENTS
                from ..rules.core import typed

                for i, ev in enumerate(events):
                    if not isinstance(ev.get("kind"), str):
                        raise ValidationError((*kp, key, i), "an event needs a kind (a string)")
                    kind = EVENTS.get(ev["kind"])  # (an unknown kind: the tracker keeps it aside)
                    if kind is not None:
                        try:  # every field of its kind's type
                            typed.from_data(ev, kind)
                        except ValueError as error:
                            at, message = typed.where(error)
                            raise ValidationError((*kp, key, i, *at), message) from None
    if "seen" in part:
        seen = _table(part["seen"], (*kp, "seen"))
        for gang, cards in seen.items():
            if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                raise ValidationError((*kp, "seen", gang), "expected an array of card ids")
    if "outcome" in part:
        _outcome(part["outcome"], (*kp, "outcome"))


def check_postbattle(part: Any) -> None:
    kp: KeyPath = ("postbattle",)
    part = _table(part, kp)
    if not part:
        return  # an empty [postbattle]: the wizard has not begun
    _typed(part, "ruleset", str, "a string", kp)
    _typed(part, "step", str, "a string", kp)
    _typed(part, "seq", int, "an integer", kp)
    if "ruleset" not in part:
        raise ValidationError(kp, "missing key 'ruleset'")
    from ..rules.core.rulesets import ruleset_ids

    from ..rules.core.limits import is_pack_id

    if part["ruleset"] not in ruleset_ids() and not is_pack_id(part["ruleset"]):
        raise ValidationError((*kp, "ruleset"), f"unknown post-battle ruleset {part['ruleset'][:40]!r}") from None
    status = part.get("status", "draft")
    if status not in DRAFT_STATUSES:
        raise ValidationError((*kp, "status"), f"unknown value; expected one of {', '.join(DRAFT_STATUSES)}")
    if "answers" in part:
        _table(part["answers"], (*kp, "answers"))
    if "entries" in part:
        entries = _table(part["entries"], (*kp, "entries"))
        for step, items in entries.items():
            items = _tables(items, (*kp, "entries", step))
            for i, e in enumerate(items):
                if not isinstance(e.get("id"), str):
                    raise ValidationError((*kp, "entries", step, i), "an entry needs an id (a string)")
    if "commit" in part:
        _table(part["commit"], (*kp, "commit"))
    if status in ("committing", "done") and "commit" not in part:
        raise ValidationError((*kp, "status"), f"status {status!r} needs the [postbattle.commit] table")
    if "outcome" in part:
        _outcome(part["outcome"], (*kp, "outcome"))


def check_report(part: Any) -> None:
    kp: KeyPath = ("report",)
    part = _table(part, kp)
    _typed(part, "markdown", str, "a string", kp)
    if "blocks" in part:
        from munda_tui.rules.campaign.report_doc import Report

        try:
            Report.from_data(part["blocks"])
        except ValueError as error:  # "blocks[3].rows[0]: a list of strings"
            where, _, what = str(error).partition(": ")
            path: list[str | int] = []
            for piece in where.replace("]", "").split("."):
                name, _, index = piece.partition("[")
                path.append(name)
                if index:
                    path.append(int(index))
            raise ValidationError((*kp, *path), what) from None


CHECKS = {
    "setup": check_setup,
    "battle": check_battle,
    "postbattle": check_postbattle,
    "report": check_report,
}


def check_battle_data(data: Mapping[str, Any]) -> None:
    """ValidationError naming the key path when a part of a battle file is wrong."""
    for key, check in CHECKS.items():
        if key in data:
            check(data[key])


def check_part(key: str, value: Any) -> None:
    """What :func:`battle_from_data` checks of one top-level part of a battle file (the
    parts are checked independently: a file whose other parts passed passes with this)."""
    codec.check_plain(value, (key,))
    if key in CHECKS:
        if not isinstance(value, Mapping):
            raise codec.ValidationError((key,), f"expected a table, found {codec._describe(value)}")
        CHECKS[key](value)


#: a battle file's keys that are the campaign folder's, not a stage's (``saves.folder``)
NUMBER, SUMMARY = "number", "summary"


def check_head(data: Mapping[str, Any], *, needs_number: bool) -> tuple[int | None, Any]:
    """A battle file's ``number`` and ``[summary]`` (the campaign's line for it), checked
    as the campaign folder reads them: (the number, the BattleSummary; None where the
    file has none). ``needs_number``: a battle file of the split folder
    (``<date>-<random>.toml``) must say its number; an old ``0007.toml`` says it by its
    name. ValidationError naming the key that is wrong. The one check of a battle's
    head: the folder's scan, ``munda-tui check``, a backup offered and a sync all use it."""
    from ..rules.core import limits
    from ..rules.core.model import BattleSummary

    if NUMBER not in data:
        if needs_number or SUMMARY in data:
            raise ValidationError((), "no battle number (number = N)")
        return None, None
    number = data[NUMBER]
    if type(number) is not int:
        raise ValidationError((NUMBER,), f"expected an integer, found {_describe(number)}")
    lo, hi = limits.range_of("BattleSummary", NUMBER) or (0, limits.INT64_MAX)
    if not lo <= number <= hi:
        raise ValidationError((NUMBER,), f"battle number {limits.show_number(number)} is out of "
                              f"range ({lo} to {hi})")
    if SUMMARY not in data:
        return number, None
    summary = data[SUMMARY]
    if not isinstance(summary, Mapping):
        raise ValidationError((SUMMARY,), f"expected a table, found {_describe(summary)}")
    return number, from_data(BattleSummary, {**summary, NUMBER: number}, (SUMMARY,))


def check_file_head(data: Mapping[str, Any], *, needs_number: bool) -> tuple[int | None, Any]:
    """What a battle file must get right before anything of it is read: its
    ``schema_version``, its number and its summary (:func:`check_head`), in the order
    every reader checks them, so the campaign's scan and a load say the same."""
    codec.schema_version(data, codec.BATTLE)
    codec.check_plain({k: data[k] for k in (NUMBER, SUMMARY) if k in data})
    return check_head(data, needs_number=needs_number)


def battle_from_data(data: Mapping[str, Any], *, needs_number: bool = False) -> tuple[dict[str, Any], int]:
    """A battle file's data without ``schema_version``: (data, the version it had).
    Its number and summary are checked too (:func:`check_head`)."""
    check_file_head(data, needs_number=needs_number)
    current, version = codec.migrate(data, codec.BATTLE)
    codec.check_plain(current)
    for key in ("setup", "battle", "postbattle", "report"):
        if key in current and not isinstance(current[key], Mapping):
            raise codec.ValidationError((key,), f"expected a table, found {codec._describe(current[key])}")
    check_battle_data(current)
    out = dict(current)
    out.pop("schema_version", None)
    return out, version
