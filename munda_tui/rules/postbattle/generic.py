"""Generic post-battle resolvers a pack's ruleset composes (issue 35.3, docs/packs.md).

A step of a club's own sequence needs no Python: its ``resolver`` is one of these and
its keys say what it does. Each asks through the walk (the app's roll or real dice, a
choice, a number), records each change with ``walk.change`` and says it, so the step
keeps the sequence's guarantees (resume, undo, one commit, the report).

``roll_table``   roll the ruleset's ``table`` once for each fighter matching ``filter``
                 (``each = "fighter"``, the default) or once per gang (``each = "gang"``);
                 the row's ``effects`` apply (to that fighter, or that gang)
``gain``         each gang (or each fighter matching ``filter``, ``each = "fighter"``)
                 gains ``amount`` (negative: loses) or ``dice`` of ``what`` (credits,
                 reputation, xp, or a custom counter's id), times ``per`` (territories,
                 fighters, kills) if given
``set_status``   each fighter matching ``filter`` goes to ``status`` (``active``: cleared)
``choose``       each gang (or each fighter matching ``filter``) picks from ``options``
                 (each ``{ name, text, effects }``) at most ``pick`` (default 1) and at
                 least ``at_least`` (default 0), each option at most once; the picked
                 options' ``effects`` apply
``item``         each gang's Stash (or each fighter matching ``filter``, ``each =
                 "fighter"``) gets the item ``add`` (worth ``cost`` credits, default 0) or
                 loses one item named ``remove``

A filter (``[steps.filter]``) keeps a fighter when every key it gives holds: ``status``
(a list of statuses: active, recovery, captured, critical, dead, retired), ``role`` (a
list of roles: Leader, Ganger, ...), ``in_battle`` (true: the fighter fought in this
battle), ``end_state`` (a list of how the fighter ended it: standing, seriously_injured,
out_of_action, fled, not_deployed).

An effect (a table row's or an option's ``effects``) is one of: ``{ gain = "credits",
amount = 10 }`` (or ``dice = "D3"``; ``gain`` one of credits, reputation, xp or a custom
counter's id), ``{ status = "recovery" }``, ``{ add_item = "Name", cost = 10 }`` (``to =
"stash"``: to the Stash even for a fighter), ``{ remove_item = "Name" }`` (``from =
"stash"`` likewise). An effect for a gang (no fighter) gives and takes items in the Stash.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Mapping

from ..core.model import Fighter, FighterStatus, FighterType, Gang
from ..core.outcome import EndState
from .changes import AddItem, Counter, Credits, RemoveItem, Reputation, Status, UNSET, Xp
from .core import Option, Walk, get_table, lookup, range_text, resolver, row_text

#: the generic resolvers (a step naming one may say its keys)
GENERIC = ("roll_table", "gain", "set_status", "choose", "item")
#: what a generic step may say besides id, title, resolver and text
STEP_KEYS = ("table", "each", "filter", "what", "amount", "dice", "per", "why", "status",
             "options", "pick", "at_least", "add", "remove", "cost")
#: what a filter may say
FILTER_KEYS = ("status", "role", "in_battle", "end_state")
GAINS = ("credits", "reputation", "xp")
PERS = ("territories", "fighters", "kills")
#: what an option of a ``choose`` step may say
OPTION_KEYS = ("name", "text", "effects")
#: what each kind of effect may say
EFFECT_KEYS = {"gain": ("gain", "amount", "dice"), "status": ("status",),
               "add_item": ("add_item", "cost", "to"), "remove_item": ("remove_item", "from")}


class GenericStepError(ValueError):
    """A generic step or effect that cannot be read (the pack check says it first)."""


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_step(step: Mapping[str, Any], counters: Collection[str] = ()) -> tuple[str, str] | None:
    """What is wrong with a generic step's keys (key, message), None when it reads.
    ``counters``: the custom counters' ids the packs in force declare."""
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
                               {"gain": step.get("what"), "amount": step.get("amount")},
                               counters)
        if problem is not None:
            return ("what" if problem[0] == "gain" else problem[0]), problem[1]
        if "per" in step and step["per"] not in PERS:
            return "per", f"must be one of {', '.join(PERS)}"
    if resolver_name == "set_status" and step.get("status") not in [s.value for s in FighterStatus]:
        return "status", f"must be one of {', '.join(s.value for s in FighterStatus)}"
    if resolver_name == "choose":
        return _check_choose(step, counters)
    if resolver_name == "item":
        if ("add" in step) == ("remove" in step):
            return "add", 'say the item to give (add = "Name") or to take (remove = "Name")'
        key = "add" if "add" in step else "remove"
        if not isinstance(step[key], str) or not step[key].strip():
            return key, "must be the item's name (text)"
        if "cost" in step and (key == "remove" or not _whole(step["cost"]) or step["cost"] < 0):
            return "cost", ("an item taken has no cost" if key == "remove"
                            else "must be a whole number of credits, 0 or more")
    return None


