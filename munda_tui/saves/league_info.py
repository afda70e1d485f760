"""What a player asks of a league without knowing git: what is not yet shared
(:func:`status`), who synced what and when (:func:`history`), and the remote's address
(:func:`remote`, :func:`set_remote`). Read-only but for ``set_remote``; none needs the
campaign's lock (the campaign may be open in munda-tui meanwhile): git and the files
say it all."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .files import BATTLES_DIR, CAMPAIGN_FILE, GANGS_DIR
from .git import REMOTE, LeagueError, branch, explain, git, is_league, need_git, public_url, scrub, unpushed

_SHARED = (CAMPAIGN_FILE, GANGS_DIR, BATTLES_DIR, "tables", "packs")


@dataclass
class LeagueStatus:
    """A league's state on this laptop, in words."""

    remote: str  # without a password
    branch: str
    #: this laptop's commits the remote does not have yet (a sync that could not push)
    unpushed: list[str] = field(default_factory=list)
    #: changes not recorded yet (the next sync records and shares them), in words
    unrecorded: list[str] = field(default_factory=list)
    in_progress: int = 0  # battles not applied yet: they stay here until they are
    last_sync: str = ""  # when the remote was last reached (the last fetch), local time

    @property
    def nothing_to_share(self) -> bool:
        return not self.unpushed and not self.unrecorded


@dataclass
class HistoryEntry:
    when: str  # "2026-12-03 09:12"
    who: str
    what: str  # the commit's subject ("Battle 3 (2026-12-01) ...", "synced")
    merge: bool = False


def _need_league(directory: Path) -> None:
    need_git()
    if not is_league(directory):
        raise LeagueError("this campaign is not a league (not shared through git): "
                          "`munda-tui league init CAMPAIGN --remote URL` makes it one")


def _toml(path: Path) -> dict:  # type: ignore[type-arg]
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}


def _battle_words(path: Path) -> tuple[str, bool]:
    """A battle file in words, and whether it is finished (shared) or in progress."""
    data = _toml(path)
    found = data.get("summary")
    summary: dict = found if isinstance(found, dict) else {}  # type: ignore[type-arg]
    done = summary.get("status") == "done"
    number = data.get("number", summary.get("number", "?"))
    date = summary.get("date") or "undated"
    return f"Battle {number} ({date})", done


def _gang_words(path: Path) -> str:
    data = _toml(path)
    name = data.get("name")
    if not name and isinstance(data.get("gang"), dict):
        name = data["gang"].get("name")
    return str(name or path.stem)


