"""`munda-tui draw [--house HOUSE] [--seed N] [--card CARD ...]`: one player's House
Sub-plot draw without a campaign, printed as plain text (name, text, rewards).

The rules live in ``munda_tui.rules.subplots.decks``; this only reads arguments and prints.
"""

from __future__ import annotations

import argparse
from typing import Any
import random
import sys
import textwrap


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--house",
        default=None,
        help="use this House's own deck (Cawdor, Delaque, Escher, Goliath, Orlock, Van Saar);"
        " default: the four suit decks of the 2018 Rulebook",
    )
    p.add_argument("--seed", type=int, default=None, help="seed the shuffle (repeatable draws)")
    p.add_argument(
        "--card",
        dest="cards",
        action="extend",
        nargs="+",
        default=[],
        metavar="CARD",
        help="the real card(s) you drew, in order, e.g. --card joker 'Q♦' 10h"
        " (the app draws any card still needed)",
    )


def _house_deck(name: str, data: Any = None) -> str:
    from .rules.subplots.decks import SubplotError, house_deck_ids

    houses = house_deck_ids(data)  # (the package's, then your packs' House decks)
    wanted = name.strip().lower().replace("-", " ").replace("_", " ")
    for house, deck_id in houses.items():
        if wanted in (house.lower(), f"house {house.lower()}"):
            return deck_id
    raise SubplotError(f"{name!r} is not a House with its own deck ({', '.join(houses)})")


def format_draw(session: object, width: int = 78) -> str:
    """The printed report of a finished one-player draw."""
    from .rules.subplots.decks import REVEALS, SubplotDraw, deck

    assert isinstance(session, SubplotDraw)
    gang = session.order[0]
    side = session.sides[gang]
    lines = []
    source = (deck(side.deck, session.data).name + " deck" if side.deck
              else "suit decks (Rulebook 2018)")
    lines.append(f"House Sub-plots: {len(side.hand)} drawn from the {source}")
    drawn = []
    for d in session.history:
        mark = " (typed)" if d.entered else ""
        drawn.append(f"{d.card.label}{mark}" + (" - show it to your opponent" if d.is_joker else ""))
    lines.append("Cards: " + ", ".join(drawn))
    if side.jokers:
        lines.append(f"Jokers: {side.jokers} (each replaced by two cards, three Sub-plots at most)")
    wrap = textwrap.TextWrapper(width=width, initial_indent="  ", subsequent_indent="  ")
    for d in session.history:
        if d.subplot is None:
            continue
        c = d.subplot
        info = deck(c.deck, session.data)
        lines.append("")
        lines.append(f"{d.card.label}  {c.name}  [{info.name}, {info.source}]")
        lines.extend(wrap.wrap(c.text))
        lines.append(f"  Revealed: {REVEALS[c.reveal]}")
        for r in c.rewards:
            lines.extend(
                textwrap.wrap(
                    ("Effect: " if r.kind == "other" else "Reward: ") + r.describe(),
                    width=width, initial_indent="  ", subsequent_indent="    ",
                )
            )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from .rules.subplots.decks import SubplotError, draw_all
    from .saves.packs import load_packs
    from .saves.paths import default_config_dir

    data = load_packs(default_config_dir()).data  # (your packs' decks too)
    try:
        house = _house_deck(args.house, data) if args.house else None
        session = draw_all(
            ["you"], random.Random(args.seed), house_decks={"you": house},
            entered={"you": args.cards}, data=data,
        )
    except SubplotError as error:
        print(f"munda-tui draw: {error}", file=sys.stderr)
        return 2
    print(format_draw(session))
    return 0
