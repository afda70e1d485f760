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

from pathlib import Path
from typing import TYPE_CHECKING, Any

from munda_tui import __version__
from munda_tui.rules.campaign.report import numbered_data
from munda_tui.rules.core.limits import BATTLE_MAX, show_number
from munda_tui.rules.core.model import Campaign
from munda_tui.rules.subplots.decks import without_hidden_cards

from . import battle_schema, codec
from .atomic import atomic_write_text
from .files import BATTLES_DIR, CAMPAIGN_FILE
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
        from .folder import load_campaign_dir

        directory = store.campaign_dir(slug)
        path = directory / CAMPAIGN_FILE
        if not path.is_file():
            raise ExportError(f"no campaign {slug!r} in {store.campaigns_dir}")
        # SaveError if it does not load
        self.campaign, self._files = load_campaign_dir(directory)
        self.campaign.id = slug
        self.path = directory
        self.battles_dir = directory / BATTLES_DIR

    def battle_numbers(self) -> list[int]:
        return sorted(n for n, p in self._files.items() if p.is_file())

    def load_battle(self, number: int) -> dict[str, Any]:
        from .folder import load_battle_data

        path = self._files.get(number)
        if path is None or not path.is_file():
            raise KeyError(f"no battle file {number}")
        return load_battle_data(path)


def export_data(handle: "CampaignHandle | CampaignSnapshot") -> dict[str, Any]:
    """The export's data. Sub-plots not yet revealed are left out (another player reads
    the file): ``subplots_withheld`` says how many, each side of a battle its own."""
    from .packs import load_packs
    from .paths import default_config_dir

    battles = []
    withheld = 0
    # the packs in force for the campaign: a pack's deck's open card is public as a House
    # deck's is (read only when there are battles to export)
    rule_data = (load_packs(default_config_dir(), handle.path).data
                 if handle.battle_numbers() else None)
    for number in handle.battle_numbers():
        data = dict(handle.load_battle(number))
        data.pop("schema_version", None)
        data, n = without_hidden_cards(data, rule_data)
        data = numbered_data(data, number)  # (its report titled with its number now: issue 30.4)
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


def _drop_withheld_counts(body: dict[str, Any]) -> None:
    """A side's ``subplots_withheld`` is the export's note (how many hidden cards it left
    out), not part of the set-up: taken off before the battle is validated."""
    setup = body.get("setup")
    sides = setup.get("sides") if isinstance(setup, dict) else None
    for side in sides if isinstance(sides, list) else []:
        if isinstance(side, dict):
            side.pop("subplots_withheld", None)


def read_export(path: Path) -> tuple[Campaign, dict[int, dict[str, Any]]]:
    """The campaign and its battles' data from an export file."""
    from .errors import SaveError
    from .files import parse_text, read_text

    path = Path(path).expanduser()
    if path.is_dir():
        raise ExportError(f"{path}: is a folder, not an export file")
    if not path.exists():
        raise ExportError(f"{path}: no such file")
    try:
        text = read_text(path)
        data = parse_text(path, text)  # the shape is checked before the parser reads it
    except SaveError as error:
        raise ExportError(f"{error.path}:{error.line}:{error.column}: not valid TOML: {error.message}") from None
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
            number = entry["number"]
            if not 0 <= number <= BATTLE_MAX:
                raise codec.ValidationError(
                    ("battles", i, "number"), f"{show_number(number)} is out of range (0 to {BATTLE_MAX})"
                )
            if number in battles:
                raise codec.ValidationError(("battles", i, "number"), f"battle {number} is in the file twice")
            body = entry.get("data", {})
            if not isinstance(body, dict):
                raise codec.ValidationError(("battles", i, "data"), "expected a table")
            _drop_withheld_counts(body)
            battle, _ = battle_schema.battle_from_data(
                {"schema_version": codec.SCHEMA_VERSIONS[codec.BATTLE], **body}
            )
            battles[number] = battle
    except codec.ValidationError as error:
        raise ExportError(f"{path}: {error}") from None
    except RecursionError:
        raise ExportError(f"{path}: nested too deeply") from None
    return campaign, battles


def import_campaign(store: "Store", path: Path) -> "CampaignHandle":
    """Create a new campaign from an export file; its folder name is made
    unique. Returns the open handle (close it when done).

    All or nothing: the file is read and validated whole, and the campaign folder
    appears with every battle file or not at all (``Store.create_campaign``)."""
    campaign, battles = read_export(path)
    return store.create_campaign(campaign, battles)
