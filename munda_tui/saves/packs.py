"""The club's packs on disk: the player's (``<config>/packs/``) and the campaign's
(``<campaign>/packs/``), read in that order (issue 35, docs/packs.md).

A pack is a folder ``packs/<pack>/`` with a ``pack.toml`` (``id``, ``title``, ``version``,
``description``) and data files in the package's own layout and format
(``scenario/<id>.toml``, ``subplots/<id>.toml``, ``postbattle/<id>.toml``,
``conditions.toml``, ``xp_awards.toml``, ``injuries.toml``, ``fighter_roles.toml``,
``watchers.toml``, ``counters.toml``, ``catalogue.toml``). A catalogue pack written before folders, one
``<config>/packs/<name>.toml`` (docs/catalogue.md), is read through the same loader as a
pack of one catalogue file.

Every file is read by the guarded reader and checked as the app reads it
(:mod:`munda_tui.rules.packs.check`); a file that does not read or check is reported as
``path:line:col: message`` and left out, the rest applies. Nothing here writes a pack
but :func:`add_pack` and :func:`new_pack` (a new folder; never over an existing one).
"""

from __future__ import annotations

import hashlib
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ..rules.core.data import KINDS, Pack, PackFile, RuleData, Source, file_items
from .codec import ValidationError
from .errors import SaveError, validation_error
from .files import BACKUPS_DIR, parse_text, read_text

PACKS_DIR = "packs"
MANIFEST = "pack.toml"
#: where a pack comes from, in root order
WHERES = ("player", "campaign")


@dataclass
class PackSet:
    """The packs in force: their rule data (the package's, then each pack's good files),
    each pack as read, and a ``path:line:col: message`` per file left out."""

    data: RuleData = field(default_factory=RuleData)
    problems: list[str] = field(default_factory=list)

    @property
    def packs(self) -> tuple[Pack, ...]:
        return self.data.packs

    def records(self) -> list[dict[str, str]]:
        """What a battle records of the packs it was played with: id, version, hash."""
        return [{"id": p.id, "version": p.version, "hash": p.digest} for p in self.packs]


def _files_of(folder: Path) -> list[Path]:
    """A pack folder's TOML files (its manifest first), hidden files and backups skipped."""
    out: list[Path] = []
    for path in sorted(folder.rglob("*.toml")):
        rel = path.relative_to(folder)
        if any(part.startswith(".") or part == BACKUPS_DIR for part in rel.parts):
            continue
        if path.is_file():
            out.append(path)
    out.sort(key=lambda p: (p.name != MANIFEST or p.parent != folder, str(p.relative_to(folder))))
    return out


def _digest(files: list[tuple[str, bytes]]) -> str:
    h = hashlib.sha256()
    for rel, raw in sorted(files):
        h.update(rel.encode() + b"\0" + len(raw).to_bytes(8, "big") + raw)
    return h.hexdigest()[:16]


def read_pack(folder: Path, where: str = "player") -> tuple[Pack | None, list[str], dict[str, str]]:
    """One pack folder read (not yet checked against the others): the pack (None when its
    manifest does not read), the problems of files that do not parse, and each file's text
    (for the line and column of a later problem)."""
    folder = Path(folder)
    manifest_path = folder / MANIFEST
    problems: list[str] = []
    texts: dict[str, str] = {}
    try:
        text = read_text(manifest_path)
        manifest = parse_text(manifest_path, text)
    except SaveError as error:
        message = str(error) if manifest_path.exists() else str(SaveError(
            manifest_path, 1, 1, "a pack folder needs its pack.toml (id, title, version)"))
        return None, [message], texts
    from ..rules.packs.check import check_manifest

    wrong = check_manifest(manifest)
    if wrong is not None:
        return None, [str(validation_error(manifest_path, text, ValidationError(*wrong)))], texts
    files: list[PackFile] = []
    raw: list[tuple[str, bytes]] = [(MANIFEST, text.encode("utf-8"))]
    for path in _files_of(folder):
        if path == manifest_path:
            continue
        rel = path.relative_to(folder).as_posix()
        try:
            body = read_text(path)
            data = parse_text(path, body)
        except SaveError as error:
            problems.append(str(error))
            continue
        texts[str(path)] = body
        raw.append((rel, body.encode("utf-8")))
        files.append(PackFile(rel, data, str(path)))
    pack = Pack(id=manifest["id"], title=manifest["title"], version=manifest["version"],
                where=where, path=str(folder), files=tuple(files), digest=_digest(raw),
                description=manifest.get("description", ""))
    return pack, problems, texts


