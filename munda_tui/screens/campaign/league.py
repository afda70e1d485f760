"""A league's sync from the campaign screen: the wait while git works, and the
Arbitrator's choice, gang by gang, when the same gang changed on this laptop and in
the league (``saves.league``: nothing is written until every one is chosen); the
league menu's texts (what is not yet shared, the history: ``saves.league_info``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll

from munda_tui.screens.common.dialogs import DIALOG_CSS, DialogScreen, ListDialog
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import keys_text
from munda_tui.widgets.plain import Label, OptionList, Static

from munda_tui.saves.league_packs import PackQuestion

if TYPE_CHECKING:
    from munda_tui.rules.history.fold import Question
    from munda_tui.saves.league import GangConflict

#: how a choice reads on the list
CHOICE_WORDS = {"ours": "this laptop's", "theirs": "the league's",
                "replay-ours": "the league's, with this laptop's battle re-applied",
                "replay-theirs": "this laptop's, with the league's battle re-applied"}


class SyncingScreen(DialogScreen[None]):
    """Shown while a sync runs (the campaign is git's for a moment). Git never asks
    anything here (``saves.git``: a remote that wants a password fails at once, said);
    Escape stops the sync (its git killed: the campaign as before, or synced), as
    ctrl+q does on its way out."""

    BINDINGS = [Binding("escape", "stop", "Stop", id="league.stop")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="syncing"):
            yield Label("Syncing with the league…", id="dialog-title")
            yield Static("Recording this laptop's changes, fetching the others', merging.",
                         classes="dialog-hint", id="syncing-hint")
        yield Footer()

    def action_stop(self) -> None:
        from munda_tui.saves.git import cancel_all

        cancel_all()
        self.query_one("#syncing-hint", Static).update("Stopping (the campaign stays as it was, or synced)…")


class LeagueTextScreen(DialogScreen[None]):
    """A league's status or history from the league menu: lines to read (scrolled with
    the arrows); Escape or Enter closes."""

    CSS_PATH = [DIALOG_CSS, "league.tcss"]
    BINDINGS = [Binding("escape,enter", "close", "Close", id="league_text.close")]

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self.title_text = title
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="league-text"):
            yield Label(self.title_text, id="dialog-title")
            with VerticalScroll(id="league-text-scroll"):
                yield Static("\n".join(self.lines), id="league-text", markup=False)
            yield Static(keys_text(self, "{key:league_text.close} to close"), classes="dialog-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#league-text-scroll").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class ConflictScreen(ListDialog["dict[str, str] | None"]):
    """Per gang changed on both sides: what each side changed, and the Arbitrator's
    pick. Enter syncs with the picks once every gang has one; Escape leaves everything
    as it is (nothing was written)."""

    HELP_TITLE = "League conflict"
    HELP = ("The same gang changed on this laptop and in the league since they last agreed. "
            "For each, take this laptop's version ({key:league.ours}), the league's "
            "({key:league.theirs}), or, where a battle's post-battle changes fit the other "
            "side's gang, re-apply them on it ({key:league.replay}, the preferred way: both "
            "battles kept). The side not taken stays in the league's git history and in "
            "this laptop's backups.")
    # the kit's frame (a warning); its size and list in league.tcss
    CSS_PATH = [DIALOG_CSS, "league.tcss"]
    BINDINGS = [
        Binding("o", "pick('ours')", "This laptop's", id="league.ours"),
        Binding("t", "pick('theirs')", "League's", id="league.theirs"),
        Binding("p", "replay", "Re-apply battle", id="league.replay"),
        Binding("enter", "done", "Sync", id="league.done"),
        Binding("escape", "cancel", "Cancel", id="league.cancel"),
    ]

    def __init__(self, conflicts: "list[GangConflict]") -> None:
        super().__init__()
        self.conflicts = conflicts
        self.picks: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="warning"):
            yield Label("Changed on this laptop and in the league", id="dialog-title")
            yield OptionList(*[self._line(c) for c in self.conflicts], id="conflict-list")
            yield Static("", id="conflict-detail")
            yield Static("", id="conflict-hint", classes="dialog-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#conflict-list", OptionList).highlighted = 0
        self.query_one("#conflict-list", OptionList).focus()
        self._show()

    def _line(self, c: "GangConflict") -> str:
        pick = self.picks.get(c.path)
        return f"{c.title}: {CHOICE_WORDS[pick] if pick else 'not chosen yet'}"

    @property
    def current(self) -> "GangConflict":
        index = self.query_one("#conflict-list", OptionList).highlighted or 0
        return self.conflicts[index]

    def on_option_list_option_highlighted(self) -> None:
        self._show()

    def on_option_list_option_selected(self) -> None:
        self.action_done()  # (Enter on the list is the list's: it syncs as the key says)

    def _show(self) -> None:
        c = self.current
        lines = ["This laptop changed:", *(f"  {x}" for x in c.ours), "The league changed:",
                 *(f"  {x}" for x in c.theirs)]
        for choice in ("replay-ours", "replay-theirs"):
            if choice in c.choices:
                lines.append(f"Re-applicable: {c.replays[choice]} ({CHOICE_WORDS[choice]})")
        self.query_one("#conflict-detail", Static).update("\n".join(lines))
        left = sum(1 for x in self.conflicts if x.path not in self.picks)
        self.query_one("#conflict-hint", Static).update(keys_text(
            self, (f"{left} still to choose. " if left else "Every gang chosen: {key:league.done} syncs. ")
            + "{key:league.ours} this laptop's, {key:league.theirs} the league's"
            + (", {key:league.replay} re-apply the battle" if any(ch.startswith("replay") for ch in c.choices) else "")
            + "; {key:league.cancel} leaves everything as it is."))

    def _set(self, choice: str) -> None:
        c = self.current
        if choice not in c.choices:
            self.notify(f"{c.title}: no battle of one side re-applies on the other's gang; "
                        "take one side.", severity="warning")
            return
        self.picks[c.path] = choice
        options = self.query_one("#conflict-list", OptionList)
        index = options.highlighted or 0
        options.replace_option_prompt_at_index(index, self._line(c))
        self._show()

    def action_pick(self, choice: str) -> None:
        self._set(choice)

    def action_replay(self) -> None:
        c = self.current
        replays = [ch for ch in c.choices if ch.startswith("replay")]
        if not replays:
            self._set("replay-ours")  # (says why not)
            return
        now = self.picks.get(c.path)
        self._set(replays[(replays.index(now) + 1) % len(replays)] if now in replays else replays[0])

    def line_taken(self, lines: object) -> None:
        """A gang's number shows its changes (Enter syncs every choice made)."""

    def action_done(self) -> None:
        left = [c.title for c in self.conflicts if c.path not in self.picks]
        if left:
            self.notify("Choose for " + ", ".join(left) + " first.", severity="warning")
            return
        self.dismiss(dict(self.picks))

    def action_cancel(self) -> None:
        self.dismiss(None)


