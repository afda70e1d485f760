"""The pieces a post-battle resolver works with: the rule tables, the questions
(:class:`Prompt`), the changes (:func:`apply_change`), a step's walk (:class:`Walk`)
and the registry of resolvers. :mod:`.postbattle_steps` and :mod:`.postbattle_actions`
build on this; :mod:`.postbattle` (the sequence) imports them all, never the other way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Protocol

import msgspec

# (the options of a question and the Lasting Injury tables live below the stages, in
# rules.core: the Sub-plot effects ask and read them too; the resolvers find them here)
from ..core.choice import Option
from ..core.data import RuleData, injury_table, injury_tables
from ..core.rulesets import load_ruleset
from ..core.dice import DiceError, Roll, check_faces, parse, roll_faces
from ..core.model import Campaign, Gang
from ..campaign import career as roster_rules
from ..core.readings import note as reading_note

if TYPE_CHECKING:
    from ..core.outcome import BattleOutcome

# --- rule data -----------------------------------------------------------------------

def get_table(ruleset: str, table_id: str, data: RuleData | None = None) -> dict[str, Any]:
    """A table of a ruleset; ``"gang-war:show-of-force"`` borrows another ruleset's.
    ``data``: the rule data in force (a pack's ruleset)."""
    if ":" in table_id:
        ruleset, table_id = table_id.split(":", 1)
    return load_ruleset(ruleset, data)["tables"][table_id]  # type: ignore[no-any-return]


def lookup(table: dict[str, Any], total: int) -> dict[str, Any] | None:
    """The row whose range holds ``total`` (``None`` when the table has no such row)."""
    for row in table.get("rows", []):
        if row["min"] <= total <= row["max"]:
            return row
    return None


def range_text(row: dict[str, Any]) -> str:
    lo, hi = row["min"], row["max"]
    if hi >= 99:
        return f"{lo}+"
    if lo <= -99:
        return f"{hi} or less"
    return str(lo) if lo == hi else f"{lo}-{hi}"


def row_text(row: dict[str, Any]) -> str:
    """A table row's text as shown: the seed's words, or munda-tui's own (``app = true``:
    a row the seed does not print, such as "2-6" of Turf War's Special Territories)
    marked as munda-tui's."""
    return f"munda-tui: {row['text']}" if row.get("app") else row["text"]


def get_action(ruleset: str, action_id: str, data: RuleData | None = None) -> dict[str, Any]:
    for a in load_ruleset(ruleset, data).get("actions", []):
        if a["id"] == action_id:
            return a
    raise KeyError(action_id)


# --- prompts ------------------------------------------------------------------------

#: Named checks a text prompt's answer must pass (``Prompt.check``): raise
#: ValueError with the message to show.
CHECKS: dict[str, Callable[[str], Any]] = {
    "profile_effect": lambda text: roster_rules.effect_changes(text),
}



@dataclass
class Prompt:
    """One question the wizard asks. ``kind``: roll | choice | multi | number | text."""

    id: str
    kind: str
    label: str
    gang: str = ""
    dice: str = ""  # roll: the expression
    table: str = ""  # roll: the table the total is read on (for the screen)
    options: list[Option] = field(default_factory=list)  # choice / multi
    minimum: int | None = None  # number; multi: fewest picks
    maximum: int | None = None
    default: Any = None
    note: str = ""  # shown under the question
    check: str = ""  # text: a named check of CHECKS the answer must pass
    #: number: what the maximum is, said when an answer goes over it
    #: ("Ana has 2 XP" gives "Ana has 2 XP; 5 is above it")
    above: str = ""

    def validate(self, value: Any) -> Any:
        """Check an answer; return it normalised. Raises ValueError with a message."""
        if self.kind == "roll":
            faces = value.get("faces") if isinstance(value, dict) else value
            if not isinstance(faces, (list, tuple)):
                raise ValueError(f"{self.label}: give the dice faces")
            expr = parse(self.dice)
            try:
                check_faces(expr, list(faces))
            except DiceError as exc:
                raise ValueError(str(exc)) from exc
            entered = bool(value.get("entered", True)) if isinstance(value, dict) else True
            return {"faces": [int(f) for f in faces], "entered": entered}
        if self.kind == "choice":
            for o in self.options:
                if o.id == value:
                    if not o.enabled:
                        raise ValueError(f"{o.label}: {o.reason or 'not available'}")
                    return value
            raise ValueError(f"{value!r} is not one of the choices")
        if self.kind == "multi":
            ids = {o.id: o for o in self.options}
            picked = list(dict.fromkeys(value or []))
            for v in picked:
                if v not in ids:
                    raise ValueError(f"{v!r} is not one of the choices")
                if not ids[v].enabled:
                    raise ValueError(f"{ids[v].label}: {ids[v].reason or 'not available'}")
            if self.minimum is not None and len(picked) < self.minimum:
                raise ValueError(f"pick at least {self.minimum}")
            if self.maximum is not None and len(picked) > self.maximum:
                raise ValueError(f"pick at most {self.maximum}")
            return picked
        if self.kind == "number":
            from ..core.limits import ENTRY_MAX, LimitError, parse_int

            try:
                n = parse_int(value)  # ValueError: not a whole number, or far too long
            except LimitError:  # a whole number too long to save: say the prompt's range
                lo = self.minimum if self.minimum is not None else -ENTRY_MAX
                hi = self.maximum if self.maximum is not None else ENTRY_MAX
                digits = len(str(value).strip().lstrip("+-"))
                raise ValueError(f"a {digits}-digit number is out of range ({lo} to {hi})") from None
            if self.minimum is not None and n < self.minimum:
                raise ValueError(f"{n} is below {self.minimum}")
            if self.maximum is not None and n > self.maximum:
                raise ValueError(f"{self.above}; {n} is above it" if self.above
                                 else f"{n} is above {self.maximum}")
            if abs(n) > ENTRY_MAX:
                raise ValueError(f"{n} is out of range (at most {ENTRY_MAX} either way)")
            return n
        if self.kind == "text":
            text = str(value).strip()
            if not text:
                raise ValueError("type something")
            if self.check:
                CHECKS[self.check](text)  # ValueError with the message to show
            return text
        raise ValueError(f"unknown prompt kind {self.kind}")


class Pending(Exception):
    def __init__(self, prompt: Prompt) -> None:
        super().__init__(prompt.id)
        self.prompt = prompt


class Skip(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class PostBattleError(ValueError):
    """An action the sequence does not allow now (with a message for the player)."""


# --- changes ------------------------------------------------------------------------


# One type per change kind, applying it and saying it: rules/postbattle/changes.py.
from .changes import Change, Injury, Reputation, Status, _equipment, _fighter_from, _find_item, apply_change  # noqa: E402,F401
from .changes import UNSET  # noqa: E402


def apply_changes(campaign: Campaign, changes: list[Change]) -> None:
    for ch in changes:
        apply_change(campaign, ch)


# --- the draft ----------------------------------------------------------------------


def new_draft(ruleset: str, outcome: dict[str, Any] | None = None,
              data: RuleData | None = None) -> dict[str, Any]:
    """A fresh draft. ``outcome``: plain BattleOutcome data entered by hand, if any."""
    load_ruleset(ruleset, data)
    d: dict[str, Any] = {"ruleset": ruleset, "step": "", "answers": {}, "entries": {},
                         "seq": 0, "status": "draft"}
    if outcome is not None:
        d["outcome"] = outcome
    return d


@dataclass
class StepState:
    id: str
    title: str
    status: str = "todo"  # done | current | todo | skipped
    reason: str = ""  # why skipped
    lines: list[str] = field(default_factory=list)
    changes: list[Change] = field(default_factory=list)
    pending: Prompt | None = None
    group: str = ""



class Sequence(Protocol):
    """What a step's resolver, the report and the Sub-plot effects read of the sequence
    (``postbattle.PostBattle``). A protocol here, not an import of PostBattle: PostBattle
    imports the resolvers, and an import back (even for annotations) made a circle."""

    base: Campaign
    number: int
    draft: dict[str, Any]
    ruleset_id: str
    ruleset: dict[str, Any]
    data: RuleData | None  # the rule data in force (the packs')
    setup: dict[str, Any]
    work: Campaign
    outcome: BattleOutcome
    facts: dict[str, Any]
    prompts: dict[str, Prompt]
    item_kinds: Callable[[str], str | None]  # an item's kind as the catalogue lists it

    @property
    def answers(self) -> dict[str, Any]: ...

    @property
    def step(self) -> dict[str, Any]: ...

    def changes(self) -> list[Change]: ...

    def rerolls(self) -> list[str]: ...

    def report(self) -> str: ...


HAND_ENTRY_STEP = {
    "id": "battle-outcome",
    "title": "Battle Outcome",
    "resolver": "battle_outcome",
    "text": "",  # no seed text: the step is munda-tui's own, its words shown as such
    "note": "No battle record from the tracker: enter what happened. Pick who fought, who was "
    "Seriously Injured, Out of Action or Captured when the battle ended, and who won.",
}


class Walk:
    """The context a resolver walks a step in."""

    def __init__(self, seq: Sequence, step: dict[str, Any], state: StepState) -> None:
        self.seq = seq
        self.step = step
        self.state = state
        self.campaign = seq.work
        self.answered: list[str] = []

    # questions
    def ask(self, prompt: Prompt) -> Any:
        key = prompt.id
        self.seq.prompts[key] = prompt
        ans = self.seq.answers.get(key)
        if ans is None:
            raise Pending(prompt)
        try:
            value = prompt.validate(ans["value"])
        except ValueError:
            # an answer made stale by a change earlier in the sequence: ask again
            raise Pending(prompt) from None
        self.answered.append(key)
        return value

    def roll(self, pid: str, label: str, dice: str, gang: str = "", table: str = "",
             note: str = "") -> Roll:
        v = self.ask(Prompt(pid, "roll", label, gang=gang, dice=dice, table=table, note=note))
        r = roll_faces(dice, v["faces"])
        if not v.get("entered", True):
            r = Roll(r.expression, r.faces, r.total, entered=False)
        return r

    def choose(self, pid: str, label: str, options: list[Option], gang: str = "",
               default: str | None = None, note: str = "") -> str:
        if default is None:
            default = next((o.id for o in options if o.enabled), None)
        return self.ask(Prompt(pid, "choice", label, gang=gang, options=options,
                               default=default, note=note))

    def number(self, pid: str, label: str, gang: str = "", minimum: int | None = 0,
               maximum: int | None = None, default: int | None = None, note: str = "",
               above: str = "") -> int:
        return self.ask(Prompt(pid, "number", label, gang=gang, minimum=minimum, maximum=maximum,
                               default=default, note=note, above=above))

    def text(self, pid: str, label: str, gang: str = "", default: str | None = None,
             note: str = "", check: str = "") -> str:
        return self.ask(Prompt(pid, "text", label, gang=gang, default=default, note=note,
                               check=check))

    def multi(self, pid: str, label: str, options: list[Option], gang: str = "",
              default: list[str] | None = None, minimum: int | None = None,
              maximum: int | None = None, note: str = "") -> list[str]:
        return self.ask(Prompt(pid, "multi", label, gang=gang, options=options,
                               default=list(default or []), minimum=minimum, maximum=maximum,
                               note=note))

    # results
    def change(self, ch: Change) -> None:
        """Apply a change to the working campaign and keep it (with the step that made it,
        the battle of a status or injury, the ruleset's Reputation floor)."""
        if ch.step is UNSET:
            ch = msgspec.structs.replace(ch, step=str(self.step["id"]))
        if isinstance(ch, (Status, Injury)) and ch.battle is UNSET:
            ch = msgspec.structs.replace(ch, battle=self.seq.number)
        if isinstance(ch, Reputation) and ch.floor is UNSET:  # one floor rule for every step (readings: turf-reputation-floor)
            ch = msgspec.structs.replace(ch, floor=bool(self.seq.ruleset.get("reputation_floor", True)))
        apply_change(self.campaign, ch)
        self.state.changes.append(ch)

    def say(self, text: str) -> None:
        self.state.lines.append(text)

    def skip(self, reason: str) -> None:
        raise Skip(reason)

    # helpers
    @property
    def gangs(self) -> list[Gang]:
        return [self.campaign.gang(g) for g in self.seq.outcome.gangs]

    def opponent(self, gang_id: str) -> str:
        others = [g for g in self.seq.outcome.gangs if g != gang_id]
        return others[0] if others else ""

    def entries(self) -> list[dict[str, Any]]:
        return self.seq.draft["entries"].get(self.step["id"], [])

    def fname(self, gang_id: str, fighter_id: str) -> str:
        try:
            return self.campaign.gang(gang_id).member(fighter_id).name  # (or fallen)
        except KeyError:
            return fighter_id


Resolver = Callable[[Walk], None]
RESOLVERS: dict[str, Resolver] = {}
#: resolver -> function(seq, step) listing the entries a player may add (``a``)
ENTRY_KINDS: dict[str, Callable[[Sequence], list[Option]]] = {}


def resolver(name: str) -> Callable[[Resolver], Resolver]:
    def deco(fn: Resolver) -> Resolver:
        RESOLVERS[name] = fn
        return fn

    return deco


def entry_kinds(name: str) -> Callable[[Callable[[Sequence], list[Option]]], Callable]:
    def deco(fn: Callable[[Sequence], list[Option]]) -> Callable:
        ENTRY_KINDS[name] = fn
        return fn

    return deco


def step_notes(step: dict[str, Any]) -> list[str]:
    """What munda-tui adds under a step's seed text: the borrowed table, a note, and
    the readings (``data/readings.toml``) that apply to the step."""
    out = [step[k] for k in ("borrowed", "note") if step.get(k)]
    out += [reading_note(rid) for rid in step.get("readings", [])]
    return out


def action_detail(action: dict[str, Any]) -> str:
    """An action's seed text with what munda-tui borrowed and the readings that apply."""
    extra = ([f"munda-tui: {action['borrowed']}"] if action.get("borrowed") else []) + [
        reading_note(rid) for rid in action.get("readings", [])]  # "munda-tui reading: ..."
    return action["text"] + "".join(f"\n\n{e}" for e in extra)
