"""Never write or push what does not load (issue 30.3): the shared files a sync is about
to write (a commit from the remote) or to push (this laptop's commits) are loaded first,
with the loaders ``munda-tui check`` uses, and a file that does not load is named
``path:line:col: why``. Only the files that differ are read (a league of 2,000 battles
is not read again for five new ones)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from .errors import SaveError
from .files import BATTLES_DIR, CAMPAIGN_FILE, GANGS_DIR
from .git import git

_CHECKED = (CAMPAIGN_FILE, GANGS_DIR, BATTLES_DIR)


def broken_files(directory: Path, old: str, new: str) -> list[str]:
    """``path:line:col: message`` (``path`` relative to the campaign folder) for each
    campaign, gang or battle file of commit ``new`` that differs from ``old``'s and does
    not load; [] when all do. A gang file is checked with commit ``new``'s campaign.toml,
    as the open and ``munda-tui check`` check it (``folder.decode_gang``: its Reputation
    within the campaign's ruleset)."""
    from .loading import load_any

    said = git(directory, "diff", "--name-only", "-z", "--no-renames", "--diff-filter=d", old, new,
               "--", *_CHECKED)
    paths = [p for p in said.stdout.decode("utf-8", "replace").split("\0")
             if p.endswith(".toml") and (p == CAMPAIGN_FILE or p.count("/") == 1)]
    if not paths:
        return []
    wanted = paths + ([CAMPAIGN_FILE] if CAMPAIGN_FILE not in paths
                      and any(p.startswith(GANGS_DIR + "/") for p in paths) else [])
    batch = git(directory, "cat-file", "--batch", input="".join(f"{new}:{p}\n" for p in wanted).encode())
    data, at = batch.stdout, 0
    problems: list[str] = []
    with tempfile.TemporaryDirectory(prefix="munda-check-") as scratch:
        root = Path(scratch)
        written: list[str] = []
        for path in wanted:
            head_end = data.index(b"\n", at)
            head = data[at:head_end].split()
            if len(head) < 3 or head[1] != b"blob":  # (missing: nothing to load)
                at = head_end + 1
                continue
            size = int(head[2])
            body = data[head_end + 1: head_end + 1 + size]
            at = head_end + 1 + size + 1
            file = root / path
            file.parent.mkdir(parents=True, exist_ok=True)
            file.write_bytes(body)
            written.append(path)
        settings = _settings(root / CAMPAIGN_FILE) if CAMPAIGN_FILE in written else None
        for path in written:
            if path not in paths:  # (campaign.toml read for the gangs' ruleset only)
                continue
            file = root / path
            try:
                if path.startswith(GANGS_DIR + "/"):
                    from .folder import load_gang_file

                    load_gang_file(file, campaign=settings, cached_as=directory / path)
                else:
                    load_any(file)
            except SaveError as error:
                problems.append(str(error).replace(str(file), path, 1))
    return problems


def _settings(path: Path) -> Any:
    """The campaign (its settings) a split folder's campaign.toml says, as the open
    reads it (``folder.check_settings``); None when it does not load (said on its own)."""
    from .files import parse_text, read_text
    from .folder import check_settings

    try:
        text = read_text(path)
        return check_settings(path, text, parse_text(path, text))
    except SaveError:
        return None


def refusal(problems: list[str], where: str) -> str:
    """One line naming the first file that does not load (and how many more)."""
    more = f" (and {len(problems) - 1} more: `munda-tui check`)" if len(problems) > 1 else ""
    return f"{where} a file that does not load: {problems[0]}{more}"