def _read_catalogue_file(path: Path) -> tuple[Pack | None, list[str], dict[str, str]]:
    """A catalogue pack of one file (``<config>/packs/<name>.toml``): a pack of one
    catalogue file, its id the file's name."""
    try:
        text = read_text(path)
        data = parse_text(path, text)
    except SaveError as error:
        return None, [str(error)], {}
    name = data.get("name") if isinstance(data.get("name"), str) else ""
    pack = Pack(id=path.stem, title=name or path.stem, version="", where="player",
                path=str(path), files=(PackFile("catalogue.toml", data, str(path)),),
                digest=_digest([(path.name, text.encode("utf-8"))]))
    return pack, [], {str(path): text}


def pack_places(config_dir: Path | None, campaign_dir: Path | None) -> list[tuple[Path, str]]:
    """Every pack (a folder, or a one-file catalogue pack in the config's packs), with
    where it comes from, in root order: the player's, then the campaign's; by name."""
    out: list[tuple[Path, str]] = []
    for base, where in ((config_dir, "player"), (campaign_dir, "campaign")):
        if base is None:
            continue
        folder = Path(base) / PACKS_DIR
        if not folder.is_dir():
            continue
        # a league pack of two versions (issue 35.7): this laptop plays the one it set
        # aside until the Arbitrator answers (``saves.league_packs``)
        held: dict[str, Path | None] = {}
        if where == "campaign" and (folder / ".versions").is_dir():
            from .league_packs import held_places

            held = held_places(Path(base))
        names = sorted({p.name for p in folder.iterdir()} | set(held))
        for name in names:
            path = folder / name
            if name.startswith(".") or name == BACKUPS_DIR:
                continue
            if name in held:
                aside = held[name]
                if aside is not None and aside.is_dir():
                    out.append((aside, where))
                continue
            if path.is_dir() or (where == "player" and path.suffix == ".toml" and path.is_file()):
                out.append((path, where))
    return out


def load_packs(config_dir: Path | None, campaign_dir: Path | None = None) -> PackSet:
    """The packs in force for a campaign (or the player's alone), checked in root order."""
    return load_pack_paths(pack_places(config_dir, campaign_dir))


def load_pack_paths(places: list[tuple[Path, str]]) -> PackSet:
    """Packs read from these places (folders or one-file catalogue packs), in order."""
    if not places:  # (no pack: the package's rules, and no check read at start-up)
        return PackSet(RuleData(), [])
    from ..rules.packs.check import check_packs

    packs: list[Pack] = []
    problems: list[str] = []
    texts: dict[str, str] = {}
    for path, where in places:
        if path.is_dir():
            pack, bad, known = read_pack(path, where)
        else:
            pack, bad, known = _read_catalogue_file(path)
        problems.extend(bad)
        texts.update(known)
        if pack is not None:
            packs.append(pack)
    data, found = check_packs(packs)
    for problem in found:
        file = Path(problem.file)
        if not problem.keypath:
            problems.append(str(SaveError(file, 1, 1, problem.message)))
            continue
        problems.append(str(validation_error(
            file, texts.get(problem.file), ValidationError(problem.keypath, problem.message))))
    return PackSet(data, problems)


def check_path(path: Path) -> list[str]:
    """``munda-tui pack check PATH``: a pack folder, a packs folder or a config / campaign
    folder (its packs), checked alone and in order; ``path:line:col: message`` each."""
    path = Path(path)
    if not path.exists():
        return [str(SaveError(path, 1, 1, "no such file or folder"))]
    if path.is_file():
        if path.name == MANIFEST:
            path = path.parent
        elif path.parent.name == PACKS_DIR:
            return load_pack_paths([(path, "player")]).problems
        else:
            folder = next((p for p in path.parents if (p / MANIFEST).is_file()), None)
            if folder is None:
                return [str(SaveError(path, 1, 1, "not in a pack folder (no pack.toml above it)"))]
            mine = [p for p in load_pack_paths([(folder, "player")]).problems
                    if p.startswith(f"{path}:") or p.startswith(f"{folder / MANIFEST}:")]
            return mine
    if (path / MANIFEST).is_file():
        return load_pack_paths([(path, "player")]).problems
    if path.name == PACKS_DIR:
        return load_pack_paths(pack_places(path.parent, None)).problems
    if (path / PACKS_DIR).is_dir():
        return load_pack_paths(pack_places(path, None)).problems
    return [str(SaveError(path, 1, 1, "not a pack (no pack.toml) nor a folder with packs/"))]


def describe(pack: Pack) -> str:
    """What a pack adds, in words: "2 scenario tables, 1 Sub-plot deck"."""
    counts: dict[str, int] = {}
    for pf in pack.files:
        for kind in KINDS.values():
            if kind.folder and pf.relpath.startswith(kind.path + "/"):
                counts[kind.title] = counts.get(kind.title, 0) + 1
            elif not kind.folder and pf.relpath == kind.path:
                n = len(file_items(kind, pf.data, Source(pack.id, pf.file))) or (
                    1 if kind.name == "catalogue" else 0)
                if n:
                    counts[kind.title] = counts.get(kind.title, 0) + n
    return ", ".join(f"{n} {title}{'' if n == 1 else 's'}" for title, n in counts.items()) \
        or "nothing yet"


