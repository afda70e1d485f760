"""The Post-Battle Sequence: steps as data, a resumable draft, changes applied once.

A sequence (``data/postbattle/<ruleset>.toml``) is an ordered list of steps,
each naming a *resolver* (:mod:`.postbattle_steps`, :mod:`.postbattle_actions`)
that walks the step for both gangs. Walking asks questions (:class:`Prompt`:
a roll, a choice, a number, a name); the answers live in the *draft*, a plain
dict stored as the ``postbattle`` table of the battle file. The sequence is
always the draft replayed from the campaign as it was before the battle's
post-battle sequence, so it can be resumed after a crash at any point and
"back" never loses anything.

Walking a step records *changes* (plain dicts, :func:`apply_change`) to a
working copy of the campaign. Nothing touches the real gangs until
:func:`commit`, which applies the whole list in one campaign save, exactly once:

1. the changes, the report and the standings are written into the draft
   (``draft["commit"]``) and the battle file saved;
2. the campaign is changed and its :class:`BattleSummary` for the battle set
   to status ``"done"`` in one atomic campaign save: the single commit point;
3. the report is written to the battle file's ``report`` table and the draft
   marked ``"done"``.

A crash before 2 leaves the campaign untouched (commit again: the same stored
changes apply); a crash after 2 is recognised by the summary's status
``"done"`` and only step 3 is redone.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Callable

from .data import load_data
from .dice import DiceError, Roll, check_faces, parse, parse_faces, roll as roll_dice, roll_faces
from .model import (
    BattleSummary,
    Campaign,
    Equipment,
    Fighter,
    FighterStatus,
    FighterType,
    Gang,
    LastingInjury,
    Standing,
    Territory,
    TerritoryKind,
)
from .outcome import BattleOutcome
from . import career as roster_rules

RULESETS: tuple[str, ...] = ("gang-war", "turf-war-2017")


# --- rule data -----------------------------------------------------------------------


def load_ruleset(ruleset: str) -> dict[str, Any]:
    if ruleset not in RULESETS:
        raise KeyError(f"unknown post-battle ruleset {ruleset!r}")
    return load_data(f"postbattle/{ruleset}.toml")


def get_table(ruleset: str, table_id: str) -> dict[str, Any]:
    """A table of a ruleset; ``"gang-war:show-of-force"`` borrows another ruleset's."""
    if ":" in table_id:
        ruleset, table_id = table_id.split(":", 1)
    return load_ruleset(ruleset)["tables"][table_id]


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


def injury_tables() -> dict[str, Any]:
    return load_data("injuries.toml")["tables"]


def injury_table(name: str) -> dict[str, Any]:
    tables = injury_tables()
    return tables.get(name) or tables["rulebook-2018"]


def get_action(ruleset: str, action_id: str) -> dict[str, Any]:
    for a in load_ruleset(ruleset).get("actions", []):
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
class Option:
    id: str
    label: str
    enabled: bool = True
    reason: str = ""  # why it is greyed out
    detail: str = ""  # rules text shown while the option is highlighted


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

    def validate(self, value: Any) -> Any:
        """Check an answer; return it normalised. Raises ValueError with a message."""
        if self.kind == "roll":
            faces = value.get("faces") if isinstance(value, dict) else value
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
            try:
                n = int(str(value).strip())
            except ValueError as exc:
                raise ValueError(f"{value!r} is not a whole number") from exc
            if self.minimum is not None and n < self.minimum:
                raise ValueError(f"{n} is below {self.minimum}")
            if self.maximum is not None and n > self.maximum:
                raise ValueError(f"{n} is above {self.maximum}")
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


def _find_item(items: list[Equipment], name: str) -> int:
    for i, it in enumerate(items):
        if it.name == name:
            return i
    raise KeyError(name)


def _equipment(data: dict[str, Any]) -> Equipment:
    known = {"name", "cost", "qty", "consumable", "unwieldy", "weapon", "rarity", "spent"}
    return Equipment(**{k: v for k, v in data.items() if k in known})


def _fighter_from(data: dict[str, Any]) -> Fighter:
    d = dict(data)
    d["type"] = FighterType(d.get("type", FighterType.GANGER))
    d["equipment"] = [_equipment(e) for e in d.get("equipment", [])]
    known = set(Fighter.__dataclass_fields__)
    return Fighter(**{k: v for k, v in d.items() if k in known})


