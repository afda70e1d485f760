"""The `munda-tui` command: the TUI, and a few subcommands for the shell.

Heavy imports (Textual, the saves) happen inside the functions that need
them, so `munda-tui roll 2D6` answers at once.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Callable, Sequence

from . import __version__

#: subcommand name -> (add arguments, run). Other modules register theirs here.
Subcommand = tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]


def _data_dir(args: argparse.Namespace) -> Path:
    from .saves import default_data_dir

    return Path(args.data_dir) if args.data_dir else default_data_dir()


def _config_dir() -> Path:
    """The config folder: MUNDA_TUI_CONFIG_DIR, else the platform's (no option for it)."""
    from .saves import default_config_dir

    return default_config_dir()


# --- roll ----------------------------------------------------------------------------


def _add_roll(p: argparse.ArgumentParser) -> None:
    p.add_argument("expression", help="e.g. 2D6, D66, (D3+1)x10, 50+3D6x5, 3D6kh2")
    p.add_argument("--seed", type=int, default=None, help="seed the dice (repeatable rolls)")
    p.add_argument("--faces", default=None, help="faces of real dice, e.g. '3 5'")


def _run_roll(args: argparse.Namespace) -> int:
    from .rules.core.dice import DiceError, parse_faces, roll, roll_faces

    try:
        if args.faces is not None:
            result = roll_faces(args.expression, parse_faces(args.expression, args.faces))
        else:
            result = roll(args.expression, random.Random(args.seed))
    except DiceError as error:
        print(f"munda-tui roll: {error}", file=sys.stderr)
        return 2
    print(result)
    return 0


# --- check ---------------------------------------------------------------------------


