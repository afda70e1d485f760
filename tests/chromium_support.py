"""A tiny Chrome DevTools Protocol client over ``--remote-debugging-pipe`` (stdlib only),
for tests that load the phone page in Debian's real headless Chromium.

One browser per check: ``with Browser(tmp_path) as b: b.open(url); b.text(); ...``.
Every wait is bounded; the browser is killed on exit whatever happened.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-extensions", "--disable-default-apps", "--mute-audio", "--no-default-browser-check",
    "--remote-debugging-pipe",
]
WIDTH, HEIGHT = 390, 844


#: set by .ci/run when it installs Chromium in the background while the suite runs: the
#: path of a file the install writes its exit status to when it ends
PENDING = "MUNDA_TUI_CHROMIUM_PENDING"
#: how long a browser test waits for that install (it takes ~50 s on a loaded 2-core
#: machine; the browser tests are handed out last, so most of it is already over)
INSTALL_WAIT = 300.0


def _wait_for_install() -> None:
    status = os.environ.get(PENDING)
    if not status:
        return
    deadline = time.monotonic() + INSTALL_WAIT
    while not Path(status).exists() and time.monotonic() < deadline:
        time.sleep(0.5)


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        _wait_for_install()
        path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("Debian's chromium is not installed (`apt-get install -y chromium`; "
                    ".ci/run installs it where it can): the real-browser phone tests need it")
    return path


class Browser:
    def __init__(self, tmp_path: Path, timeout: float = 10.0) -> None:
        self.exe = chromium()
        self.profile = tmp_path / f"chromium-profile-{time.monotonic_ns()}"
        self.timeout = timeout
        self._id = 0
        self._results: dict[int, "queue.Queue[dict[str, Any]]"] = {}
        self._events: "queue.Queue[dict[str, Any]]" = queue.Queue()
        self._lock = threading.Lock()
        self.session = ""

    # --- process and pipe -----------------------------------------------------------

    def __enter__(self) -> "Browser":
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def wire() -> None:  # in the child: fd 3 reads commands, fd 4 writes answers
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.proc = subprocess.Popen(
            [self.exe, *FLAGS, f"--user-data-dir={self.profile}",
             f"--window-size={WIDTH},{HEIGHT}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=wire, close_fds=False,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        targets = self.call("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page")
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": page["targetId"], "flatten": True})["sessionId"]
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 2, "mobile": True})
        self.call("Page.enable")
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.call("Browser.close", session=False, timeout=3)
        except Exception:  # noqa: BLE001 - killed below anyway
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass

    def _read(self) -> None:
        buf = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 16)
            except OSError:
                return
            if not chunk:
                return
            buf += chunk
            while b"\0" in buf:
                raw, buf = buf.split(b"\0", 1)
                msg = json.loads(raw)
                if "id" in msg and msg["id"] in self._results:
                    self._results[msg["id"]].put(msg)
                else:
                    self._events.put(msg)

    def call(self, method: str, params: dict[str, Any] | None = None, *,
             session: bool = True, timeout: float | None = None) -> dict[str, Any]:
        with self._lock:
            self._id += 1
            n = self._id
            self._results[n] = queue.Queue()
        msg: dict[str, Any] = {"id": n, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(msg).encode() + b"\0")
        try:
            answer = self._results[n].get(timeout=timeout or self.timeout)
        except queue.Empty:
            raise AssertionError(f"Chromium did not answer {method} in time") from None
        finally:
            self._results.pop(n, None)
        if "error" in answer:
            raise AssertionError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def wait_event(self, method: str, timeout: float | None = None) -> dict[str, Any]:
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            try:
                msg = self._events.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if msg.get("method") == method:
                return msg.get("params", {})
        raise AssertionError(f"no {method} from Chromium in time")

    # --- what a test does -------------------------------------------------------------

    def open(self, url: str) -> None:
        while not self._events.empty():
            self._events.get_nowait()
        self.call("Page.navigate", {"url": url})
        self.wait_event("Page.loadEventFired")

    def js(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result.get("result", {}).get("value")

    def text(self) -> str:
        return str(self.js("document.body ? document.body.innerText : ''"))

    def wait_text(self, needle: str, timeout: float = 2.0) -> float:
        """Seconds until ``needle`` shows in the page (AssertionError after ``timeout``)."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            if needle in self.text():
                return time.monotonic() - start
            time.sleep(0.05)
        raise AssertionError(f"{needle!r} not on the page after {timeout} s:\n{self.text()}")

    def screenshot(self, path: Path, full: bool = False) -> Path:
        """The viewport as a phone shows it (``full``: the whole page's height)."""
        params: dict[str, Any] = {"format": "png"}
        if full:
            height = self.js("document.documentElement.scrollHeight")
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": WIDTH, "height": height, "scale": 1})
        data = self.call("Page.captureScreenshot", params)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def disable_scripts(self) -> None:
        self.call("Emulation.setScriptExecutionDisabled", {"value": True})
