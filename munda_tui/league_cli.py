"""League subcommands of `munda-tui` (a campaign several laptops play, merged by git):

    munda-tui league init CAMPAIGN --remote URL
    munda-tui league join URL
    munda-tui sync CAMPAIGN

Registered in ``cli.SUBCOMMANDS``. The work is ``saves.league``'s.
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable

from .manage_cli import _err, _store, find_campaign


def _add_league(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="league_command", metavar="ACTION", required=True)
    init = sub.add_parser("init", help="make a campaign a league shared through a git remote")
    init.add_argument("campaign", help="the campaign (its folder name or its name)")
    init.add_argument("--remote", required=True,
                      help="a git URL: a bare repository on a USB stick or shared folder "
                           "(git init --bare FOLDER), or a hosted one over SSH or HTTPS")
    join = sub.add_parser("join", help="take a league's campaign from its git remote")
    join.add_argument("url", help="the league's git URL")


def _open(command: str, args: argparse.Namespace):  # type: ignore[no-untyped-def]
    from .saves import CampaignLocked, SaveError

    store = _store(args)
    slug = find_campaign(store, args.campaign)
    if slug is None:
        return None, _err(command, f"no campaign {args.campaign!r} in {store.campaigns_dir}")
    try:
        return store.open_campaign(slug), 0
    except CampaignLocked as error:
        return None, _err(command, f"{error}\nClose it in munda-tui first (or sync from its campaign screen).")
    except SaveError as error:
        return None, _err(command, str(error))


def _run_league(args: argparse.Namespace) -> int:
    from .saves.league import LeagueError, init, join

    if args.league_command == "join":
        try:
            slug = join(_store(args), args.url)
        except LeagueError as error:
            return _err("league join", str(error))
        print(f"Joined the league: campaign {slug!r} (open it with munda-tui --campaign {slug}).")
        return 0
    handle, code = _open("league init", args)
    if handle is None:
        return code
    with handle:
        try:
            result = init(handle, args.remote)
        except LeagueError as error:
            return _err("league init", str(error))
    print(f"{handle.campaign.name} is a league, shared through {args.remote} "
          f"({len(result.committed)} commits). Other players: munda-tui league join {args.remote}")
    return 0


def _add_sync(p: argparse.ArgumentParser) -> None:
    p.add_argument("campaign", help="the campaign (its folder name or its name)")


def _run_sync(args: argparse.Namespace) -> int:
    from .saves.league import LeagueError, sync

    handle, code = _open("sync", args)
    if handle is None:
        return code
    with handle:
        try:
            result = sync(handle)
        except LeagueError as error:
            return _err("sync", str(error))
    if result.conflicts:
        print("munda-tui sync: stopped before anything was overwritten: changed here and "
              "in the league: " + ", ".join(result.conflicts) + ". Open the campaign in "
              "munda-tui and sync from its screen to choose, gang by gang.", file=sys.stderr)
        return 3
    print(f"Synced: {len(result.committed)} change(s) shared, {len(result.received)} received.")
    return 0


Subcommand = tuple[Callable[[argparse.ArgumentParser], None], Callable[[argparse.Namespace], int]]

LEAGUE_SUBCOMMANDS: dict[str, tuple[str, Subcommand]] = {
    "league": ("a league on several laptops: munda-tui league init CAMPAIGN --remote URL | league join URL",
               (_add_league, _run_league)),
    "sync": ("share a league's campaign through git: munda-tui sync CAMPAIGN", (_add_sync, _run_sync)),
}
