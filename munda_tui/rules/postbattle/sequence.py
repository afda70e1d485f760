"""The Post-Battle Sequence: steps as data, a resumable draft, changes applied once.

A sequence (``data/postbattle/<ruleset>.toml``) is an ordered list of steps,
each naming a *resolver* (:mod:`.postbattle_steps`, :mod:`.postbattle_actions`)
that walks the step for both gangs. Walking asks questions (:class:`Prompt`:
a roll, a choice, a number, a name); the answers live in the *draft*, a plain
dict stored as the ``postbattle`` table of the battle file. The sequence is
always what the draft replayed from the campaign as it was before the battle's
post-battle sequence gives, so it can be resumed after a crash at any point and
"back" never loses anything; but it is replayed only when it is made (opened or
resumed). After that each input is applied step by step: the sequence keeps the
state before each step it walked (a mark), an answer, a roll, an entry or an undo
walks its own step again from the state before it, a step on walks the next step on
the gangs as they are, and a step back takes the state kept after that step
(tests/rules/postbattle/test_marks.py checks each against the full replay).

Walking a step records *changes* (plain dicts, :func:`apply_change`) to a
working copy of the campaign. Nothing touches the real gangs until the commit
(:func:`munda_tui.rules.stages.commit.apply_postbattle`, the stage host's), which applies the
whole list in one campaign save, exactly once: :func:`prepared_draft` is the draft
that records it, :func:`applied_campaign` the campaign's new values it commits.
"""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import fields
from typing import Any, Callable

from ..core.dice import DiceError, Roll, parse_faces, roll as roll_dice, roll_faces
from ..core.model import Campaign, Gang, Standing
from ..core.outcome import BattleOutcome
from ..prebattle.setup import BattleSetup
from ..campaign.report_doc import Report, render_markdown
from ..core.data import RuleData
from ..core.rulesets import rulesets
from ..core.stage import move_summary, summary_of
from ..core.status import BattleStatus

from .changes import Change, change_from_data, change_to_data
from . import actions as _actions  # noqa: F401  (registers its resolvers)
from . import generic as _generic  # noqa: F401  (registers the generic resolvers a pack composes)
from . import steps as _steps  # noqa: F401  (registers its resolvers)
from .core import (  # noqa: F401  (the names resolvers and screens use, from here)
    CHECKS,
    ENTRY_KINDS,
    HAND_ENTRY_STEP,
    Option,
    Pending,
    PostBattleError,
    Prompt,
    RESOLVERS,
    Resolver,
    Skip,
    StepState,
    Walk,
    _equipment,
    _fighter_from,
    _find_item,
    apply_change,
    apply_changes,
    entry_kinds,
    get_action,
    get_table,
    injury_table,
    injury_tables,
    load_ruleset,
    lookup,
    new_draft,
    range_text,
    row_text,
    resolver,
    step_notes,
    action_detail,
)

class _Work(Campaign):
    """The campaign a sequence works on: a gang is copied the first time it is looked up
    (``gang()``, which every change goes through), the others and the battle history
    (which the sequence only reads) are the live campaign's own. A league's campaign
    (50 gangs of 30, 2,000 battles) copied whole took 110 ms per answer; the two gangs
    of a battle take 2."""

    _owned: set[int]
    _where: dict[str, int]  # gang id -> its index in gangs (checked before use)
    # id of a live gang -> (that gang, its pickle): shared by the copies made for one
    # sequence, whose replays (one per answer or step) copy the same two gangs again
    _pickles: dict[int, tuple[Gang, bytes]]

    def gang(self, gang_id: str) -> Gang:
        i = self._where.get(gang_id, -1)  # (a league's 50 gangs: ~140 look-ups per answer)
        if not (0 <= i < len(self.gangs) and self.gangs[i].id == gang_id):
            i = next((n for n, g in enumerate(self.gangs) if g.id == gang_id), -1)
            if i < 0:
                raise KeyError(f"no gang {gang_id!r} in {self.name}")
        g = self.gangs[i]
        if id(g) not in self._owned:
            # a deep copy; pickle's C code makes it in a quarter of deepcopy's time. The
            # live gang's pickle is made once per sequence (the live campaign does not
            # change while its post-battle sequence is walked; a gang that did would be
            # another object, or fail the check below and be pickled again)
            known = self._pickles.get(id(g))
            if known is None or known[0] is not g:
                known = (g, pickle.dumps(g, pickle.HIGHEST_PROTOCOL))
                self._pickles[id(g)] = known
            g = pickle.loads(known[1])
            self.gangs[i] = g
            self._owned.add(id(g))
        return g


