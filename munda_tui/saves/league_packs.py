"""Two versions of one pack in a league (issue 35.7): a league question, not a silent
choice.

When a sync finds a campaign pack (``packs/<pack>/``) changed on this laptop and in the
league into two different packs, nothing is chosen and nothing is lost:

- the merge keeps the league's version (the one shared first) in ``packs/<pack>/`` and sets
  this laptop's aside, whole, in ``packs/.versions/<pack>/<digest>/`` with a note
  ``packs/.versions/<pack>/<digest>.toml`` (its version, who, when; ``removed = true``
  when this laptop had removed the pack). Both travel with the league like any file;
- until the Arbitrator answers, **each laptop keeps its version**: the laptop that set its
  version aside plays it (its *hold*, ``.git/munda-pack-holds.toml``, never shared: the
  pack loader, :func:`munda_tui.saves.packs.pack_places`, reads the set-aside folder in
  place of ``packs/<pack>/``); every other laptop plays ``packs/<pack>/``. The question
  screen and ``munda-tui league answer`` say so;
- the answer (:func:`answer`) is a change of shared files: ``league`` keeps
  ``packs/<pack>/`` as it is, ``aside`` puts the set-aside version there; either way the
  set-aside folder and its note go (kept in this laptop's backups and in the league's
  history). Once it syncs, every laptop plays the same pack (a hold whose folder is gone
  is void).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import SaveError

PACKS_DIR = "packs"
#: the set-aside versions, shared (a hidden folder: never a pack in force by itself)
VERSIONS = ".versions"
VERSIONS_DIR = f"{PACKS_DIR}/{VERSIONS}"
#: this laptop's holds: pack folder name -> the set-aside digest it plays (never shared)
HOLDS_FILE = "munda-pack-holds.toml"
#: a pack question's answers: the league's version stays, or the set-aside one replaces it
LEAGUE, ASIDE = "league", "aside"
CHOICES = (LEAGUE, ASIDE)
#: how an answer reads
CHOICE_WORDS = {LEAGUE: "keep the league's version", ASIDE: "play the set-aside version"}


@dataclass(frozen=True)
class PackQuestion:
    """A pack with a version set aside: what the Arbitrator is asked. It has the fields
    a record's question has that the question screen and the CLI read."""

    pack: str  # the pack's folder name
    digest: str  # the set-aside version's
    version: str  # its version ("" when it does not say)
    league_version: str  # packs/<pack>'s ("" when it does not say)
    league_has: bool = True  # False: the league has no such pack now (removed there)
    by: str = ""  # who set it aside
    date: str = ""
    removed: bool = False  # the set-aside side had removed the pack
    held: bool = False  # this laptop plays the set-aside version until the answer
    choices: tuple[str, ...] = CHOICES
    record_kind: str = "pack"
    battle: str = ""
    gang: str = ""
    other: str = ""

    @property
    def league_words(self) -> str:
        return f"version {self.league_version or '?'}" if self.league_has else "no such pack"

    @property
    def aside_words(self) -> str:
        return "the pack removed" if self.removed else f"version {self.version or '?'}"

    @property
    def what(self) -> str:
        return f"pack {self.pack}: two versions"

    @property
    def why(self) -> str:
        return (f"the league plays {self.league_words}; {self.by or 'another laptop'} had "
                f"{self.aside_words}, set aside in {VERSIONS_DIR}/{self.pack}/{self.digest}")

    @property
    def rule(self) -> str:
        """The rule the league keeps working by until the answer, for this laptop."""
        mine = self.aside_words if self.held else self.league_words
        return ("Until the Arbitrator answers, each laptop keeps its version: this laptop plays "
                f"{mine}" + (" (set aside)" if self.held else " (the league's)") + ".")


def _holds_path(directory: Path) -> Path:
    return Path(directory) / ".git" / HOLDS_FILE


def holds(directory: Path) -> dict[str, str]:
    """This laptop's holds (pack -> digest); {} when none or unreadable."""
    try:
        data = tomllib.loads(_holds_path(directory).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return {}
    return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}


def _write_holds(directory: Path, held: dict[str, str]) -> None:
    from .atomic import atomic_write_text

    path = _holds_path(directory)
    if not path.parent.is_dir():
        return  # (not a league: nothing to hold)
    if not held:
        path.unlink(missing_ok=True)
        return
    import json

    atomic_write_text(path, "# the set-aside pack versions this laptop plays (munda-tui, never shared)\n"
                      + "".join(f"{json.dumps(k)} = {json.dumps(v)}\n" for k, v in sorted(held.items())))


def hold(directory: Path, pack: str, digest: str) -> None:
    """This laptop plays the set-aside version ``digest`` of ``pack`` until answered."""
    held = holds(directory)
    held[pack] = digest
    _write_holds(directory, held)


def aside_folder(directory: Path, pack: str, digest: str) -> Path:
    return Path(directory) / VERSIONS_DIR / pack / digest


