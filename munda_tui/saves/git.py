"""Running git for a league (``saves.league``): never interactive, never a secret shown.

Every git this app starts:

- cannot ask anything: no terminal prompt (``GIT_TERMINAL_PROMPT=0``, no askpass), SSH in
  batch mode (``-o BatchMode=yes`` added to the SSH command git would use: a host-key or
  passphrase prompt would wait for an answer and draw over the app's screen), stdin
  closed. A remote that wants a password fails at once, said in one line
  (:func:`explain`); the player's own SSH agent and git credential helpers still answer,
  as they do for any git. (Git stays in the app's process group: closing the terminal
  ends both, and a git never outlives the sync it worked for.)
- can be ended: :func:`cancel_all` kills every git running when the app quits or the
  player gives up waiting; the sync is kill-safe, so that is a before.
- says what went wrong in our words (:class:`LeagueError`, one line); git's own text is
  kept in :attr:`LeagueError.detail` (``--verbose`` prints it) and appended to the
  campaign's ``.cache/league.log``, with any password in a URL taken out
  (:func:`public_url`, :func:`scrub`).
"""

from __future__ import annotations

import getpass
import os
import re
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from .files import CAMPAIGN_FILE

REMOTE = "origin"
DEFAULT_BRANCH = "main"
LOG_FILE = ".cache/league.log"
_LOG_LIMIT = 256 * 1024  # the log keeps its last quarter megabyte
#: commands that talk to a remote (the others never leave the folder)
_NETWORK = {"fetch", "push", "clone", "ls-remote", "pull"}
#: who commits when git knows no one: the player's own name (the OS user's)
FALLBACK_NAME = "munda-tui player"


class LeagueError(Exception):
    """A league command could not be done; the message says what happened and what to do
    (one line, our words). ``detail``: git's own text, when git said something. The
    local campaign is as it was before the command (or fully synced)."""

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class Cancelled(LeagueError):
    """The git at work was ended (the app quits, or the player stopped waiting)."""


def git_path() -> str | None:
    return shutil.which("git")


def need_git() -> str:
    exe = git_path()
    if exe is None:
        raise LeagueError("git is not installed (or not on the PATH): a league is shared "
                          "through git. Install git (https://git-scm.com) and try again; "
                          "everything else works without it.")
    return exe


# --- credentials ------------------------------------------------------------------------------

_URL = re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.-]*://)([^/@\s'\"]*)@")


def _strip(match: re.Match[str]) -> str:
    scheme, userinfo = match.group(1), match.group(2)
    if scheme.lower().startswith(("http", "ftp")):
        return scheme  # (a user name alone is the credential helper's to know)
    # ssh://git@host: the user is part of the address, never a password
    return scheme + userinfo.split(":", 1)[0] + "@"


def public_url(url: str) -> str:
    """``url`` without a password (``http://alice:s3cret@host/x.git`` is
    ``http://host/x.git``): what is shown, logged and stored. SSH's ``user@`` stays
    (``git@github.com:club/league.git``): an address, not a secret."""
    return _URL.sub(_strip, url)


def scrub(text: str) -> str:
    """Any text (git's messages) with the passwords of the URLs in it taken out."""
    return _URL.sub(_strip, text)


# --- the environment ----------------------------------------------------------------------------


def _ssh_command(base: str | None) -> str:
    """The SSH command git is to use, in batch mode (OpenSSH's ``ssh``; another program
    the player named, plink say, is left as it is)."""
    if not base:
        return "ssh -o BatchMode=yes"
    words = base.split()
    if words and os.path.basename(words[0]).lower() in ("ssh", "ssh.exe") and "BatchMode" not in base:
        return f"{words[0]} -o BatchMode=yes {' '.join(words[1:])}".strip()
    return base