def _copy_state(st: StepState) -> StepState:
    return StepState(st.id, st.title, st.status, st.reason, list(st.lines), list(st.changes),
                     st.pending, st.group)


class _Mark:
    """The sequence as it stood before one step was walked: the gangs it had changed
    (pickled), the battle's outcome and facts as the steps before left them, their
    states, the questions they asked and the answers they took; and the draft's inputs
    they read (``inputs``), by which a replay knows the mark is still true."""

    __slots__ = ("inputs", "gangs", "outcome", "facts", "walked", "prompts", "states")

    def __init__(self) -> None:
        self.inputs: tuple[Any, ...] = ()
        self.gangs: dict[int, bytes] = {}
        self.outcome = b""
        self.facts = b""
        self.walked: dict[str, list[str]] = {}
        self.prompts: dict[str, Prompt] = {}
        self.states: list[StepState] = []

    @classmethod
    def take(cls, seq: "PostBattle", i: int, done: int | None = None) -> "_Mark":
        """The mark before step ``i``, of the sequence as it is; ``done``: the step shown
        now (current), which the mark records as done (the sequence stood on it when the
        player stepped on from it)."""
        work = seq.work
        assert isinstance(work, _Work)
        mark = cls()
        mark.walked = {k: list(v) for k, v in seq.walked.items()}
        mark.inputs = seq._inputs(i, mark.walked)
        mark.gangs = {n: pickle.dumps(g, pickle.HIGHEST_PROTOCOL)
                      for n, g in enumerate(work.gangs) if id(g) in work._owned}
        mark.outcome = pickle.dumps(seq.outcome, pickle.HIGHEST_PROTOCOL)
        mark.facts = pickle.dumps(seq.facts, pickle.HIGHEST_PROTOCOL)
        mark.prompts = dict(seq.prompts)
        mark.states = [_copy_state(st) for st in seq.states[:i]]
        if done is not None:
            mark.states[done].status = "done"
        return mark

    def work(self, base: Campaign, pickles: dict[int, tuple[Gang, bytes]]) -> "_Work":
        work = working_copy(base, pickles)
        for n, data in self.gangs.items():
            g = pickle.loads(data)
            work.gangs[n] = g
            work._owned.add(id(g))
        return work


def working_copy(campaign: Campaign,
                 pickles: dict[int, tuple[Gang, bytes]] | None = None) -> _Work:
    """A copy of ``campaign`` to apply a sequence's changes to (see :class:`_Work`);
    ``pickles``: the live gangs' pickles, kept by the caller between copies."""
    work = _Work.__new__(_Work)
    for f in fields(Campaign):  # (the same values, shared: copied on a change, see _Work)
        setattr(work, f.name, getattr(campaign, f.name))
    work.gangs = list(campaign.gangs)
    work._owned = set()
    work._pickles = {} if pickles is None else pickles
    work._where = {}
    for i, g in enumerate(work.gangs):
        work._where.setdefault(g.id, i)  # the first, as a scan finds it
    return work


def _no_kind(name: str) -> str | None:
    return None


