"""A whole campaign as one TOML file, to hand to another player, and back.

The file holds the campaign (as ``campaign.toml`` has it) and every battle
file's data, without the Sub-plots not yet revealed (the players' hidden hands stay on
their laptop; ``subplots_withheld`` counts them):

```toml
format = "munda-tui-campaign"
schema_version = 1           # of the campaign data below
[campaign]
...
[[battles]]
number = 1
[battles.data]
...
```
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from munda_tui import __version__
from munda_tui.rules.model import Campaign, unique_id
from munda_tui.rules.subplots import without_hidden_cards

from . import codec
from .atomic import atomic_write_text
from .files import (
    BATTLES_DIR,
    CAMPAIGN_FILE,
    battle_file_name,
    battle_number,
    load_battle_file,
    load_campaign_file,
)
from .tomlemit import dumps

if TYPE_CHECKING:
    from munda_tui.saves.store import CampaignHandle, Store

FORMAT = "munda-tui-campaign"


class ExportError(Exception):
    """The export could not be written or read; the message says why."""


class CampaignSnapshot:
    """A campaign read from its folder without taking the lock (for reports and
    exports while the campaign may be open in the app). Read-only."""

    def __init__(self, store: "Store", slug: str) -> None:
        directory = store.campaign_dir(slug)
        path = directory / CAMPAIGN_FILE
        if not path.is_file():
            raise ExportError(f"no campaign {slug!r} in {store.campaigns_dir}")
        self.campaign = load_campaign_file(path).campaign  # SaveError if it does not load
        self.campaign.id = slug
        self.battles_dir = directory / BATTLES_DIR

    def battle_numbers(self) -> list[int]:
        try:
            names = sorted(p.name for p in self.battles_dir.iterdir())
        except FileNotFoundError:
            return []
        numbers = [battle_number(Path(n)) for n in names if not n.startswith(".")]
        return sorted(n for n in numbers if n is not None)

    def load_battle(self, number: int) -> dict[str, Any]:
        path = self.battles_dir / battle_file_name(number)
        if not path.is_file():
            raise KeyError(f"no battle file {number}")
        data, _version = load_battle_file(path)
        return data


def export_data(handle: "CampaignHandle | CampaignSnapshot") -> dict[str, Any]:
    """The export's data. Sub-plots not yet revealed are left out (another player reads
    the file): ``subplots_withheld`` says how many, each side of a battle its own."""
    battles = []
    withheld = 0
    for number in handle.battle_numbers():
        data = dict(handle.load_battle(number))
        data.pop("schema_version", None)
        data, n = without_hidden_cards(data)
        withheld += n
        battles.append({"number": number, "data": data})
    out: dict[str, Any] = {
        "format": FORMAT,
        "exported_with": f"munda-tui {__version__}",
    }
    if withheld:
        out["subplots_withheld"] = withheld
    out["campaign"] = codec.campaign_to_data(handle.campaign)
    out["battles"] = battles
    return out


def export_text(handle: "CampaignHandle | CampaignSnapshot") -> str:
    return dumps(export_data(handle))


def default_export_name(campaign: Campaign) -> str:
    return f"{campaign.id}.munda.toml"


def write_export(handle: "CampaignHandle | CampaignSnapshot", path: Path) -> Path:
    path = Path(path).expanduser()
    if path.is_dir():
        path = path / default_export_name(handle.campaign)
    try:
        atomic_write_text(path, export_text(handle))
    except OSError as error:
        raise ExportError(f"{path}: cannot be written ({error.strerror or error})") from error
    return path


def read_export(path: Path) -> tuple[Campaign, dict[int, dict[str, Any]]]:
    """The campaign and its battles' data from an export file."""
    path = Path(path).expanduser()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ExportError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ExportError(f"{path}: cannot be read ({error})") from error
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ExportError(f"{path}: not valid TOML: {error}") from error
    if data.get("format") != FORMAT or not isinstance(data.get("campaign"), dict):
        raise ExportError(
            f"{path}: not a munda-tui campaign export (expected format = {FORMAT!r} "
            "and a [campaign] table)"
        )
    try:
        campaign, _version = codec.load_campaign_data(data["campaign"])
        battles: dict[int, dict[str, Any]] = {}
        raw_battles = data.get("battles", [])
        if not isinstance(raw_battles, list):
            raise codec.ValidationError(("battles",), "expected an array of tables")
        for i, entry in enumerate(raw_battles):
            if not isinstance(entry, dict) or type(entry.get("number")) is not int:
                raise codec.ValidationError(("battles", i), "needs a whole-number 'number'")
            battle, _ = codec.battle_from_data(
                {"schema_version": codec.SCHEMA_VERSIONS[codec.BATTLE], **entry.get("data", {})}
            )
            battles[entry["number"]] = battle
    except codec.ValidationError as error:
        raise ExportError(f"{path}: {error}") from error
    return campaign, battles


def import_campaign(store: "Store", path: Path) -> "CampaignHandle":
    """Create a new campaign from an export file; its folder name is made
    unique. Returns the open handle (close it when done)."""
    campaign, battles = read_export(path)
    taken = {info.slug for info in store.list_campaigns()}
    campaign.id = unique_id(campaign.id, taken)
    handle = store.create_campaign(campaign)
    try:
        for number, data in sorted(battles.items()):
            handle.save_battle(number, data)
    except Exception:
        handle.close()
        raise
    return handle
