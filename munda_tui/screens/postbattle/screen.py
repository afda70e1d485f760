"""The post-battle wizard: one step at a time, every roll and choice asked in place.

The screen shows :class:`munda_tui.rules.postbattle.sequence.PostBattle` (the draft
replayed: the battle file's ``postbattle`` part as the stage host decoded it) and hands
every key to it; it saves the draft after every change (``StageHost.save``) and commits
the sequence at the end (``StageHost.apply_postbattle``: applied once, see ``rules.stages.commit``).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input
from munda_tui.widgets.plain import Label, OptionList, SelectionList, Static
from munda_tui.widgets.header import Header
from textual.widgets.option_list import Option as ListOption

from munda_tui.rules.postbattle import sequence as pb
from munda_tui.rules.stages.battle_file import PostBattleDraft
from munda_tui.rules.core.dice import DiceError, parse, roll_faces
from munda_tui.saves import SaveError
from munda_tui.screens.common.asking import Asking
from munda_tui.screens.common.dialogs import (Pick, PickOneScreen, cursor_to_line, enter_on_line,
                                              focused_lines, line_bindings)
from munda_tui.screens.common.dice_prompt import DiceOutcome, DicePrompt
from munda_tui.screens.common.reroll import reroll_reason
from munda_tui.widgets.keys import key_for, keys_text
from munda_tui.widgets.roll_input import RollInput
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.lines import Lines, WrappedText
from munda_tui.textual_private import relabel

MARKS = {"done": "✓", "current": "▶", "todo": "·", "skipped": "–"}


if TYPE_CHECKING:
    from munda_tui.screens.common.stage_host import StageHost

    _Base = Widget
else:  # a plain mixin: as a Widget subclass it would reset can_focus and the CSS type names
    _Base = object


class _Stamped(_Base):
    """A prompt widget kept mounted from one question to the next (a step change updates
    it in place instead of mounting a new one): every message it posts carries the
    number of the question it was posted for, so an event from a question already
    answered (a second Enter queued behind the first) is told apart from one for the
    question now shown."""

    def __init__(self, *args: Any, question: int = 0, **kwargs: Any) -> None:
        self.question = question  # before the widget's own __init__, which may post already
        super().__init__(*args, **kwargs)

    def post_message(self, message: Message) -> bool:
        message.pb_question = self.question  # type: ignore[attr-defined]
        return super().post_message(message)


class PromptRoll(_Stamped, RollInput):
    pass


class PromptOptions(_Stamped, OptionList):
    """A choice asked in place. Left open (taken back by Escape, or reopened), no line is
    under the cursor, so a stray Enter answers nothing: it says what it needs instead."""

    class NothingUnder(Message):
        """Enter with no line under the cursor."""

    def action_select(self) -> None:
        if self.highlighted is None:
            self.post_message(self.NothingUnder())
            return
        super().action_select()


class PromptInput(_Stamped, Input):
    pass


class MultiPick(_Stamped, SelectionList[str]):
    """A SelectionList where Space toggles and Enter confirms."""

    BINDINGS = [Binding("enter", "confirm", "Confirm", id="multi_pick.confirm")]

    def action_confirm(self) -> None:
        message = MultiConfirmed(self, list(self.selected))
        message.pb_question = self.question  # type: ignore[attr-defined]
        self.screen.post_message(message)


class MultiConfirmed(Message):
    def __init__(self, widget: MultiPick, values: list[str]) -> None:
        super().__init__()
        self.widget = widget
        self.values = values


class PostBattleScreen(Asking, Screen[None]):
    """The Post-Battle Sequence of one battle."""

    CSS_PATH = "postbattle.tcss"
    #: the app's notices are shown here, not as toasts over the question (MundaApp)
    NOTICE_LINE = "#pb-notice"
    HELP_TITLE = "Post-Battle Sequence"
    HELP = """
