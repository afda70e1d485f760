"""League subcommands of `munda-tui` (a campaign several laptops play, merged by git):

    munda-tui league init CAMPAIGN --remote URL
    munda-tui league join URL
    munda-tui league status CAMPAIGN
    munda-tui league history CAMPAIGN [-n N | --all]
    munda-tui league remote CAMPAIGN [URL] [--no-check]
    munda-tui league answer CAMPAIGN [N void|keep|amount [AMOUNT]]
    munda-tui league undo CAMPAIGN [--yes]
    munda-tui sync CAMPAIGN

Each says what went wrong in one line, in our words; ``--verbose`` adds git's own text
(also kept in the campaign's ``.cache/league.log``). A password in a URL is never
printed nor stored (``saves.git.public_url``).

Registered in ``cli.SUBCOMMANDS``. The work is ``saves.league``'s and ``saves.league_info``'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Callable

from .manage_cli import _err, _store, find_campaign

if TYPE_CHECKING:
    from .saves import Store


def _verbose(p: argparse.ArgumentParser) -> None:
    p.add_argument("--verbose", "-v", action="store_true", help="also print git's own words when it fails")


def _add_league(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="league_command", metavar="ACTION", required=True)
    init = sub.add_parser("init", help="make a campaign a league shared through a git remote")
    init.add_argument("campaign", help="the campaign (its folder name or its name)")
    init.add_argument("--remote", required=True,
                      help="a git URL: a bare repository on a USB stick or shared folder "
                           "(git init --bare FOLDER), or a hosted one over SSH or HTTPS")
    _verbose(init)
    join = sub.add_parser("join", help="take a league's campaign from its git remote")
    join.add_argument("url", help="the league's git URL")
    _verbose(join)
    status = sub.add_parser("status", help="what this laptop has not shared yet")
    status.add_argument("campaign", help="the campaign (its folder name or its name)")
    _verbose(status)
    history = sub.add_parser("history", help="who synced which battles and edits, and when")
    history.add_argument("campaign", help="the campaign (its folder name or its name)")
    history.add_argument("-n", type=int, default=30, metavar="N", help="the last N entries (default 30)")
    history.add_argument("--all", action="store_true", help="every entry")
    _verbose(history)
    remote = sub.add_parser("remote", help="show the league's remote, or change it")
    remote.add_argument("campaign", help="the campaign (its folder name or its name)")
    remote.add_argument("url", nargs="?", default=None, help="the new git URL (none: show the current one)")
    remote.add_argument("--no-check", action="store_true",
                        help="set it without reaching it first (a USB stick not plugged in)")
    _verbose(remote)
    from .answer_cli import add_answer

    add_answer(sub)  # league answer (issue 30)
    undo = sub.add_parser("undo", help="take back this laptop's last sync (not pushed yet), or void "
                          "with corrections the battles and edits it shared (pushed)")
    undo.add_argument("campaign", help="the campaign (its folder name or its name)")
    undo.add_argument("--yes", action="store_true",
                      help="record the corrections for a sync that was pushed (without it: said, not done)")
    _verbose(undo)


def _no_campaign(store: "Store", name: str) -> str:
    return (f"no campaign {name!r} in {store.campaigns_dir}. Make it first (munda-tui, n on the "
            "campaign list) or import it (`munda-tui import campaign FILE.toml`, `munda-tui import "
            "yaktribe FILE.json`); to play a league another player started: `munda-tui league "
            "join URL`")


def _find(command: str, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    store = _store(args)
    slug = find_campaign(store, args.campaign)
    if slug is None:
        return store, None, _err(command, _no_campaign(store, args.campaign))
    return store, slug, 0


def _open(command: str, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from .saves import CampaignLocked, SaveError

    store, slug, code = _find(command, args)
    if slug is None:
        return None, code
    try:
        return store.open_campaign(slug), 0
    except CampaignLocked as error:
        if command == "sync":
            return None, _err(command, f"{error}\nClose it in munda-tui first, or sync it from its campaign screen there (g).")
        return None, _err(command, f"{error}\nClose it in munda-tui first, then run this again "
                                   "(or use the league menu of its campaign screen: L).")
    except SaveError as error:
        return None, _err(command, str(error))


def _fail(command: str, error: Exception, args: argparse.Namespace) -> int:
    code = _err(command, str(error))
    detail = getattr(error, "detail", "")
    if detail and getattr(args, "verbose", False):
        print("git said:\n" + "\n".join(f"  {line}" for line in detail.splitlines()), file=sys.stderr)
    return code


def _run_league(args: argparse.Namespace) -> int:
    from .saves.league import LeagueError

    command = f"league {args.league_command}"
    try:
        return _LEAGUE_ACTIONS[args.league_command](args)
    except LeagueError as error:
        return _fail(command, error, args)


def _join(args: argparse.Namespace) -> int:
    from .saves.league import join

    slug = join(_store(args), args.url)
    print(f"Joined the league: campaign {slug!r} (open it with munda-tui --campaign {slug}).")
    return 0


def _init(args: argparse.Namespace) -> int:
    from .rules.core.wording import plural
    from .saves.league import init, public_url

    handle, code = _open("league init", args)
    if handle is None:
        return code
    with handle:
        result = init(handle, args.remote)
    shown = public_url(args.remote)
    print(f"{handle.campaign.name} is a league, shared through {shown} "
          f"({plural(len(result.shared), 'commit')} pushed). Other players: munda-tui league join {shown}")
    for note in result.notes:
        print(f"Note: {note}.")
    return 0


def _status(args: argparse.Namespace) -> int:
    from .saves.league_info import status, status_lines

    store, slug, code = _find("league status", args)
    if slug is None:
        return code
    s = status(store.campaign_dir(slug))
    lines = status_lines(s)
    print(f"{slug}: {lines[0]}")
    for line in lines[1:]:
        print(line)
    if not s.nothing_to_share:
        print(f"`munda-tui sync {slug}` (or g on its campaign screen) shares them.")
    return 0


def _history(args: argparse.Namespace) -> int:
    from .saves.league_info import history, history_lines

    store, slug, code = _find("league history", args)
    if slug is None:
        return code
    for line in history_lines(history(store.campaign_dir(slug), None if args.all else max(1, args.n))):
        print(line)
    return 0


def _remote(args: argparse.Namespace) -> int:
    from .saves.league_info import remote, set_remote

    store, slug, code = _find("league remote", args)
    if slug is None:
        return code
    directory = store.campaign_dir(slug)
    if args.url is None:
        print(remote(directory) or "(no remote)")
        return 0
    shown = set_remote(directory, args.url, check=not args.no_check)
    print(f"{slug} now syncs with {shown}." + ("" if shown == args.url else
          " (The password in the URL is not stored: git's credential helper keeps it, if you have one.)"))
    return 0


def _answer(args: argparse.Namespace) -> int:
    from .answer_cli import run_answer  # league answer (issue 30): the league's questions

    return run_answer(args, _open, _err)


def _undo(args: argparse.Namespace) -> int:
    from .saves.league import undo
    from .saves.league_undo import plan

    handle, code = _open("league undo", args)
    if handle is None:
        return code
    with handle:
        planned = plan(handle)
        if planned.kind == "correct" and not args.yes:
            for line in planned.lines:
                print(line)
            print(f"Nothing recorded yet: `munda-tui league undo {args.campaign} --yes` records the corrections.")
            return 0
        planned, done = undo(handle)
    for line in planned.lines + done:
        print(line)
    return 0


_LEAGUE_ACTIONS: dict[str, Callable[[argparse.Namespace], int]] = {
    "init": _init, "join": _join, "status": _status, "history": _history, "remote": _remote,
    "answer": _answer, "undo": _undo,
}


def _add_sync(p: argparse.ArgumentParser) -> None:
    p.add_argument("campaign", help="the campaign (its folder name or its name)")
    _verbose(p)


def _run_sync(args: argparse.Namespace) -> int:
    from .saves.league import LeagueError, sync
    from .saves.league_info import sync_words

    handle, code = _open("sync", args)
    if handle is None:
        return code
    with handle:
        try:
            result = sync(handle)
        except LeagueError as error:
            return _fail("sync", error, args)
    if result.conflicts:
        print("munda-tui sync: stopped before anything was overwritten: changed here and "
              "in the league: " + ", ".join(result.conflicts) + ". Open the campaign in "
              "munda-tui and sync from its screen to choose, one by one (a gang, a pack).", file=sys.stderr)
        return 3
    print(sync_words(result))
    for note in result.notes:
        print(f"Note: {note}.")
    for line in result.yours:  # what the sync did to this laptop's battles (issue 30.5)
        print(line)
    for line in result.refused:  # a finished battle that cannot be stripped (issue 30.6)
        print(f"munda-tui sync: {line}", file=sys.stderr)
    if result.questions:
        print(f"{result.questions} league question(s) for the Arbitrator: munda-tui league answer "
              f"{args.campaign}")
    return 0


Subcommand = tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]

LEAGUE_SUBCOMMANDS: dict[str, tuple[str, Subcommand]] = {
    "league": ("a league on several laptops: munda-tui league init CAMPAIGN --remote URL | join URL "
               "| status CAMPAIGN | history CAMPAIGN | remote CAMPAIGN [URL] | answer CAMPAIGN | undo CAMPAIGN",
               (_add_league, _run_league)),
    "sync": ("share a league's campaign through git: munda-tui sync CAMPAIGN", (_add_sync, _run_sync)),
}