class PostBattle:
    """The sequence made from a draft (replayed once), then kept up to date input by
    input (see the module's text)."""

    work: Campaign
    outcome: BattleOutcome
    facts: dict[str, Any]
    walked: dict[str, list[str]]
    prompts: dict[str, Prompt]

    def __init__(self, campaign: Campaign, number: int, draft: dict[str, Any],
                 outcome: BattleOutcome | None = None, *,
                 setup: BattleSetup | dict[str, Any] | None = None,
                 item_kinds: Callable[[str], str | None] | None = None,
                 data: RuleData | None = None) -> None:
        self.base = campaign
        #: the rule data in force (the package's, then the packs'): the ruleset, its tables
        self.data: RuleData | None = data
        # an item's kind as the campaign's catalogue (and packs) lists it, None if unknown:
        # the kind an item entering the gang is offered with (the player confirms it)
        self.item_kinds: Callable[[str], str | None] = item_kinds or _no_kind
        self.number = number
        self.draft = draft
        self.ruleset_id: str = draft["ruleset"]
        self.ruleset = load_ruleset(self.ruleset_id, data)
        self.tracker_outcome = outcome
        # the set-up as plain data, as the resolvers read it
        self.setup: dict[str, Any] = (setup.to_data() if isinstance(setup, BattleSetup)
                                      else setup or {})
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
        """Walk the steps up to the draft's step (or the first with a question), from the
        last mark still true for the draft instead of from the first step (see
        :class:`_Mark`): an answer, a step on or back walks the steps from the one it
        changes, not the whole sequence again. What it ends with is what walking every
        step from the start ends with (tests/rules/postbattle/test_marks.py checks that
        after every kind of input)."""
        if not hasattr(self, "_pickles"):
            self._pickles: dict[int, tuple[Gang, bytes]] = {}
            self._marks: list[_Mark | None] = [None] * len(self.steps)
        target = self.step_index(self.draft["step"])
        start = self._last_true_mark(target)
        mark = self._marks[start] if start else None
        if mark is None:
            start = 0
            self.work = working_copy(self.base, self._pickles)
            self.outcome = self.tracker_outcome or BattleOutcome(
                battle=self.number, gangs=[g.id for g in self.base.gangs[:2]])
            self.facts = {}
            self.walked = {}
            self.prompts = {}
            self.states = [StepState(s["id"], s["title"], group=s.get("group", ""))
                           for s in self.steps]
        else:
            self._restore(mark, start)
        self._walk(start, target, marked=mark is not None)

    def _walk(self, start: int, target: int, marked: bool) -> None:
        """Walk the steps from ``start`` (the sequence as it stands before it; ``marked``:
        with its mark kept already) to ``target``, or to the first with a question,
        keeping a mark before each step walked."""
        self.current = len(self.steps) - 1
        i = start
        while i < len(self.steps):
            step, st = self.steps[i], self.states[i]
            if i > start or not marked:
                self._marks[i] = _Mark.take(self, i) if i else None
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

    def _inputs(self, upto: int, walked: dict[str, list[str]]) -> tuple[Any, ...]:
        """What the steps before ``upto`` read of the draft, as the walk that ``walked``
        records read it: each answer it took (with its re-rolls and order) and each
        step's entries. Equal inputs, equal walks (the rest a step reads, the campaign
        before the battle, the set-up and the rules, is fixed for a sequence)."""
        answers, entries = self.answers, self.draft.get("entries") or {}
        return tuple(
            (s["id"], tuple((a, repr(answers.get(a))) for a in walked.get(s["id"], ())),
             repr(entries.get(s["id"])))
            for s in self.steps[:upto])

    def _mark_true(self, i: int) -> bool:
        """Whether there is a mark before step ``i`` that the draft still agrees with."""
        mark = self._marks[i] if 0 < i < len(self._marks) else None
        return mark is not None and mark.inputs == self._inputs(i, mark.walked)

    def _last_true_mark(self, target: int) -> int:
        """The furthest step at or before ``target`` whose mark the draft still agrees
        with (0: none, walk from the start)."""
        for i in range(min(target, len(self._marks) - 1), 0, -1):
            if self._mark_true(i):
                return i
        return 0

    def _restore(self, mark: "_Mark", i: int) -> None:
        """The sequence as it stood before step ``i`` (its ``mark``), the steps from
        ``i`` on to do."""
        self.work = mark.work(self.base, self._pickles)
        self.outcome = pickle.loads(mark.outcome)
        self.facts = pickle.loads(mark.facts)
        self.walked = dict(mark.walked)
        self.prompts = dict(mark.prompts)
        self.states = [_copy_state(st) for st in mark.states] + [
            StepState(s["id"], s["title"], group=s.get("group", "")) for s in self.steps[i:]]

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

    def changes(self) -> list[Change]:
        out: list[Change] = []
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

    def roll_for_me(self, rng: random.Random) -> Roll:
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

    def can_undo(self) -> bool:
        """Whether :meth:`undo` would take something back now (not a roll: it is kept)."""
        target = self._undo_target()
        return target is not None and not self._kept_roll(*target)

    def _undo_target(self) -> tuple[str, str] | None:
        """What :meth:`undo` takes back: ("answer", prompt id) or ("entry", entry id)."""
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
            return None
        _, what, key = max(candidates)
        return what, key

    def _kept_roll(self, what: str, key: str) -> bool:
        in_effect = self.pending is None or key != self.pending.id  # not a stale answer
        return what == "answer" and in_effect and key in self.prompts and \
            self.prompts[key].kind == "roll"

    def undo(self) -> bool:
        """Take back the last answer or entry of the current step.

        A roll is never taken back (that would be a silent re-roll): :meth:`reroll`
        changes it on the record."""
        step_id = self.step["id"]
        target = self._undo_target()
        if target is None:
            return False
        what, key = target
        if self._kept_roll(what, key):
            raise PostBattleError("a roll is kept: {key:post_battle.reroll} re-rolls or corrects it, "
                                  "and the report shows both")  # (the screen names the key)
        self._touch()
        if what == "answer":
            del self.answers[key]
        else:
            entries = self.draft["entries"][step_id]
            self.draft["entries"][step_id] = [e for e in entries if e["id"] != key]
        self.replay()
        return True

    def advance(self) -> None:
        """The next step, walked on the sequence as it is (the gangs after this step): the
        state now is kept as the mark before the next step, and only the steps after this
        one are walked (not this one again)."""
        if self.pending is not None:
            raise PostBattleError("answer the question first")
        if self.at_end:
            raise PostBattleError("this is the last step: commit the sequence")
        self._touch()
        after = self.current + 1
        if not self._mark_true(after):
            self._marks[after] = _Mark.take(self, after, done=self.current)
        self.states[self.current].status = "done"
        self.draft["step"] = self.steps[after]["id"]
        self._walk(after, after, marked=True)

    def back(self) -> bool:
        """The step before (skipped steps passed over), as it stood when it was left: the
        mark kept after it (before the step that followed it) is taken back as it is,
        nothing walked; with no such mark still true, walked from the last true one."""
        i = self.current - 1
        while i >= 0 and self.states[i].status == "skipped":
            i -= 1
        if i < 0:
            return False
        self._touch()
        self.draft["step"] = self.steps[i]["id"]
        if self._mark_true(i + 1):
            mark = self._marks[i + 1]
            assert mark is not None
            self._restore(mark, i + 1)
            self.states[i].status = "current"
            self.current = i
        else:
            self.replay()
        return True

    # the end -----------------------------------------------------------------------
    def standings(self) -> dict[str, Standing]:
        return {
            g.id: Standing(rating=g.rating, reputation=g.reputation, credits=g.credits)
            for g in (self.work.gang(gid) for gid in self.outcome.gangs)
        }

    def report_doc(self) -> Report:
        """The battle report, as blocks (kept in the battle file)."""
        from .report import build_report

        return build_report(self)

    def report(self) -> str:
        """The battle report in Markdown (the screen's)."""
        return render_markdown(self.report_doc())