def _env(directory: Path | None = None, network: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env["GIT_TERMINAL_PROMPT"] = "0"  # a credential prompt would hang the app: say it instead
    env["GIT_ASKPASS"] = ""  # (empty: no askpass program either, not even SSH_ASKPASS)
    env["SSH_ASKPASS_REQUIRE"] = "never"
    env["LC_ALL"] = "C"  # git's words in English: :func:`explain` reads them
    env.pop("GIT_DIR", None)
    env.pop("GIT_WORK_TREE", None)
    env.pop("GIT_INDEX_FILE", None)
    if network and "GIT_SSH" not in os.environ:
        base = os.environ.get("GIT_SSH_COMMAND") or (_configured_ssh(directory) if directory else None)
        env["GIT_SSH_COMMAND"] = _ssh_command(base)
    return env


def _configured_ssh(directory: Path) -> str | None:
    """The player's ``core.sshCommand`` (a key of the club's, say): kept, in batch mode."""
    return _memo("ssh", directory, lambda: _ask_ssh(directory))  # type: ignore[no-any-return]


def _ask_ssh(directory: Path) -> str | None:
    exe = need_git()
    try:
        done = subprocess.run([exe, "-C", str(directory), "config", "--get", "core.sshCommand"],
                              capture_output=True, stdin=subprocess.DEVNULL, timeout=30,
                              env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    except (OSError, subprocess.TimeoutExpired):
        return None
    said = done.stdout.decode("utf-8", "replace").strip()
    return said or None


# --- running git --------------------------------------------------------------------------------

_live: set[subprocess.Popen[bytes]] = set()
_live_lock = threading.Lock()
_cancelled = threading.Event()


def cancel_all() -> None:
    """End every git this process runs (its SSH ends with it: its pipes close). The git of a sync in a worker thread then fails with :class:`Cancelled`; further git
    calls of that sync (one in :class:`working`) fail the same way until it ends."""
    with _live_lock:
        if _at_work[0]:
            _cancelled.set()
        running = list(_live)
    for process in running:
        _kill(process)  # (its thread's _communicate sees the flag and returns at once)


_at_work = [0]


class working:
    """``with working():`` around a sync run off the screen's thread: :func:`wait_idle`
    waits for it to end (after :func:`cancel_all`, at once: a killed git ends it)."""

    def __enter__(self) -> "working":
        with _live_lock:
            _at_work[0] += 1
        return self

    def __exit__(self, *exc: object) -> None:
        with _live_lock:
            _at_work[0] -= 1
            if not _at_work[0]:
                _cancelled.clear()


def wait_idle(seconds: float) -> bool:
    """Wait (at most ``seconds``) until no sync is at work; whether none is."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        with _live_lock:
            if not _at_work[0]:
                return True
        time.sleep(0.02)
    return False


def git(directory: Path, *args: str, check: bool = True, input: bytes | None = None,
        env: dict[str, str] | None = None, timeout: float = 600) -> subprocess.CompletedProcess[bytes]:
    """Run git in ``directory`` (never interactive, see the module's text); with ``check``,
    :class:`LeagueError` in our words when it fails (git's words in its ``detail`` and in
    the campaign's log)."""
    exe = need_git()
    if _cancelled.is_set():
        raise Cancelled("stopped: the sync was cancelled (the campaign is as it was, or synced)")
    command = _command(args)
    network = command in _NETWORK
    full_env = {**_env(directory, network), **(env or {})}
    try:
        process = subprocess.Popen([exe, "-C", str(directory), *args], env=full_env,
                                   stdin=subprocess.PIPE if input is not None else subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as error:
        raise LeagueError(f"git {command} could not start: {error.strerror or error}") from None
    with _live_lock:
        _live.add(process)
    try:
        out, err = _communicate(process, input, timeout, directory, args, command)
    finally:
        with _live_lock:
            _live.discard(process)
    done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    if done.returncode < 0 and _cancelled.is_set():
        raise Cancelled("stopped: the sync was cancelled (the campaign is as it was, or synced)")
    if done.returncode != 0:
        log(directory, args, done.returncode, err or out)
        if check:
            said = (err or out).decode("utf-8", "replace")
            raise LeagueError(explain(command, said, done.returncode), scrub(said.strip()))
    elif network and err.strip():
        log(directory, args, 0, err)
    return done


def _communicate(process: subprocess.Popen[bytes], input: bytes | None, timeout: float,
                 directory: Path, args: tuple[str, ...], command: str) -> tuple[bytes, bytes]:
    """The process's output, a little at a time: a sync cancelled meanwhile, or one that
    takes longer than ``timeout``, ends it (and the SSH it started, which would otherwise
    hold its pipes open) without waiting for the pipes to close."""
    end = time.monotonic() + timeout
    if process.stdin is not None:  # the input written by a thread of its own: communicate()
        pipe, process.stdin = process.stdin, None  # cannot go on writing after a timeout
        threading.Thread(target=_write_all, args=(pipe, input or b""), daemon=True).start()
    while True:
        try:
            out, err = process.communicate(None, timeout=0.2)
            return out, err
        except subprocess.TimeoutExpired:
            late = time.monotonic() > end
            if not (late or _cancelled.is_set()):
                continue
        _kill(process)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for stream in (process.stdout, process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        if not late:
            raise Cancelled("stopped: the sync was cancelled (the campaign is as it was, or synced)")
        log(directory, args, 124, b"")
        raise LeagueError(f"git {command} took longer than {int(timeout)} s and was stopped "
                          "(a remote that does not answer?); nothing was changed by it")


def _write_all(pipe: Any, data: bytes) -> None:
    try:
        pipe.write(data)
    except (OSError, ValueError):
        pass  # (git ended early: what it said tells why)
    finally:
        try:
            pipe.close()
        except OSError:
            pass


def _children(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs (Linux's /proc; none elsewhere)."""
    found: list[int] = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return found
    parents: dict[int, list[int]] = {}
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
            parents.setdefault(int(fields[1]), []).append(int(entry))
        except (OSError, IndexError, ValueError):
            continue
    todo = [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _command(args: tuple[str, ...]) -> str:
    """The git command of ``args`` (past ``-c name=value`` options)."""
    words = iter(args)
    for word in words:
        if word == "-c":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return ""


def _kill(process: subprocess.Popen[bytes]) -> None:
    """Kill git and what it started (its SSH)."""
    children = _children(process.pid)
    try:
        process.kill()
    except OSError:
        pass
    for child in children:
        try:
            os.kill(child, 9)
        except OSError:
            pass


_HEX = re.compile(r"[0-9a-f]{40}")


def ref(directory: Path, name: str) -> str | None:
    """The commit id ``name`` (``HEAD`` or a full ref, ``refs/...``) points at, as
    ``git rev-parse --verify -q`` says it (None: no such ref), read from the repository's
    files: a loose ref, else ``packed-refs`` (no git process: a sync asked git ~10 times).
    Where the files are not laid out as git 2.x lays them by default (a reftable, a ref
    of another form), git is asked."""
    gitdir = Path(directory) / ".git"
    try:
        if not gitdir.is_dir() or (gitdir / "reftable").exists() or (gitdir / "commondir").exists():
            raise ValueError("not the files git lays out by default")
        at = name
        for _ in range(5):  # (HEAD -> refs/heads/main: a symbolic ref or two)
            try:
                said = (gitdir / at).read_text(encoding="utf-8").strip()
            except FileNotFoundError:
                said = _packed(gitdir).get(at, "")
                return said or None
            if said.startswith("ref: "):
                at = said[len("ref: "):].strip()
                if not at.startswith("refs/"):
                    raise ValueError(at)
                continue
            if _HEX.fullmatch(said):
                return said
            raise ValueError(said)
    except (OSError, ValueError, UnicodeDecodeError):
        pass
    done = git(directory, "rev-parse", "--verify", "-q", name, check=False)
    return done.stdout.decode().strip() if done.returncode == 0 else None


def _packed(gitdir: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    try:
        lines = (gitdir / "packed-refs").read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return out
    for line in lines:
        if line.startswith(("#", "^")) or " " not in line:
            continue
        sha, name = line.split(" ", 1)
        if _HEX.fullmatch(sha):
            out[name.strip()] = sha
    return out


#: what a sync asks git once (who commits, the SSH command): forgotten when it ends
_remembered: dict[tuple[str, str], Any] = {}
_remembering = [0]


class remembered:
    """``with remembered():`` around a sync: git's configuration (who commits, the SSH
    command) is asked once, not before each commit and each fetch or push."""

    def __enter__(self) -> "remembered":
        _remembering[0] += 1
        return self

    def __exit__(self, *exc: object) -> None:
        _remembering[0] -= 1
        if not _remembering[0]:
            _remembered.clear()


def _memo(what: str, directory: Path, make: Any) -> Any:
    if not _remembering[0]:
        return make()
    key = (what, str(directory))
    if key not in _remembered:
        _remembered[key] = make()
    return _remembered[key]


def out(directory: Path, *args: str, env: dict[str, str] | None = None) -> str:
    return git(directory, *args, env=env).stdout.decode("utf-8", "replace").strip()


def fetch(directory: Path) -> subprocess.CompletedProcess[bytes]:
    """``git fetch``, tried again a few times when a ref it updates is locked or moved under
    it (a git of a sync killed a moment ago may still be finishing): a lock git holds
    for a moment is not a network fault."""
    for wait in (0.2, 0.5, 1.0, 0.0):
        fetched = git(directory, "fetch", "-q", REMOTE, check=False)
        said = fetched.stderr.decode("utf-8", "replace")
        if fetched.returncode == 0 or "cannot lock ref" not in said or not wait:
            return fetched
        time.sleep(wait)
    return fetched


# --- commits, in one go ---------------------------------------------------------------------------


class CommitBatch:
    """Several commits made at once (a sync's local changes: one per battle, one per gang
    edited, ...) with four git processes whatever their number: ``git add`` of every
    path, ``git diff-index`` for what changed, ``git var`` for who, and one
    ``git fast-import`` that writes the chain of commits onto the branch. A commit whose
    paths hold no change is left out; a path is committed by the first commit naming it.
    The index ends as the last commit's tree."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.items: list[tuple[list[str], str]] = []

    def add(self, paths: list[str], message: str) -> None:
        if paths:
            self.items.append((list(paths), message))

    @property
    def paths(self) -> set[str]:
        return {p for paths, _m in self.items for p in paths}

    def flush(self) -> list[str]:
        """Make the commits; their messages, in order."""
        items, self.items = self.items, []
        every = sorted({p for paths, _m in items for p in paths})
        if not every:
            return []
        directory = self.directory
        git(directory, "add", "-A", "--", *every)
        said = git(directory, "diff-index", "--cached", "-z", "--no-renames", "HEAD", "--", *every)
        fields = said.stdout.decode("utf-8", "replace").split("\0")
        changed: dict[str, tuple[str, str]] = {}  # path -> (mode, blob) or ("", "") removed
        for head, path in zip(fields[0::2], fields[1::2]):
            parts = head.lstrip(":").split()
            if len(parts) < 5:
                continue
            changed[path] = ("", "") if parts[4].startswith("D") else (parts[1], parts[3])
        if not changed:
            return []
        who = self._who()
        league_branch = branch(directory)
        head_id = ref(directory, "HEAD")
        if head_id is None:
            raise LeagueError("this league's folder has no commit yet (git rev-parse HEAD)")
        stream: list[bytes] = []
        messages: list[str] = []
        done: set[str] = set()
        for paths, message in items:
            mine = [p for p in paths if p in changed and p not in done]
            if not mine:
                continue
            done.update(mine)
            body = message.encode("utf-8")
            stream.append(f"commit refs/heads/{league_branch}\n".encode())
            stream.append(f"author {who['GIT_AUTHOR_IDENT']}\n".encode())
            stream.append(f"committer {who['GIT_COMMITTER_IDENT']}\n".encode())
            stream.append(b"data %d\n%s\n" % (len(body), body))
            if not messages:
                stream.append(f"from {head_id}\n".encode())
            for path in mine:
                mode, blob = changed[path]
                quoted = _fast_import_path(path)
                stream.append(f"D {quoted}\n".encode() if not blob else f"M {mode} {blob} {quoted}\n".encode())
            stream.append(b"\n")
            messages.append(message)
        stream.append(b"done\n")
        # (its pack kept as it is: under fastimport.unpackLimit (100 objects) git writes
        # it out again as loose objects in a second process, ~0.1 s of a sync's commits;
        # a pack a sync leaves is one of those git's own gc --auto gathers)
        git(directory, "-c", "fastimport.unpackLimit=0", "fast-import", "--quiet", "--done", input=b"".join(stream))
        return messages

    def _who(self) -> dict[str, str]:
        """The author and committer lines as ``git commit`` would write them now (the
        player's name where git knows no identity: :func:`identity`)."""
        said = git(self.directory, *identity(self.directory), "var", "-l")
        found = {}
        for line in said.stdout.decode("utf-8", "replace").splitlines():
            name, _, value = line.partition("=")
            if name in ("GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"):
                found[name] = value
        if len(found) != 2:
            raise LeagueError("git does not say who commits (git var); set user.name and user.email")
        return found


def _fast_import_path(path: str) -> str:
    if any(c in path for c in '"\\\n') or path.startswith(" "):
        return '"' + path.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    return path


# --- pushing ----------------------------------------------------------------------------------

PUSH_TRIES = 8
#: what git says when another laptop's push got there first (the ref moved: fetch, merge,
#: push again), as opposed to a remote that refuses (a hook, permissions)
_BEHIND = ("non-fast-forward", "fetch first", "cannot lock ref", "failed to update ref",
           "failed to lock", "but expected", "stale info", "incorrect old value",
           "reference already exists", "unable to update local ref")


def push(directory: Path, league_branch: str) -> bool:
    """Push HEAD to the league's branch: True when it went; False when another laptop
    pushed first (fetch, merge and push again); :class:`LeagueError` when the remote
    refuses for another reason, in our words."""
    pushed = git(directory, "push", "-q", "--porcelain", REMOTE, f"HEAD:{league_branch}", check=False)
    if pushed.returncode == 0:
        return True
    said = (pushed.stderr + pushed.stdout).decode("utf-8", "replace")
    low = said.lower()
    if "hook declined" not in low and any(sign in low for sign in _BEHIND):
        return False
    raise LeagueError(f"the remote refused the push: {explain('push', said, pushed.returncode)}. "
                      "Your campaign here is synced with what was fetched (nothing is lost: "
                      "your changes are committed here); sync again later.", scrub(said.strip()))


def wait_a_moment(attempt: int) -> None:
    """Between two pushes that lost a race: a little longer each time, never the same
    for two laptops (they would race again)."""
    time.sleep(min(2.0, 0.05 * (2 ** attempt)) * (0.5 + int.from_bytes(os.urandom(1), "big") / 255))


def unpushed(directory: Path, league_branch: str) -> list[str]:
    """This laptop's own commits (not merges) the remote does not have yet, as of the
    last fetch: their messages, oldest first."""
    remote_ref = f"refs/remotes/{REMOTE}/{league_branch}"
    has = ref(directory, remote_ref) is not None
    said = git(directory, "log", "--no-merges", "--reverse", "--format=%s",
               f"{remote_ref}..HEAD" if has else "HEAD", check=False)
    return said.stdout.decode("utf-8", "replace").splitlines() if said.returncode == 0 else []


# --- what git said, in our words ------------------------------------------------------------------

PASSWORD = ("the remote asked for a password: set up your SSH key or credential helper, "
            "see docs/league.md")
HOST_KEY = ("the remote's SSH host key is not known to this laptop: connect once with `ssh` "
            "to check and accept it, see docs/league.md")
UNREACHABLE = "the league's remote cannot be reached (no network, or a wrong address)"
NOT_A_REPOSITORY = ("the remote is not a git repository this laptop can read (check the "
                    "URL: `munda-tui league remote`)")
_SAYINGS = (
    (HOST_KEY, ("host key verification failed", "remote host identification has changed")),
    (PASSWORD, ("could not read username", "could not read password", "terminal prompts disabled",
                "authentication failed", "permission denied (publickey",
                "permission denied (password", "permission denied, please try again", "passphrase",
                "the requested url returned error: 401", "the requested url returned error: 403",
                "invalid username or password", "access denied", "askpass")),
    (UNREACHABLE, ("could not resolve host", "could not resolve hostname", "connection refused",
                   "network is unreachable", "connection timed out", "operation timed out",
                   "no route to host", "failed to connect", "connection reset",
                   "unable to access", "name or service not known", "temporary failure in name resolution")),
    (NOT_A_REPOSITORY, ("does not appear to be a git repository", "repository not found",
                        "not a git repository", "the requested url returned error: 404")),
)


def explain(command: str, said: str, code: int = 1) -> str:
    """One line, in our words, for what git ``command`` said when it failed (git's text
    is the error's ``detail``)."""
    low = said.lower()
    for words, signs in _SAYINGS:
        if any(sign in low for sign in signs):
            return words
    if "pre-receive hook declined" in low or "hook declined" in low:
        hook = [line[len("remote:"):].strip() for line in said.splitlines()
                if line.startswith("remote:") and line[len("remote:"):].strip()]
        return ("the remote refused the change" + (f" (it said: {scrub(hook[0])})" if hook else "")
                + "; ask whoever runs it")
    if "no space left" in low or "disk quota" in low:
        return "the disk is full"
    return (f"git {command} failed (exit {code}); git's own words are in the campaign's "
            f"{LOG_FILE} (or run the command with --verbose)")


def log(directory: Path | None, args: tuple[str, ...], code: int, said: bytes | str) -> None:
    """Append what git said to the campaign's ``.cache/league.log`` (passwords taken out);
    a folder that is not a campaign (a clone under way) keeps no log."""
    if directory is None or not (Path(directory) / CAMPAIGN_FILE).is_file():
        return
    text = said.decode("utf-8", "replace") if isinstance(said, bytes) else said
    path = Path(directory) / LOG_FILE
    line = (f"{time.strftime('%Y-%m-%d %H:%M:%S')} git {scrub(' '.join(args))} (exit {code})\n"
            + "".join(f"  {x}\n" for x in scrub(text).strip().splitlines()))
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > _LOG_LIMIT:
            kept = path.read_bytes()[-_LOG_LIMIT // 4:]
            path.write_bytes(kept[kept.find(b"\n") + 1:])
        with path.open("a", encoding="utf-8") as handle:
            handle.write(line)
    except OSError:
        pass  # (a log that cannot be written never stops a sync)


# --- the repository -----------------------------------------------------------------------------


def is_league(directory: Path) -> bool:
    return (Path(directory) / ".git").is_dir()


def branch(directory: Path) -> str:
    """The league's branch in this folder: the one HEAD names (a league joined from a
    remote whose HEAD names ``trunk`` plays on ``trunk``)."""
    try:
        head = (Path(directory) / ".git" / "HEAD").read_text().strip()
    except OSError:
        return DEFAULT_BRANCH
    if head.startswith("ref: refs/heads/"):
        return head[len("ref: refs/heads/"):]
    return DEFAULT_BRANCH


def player_name() -> str:
    try:
        name = getpass.getuser()
    except (KeyError, OSError, ImportError):
        name = ""
    return name.strip() or FALLBACK_NAME


def identity(directory: Path) -> list[str]:
    """``-c user.name=... -c user.email=...`` when git knows no one (a fresh machine): the
    player's name (the OS user's) on this laptop, so the league's history says who."""
    return list(_memo("identity", directory, lambda: _ask_identity(directory)))


def _ask_identity(directory: Path) -> list[str]:
    said = git(directory, "config", "--get-regexp", r"^user\.(name|email)$", check=False)
    known = dict(line.split(" ", 1) for line in said.stdout.decode("utf-8", "replace").splitlines()
                 if " " in line)
    name, email = known.get("user.name", "").strip(), known.get("user.email", "").strip()
    if name and email:
        return []
    name = name or player_name()
    host = re.sub(r"[^A-Za-z0-9.-]", "", socket.gethostname()) or "localhost"
    email = email or f"{re.sub(r'[^A-Za-z0-9._-]', '', name) or 'player'}@{host}"
    return ["-c", f"user.name={name}", "-c", f"user.email={email}"]
