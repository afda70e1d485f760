"""Reading a gang file from disk for import.

The bytes are read and parsed here; what they mean is decided by
``rules.yaktribe``. Every failure is a ``GangImportError`` with a message a
player can act on, and nothing is changed when one is raised.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from collections.abc import Collection, Mapping

from munda_tui.rules.core.data import RuleData
from munda_tui.rules.core.model import FighterType

from .errors import SaveError
from munda_tui.rules.campaign.yaktribe import (
    YaktribeError,
    YaktribeImport,
    assign_roles,
    gang_from_yaktribe,
    role_key,
    roles_question,
)

if TYPE_CHECKING:
    from munda_tui.saves.store import CampaignHandle

#: Larger than any gang export (the 18-fighter fixture is 14 kB).
MAX_BYTES = 5_000_000


class GangImportError(Exception):
    """The file could not be imported; the message says why."""


def read_json(path: Path) -> object:
    path = Path(path).expanduser()
    if not path.exists():
        raise GangImportError(f"{path}: no such file")
    if path.is_dir():
        raise GangImportError(f"{path}: is a folder, not a file")
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise GangImportError(
                f"{path}: {size} bytes is far too large for a gang export"
            )
        raw = path.read_bytes()
    except OSError as error:
        raise GangImportError(f"{path}: cannot be read ({error.strerror or error})") from error
    if not raw.strip():
        raise GangImportError(f"{path}: the file is empty")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise GangImportError(
            f"{path}: not a text file (byte {error.start} is not UTF-8); "
            "expected the JSON a Yaktribe gang export gives"
        ) from error
    try:
        return json.loads(text, parse_int=_short_int, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise GangImportError(
            f"{path}: not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise GangImportError(f"{path}: nested far too deeply for a gang export") from None
    except _Refused as error:
        raise GangImportError(f"{path}: {error}") from None


class _Refused(ValueError):
    pass


def _short_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > 30:
        raise _Refused(f"a {digits}-digit number is far too large for a gang export")
    return int(text)


def _no_constant(name: str) -> float:
    raise _Refused(f"{name} is not a number a gang export holds")


def read_yaktribe(path: Path, *, taken_ids: Collection[str] = (),
                  roles: Mapping[str, FighterType] | None = None,
                  ruleset: str = "", rule_data: RuleData | None = None) -> YaktribeImport:
    """Read and convert a Yaktribe gang export (``.../json/gang/<id>.json``).
    ``roles``: the campaign's remembered role per fighter type name; ``ruleset``: the
    campaign's post-battle ruleset (the range of the gang's Reputation); ``rule_data``:
    the packs in force (their fighter roles)."""
    data = read_json(path)
    try:
        result = gang_from_yaktribe(data, taken_ids=taken_ids, roles=roles, ruleset=ruleset,
                                    rule_data=rule_data)
    except YaktribeError as error:
        raise GangImportError(f"{Path(path).name}: {error}") from None
    except RecursionError:
        raise GangImportError(f"{Path(path).name}: nested far too deeply for a gang export") from None
    # What the campaign file will accept: ranges and lengths of rules.limits, by the codec.
    from . import codec
    from ..rules.core.model import Gang

    try:
        codec.from_data(Gang, codec.to_data(result.gang), ("gang",))
    except codec.ValidationError as error:
        raise GangImportError(f"{Path(path).name}: {error}") from None
    return result


class RolesNeeded(GangImportError):
    """Some fighter type names have no role yet; ``result.unknown_types`` lists them."""

    def __init__(self, result: YaktribeImport) -> None:
        super().__init__(roles_question(result))
        self.result = result


def import_yaktribe(handle: "CampaignHandle", path: Path, *,
                    roles: Mapping[str, FighterType] | None = None,
                    assume_ganger: bool = False,
                    rule_data: RuleData | None = None) -> YaktribeImport:
    """Add a Yaktribe gang to an open campaign and save it. On any error the
    campaign is left as it was.

    Every fighter needs a role: type names the importer cannot place take the
    role the player gave in ``roles`` (remembered in the campaign's
    ``fighter_roles`` for the next import); any left raise RolesNeeded unless
    ``assume_ganger`` (then they stay Gangers, not remembered)."""
    campaign = handle.campaign
    result = read_yaktribe(path, taken_ids={g.id for g in campaign.gangs},
                           roles=campaign.fighter_roles,
                           ruleset=str(campaign.settings.post_battle_ruleset),
                           rule_data=rule_data)
    given = {role_key(k): FighterType(v) for k, v in (roles or {}).items()}
    asked = [role_key(k) for k in result.unknown_types]
    assign_roles(result, given)
    if result.unknown_types:
        if not assume_ganger:
            raise RolesNeeded(result)
        result.notes.append(
            "Recorded as Gangers (--assume-ganger): "
            + ", ".join(f"{label} ({', '.join(names)})" for label, names in result.unknown_types.items())
            + ". Change them in the roster if they are not."
        )
    remembered = {k: given[k] for k in asked if k in given}
    names = {g.name.strip().lower() for g in campaign.gangs}
    if result.gang.name.strip().lower() in names:
        raise GangImportError(
            f"{campaign.name} already has a gang named {result.gang.name}: "
            "rename or remove it first"
        )
    # new values, committed by the handle (all or nothing: the old values stand on a failure)
    new = replace(campaign, gangs=[*campaign.gangs, result.gang],
                  fighter_roles={**campaign.fighter_roles, **remembered})
    try:
        handle.commit(new)
    except SaveError as error:
        raise GangImportError(f"{Path(path).name}: not imported: {error.message}") from None
    _learn(handle, result)
    return result


def _learn(handle: "CampaignHandle", result: YaktribeImport) -> None:
    """The campaign's catalogue learns the imported fighters' types and items. The gang
    is imported already: a catalogue that cannot be read or written is only noted."""
    from .catalogue import load_campaign_catalogue, save_campaign_catalogue
    from .errors import SaveError

    try:
        catalogue = load_campaign_catalogue(handle.path)
        # (the file's dead, among the fallen, have types and items the catalogue learns too)
        if catalogue.learn_gang(result.gang.fighters + result.gang.fallen, result.gang.stash):
            save_campaign_catalogue(handle.path, catalogue)
    except (SaveError, OSError) as error:
        result.notes.append(f"The campaign's catalogue did not learn this gang: {error}")
