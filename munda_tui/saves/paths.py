"""Where saves and config live."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "munda-tui"
DATA_DIR_ENV = "MUNDA_TUI_DATA_DIR"
CONFIG_DIR_ENV = "MUNDA_TUI_CONFIG_DIR"


def default_data_dir() -> Path:
    """``$MUNDA_TUI_DATA_DIR`` if set, else the platform's user data dir."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return platformdirs.user_data_path(APP_NAME, appauthor=False)


def default_config_dir() -> Path:
    """``$MUNDA_TUI_CONFIG_DIR`` if set, else the platform's user config dir."""
    env = os.environ.get(CONFIG_DIR_ENV)
    if env:
        return Path(env).expanduser()
    return platformdirs.user_config_path(APP_NAME, appauthor=False)
