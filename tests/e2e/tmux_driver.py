"""Drive a real `munda-tui` inside tmux: send keys, read the screen.

Waiting polls the screen until a text appears (or a generous deadline
passes): it never asserts on time, so a slow machine is slower, not red.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

DEADLINE = 30.0  # seconds to wait for a screen before giving up
SETTLE = 0.3  # after a screen shows, let its widgets mount and take focus before typing


def tmux_available() -> bool:
    return shutil.which("tmux") is not None


class Tmux:
    _count = 0

    def __init__(self, name: str, data_dir: Path, config_dir: Path, *, width: int = 100, height: int = 32) -> None:
        self.name = name
        self.data_dir = data_dir
        self.config_dir = config_dir
        self.width = width
        self.height = height
        # a socket of its own: the server of the session before a restart may still be
        # going away on the old path (new-session there failed once, on a loaded machine)
        Tmux._count += 1
        self.socket = str(data_dir.parent / f"tmux-{Tmux._count}.sock")

    def _tmux(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["tmux", "-S", self.socket, *args], capture_output=True, text=True, check=check
        )

    def start(self, *app_args: str) -> None:
        exe = Path(sys.executable).with_name("munda-tui")
        command = [str(exe) if exe.exists() else "munda-tui", *app_args]
        env = (
            f"MUNDA_TUI_CONFIG_DIR={shlex.quote(str(self.config_dir))} "
            f"MUNDA_TUI_DATA_DIR={shlex.quote(str(self.data_dir))} "
            f"COLUMNS={self.width} LINES={self.height} "  # Textual honours these over the pty
            "TERM=xterm-256color TEXTUAL_ANIMATIONS=none "
        )
        self._tmux(
            "-f", os.devnull, "new-session", "-d", "-s", self.name,
            "-x", str(self.width), "-y", str(self.height),
            f"{env}{shlex.join(command)}; echo EXITED:$?; sleep 30",
        )
        # no Escape delay: a lone Escape is a key, not the start of a sequence
        self._tmux("set-option", "-s", "escape-time", "0", check=False)

    def send(self, *keys: str) -> None:
        for key in keys:
            self._tmux("send-keys", "-t", self.name, key)
            time.sleep(0.05)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", self.name, "-l", text)

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", self.name, check=False).stdout

    def wait_for(self, *texts: str, deadline: float = DEADLINE) -> str:
        """The screen once every one of ``texts`` is on it."""
        end = time.monotonic() + deadline
        screen = ""
        while time.monotonic() < end:
            screen = self.screen()
            if all(t in screen for t in texts):
                time.sleep(SETTLE)
                return screen
            time.sleep(0.1)
        raise AssertionError(f"waited {deadline}s for {texts!r}; the screen shows:\n{screen}")

    def pid(self) -> int:
        out = self._tmux("list-panes", "-t", self.name, "-F", "#{pane_pid}").stdout.strip()
        shell = int(out.splitlines()[0])
        children = subprocess.run(
            ["pgrep", "-P", str(shell)], capture_output=True, text=True
        ).stdout.split()
        return int(children[0]) if children else shell

    def kill(self) -> None:
        self._tmux("kill-server", check=False)
