"""Campaign management subcommands of `munda-tui`:

    munda-tui import yaktribe FILE.json [--campaign NAME]
    munda-tui import campaign FILE.toml
    munda-tui report CAMPAIGN [--battle N] [--format markdown|discord|json]
    munda-tui export CAMPAIGN [-o PATH]

Registered in ``cli.SUBCOMMANDS``. Heavy imports stay inside the functions.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from .rules.core.model import Settings
    from .saves import Store


def _store(args: argparse.Namespace) -> "Store":
    from .saves import Store, default_data_dir

    data_dir = getattr(args, "data_dir", None) or os.environ.get("MUNDA_TUI_DATA_DIR")
    return Store(Path(data_dir) if data_dir else default_data_dir())


def _new_campaign_settings() -> "Settings":
    """The config's defaults for new campaigns (the defaults when it does not load)."""
    from .saves.config import load_config
    from .saves.paths import default_config_dir

    return load_config(default_config_dir()).new_campaign_settings()


def _err(command: str, message: str) -> int:
    print(f"munda-tui {command}: {message}", file=sys.stderr)
    return 1


def find_campaign(store: "Store", name: str) -> str | None:
    """The slug of a campaign given by folder name or by name (any case)."""
    from .rules.core.model import slugify

    infos = store.list_campaigns()
    for info in infos:
        if info.slug == name:
            return info.slug
    for info in infos:
        if info.name.strip().casefold() == name.strip().casefold():
            return info.slug
    for info in infos:
        if info.slug == slugify(name):
            return info.slug
    return None


# --- import ------------------------------------------------------------------------


def _add_import(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="import_kind", required=True, metavar="KIND")
    yak = sub.add_parser("yaktribe", help="a gang exported by Yaktribe (JSON)")
    yak.add_argument("file", help="the gang's JSON export (yaktribe.games/underhive/json/gang/<id>.json)")
    yak.add_argument(
        "--campaign",
        default=None,
        help="add the gang to this campaign (folder or name); created if there is none "
        "(default: the campaign named in the file, else the gang's name)",
    )
    yak.add_argument(
        "--role", action="append", default=[], metavar='"TYPE=ROLE"',
        help='the role of a fighter type name the app cannot place, e.g. '
        '--role "Psychic Familiar=Hanger-on" (repeatable; remembered in the campaign)',
    )
    yak.add_argument(
        "--assume-ganger", action="store_true",
        help="record fighters whose type name the app cannot place as Gangers",
    )
    camp = sub.add_parser("campaign", help="a campaign written by `munda-tui export`")
    camp.add_argument("file", help="the exported campaign (.toml)")


def _run_import(args: argparse.Namespace) -> int:
    if args.import_kind == "campaign":
        return _import_campaign(args)
    return _import_yaktribe(args)


def _import_yaktribe(args: argparse.Namespace) -> int:
    from .rules.core.model import Campaign, slugify
    from .saves import CampaignLocked, SaveError
    from .rules.campaign.yaktribe import YaktribeError, parse_role
    from .saves.importer import GangImportError, RolesNeeded, import_yaktribe, read_yaktribe

    roles = {}
    for spec in args.role:
        label, sep, role = spec.rpartition("=")
        if not sep or not label.strip():
            return _err("import", f"--role {spec!r}: write it as \"TYPE=ROLE\", e.g. "
                        "\"Psychic Familiar=Hanger-on\". Nothing was imported.")
        try:
            roles[label.strip()] = parse_role(role)
        except YaktribeError as error:
            return _err("import", f"--role {spec!r}: {error}. Nothing was imported.")
    store = _store(args)
    try:
        preview = read_yaktribe(Path(args.file))
    except GangImportError as error:
        return _err("import", f"{error}\nNothing was imported.")
    target = args.campaign or preview.campaign_name or preview.gang.name
    slug = find_campaign(store, target)
    try:
        if slug is None:
            handle = store.create_campaign(Campaign(id=slugify(target), name=target,
                                                    settings=_new_campaign_settings()))
            created = True
        else:
            handle = store.open_campaign(slug)
            created = False
    except CampaignLocked as error:
        return _err("import", f"{error}\nClose it in munda-tui first. Nothing was imported.")
    except SaveError as error:
        return _err("import", f"{error}\nNothing was imported.")
    with handle:
        try:
            from .saves import default_config_dir
            from .saves.packs import load_packs

            packs = load_packs(default_config_dir(), handle.path)  # (a pack's fighter roles)
            result = import_yaktribe(handle, Path(args.file), roles=roles,
                                     assume_ganger=args.assume_ganger, rule_data=packs.data)
        except RolesNeeded as error:
            if created:
                handle.close()
                store.delete_campaign(handle.campaign.id)
            print(f"munda-tui import: note: {error}", file=sys.stderr)
            print("Nothing was imported.", file=sys.stderr)
            return 2
        except GangImportError as error:
            if created:
                handle.close()
                store.delete_campaign(handle.campaign.id)
            return _err("import", f"{error}\nNothing was imported.")
        campaign = handle.campaign
    gang = result.gang
    print(f"{'Created' if created else 'Opened'} campaign {campaign.name} ({campaign.id}).")
    from .rules.core.wording import plural

    print(f"Imported {gang.name} ({gang.type.value}): {plural(len(gang.fighters), 'fighter')}, "
          f"{gang.credits} credits, Reputation {gang.reputation}, "
          f"{plural(len(gang.territories), 'Territory', 'Territories')}, "
          f"{plural(len(gang.tactics), 'Gang Tactic')}.")
    check = result.rating
    file_part = f", file {check.file}" if check.file is not None else ""
    print(f"Gang Rating: computed {check.computed}{file_part}. {check.reason}")
    from .keymap import all_bindings
    from .saves.config import load_config
    from .saves.paths import default_config_dir
    from .widgets.keys import keys_text

    all_bindings()  # (every screen's keys known: a note names the roster's by its id)
    keymap = load_config(default_config_dir()).keymap  # the keys as the player has them
    for note in result.notes:
        print(f"  note: {keys_text(keymap, note)}")
    for warning in result.warnings:
        print(f"  check: {warning}")
    return 0


