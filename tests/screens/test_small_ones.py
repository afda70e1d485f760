"""Small things a club evening met (issue 26.9), each as a player sees it."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.text import Text

from munda_tui.app import MundaApp
from support import wait_until


async def test_a_config_error_breaks_its_path_after_a_slash_not_mid_word(data_dir: Path,
                                                                         tmp_path: Path) -> None:
    """The note about a config problem named its file split mid-word at 80 columns
    (".conf" / "ig/munda-tui/config.toml"): broken after a "/", each folder whole."""
    config_dir = tmp_path / "home-of-a-player" / ".config" / "munda-tui"
    config_dir.mkdir(parents=True)
    (config_dir / "config.toml").write_text('schema_version = 1\n[keymap]\n"nope.thing" = "x"\n')
    app = MundaApp(data_dir, config_dir, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: bool(app._notifications), "the config's note")
        (note,) = list(app._notifications)
    # the note as Textual's Toast lays it out at 80 columns: 40 wide, less padding and edge
    console = Console(width=37, file=None, legacy_windows=False)
    lines = [line.plain for line in Text(note.message).wrap(console, 37)]
    for part in str(config_dir / "config.toml").strip("/").split("/"):
        assert any(part in line for line in lines), (part, lines)