#: how an answer reads
ANSWER_WORDS = {"void": "void the change", "keep": "keep it as it is", "amount": "enter another amount",
                "league": "keep the league's version of the pack", "aside": "play the set-aside version"}


def question_title(q: "Question | PackQuestion", numbers: "dict[str, int]", gangs: "dict[str, str]") -> str:
    """A league question's line: which battle (or edit), which gang, what; or which pack."""
    if isinstance(q, PackQuestion):
        return f"Pack {q.pack}: {q.league_words} and {q.aside_words}"
    if q.battle:
        n = numbers.get(q.battle)
        where = f"Battle {n}" if n else "A battle"
    else:
        where = f"Roster edit of {q.date}" if q.date else "A roster edit"
    return f"{where}, {gangs.get(q.gang, q.gang)}: {q.what}"


class QuestionScreen(ListDialog[None]):
    """The league's questions (issue 30): a battle or an edit from another laptop that
    cannot apply by the rules on the gang the merged history reached. Each answer is a
    record (every laptop folds the same once synced); until then the rest of the
    campaign works and the roster shows the gang as far as it applies."""

    HELP_TITLE = "League questions"
    HELP = ("Two laptops changed the same gang from the same roster, and one change cannot "
            "apply after the other by the rules (a fighter who fell or is in Recovery acts "
            "again, credits would go below 0, a fighter hired twice). The Arbitrator answers: "
            "void the later change ({key:league.void}), keep it as it is ({key:league.keep}, "
            "where the rules allow), or enter another amount ({key:league.amount}). Two laptops "
            "that made different versions of one pack: the league's version stays in the pack's "
            "folder and the other is set aside whole; until answered each laptop keeps its own. "
            "Keep the league's version ({key:league.pack_league}) or play the set-aside one "
            "everywhere ({key:league.pack_aside}). The answer is shared at the next sync; every "
            "laptop then folds (and plays) the same.")
    CSS_PATH = [DIALOG_CSS, "league.tcss"]
    BINDINGS = [
        Binding("v", "answer('void')", "Void", id="league.void"),
        Binding("k", "answer('keep')", "Keep", id="league.keep"),
        Binding("m", "answer('amount')", "Amount", id="league.amount"),
        Binding("l", "answer('league')", "League's pack", id="league.pack_league"),
        Binding("a", "answer('aside')", "Set-aside pack", id="league.pack_aside"),
        Binding("escape", "close", "Close", id="league.close"),
    ]

    def __init__(self, handle: Any) -> None:
        super().__init__()
        self.handle = handle

    @property
    def questions(self) -> "list[Question | PackQuestion]":
        return list(self.handle.questions)

    def _names(self) -> "tuple[dict[str, int], dict[str, str]]":
        return self.handle.battle_numbers_by_stem(), {g.id: g.name for g in self.handle.campaign.gangs}

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="warning"):
            yield Label("League questions", id="dialog-title")
            yield OptionList(id="question-list")
            yield Static("", id="question-detail")
            yield Static("", id="question-hint", classes="dialog-hint")
        yield Footer()

    def on_mount(self) -> None:
        self._fill()
        self.query_one("#question-list", OptionList).focus()

    def _fill(self) -> None:
        numbers, gangs = self._names()
        options = self.query_one("#question-list", OptionList)
        options.clear_options()
        options.add_options([question_title(q, numbers, gangs) for q in self.questions])
        if self.questions:
            options.highlighted = 0
        self._show()

    @property
    def current(self) -> "Question | PackQuestion | None":
        qs = self.questions
        if not qs:
            return None
        index = self.query_one("#question-list", OptionList).highlighted or 0
        return qs[min(index, len(qs) - 1)]

    def on_option_list_option_highlighted(self) -> None:
        self._show()

    def line_taken(self, lines: object) -> None:
        """A question's number shows it (the answers are keys)."""

    def _show(self) -> None:
        self.refresh_bindings()  # (the footer's answers are the highlighted question's)
        q = self.current
        detail = self.query_one("#question-detail", Static)
        hint = self.query_one("#question-hint", Static)
        if q is None:
            detail.update("No open questions: every record of the league applies.")
            hint.update(keys_text(self, "{key:league.close} closes."))
            return
        numbers, gangs = self._names()
        keys = {"void": "{key:league.void} void it", "keep": "{key:league.keep} keep it",
                "amount": "{key:league.amount} another amount",
                "league": "{key:league.pack_league} the league's version",
                "aside": "{key:league.pack_aside} the set-aside version"}
        if isinstance(q, PackQuestion):
            detail.update("\n".join([
                question_title(q, numbers, gangs),
                f"The league's, in packs/{q.pack}: {q.league_words}.",
                f"Set aside by {q.by or 'another laptop'}" + (f" on {q.date}" if q.date else "")
                + f": {q.aside_words} (packs/.versions/{q.pack}/{q.digest}).",
                q.rule]))
            hint.update(keys_text(self, ", ".join(keys[c] for c in q.choices if c in keys)
                                  + "; {key:league.close} closes (the question stays open)."))
            return
        lines = [question_title(q, numbers, gangs), f"Why: {q.why}."]
        if q.other:
            n = numbers.get(q.other)
            lines.append(f"It clashes with battle {n}." if n else f"It clashes with {q.other}.")
        if q.by:
            lines.append(f"Recorded by {q.by}.")
        lines.append("Until answered, the rest of that "
                     + ("battle's" if q.record_kind == "battle" else "edit's") + " changes wait.")
        detail.update("\n".join(lines))
        hint.update(keys_text(self, ", ".join(keys[c] for c in q.choices if c in keys)
                              + "; {key:league.close} closes (the question stays open)."))

    #: the answers of a gang's question and of a pack's: the footer shows the answers of
    #: the question highlighted, an answer of its kind the rules do not allow there dimmed
    GANG_ANSWERS = frozenset({"void", "keep", "amount"})
    PACK_ANSWERS = frozenset({"league", "aside"})

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "answer" and parameters:
            q = self.current if self.is_mounted else None
            if q is None:
                return False
            if parameters[0] in q.choices:
                return True
            family = self.PACK_ANSWERS if isinstance(q, PackQuestion) else self.GANG_ANSWERS
            return None if parameters[0] in family else False
        return super().check_action(action, parameters)

    def action_answer(self, choice: str) -> None:
        q = self.current
        if q is None:
            return
        if choice not in q.choices:
            self.notify(f"The rules do not allow that here: {', '.join(ANSWER_WORDS[c] for c in q.choices)}.",
                        severity="warning")
            return
        if choice == "amount":
            self._ask_amount(q)
            return
        self._answer(q, choice, 0)

    @work
    async def _ask_amount(self, q: "Question | PackQuestion") -> None:
        from munda_tui.screens.common.dialogs import LineScreen

        def check(text: str) -> str | None:
            try:
                int(text)
            except ValueError:
                return "A whole number, e.g. -15 or 20."
            return None

        text = await self.app.push_screen_wait(LineScreen(
            "Another amount", detail=f"{q.what}: the amount to apply instead", check=check))
        if text is not None:
            self._answer(q, "amount", int(text))

    def _answer(self, q: "Question | PackQuestion", choice: str, amount: int) -> None:
        from munda_tui.saves.errors import SaveError

        try:
            self.handle.answer_question(q, choice, amount)
        except (SaveError, OSError, ValueError) as error:  # a disk fault: said, the question stays
            self.notify(f"Not answered: {error}", severity="error")
            return
        if isinstance(q, PackQuestion):
            munda_app(self).forget_packs()  # (the pack in force may be another now)
        self.notify(f"Answered: {ANSWER_WORDS[choice]}. Shared at the next sync.")
        if not self.questions:
            self.dismiss(None)
            return
        self._fill()

    def action_close(self) -> None:
        self.dismiss(None)