def apply_change(campaign: Campaign, ch: dict[str, Any]) -> None:
    """Apply one change (plain dict) to a campaign, in place."""
    kind = ch["kind"]
    gang = campaign.gang(ch["gang"])
    fighter = gang.fighter(ch["fighter"]) if ch.get("fighter") else None
    if kind == "credits":
        gang.credits += ch["amount"]
    elif kind == "reputation":
        gang.reputation += ch["amount"]
        if ch.get("floor", True) and gang.reputation < 0:
            gang.reputation = 0
    elif kind == "xp":
        assert fighter
        fighter.xp += ch["amount"]
    elif kind == "status":
        assert fighter
        roster_rules.set_status(fighter, FighterStatus(ch["status"]), ch.get("why", ""),
                                ch.get("battle") or 0, ch.get("captured_by", ""))
    elif kind == "injury":
        assert fighter
        roster_rules.add_injury(fighter, ch)
    elif kind == "to_stash":  # every item (or the named ones) from a fighter to the Stash
        assert fighter
        names = ch.get("items")
        keep, move = [], []
        for it in fighter.equipment:
            (move if names is None or it.name in names else keep).append(it)
        fighter.equipment = keep
        gang.stash.extend(move)
    elif kind == "remove_item":  # from a fighter (``fighter``) or the Stash
        items = fighter.equipment if fighter else gang.stash
        del items[_find_item(items, ch["item"])]
    elif kind == "mark_spent":
        items = fighter.equipment if fighter else gang.stash
        items[_find_item(items, ch["item"])].spent = True
    elif kind == "seize":  # every item of a (captive) fighter to another gang's Stash
        assert fighter
        campaign.gang(ch["to_gang"]).stash.extend(fighter.equipment)
        fighter.equipment = []
    elif kind == "clear_equipment":
        assert fighter
        fighter.equipment = []
    elif kind == "add_item":  # to the Stash
        gang.stash.append(_equipment(ch["item"]))
    elif kind == "give_item":  # Stash -> fighter
        assert fighter
        it = gang.stash.pop(_find_item(gang.stash, ch["item"]))
        fighter.equipment.append(it)
    elif kind == "take_item":  # another gang's Stash -> this gang's Stash
        other = campaign.gang(ch["from_gang"])
        gang.stash.append(other.stash.pop(_find_item(other.stash, ch["item"])))
    elif kind == "territory_add":
        gang.territories.append(
            Territory(name=ch["name"], kind=TerritoryKind(ch.get("territory_kind", "turf")),
                      cannot_be_lost=ch.get("cannot_be_lost", False))
        )
    elif kind == "territory_remove":
        for i, t in enumerate(gang.territories):
            if t.name == ch["name"]:
                del gang.territories[i]
                break
        else:
            raise KeyError(ch["name"])
    elif kind == "territory_size":
        gang.territory_size = max(0, gang.territory_size + ch["amount"])
    elif kind == "bounty":
        assert fighter
        fighter.bounty = max(0, fighter.bounty + ch["amount"])
    elif kind == "hire":
        gang.fighters.append(_fighter_from(ch["data"]))
    elif kind == "advance":
        assert fighter
        fighter.xp -= ch.get("xp_cost", 0)
        fighter.cost += ch.get("cost", 0)
        fighter.advancements += 1
        if ch.get("skill"):
            fighter.skills.append(ch["name"])
        fighter.notes = (fighter.notes + "\n" if fighter.notes else "") + f"Advancement: {ch['name']}"
    elif kind == "fighter_type":
        assert fighter
        fighter.type = FighterType(ch["type"])
    elif kind == "tactics_add":
        gang.tactics.append(ch["name"])
    elif kind == "tactics_remove":
        gang.tactics.remove(ch["name"])
    elif kind == "note":
        pass
    else:
        raise ValueError(f"unknown change {kind!r}")


def apply_changes(campaign: Campaign, changes: list[dict[str, Any]]) -> None:
    for ch in changes:
        apply_change(campaign, ch)


# --- the draft ----------------------------------------------------------------------


def new_draft(ruleset: str, outcome: dict[str, Any] | None = None) -> dict[str, Any]:
    """A fresh draft. ``outcome``: plain BattleOutcome data entered by hand, if any."""
    load_ruleset(ruleset)
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
    changes: list[dict[str, Any]] = field(default_factory=list)
    pending: Prompt | None = None
    group: str = ""