def _add_check(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", help="save files or folders (default: the data dir)")


def _config_check(path: Path, config: object, text: str) -> list[str]:
    """What the app says of a config the codec loaded: its keymap and its theme."""
    from textual.theme import BUILTIN_THEMES

    from .app import THEME_ALIASES
    from .keymap import config_problems

    return config_problems(config, path, text, [*BUILTIN_THEMES, *THEME_ALIASES])[1]


def _run_check(args: argparse.Namespace) -> int:
    from .saves.check import check_paths

    paths = [Path(p) for p in args.paths]
    if not paths:  # the saves, and the config folder's files (config, tables, packs)
        # a folder not made yet (a fresh install: nothing saved, nothing configured) has
        # nothing to check; a path named on the command line must exist
        paths = [p for p in (_data_dir(args), _config_dir()) if p.exists()]
        if not paths:
            print(f"nothing to check: no saves yet ({_data_dir(args)} does not exist)")
            return 0
    notes: list[str] = []
    problems = check_paths(paths, config_check=_config_check, notes=notes)
    for line in problems:
        print(line)
    for line in notes:  # (files that load, with something the app says as they open)
        print(f"note: {line}")
    if not problems:
        print(f"all saves load ({', '.join(str(p) for p in paths)})"
              + (f"; {len(notes)} note(s) above" if notes else ""))
    return 1 if problems else 0


# --- rules export ----------------------------------------------------------------------


def _add_rules(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="rules_command", required=True)
    export = sub.add_parser("export", help="print every rule table as JSON (with your packs')")
    export.add_argument("--format", choices=["json"], default="json")
    export.add_argument("--campaign", default=None,
                        help="with this campaign's packs too (after yours)")


def _run_rules(args: argparse.Namespace) -> int:
    from .rules.export import export_all
    from .saves.packs import load_packs

    campaign_dir = None
    if args.campaign:
        from .manage_cli import _err, _store, find_campaign

        store = _store(args)
        slug = find_campaign(store, args.campaign)
        if slug is None:
            return _err("rules export", f"no campaign {args.campaign!r} in {store.campaigns_dir}")
        campaign_dir = store.campaigns_dir / slug
    packs = load_packs(_config_dir(), campaign_dir)
    for line in packs.problems:  # (left out, said on stderr: the JSON stays whole)
        print(f"munda-tui rules export: pack file left out: {line}", file=sys.stderr)
    json.dump(export_all(packs.data if packs.packs else None), sys.stdout, indent=2,
              ensure_ascii=False)
    print()
    return 0


# --- draw (House Sub-plots, munda_tui/draw_cli.py) ------------------------------------------


def _add_draw(p: argparse.ArgumentParser) -> None:
    from .draw_cli import add_arguments

    add_arguments(p)


def _run_draw(args: argparse.Namespace) -> int:
    from .draw_cli import run

    return run(args)


def _add_serve(p: argparse.ArgumentParser) -> None:
    from .phone_cli import add_arguments

    add_arguments(p)


def _run_serve(args: argparse.Namespace) -> int:
    from .phone_cli import run

    return run(args)


SUBCOMMANDS: dict[str, tuple[str, Subcommand]] = {
    "roll": ("roll dice: munda-tui roll 2D6 [--seed N]", (_add_roll, _run_roll)),
    "check": ("check that saves load", (_add_check, _run_check)),
    "rules": ("rule data: munda-tui rules export --format json", (_add_rules, _run_rules)),
    "draw": (
        "one player's House Sub-plot draw: munda-tui draw [--house HOUSE] [--seed N] [--card CARD ...]",
        (_add_draw, _run_draw),
    ),
    "serve": (
        "each player's hidden hand of the open battle on their own phone: munda-tui serve CAMPAIGN",
        (_add_serve, _run_serve),
    ),
}

# import yaktribe / import campaign, report, export (campaign management)
from .manage_cli import MANAGE_SUBCOMMANDS  # noqa: E402

SUBCOMMANDS.update(MANAGE_SUBCOMMANDS)
from .league_cli import LEAGUE_SUBCOMMANDS  # noqa: E402  (league init / join, sync)

SUBCOMMANDS.update(LEAGUE_SUBCOMMANDS)
from .pack_cli import PACK_SUBCOMMANDS  # noqa: E402  (pack list / check / new / add)

SUBCOMMANDS.update(PACK_SUBCOMMANDS)


def build_parser(only: str | None = "*", words: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser; with ``only`` a subcommand name (or None), only that
    subcommand's arguments are built (the TUI's start-up does not pay for the rest).
    With ``only`` None and ``words`` (the command line) made of the TUI's own options
    alone, no subcommand is built at all (~1.5 ms of start-up): nothing could use one."""
    parser = argparse.ArgumentParser(
        prog="munda-tui",
        description="A keyboard-driven terminal companion for Necromunda.",
    )
    parser.add_argument("--version", action="version", version=f"munda-tui {__version__}")
    parser.add_argument(
        "--data-dir",
        default=None,
        help="where campaigns are saved (default: $MUNDA_TUI_DATA_DIR, else the user data dir)",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="open a ready demo campaign (in a throw-away data dir unless --data-dir is "
        "given: MUNDA_TUI_DATA_DIR is not used for it)",
    )
    parser.add_argument("--campaign", default=None, help="open this campaign (its folder name)")
    parser.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--today", default=None, help=argparse.SUPPRESS)
    if only is None and words is not None and _options_only(parser, words):
        parser.set_defaults(command=None)
        return parser
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (help_text, (add, _run)) in SUBCOMMANDS.items():
        subparser = sub.add_parser(name, help=help_text)
        if only == "*" or only == name:
            add(subparser)
    return parser


def _options_only(parser: argparse.ArgumentParser, words: Sequence[str]) -> bool:
    """Whether ``words`` are the parser's own options (and their values) and nothing
    else: no word a subcommand could take, no --help (which lists the subcommands)."""
    actions = parser._option_string_actions  # (argparse's own table of its options)
    rest = iter(words)
    for word in rest:
        name = word.split("=", 1)[0]
        action = actions.get(name)
        if action is None or name in ("-h", "--help"):
            return False  # a subcommand, a stray word or an unknown option: the whole parser
        if "=" not in word and action.nargs != 0:
            next(rest, None)  # (the option's value)
    return True


def _run_app(args: argparse.Namespace) -> int:
    import gc

    # No cyclic collection until the first frame (MundaApp resumes it there): start-up
    # makes only objects that live (Textual's modules, the screen), and the ~115
    # collections its imports and first layout triggered scanned them all (~11 ms)
    gc.disable()
    try:
        return _run_tui(args)
    finally:
        gc.enable()


def _tui_data_dir(args: argparse.Namespace) -> Path:
    """Where the TUI saves: ``--data-dir``, else ``$MUNDA_TUI_DATA_DIR``, else the user
    data dir; with ``--demo``, a throw-away folder (created with the demo after the first
    frame) unless ``--data-dir`` names one: MUNDA_TUI_DATA_DIR, the player's real saves,
    is not used for it, so the demo never lands among them."""
    if args.demo:
        return Path(args.data_dir) if args.data_dir else Path(
            tempfile.gettempdir(), f"munda-tui-demo-{os.urandom(6).hex()}")
    return _data_dir(args)


def _run_tui(args: argparse.Namespace) -> int:
    from .app import MundaApp

    data_dir = _tui_data_dir(args)
    app = MundaApp(
        data_dir,
        _config_dir(),
        seed=args.seed,
        campaign=args.campaign,
        today=args.today,
        demo=args.demo,
        collector_paused=True,
    )
    app.run()  # an error escaping a screen: MundaApp writes the crash file, says where
    if app.crash_file is not None or app.return_code:
        from .crash import CRASH_EXIT

        return CRASH_EXIT if app.crash_file is not None else int(app.return_code or 1)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    wanted = next((w for w in words if w in SUBCOMMANDS), None)
    parser = build_parser(only=wanted, words=words)
    args = parser.parse_args(words)
    try:
        if args.command is None:
            return _run_app(args)
        _help, (_add, run) = SUBCOMMANDS[args.command]
        return run(args)
    except BrokenPipeError:  # `munda-tui report demo | head`: the reader left early
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # noqa: BLE001 - the last line: a crash file, never a traceback
        from .crash import report_crash

        return report_crash(error, args.command or "the app")


if __name__ == "__main__":
    raise SystemExit(main())
