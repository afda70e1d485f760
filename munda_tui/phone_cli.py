"""`munda-tui serve CAMPAIGN [--battle N] [--bind ADDR[:PORT]]`: each player's hand of the
campaign's open battle on their own phone, from a shell beside the tracker.

The campaign is only read (a snapshot without the lock, as `report` does), so it works
while the tracker has the campaign open in another terminal; the battle file is looked
at twice a second and every change goes to the phones. Each player's link is shown
behind a curtain (the terminal's alternate screen: nothing is left in the scroll-back).
When the battle is finished its links answer 404; the command then waits for the next
battle and shows new links. Ctrl+C stops it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rules.battle.hand_view import HandView
    from .saves import Store

POLL_SECONDS = 0.5


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("campaign", help="the campaign (folder or name)")
    p.add_argument("--battle", type=int, default=None,
                   help="this battle (default: the one being fought in the tracker)")
    p.add_argument("--bind", default=None, metavar="ADDR[:PORT]",
                   help="the address to serve on (default: this laptop's LAN address, port 8765;"
                   " port 0 picks a free one)")
    p.add_argument("--for-seconds", type=float, default=None, help=argparse.SUPPRESS)


def _stamp(directory: Path) -> tuple[Any, ...]:
    """What changes when the tracker saves (modification times and sizes)."""
    out = []
    for sub in (directory, directory / "battles"):
        try:
            for entry in sorted(os.scandir(sub), key=lambda e: e.name):
                if entry.is_file() and entry.name.endswith(".toml"):
                    st = entry.stat()
                    out.append((entry.path, st.st_mtime_ns, st.st_size))
        except OSError:
            continue
    return tuple(out)


class _Screen:
    """Where links are shown: the alternate screen of a real terminal, else plain lines."""

    def __init__(self, out: IO[str], inp: IO[str]) -> None:
        self.out, self.inp = out, inp
        self.tty = out.isatty() and inp.isatty()

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, text: str) -> str | None:
        """A line from the player (None at end of input)."""
        self.out.write(text)
        self.out.flush()
        line = self.inp.readline()
        return None if not line else line.strip()

    def curtain(self, view: "HandView", url: str) -> bool:
        """The curtain, then the link and its QR code until Enter. False: no one there."""
        from .phone.qr import QrUnavailable, qr_lines

        who = view.player or view.gang_name
        answer = self.ask(f"\n{who} ({view.gang_name}): your phone link is next. Press Enter when "
                          "only you are looking at the screen (s Enter skips you). ")
        if answer is None:
            return False
        if answer.lower() == "s":
            return True
        if self.tty:
            self.out.write("\x1b[?1049h\x1b[H\x1b[2J")  # the alternate screen
        try:
            lines = qr_lines(url)
        except QrUnavailable as error:
            lines, note = [], str(error)
        else:
            note = "Scan the code with your phone's camera, or type the link."
        colour = self.tty and not os.environ.get("NO_COLOR")
        # the title, the code, the link and one line to hide it: 20 lines for a LAN
        # link, so at 80x24 the title stays in view (blank lines around the code
        # scrolled it away); the last line says again who should look
        self.say(f"Hand of {view.gang_name}: only {who} should look.")
        for line in lines:
            self.say(f"  \x1b[97;40m{line}\x1b[0m" if colour else f"  {line}")
        self.say(f"  {url}")
        done = self.ask(f"{note} Only {who} should look: Enter hides it. ")
        if self.tty:
            self.out.write("\x1b[2J\x1b[?1049l")
            self.out.flush()
        else:
            self.say("\n" * 3)
        return done is not None


def serve(store: "Store", slug: str, battle: int | None, bind: str | None,
          out: IO[str] = sys.stdout, inp: IO[str] = sys.stdin,
          max_seconds: float | None = None) -> int:
    from .phone import PhoneServer, PhoneServerError, default_host, parse_bind
    from .phone.net import BindError
    from .rules.battle.hand_view import NotInBattle, battle_hand_views, open_battle
    from .saves import SaveError
    from .saves.export import CampaignSnapshot, ExportError

    screen = _Screen(out, inp)
    try:
        host, port = parse_bind(bind if bind is not None else default_host())
    except BindError as error:
        print(f"munda-tui serve: {error}", file=sys.stderr)
        return 2
    directory = store.campaign_dir(slug)
    server = PhoneServer(host, port)
    started = time.monotonic()
    shown: int | None = None  # the battle whose links were shown
    stamp: tuple[Any, ...] = ()
    waiting_said = False
    try:
        while max_seconds is None or time.monotonic() - started < max_seconds:
            now = _stamp(directory)
            if now == stamp:
                time.sleep(POLL_SECONDS)
                continue
            stamp = now
            try:
                snap = CampaignSnapshot(store, slug)
                number = battle if battle is not None else open_battle(snap.campaign)
                views = {}
                if number is not None:
                    data = snap.load_battle(number) if number in snap.battle_numbers() else {}
                    from .saves.packs import load_packs
                    from .saves.paths import default_config_dir

                    # (the packs in force: a pack's deck is read as a House deck is)
                    packs = load_packs(default_config_dir(), directory).data
                    views = battle_hand_views(snap.campaign, number, data, packs)
            except (SaveError, ExportError, KeyError, NotInBattle) as error:
                views, number = {}, None
                if shown is None and battle is not None:
                    print(f"munda-tui serve: {error}", file=sys.stderr)
                    return 1
            if not views:
                if shown is not None:
                    server.retire()
                    screen.say(f"Battle {shown} is finished: its links no longer work.")
                    shown, waiting_said = None, False
                    if battle is not None:
                        return 0
                if not waiting_said:
                    screen.say(f"No battle of {slug} is in the tracker; waiting for one "
                               "(Ctrl+C stops).")
                    waiting_said = True
                continue
            if not server.running:
                try:
                    server.start(views)
                except PhoneServerError as error:
                    print(f"munda-tui serve: {error}", file=sys.stderr)
                    return 1
            else:
                server.publish(views)
            if shown != number:
                shown = number
                h, p = server.address
                screen.say(f"Serving the hands of battle {number} on {h}:{p} "
                           "(only the two hand pages; Ctrl+C stops).")
                links = server.links
                for gang, view in views.items():
                    if not screen.curtain(view, links[gang]):
                        screen.say("No one at the keyboard: the links are shown only at "
                                   "a terminal. Serving on.")
                        break
                screen.say(f"Phones follow battle {number} live. Ctrl+C stops.")
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    screen.say("Stopped: the phone links no longer work.")
    return 0


def run(args: argparse.Namespace) -> int:
    from .manage_cli import _store, find_campaign

    store = _store(args)
    slug = find_campaign(store, args.campaign)
    if slug is None:
        print(f"munda-tui serve: no campaign {args.campaign!r} in {store.campaigns_dir}",
              file=sys.stderr)
        return 1
    return serve(store, slug, args.battle, args.bind, max_seconds=args.for_seconds)