def add_pack(source: Path, campaign_dir: Path) -> Path:
    """Copy a pack folder into a campaign's ``packs/`` (so a league shares it); SaveError
    when it does not check, or a different pack of that folder name is there already."""
    source = Path(source)
    if not (source / MANIFEST).is_file():
        raise SaveError(source, 1, 1, "not a pack folder (no pack.toml)")
    problems = load_pack_paths([(source, "campaign")]).problems
    if problems:
        raise SaveError(source, 1, 1, "the pack does not check (munda-tui pack check):\n"
                        + "\n".join(problems))
    target = Path(campaign_dir) / PACKS_DIR / source.name
    if target.exists():
        raise SaveError(target, 1, 1, "the campaign has a pack of that name already: "
                        "remove it first to replace it")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.adding")
    if tmp.exists():
        shutil.rmtree(tmp)
    shutil.copytree(source, tmp, ignore=shutil.ignore_patterns(".*", BACKUPS_DIR))
    tmp.rename(target)
    return target


# --- pack new: a commented skeleton of each kind, that loads as it is ----------------------
# Placeholder club text only ("Our house table"): a skeleton never holds rules text; the
# club writes its own (docs/packs.md).

_MANIFEST_SKELETON = '''\
# A munda-tui pack: your club's own rules, in the package's own format (docs/packs.md).
# Put the folder in <config>/packs/ (yours) or <campaign>/packs/ (the campaign's: a
# league shares it); `munda-tui pack check` checks it.
id = "{pack}"              # lower-case letters, digits and '-'
title = "Our club's pack"  # shown in `munda-tui pack list` and the campaign's settings
version = "1"              # raise it when you change the pack: a battle records it
description = "Placeholder: what our club plays differently."
'''

_ROWS = "".join(f'''
[[entries]]
roll = "{n}"
name = "Our house result {n}"
text = "Placeholder: what our Arbitrator wrote for a {n}."
''' for n in (1, 2, 3))

_CARDS = "".join(f'''
[[cards]]
rank = "{rank}"
name = "Our plot {rank}"
text = "Placeholder: our club's card {rank}, as we wrote it."
reveal = "discretion"      # when it is revealed: choose_crew, start_of_battle, start_of_round,
                           # event, discretion, end_phase, end_of_battle, wrap_up
trigger = "Placeholder: what the card asks."
completes = "on reveal"
rewards = [{{{{ kind = "other", to = "gang", note = "Placeholder: our club's reward" }}}}]
''' for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))

