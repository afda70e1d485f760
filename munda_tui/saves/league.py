"""A league: one campaign folder shared by several laptops through git.

The folder (``saves.folder``) is an ordinary git repository a person can inspect:
``git log`` is the league's history. Git is driven through its command line, not a
library: it is what the players already have with their own credentials (SSH keys,
HTTPS helpers) and what they would use to look at the folder; dulwich would re-do
credentials and transports, pygit2 needs libgit2 built for the platform. No git on the
machine: :class:`LeagueError` says so and the rest of the app works as without a
league.

What is shared: campaign.toml (settings), the gang files, finished battles (their
unrevealed Sub-plots left out, as ``export`` does), the campaign's Arbitrator tables and its
packs (docs/packs.md).
Never: a battle in progress, ``.cache``, ``.backups``, the lock, the journal, the
catalogue this laptop learned.

:func:`sync` records local changes as commits (one per applied battle, one per gang
edited, one for the settings), fetches, merges in memory (``git merge-tree``) and
writes the merged files as one transaction of the folder (``saves.journal``): the
campaign is as before or fully merged, never half. Then it pushes.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import SaveError
from .files import BATTLES_DIR, CAMPAIGN_FILE, GANGS_DIR, RECORDS_DIR
from .git import (PUSH_TRIES, CommitBatch, REMOTE, LeagueError, branch, explain, git, git_path, is_league,
                  public_url, push, scrub, unpushed, wait_a_moment)
from .git import fetch as _fetch
from .git import identity as _identity
from .git import need_git as _need_git
from .git import out as _out
from .git import ref as _ref
from .git import remembered as _remembered

if TYPE_CHECKING:
    from .store import CampaignHandle, Store

BRANCH = "main"  # a new league's branch (one joined plays on the remote HEAD's)
#: a merge under way: the commit the folder's files are being brought to (.git/...)
SYNC_MARK = "munda-sync"
IGNORED = (".cache/", ".backups/", ".lock", ".journal.json*", "*.jnew", "*.events", "*.tmp",
           "/catalogue.toml",
           ".creating-*", "*.bak")
_SHARED_DIRS = (GANGS_DIR, BATTLES_DIR, RECORDS_DIR, "tables", "packs")  # packs: the club's rules (docs/packs.md)


@dataclass
class GangConflict:
    """A file changed on this laptop and in the league since they last agreed."""

    path: str
    title: str  # the gang's name (or the file's)
    ours: list[str]  # what this laptop changed, in words
    theirs: list[str]  # what the league changed
    #: the choices the Arbitrator has: "ours", "theirs", and where a battle's post-battle
    #: changes re-apply on the other side's gang, "replay-ours" (this laptop's battles on
    #: the league's gang) or "replay-theirs" (the league's battles on this laptop's gang)
    choices: list[str] = field(default_factory=list)
    replays: dict[str, str] = field(default_factory=dict)  # choice -> what it re-applies


@dataclass
class SyncResult:
    """What a sync did."""

    committed: list[str] = field(default_factory=list)  # the local commits' messages
    received: list[str] = field(default_factory=list)  # the others' commits' messages
    pushed: bool = False
    conflicts: list[str] = field(default_factory=list)  # files changed on both sides
    details: list[GangConflict] = field(default_factory=list)  # per file: who changed what
    #: this laptop's own commits the push took to the remote (made by this sync or left
    #: unpushed by an earlier one): what "N change(s) shared" counts
    shared: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # worth saying (a password not kept, ...)
    #: what the sync did to this laptop's battles and edits, in words (issue 30.5): a
    #: change that waits for the Arbitrator, an answer that voided or changed one
    yours: list[str] = field(default_factory=list)
    questions: int = 0  # league questions open after the sync
    refused: list[str] = field(default_factory=list)  # battle files not shared, and why (30.6)


def _write_ignore(directory: Path) -> None:
    from .atomic import atomic_write_text

    atomic_write_text(directory / ".gitignore", "# never shared: this laptop's (munda-tui)\n"
                      + "".join(f"{p}\n" for p in IGNORED))


# --- what is shared --------------------------------------------------------------------------


def _finished(handle: "CampaignHandle") -> dict[str, Any]:
    """The battle files that are shared: finished battles (file name -> summary)."""
    out = {}
    for s in handle.campaign.battles:
        if str(s.status) == "done":
            name = handle._battle_files.get(s.number)
            if name is not None:
                out[name] = s
    return out


def _strip_secrets(handle: "CampaignHandle", names: set[str]) -> dict[str, str]:
    """A finished battle about to be shared (file ``names``) keeps no unrevealed Sub-plot
    in its file (nobody who clones the league may read a hand that was not shown at the
    table; ``export`` leaves them out the same way). The full file stays in this laptop's
    backups. A battle file that cannot be stripped (it does not load: a hand edit's typo)
    is never shared: file name -> why, for the sync to say (issue 30.6)."""
    from ..rules.subplots.decks import without_hidden_cards
    from .export import _drop_withheld_counts

    refused: dict[str, str] = {}
    rule_data = None  # (the packs in force: a pack's deck's open card is public)
    for s in handle.campaign.battles:
        name = handle._battle_files.get(s.number)
        if str(s.status) != "done" or name not in names:
            continue
        try:
            data = handle.load_battle(s.number)
            if rule_data is None:
                from .packs import load_packs
                from .paths import default_config_dir

                rule_data = load_packs(default_config_dir(), handle.path).data
            public, withheld = without_hidden_cards(data, rule_data)
            if withheld or public != data:
                _drop_withheld_counts(public)
                handle.save_battle(s.number, public)
        except KeyError:
            continue
        except Exception as error:  # noqa: BLE001 - whatever stops the stripping: not shared
            refused[name] = str(error) or type(error).__name__
    return refused


def _names(handle: "CampaignHandle") -> dict[str, str]:
    return {g.id: g.name for g in handle.campaign.gangs}


def _changed(directory: Path) -> list[tuple[str, str]]:
    """(status, path) of every shareable path that differs from HEAD (or is new)."""
    done = git(directory, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--",
               CAMPAIGN_FILE, ".gitignore", *_SHARED_DIRS)
    items = done.stdout.decode("utf-8", "replace").split("\0")
    out = []
    for item in items:
        if len(item) > 3:
            out.append((item[:2], item[3:]))
    return out


def commit_local(handle: "CampaignHandle") -> list[str]:
    """Record this laptop's changes as commits: one per applied battle (with its gangs),
    one per gang edited, one for the settings. Battles in progress stay out. Returns the
    commits' messages."""
    directory = handle.path
    changed = _changed(directory)
    refused = _strip_secrets(handle, {p[len(BATTLES_DIR) + 1:] for _s, p in changed if p.startswith(BATTLES_DIR + "/")})
    for _s, p in changed:  # a battle file left out at the open (it does not load): never shared
        name = p[len(BATTLES_DIR) + 1:]
        if p.startswith(BATTLES_DIR + "/") and name not in refused:
            why = next((x for x in handle.problems if name in x), None)
            if why is not None:
                refused[name] = why
    handle.league_refused = [f"{BATTLES_DIR}/{name} is not shared: its unrevealed Sub-plots and deck order "
                             f"could not be taken out ({why}); correct the file (munda-tui check) and sync again"
                             for name, why in sorted(refused.items())]
    changed = [(st, p) for st, p in changed if p[len(BATTLES_DIR) + 1:] not in refused
               or not p.startswith(BATTLES_DIR + "/")]
    finished = _finished(handle)
    names = _names(handle)
    gang_paths = {p for _s, p in changed if p.startswith(GANGS_DIR + "/")}
    batch = CommitBatch(directory)  # (every commit in one go: a few git processes, not 3 each)
    # each new record goes with the battle or the gang it is about (issue 30)
    from .folder import gang_file_name
    from .league_records import record_of

    record_paths = [p for _s, p in changed if p.startswith(RECORDS_DIR + "/")]
    with_battle: dict[str, list[str]] = {}
    with_gang: dict[str, list[str]] = {}
    for path in record_paths:
        try:
            data = record_of((directory / path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            data = {}
        battle, gang = data.get("battle"), data.get("gang")
        if data.get("kind") == "battle" and isinstance(battle, str) and not data.get("id", "").startswith("applied-"):
            with_battle.setdefault(f"{BATTLES_DIR}/{battle}.toml", []).append(path)
        elif data.get("kind") in ("start", "edit", "remove") and isinstance(gang, str):
            try:
                with_gang.setdefault(f"{GANGS_DIR}/{gang_file_name(gang)}", []).append(path)
            except ValueError:
                pass

    def git_commit(paths: list[str], message: str) -> None:
        batch.add(paths, message)

    battle_changes = [p for _s, p in changed if p.startswith(BATTLES_DIR + "/")]
    for path in sorted(battle_changes, key=lambda p: (getattr(finished.get(p[len(BATTLES_DIR) + 1:]), "number", 0), p)):
        name = path[len(BATTLES_DIR) + 1:]
        summary = finished.get(name)
        if summary is None:
            if (directory / path).exists():
                continue  # in progress: never shared
            git_commit([path], f"Battle file {name} removed")
            continue
        gangs = [f"{GANGS_DIR}/{handle._gang_files[g]}" for g in summary.gangs if g in handle._gang_files]
        mine = [g for g in gangs if g in gang_paths]
        gang_paths.difference_update(mine)
        recs = with_battle.pop(path, [])
        who = " vs ".join(names.get(g, g) for g in summary.gangs) or "no gangs"
        status = next((s for s, p in changed if p == path), "")
        what = "updated (its number or summary)" if "M" in status else "post-battle applied"
        git_commit([path, *mine, *recs], f"Battle {summary.number} ({summary.date or 'undated'}) {who}: {what}")
    by_file = {f"{GANGS_DIR}/{name}": gid for gid, name in handle._gang_files.items()}
    gang_paths |= {p for p in with_gang if p not in gang_paths and (directory / p).exists()}
    for path in sorted(gang_paths):
        recs = with_gang.pop(path, [])
        gid = by_file.get(path)
        if gid is None:
            git_commit([path, *recs], f"Gang file {path[len(GANGS_DIR) + 1:]} removed")
        else:
            status = next((s for s, p in changed if p == path), "")
            verb = "joined the league" if "?" in status or "A" in status else "roster edited"
            git_commit([path, *recs], f"{names.get(gid, gid)}: {verb}")
    rest = [p for _s, p in changed if not p.startswith((GANGS_DIR + "/", BATTLES_DIR + "/", RECORDS_DIR + "/"))]
    git_commit(rest, "Campaign settings changed" if CAMPAIGN_FILE in rest else "League files changed")
    # the records no battle or gang took (answers, corrections): a commit of their own (a
    # path goes with the first commit naming it, so only those left are in this one)
    git_commit(record_paths, "League records: answers to league questions and the campaign's history")
    return batch.flush()


# --- init, join --------------------------------------------------------------------------------


def init(handle: "CampaignHandle", remote: str) -> SyncResult:
    """Make the open campaign a league shared through ``remote`` (any git URL: a bare
    repository on a USB stick or a shared folder, or a hosted one) and push it there.
    A password in the URL is used for this push only (git's credential helper keeps it,
    if the player has one): the folder stores the URL without it."""
    directory = handle.path
    if is_league(directory):
        raise LeagueError(f"{handle.campaign.name} is a league already (shared through "
                          f"{remote_url(directory) or 'its remote'}): sync it with g on its "
                          f"campaign screen or `munda-tui sync {handle.slug}`")
    _need_git()
    shown = public_url(remote)
    git(directory, "init", "-q", "-b", BRANCH)
    try:
        _write_ignore(directory)
        # the league's first commit is its own (a random id): two leagues never share a
        # history, so a remote of another campaign's league is told apart at the sync
        git(directory, *_identity(directory), "commit", "-q", "--allow-empty", "-m",
            f"League started: {handle.campaign.name} ({os.urandom(6).hex()})")
        commit_local(handle)
        git(directory, "remote", "add", REMOTE, shown)
    except BaseException:
        shutil.rmtree(directory / ".git", ignore_errors=True)
        (directory / ".gitignore").unlink(missing_ok=True)
        raise
    try:  # (the URL as typed for this push alone: pushurl from the command line)
        git(directory, "-c", f"remote.{REMOTE}.pushurl={remote}", "push", "-q", "-u", REMOTE,
            f"{BRANCH}:{BRANCH}")
    except LeagueError as error:  # the campaign stays as it was: no league half made
        shutil.rmtree(directory / ".git", ignore_errors=True)
        (directory / ".gitignore").unlink(missing_ok=True)
        raise LeagueError(f"could not push the league to {shown}: {error}. The campaign is "
                          "unchanged. For a USB stick or a shared folder, make the remote first "
                          "(`git init --bare FOLDER`); for a hosted one, check the URL and your "
                          "git credentials.", error.detail) from None
    result = SyncResult(committed=_out(directory, "log", "--format=%s", "--no-merges").splitlines()[::-1])
    result.shared = list(result.committed)
    result.pushed = True
    if shown != remote and not _has_credential_helper(directory):
        result.notes.append("the password in the URL was used for this push and not kept: set up "
                            "a git credential helper (see docs/league.md) or every sync will "
                            "ask for it")
    return result


def _has_credential_helper(directory: Path) -> bool:
    return bool(git(directory, "config", "--get-all", "credential.helper", check=False).stdout.strip())


def remote_url(directory: Path) -> str:
    """The league's remote as stored (without a password), '' when it has none."""
    said = git(directory, "config", "--get", f"remote.{REMOTE}.url", check=False)
    return public_url(said.stdout.decode("utf-8", "replace").strip())


def _root(directory: Path) -> str:
    """The league's first commit (its identity: every laptop's history starts there)."""
    said = git(directory, "rev-list", "--max-parents=0", "HEAD", check=False)
    roots = said.stdout.decode().split()
    return roots[-1] if said.returncode == 0 and roots else ""


def joined(store: "Store", root: str) -> str | None:
    """The slug of the campaign on this laptop that is the league whose first commit is
    ``root`` (joined or started here), if any."""
    if not root or not store.campaigns_dir.is_dir():
        return None
    for folder in sorted(store.campaigns_dir.iterdir()):
        if not folder.name.startswith(".") and is_league(folder) and _root(folder) == root:
            return folder.name
    return None


def _check_out_league_branch(staging: Path) -> None:
    """A clone whose remote HEAD names a branch that does not exist (a bare repository
    made with another default branch than the league's) has nothing checked out: take
    the league's branch (``main``, else the remote's only one)."""
    if git(staging, "rev-parse", "--verify", "-q", "HEAD", check=False).returncode == 0:
        return
    said = _out(staging, "for-each-ref", "--format=%(refname:strip=3)", f"refs/remotes/{REMOTE}/")
    branches = [b for b in said.splitlines() if b and b != "HEAD"]
    pick = BRANCH if BRANCH in branches else (branches[0] if len(branches) == 1 else "")
    if not pick:
        raise LeagueError("the remote holds no league yet (no branch to take)" if not branches else
                          "the remote's HEAD names no branch and it has several: "
                          + ", ".join(branches) + "; ask the league's Arbitrator which")
    git(staging, "checkout", "-q", "-B", pick, "--track", f"{REMOTE}/{pick}")


def join(store: "Store", url: str) -> str:
    """Clone the league at ``url`` into the data folder, under the campaign's own name;
    its slug. The league's branch is the one the remote's HEAD names; a password in the
    URL is used for the clone (git's credential helper keeps it) and never stored here.
    A league this laptop has already (joined or started here) is refused, named."""
    from .folder import load_campaign_dir
    from .store import campaign_slug

    _need_git()
    shown = public_url(url)
    with _guard(store.campaigns_dir):
        store.campaigns_dir.mkdir(parents=True, exist_ok=True)
    staging = store.campaigns_dir / f".creating-{os.getpid()}-{os.urandom(4).hex()}"
    try:
        try:
            git(store.campaigns_dir, "clone", "-q", "--", url, str(staging))
        except LeagueError as error:
            raise LeagueError(f"could not take the league from {shown}: {error}", error.detail) from None
        git(staging, "remote", "set-url", REMOTE, shown)
        if not (staging / CAMPAIGN_FILE).is_file():
            _check_out_league_branch(staging)
        if not (staging / CAMPAIGN_FILE).is_file():
            raise LeagueError(f"{shown} is a git repository but holds no munda-tui campaign "
                              "(no campaign.toml)")
        there = joined(store, _root(staging))
        if there is not None:
            raise LeagueError(f"this laptop has that league already: campaign {there!r} (open it "
                              f"with munda-tui --campaign {there}; `munda-tui sync {there}` takes "
                              "what is new)")
        try:
            campaign, _files = load_campaign_dir(staging)
        except SaveError as error:
            raise LeagueError(f"the league at {shown} does not load: {error}") from None
        taken = {p.name for p in store.campaigns_dir.iterdir()}
        slug = campaign_slug(campaign.id or campaign.name, taken)
        with _guard(staging):
            os.rename(staging, store.campaigns_dir / slug)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return slug


def _guard(path: Path):  # type: ignore[no-untyped-def]
    from .atomic import guarded_write

    return guarded_write(path)


# --- sync ---------------------------------------------------------------------------------------


def _resume(directory: Path) -> None:
    """A sync killed while it brought the files to a merge: finish it (the files are
    the merge's: move HEAD there) or forget it (they are not)."""
    mark = directory / ".git" / SYNC_MARK
    try:
        target = mark.read_text().strip()
    except FileNotFoundError:
        return
    git(directory, "read-tree", target)  # the index as the merge has it
    git(directory, "update-index", "-q", "--refresh", check=False)  # (compare contents, not stats)
    differs = git(directory, "diff-files", "--quiet", check=False).returncode != 0
    if differs:
        git(directory, "read-tree", "HEAD")  # the files never got there: as before
    else:
        git(directory, "update-ref", "-m", "munda-tui sync (finished)", "HEAD", target)
    mark.unlink(missing_ok=True)


def _tracked_at(directory: Path, commit: str) -> dict[str, str]:
    """path -> blob id of every file in ``commit``."""
    return {path: blob for path, (_mode, blob) in _tree(directory, commit).items()}


def _bring_files_to(handle: "CampaignHandle", old: str, new: str) -> list[str]:
    """Write the files of commit ``new`` where they differ from ``old``'s, as one
    transaction of the folder; then HEAD and the index are ``new``."""
    from .journal import Transaction
    from .store import backup_dir_of

    directory = handle.path
    before, after = _tracked_at(directory, old), _tracked_at(directory, new)
    tx = Transaction(directory)
    paths = []
    blobs = [(p, b) for p, b in after.items() if before.get(p) != b]
    if blobs:
        batch = git(directory, "cat-file", "--batch", input="".join(f"{b}\n" for _p, b in blobs).encode())
        data = batch.stdout
        at = 0
        for path, _blob in blobs:
            head_end = data.index(b"\n", at)
            size = int(data[at:head_end].split()[2])
            body = data[head_end + 1: head_end + 1 + size]
            at = head_end + 1 + size + 1
            tx.write(directory / path, body.decode("utf-8"), backup_dir_of(directory / path))
            paths.append(path)
    for path in before:
        if path not in after:
            tx.delete(directory / path, backup_dir_of(directory / path))
            paths.append(path)
    mark = directory / ".git" / SYNC_MARK
    from .atomic import atomic_write_text

    atomic_write_text(mark, new + "\n")
    if tx:
        tx.commit()
    git(directory, "read-tree", new)
    git(directory, "update-ref", "-m", "munda-tui sync", "HEAD", new)
    mark.unlink(missing_ok=True)
    return paths


def sync(handle: "CampaignHandle", choices: dict[str, str] | None = None) -> SyncResult:
    """See :func:`_sync` (git's configuration asked once for the whole sync)."""
    with _remembered():
        return _sync(handle, choices)


def _head(directory: Path) -> str:
    found = _ref(directory, "HEAD")
    if found is None:
        raise LeagueError("this league's folder has no commit yet (git rev-parse HEAD)")
    return found


def _sync(handle: "CampaignHandle", choices: dict[str, str] | None = None) -> SyncResult:
    """Share the open campaign with its league (see the module's text). LeagueError
    when it cannot: the local campaign is then as it was, or fully synced.

    A file changed here and in the league since they last agreed stops the sync before
    anything is written: ``conflicts`` and ``details`` say which and who changed what;
    sync again with ``choices`` (path -> one of its ``GangConflict.choices``). The side
    not taken stays in git's history (both are parents of the merge) and in .backups."""
    directory = handle.path
    if not is_league(directory):
        raise LeagueError(f"{handle.campaign.name} is not a league yet: `munda-tui league init "
                          f"{handle.slug} --remote URL` makes it one")
    _need_git()
    # under the campaign's lock no other munda-tui works here: a git lock left by a
    # sync that was killed is stale
    league_branch = branch(directory)  # (the remote HEAD's, for a league joined)
    for stale in (".git/index.lock", ".git/HEAD.lock", f".git/refs/heads/{league_branch}.lock"):
        (directory / stale).unlink(missing_ok=True)
    _resume(directory)
    if handle._numbers:  # (battles whose files say a number they no longer have, as a sync
        handle.save()  # before the merge renumbered them itself could leave them: written now)
    result = SyncResult(committed=commit_local(handle))
    result.refused = list(getattr(handle, "league_refused", []))
    from . import league_undo

    own = _head(directory)  # (what `league undo` goes back to: saves.league_undo)
    for attempt in range(PUSH_TRIES):
        fetched = _fetch(directory)
        if fetched.returncode != 0:
            said = fetched.stderr.decode("utf-8", "replace")
            raise LeagueError(f"could not fetch from the league's remote: {explain('fetch', said)}. "
                              "Your campaign is unchanged here (your changes are committed locally); "
                              "sync again once the remote can be reached.", scrub(said.strip()))
        remote_ref = f"refs/remotes/{REMOTE}/{league_branch}"
        remote_at = _ref(directory, remote_ref)
        has_remote = remote_at is not None
        head = _head(directory)
        if remote_at is not None:
            theirs = remote_at
            base = git(directory, "merge-base", head, theirs, check=False)
            if base.returncode != 0:
                raise LeagueError("the remote holds another campaign's league (no history in "
                                  "common with this one); nothing was changed. Check the URL: "
                                  f"`git -C {directory} remote -v`.")
            base_id = base.stdout.decode().strip()
            folded = None
            if base_id != theirs:  # something new there
                received = _out(directory, "log", "--no-merges", "--format=%s", f"{head}..{theirs}").splitlines()
                # what the others changed is loaded first, as it came: a gang file the fold
                # would rewrite is still someone's (hand) edit, refused by name, not dropped
                _refuse_broken(directory, base_id, theirs, "the league's remote holds")
                set_aside: list[tuple[str, str, str, bool]] = []
                if base_id == head:
                    target = theirs  # a fast-forward
                else:
                    merged, conflicts, folded = _merge(directory, base_id, head, theirs, set_aside)
                    open_ones = [p for p in conflicts if p not in (choices or {})]
                    if open_ones:
                        result.conflicts = conflicts
                        result.details = _details(handle, base_id, head, theirs, conflicts)
                        return result
                    for path in conflicts:
                        chosen = _chosen(handle, path, (choices or {})[path], base_id, head, theirs)
                        if chosen[1]:
                            merged[path] = chosen
                    if folded is not None:  # (each battle file saying its number in the fold's order)
                        merged = _renumbered(handle, merged, _tree(directory, head), folded.fold.battles)
                    target = _commit_files(directory, merged, head, theirs, conflicts, choices or {})
                result.received += received
                if target != theirs and (conflicts or folded is None):
                    # (a merge by the records wrote only files loaded already: the others' as
                    # they came, the gangs the fold changed (``_folded``); a pick or a replay
                    # of the Arbitrator's is loaded before it is written)
                    _refuse_broken(directory, head, target, "the league's remote holds")
                from .league_records import news, snapshot

                before = snapshot(handle)
                _bring_files_to(handle, head, target)
                if folded is not None and target != theirs:  # (the merge's fold: not worked out again)
                    handle._records.preset = _preset(directory, merged, folded)
                _hold_set_aside(handle, set_aside, result)
                handle.reload()
                result.yours += news(handle, before)
                result.questions = len(handle.questions)
                if handle._numbers:  # two battles said the same number: told apart, as everywhere
                    handle.save()
                    result.committed += commit_local(handle)
                league_undo.note(directory, own, _head(directory), pushed=False)
        ours = unpushed(directory, league_branch)
        _refuse_broken(directory, remote_ref if has_remote else _root(directory), "HEAD",
                       "not pushed: this laptop has")
        onto = _ref(directory, remote_ref) or ""  # (before: git push moves it)
        if push(directory, league_branch):  # (False: another laptop pushed first: again)
            now = _head(directory)
            if ours or now != own:
                league_undo.note(directory, own, now, pushed=True, onto=onto)
            git(directory, "update-ref", remote_ref, "HEAD", check=False)
            result.shared = ours
            result.pushed = True
            return result
        wait_a_moment(attempt)
    raise LeagueError("the remote kept changing while syncing (other laptops pushing all the "
                      "time); your campaign here is synced with what was fetched: sync again")


def _hold_set_aside(handle: "CampaignHandle", set_aside: list[tuple[str, str, str, bool]],
                    result: SyncResult) -> None:
    """This laptop keeps playing each version of its that the merge set aside (issue
    35.7), said in the sync's words; holds whose version an answer took away go."""
    from .league_packs import forget_void_holds, hold

    for name, digest, version, removed in set_aside:
        hold(handle.path, name, digest)
        mine = "removal of it" if removed else f"version {version or '?'}"
        result.yours.append(f"Pack {name}: the league has another version; this laptop keeps its {mine} "
                            "until the Arbitrator answers (a league question)")
    forget_void_holds(handle.path)


def undo(handle: "CampaignHandle") -> tuple[Any, list[str]]:
    """`league undo`: this laptop's last sync taken back (not pushed) or voided by
    corrections (pushed), as ``saves.league_undo`` plans it: the plan, and what was done
    in words. LeagueError where it cannot (nothing changed then)."""
    from . import league_undo

    planned = league_undo.plan(handle)
    directory = handle.path
    if planned.kind == "take back":
        noted = league_undo.last(directory)
        assert noted is not None
        _bring_files_to(handle, noted.after, noted.before)
        league_undo.mark_done(directory, "taken back")
        handle.reload()
        return planned, ["Taken back: the campaign is as it was before that sync."]
    if planned.kind == "correct":
        made = league_undo.void(handle, planned.voids)
        league_undo.mark_done(directory, "corrected")
        left = len(handle.questions)
        return planned, [f"Recorded {made} correction(s); shared at the next sync."
                         + (f" {left} league question(s) open." if left else "")]
    return planned, []


def _refuse_broken(directory: Path, old: str, new: str, where: str) -> None:
    """LeagueError naming the first shared file of ``new`` (changed since ``old``) that
    does not load: nothing broken is written here nor pushed (``saves.league_check``)."""
    from .league_check import broken_files, refusal

    problems = broken_files(directory, old, new)
    if problems:
        tail = ("; nothing was changed here (the campaign opens as before). The laptop that "
                "shared it should fix it and sync again." if new != "HEAD" else
                "; fix it (`munda-tui check` names it) and sync again: nothing broken is shared.")
        raise LeagueError(refusal(problems, where) + tail, "\n".join(problems))


Blobs = dict[str, tuple[str, str]]  # path -> (mode, blob id)


_TREES: dict[tuple[str, str], Blobs] = {}  # (folder, commit id) -> its files (a commit never changes)


def _tree(directory: Path, commit: str) -> Blobs:
    """path -> (mode, blob id) of every file in ``commit`` (a commit id: asked of git
    once a sync, a sync reads HEAD's three times)."""
    key = (str(directory), commit)
    if key in _TREES:
        return dict(_TREES[key])
    out = git(directory, "ls-tree", "-r", "-z", commit).stdout.decode("utf-8", "replace")
    files: Blobs = {}
    for item in out.split("\0"):
        if item:
            head, path = item.split("\t", 1)
            mode, _kind, blob = head.split()
            files[path] = (mode, blob)
    if re.fullmatch(r"[0-9a-f]{40}", commit):
        if len(_TREES) >= 8:
            del _TREES[next(iter(_TREES))]
        _TREES[key] = dict(files)
    return files


def _merge(directory: Path, base: str, head: str, theirs: str,
           set_aside: list[tuple[str, str, str, bool]] | None = None) -> tuple[Blobs, list[str], Any]:
    """A merge file by file (never inside a file): what the merge holds, the paths
    changed on both sides that are the Arbitrator's to decide, and the fold of its
    records its gangs are (``league_records.Folded``, each gang the fold changed loaded
    already; None: a league without records, merged file by file).

    A league that keeps records (issue 30) merges their union: a record is never
    changed (the same name on both sides: ours), a finished battle file changed on both
    sides takes the league's (only its number or summary moves once shared), and the
    gang files are written from the fold of the merged records, never merged by git.

    A campaign's pack is one thing (issue 35.7): changed on both sides into two different
    packs, it is never a mix of files nor a silent choice: the merge keeps the league's
    in ``packs/<pack>/`` and sets this laptop's aside, whole, for the Arbitrator
    (``saves.league_packs``); ``set_aside`` gets (pack, digest, version, removed) of each."""
    from .league_records import is_record

    b, o, t = _tree(directory, base), _tree(directory, head), _tree(directory, theirs)
    merged: Blobs = {}
    conflicts = []
    by_records = any(is_record(p) for p in o) and any(is_record(p) for p in t)
    clashing = _pack_clashes(b, o, t)
    for pack in sorted(clashing):
        merged.update(_pack_files(t, pack))
        mine = _pack_files(o, pack)
        made = _set_aside(directory, pack, mine)
        merged.update(made[0])
        if set_aside is not None:
            set_aside.append((pack.split("/", 1)[1], made[1], made[2], not mine))
    for path in sorted(set(b) | set(o) | set(t)):
        if _pack_of(path) in clashing or path in merged:
            continue
        bo, oo, to = b.get(path), o.get(path), t.get(path)
        if oo == to:
            value = oo
        elif oo == bo:
            value = to
        elif to == bo:
            value = oo
        elif path.startswith(_VERSIONS + "/"):
            value = to if to is not None else oo  # (a set-aside version: the same files)
        elif by_records and path.startswith((RECORDS_DIR + "/", GANGS_DIR + "/")):
            value = oo if oo is not None else to  # (the gangs: written from the fold below)
        elif by_records and path.startswith(BATTLES_DIR + "/"):
            value = to if to is not None else oo
        else:
            conflicts.append(path)
            continue
        if value is not None:
            merged[path] = value
    folded = None
    if by_records:
        merged, folded = _folded(directory, merged, o)
    return merged, conflicts, folded


def _pack_of(path: str) -> str:
    """The pack folder a shared path is in ("packs/our-club"), "" when none (the
    set-aside versions' hidden folder is no pack)."""
    parts = path.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 and parts[0] == "packs" and not parts[1].startswith(".") else ""


_VERSIONS = "packs/.versions"


def _set_aside(directory: Path, pack: str, ours: Blobs) -> tuple[Blobs, str, str]:
    """This laptop's version of ``pack`` (its files ``ours``; none: removed here) as a
    set-aside version (``saves.league_packs``): its files and note, its digest, its
    version."""
    import hashlib

    from .league_packs import note_text
    from .records import player, today

    name = pack.split("/", 1)[1]
    digest = hashlib.sha256("".join(f"{p[len(pack) + 1:]}\0{blob}\n" for p, (_m, blob) in sorted(ours.items()))
                            .encode()).hexdigest()[:12]
    folder = f"{_VERSIONS}/{name}/{digest}"
    out: Blobs = {f"{folder}/{p[len(pack) + 1:]}": v for p, v in ours.items()}
    version = _pack_version(directory, ours, pack) if ours else ""
    text = note_text(version, player(), today(), removed=not ours)
    blob = git(directory, "hash-object", "-w", "--stdin", input=text.encode()).stdout.decode().strip()
    out[f"{folder}.toml"] = ("100644", blob)
    return out, digest, version


def _pack_files(tree: Blobs, pack: str) -> Blobs:
    return {p: v for p, v in tree.items() if p.startswith(pack + "/")}


def _pack_clashes(b: Blobs, o: Blobs, t: Blobs) -> set[str]:
    """The packs changed here and in the league since they last agreed, into two
    different packs (another version, or other content)."""
    packs = {_pack_of(p) for p in (*b, *o, *t)} - {""}
    out = set()
    for pack in packs:
        was, ours, league = (_pack_files(tree, pack) for tree in (b, o, t))
        if ours != was and league != was and ours != league:
            out.add(pack)
    return out


def _pack_version(directory: Path, tree: Blobs, pack: str) -> str:
    """A pack's version as its pack.toml on that side says ("" when it has none)."""
    import tomllib

    blob = tree.get(f"{pack}/pack.toml")
    if blob is None:
        return ""
    try:
        value = tomllib.loads(_blob_text(directory, blob[1])).get("version", "")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return ""
    return str(value)


def _cat(directory: Path, blobs: list[str]) -> list[bytes]:
    """The contents of ``blobs``, in one git process."""
    if not blobs:
        return []
    data = git(directory, "cat-file", "--batch", input="".join(f"{b}\n" for b in blobs).encode()).stdout
    out = []
    at = 0
    for _blob in blobs:
        head_end = data.index(b"\n", at)
        size = int(data[at:head_end].split()[2])
        out.append(data[head_end + 1: head_end + 1 + size])
        at = head_end + 1 + size + 1
    return out


def _folded(directory: Path, merged: Blobs, ours: Blobs) -> tuple[Blobs, Any]:
    """``merged`` with its gang files the fold of its records (``saves.league_records``),
    and that fold; LeagueError when a folded gang would not load (nothing written,
    nothing pushed). The fold goes on from the last one put aside
    (``records.kept_fold``) where it can: only the records it did not fold are read and
    folded; else every record is folded again."""
    from . import league_records
    from .league_records import fold_texts, is_record
    from .records import Refs, keep_fold, kept_fold, read_named

    refs = Refs({})
    blobs = {path: blob for path, (_mode, blob) in merged.items() if is_record(path)}
    old = {}
    for path in ours:
        if path.startswith(GANGS_DIR + "/"):
            try:
                old[path] = (directory / path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                pass

    def read(paths: list[str]) -> dict[str, str]:
        """Each record file's text: this laptop's file where it holds the merge's, else git's."""
        texts: dict[str, str] = {}
        fetch: list[str] = []
        for path in paths:
            if ours.get(path, ("", ""))[1] == blobs[path]:
                try:
                    texts[path] = (directory / path).read_text(encoding="utf-8")
                    continue
                except (OSError, UnicodeDecodeError):
                    pass
            fetch.append(path)
        for path, body in zip(fetch, _cat(directory, [blobs[p] for p in fetch])):
            texts[path] = body.decode("utf-8", "replace")
        return texts

    folded = None
    kept = kept_fold(directory)
    try:
        if kept is not None:
            folded = league_records.fold_on(directory, kept, blobs, read, old, refs)
        if folded is None:
            local, _problems = read_named(directory, refs.number_of)  # (parsed once: .cache)
            known = {}
            remote: list[str] = []
            for path, blob in blobs.items():
                name = path[len(RECORDS_DIR) + 1:]
                if ours.get(path, ("", ""))[1] == blob and name in local:
                    known[path] = local[name]
                else:
                    remote.append(path)
            folded = fold_texts(directory, read(remote), old, known, refs, blobs)
    except SaveError as error:
        raise LeagueError(f"the merged league would not load ({error}); nothing was changed") from None
    keep_fold(directory, folded.state_records, folded.state, folded.gangs)
    out = {p: v for p, v in merged.items() if not p.startswith(GANGS_DIR + "/")}
    made: list[tuple[str, str]] = []
    for path, text in folded.gangs.items():
        if old.get(path) == text and path in ours:
            out[path] = ours[path]
            continue
        made.append((path, text))
    for (path, _text), blob in zip(made, _hash_objects(directory, [t for _p, t in made])):
        out[path] = ("100644", blob)
    return out, folded


def _hash_objects(directory: Path, texts: list[str]) -> list[str]:
    """Each text written into git's objects, in one git process: their blob ids."""
    import tempfile

    if not texts:
        return []
    with tempfile.TemporaryDirectory(prefix="munda-blobs-") as scratch:
        paths = []
        for n, text in enumerate(texts):
            path = Path(scratch) / f"{n}.toml"
            path.write_bytes(text.encode("utf-8"))
            paths.append(str(path))
        said = git(directory, "hash-object", "-w", "--no-filters", "--stdin-paths",
                   input="".join(f"{p}\n" for p in paths).encode("utf-8"))
    blobs = said.stdout.decode().split()
    if len(blobs) != len(texts):
        raise LeagueError("git did not store the merge's files; nothing was changed", said.stderr.decode("utf-8", "replace"))
    return blobs


_NUMBER_LINE = re.compile(r"(?m)^number = (\d+)$")


def _renumbered(handle: "CampaignHandle", merged: Blobs, ours: Blobs, order: list[str]) -> Blobs:
    """``merged`` with each battle file saying the number the fold's order gives it
    (issue 30.4), as the campaign will number it once the merge is written
    (``folder.shown_numbers``, over this laptop's battle files with the merge's in their
    place): the renumbered files are part of the merge, written in its one transaction
    and committed with it; a kill can no longer leave a battle file saying its old
    number. A battle file's text keeps its bytes but for its number line; one laid out
    otherwise is written again as the app writes it. Each renumbered text is read back
    before it is part of the merge."""
    import tomllib

    from . import tomlemit
    from .files import toml_loads
    from .folder import NUMBER, SUMMARY, battle_plain, battle_stem, shown_numbers

    directory = handle.path
    prefix = BATTLES_DIR + "/"
    dates = {s.number: s.date for s in handle.campaign.battles}
    placed: dict[str, tuple[int, str, str]] = {}
    for at, name in handle._battle_files.items():  # (as the files say: committed, unchanged)
        placed[name] = (handle._numbers.get(at, at), dates.get(at, ""), name)
    for path in ours:
        if path.startswith(prefix) and path not in merged:
            placed.pop(path[len(prefix):], None)
    arrived = [p for p, v in merged.items() if p.startswith(prefix) and p.count("/") == 1 and p.endswith(".toml")
               and (ours.get(p) != v or p[len(prefix):] not in placed)]
    texts: dict[str, tuple[str, dict[str, Any]]] = {}
    for path, body in zip(arrived, _cat(directory, [merged[p][1] for p in arrived])):
        name = path[len(prefix):]
        placed.pop(name, None)
        try:
            text = body.decode("utf-8")
            data = toml_loads(text)
        except (UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue  # (refused by name before the merge, or left out as everywhere)
        number, summary = data.get(NUMBER), data.get(SUMMARY)
        if type(number) is not int:
            continue
        placed[name] = (number, str(summary.get("date", "")) if isinstance(summary, dict) else "", name)
        texts[name] = (text, data)
    shown = shown_numbers(list(placed.values()), order)
    rank = set(order)
    out = dict(merged)
    changed = [(name, n) for name, n in shown.items()
               if n != placed[name][0] and battle_stem(name) in rank and prefix + name in merged]
    local = [name for name, _n in changed if name not in texts]
    for name, body in zip(local, _cat(directory, [merged[prefix + n][1] for n in local])):
        try:
            text = body.decode("utf-8")
            texts[name] = (text, toml_loads(text))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
    renumbered: list[tuple[str, str]] = []
    for name, number in changed:
        if name not in texts:
            continue
        text, data = texts[name]
        want = {**data, NUMBER: number}
        lines = _NUMBER_LINE.findall(text.split("\n[", 1)[0])
        new = _NUMBER_LINE.sub(f"number = {number}", text, count=1) if len(lines) == 1 else ""
        try:
            if not new or toml_loads(new) != want:
                new = tomlemit.dumps(battle_plain(number, data.get(SUMMARY), data))
            if toml_loads(new) != want:
                raise ValueError("does not read back")
        except (tomllib.TOMLDecodeError, ValueError, TypeError) as error:
            raise LeagueError(f"{prefix}{name}: its new number {number} would not read back ({error}); "
                              "nothing was changed") from None
        renumbered.append((prefix + name, new))
    for (path, _new), blob in zip(renumbered, _hash_objects(directory, [t for _p, t in renumbered])):
        out[path] = (merged[path][0], blob)
    return out


def _preset(directory: Path, merged: Blobs, folded: Any) -> Any:
    """The merge's fold as the campaign's read after it takes it (``records.Preset``):
    where the folder holds the records it folded and the gang files it made, it is not
    folded again."""
    from .league_records import is_record
    from .records import Preset

    gangs = {path.split("/", 1)[1]: text for path, text in folded.gangs.items()}
    names = {path.split("/", 1)[1] for path in merged if is_record(path)}
    problems = sorted(f"{directory}/{problem}" for problem in folded.problems)
    return Preset(folded.fold, problems, names, gangs)


def _commit_files(directory: Path, files: Blobs, head: str, theirs: str, conflicts: list[str],
                  choices: dict[str, str]) -> str:
    """The merge commit of ``files`` (a tree written through a private index)."""
    index = directory / ".git" / f"munda-index-{os.getpid()}"
    env = {"GIT_INDEX_FILE": str(index)}
    try:
        index.unlink(missing_ok=True)
        git(directory, "update-index", "--add", "-z", "--index-info", env=env,
            input="".join(f"{mode} {blob}\t{path}\0" for path, (mode, blob) in files.items()).encode())
        tree = _out_env(directory, env, "write-tree")
    finally:
        index.unlink(missing_ok=True)
    message = "Merged the league"
    if conflicts:
        message += "\n\nChosen by the Arbitrator:\n" + "".join(f"- {p}: {choices[p]}\n" for p in conflicts)
    made = _out(directory, *_identity(directory), "commit-tree", tree, "-p", head, "-p", theirs, "-m", message)
    if re.fullmatch(r"[0-9a-f]{40}", made):  # (its files: the merge's, not asked of git again)
        _TREES[(str(directory), made)] = dict(files)
    return made


def _out_env(directory: Path, env: dict[str, str], *args: str) -> str:
    return git(directory, *args, env=env).stdout.decode("utf-8", "replace").strip()


def _blob_text(directory: Path, blob: str) -> str:
    return git(directory, "cat-file", "blob", blob).stdout.decode("utf-8")


def _gang_at(directory: Path, tree: Blobs, path: str, refs: Any) -> Any:
    """The gang a tree holds at ``path`` (None: not there or not a gang that loads);
    the battles it names numbered by ``refs`` (a ``folder.PlaceholderRefs``)."""
    from .folder import load_gang_file

    item = tree.get(path)
    if item is None:
        return None
    try:
        return load_gang_file(directory / path, _blob_text(directory, item[1]), refs.number_of)
    except SaveError:
        return None


def _battle_changes(directory: Path, base: Blobs, side: Blobs, gang_id: str,
                    refs: Any) -> tuple[list[str], list[dict[str, Any]]]:
    """The finished battles a side added (or changed) since ``base`` that involve the
    gang: their names for people, and their post-battle changes to that gang (the battle
    each names numbered by ``refs``, by its file: the number it had on its laptop may
    not be the merge's)."""
    import tomllib

    from .folder import battle_stem

    names: list[str] = []
    changes: list[dict[str, Any]] = []
    for path, item in sorted(side.items()):
        if not path.startswith(BATTLES_DIR + "/") or base.get(path) == item:
            continue
        try:
            data = tomllib.loads(_blob_text(directory, item[1]))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, LeagueError):
            continue
        summary = data.get("summary") or {}
        commit = (data.get("postbattle") or {}).get("commit") or {}
        if gang_id not in (summary.get("gangs") or []) or summary.get("status") != "done":
            continue
        if base.get(path) is not None:  # (a battle applied before: already in both)
            continue
        mine = [c for c in commit.get("changes", []) if isinstance(c, dict) and c.get("gang") == gang_id]
        here = refs.number_of(battle_stem(path[len(BATTLES_DIR) + 1:]))
        mine = [{**c, "battle": here} if "battle" in c else c for c in mine]
        names.append(f"battle {data.get('number')} ({summary.get('date') or 'undated'})")
        changes.extend(mine)
    return names, changes


def _replayed(directory: Path, onto: Blobs, path: str, changes: list[dict[str, Any]], refs: Any) -> Any:
    """The gang of ``onto`` at ``path`` with ``changes`` applied (None where they do not
    apply: a fighter they name is not there, ...)."""
    from ..rules.core.model import Campaign
    from ..rules.postbattle.changes import change_from_data
    from ..rules.postbattle.core import apply_changes

    gang = _gang_at(directory, onto, path, refs)
    if gang is None or not changes:
        return None
    gangs = [g for p in onto if p.startswith(GANGS_DIR + "/")
             if (g := (gang if p == path else _gang_at(directory, onto, p, refs))) is not None]
    campaign = Campaign(id="replay", name="replay", gangs=gangs)
    try:
        apply_changes(campaign, [change_from_data(c) for c in changes])
    except Exception:  # noqa: BLE001 - a change that does not fit the other side: no replay
        return None
    return campaign.gang(gang.id)


def _details(handle: "CampaignHandle", base: str, head: str, theirs: str, conflicts: list[str]) -> list[GangConflict]:
    from ..rules.campaign.gang_diff import changes
    from .folder import PlaceholderRefs

    directory = handle.path
    refs = PlaceholderRefs()
    b, o, t = _tree(directory, base), _tree(directory, head), _tree(directory, theirs)
    out = []
    for path in conflicts:
        if path.startswith(GANGS_DIR + "/"):
            was, ours, league = (_gang_at(directory, tree, path, refs) for tree in (b, o, t))
            title = (ours or league or was).name if (ours or league or was) is not None else path
            item = GangConflict(path, title, changes(was, ours) or ["changed"], changes(was, league) or ["changed"],
                                ["ours", "theirs"])
            gid = (ours or league or was).id if (ours or league or was) is not None else ""
            for choice, side, onto in (("replay-ours", o, t), ("replay-theirs", t, o)):
                names, batch = _battle_changes(directory, b, side, gid, refs)
                if names and _replayed(directory, onto, path, batch, refs) is not None:
                    item.choices.append(choice)
                    item.replays[choice] = ", ".join(names)
            out.append(item)
        else:
            out.append(GangConflict(path, path, ["changed here"], ["changed in the league"], ["ours", "theirs"]))
    return out


def _chosen(handle: "CampaignHandle", path: str, choice: str, base: str, head: str, theirs: str) -> tuple[str, str]:
    """The (mode, blob) the Arbitrator's choice gives ``path``."""
    from .folder import PlaceholderRefs, gang_text_and_data

    directory = handle.path
    o, t = _tree(directory, head), _tree(directory, theirs)
    if choice in ("ours", "theirs"):
        side = o if choice == "ours" else t
        if path not in side:
            return ("", "")  # removed on that side
        return side[path]
    if choice in ("replay-ours", "replay-theirs") and path.startswith(GANGS_DIR + "/"):
        b = _tree(directory, base)
        side, onto = (o, t) if choice == "replay-ours" else (t, o)
        refs = PlaceholderRefs()
        was = _gang_at(directory, onto, path, refs)
        _names, batch = _battle_changes(directory, b, side, was.id if was is not None else "", refs)
        gang = _replayed(directory, onto, path, batch, refs)
        if gang is not None:
            import tomllib

            old = _blob_text(directory, onto[path][1])
            order = tomllib.loads(old).get("order", 0)
            # (the battles it names by their files again; its comments kept)
            text, _data = gang_text_and_data(gang, order, old, refs.stem_of)
            blob = git(directory, "hash-object", "-w", "--stdin", input=text.encode()).stdout.decode().strip()
            return onto[path][0], blob
    raise LeagueError(f"{path}: {choice!r} is not a choice here")


def pending(handle: "CampaignHandle") -> tuple[int, int]:
    """(finished battles, gangs) changed here since the last sync: :func:`unshared`'s
    first two."""
    battles, gangs, _other = unshared(handle)
    return battles, gangs


def unshared(handle: "CampaignHandle") -> tuple[int, int, int]:
    """(finished battles, gangs, other league files) changed here since the last sync,
    committed or not (a sync whose push failed left its commits here): the campaign
    screen's hint. Other files: the settings, tables and packs (a pack question answered
    here), and records alone (a league question answered: no battle or gang changed
    with them). (0, 0, 0) when the campaign is not a league or git is missing."""
    directory = handle.path
    if not is_league(directory) or git_path() is None:
        return 0, 0, 0
    try:
        changed = {p for _s, p in _changed(directory)}
        remote_ref = f"refs/remotes/{REMOTE}/{branch(directory)}"
        ahead = git(directory, "diff", "--name-only", "-z", f"{remote_ref}...HEAD", "--",
                    CAMPAIGN_FILE, ".gitignore", *_SHARED_DIRS, check=False)
    except LeagueError:
        return 0, 0, 0
    if ahead.returncode == 0:
        changed |= {p for p in ahead.stdout.decode("utf-8", "replace").split("\0") if p}
    finished = _finished(handle)
    battles = sum(1 for p in changed if p.startswith(BATTLES_DIR + "/") and p[len(BATTLES_DIR) + 1:] in finished)
    gangs = sum(1 for p in changed if p.startswith(GANGS_DIR + "/"))
    other = sum(1 for p in changed if not p.startswith((BATTLES_DIR + "/", GANGS_DIR + "/", RECORDS_DIR + "/")))
    if not (battles or gangs or other):
        other = sum(1 for p in changed if p.startswith(RECORDS_DIR + "/"))
    return battles, gangs, other
