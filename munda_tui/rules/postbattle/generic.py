"""Generic post-battle resolvers a pack's ruleset composes (issue 35.3, docs/packs.md).

A step of a club's own sequence needs no Python: its ``resolver`` is one of these and
its keys say what it does. Each asks through the walk (the app's roll or real dice, a
number), records each change with ``walk.change`` and says it, so the step keeps the
sequence's guarantees (resume, undo, one commit, the report).

``roll_table``   roll the ruleset's ``table`` once for each fighter matching ``filter``
                 (``each = "fighter"``, the default) or once per gang (``each = "gang"``);
                 the row's ``effects`` apply (to that fighter, or that gang)
``gain``         each gang (or each fighter matching ``filter``, ``each = "fighter"``)
                 gains ``amount`` (negative: loses) or ``dice`` of ``what`` (credits,
                 reputation, xp), times ``per`` (territories, fighters, kills) if given
``set_status``   each fighter matching ``filter`` goes to ``status`` (``active``: cleared)

A filter (``[steps.filter]``) keeps a fighter when every key it gives holds: ``status``
(a list of statuses: active, recovery, captured, critical, dead, retired), ``role`` (a
list of roles: Leader, Ganger, ...), ``in_battle`` (true: the fighter fought in this
battle), ``end_state`` (a list of how the fighter ended it: standing, seriously_injured,
out_of_action, fled, not_deployed).

An effect (a table row's ``effects``) is ``{ gain = "credits", amount = 10 }`` (or
``dice = "D3"``; ``gain`` one of credits, reputation, xp) or ``{ status = "recovery" }``.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..core.model import Fighter, FighterStatus, FighterType, Gang
from ..core.outcome import EndState
from .core import Walk, get_table, lookup, range_text, resolver, row_text

#: what a generic step may say besides id, title, resolver and text
STEP_KEYS = ("table", "each", "filter", "what", "amount", "dice", "per", "why", "status")
#: what a filter may say
FILTER_KEYS = ("status", "role", "in_battle", "end_state")
GAINS = ("credits", "reputation", "xp")
PERS = ("territories", "fighters", "kills")


class GenericStepError(ValueError):
    """A generic step or effect that cannot be read (the pack check says it first)."""


def check_step(step: Mapping[str, Any]) -> tuple[str, str] | None:
    """What is wrong with a generic step's keys (key, message), None when it reads."""
    resolver_name = step.get("resolver")
    if step.get("each", "fighter" if resolver_name == "roll_table" else "gang") not in (
            "fighter", "gang"):
        return "each", 'must be "fighter" or "gang"'
    flt = step.get("filter", {})
    if not isinstance(flt, Mapping):
        return "filter", "must be a table ([steps.filter])"
    for key, value in flt.items():
        if key not in FILTER_KEYS:
            return f"filter.{key}", f"unknown filter (filters: {', '.join(FILTER_KEYS)})"
        if key == "in_battle" and not isinstance(value, bool):
            return f"filter.{key}", "must be true or false"
        allowed = {"status": [s.value for s in FighterStatus],
                   "role": [t.value for t in FighterType],
                   "end_state": [e.value for e in EndState]}.get(key)
        if allowed is not None and (not isinstance(value, list)
                                    or any(v not in allowed for v in value)):
            return f"filter.{key}", f"must be a list of: {', '.join(allowed)}"
    if resolver_name == "roll_table" and not isinstance(step.get("table"), str):
        return "table", "the table to roll (an id of the ruleset's [tables])"
    if resolver_name == "gain":
        problem = check_effect({"gain": step.get("what"), "amount": step.get("amount"),
                                "dice": step.get("dice")} if "dice" in step else
                               {"gain": step.get("what"), "amount": step.get("amount")})
        if problem is not None:
            return ("what" if problem[0] == "gain" else problem[0]), problem[1]
        if "per" in step and step["per"] not in PERS:
            return "per", f"must be one of {', '.join(PERS)}"
    if resolver_name == "set_status" and step.get("status") not in [s.value for s in FighterStatus]:
        return "status", f"must be one of {', '.join(s.value for s in FighterStatus)}"
    return None


def check_effect(effect: Any) -> tuple[str, str] | None:
    """What is wrong with an effect (key, message), None when it reads."""
    if not isinstance(effect, Mapping):
        return "", "an effect is a table: { gain = \"credits\", amount = 10 } or { status = ... }"
    if "status" in effect:
        if effect["status"] not in [s.value for s in FighterStatus]:
            return "status", f"must be one of {', '.join(s.value for s in FighterStatus)}"
        return None
    if effect.get("gain") not in GAINS:
        return "gain", f"must be one of {', '.join(GAINS)}"
    if "dice" in effect:
        from ..core.dice import DiceError, parse

        try:
            parse(str(effect["dice"]))
        except DiceError as error:
            return "dice", str(error)
        return None
    amount = effect.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, int):
        return "amount", "must be a whole number (negative: a loss), or give dice"
    return None


