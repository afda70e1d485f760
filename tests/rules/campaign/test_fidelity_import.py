"""Issue #31, item 11: a real Yaktribe export imports whole. A characteristic beyond the
usual range (a Nacht-Ghul's WS 1+, reached through its rules) is kept as it is and named
in the import's notes; only a value that cannot be read as a characteristic stops the
import, and the message names the fighter, the field and the value. The same rule holds
for a save, a hand edit, the catalogue, a pack and the forms (one check,
``rules.core.profile.check_value``)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from munda_tui.rules.campaign import catalogue as cat
from munda_tui.rules.campaign.yaktribe import YaktribeError, gang_from_yaktribe
from munda_tui.rules.core import profile as pr
from munda_tui.rules.core.model import Campaign, FighterType

FIXTURE = Path(__file__).parents[2] / "fixtures" / "yaktribe" / "157849.json"
ROLES = {"psychic familiar": FighterType.HANGER_ON}


def export_with(**stats: Any) -> dict[str, Any]:
    """The real export (fixtures/yaktribe/157849.json) with a Nacht-Ghul added, its profile
    as a Yaktribe export writes it (integers, 0 for '-')."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    ghul = copy.deepcopy(data["gang"]["gangers"][0])
    ghul.update({"ganger_id": "9", "name": "Nacht-Ghul", "type": "Nacht-Ghul", "cost": "0",
                 "equipment": [], "skills": [], "injuries": [], "status": "Alive"})
    ghul.update({"m": 6, "ws": 1, "bs": 0, "s": 4, "t": 4, "w": 2, "i": 2, "a": 3,
                 "ld": 7, "cl": 5, "wil": 6, "int": 8})
    ghul.update(stats)
    data["gang"]["gangers"].append(ghul)
    return data


def test_a_nacht_ghul_with_ws_1_is_imported_and_named_in_the_notes() -> None:
    # issue 31: "A value the game can reach through advancements, skills or special rules
    # is kept as it is and named in the import's notes" (it was refused with "Nothing was
    # imported")
    result = gang_from_yaktribe(export_with(), roles={"nacht-ghul": FighterType.BRUTE, **ROLES})
    ghul = next(f for f in result.gang.fighters if f.name == "Nacht-Ghul")
    assert ghul.characteristics["ws"] == 1 and "bs" not in ghul.characteristics
    assert pr.format_profile(ghul.characteristics).startswith("M 6 WS 1+ BS -")
    assert any(n.startswith("Nacht-Ghul: WS 1+ is beyond the usual 2+ to 6+: kept as in the file")
               for n in result.notes)
    assert len(result.gang.fighters) == 16  # the whole gang, the Nacht-Ghul included


@pytest.mark.parametrize("key,value,shown", [
    ("m", 13, "M 13 is beyond the usual 1 to 12"),
    ("bs", 7, "BS 7+ is beyond the usual 2+ to 6+"),
    ("ld", 1, "Ld 1+ is beyond the usual 2+ to 12+"),
    ("int", 13, "Int 13+ is beyond the usual 2+ to 12+"),
])
def test_every_characteristic_beyond_its_usual_range_is_kept(key: str, value: int,
                                                             shown: str) -> None:
    result = gang_from_yaktribe(export_with(**{key: value}),
                                roles={"nacht-ghul": FighterType.BRUTE, **ROLES})
    ghul = next(f for f in result.gang.fighters if f.name == "Nacht-Ghul")
    assert ghul.characteristics[key] == value
    assert any(shown in n for n in result.notes)


@pytest.mark.parametrize("value,words", [
    ("fast", "fighter 'Nacht-Ghul' WS: 'fast' is not a whole number"),
    (100, "fighter 'Nacht-Ghul': WS is a target number from 1+ to 99+ (found 100+)"),
    (-1, "fighter 'Nacht-Ghul': WS is a target number from 1+ to 99+ (found -1)"),
    ([1], "fighter 'Nacht-Ghul' WS: list is not a whole number"),
])
def test_only_what_cannot_be_read_stops_the_import_naming_fighter_field_value(
        value: Any, words: str) -> None:
    with pytest.raises(YaktribeError) as error:
        gang_from_yaktribe(export_with(ws=value), roles={"nacht-ghul": FighterType.BRUTE, **ROLES})
    assert str(error.value) == words


def test_the_whole_import_saves_and_loads_with_ws_1(tmp_path: Path, data_dir: Path) -> None:
    # the save path shares the check: the imported WS 1+ is written and read back
    from munda_tui.saves import Store
    from munda_tui.saves.importer import import_yaktribe

    path = tmp_path / "ghul.json"
    path.write_text(json.dumps(export_with()), encoding="utf-8")
    store = Store(data_dir)
    handle = store.create_campaign(Campaign(id="sump", name="Sump"))
    result = import_yaktribe(handle, path, roles={"Psychic Familiar": FighterType.HANGER_ON,
                                                  "Nacht-Ghul": FighterType.BRUTE})
    assert any("WS 1+" in n for n in result.notes)
    handle.close()
    with store.open_campaign("sump") as h:
        ghul = next(f for f in h.campaign.gangs[0].fighters if f.name == "Nacht-Ghul")
        assert ghul.characteristics["ws"] == 1


def test_a_hand_edit_the_catalogue_a_pack_and_the_form_keep_ws_1() -> None:
    from munda_tui.rules.campaign.roster import parse_characteristic

    assert pr.decode_value("ws", "1+") == 1  # a hand-edited save
    assert cat.parse_profile_line("6 1+ - 4 4 2 2+ 3 7+ 5+ 6+ 8+")["ws"] == 1  # a type's profile
    pack = cat.catalogue_from_data({"fighter_types": [{"name": "Nacht-Ghul",
                                                       "profile": {"ws": "1+"}}]})
    assert pack is not None
    assert parse_characteristic("ws", "1+") == 1  # the fighter form
    with pytest.raises(pr.ProfileError, match=r"WS is a target number from 1\+ to 99\+ \(found 0\+\)"):
        pr.decode_value("ws", "0+")


def test_an_advancement_never_worsens_a_value_beyond_the_usual_range() -> None:
    # "+1 Weapon Skill" on WS 1+ cannot go below 1+ (clamped there), and never back to 2+
    profile = {"ws": 1, "m": 13}
    lines = pr.apply(profile, [("ws", 1), ("m", 1)], clamp=True)
    assert profile == {"ws": 1, "m": 13}
    assert lines == ["WS 1+ -> 1+ (at its limit)", "M 13 -> 13 (at its limit)"]
    pr.apply(profile, [("ws", -1)], clamp=True)
    assert profile["ws"] == 2
