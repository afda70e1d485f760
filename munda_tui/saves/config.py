"""The player's config: theme, the defaults for new campaigns, remapped keys.

Lives in ``<config dir>/config.toml`` (written atomically, comments kept, last
5 versions in ``<config dir>/.backups/``). A config that does not load never
stops the app: :func:`load_config` returns the defaults and says why in
``Config.load_error``; the next :func:`save_config` keeps the broken file in
the backups before writing.
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from . import codec
from .atomic import _link_or_copy, atomic_write_text, clean_stale_temps
from .codec import ValidationError
from .errors import SaveError, validation_error
from .files import BACKUPS_DIR, CONFIG_FILE, parse_text, read_text
from ..rules.core.model import Settings


@dataclass
class Config:
    """The player's config (config.toml): theme, defaults for new campaigns, keymap."""

    theme: str = "textual-dark"
    # Defaults for new campaigns (see rules.model.Settings).
    post_battle_ruleset: str = "gang-war"
    lasting_injury_table: str = "rulebook-2018"
    subplot_decks: str = "house"
    shared_deck: bool = True
    strict_secrecy: bool = False
    dice_by_hand: bool = False
    #: Remapped keys: binding id -> keys ("post_battle.roll" = "space"); see munda_tui.keymap.
    keymap: dict[str, str] = field(default_factory=dict)
    #: Why the config file could not be loaded (defaults are used); not saved.
    load_error: str | None = field(default=None, compare=False, repr=False)

    def new_campaign_settings(self) -> Settings:
        return Settings(
            post_battle_ruleset=self.post_battle_ruleset,
            lasting_injury_table=self.lasting_injury_table,
            subplot_decks=self.subplot_decks,
            shared_deck=self.shared_deck,
            strict_secrecy=self.strict_secrecy,
            dice_by_hand=self.dice_by_hand,
        )

    @classmethod
    def load(cls, config_dir: Path) -> Config:
        return load_config(config_dir)

    def save(self, config_dir: Path) -> None:
        save_config(config_dir, self)


_SAVED_FIELDS = tuple(f.name for f in dataclasses.fields(Config) if f.name != "load_error")


def config_to_data(config: Config) -> dict[str, Any]:
    data = codec.to_data(config)
    data.pop("load_error", None)
    return {"schema_version": codec.SCHEMA_VERSIONS[codec.CONFIG], **data}


def config_from_data(data: dict[str, Any]) -> Config:
    if "schema_version" not in data:  # a config written by hand needs none (the README's
        # [keymap] snippet alone is a config); the app adds it when it writes the file
        data = {**data, "schema_version": codec.SCHEMA_VERSIONS[codec.CONFIG]}
    current, _version = codec.migrate(data, codec.CONFIG)
    current.pop("schema_version", None)
    if "load_error" in current:
        raise ValidationError(("load_error",), f"unknown key 'load_error' (known keys: {', '.join(_SAVED_FIELDS)})")
    return codec._dataclass_from(Config, current, ())


def config_path(config_dir: Path) -> Path:
    return Path(config_dir) / CONFIG_FILE


def load_config_file(path: Path) -> Config:
    """Load one config file; SaveError if it does not read, parse or validate."""
    text = read_text(path)
    data = parse_text(path, text)
    try:
        return config_from_data(data)
    except ValidationError as error:
        raise validation_error(path, text, error) from None


def load_config(config_dir: Path) -> Config:
    """The player's config; defaults when there is none or it does not load."""
    path = config_path(config_dir)
    clean_stale_temps(Path(config_dir), recursive=False)
    if not path.exists():
        return Config()
    try:
        return load_config_file(path)
    except SaveError as error:
        return Config(load_error=str(error))


def save_config(config_dir: Path, config: Config) -> None:
    """Write the config atomically, keeping the player's comments."""
    import tomllib

    import tomlkit

    from . import tomldoc

    config_dir = Path(config_dir)
    path = config_path(config_dir)
    backup_dir = config_dir / BACKUPS_DIR
    data = config_to_data(config)
    doc = None
    if path.exists():
        try:
            text = read_text(path)
            load_config_file(path)  # (the guarded reader: the shape is checked first)
            doc = tomlkit.parse(text)
        except Exception:  # noqa: BLE001 - a broken config is kept aside, never lost
            doc = None
            backup_dir.mkdir(parents=True, exist_ok=True)
            n = 1
            while (backup_dir / f"{CONFIG_FILE}.broken-{n}").exists():
                n += 1
            _link_or_copy(path, backup_dir / f"{CONFIG_FILE}.broken-{n}")
    if doc is None:
        doc = tomldoc.build_document(data, tomldoc.FLAT_LAYOUT)
    else:
        tomldoc.merge(doc, data, (), tomldoc.FLAT_LAYOUT)
    text = doc.as_string()
    if not tomldoc.same(tomllib.loads(text), data):  # pragma: no cover - tomlkit slip
        from . import tomlemit

        text = tomlemit.dumps(data)
    os.makedirs(config_dir, exist_ok=True)
    atomic_write_text(path, text, backup_dir=backup_dir)
