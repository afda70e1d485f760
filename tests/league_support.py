"""A league for the tests: six generated gangs, and a battle played through the rules
engine with fixed dice and applied through the store (as the app's screens do)."""

from __future__ import annotations

from munda_tui.rules.battle.events import StateEvent

import random
import subprocess
from pathlib import Path

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.stages.commit import apply_postbattle
from munda_tui.rules.battle.events import OUT_OF_ACTION, Battle, Event, default_setup, outcome, start_event
from munda_tui.rules.core.dice import parse
from munda_tui.rules.core.model import BattleSummary


def league(gangs: int = 6):
    from scripts.generate import league_campaign

    c = league_campaign(gangs=gangs, fighters=5, battles=0, seed=3)
    c.id, c.name = "club-league", "Club League"
    c.settings.xp_awards = {"out_of_action": 2}
    return c


def play(handle, a: str, b: str, seed: int, date: str) -> int:
    """A battle between gangs ``a`` and ``b``: a's leader takes b's second fighter Out of
    Action, a wins; the Gang War sequence with dice from ``seed`` (fixed), applied."""
    c = handle.campaign
    number = c.next_battle_number()
    c.battles.append(BattleSummary(number=number, date=date, status="post-battle", gangs=[a, b]))
    handle.save()
    setup = default_setup(c, number, a, b)
    battle = Battle([start_event(setup, c)])
    battle.log_event(StateEvent(fighter=f"{b}/f02", state=OUT_OF_ACTION, attacker=f"{a}/f01"))
    o = outcome(battle.state, setup)
    o.winner = a
    handle.update_battle(number, "setup", setup.to_data())
    handle.update_battle(number, "battle", battle.to_data())
    rng = random.Random(seed)
    seq = pb.PostBattle(c, number, pb.new_draft("gang-war"), o)
    for _ in range(500):
        p = seq.pending
        if p is not None:
            if p.kind == "roll":
                seq.answer({"faces": [rng.randint(1, s) for s in parse(p.dice).dice], "entered": True})
            else:
                seq.answer(p.default or ([] if p.kind == "multi" else p.default))
            continue
        if seq.at_end:
            break
        seq.advance()
    apply_postbattle(handle, number, seq, date=date)
    return number



def bare_remote(path: Path) -> Path:
    subprocess.run(["git", "init", "-q", "--bare", str(path)], check=True)
    return path


def two_laptops(tmp: Path, gangs: int = 4):  # type: ignore[no-untyped-def]
    """A league of ``gangs`` gangs on a bare remote in ``tmp``: ana made it and pushed it,
    bo joined it. (remote, ana's store, bo's store)."""
    from munda_tui.saves import Store
    from munda_tui.saves.league import init, join

    remote = bare_remote(tmp / "remote.git")
    ana = Store(tmp / "ana")
    with ana.create_campaign(league(gangs)) as handle:
        init(handle, str(remote))
    bo = Store(tmp / "bo")
    join(bo, str(remote))
    return remote, ana, bo


class HttpRemote:
    """A bare repository served over smart HTTP (``git http-backend``) on 127.0.0.1,
    behind Basic authentication with one user: a hosted remote that asks for a password.
    A context manager; ``url`` has no credentials, ``url_with(user, password)`` has."""

    def __init__(self, bare: Path, user: str = "alice", password: str = "s3cret") -> None:
        import base64

        self.bare, self.user = bare, user
        self.token = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        self.requests: list[str] = []

    def __enter__(self) -> "HttpRemote":
        import http.server
        import os
        import threading

        remote = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _serve(self) -> None:
                remote.requests.append(f"{self.command} {self.path}")
                if self.headers.get("Authorization") != remote.token:
                    self.send_response(401)
                    self.send_header("WWW-Authenticate", 'Basic realm="league"')
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body = b""
                if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                    while True:
                        size = int(self.rfile.readline().strip() or b"0", 16)
                        if size == 0:
                            self.rfile.readline()
                            break
                        body += self.rfile.read(size)
                        self.rfile.readline()
                else:
                    body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                path, _, query = self.path.partition("?")
                env = {**os.environ, "GIT_PROJECT_ROOT": str(remote.bare.parent),
                       "GIT_HTTP_EXPORT_ALL": "1", "PATH_INFO": path, "QUERY_STRING": query,
                       "REQUEST_METHOD": self.command, "REMOTE_USER": remote.user,
                       "REMOTE_ADDR": "127.0.0.1", "CONTENT_LENGTH": str(len(body)),
                       "CONTENT_TYPE": self.headers.get("Content-Type", ""),
                       "HTTP_CONTENT_ENCODING": self.headers.get("Content-Encoding", ""),
                       "GIT_PROTOCOL": self.headers.get("Git-Protocol", "")}
                done = subprocess.run(["git", "http-backend"], input=body, env=env, capture_output=True)
                head, _, out = done.stdout.partition(b"\r\n\r\n")
                status = 200
                headers = []
                for line in head.decode("latin-1").split("\r\n"):
                    name, _, value = line.partition(":")
                    if name.lower() == "status":
                        status = int(value.strip().split()[0])
                    elif name:
                        headers.append((name, value.strip()))
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            do_GET = do_POST = _serve

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/{self.bare.name}"

    def url_with(self, user: str, password: str) -> str:
        return f"http://{user}:{password}@127.0.0.1:{self.server.server_address[1]}/{self.bare.name}"

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()


def git_home(tmp: Path, monkeypatch, config: str = "") -> Path:  # type: ignore[no-untyped-def]
    """A git of its own for the test: no system or global config but ``config`` (the
    text of a global .gitconfig), no identity unless it names one."""
    home = tmp / "git-home"
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text(config)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / ".gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL",
                 "EMAIL", "GIT_SSH_COMMAND", "GIT_SSH", "GIT_ASKPASS", "SSH_ASKPASS"):
        monkeypatch.delenv(name, raising=False)
    return home


class a_minute_ago:
    """Records made inside are made a minute earlier. A record's id is the time it is
    made (to the second) and a random part: two laptops' edits within one second sort by
    the random part (the same on every laptop); a test that needs one of them first says so."""

    def __enter__(self) -> None:
        import time

        self.real = real = time.gmtime

        def earlier(secs: float | None = None) -> time.struct_time:
            return real(time.time() - 60 if secs is None else secs)

        time.gmtime = earlier  # type: ignore[assignment]

    def __exit__(self, *_exc: object) -> None:
        import time

        time.gmtime = self.real  # type: ignore[assignment]
