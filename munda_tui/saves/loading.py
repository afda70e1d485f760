"""A save file of any kind (campaign, battle, config) loaded to check it: above both
``files`` (campaign and battle files) and ``config`` (the config file), which know
nothing of each other's kinds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from . import codec
from .config import load_config_file
from .files import file_kind, load_battle_file, load_campaign_file


def load_any(path: Path, kind: str | None = None) -> Any:
    """Load a file of any kind (by ``file_kind`` unless given); SaveError if it fails."""
    if kind is None and (Path(path).name == "catalogue.toml" or Path(path).parent.name == "packs"):
        from .catalogue import load_file  # a campaign's catalogue or a pack

        return load_file(Path(path))
    kind = kind or file_kind(path)
    if kind == codec.CAMPAIGN:
        return load_campaign_file(path).campaign
    if kind == codec.GANG:
        from .folder import load_gang_file

        return load_gang_file(path)
    if kind == codec.BATTLE:
        return load_battle_file(path)[0]
    return load_config_file(path)
