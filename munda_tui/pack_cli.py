"""Pack subcommands of `munda-tui` (a club's own rules, docs/packs.md):

    munda-tui pack list [--campaign C]
    munda-tui pack check [PATH]
    munda-tui pack new KIND NAME [--dir FOLDER]
    munda-tui pack add PATH --campaign C

Registered in ``cli.SUBCOMMANDS``. The work is ``saves.packs``'s.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Callable

from .manage_cli import _err, _store, find_campaign

KINDS_HELP = ("scenario (a scenario table), subplots (a Sub-plot deck), postbattle (a "
              "post-battle ruleset), conditions, xp_awards, injuries (a Lasting Injury "
              "table), fighter_roles, watchers, counters (a custom counter), catalogue")


def _add_pack(p: argparse.ArgumentParser) -> None:
    from .saves.packs import SKELETONS

    sub = p.add_subparsers(dest="pack_command", metavar="ACTION", required=True)
    listing = sub.add_parser("list", help="each pack in force: where it is, what it adds")
    listing.add_argument("--campaign", default=None,
                         help="with this campaign's packs (after yours)")
    check = sub.add_parser("check", help="check packs as the app reads them")
    check.add_argument("path", nargs="?", default=None,
                       help="a pack folder, a file of one, a packs folder, or a config or "
                            "campaign folder (default: your packs)")
    new = sub.add_parser("new", help="a commented skeleton of a kind, that loads as it is")
    new.add_argument("kind", choices=list(SKELETONS), metavar="KIND", help=KINDS_HELP)
    new.add_argument("name", help="the pack's name (its folder and id)")
    new.add_argument("--dir", default=None,
                     help="the packs folder to write it in (default: <config>/packs)")
    add = sub.add_parser("add", help="copy a pack into a campaign, so its league shares it")
    add.add_argument("path", help="the pack's folder")
    add.add_argument("--campaign", required=True, help="the campaign (its folder or name)")


def _campaign_dir(command: str, args: argparse.Namespace) -> tuple[Path | None, int]:
    store = _store(args)
    slug = find_campaign(store, args.campaign)
    if slug is None:
        return None, _err(command, f"no campaign {args.campaign!r} in {store.campaigns_dir}")
    return store.campaigns_dir / slug, 0


def _config_dir() -> Path:
    """The config folder: MUNDA_TUI_CONFIG_DIR, else the platform's (as the app's)."""
    from .saves import default_config_dir

    return default_config_dir()


def _run_pack(args: argparse.Namespace) -> int:
    from .saves.errors import SaveError
    from .saves import packs

    command = f"pack {args.pack_command}"
    if args.pack_command == "new":
        folder = Path(args.dir) if args.dir else _config_dir() / packs.PACKS_DIR
        try:
            written = packs.new_pack(folder, args.kind, args.name)
        except SaveError as error:
            return _err(command, str(error))
        for path in written:
            print(f"wrote {path}")
        print("Edit it, then: munda-tui pack check " + str(folder / packs.pack_id_of(args.name)))
        return 0
    if args.pack_command == "check":
        target = Path(args.path) if args.path else _config_dir()
        if not args.path and not (target / packs.PACKS_DIR).is_dir():
            print(f"no packs in {target / packs.PACKS_DIR}")
            return 0
        problems = packs.check_path(target)
        for line in problems:
            print(line)
        if not problems:
            print(f"every pack checks ({target})")
        return 1 if problems else 0
    campaign_dir: Path | None = None
    if getattr(args, "campaign", None):
        campaign_dir, code = _campaign_dir(command, args)
        if campaign_dir is None:
            return code
    if args.pack_command == "add":
        assert campaign_dir is not None
        try:
            target = packs.add_pack(Path(args.path), campaign_dir)
        except SaveError as error:
            return _err(command, str(error))
        print(f"added {target} (a league shares it on the next sync)")
        return 0
    found = packs.load_packs(_config_dir(), campaign_dir)
    if not found.packs:
        print("no packs (munda-tui pack new KIND NAME makes one; docs/packs.md)")
    for pack in found.packs:
        where = "yours" if pack.where == "player" else "the campaign's"
        version = f" {pack.version}" if pack.version else ""
        print(f"{pack.id}{version}: {pack.title} ({where}, {pack.path})")
        print(f"  adds {packs.describe(pack)}; hash {pack.digest}")
    for line in found.problems:
        print(f"left out: {line}")
    return 1 if found.problems else 0


Subcommand = tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]

PACK_SUBCOMMANDS: dict[str, tuple[str, Subcommand]] = {
    "pack": ("a club's own rules as packs: munda-tui pack list | check [PATH] | new KIND NAME "
             "| add PATH --campaign C", (_add_pack, _run_pack)),
}
