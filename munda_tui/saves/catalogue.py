"""Catalogue files: a campaign's own ``catalogue.toml`` and the player's packs.

A campaign keeps its catalogue (fighter types and items, see
:mod:`munda_tui.rules.campaign.catalogue`) in ``<campaign folder>/catalogue.toml``; packs are
``<config dir>/packs/*.toml`` in the same format, or a pack folder's ``catalogue.toml``
(docs/packs.md). Every file is checked; a file that
does not read, parse or validate is reported as ``path:line:col: message`` and never
overwritten (the campaign's own is then kept aside as ``.broken.bak`` before a save).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from ..rules.campaign.catalogue import Catalogue, CatalogueError, catalogue_from_data, catalogue_to_data
from ..rules.core.model import Gang
from .atomic import atomic_write_text
from .codec import ValidationError
from .errors import SaveError, validation_error
from .files import BACKUPS_DIR, parse_text, read_text

CATALOGUE_FILE = "catalogue.toml"
PACKS_DIR = "packs"

_HEADER = (
    "# munda-tui catalogue pack: fighter types and items, as your club entered them.\n"
    "# Load it by putting it in <config dir>/packs/. Schema: docs/catalogue.md (the README links it).\n"
)


def load_file(path: Path) -> Catalogue:
    """One catalogue or pack file; SaveError (path:line:col) if it is wrong."""
    text = read_text(path)
    data = parse_text(path, text)
    try:
        return catalogue_from_data(data)
    except CatalogueError as error:
        raise validation_error(path, text, ValidationError(error.keypath, error.message)) from None


def dumps(catalogue: Catalogue) -> str:
    from .tomlemit import dumps as emit

    return _HEADER + "\n" + emit(catalogue_to_data(catalogue))


def write_file(path: Path, catalogue: Catalogue) -> None:
    """Write a catalogue (or a pack to share) atomically, keeping the last versions."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, dumps(catalogue), backup_dir=path.parent / BACKUPS_DIR)


def campaign_catalogue_path(campaign_dir: Path) -> Path:
    return Path(campaign_dir) / CATALOGUE_FILE


def load_campaign_catalogue(campaign_dir: Path) -> Catalogue:
    """The campaign's catalogue (empty when it has none yet); SaveError if broken."""
    path = campaign_catalogue_path(campaign_dir)
    if not path.exists():
        return Catalogue()
    return load_file(path)


def save_campaign_catalogue(campaign_dir: Path, catalogue: Catalogue) -> None:
    path = campaign_catalogue_path(campaign_dir)
    if path.exists():
        try:
            load_file(path)
        except SaveError:  # broken from outside: kept aside, never lost
            n = 1
            while path.with_name(f"{path.name}.broken-{n}.bak").exists():
                n += 1
            path.rename(path.with_name(f"{path.name}.broken-{n}.bak"))
    write_file(path, catalogue)


def learn_gangs(campaign_dir: Path, gangs: Iterable[Gang]) -> bool:
    """The campaign's catalogue learns every fighter type and item of ``gangs`` (what a
    roster learns as it opens; the post-battle wizard calls it as it commits, so an item
    bought there completes at once), saved if it changed. SaveError if the catalogue
    file is broken (then nothing is written: the roster keeps it aside as it opens)."""
    catalogue = load_campaign_catalogue(campaign_dir)
    changed = False
    for gang in gangs:
        changed |= catalogue.learn_gang(gang.fighters, gang.stash)
    if changed:
        save_campaign_catalogue(campaign_dir, catalogue)
    return changed


def load_packs(config_dir: Path, campaign_dir: Path | None = None
               ) -> tuple[list[tuple[Path, Catalogue]], list[str]]:
    """The catalogue of every pack in force (the player's ``<config dir>/packs/``: a
    one-file catalogue pack ``<name>.toml`` or a pack folder's ``catalogue.toml``; then
    the campaign's packs), read through the one pack loader (:mod:`munda_tui.saves.packs`),
    and a message per bad file (``path:line:col``)."""
    from .packs import load_packs as load_all

    packs = load_all(config_dir, campaign_dir)
    found: list[tuple[Path, Catalogue]] = []
    for pack in packs.packs:
        for pf in pack.files:
            if pf.relpath != CATALOGUE_FILE:
                continue
            try:
                cat = catalogue_from_data(dict(pf.data))
            except CatalogueError:  # pragma: no cover - the loader checked it
                continue
            if not cat.name:
                cat.name = pack.title or Path(pf.file).stem
            found.append((Path(pf.file), cat))
    return found, packs.problems