One step at a time, in the order of the sequence (the sidebar: ✓ done, ▶ current,
· to do, – skipped with the reason). Each question is asked in place:
a roll ({key:post_battle.roll} rolls for you, or type the faces of your real dice, then Enter;
Enter alone never rolls), {key:post_battle.reroll} re-rolls or corrects the step's last roll
(asks why; the report shows both results),
a choice (arrows, Enter; greyed choices say why), a list (Space marks, {key:multi_pick.confirm} confirms),
a number or a name (type, Enter). A table under the question too long for the screen scrolls
with {key:post_battle.table_down} and {key:post_battle.table_up}. {key:post_battle.leave} on a question cancels it (the
answer or entry that asked it is taken back; a roll is kept); with no question it leaves,
saved.
Press {key:post_battle.add} to add what the step allows (a Post-Battle Action, a purchase, a
reward ...), {key:post_battle.undo} to take back the last answer, {key:post_battle.back} to go back
a step. Everything is saved as you go: leave and come back at any time. Nothing touches
the gangs until the last step, where {key:post_battle.next} applies every change to both
rosters once and saves the battle report.
"""
    BINDINGS = [
        Binding("enter", "next", "Next step", id="post_battle.next"),
        Binding("a", "add", "Add", id="post_battle.add"),
        Binding("u", "undo", "Undo", id="post_battle.undo"),
        Binding("b", "back", "Back a step", id="post_battle.back"),
        Binding("r", "roll", "Roll for me", id="post_battle.roll"),
        Binding("R", "reroll", "Re-roll / correct", id="post_battle.reroll"),
        Binding("escape", "leave", "Leave (saved)", id="post_battle.leave"),
        # the table under a question (a Lasting Injury's D66, an action's text) scrolls
        # (priority: the step's text has the focus when no question is asked, and its own
        # page keys, in no footer and in no More list, would take them; a list keeps its own)
        Binding("pagedown", "table(1)", "Scroll down", show=False, priority=True, id="post_battle.table_down"),
        Binding("pageup", "table(-1)", "Scroll up", show=False, priority=True, id="post_battle.table_up"),
        # a list question: 1-9 picks line N (a list of several: toggles it), as a dialog's
        *line_bindings("post_battle"),
    ]

    def __init__(self, host: "StageHost") -> None:
        super().__init__()
        self.host = host  # the battle opened: its file's parts, the saves, the commit
        self.handle = host.handle
        self.number = host.number
        self.seq: pb.PostBattle | None = None
        self.report_text = ""
        self._prompt_key: tuple[Any, ...] | None = None
        self._widget_n = 0  # the question shown (its widgets' messages carry it)
        self._current: Any = None  # the widget answering it
        self._pool: dict[str, Any] = {}  # one mounted prompt widget per kind, reused
        self._texts: dict[str, Any] = {}  # what each Static shows: unchanged text is not redrawn
        self._save_due = False  # a change shown whose draft is saved right after its frame
        # the next question shown was left open (the wizard reopened on it, or Escape took
        # back the question after it): nothing is picked for it, a stray Enter answers nothing
        self._left_open = True

    # --- building ---------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="pb-body"):
            yield Lines(id="pb-sidebar")
            with Vertical(id="pb-main"):
                yield Static("", id="pb-notice", markup=False)  # the app's notices
                yield Static("", id="pb-title", markup=False)
                with VerticalScroll(id="pb-text-scroll", classes="hidden"):
                    yield WrappedText(id="pb-text")
                with VerticalScroll(id="pb-lines"):
                    yield WrappedText(id="pb-lines-text")
                with Vertical(id="pb-prompt"):
                    yield Static("", id="pb-question", markup=False)
                    yield Static("", id="pb-note", markup=False)
                    yield Vertical(id="pb-widget")
                    with VerticalScroll(id="pb-table-scroll", can_focus=False):
                        yield Static("", id="pb-table", markup=False)
                yield Static("", id="pb-error", markup=False)
                yield Static("", id="pb-hint", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        if self not in self.app.screen_stack:
            return  # left before it was shown (a key pressed right after the one opening it)
        self.title = f"Battle {self.number}: Post-Battle Sequence"
        try:
            self._start()
        except (SaveError, KeyError, ValueError, TypeError, IndexError, AttributeError) as error:
            # a draft the rules cannot replay: said, the file left as it is, back to the campaign
            from munda_tui.screens.common.stage_host import say_not_opened

            self.seq = None
            self.app.pop_screen()
            say_not_opened(self.app, f"Battle {self.number}'s post-battle sequence could not be opened",
                           str(self.handle.battle_path(self.number)), error)

    def _start(self) -> None:
        file = self.host.file  # (no file yet, for a battle entered by hand: its parts are None)
        if file.postbattle is not None and file.postbattle.finishing:
            self._finish_commit()
            return
        if pb.is_applied(self.handle.campaign, self.number):
            # done without a draft of ours (imported, or finished elsewhere): never start a
            # second sequence that would apply its changes again
            report = (file.report.text(self.number) if file.report is not None else "") or (
                "This battle is done; no post-battle report was saved with it.")
            self.report_text = report
            self._show_report()
            return
        if file.postbattle is None:
            ruleset = str(self.handle.campaign.settings.post_battle_ruleset)
            file.postbattle = PostBattleDraft(pb.new_draft(ruleset, data=munda_app(self).rule_data))
        self._outcome = file.outcome
        self.seq = pb.PostBattle(self.handle.campaign, self.number, file.postbattle.data,
                                 self._outcome, setup=file.setup, item_kinds=self._item_kind,
                                 data=munda_app(self).rule_data)
        self._save()
        self.refresh_view()

    # --- saving -----------------------------------------------------------------
    def _save(self) -> bool:
        """Save the draft. A failed save (full disk, read-only folder) is shown with its
        reason and the step taken is undone on screen too: the player stays where the
        last save left them, and nothing on disk changes."""
        assert self.seq is not None
        file = self.host.file
        file.postbattle = PostBattleDraft(self.seq.draft)
        if self.host.save("postbattle"):
            self._saved_draft = copy.deepcopy(self.seq.draft)
            return True
        saved = getattr(self, "_saved_draft", None)
        if saved is not None:
            self.seq = pb.PostBattle(self.handle.campaign, self.number, copy.deepcopy(saved),
                                     getattr(self, "_outcome", None), setup=file.setup,
                                     item_kinds=self._item_kind, data=munda_app(self).rule_data)
            file.postbattle = PostBattleDraft(self.seq.draft)
        return False

    # --- view -------------------------------------------------------------------
    def _set(self, static_id: str, text: str) -> None:
        """Show ``text`` in a Static or a WrappedText; the same text again costs no layout
        and no redraw."""
        if self._texts.get(static_id) == text:
            return
        self._texts[static_id] = text
        widget: Static | WrappedText = self.query_one(f"#{static_id}")  # type: ignore[assignment]
        widget.update(text)

    def refresh_view(self) -> None:
        seq = self.seq
        if seq is None:
            return
        side = []
        group = ""
        for st in seq.states:
            if st.group and st.group != group:
                side.append(f"  {st.group}")
            group = st.group
            indent = "  " if st.group else ""
            reason = f": {st.reason}" if st.status == "skipped" and st.reason else ""
            side.append(f"{MARKS[st.status]} {indent}{st.title}{reason}")
        self.query_one("#pb-sidebar", Lines).set_lines(side)
        step, state = seq.step, seq.state
        n = seq.current + 1
        self._set("pb-title", f"Step {n}/{len(seq.steps)}: {step['title']}  ·  {seq.ruleset['title']}")
        # the seed's text, then munda-tui's own words, marked as munda-tui's
        parts = [step.get("text", "")] + [
            extra if extra.startswith("munda-tui") else f"munda-tui: {extra}"
            for extra in pb.step_notes(step)]
        text = "\n\n".join(part for part in parts if part)
        self._set("pb-text", text)
        self.query_one("#pb-text-scroll").set_class(not text, "hidden")
        skipped: list[str] = []
        for st in reversed(seq.states[: seq.current]):
            if st.status != "skipped":
                break
            skipped.insert(0, f"Skipped {st.title}: {st.reason}")
        lines = skipped + ([""] if skipped and state.lines else []) + state.lines
        self._set("pb-lines-text", keys_text(self, "\n".join(lines)) or "—")  # (keys by id)
        self._set("pb-error", "")
        self._show_prompt()
        self._show_hint()
        self._label_leave("Cancel question" if seq.pending is not None and seq.can_undo()
                          else "Leave (saved)")
        self.refresh_bindings()

    def _label_leave(self, description: str) -> None:
        """Escape's footer label: it cancels the question asked, or leaves (saved)."""
        relabel(self, lambda b: b.id == "post_battle.leave", description)

    def _show_hint(self) -> None:
        seq = self.seq
        assert seq is not None
        hint = ""
        if seq.pending is None:
            adds = [o for o in seq.entry_options() if o.enabled]
            if seq.at_end:
                hint = "{key:post_battle.next}: apply every change to both gangs and save the report (once)."
            else:
                hint = "{key:post_battle.next}: next step" + (
                    "  ·  {key:post_battle.add}: add " + self._add_word() if adds else "")
                hint += "  ·  {key:post_battle.undo}: undo  ·  {key:post_battle.back}: back"
            if seq.last_roll() is not None:
                hint += "  ·  {key:post_battle.reroll}: re-roll / correct"
        self._set("pb-hint", keys_text(self, hint))

    def _add_word(self) -> str:
        assert self.seq is not None
        return {
            "post_battle_actions": "a Post-Battle Action",
            "buy_common": "a purchase", "buy_rare": "a Rare item", "buy_and_hire": "a fighter",
            "sell_equipment": "an item to sell",
        }.get(self.seq.step["resolver"], "an entry")

    def _show_prompt(self) -> None:
        seq = self.seq
        assert seq is not None
        p = seq.pending
        box = self.query_one("#pb-widget", Vertical)
        key = None if p is None else (p.id, p.kind, tuple((o.id, o.enabled) for o in p.options),
                                      p.note)
        self.query_one("#pb-prompt").set_class(p is None, "hidden")
        if key == self._prompt_key and p is not None:
            self._focus_prompt()
            return
        self._prompt_key = key
        self._widget_n += 1  # a new question: messages from the last one's widget are stale
        blank, self._left_open = self._left_open, False
        if p is None:
            self._current = None
            for w in self._pool.values():
                w.display = False
            self.query_one("#pb-lines").focus()
            return
        self._set("pb-question", p.label)
        self._set("pb-note", keys_text(self, p.note))  # a rules text names keys by id
        table = self.query_one("#pb-table-scroll")
        table.set_class(p.table in pb.injury_tables(), "detail")
        table.scroll_home(animate=False)
        self._set("pb-table", "\n".join(pb.table_lines(seq, p)))
        kind = p.kind if p.kind in ("roll", "choice", "multi") else "input"
        widget: Any = self._pool.get(kind)
        if widget is not None:  # what it posts from here on is for this question
            widget.question = self._widget_n
        if p.kind == "roll":
            if widget is None:
                widget = PromptRoll(p.dice, classes="pb-input", question=self._widget_n,
                                    by_hand=self.handle.campaign.settings.dice_by_hand)
            else:
                widget.expression = parse(p.dice)
                widget.by_hand = self.handle.campaign.settings.dice_by_hand
                widget.text = ""
                widget.refresh(layout=True)
        elif p.kind == "choice":
            options = [ListOption(o.label + ("" if o.enabled else f"  — {o.reason}"), id=o.id,
                                  disabled=not o.enabled) for o in p.options]
            if widget is None:
                widget = PromptOptions(*options, classes="pb-input", question=self._widget_n)
            else:
                widget.set_options(options)
                if options and not blank:
                    widget.action_first()  # as a new OptionList starts
        elif p.kind == "multi":
            # a question left open (taken back by Escape, or reopened once anything was
            # answered) shows nothing picked; only a fresh sequence's first one its default
            fresh = not blank or not int(seq.draft.get("seq", 0))
            selections = [(o.label, o.id, fresh and o.id in (p.default or [])) for o in p.options]
            if widget is None:
                widget = MultiPick(*selections, classes="pb-input", question=self._widget_n)
            else:
                widget.clear_options()
                widget.add_options(selections)
                if selections:
                    widget.action_first()  # as a new SelectionList starts
        else:  # a text or number field: a new one each time (its type, validation and
            # suggestions are fixed when it is made)
            value = "" if p.default is None else str(p.default)
            suggester, known = self._catalogue_help(p)
            if p.kind == "number" and known is not None and known.cost is not None \
                    and p.default is None:
                value = str(known.cost)  # the catalogue's price: Enter takes it
            if widget is not None:
                widget.remove()
            widget = PromptInput(value=value, classes="pb-input", question=self._widget_n,
                                 type="integer" if p.kind == "number" else "text",
                                 placeholder="a whole number" if p.kind == "number" else "type, then Enter",
                                 suggester=suggester)
        for other_kind, other in self._pool.items():
            if other_kind != kind:
                other.display = False
        widget.display = True
        self._current = widget
        if widget.parent is None:
            self._pool[kind] = widget
            box.mount(widget)
        self.call_after_refresh(self._after_mount_prompt, p, blank)

    def _load_catalogue(self) -> Any:
        """The campaign's catalogue merged with the packs, read once (when first needed)."""
        if not hasattr(self, "_catalogue"):
            from munda_tui.rules.campaign.catalogue import Catalogue
            from munda_tui.saves import SaveError
            from munda_tui.saves.catalogue import load_campaign_catalogue, load_packs

            try:
                own = load_campaign_catalogue(self.handle.path)
            except (SaveError, OSError):
                own = Catalogue()
            packs, _problems = load_packs(munda_app(self).config_dir)
            self._catalogue = own.merged(*(c for _p, c in packs))
        return self._catalogue

    def _item_kind(self, name: str) -> str | None:
        """An item's kind as the catalogue lists it (the sequence offers it first)."""
        known = self._load_catalogue().item(name)
        return None if known is None else str(known.kind)

    def _catalogue_help(self, p: pb.Prompt) -> tuple[Any, Any]:
        """For a purchase (Buy Common / Rare): item names complete from the campaign's
        catalogue and its packs, and the price asked next starts at the catalogue's."""
        seq = self.seq
        if seq is None or seq.step.get("resolver") not in ("buy_common", "buy_rare"):
            return None, None
        self._load_catalogue()
        entry = p.id.rsplit(":", 1)[0]
        if p.kind == "text" and p.id.endswith(":name"):
            from textual.suggester import SuggestFromList

            names = self._catalogue.item_names()
            return (SuggestFromList(names, case_sensitive=False) if names else None), None
        if p.kind == "number" and p.id.endswith(":cost"):
            name = (seq.answers.get(f"{entry}:name") or {}).get("value", "")
            return None, self._catalogue.item(str(name))
        return None, None

    def _current_input(self) -> Any:
        return self._current

    def _after_mount_prompt(self, p: pb.Prompt, blank: bool = False) -> None:
        w = self._current_input()
        if w is None:
            return
        if isinstance(w, OptionList) and p.kind == "choice" and blank:
            w.highlighted = None  # left open: the arrows pick, Enter alone answers nothing
        elif isinstance(w, OptionList) and p.kind == "choice":
            for i, o in enumerate(p.options):
                if o.id == p.default and o.enabled:
                    w.highlighted = i
                    break
        w.focus()

    def _focus_prompt(self) -> None:
        w = self._current_input()
        if w is not None:
            w.focus()

    def _error(self, text: str) -> None:
        self._set("pb-error", keys_text(self, text))  # (a rules message names keys by id)

    # --- input ------------------------------------------------------------------
    def _changed(self) -> None:
        """A change to the draft: shown now, saved right after the frame that shows it
        (before the screen handles anything else of its own; one save for changes made
        before it runs). A failed save takes the change back on screen, with the reason."""
        self.refresh_view()
        if not self._save_due:
            self._save_due = True
            self.call_after_refresh(self._save_changed)

    def _save_changed(self) -> bool:
        """Save a change shown and not saved yet; False if that save failed (the change
        is taken back, on screen too)."""
        if not self._save_due:
            return True  # (saved already: the screen was left or the sequence applied first)
        self._save_due = False
        if self.seq is not None and not self._save():
            self.refresh_view()
            return False
        return True

    def on_screen_suspend(self) -> None:
        self._save_changed()  # a dialog over the screen, or another screen: saved first

    def on_unmount(self) -> None:
        self._save_changed()

    def _answer(self, value: Any) -> None:
        assert self.seq is not None
        try:
            self.seq.answer(value)
        except pb.PostBattleError as e:
            self._error(str(e))
            return
        self._changed()

    def _stale(self, widget: Any, event: Message | None = None) -> bool:
        """An event from a prompt widget that has already been answered (the widget is
        reused: the event must also be for the question now shown)."""
        return widget is not self._current_input() or (
            event is not None and getattr(event, "pb_question", None) != self._widget_n)

    @on(RollInput.Submitted)
    def _rolled(self, event: RollInput.Submitted) -> None:
        event.stop()
        if self._stale(event.widget, event):
            return
        assert self.seq is not None
        try:
            if event.faces is None:
                self.seq.roll_for_me(munda_app(self).rng)
            else:
                self.seq.answer({"faces": event.faces, "entered": True})
        except pb.PostBattleError as e:
            self._error(str(e))
            return
        self._changed()

    @on(RollInput.Invalid)
    def _bad_roll(self, event: RollInput.Invalid) -> None:
        event.stop()
        self._error(event.error)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Show the rules of the highlighted choice (a Post-Battle Action's text)."""
        seq = self.seq
        if seq is None or seq.pending is None or self._stale(event.option_list, event):
            return
        detail = next((o.detail for o in seq.pending.options if o.id == event.option.id), "")
        if detail:
            self._set("pb-table", detail)
            self.query_one("#pb-table-scroll").add_class("detail")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if not self._stale(event.option_list, event):
            self._answer(event.option.id)

    @on(PromptOptions.NothingUnder)
    def _nothing_under(self, event: PromptOptions.NothingUnder) -> None:
        event.stop()
        if self.seq is None or self.seq.pending is None:
            return
        self._error("Enter answers the line under the cursor, and none is yet: ↓/↑ to a "
                    "line (or type its number), then Enter.")

    @on(MultiConfirmed)
    def _multi(self, event: MultiConfirmed) -> None:
        if not self._stale(event.widget, event):
            self._answer(event.values)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not self._stale(event.input, event):
            self._answer(event.value)

    # --- actions ----------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "line":  # in force on a list question (a field takes its digits)
            return focused_lines(self) is not None
        if action == "table":  # the question's table, else the step's text or the report
            return not isinstance(self.focused, (OptionList, SelectionList))  # (a list's own)
        if self.seq is None:
            return action in ("leave", "next")
        if action == "add":
            return self.seq.pending is None and bool(self.seq.entry_options())
        if action == "roll":
            return self.seq.pending is not None and self.seq.pending.kind == "roll"
        if action == "reroll":
            return self.seq.last_roll() is not None
        if action == "next":
            return self.seq.pending is None
        return True

    def action_roll(self) -> None:
        assert self.seq is not None
        try:
            self.seq.roll_for_me(munda_app(self).rng)
        except pb.PostBattleError as e:
            self._error(str(e))
            return
        self._changed()

    def action_next(self) -> None:
        seq = self.seq
        if seq is None:
            self.app.pop_screen()
            return
        if seq.pending is not None:
            return
        if seq.at_end:
            self._apply_postbattle()
            return
        seq.advance()
        self._changed()

    def more_keys_wanted(self) -> bool:
        """The footer's More even when its keys fit (widgets.footer): the report, once
        applied, is read by scrolling (page down/up), keys its footer does not show."""
        return self.seq is None

    def action_table(self, direction: int) -> None:
        """Scroll the table under the question by a page (it is cut at 80x24); with no
        question (or no table), the step's text or the report."""
        table = self.query_one("#pb-table-scroll", VerticalScroll)
        if self.seq is None or self.seq.pending is None or not table.max_scroll_y:
            table = self.query_one("#pb-lines", VerticalScroll)
        if direction > 0:
            table.scroll_page_down(animate=False)
        else:
            table.scroll_page_up(animate=False)

    def action_back(self) -> None:
        if self.seq and self.seq.back():
            self._changed()

    def action_line(self, n: int) -> None:
        lines = focused_lines(self)
        if lines is not None and cursor_to_line(lines, n):
            enter_on_line(lines)

    def action_undo(self) -> None:
        try:
            if self.seq and self.seq.undo():
                self._changed()
        except pb.PostBattleError as e:
            self._error(str(e))

    @work(group="dialog")
    async def action_reroll(self) -> None:
        """R: why the roll changes (a reason is required), then the new roll; both
        results stay in the record. One question after the other, in a worker."""
        seq = self.seq
        p = seq.last_roll() if seq is not None else None
        if seq is None or p is None:
            return
        old = seq.answers[p.id]["value"]
        try:
            was = str(roll_faces(p.dice, old["faces"]))
        except DiceError:
            was = str(old.get("faces"))
        reason = await self.ask(reroll_reason(p.label, was))
        if reason is None:
            return
        outcome = await self.ask(
            DicePrompt(p.dice, title=f"{p.label} (again)",
                       rng=munda_app(self).rng,
                       detail=f"was {was}; {reason}",
                       prefer_entry=self.handle.campaign.settings.dice_by_hand))
        if outcome is None or outcome.roll is None or self.seq is None:
            return
        try:
            self.seq.reroll({"faces": list(outcome.roll.faces),
                             "entered": outcome.how == "dice"}, reason)
        except pb.PostBattleError as e:
            self._error(str(e))
            return
        self._changed()

    @work(group="dialog")
    async def action_add(self) -> None:
        seq = self.seq
        if seq is None or seq.pending is not None:
            return
        options = seq.entry_options()
        if not options:
            return

        option_id = await self.ask(PickOneScreen(
            f"{seq.step['title']}: add {self._add_word()}",
            [Pick(o.id, o.label, o.enabled, o.reason) for o in options]))
        if option_id is None or self.seq is None:
            return
        try:
            self.seq.add_entry(option_id)
        except pb.PostBattleError as e:
            self._error(str(e))
            return
        self._changed()

    def action_leave(self) -> None:
        seq = self.seq
        if seq is not None and seq.pending is not None and seq.can_undo():
            # Escape on a question cancels it: the answer (or entry) that asked it is taken
            # back, and the question before it is shown with nothing picked
            seq.undo()
            self._left_open = True
            self._changed()
            return
        self.app.pop_screen()  # nothing to take back (a roll is kept): left, saved

    # --- the end ----------------------------------------------------------------
    def _apply_postbattle(self) -> None:
        assert self.seq is not None
        if not self._save_changed():  # (the last change's save failed: it is taken back)
            return
        report = self.host.apply_postbattle(self.seq)
        if report is None:  # (said, as every failed save is: the changes are not applied)
            self._error(f"The changes are not applied. Press "
                        f"{key_for(self, 'post_battle.next')} to try again.")
            return
        self.report_text = report
        self._learn()
        self._show_report()

    def _finish_commit(self) -> None:
        report = self.host.apply_postbattle()
        if report is None:  # (said: the changes stay prepared, finished on the next open)
            self._error("The changes are not applied yet: open this battle again to finish.")
            return
        self.report_text = report
        self._learn()
        self._show_report()

    def _learn(self) -> None:
        """The campaign's catalogue learns what was bought or hired, as the roster would."""
        from munda_tui.saves import SaveError
        from munda_tui.saves.catalogue import learn_gangs

        try:
            learn_gangs(self.handle.path, self.handle.campaign.gangs)
        except (SaveError, OSError) as error:
            self.notify(f"The catalogue did not learn this battle's purchases: {error}",
                        severity="warning", timeout=15)

    def _show_report(self) -> None:
        self.seq = None
        self.query_one("#pb-sidebar", Lines).set_lines(["✓ Post-Battle Sequence applied"])
        self._set("pb-title", f"Battle {self.number}: report (saved)")
        self.query_one("#pb-text-scroll").set_class(True, "hidden")
        self.query_one("#pb-prompt").set_class(True, "hidden")
        self._set("pb-lines-text", self.report_text)
        self._set("pb-hint", keys_text(
            self, "Both rosters are updated. {key:post_battle.next} or {key:post_battle.leave}: back."))
        self.query_one("#pb-lines").focus()
        self.refresh_bindings()