# --- commit: apply once -------------------------------------------------------------




def commit_table(seq: PostBattle) -> dict[str, Any]:
    """What the commit will apply (the ``commit`` table: the changes, the report, the
    standings): the draft's own when it was prepared, else built anew (the sequence and
    its draft are not changed)."""
    if not seq.at_end or seq.pending is not None:
        raise PostBattleError("finish every step first")
    prepared = seq.draft.get("commit")
    if isinstance(prepared, dict):
        return prepared
    return {
        "token": f"battle-{seq.number}",
        "changes": [change_to_data(ch) for ch in seq.changes()],
        "report": seq.report_doc().to_data(),
        "standings": {k: vars(v) for k, v in seq.standings().items()},
        "winner": seq.outcome.winner,
        "scenario": seq.outcome.scenario,
        "gangs": list(seq.outcome.gangs),
    }


def prepared_draft(seq: PostBattle) -> dict[str, Any]:
    """New values: the sequence's draft with what the commit will apply recorded in it
    (status ``committing``), for the battle file to save before the campaign's commit;
    the draft itself when it was prepared already (``seq.draft`` is never changed)."""
    if "commit" in seq.draft:
        commit_table(seq)  # (every step finished: checked)
        return seq.draft
    return {**seq.draft, "commit": commit_table(seq), "status": "committing"}