HAND_ENTRY_STEP = {
    "id": "battle-outcome",
    "title": "Battle Outcome",
    "resolver": "battle_outcome",
    "text": "No battle record from the tracker: enter what happened. Pick who fought, who was "
    "Seriously Injured, Out of Action or Captured when the battle ended, and who won.",
}


class Walk:
    """The context a resolver walks a step in."""

    def __init__(self, seq: "PostBattle", step: dict[str, Any], state: StepState) -> None:
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
               maximum: int | None = None, default: int | None = None, note: str = "") -> int:
        return self.ask(Prompt(pid, "number", label, gang=gang, minimum=minimum, maximum=maximum,
                               default=default, note=note))

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
    def change(self, **ch: Any) -> None:
        ch.setdefault("step", self.step["id"])
        if ch["kind"] in ("status", "injury"):
            ch.setdefault("battle", self.seq.number)
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
            return self.campaign.gang(gang_id).fighter(fighter_id).name
        except KeyError:
            return fighter_id


Resolver = Callable[[Walk], None]
RESOLVERS: dict[str, Resolver] = {}
#: resolver -> function(seq, step) listing the entries a player may add (``a``)
ENTRY_KINDS: dict[str, Callable[["PostBattle"], list[Option]]] = {}


def resolver(name: str) -> Callable[[Resolver], Resolver]:
    def deco(fn: Resolver) -> Resolver:
        RESOLVERS[name] = fn
        return fn

    return deco


def entry_kinds(name: str) -> Callable[[Callable[["PostBattle"], list[Option]]], Callable]:
    def deco(fn: Callable[["PostBattle"], list[Option]]) -> Callable:
        ENTRY_KINDS[name] = fn
        return fn

    return deco