def status(directory: Path) -> LeagueStatus:
    """What is not yet shared from this laptop (as of the last sync's fetch)."""
    directory = Path(directory)
    _need_league(directory)
    league_branch = branch(directory)
    url = git(directory, "config", "--get", f"remote.{REMOTE}.url", check=False)
    out = LeagueStatus(public_url(url.stdout.decode("utf-8", "replace").strip()), league_branch)
    out.unpushed = unpushed(directory, league_branch)
    said = git(directory, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", *_SHARED)
    for item in said.stdout.decode("utf-8", "replace").split("\0"):
        if len(item) <= 3:
            continue
        code, path = item[:2], item[3:]
        gone = "D" in code
        if path.startswith(BATTLES_DIR + "/"):
            if gone:
                out.unrecorded.append(f"battle file {path[len(BATTLES_DIR) + 1:]} removed")
                continue
            words, done = _battle_words(directory / path)
            if done:
                new = "?" in code or "A" in code
                out.unrecorded.append(f"{words}: {'applied' if new else 'changed'}")
            else:
                out.in_progress += 1
        elif path.startswith(GANGS_DIR + "/"):
            if gone:
                out.unrecorded.append(f"gang file {path[len(GANGS_DIR) + 1:]} removed")
            else:
                new = "?" in code or "A" in code
                out.unrecorded.append(f"{_gang_words(directory / path)}: {'new gang' if new else 'roster changed'}")
        elif path == CAMPAIGN_FILE:
            out.unrecorded.append("campaign settings changed")
        else:
            out.unrecorded.append(f"{path} changed")
    fetched = directory / ".git" / "FETCH_HEAD"
    if fetched.exists():
        import time

        out.last_sync = time.strftime("%Y-%m-%d %H:%M", time.localtime(fetched.stat().st_mtime))
    return out


def history(directory: Path, limit: int | None = 50) -> list[HistoryEntry]:
    """The league's history, newest first: who recorded which battle or edit, and who
    synced (a merge of the league), when (each laptop's clock)."""
    directory = Path(directory)
    _need_league(directory)
    args = ["log", "--date=format:%Y-%m-%d %H:%M", "--format=%ad%x1f%an%x1f%P%x1f%s%x1e"]
    if limit is not None:
        args.append(f"-n{limit}")
    said = git(directory, *args, check=False)
    if said.returncode != 0:
        return []
    entries = []
    for record in said.stdout.decode("utf-8", "replace").split("\x1e"):
        parts = record.strip("\n").split("\x1f")
        if len(parts) != 4:
            continue
        when, who, parents, subject = parts
        merge = len(parents.split()) > 1
        entries.append(HistoryEntry(when, who, "synced (merged the league)" if merge and
                                    subject.startswith("Merged the league") else subject, merge))
    return entries


def remote(directory: Path) -> str:
    directory = Path(directory)
    _need_league(directory)
    said = git(directory, "config", "--get", f"remote.{REMOTE}.url", check=False)
    return public_url(said.stdout.decode("utf-8", "replace").strip())


def set_remote(directory: Path, url: str, check: bool = True) -> str:
    """Point the league at ``url`` (the league moved: another USB stick, a hosted
    repository). With ``check``, the remote must be reachable and hold this league's
    branch (or nothing yet). Stored without a password; returns what is stored."""
    directory = Path(directory)
    _need_league(directory)
    shown = public_url(url)
    if check:
        said = git(directory, "ls-remote", "--heads", "--", url, check=False)
        if said.returncode != 0:
            text = said.stderr.decode("utf-8", "replace")
            raise LeagueError(f"{shown} cannot be used: {explain('ls-remote', text, said.returncode)}. "
                              "The league's remote is unchanged (--no-check sets it anyway).",
                              scrub(text.strip()))
        heads = [line.split("\t", 1)[1] for line in said.stdout.decode("utf-8", "replace").splitlines()
                 if "\t" in line]
        if heads and f"refs/heads/{branch(directory)}" not in heads:
            raise LeagueError(f"{shown} holds no branch {branch(directory)!r} (it has "
                              + ", ".join(h[len('refs/heads/'):] for h in heads)
                              + "): another repository? The league's remote is unchanged.")
    if git(directory, "config", "--get", f"remote.{REMOTE}.url", check=False).returncode == 0:
        git(directory, "remote", "set-url", REMOTE, shown)
    else:
        git(directory, "remote", "add", REMOTE, shown)
    git(directory, "config", "--unset-all", f"remote.{REMOTE}.pushurl", check=False)
    return shown


def sync_words(result: Any) -> str:
    """What a sync (a ``league.SyncResult``) did, counted right: this laptop's changes the
    push took to the remote (this sync's and any an earlier sync could not push), and
    the others' changes received (their battles and edits, not their merges)."""
    shared = len(result.shared)
    words = f"{shared} change{'' if shared == 1 else 's'} shared" if result.pushed else "nothing pushed"
    received = len(result.received)
    return f"Synced: {words}, {received} received."


def status_lines(s: LeagueStatus) -> list[str]:
    """A league's status in lines (`league status` and the campaign screen's league menu)."""
    def plural(n: int, word: str) -> str:
        return f"{n} {word}{'' if n == 1 else 's'}"

    lines = [f"Shared through {s.remote or '(no remote)'} (branch {s.branch})"
             + (f"; the remote last reached {s.last_sync}." if s.last_sync else ".")]
    if s.nothing_to_share:
        lines.append("Nothing new to share.")
    if s.unpushed:
        lines.append(f"Recorded here, not yet on the remote ({plural(len(s.unpushed), 'change')}):")
        lines += [f"  {line}" for line in s.unpushed]
    if s.unrecorded:
        lines.append(f"Changed here since the last sync ({plural(len(s.unrecorded), 'change')}):")
        lines += [f"  {line}" for line in s.unrecorded]
    if s.in_progress:
        lines.append(f"{plural(s.in_progress, 'battle')} in progress stay on this laptop until applied.")
    return lines


def history_lines(entries: list[HistoryEntry]) -> list[str]:
    if not entries:
        return ["No history yet."]
    width = max(len(e.who) for e in entries)
    return [f"{e.when}  {e.who:<{width}}  {e.what}" for e in entries]