def _note(directory: Path, pack: str, digest: str) -> dict[str, object] | None:
    try:
        data = tomllib.loads((Path(directory) / VERSIONS_DIR / pack / f"{digest}.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None
    return data


def note_text(version: str, by: str, date: str, removed: bool) -> str:
    """A set-aside version's note (shared)."""
    import json

    return ("# a version of this pack set aside by a league sync (issue 35.7): the Arbitrator's\n"
            "# to choose (munda-tui league answer; the league questions, Q)\n"
            f"version = {json.dumps(version)}\nby = {json.dumps(by)}\ndate = {json.dumps(date)}\n"
            + ("removed = true\n" if removed else ""))


def _version_of(folder: Path) -> str:
    try:
        value = tomllib.loads((folder / "pack.toml").read_text(encoding="utf-8")).get("version", "")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return ""
    return str(value)


def held_places(directory: Path) -> dict[str, Path | None]:
    """The packs this laptop plays from a set-aside version: pack -> its folder (None: the
    set-aside side removed the pack, so none). A hold whose version is gone (answered) is
    void and not listed."""
    out: dict[str, Path | None] = {}
    for pack, digest in holds(directory).items():
        note = _note(directory, pack, digest)
        if note is None:
            continue
        folder = aside_folder(directory, pack, digest)
        out[pack] = None if note.get("removed") is True else folder
    return out


def questions(directory: Path) -> list[PackQuestion]:
    """One question per set-aside version in the campaign's ``packs/.versions``."""
    root = Path(directory) / VERSIONS_DIR
    if not root.is_dir():
        return []
    held = holds(directory)
    out: list[PackQuestion] = []
    for pack_dir in sorted(p for p in root.iterdir() if p.is_dir()):
        pack = pack_dir.name
        league = Path(directory) / PACKS_DIR / pack
        league_has = (league / "pack.toml").is_file()
        league_version = _version_of(league) if league_has else ""
        for note_file in sorted(pack_dir.glob("*.toml")):
            digest = note_file.stem
            note = _note(directory, pack, digest)
            if note is None:
                continue
            out.append(PackQuestion(pack, digest, str(note.get("version", "")), league_version, league_has,
                                    str(note.get("by", "")), str(note.get("date", "")),
                                    note.get("removed") is True, held.get(pack) == digest))
    return sorted(out, key=lambda q: (q.date, q.pack, q.digest))


def answer(directory: Path, question: PackQuestion, choice: str) -> None:
    """The Arbitrator's answer, as shared files (one transaction): ``aside`` puts the
    set-aside version in ``packs/<pack>/`` (or removes the pack, when it was removed
    there); ``league`` keeps the league's. The set-aside folder and note go (kept in the
    backups). SaveError where it cannot (nothing changed then)."""
    from .files import BACKUPS_DIR
    from .journal import Transaction

    if choice not in CHOICES:
        raise ValueError(f"{choice!r} is not an answer to a pack question: {' | '.join(CHOICES)}")
    directory = Path(directory)
    note_file = directory / VERSIONS_DIR / question.pack / f"{question.digest}.toml"
    if not note_file.is_file():
        raise SaveError(note_file, 1, 1, "this set-aside version is not here any more (answered already?)")
    aside = aside_folder(directory, question.pack, question.digest)
    league = directory / PACKS_DIR / question.pack

    def backup_dir_of(file: Path) -> Path:  # (the campaign's .backups: the folders go)
        return directory / BACKUPS_DIR / file.parent.relative_to(directory)

    tx = Transaction(directory)
    if choice == ASIDE:
        wanted: dict[str, str] = {}
        if not question.removed:
            for file in sorted(aside.rglob("*")):
                if file.is_file():
                    try:
                        wanted[file.relative_to(aside).as_posix()] = file.read_text(encoding="utf-8")
                    except (OSError, UnicodeDecodeError) as error:
                        raise SaveError(file, 1, 1, f"the set-aside file does not read: {error}") from None
        for file in sorted(league.rglob("*")) if league.is_dir() else []:
            rel = file.relative_to(league).as_posix()
            if file.is_file() and rel not in wanted and not any(
                    part.startswith(".") for part in Path(rel).parts):
                tx.delete(file, backup_dir_of(file))
        for rel, text in wanted.items():
            tx.write(league / rel, text, backup_dir_of(league / rel))
    for file in sorted(aside.rglob("*")) if aside.is_dir() else []:
        if file.is_file() and BACKUPS_DIR not in file.relative_to(aside).parts:
            tx.delete(file, backup_dir_of(file))
    tx.delete(note_file, backup_dir_of(note_file))
    tx.commit()
    for folder in (aside, league, directory / VERSIONS_DIR / question.pack, directory / VERSIONS_DIR):
        _prune(folder)
    held = holds(directory)
    if held.get(question.pack) == question.digest:
        del held[question.pack]
        _write_holds(directory, held)


def _prune(folder: Path) -> None:
    """Empty folders under ``folder`` (and it) removed: an answered version leaves none."""
    if not folder.is_dir():
        return
    for sub in sorted((p for p in folder.rglob("*") if p.is_dir()), key=lambda p: len(p.parts), reverse=True):
        try:
            sub.rmdir()
        except OSError:
            pass
    try:
        folder.rmdir()
    except OSError:
        pass


def forget_void_holds(directory: Path) -> None:
    """Holds whose set-aside version is gone (the answer synced) are dropped."""
    held = holds(directory)
    kept = {p: d for p, d in held.items() if _note(directory, p, d) is not None}
    if kept != held:
        _write_holds(directory, kept)


__all__ = ["ASIDE", "CHOICES", "CHOICE_WORDS", "LEAGUE", "PackQuestion", "VERSIONS_DIR", "answer",
           "forget_void_holds", "held_places", "hold", "holds", "note_text", "questions"]
