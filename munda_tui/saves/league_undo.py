"""`league undo` (issue 30.8): take back this laptop's last sync.

Every sync that changed something here or pushed something notes, in
``.git/munda-last-sync.json`` (this laptop's alone, never shared), the commit this
laptop stood on before it (its own changes committed), the commit it ended on, whether
that was pushed, and the remote's commit it was pushed onto.

- **Not pushed** (the push failed or was refused after the merge was written): the
  campaign's files go back to what they were before the sync, in one transaction
  (``league._bring_files_to``: kill-safe), and HEAD with them. Nothing of this laptop's
  is lost (its changes were committed before the merge); the league's battles come again
  with the next sync. Refused when a file the undo would write changed here since.
- **Pushed**: the other laptops may have it already, so nothing is taken out of the
  league; instead each change of each battle and roster edit this laptop shared in that
  sync is voided by a correction record (the same record an Arbitrator's answer is:
  ``rules.history.fold``), shared at the next sync, folded the same on every laptop. The
  battle stays in the list (its report too); its results no longer count. A gang that
  joined in that sync is not taken out by a correction (said).

``saves.league.undo`` carries the plan out. Undoing twice does nothing the second time (said). Kill-safe: a correction already
written is not written again, the note is marked done last.
"""

from __future__ import annotations

import json
import time
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .files import RECORDS_DIR
from .git import LeagueError, git, is_league

if TYPE_CHECKING:
    from .store import CampaignHandle

NOTE_FILE = "munda-last-sync.json"
NOTE_VERSION = 1


@dataclass
class LastSync:
    before: str  # this laptop's commit before the sync (its own changes committed)
    after: str  # the commit the sync ended on here
    pushed: bool
    onto: str = ""  # pushed: the remote's commit the push went onto ("" : none)
    when: str = ""  # UTC, for people
    done: str = ""  # "" or what undo did ("taken back", "corrected")


def _note_path(directory: Path) -> Path:
    return Path(directory) / ".git" / NOTE_FILE