class PostBattle:
    """The sequence replayed from a draft. Rebuilt after every answer."""

    def __init__(self, campaign: Campaign, number: int, draft: dict[str, Any],
                 outcome: BattleOutcome | None = None, *, setup: dict[str, Any] | None = None) -> None:
        # make sure resolvers are registered
        from . import postbattle_actions, postbattle_steps  # noqa: F401

        self.base = campaign
        self.number = number
        self.draft = draft
        self.ruleset_id: str = draft["ruleset"]
        self.ruleset = load_ruleset(self.ruleset_id)
        self.tracker_outcome = outcome
        self.setup = setup or {}
        steps = list(self.ruleset["steps"])
        if outcome is None:
            steps.insert(0, HAND_ENTRY_STEP)
        self.steps: list[dict[str, Any]] = steps
        if not draft.get("step"):
            draft["step"] = steps[0]["id"]
        self.replay()

    # state -------------------------------------------------------------------------
    @property
    def answers(self) -> dict[str, Any]:
        return self.draft["answers"]

    def step_index(self, step_id: str) -> int:
        for i, s in enumerate(self.steps):
            if s["id"] == step_id:
                return i
        return 0

    def replay(self) -> None:
        self.work = copy.deepcopy(self.base)
        self.outcome: BattleOutcome = self.tracker_outcome or BattleOutcome(
            battle=self.number, gangs=[g.id for g in self.base.gangs[:2]])
        self.facts: dict[str, Any] = {}
        self.states = [StepState(s["id"], s["title"], group=s.get("group", "")) for s in self.steps]
        self.walked: dict[str, list[str]] = {}
        self.prompts: dict[str, Prompt] = {}
        target = self.step_index(self.draft["step"])
        self.current = len(self.steps) - 1
        i = 0
        while i < len(self.steps):
            step, st = self.steps[i], self.states[i]
            walk = Walk(self, step, st)
            try:
                RESOLVERS[step["resolver"]](walk)
            except Pending as p:
                st.pending = p.prompt
            except Skip as s:
                st.status, st.reason = "skipped", s.reason
            self.walked[step["id"]] = walk.answered
            if st.status == "skipped":
                i += 1
                continue
            if st.pending is not None or i >= target:
                st.status = "current"
                self.current = i
                break
            st.status = "done"
            i += 1
        for st in self.states[self.current + 1:]:
            st.status, st.reason = "todo", ""
            st.lines, st.changes, st.pending = [], [], None
        self.draft["step"] = self.steps[self.current]["id"]

    @property
    def step(self) -> dict[str, Any]:
        return self.steps[self.current]

    @property
    def state(self) -> StepState:
        return self.states[self.current]

    @property
    def pending(self) -> Prompt | None:
        return self.state.pending

    @property
    def at_end(self) -> bool:
        return self.current == len(self.steps) - 1

    @property
    def done(self) -> bool:
        return self.draft.get("status") == "done"

    def changes(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for st in self.states[: self.current + 1]:
            out.extend(st.changes)
        return out

    # input -------------------------------------------------------------------------
    def _next_seq(self) -> int:
        self._touch()
        self.draft["seq"] = int(self.draft.get("seq", 0)) + 1
        return self.draft["seq"]

    def _touch(self) -> None:
        """Any change to the draft voids a commit prepared (but not applied) before it."""
        if self.draft.get("status") == "committing":
            self.draft.pop("commit", None)
            self.draft["status"] = "draft"

    def answer(self, value: Any) -> None:
        p = self.pending
        if p is None:
            raise PostBattleError("nothing to answer in this step")
        try:
            value = p.validate(value)
        except ValueError as exc:
            raise PostBattleError(str(exc)) from exc
        record: dict[str, Any] = {"value": value, "n": self._next_seq()}
        history = (self.answers.get(p.id) or {}).get("history")
        if history:  # a stale answer asked again keeps the record of its re-rolls
            record["history"] = history
        self.answers[p.id] = record
        self.replay()

    def roll_for_me(self, rng: Any) -> Roll:
        p = self.pending
        if p is None or p.kind != "roll":
            raise PostBattleError("no roll to make")
        r = roll_dice(p.dice, rng)
        self.answer({"faces": list(r.faces), "entered": False})
        return r

    def enter_faces(self, text: str) -> None:
        p = self.pending
        if p is None or p.kind != "roll":
            raise PostBattleError("no roll to make")
        try:
            faces = parse_faces(p.dice, text)
        except DiceError as exc:
            raise PostBattleError(str(exc)) from exc
        self.answer({"faces": faces, "entered": True})

    def entry_options(self) -> list[Option]:
        fn = ENTRY_KINDS.get(self.step["resolver"])
        return fn(self) if fn else []

    def add_entry(self, option_id: str) -> None:
        """Add an entry (``option_id`` from :meth:`entry_options`: ``"kind|gang|arg"``)."""
        if self.pending is not None:
            raise PostBattleError("answer the question first")
        opts = {o.id: o for o in self.entry_options()}
        o = opts.get(option_id)
        if o is None:
            raise PostBattleError("nothing to add here")
        if not o.enabled:
            raise PostBattleError(o.reason or "not available")
        kind, gang, arg = (option_id.split("|") + ["", ""])[:3]
        n = self._next_seq()
        entries = self.draft["entries"].setdefault(self.step["id"], [])
        entries.append({"id": f"e{n}", "kind": kind, "gang": gang, "arg": arg, "n": n})
        self.replay()

    def last_roll(self) -> Prompt | None:
        """The roll answered last in the current step: what a re-roll or correction changes."""
        best: tuple[int, Prompt] | None = None
        for pid in self.walked.get(self.step["id"], []):
            a, p = self.answers.get(pid), self.prompts.get(pid)
            if a is None or p is None or p.kind != "roll":
                continue
            if best is None or int(a.get("n", 0)) > best[0]:
                best = (int(a.get("n", 0)), p)
        return best[1] if best else None

    def reroll(self, value: Any, reason: str) -> None:
        """Replace the last roll of the step, keeping the old one and why in the record.

        A roll once made is never changed silently: the answer keeps its history
        (``[{"value", "reason", "label", "dice"}]``) and the report shows every
        change ("re-rolled: 1 → 6, reason")."""
        p = self.last_roll()
        if p is None:
            raise PostBattleError("no roll made in this step to re-roll or correct")
        reason = " ".join(str(reason).split())
        if not reason:
            raise PostBattleError("say why the roll changes (kept in the report)")
        try:
            value = p.validate(value)
        except ValueError as exc:
            raise PostBattleError(str(exc)) from exc
        old = self.answers[p.id]
        history = list(old.get("history", [])) + [
            {"value": old["value"], "reason": reason, "label": p.label, "dice": p.dice}]
        self.answers[p.id] = {"value": value, "n": self._next_seq(), "history": history}
        self.replay()

    def rerolls(self) -> list[str]:
        """Every re-rolled or corrected roll, in the order made ("label: re-rolled: 1 → 6, why")."""
        out: list[tuple[int, str]] = []
        for pid, a in self.answers.items():
            history = a.get("history") or []
            values = [h["value"] for h in history] + [a["value"]]
            for i, h in enumerate(history):
                try:
                    old = roll_faces(h["dice"], values[i]["faces"]).total
                    new = roll_faces(h["dice"], values[i + 1]["faces"]).total
                except (DiceError, KeyError, TypeError):
                    continue
                how = "real dice" if values[i + 1].get("entered", True) else "rolled by munda-tui"
                out.append((int(a.get("n", 0)),
                            f"{h['label']}: re-rolled: {old} → {new}, {h['reason']} ({how})"))
        return [text for _, text in sorted(out, key=lambda t: t[0])]

    def undo(self) -> bool:
        """Take back the last answer or entry of the current step.

        A roll is never taken back (that would be a silent re-roll): :meth:`reroll`
        changes it on the record."""
        step_id = self.step["id"]
        candidates: list[tuple[int, str, str]] = []
        for pid in self.walked.get(step_id, []):
            a = self.answers.get(pid)
            if a is not None:
                candidates.append((int(a.get("n", 0)), "answer", pid))
        if self.pending is not None and self.pending.id in self.answers:
            candidates.append((int(self.answers[self.pending.id].get("n", 0)), "answer",
                               self.pending.id))
        for e in self.draft["entries"].get(step_id, []):
            candidates.append((int(e.get("n", 0)), "entry", e["id"]))
        if not candidates:
            return False
        _, what, key = max(candidates)
        in_effect = self.pending is None or key != self.pending.id  # not a stale answer
        if what == "answer" and in_effect and key in self.prompts and \
                self.prompts[key].kind == "roll":
            raise PostBattleError("a roll is kept: R re-rolls or corrects it, and the report "
                                  "shows both")
        self._touch()
        if what == "answer":
            del self.answers[key]
        else:
            entries = self.draft["entries"][step_id]
            self.draft["entries"][step_id] = [e for e in entries if e["id"] != key]
        self.replay()
        return True

    def advance(self) -> None:
        if self.pending is not None:
            raise PostBattleError("answer the question first")
        if self.at_end:
            raise PostBattleError("this is the last step: commit the sequence")
        self._touch()
        self.draft["step"] = self.steps[self.current + 1]["id"]
        self.replay()

    def back(self) -> bool:
        i = self.current - 1
        while i >= 0 and self.states[i].status == "skipped":
            i -= 1
        if i < 0:
            return False
        self._touch()
        self.draft["step"] = self.steps[i]["id"]
        self.replay()
        return True

    # the end -----------------------------------------------------------------------
    def standings(self) -> dict[str, Standing]:
        return {
            g.id: Standing(rating=g.rating, reputation=g.reputation, credits=g.credits)
            for g in (self.work.gang(gid) for gid in self.outcome.gangs)
        }

    def report(self) -> str:
        from .postbattle_report import build_report

        return build_report(self)


# --- commit: apply once -------------------------------------------------------------


def summary_of(campaign: Campaign, number: int) -> BattleSummary | None:
    for b in campaign.battles:
        if b.number == number:
            return b
    return None


def prepare_commit(seq: PostBattle) -> dict[str, Any]:
    """Record in the draft what the commit will apply (save the battle file after this)."""
    if not seq.at_end or seq.pending is not None:
        raise PostBattleError("finish every step first")
    if "commit" not in seq.draft:
        seq.draft["commit"] = {
            "token": f"battle-{seq.number}",
            "changes": copy.deepcopy(seq.changes()),
            "report": seq.report(),
            "standings": {k: vars(v) for k, v in seq.standings().items()},
            "winner": seq.outcome.winner,
            "scenario": seq.outcome.scenario,
            "gangs": list(seq.outcome.gangs),
        }
        seq.draft["status"] = "committing"
    return seq.draft["commit"]


def is_applied(campaign: Campaign, number: int) -> bool:
    s = summary_of(campaign, number)
    return s is not None and s.status == "done"


def applied_campaign(campaign: Campaign, number: int, commit: dict[str, Any],
                     date: str = "") -> Campaign:
    """A copy of ``campaign`` with the commit applied and battle ``number`` marked done.

    The caller saves it (the single commit point). Raises if already applied."""
    if is_applied(campaign, number):
        raise PostBattleError(f"battle {number} is already applied")
    new = copy.deepcopy(campaign)
    apply_changes(new, commit["changes"])
    s = summary_of(new, number)
    if s is None:
        s = BattleSummary(number=number, date=date)
        new.battles.append(s)
    s.status = "done"
    s.winner = commit.get("winner", s.winner)
    if commit.get("scenario"):
        s.scenario = commit["scenario"]
    if commit.get("gangs"):
        s.gangs = list(commit["gangs"])
    s.standings = {k: Standing(**v) for k, v in commit["standings"].items()}
    return new


def finish_battle_data(data: dict[str, Any]) -> dict[str, Any]:
    """The battle file after the commit: the report table and the draft marked done."""
    draft = data["postbattle"]
    commit = draft["commit"]
    data["report"] = {
        "markdown": commit["report"],
        "winner": commit.get("winner", ""),
        "standings": commit["standings"],
        "applied": commit["token"],
    }
    draft["status"] = "done"
    draft["applied"] = commit["token"]
    return data


def commit(handle: Any, number: int, seq: PostBattle | None = None, date: str = "") -> str:
    """Apply the post-battle sequence of battle ``number`` exactly once; return the report.

    ``handle`` is a saves CampaignHandle (``campaign``, ``save()``, ``load_battle``,
    ``save_battle``). Safe to call again after a crash at any point."""
    data = handle.load_battle(number)
    if seq is not None:
        data["postbattle"] = seq.draft
        prepare_commit(seq)
        handle.save_battle(number, data)
    draft = data.get("postbattle") or {}
    if draft.get("status") == "done":
        return data.get("report", {}).get("markdown", "")
    if "commit" not in draft:
        raise PostBattleError("the sequence has not been committed")
    if not is_applied(handle.campaign, number):
        live = handle.campaign
        before = copy.deepcopy(live.__dict__)
        # applied to a copy first (nothing half-applied if a change fails), then moved into
        # the live object so every screen holding the campaign sees the new rosters
        live.__dict__.update(applied_campaign(live, number, draft["commit"], date).__dict__)
        try:
            handle.save()  # the single commit point
        except BaseException:
            live.__dict__.clear()
            live.__dict__.update(before)
            raise
    handle.save_battle(number, finish_battle_data(data))
    return draft["commit"]["report"]


# --- export -------------------------------------------------------------------------


def export_section() -> dict[str, Any]:
    rulesets = []
    tables: dict[str, Any] = {}
    for rid in RULESETS:
        rs = load_ruleset(rid)
        rulesets.append({
            "id": rid,
            "title": rs["title"],
            "source": rs["source"],
            "steps": [{"id": s["id"], "title": s["title"]} for s in rs["steps"]],
            "actions": [{"id": a["id"], "title": a["title"]} for a in rs.get("actions", [])],
        })
        for tid, t in rs.get("tables", {}).items():
            tables[f"{rid}:{tid}"] = t
    for tid, t in injury_tables().items():
        tables[f"lasting-injuries:{tid}"] = t
    return {"rulesets": rulesets, "tables": tables}


def table_lines(seq: PostBattle, prompt: Prompt) -> list[str]:
    """The rows of the table a roll is read on, for the screen ("range  outcome")."""
    if not prompt.table:
        return []
    tables = injury_tables()
    if prompt.table in tables:  # 12 to 18 rows: one wrapped paragraph
        t = tables[prompt.table]
        return [" · ".join(f"{range_text(r)} {r['name']}" + (f" ({r['effect']})" if r.get("effect")
                                                            else "") for r in t["rows"])]
    try:
        t = get_table(seq.ruleset_id, prompt.table)
    except KeyError:
        return []
    out = [f"{t['title']} ({t.get('dice', '')}"
           + (" + fighters" if t.get("add") == "fighters" else "") + f") — {t.get('source', '')}"]
    if t.get("intro"):
        out.append(t["intro"])
    for r in t.get("rows", []):
        out.append(f"{range_text(r)}  {r['text']}")
    return out


# the resolvers register themselves (kept in their own modules for size)
from . import postbattle_actions as _actions  # noqa: E402,F401
from . import postbattle_steps as _steps  # noqa: E402,F401
