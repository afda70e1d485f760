"""Huge Yaktribe exports (issue 26 item 15): a gang above the size limit of
``rules.limits`` is refused with a clear message, and importing is linear in the
number of fighters (counted in lines of the app's code run, not timed)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from munda_tui.rules.core import limits as limits
from munda_tui.rules.core.model import Campaign, FighterType
from munda_tui.rules.campaign.yaktribe import YaktribeError, assign_roles, gang_from_yaktribe
from munda_tui.saves import Store
from munda_tui.saves.importer import GangImportError, import_yaktribe

APP = str(Path(limits.__file__).parents[2])  # .../munda_tui


def export(n: int, *, same_name: bool = False, own_types: bool = False) -> dict[str, Any]:
    """A Yaktribe export of ``n`` fighters (the documented format, see
    ../shared/fixtures/README.md), every one a Ganger unless ``own_types``
    gives each a type name of its own the app cannot place."""
    return {"gang": {
        "gang_id": "1", "gang_name": "The Many", "gang_type": "Orlock", "credits": "0",
        "gangers": [
            {"name": "Same" if same_name else f"Fighter {i}",
             "type": f"Odd Type {i}" if own_types else "Gunner",
             "cost": "50", "xp": "0", "status": "Alive", "equipment": []}
            for i in range(n)
        ],
    }}


def test_a_gang_above_the_limit_is_refused() -> None:
    assert limits.GANG_FIGHTERS_MAX == 300
    gang = gang_from_yaktribe(export(limits.GANG_FIGHTERS_MAX)).gang
    assert len(gang.fighters) == limits.GANG_FIGHTERS_MAX
    with pytest.raises(YaktribeError) as refused:
        gang_from_yaktribe(export(limits.GANG_FIGHTERS_MAX + 1))
    assert str(refused.value) == (
        "gangers: the file lists 301 fighters; a gang holds at most 300 in munda-tui "
        "(a real gang has a few dozen at most)"
    )


def test_a_refused_import_changes_nothing(tmp_path: Path) -> None:
    store = Store(tmp_path / "data")
    handle = store.create_campaign(Campaign(id="sump", name="Sump"))
    file = tmp_path / "data" / "campaigns" / "sump" / "campaign.toml"
    before = file.read_bytes()
    path = tmp_path / "many.json"
    path.write_text(json.dumps(export(20_000)), encoding="utf-8")
    with pytest.raises(GangImportError, match="lists 20000 fighters; a gang holds at most 300"):
        import_yaktribe(handle, path)
    assert handle.campaign.gangs == [] and file.read_bytes() == before
    handle.close()


def _lines_run(data: dict[str, Any]) -> int:
    """Lines of munda_tui run to import ``data`` and answer every type name."""
    count = 0

    def local(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return local

    def calls(frame: FrameType, event: str, arg: object) -> Any:
        return local if frame.f_code.co_filename.startswith(APP) else None

    sys.settrace(calls)
    try:
        result = gang_from_yaktribe(data)
        assign_roles(result, {label: FighterType.HANGER_ON for label in result.unknown_types})
    finally:
        sys.settrace(None)
    assert not result.needs_roles
    return count


def test_import_is_linear_in_the_number_of_fighters() -> None:
    """The worst case: every fighter has the same name (ids same, same-2, ...) and a
    type name of its own, answered at once. Twice the fighters, twice the work
    (it was quadratic: each id was sought among all the earlier ones, and each
    answered type name looked through every fighter)."""
    small = _lines_run(export(100, same_name=True, own_types=True))
    large = _lines_run(export(200, same_name=True, own_types=True))
    assert large / small < 2.2, (small, large)
    gang = gang_from_yaktribe(export(200, same_name=True)).gang
    assert [f.id for f in gang.fighters[:3]] == ["same", "same-2", "same-3"]
    assert gang.fighters[-1].id == "same-200"
