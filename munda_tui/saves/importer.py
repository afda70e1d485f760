"""Reading a gang file from disk for import.

The bytes are read and parsed here; what they mean is decided by
``rules.yaktribe``. Every failure is a ``GangImportError`` with a message a
player can act on, and nothing is changed when one is raised.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from munda_tui.rules.yaktribe import YaktribeError, YaktribeImport, gang_from_yaktribe

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
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise GangImportError(
            f"{path}: not valid JSON at line {error.lineno}, column {error.colno}: {error.msg}"
        ) from error


def read_yaktribe(path: Path, *, taken_ids: set[str] | list[str] = ()) -> YaktribeImport:
    """Read and convert a Yaktribe gang export (``.../json/gang/<id>.json``)."""
    data = read_json(path)
    try:
        return gang_from_yaktribe(data, taken_ids=taken_ids)
    except YaktribeError as error:
        raise GangImportError(f"{Path(path).name}: {error}") from error


def import_yaktribe(handle: "CampaignHandle", path: Path) -> YaktribeImport:
    """Add a Yaktribe gang to an open campaign and save it. On any error the
    campaign is left as it was."""
    campaign = handle.campaign
    result = read_yaktribe(path, taken_ids={g.id for g in campaign.gangs})
    names = {g.name.strip().lower() for g in campaign.gangs}
    if result.gang.name.strip().lower() in names:
        raise GangImportError(
            f"{campaign.name} already has a gang named {result.gang.name}: "
            "rename or remove it first"
        )
    campaign.gangs.append(result.gang)
    try:
        handle.save()
    except Exception:
        campaign.gangs.remove(result.gang)
        raise
    return result