def is_applied(campaign: Campaign, number: int) -> bool:
    s = summary_of(campaign, number)
    return s is not None and s.status == BattleStatus.DONE


def applied_campaign(campaign: Campaign, number: int, commit: dict[str, Any],
                     date: str = "") -> Campaign:
    """A copy of ``campaign`` with the commit applied and battle ``number`` marked done.

    The caller saves it (the single commit point). Raises if already applied."""
    if is_applied(campaign, number):
        raise PostBattleError(f"battle {number} is already applied")
    new = copy.deepcopy(campaign)
    apply_changes(new, [change_from_data(ch) for ch in commit["changes"]])
    decided: dict[str, Any] = {
        "scenario": commit.get("scenario") or "",
        "standings": {k: Standing(**v) for k, v in commit["standings"].items()},
    }
    if "winner" in commit:
        decided["winner"] = commit["winner"]
    if commit.get("gangs"):
        decided["gangs"] = list(commit["gangs"])
    move_summary(new, number, BattleStatus.DONE, date=date, **decided)  # (new values: a copy)
    return new


def commit_report(report: dict[str, Any], number: int | None = None) -> str:
    """A saved report in Markdown: its blocks (a draft committed before reports were
    kept as blocks holds the Markdown text itself); ``number``: the battle's number now,
    which its title says (a league's sync may have renumbered it: issue 30.4)."""
    from ..campaign.report import numbered, numbered_markdown

    saved = report.get("blocks", report.get("markdown", ""))
    if isinstance(saved, str):
        return saved if number is None else numbered_markdown(saved, number)
    doc = Report.from_data(saved)
    return render_markdown(doc if number is None else numbered(doc, number))


# --- export -------------------------------------------------------------------------


def export_section(data: RuleData | None = None) -> dict[str, Any]:
    listed = []
    tables: dict[str, Any] = {}
    for rid, rs in rulesets(data).items():
        listed.append({
            "id": rid,
            "title": rs["title"],
            "source": rs["source"],
            "steps": [{"id": s["id"], "title": s["title"]} for s in rs["steps"]],
            "actions": [{"id": a["id"], "title": a["title"]} for a in rs.get("actions", [])],
        })
        for tid, t in rs.get("tables", {}).items():
            tables[f"{rid}:{tid}"] = t
    for tid, t in injury_tables(data).items():
        tables[f"lasting-injuries:{tid}"] = t
    return {"rulesets": listed, "tables": tables}


def table_lines(seq: PostBattle, prompt: Prompt) -> list[str]:
    """The rows of the table a roll is read on, for the screen ("range  outcome")."""
    if not prompt.table:
        return []
    tables = injury_tables(seq.data)
    if prompt.table in tables:  # 12 to 18 rows: one wrapped paragraph
        t = tables[prompt.table]
        return [" · ".join(f"{range_text(r)} {r['name']}" + (f" ({r['effect']})" if r.get("effect")
                                                            else "") for r in t["rows"])]
    try:
        t = get_table(seq.ruleset_id, prompt.table, seq.data)
    except KeyError:
        return []
    # a table borrowed from another ruleset comes without its roll's additions (Turf War
    # 2017's Show of Force is "a D6 on the Show of Force chart")
    own = ":" not in prompt.table or prompt.table.split(":", 1)[0] == seq.ruleset_id
    out = [f"{t['title']} ({t.get('dice', '')}"
           + (" + fighters" if own and t.get("add") == "fighters" else "")
           + f") — {t.get('source', '')}"]
    if t.get("intro"):
        out.append(t["intro"])
    for r in t.get("rows", []):
        out.append(f"{range_text(r)}  {row_text(r)}")
    return out

