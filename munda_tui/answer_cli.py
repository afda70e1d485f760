"""`munda-tui league answer`: the league's questions from the command line (issue 30).

    munda-tui league answer CAMPAIGN                 the open questions, numbered
    munda-tui league answer CAMPAIGN N void|keep     answer question N
    munda-tui league answer CAMPAIGN N amount -15    ... with another amount
    munda-tui league answer CAMPAIGN N league|aside  a pack of two versions: the league's
                                                     stays, or the set-aside one replaces it

An answer is a correction record (``saves.records.answer``), shared at the next sync:
every laptop folds the same answer. A pack's two versions (issue 35.7) are answered as
shared files (``saves.league_packs.answer``): every laptop plays the same pack once synced. Hooked into ``league_cli``'s ``league`` command.
"""

from __future__ import annotations

import argparse
from typing import Any


def add_answer(sub: Any) -> None:
    p = sub.add_parser("answer", help="answer the league's questions (a battle or an edit that cannot apply "
                       "after another laptop's by the rules)")
    p.add_argument("campaign", help="the campaign (its folder name or its name)")
    p.add_argument("number", nargs="?", type=int, help="the question's number (as listed without one)")
    p.add_argument("choice", nargs="?", choices=["void", "keep", "amount", "league", "aside"],
                   help="void the change, keep it as it is, or apply another amount; for a pack "
                   "of two versions: the league's stays (league) or the set-aside one replaces it (aside)")
    p.add_argument("amount", nargs="?", type=int, help="the amount, with `amount`")


def _line(q: Any, numbers: dict[str, int], gangs: dict[str, str]) -> str:
    if q.record_kind == "pack":
        return f"Pack {q.pack}: two versions ({q.why}). {q.rule}"
    if q.battle:
        n = numbers.get(q.battle)
        where = f"Battle {n}" if n else "A battle"
    else:
        where = f"Roster edit of {q.date}" if q.date else "A roster edit"
    return f"{where}, {gangs.get(q.gang, q.gang)}: {q.what} ({q.why})"


def run_answer(args: argparse.Namespace, open_campaign: Any, err: Any) -> int:
    from .saves.errors import SaveError

    handle, code = open_campaign("league answer", args)
    if handle is None:
        return int(code)
    with handle:
        questions = list(handle.questions)
        numbers = handle.battle_numbers_by_stem()
        gangs = {g.id: g.name for g in handle.campaign.gangs}
        if args.number is None:
            if not questions:
                print(f"{handle.campaign.name}: no league questions: every battle and edit applies.")
                return 0
            print(f"{handle.campaign.name}: {len(questions)} league question(s) for the Arbitrator:")
            for i, q in enumerate(questions, 1):
                print(f"  {i}. {_line(q, numbers, gangs)}: {' | '.join(q.choices)}")
            print("Answer one: munda-tui league answer CAMPAIGN N void|keep|amount [AMOUNT]"
                  + (" (a pack: league|aside)" if any(q.record_kind == "pack" for q in questions) else ""))
            return 0
        if not 1 <= args.number <= len(questions):
            return int(err("league answer", f"no question {args.number}: there are {len(questions)}"))
        q = questions[args.number - 1]
        if args.choice is None:
            return int(err("league answer", f"say how: {' | '.join(q.choices)}"))
        if args.choice not in q.choices:
            return int(err("league answer", f"the rules do not allow {args.choice!r} here: {' | '.join(q.choices)}"))
        if args.choice == "amount" and args.amount is None:
            return int(err("league answer", "`amount` needs the amount, e.g. `amount -15`"))
        try:
            handle.answer_question(q, args.choice, args.amount or 0)
        except (OSError, ValueError, SaveError) as error:
            return int(err("league answer", str(error)))
        print(f"Answered: {_line(q, numbers, gangs)}: {args.choice}"
              + (f" {args.amount:+d}" if args.choice == "amount" else "")
              + f". {len(handle.questions)} question(s) left; shared at the next sync.")
    return 0


__all__ = ["add_answer", "run_answer"]