def _check_choose(step: Mapping[str, Any], counters: Collection[str]) -> tuple[str, str] | None:
    options = step.get("options")
    if not isinstance(options, list) or not options:
        return "options", "must be a list of options: { name = \"...\", effects = [...] }"
    names: set[str] = set()
    for i, option in enumerate(options):
        if not isinstance(option, Mapping):
            return f"options.{i}", "an option is a table: { name = \"...\", effects = [...] }"
        for key in option:
            if key not in OPTION_KEYS:
                from ..core.wording import did_you_mean

                return f"options.{i}.{key}", f"unknown key {key!r}{did_you_mean(key, OPTION_KEYS)}"
        name = option.get("name")
        if not isinstance(name, str) or not name.strip():
            return f"options.{i}.name", "the option's name (text) is missing"
        if name in names:
            return f"options.{i}.name", f"{name!r} is the name of another option"
        names.add(name)
        if "text" in option and not isinstance(option["text"], str):
            return f"options.{i}.text", "must be text"
        effects = option.get("effects", [])
        if not isinstance(effects, list):
            return f"options.{i}.effects", "must be a list of effects"
        for e, effect in enumerate(effects):
            wrong = check_effect(effect, counters)
            if wrong is not None:
                return ".".join([f"options.{i}.effects.{e}", *([wrong[0]] if wrong[0] else [])]), wrong[1]
    pick, least = step.get("pick", 1), step.get("at_least", 0)
    if not _whole(pick) or not 1 <= pick <= len(options):
        return "pick", f"must be a whole number from 1 to {len(options)} (the options)"
    if not _whole(least) or not 0 <= least <= pick:
        return "at_least", f"must be a whole number from 0 to pick ({pick})"
    return None


def check_effect(effect: Any, counters: Collection[str] = ()) -> tuple[str, str] | None:
    """What is wrong with an effect (key, message), None when it reads. ``counters``: the
    custom counters' ids the packs in force declare."""
    if not isinstance(effect, Mapping):
        return "", ("an effect is a table: { gain = \"credits\", amount = 10 }, { status = ... }, "
                    "{ add_item = ... } or { remove_item = ... }")
    kind = next((k for k in EFFECT_KEYS if k in effect), "gain")
    for key in effect:
        if key not in EFFECT_KEYS[kind]:
            return key, f"not a key of a {kind} effect ({', '.join(EFFECT_KEYS[kind])})"
    if kind == "status":
        if effect["status"] not in [s.value for s in FighterStatus]:
            return "status", f"must be one of {', '.join(s.value for s in FighterStatus)}"
        return None
    if kind in ("add_item", "remove_item"):
        if not isinstance(effect[kind], str) or not effect[kind].strip():
            return kind, "must be the item's name (text)"
        if "cost" in effect and (not _whole(effect["cost"]) or effect["cost"] < 0):
            return "cost", "must be a whole number of credits, 0 or more"
        where = "to" if kind == "add_item" else "from"
        if where in effect and effect[where] not in ("stash", "fighter"):
            return where, 'must be "stash" or "fighter"'
        return None
    gains = (*GAINS, *counters)
    if effect.get("gain") not in gains:
        return "gain", f"must be one of {', '.join(gains)} (a custom counter: its id, declared " \
            "in a pack's counters.toml)"
    if "dice" in effect:
        from ..core.dice import DiceError, parse

        try:
            parse(str(effect["dice"]))
        except DiceError as error:
            return "dice", str(error)
        return None
    amount = effect.get("amount")
    if not _whole(amount):
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
    """One effect for a gang (or one of its fighters): a gain or loss (credits,
    Reputation, XP, a custom counter), a status, an item given or taken."""
    who = f"{fighter.name}" if fighter is not None else gang.name
    if "status" in effect:
        if fighter is None:
            return
        walk.change(Status(gang=gang.id, fighter=fighter.id, status=str(effect["status"]),
                    why=why))
        walk.say(f"  {who}: {effect['status']}")
        return
    if "add_item" in effect or "remove_item" in effect:
        _item_effect(walk, gang, fighter, effect, why)
        return
    what = str(effect["gain"])
    if "dice" in effect:
        r = walk.roll(pid, f"{who}: {what} ({effect['dice']})", str(effect["dice"]), gang=gang.id)
        amount, how = r.total, f" ({r})"
    else:
        amount, how = int(effect["amount"]), ""
    amount *= times
    if what not in GAINS:  # a club's own counter (the gang's)
        from ..campaign.counters import clamped, counter

        c = counter(what, walk.seq.data)
        name = c.name if c is not None else what
        wanted, amount = amount, clamped(gang, what, amount, walk.seq.data)
        held = f" (it goes no lower than {c.min})" if c is not None and amount != wanted else ""
        if amount == 0:
            walk.say(f"  {gang.name}: no {name}{how}{held}")
            return
        walk.change(Counter(gang=gang.id, counter=what, name=name, amount=amount, why=why))
        walk.say(f"  {gang.name}: {amount:+d} {name}{how}{held}"
                 + (f" (for {fighter.name})" if fighter is not None else ""))
        return
    if amount == 0:
        walk.say(f"  {who}: no {what}{how}")
        return
    if what == "xp":
        if fighter is None:
            return
        walk.change(Xp(gang=gang.id, fighter=fighter.id, amount=amount, why=why))
    else:
        walk.change((Credits if what == "credits" else Reputation)(gang=gang.id, amount=amount, why=why))
    label = {"credits": "credits", "reputation": "Reputation", "xp": "XP"}[what]
    walk.say(f"  {who}: {amount:+d} {label}{how}")