SKELETONS: dict[str, tuple[str, str]] = {
    "scenario": ("scenario/{table}.toml", '''\
# A scenario table (ARCHITECTURE.md, "A scenario table"): the scenario step rolls it,
# keeps its result and the battle cannot start without it. Every total of the dice is
# covered once.
table = "{table}"          # its id: lower-case letters, digits and '_'
title = "Our house table"
dice = "D3"
roller = "either"          # challenger, challenged, either, or each (one row per gang)
step = "scenario"
order = 50                 # its row: Deployment 10, Objective 20, Crew 30, Side Job 40
source = "Our club"
''' + _ROWS),
    "subplots": ("subplots/{pack}.toml", '''\
# A Sub-plot deck (ARCHITECTURE.md, "A Sub-plot deck"): thirteen cards, A to K. A House
# deck is drawn by that House's gangs (one House has one deck: a second is refused unless
# it says replaces = "<the deck's id>"), hidden and revealed as the House decks are.
id = "{pack}"
name = "Our club's deck"
kind = "house"
house = "{house}"          # the gang type whose gangs draw from it
suit = ""
source = "Our club"
intro = "Placeholder: how our club plays this deck."
''' + _CARDS),
    "postbattle": ("postbattle/{pack}.toml", '''\
# A post-battle ruleset (ARCHITECTURE.md, "A post-battle ruleset"): offered in the
# new-campaign and settings choices. Each step names a resolver the app has and the
# step's text as your rules print it.
id = "{pack}"              # the file's name
title = "Our club's sequence"
choice = "Our club's sequence (our pack)"
order = 50                 # its place in the choices (the first is the default)
source = "Our club"

[[steps]]
id = "outcome"
title = "Battle Outcome"
resolver = "battle_outcome"
text = "Placeholder: our club's words for this step."

[[steps]]
id = "rating"
title = "Update Gang Rating"
resolver = "update_gang_rating"
text = "Placeholder: our club's words for this step."

[[steps]]
id = "report"
title = "Report Results"
resolver = "report_results"
text = "Placeholder: our club's words for this step."
'''),
    "conditions": ("conditions.toml", '''\
# A fighter condition (ARCHITECTURE.md, "A fighter condition"): the tracker binds its key,
# the help and the fighter table list it, the log describes it.
[[conditions]]
name = "Our condition"
key = "W"                  # a key the tracker has free
label = "Ours"             # the footer's label
help = "Our condition: gain or lose"
short = "Our"              # the fighter table's Cond column
lost = ""                  # the log's words when it goes ("" = "no longer <name>")
footer = true
'''),
    "xp_awards": ("xp_awards.toml", '''\
# An event of the battle the XP awards table can price (its XP is the campaign's
# setting, entered in the settings: no numbers here).
[[events]]
id = "our_event"
label = "our club's event"
per = "Placeholder: each time our event happens"
'''),
    "injuries": ("injuries.toml", '''\
# A Lasting Injury table (the campaign setting lasting_injury_table picks one).
[tables.{pack}]
title = "Our injury table"
dice = "D6"
source = "Our club"
''' + "".join(f'''
[[tables.{{pack}}.rows]]
min = {lo}
max = {hi}
name = "Our result {lo}-{hi}"
effect = "Placeholder: what our table says."
''' for lo, hi in ((1, 2), (3, 4), (5, 6)))),
    "fighter_roles": ("fighter_roles.toml", '''\
# Fighter type names -> the role the rules reason about (Leader, Champion, Prospect,
# Specialist, Ganger, Juve, Brute, Hanger-on, Hired Gun, Bounty Hunter, Dramatis
# Personae), for a gang the package does not list: an import asks no more.
[[lists]]
gang = "Our gang"
types = {{ "our boss" = "Leader", "our ganger" = "Ganger" }}
'''),
    "watchers": ("watchers.toml", '''\
# What the tracker watches for a card (data/watchers.toml's kinds): here a card of this
# pack's own deck (`munda-tui pack new subplots {pack}` makes one).
[cards."{pack}:A"]
kind = "flawless_victory"
'''),
    "counters": ("counters.toml", '''\
# A resource of your club's own, kept per gang (docs/packs.md, "A custom counter"): the
# roster and the standings show it; a post-battle step with resolver = "gain" and
# what = "<its id>" changes it (an amount, a die, or per counted thing).
[[counters]]
id = "our_counter"         # lower-case letters, digits, '-' and '_'
name = "Our counter"       # as the roster and the standings show it
text = "Placeholder: what our club counts with it."
min = 0                    # the lowest it goes (leave out: no floor)
'''),
    "catalogue": ("catalogue.toml", '''\
# Fighter types and items your club enters (docs/catalogue.md's format).
name = "Our club's list"

[[items]]
name = "Our club's item"
kind = "wargear"
'''),
}


def pack_id_of(name: str) -> str:
    """A pack id from a name: lower-case letters, digits and '-'."""
    out = "".join(c if c.isascii() and c.isalnum() else "-" for c in name.strip().lower())
    return "-".join(p for p in out.split("-") if p)[:60]


def new_pack(packs_dir: Path, kind: str, name: str) -> list[Path]:
    """``pack new KIND NAME``: the pack folder ``packs_dir/<id>/`` (made with its
    manifest if new) and the kind's commented skeleton; the files written. SaveError
    when the kind's file is there already (never overwritten)."""
    from ..rules.core.model import GangType
    from ..rules.subplots.decks import house_deck_ids

    pack = pack_id_of(name)
    if not pack:
        raise SaveError(Path(packs_dir), 1, 1, f"{name!r} gives no pack id (use letters or digits)")
    if kind not in SKELETONS:
        raise SaveError(Path(packs_dir), 1, 1, f"no kind {kind!r} (kinds: {', '.join(SKELETONS)})")
    folder = Path(packs_dir) / pack
    free = [g.value for g in GangType if g.value not in house_deck_ids()]
    values = {"pack": pack, "table": pack.replace("-", "_") if pack[0].isalpha()
              else f"our_{pack.replace('-', '_')}", "house": free[0] if free else "Other"}
    written: list[Path] = []
    wanted = [kind] + (["subplots"] if kind == "watchers" else [])
    targets = [(folder / SKELETONS[k][0].format(**values), SKELETONS[k][1].format(**values))
               for k in wanted]
    for path, _text in targets[:1]:
        if path.exists():
            raise SaveError(path, 1, 1, "is there already (never overwritten)")
    from .atomic import atomic_write_text

    if not (folder / MANIFEST).exists():
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(folder / MANIFEST, _MANIFEST_SKELETON.format(**values))
        written.append(folder / MANIFEST)
    for path, text in targets:
        if path.exists():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
        written.append(path)
    return written