def _import_campaign(args: argparse.Namespace) -> int:
    from .saves import SaveError
    from .saves.export import ExportError, import_campaign

    store = _store(args)
    try:
        handle = import_campaign(store, Path(args.file))
    except (ExportError, SaveError) as error:
        return _err("import", f"{error}\nNothing was imported.")
    with handle:
        c = handle.campaign
        from .rules.core.wording import plural

        print(f"Imported campaign {c.name} as {c.id}: {plural(len(c.gangs), 'gang')}, "
              f"{plural(len(c.battles), 'battle')} "
              f"({plural(len(handle.battle_numbers()), 'battle file')}).")
    return 0


# --- report ------------------------------------------------------------------------


def _add_report(p: argparse.ArgumentParser) -> None:
    from .rules.campaign.report_formats import RENDERERS

    p.add_argument("campaign", help="the campaign (folder or name)")
    p.add_argument("--battle", type=int, default=None, help="this battle's report (default: the campaign summary)")
    p.add_argument("--format", choices=sorted(RENDERERS), default=None,
                   help="markdown (the default); discord: cut into Discord messages of at most "
                        "2,000 characters (tables as code blocks), each after a "
                        "'--- message N/M ---' line; json: the report's blocks, for other tools")
    p.add_argument("--discord", action="store_true", help="the same as --format discord")


def _run_report(args: argparse.Namespace) -> int:
    from .rules.campaign.report import battle_report, campaign_summary
    from .rules.campaign.report_formats import RENDERERS
    from .saves import SaveError
    from .saves.export import CampaignSnapshot, ExportError

    if args.discord and args.format not in (None, "discord"):
        return _err("report", f"--discord and --format {args.format} ask for two formats: give one")
    render = RENDERERS[args.format or ("discord" if args.discord else "markdown")]
    store = _store(args)
    slug = find_campaign(store, args.campaign)
    if slug is None:
        return _err("report", f"no campaign {args.campaign!r} in {store.campaigns_dir}")
    try:
        snap = CampaignSnapshot(store, slug)
        if args.battle is None:
            from .saves.packs import load_packs
            from .saves.paths import default_config_dir

            report = campaign_summary(snap.campaign, load_packs(default_config_dir(),
                                                                snap.path).data)
        else:
            numbers = [b.number for b in snap.campaign.battles]
            if args.battle not in numbers:
                return _err("report", f"no battle {args.battle} in {snap.campaign.name} "
                                      f"(battles: {', '.join(map(str, numbers)) or 'none'})")
            data = snap.load_battle(args.battle) if args.battle in snap.battle_numbers() else {}
            report = battle_report(snap.campaign, args.battle, data)
    except (SaveError, ExportError, ValueError) as error:
        return _err("report", str(error))
    sys.stdout.write(render(report))
    return 0


# --- export ------------------------------------------------------------------------


def _add_export(p: argparse.ArgumentParser) -> None:
    p.add_argument("campaign", help="the campaign (folder or name)")
    p.add_argument("-o", "--output", default=None,
                   help="file or folder to write (default: <campaign>.munda.toml here); - for stdout")


def _run_export(args: argparse.Namespace) -> int:
    from .saves import SaveError
    from .saves.export import CampaignSnapshot, ExportError, default_export_name, export_text, write_export

    store = _store(args)
    slug = find_campaign(store, args.campaign)
    if slug is None:
        return _err("export", f"no campaign {args.campaign!r} in {store.campaigns_dir}")
    try:
        snap = CampaignSnapshot(store, slug)
        if args.output == "-":
            sys.stdout.write(export_text(snap))
            return 0
        path = write_export(snap, Path(args.output) if args.output else Path(default_export_name(snap.campaign)))
    except (SaveError, ExportError) as error:
        return _err("export", str(error))
    print(f"Wrote {snap.campaign.name} to {path} "
          f"(import it with: munda-tui import campaign {path})")
    withheld = _withheld(path)
    if withheld:
        print(f"{withheld} Sub-plot{'s' if withheld != 1 else ''} not yet revealed "
              f"{'were' if withheld != 1 else 'was'} left out: a hidden hand never leaves "
              f"its owner's laptop.", file=sys.stderr)
    return 0


def _withheld(path: Path) -> int:
    from munda_tui.saves.errors import SaveError
    from munda_tui.saves.files import parse_text, read_text

    try:  # the guarded reader, as for every TOML file the app reads
        return int(parse_text(path, read_text(path)).get("subplots_withheld", 0))
    except (SaveError, ValueError, TypeError):
        return 0


Subcommand = tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]

MANAGE_SUBCOMMANDS: dict[str, tuple[str, Subcommand]] = {
    "import": ("import a Yaktribe gang or an exported campaign", (_add_import, _run_import)),
    "report": ("print a campaign summary or a battle report (Markdown, Discord messages or JSON)", (_add_report, _run_report)),
    "export": ("write a campaign as one TOML file another player can import", (_add_export, _run_export)),
}