def _matches(walk: Walk, gang: Gang, f: Fighter, flt: Mapping[str, Any]) -> bool:
    if "status" in flt and str(f.status) not in flt["status"]:
        return False
    if "role" in flt and str(f.type) not in flt["role"]:
        return False
    crew = {o.fighter: o for o in walk.seq.outcome.crew(gang.id)}
    if "in_battle" in flt and (f.id in crew) != flt["in_battle"]:
        return False
    if "end_state" in flt and (f.id not in crew or str(crew[f.id].end_state) not in flt["end_state"]):
        return False
    return True


def _fighters(walk: Walk, gang: Gang) -> list[Fighter]:
    flt = walk.step.get("filter", {})
    return [f for f in gang.fighters if _matches(walk, gang, f, flt)]


def _times(walk: Walk, gang: Gang, per: str) -> int:
    if per == "territories":
        return len(gang.territories)
    if per == "fighters":
        return len(_fighters(walk, gang))
    if per == "kills":
        return sum(sum(o.caused.values()) for o in walk.seq.outcome.crew(gang.id))
    return 1


def apply_effect(walk: Walk, pid: str, gang: Gang, fighter: Fighter | None,
                 effect: Mapping[str, Any], why: str, times: int = 1) -> None:
    """One effect for a gang (or one of its fighters): a gain or loss, or a status."""
    who = f"{fighter.name}" if fighter is not None else gang.name
    if "status" in effect:
        if fighter is None:
            return
        walk.change(kind="status", gang=gang.id, fighter=fighter.id, status=str(effect["status"]),
                    why=why)
        walk.say(f"  {who}: {effect['status']}")
        return
    what = str(effect["gain"])
    if "dice" in effect:
        r = walk.roll(pid, f"{who}: {what} ({effect['dice']})", str(effect["dice"]), gang=gang.id)
        amount, how = r.total, f" ({r})"
    else:
        amount, how = int(effect["amount"]), ""
    amount *= times
    if amount == 0:
        walk.say(f"  {who}: no {what}{how}")
        return
    if what == "xp":
        if fighter is None:
            return
        walk.change(kind="xp", gang=gang.id, fighter=fighter.id, amount=amount, why=why)
    else:
        walk.change(kind=what, gang=gang.id, amount=amount, why=why)
    label = {"credits": "credits", "reputation": "Reputation", "xp": "XP"}[what]
    walk.say(f"  {who}: {amount:+d} {label}{how}")


@resolver("roll_table")
def roll_table(walk: Walk) -> None:
    step = walk.step
    table = get_table(walk.seq.ruleset_id, str(step["table"]), walk.seq.data)
    why = str(step.get("why") or step.get("title", ""))
    rolled = False
    for gang in walk.gangs:
        targets: list[Fighter | None] = (list(_fighters(walk, gang))
                                         if step.get("each", "fighter") == "fighter" else [None])
        for f in targets:
            key = f"{gang.id}/{f.id}" if f is not None else gang.id
            name = f.name if f is not None else gang.name
            r = walk.roll(f"{step['id']}:{key}", f"{table['title']} for {name}", table["dice"],
                          gang=gang.id, table=str(step["table"]))
            rolled = True
            row = lookup(table, r.total)
            if row is None:
                walk.say(f"{name}: {table['title']} {r.total}: no result on the table")
                continue
            words = row_text(row) if "text" in row else str(row.get("name", ""))
            walk.say(f"{name}: {table['title']} {r.total} ({range_text(row)}): {words}")
            for i, effect in enumerate(row.get("effects", [])):
                apply_effect(walk, f"{step['id']}:{key}:fx{i}", gang, f, effect, why)
    if not rolled:
        walk.say("Nobody this step rolls for.")


@resolver("gain")
def gain(walk: Walk) -> None:
    step = walk.step
    why = str(step.get("why") or step.get("title", ""))
    effect: dict[str, Any] = {"gain": step["what"]}
    effect.update({"dice": step["dice"]} if "dice" in step else {"amount": step.get("amount", 0)})
    for gang in walk.gangs:
        times = _times(walk, gang, str(step.get("per", "")))
        if step.get("each", "gang") == "fighter":
            for f in _fighters(walk, gang):
                apply_effect(walk, f"{step['id']}:{gang.id}/{f.id}", gang, f, effect, why, times)
        else:
            apply_effect(walk, f"{step['id']}:{gang.id}", gang, None, effect, why, times)


@resolver("set_status")
def set_status(walk: Walk) -> None:
    step = walk.step
    why = str(step.get("why") or step.get("title", ""))
    changed = False
    for gang in walk.gangs:
        for f in _fighters(walk, gang):
            if str(f.status) == step["status"]:
                continue
            apply_effect(walk, f"{step['id']}:{gang.id}/{f.id}", gang, f,
                         {"status": step["status"]}, why)
            changed = True
    if not changed:
        walk.say("No fighter's status changes.")