def note(directory: Path, before: str, after: str, pushed: bool, onto: str = "") -> None:
    """Remember a sync that changed something here or pushed something."""
    from .atomic import atomic_write_text

    if not pushed and before == after:
        return  # (nothing happened here: the last sync that did something stays the one undone)
    data = {"v": NOTE_VERSION, "before": before, "after": after, "pushed": pushed, "onto": onto,
            "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "done": ""}
    atomic_write_text(_note_path(directory), json.dumps(data, indent=1) + "\n")


def last(directory: Path) -> LastSync | None:
    """The last sync noted (None: none, or a note that does not read)."""
    try:
        data = json.loads(_note_path(directory).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("v") != NOTE_VERSION:
        return None
    try:
        return LastSync(str(data["before"]), str(data["after"]), bool(data["pushed"]), str(data.get("onto", "")),
                        str(data.get("when", "")), str(data.get("done", "")))
    except KeyError:
        return None


def mark_done(directory: Path, what: str) -> None:
    from .atomic import atomic_write_text

    path = _note_path(directory)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["done"] = what
    atomic_write_text(path, json.dumps(data, indent=1) + "\n")


@dataclass
class Plan:
    """What `league undo` would do."""

    kind: str  # "take back", "correct" or "nothing"
    lines: list[str] = field(default_factory=list)  # in words
    #: correct: (record id, change index) to void, and the record's words
    voids: list[tuple[str, int]] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)  # take back: the files it writes


def _out(directory: Path, *args: str) -> str:
    return git(directory, *args).stdout.decode("utf-8", "replace").strip()


def _dirty(directory: Path) -> set[str]:
    said = git(directory, "status", "--porcelain=v1", "-z", "--untracked-files=all").stdout
    items = said.decode("utf-8", "replace").split("\0")
    return {item[3:] for item in items if len(item) > 3}


def plan(handle: "CampaignHandle") -> Plan:
    """What undoing this laptop's last sync would do (LeagueError: not a league)."""
    directory = handle.path
    if not is_league(directory):
        raise LeagueError(f"{handle.campaign.name} is not a league: there is no sync to undo")
    noted = last(directory)
    if noted is None:
        return Plan("nothing", ["No sync of this laptop to undo (none noted since this version of munda-tui)."])
    if noted.done:
        return Plan("nothing", [f"The last sync ({noted.when}) was undone already ({noted.done}); "
                                "nothing more to take back."])
    if not noted.pushed:
        return _plan_take_back(handle, noted)
    return _plan_corrections(handle, noted)


def _plan_take_back(handle: "CampaignHandle", noted: LastSync) -> Plan:
    directory = handle.path
    head = _out(directory, "rev-parse", "HEAD")
    if head != noted.after:
        raise LeagueError(f"the last sync ({noted.when}) is not this laptop's last step any more (it "
                          "synced or changed since): nothing taken back")
    changed = _out(directory, "diff", "--name-only", "-z", noted.after, noted.before).split("\0")
    paths = [p for p in changed if p]
    busy = sorted(set(paths) & _dirty(directory))
    if busy:
        raise LeagueError(f"{busy[0]} changed here since the sync ({len(busy)} file(s)): taking the sync "
                          "back would lose it; sync again instead")
    received = _out(directory, "log", "--no-merges", "--format=%s", f"{noted.before}..{noted.after}")
    lines = [f"The last sync ({noted.when}) was not pushed: the campaign goes back to what it was "
             "before it (this laptop's own battles and edits stay, to be shared at the next sync)."]
    got = [x for x in received.splitlines() if x]
    if got:
        lines.append(f"Taken back here: {len(got)} change(s) it brought (they come again at the next sync):")
        lines += [f"  {x}" for x in got[:20]] + ([f"  ... and {len(got) - 20} more"] if len(got) > 20 else [])
    return Plan("take back", lines, paths=paths)


def _shared_records(directory: Path, onto: str, after: str) -> list[dict[str, Any]]:
    """The record files the sync pushed (in ``after``, not in ``onto``): their data."""
    span = [onto, after] if onto else [_out(directory, "hash-object", "-t", "tree", "/dev/null"), after]
    said = _out(directory, "diff", "--name-only", "-z", "--diff-filter=A", *span, "--", RECORDS_DIR)
    paths = [p for p in said.split("\0") if p.endswith(".toml")]
    if not paths:
        return []
    batch = git(directory, "cat-file", "--batch", input="".join(f"{after}:{p}\n" for p in paths).encode()).stdout
    out, at = [], 0
    for _path in paths:
        head_end = batch.index(b"\n", at)
        head = batch[at:head_end].split()
        if len(head) < 3 or head[1] != b"blob":
            at = head_end + 1
            continue
        size = int(head[2])
        body = batch[head_end + 1: head_end + 1 + size]
        at = head_end + 1 + size + 1
        try:
            out.append(tomllib.loads(body.decode("utf-8")))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            continue
    return out


def _fighter_name(handle: "CampaignHandle", change: dict[str, Any]) -> str:
    """The name of the fighter a change names ("" when none; the id when not found)."""
    fid = str(change.get("fighter") or "")
    if not fid:
        return ""
    try:
        return str(handle.campaign.gang(str(change.get("gang", ""))).member(fid).name)
    except (KeyError, AttributeError):
        return fid


def _plan_corrections(handle: "CampaignHandle", noted: LastSync) -> Plan:
    from ..rules.history.fold import VOID, change_words
    from .records import read_records

    directory = handle.path
    shared = _shared_records(directory, noted.onto, noted.after)
    recs, _problems = read_records(directory)
    latest: dict[tuple[str, int], str] = {}
    for r in sorted(recs, key=lambda r: r.key):
        if r.kind == "correction":
            latest[(r.target, r.index)] = r.answer
    numbers = handle.battle_numbers_by_stem()
    names = {g.id: g.name for g in handle.campaign.gangs}
    voids: list[tuple[str, int]] = []
    lines = [f"The last sync ({noted.when}) was pushed: the other laptops may have it already. "
             "Each change this laptop shared in it is voided by a correction (shared at the next "
             "sync, every laptop folds the same):"]
    kept: list[str] = []
    for data in sorted(shared, key=lambda d: (str(d.get("date", "")), str(d.get("id", "")))):
        rid, kind = str(data.get("id", "")), data.get("kind")
        changes = data.get("changes") or []
        if kind == "battle" and rid.startswith("applied-"):
            continue
        if kind in ("start", "remove"):
            gang = names.get(str(data.get("gang", "")), str(data.get("gang", "")))
            kept.append(f"  {gang}: {'joined the campaign' if kind == 'start' else 'left the campaign'} "
                        "(not taken back by a correction)")
            continue
        if kind not in ("battle", "edit") or not isinstance(changes, list):
            continue
        todo = [n for n in range(len(changes)) if latest.get((rid, n)) != VOID]  # (kill-safe: again)
        if not todo:
            continue
        if kind == "battle":
            n = numbers.get(str(data.get("battle", "")))
            title = f"Battle {n}" if n else f"The battle {data.get('battle', '')}"
        else:
            title = f"{names.get(str(data.get('gang', '')), data.get('gang', ''))}: roster edit of {data.get('date', '')}"
        words = [change_words(c, lambda g: names.get(g, g), _fighter_name(handle, c))
                 for c in changes if isinstance(c, dict)]
        shown = "; ".join(words[:4]) + (f"; ... ({len(words) - 4} more)" if len(words) > 4 else "")
        lines.append(f"  {title}: {shown or 'its changes'} voided")
        voids += [(rid, n) for n in todo]
    if not voids:
        return Plan("nothing", [f"The last sync ({noted.when}) shared no battle or roster edit of this "
                                "laptop's that a correction could take back.", *kept])
    return Plan("correct", lines + kept, voids=voids)


def void(handle: "CampaignHandle", voids: list[tuple[str, int]]) -> int:
    from ..rules.history.fold import VOID, Record
    from .atomic import atomic_write_text
    from .records import file_name, new_key, player, read_records, record_text, today

    keeper = handle._records
    (handle.path / RECORDS_DIR).mkdir(exist_ok=True)
    # after every gang's last record and every answer given: the latest answer counts
    after = list(keeper.heads.values()) + [r.key for r in read_records(handle.path)[0] if r.kind == "correction"]
    by = player()
    for rid, index in voids:
        date, cid = new_key(today(), after)
        r = Record(id=cid, date=date, kind="correction", by=by, target=rid, index=index, answer=VOID,
                   note="league undo: this laptop's sync taken back")
        atomic_write_text(handle.path / RECORDS_DIR / file_name(r), record_text(r))
        after.append(r.key)
    handle._open_records()  # (folded again: the gang files written from the fold)
    return len(voids)


__all__ = ["LastSync", "Plan", "last", "mark_done", "note", "plan", "void"]