def _item_effect(walk: Walk, gang: Gang, fighter: Fighter | None, effect: Mapping[str, Any],
                 why: str) -> None:
    """An item given to (or one taken from) the fighter, or the gang's Stash."""
    adding = "add_item" in effect
    name = str(effect["add_item" if adding else "remove_item"]).strip()
    if effect.get("to" if adding else "from") == "stash":
        fighter = None
    holder = fighter.name if fighter is not None else f"{gang.name}'s Stash"
    holder_id = fighter.id if fighter is not None else UNSET
    if adding:
        cost = int(effect.get("cost", 0))
        walk.change(AddItem(gang=gang.id, fighter=holder_id, item={"name": name, "cost": cost}, why=why))
        walk.say(f"  {holder}: + {name}" + (f" ({cost} credits)" if cost else ""))
        return
    items = fighter.equipment if fighter is not None else gang.stash
    if not any(e.name == name for e in items):
        walk.say(f"  {holder}: no {name} to take")
        return
    walk.change(RemoveItem(gang=gang.id, fighter=holder_id, item=name, count=1, why=why))
    walk.say(f"  {holder}: - {name}")


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


@resolver("choose")
def choose(walk: Walk) -> None:
    """Each gang (or each fighter matching the filter) picks up to ``pick`` of the
    step's options (at least ``at_least``), each at most once; their effects apply."""
    step = walk.step
    why = str(step.get("why") or step.get("title", ""))
    options = list(step["options"])
    pick, least = int(step.get("pick", 1)), int(step.get("at_least", 0))
    asked = False
    for gang in walk.gangs:
        targets: list[Fighter | None] = (list(_fighters(walk, gang))
                                         if step.get("each", "gang") == "fighter" else [None])
        for f in targets:
            key = f"{gang.id}/{f.id}" if f is not None else gang.id
            name = f.name if f is not None else gang.name
            how = (f"pick {pick}" if least == pick else f"pick up to {pick}"
                   if not least else f"pick {least} to {pick}")
            picked = walk.multi(
                f"{step['id']}:{key}", f"{name}: {step.get('title', 'choose')} ({how})",
                [Option(f"o{i}", str(o["name"]), detail=str(o.get("text", "")))
                 for i, o in enumerate(options)],
                gang=gang.id, minimum=least, maximum=pick,
                note="Each option at most once.")
            asked = True
            chosen = [options[int(p[1:])] for p in picked]
            walk.say(f"{name}: " + (", ".join(str(o["name"]) for o in chosen) or "nothing picked"))
            for o in chosen:
                for i, effect in enumerate(o.get("effects", [])):
                    apply_effect(walk, f"{step['id']}:{key}:{options.index(o)}:fx{i}", gang, f,
                                 effect, why)
    if not asked:
        walk.say("Nobody this step asks.")


@resolver("item")
def item(walk: Walk) -> None:
    """Each gang's Stash (or each fighter matching the filter) gets the item ``add`` or
    loses one item named ``remove``."""
    step = walk.step
    why = str(step.get("why") or step.get("title", ""))
    effect: dict[str, Any] = ({"add_item": step["add"], "cost": step.get("cost", 0)}
                              if "add" in step else {"remove_item": step["remove"]})
    done = False
    for gang in walk.gangs:
        if step.get("each", "gang") == "fighter":
            for f in _fighters(walk, gang):
                _item_effect(walk, gang, f, effect, why)
                done = True
        else:
            _item_effect(walk, gang, None, effect, why)
            done = True
    if not done:
        walk.say("No fighter this step gives to or takes from.")
