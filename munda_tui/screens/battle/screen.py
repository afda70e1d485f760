"""The live battle tracker: both crews, the log, and the hidden Sub-plots watched.

``BattleScreen(handle, number)`` opens the battle file's ``setup`` (or makes a
quick battle of two whole gangs when there is none) and its ``battle`` table as a
:class:`munda_tui.rules.battle_record.BattleRecord` (the log, seen, rejected, the
outcome, which cards are public). Every key on the selected fighter records one event
through the record; its ``to_data()`` is saved (``update_battle``) before the screen moves on,
so killing the app and reopening returns to the same battle. After every
event the rules watch each hand (:mod:`munda_tui.rules.watch`); a met card
shows a discreet marker (``◆``) on its owner's side only, never its name.
Ending the battle, then finishing it, hands a ``BattleOutcome`` to the
post-battle sequence.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from munda_tui.widgets.plain import Static

from munda_tui.rules import conditions as condition_data
from munda_tui.rules import subplots
from munda_tui.rules.wording import plural
from munda_tui.rules.battle import (
    ACTIVE,
    END,
    ENGAGED,
    FLED,
    NOT_DEPLOYED,
    OUT_OF_ACTION,
    PHASE_NAMES,
    PINNED,
    RECOVERY_NAMES,
    RECOVERY_RESULTS,
    SERIOUSLY_INJURED,
    STATE_NAMES,
    TEST_NAMES,
    TESTS,
    Battle,
    BattleError,
    BattleState,
    Event,
    FighterState,
    default_setup,
    describe,
    due_event,
    due_roll_needed,
    hands_of,
    needs_priority,
    next_phase_event,
    reinforcement_step_due,
)
from munda_tui.rules.battle_record import BattleRecord
from munda_tui.rules.dice import parse, roll
from munda_tui.rules.model import BattleSummary
from munda_tui.rules.status import BattleStatus, advance
from munda_tui.rules.setup import BattleSetup
from munda_tui.rules.watch import MET, REVEALED, HandWatch, Match, Reminder, marker_keys, owner_marker
from munda_tui.screens.battle.attack import Attack, AttackScreen
from munda_tui.screens.battle.end import EndChoice, EndScreen
from munda_tui.screens.battle.hand import peek
from munda_tui.screens.battle.log import LogScreen
from munda_tui.screens.battle.phone import LinkScreen, PhoneLink, PhoneServerError, bind_dialog
from munda_tui.screens.battle.reinforcements import ReinforcementScreen
from munda_tui.screens.battle.reveal import DEFER, REVEAL, REWARD, RevealResult, RevealScreen
from munda_tui.screens.common.dialogs import ConfirmScreen, ErrorScreen
from munda_tui.screens.common.dialogs import LineScreen, Pick, PickOneScreen
from munda_tui.screens.common.dice_prompt import DiceOutcome, DicePrompt
from munda_tui.widgets.curtain import PrivacyCurtain
from munda_tui.widgets.event_log import EventLog
from munda_tui.widgets.fighter_table import FighterTable
from munda_tui.screens.common.typed_app import munda_app
from munda_tui.widgets.footer import Footer

if TYPE_CHECKING:
    from munda_tui.saves import CampaignHandle

CARD_BACK = "▚▞"
MARKER = "◆"

#: actions that change the battle (refused once it is over)
_BATTLE_ACTIONS = {
    "down", "set_state", "flesh_wound", "recovery", "condition", "other_condition", "broken_by",
    "activate", "failed_test", "attack", "deploy", "next_phase", "priority", "tactic", "vp",
    "end",
}


def _b(key: str, action: str, short: str, long: str, show: bool = True) -> Binding:
    name, _, args = action.partition("(")
    args = args.rstrip(")").replace("'", "").replace('"', "").lower().replace(" ", "-")
    return Binding(key, action, short, show=show, tooltip=long,
                   id=f"battle.{name}-{args}" if args else f"battle.{name}")


def condition_bindings() -> list[Binding]:
    """One key per fighter condition of data/conditions.toml: gain it, or lose it."""
    return [_b(c.key, f"condition('{c.name}')", c.label, c.help, show=c.footer)
            for c in condition_data.conditions()]


def condition_key() -> str:
    """The Cond column's abbreviations, for the help: "Brk Broken, Blz Blaze, ..."."""
    return ", ".join(f"{c.short} {c.name}" for c in condition_data.conditions())


class BattleScreen(Screen[None]):
    HELP_TITLE = "Battle tracker"
    HELP = (
        "Both crews side by side; left/right (or Tab, or a click) picks a crew, up/down a "
        "fighter. Keys act on the selected fighter; s, o and w ask who did it and how "
        "(Enter skips). Every key is one event in the log, saved at once; u undoes, U redoes. "
        "h lets a player peek at their own hand behind a curtain and reveal a card; a ◆ on a "
        "side means one of its Sub-plots is newly met (it goes once its owner has looked). "
        "Table columns: + activated this round; Ty type (L Leader, C Champion, G Ganger, "
        f"J Juve); Cond: {condition_key()}, FWn Flesh Wounds; › marks the "
        "selected fighter.\n"
        "Reinforcements (X): entering (or leaving) the End phase of a round in which "
        "Reinforcements are due walks the Reinforcements step: who won Priority (if not "
        "recorded this round), how many each gang draws (rolled or real dice), then the "
        "draws, players alternating from the Priority winner: r draws at random and "
        "rolls the D6 (3+: 9\", 1-2: 12\" from all enemy models), 1-6 takes a real die's "
        "face, c names the card dealt by hand. Each arrival is one event (u undoes it); "
        "Esc skips the rest, d resumes it.\n"
        "Phones (m): each player keeps their hand on their own phone. m asks the address "
        "to serve on (the laptop's, on the table's Wi-Fi), then shows each player's secret "
        "link and its QR code behind their curtain; the page follows the battle live. "
        "M shows the selected crew's link again; m again, or leaving the battle, stops it.\n"
    )
    CSS_PATH = "battle.tcss"
    BINDINGS = [
        _b("s", f"down('{SERIOUSLY_INJURED}')", "SI", "Seriously Injured (asks by whom, how)"),
        _b("o", f"down('{OUT_OF_ACTION}')", "OOA", "Out of Action (asks by whom, how)"),
        _b("p", f"set_state('{PINNED}')", "Pin", "Prone and Pinned"),
        _b("a", f"set_state('{ACTIVE}')", "Active", "Standing and Active", show=False),
        _b("e", f"set_state('{ENGAGED}')", "Engaged", "Standing and Engaged", show=False),
        _b("l", f"set_state('{FLED}')", "Fled", "The fighter fled the battlefield", show=False),
        _b("w", "flesh_wound", "FW", "Flesh Wound (asks by whom, how)"),
        _b("r", "recovery", "Recovery", "Recovery test result (Seriously Injured fighter)",
           show=False),
        *condition_bindings(),
        _b("B", "broken_by", "Broken, by whom", "Broken, caused by which fighter (asks by "
           "whom; Enter skips): the log then knows who broke whom", show=False),
        _b("c", "other_condition", "Other condition", "Another condition, by name: gain or lose",
           show=False),
        _b("x", "xp(1)", "XP+", "XP +1 to the fighter"),
        _b("X", "xp(-1)", "XP-1", "XP -1 (a correction)", show=False),
        _b("space", "activate", "Activated", "Mark / unmark the fighter as activated",
           show=False),
        _b("f", "failed_test", "Failed test", "A failed test (Nerve, Cool, Willpower, "
           "Intelligence, Ammo, Bottle)", show=False),
        _b("k", "attack", "Attack, no result", "An attack on the fighter that changed nothing "
           "(records the weapon used)", show=False),
        _b("d", "deploy", "Reinforcement arrives (from the Reinforcements deck)", "A Reinforcement arrives: in the End phase's "
           "Reinforcements step, resume the draws; else the selected fighter if not "
           "yet deployed, else the next of the crew's Reinforcements deck", show=False),
        _b("n", "next_phase", "Phase", "Next phase (End phase -> next round)"),
        _b("P", "priority", "Priority winner", "Who won Priority", show=False),
        _b("t", "tactic", "Tac", "The selected crew plays a Gang Tactic"),
        _b("j", "side_job", "Side Job achieved", "The selected crew achieved its Side Job",
           show=False),
        _b("v", "vp(1)", "VP+1", "Victory Point +1 to the selected crew", show=False),
        _b("V", "vp(-1)", "VP-1", "Victory Point -1 to the selected crew", show=False),
        _b("u", "undo", "Undo", "Undo the last event"),
        _b("U", "redo", "Redo", "Redo the last undone event", show=False),
        _b("h", "hand", "Hand", "Peek at the selected crew's Sub-plots (curtain first); "
           "reveal one"),
        _b("L", "log", "Whole log", "The whole log and a summary of both sides", show=False),
        _b("m", "phones", "Phones", "Each player's hand on their own phone: serve it on this "
           "network, show each link behind its player's curtain (m again stops)", show=False),
        _b("M", "phone_link", "Phone link again", "Show the selected crew's phone link again, "
           "behind its player's curtain", show=False),
        _b("E", "end", "End", "End the battle: winner or draw, who fled"),
        _b("F", "finish", "Finish", "Finish: walk rewards due, open the post-battle sequence"),
        Binding("left", "side(0)", "Left crew", show=False, priority=True, id="battle.side-0"),
        Binding("right", "side(1)", "Right crew", show=False, priority=True, id="battle.side-1"),
        _b("escape", "back", "Back", "Back to the campaign (the battle is saved)", show=False),
    ]

    HELP = HELP + "\nMore keys: " + " · ".join(
        f"{b.key_display or b.key} {b.description}" for b in BINDINGS
        if isinstance(b, Binding) and not b.show and b.key not in ("left", "right")
    ) + " · left/right pick a crew."

    def __init__(self, handle: "CampaignHandle", number: int) -> None:
        super().__init__()
        self.handle = handle
        self.number = number
        data = handle.load_battle(number)
        campaign = handle.campaign
        self._new_setup = not data.get("setup")
        if not self._new_setup:
            self.setup = BattleSetup.from_data(data["setup"])
        else:  # a quick battle: two whole gangs, no set-up made
            summary = self._summary()
            gangs = summary.gangs if summary is not None else []
            if len(gangs) != 2:
                gangs = [g.id for g in campaign.gangs[:2]]
            self.setup = default_setup(campaign, number, gangs[0], gangs[1])
        # the log and the tracker's own keys (seen, rejected, outcome, the public cards)
        self.battle_record = BattleRecord.resume(data.get("battle"), self.setup, campaign)
        self.hands = hands_of(self.setup)
        self.card_names: dict[str, str] = {}
        self._unknown_cards: list[str] = []
        for gang, cards in self.hands.items():
            for cid in list(cards):
                try:
                    self.card_names[cid] = subplots.card(cid).name
                except (KeyError, ValueError):  # not a Sub-plot card id: left out, said once
                    cards.remove(cid)
                    self._unknown_cards.append(cid)
        self.strict = campaign.settings.strict_secrecy
        self.gangs = list(self.battle.state.sides)
        self._matches: list[Match] = []
        self._reminders: list[Reminder] = []
        self._matches_rev = -1
        self._watch: HandWatch | None = None
        self._watch_last: Event | None = None
        self._side = 0
        self._texts: dict[str, str] = {}
        # rounds whose Reinforcements step the players skipped (Esc): not offered again
        # when leaving the End phase (d resumes it)
        self._skipped_steps: set[int] = set()
        self.phones = PhoneLink()  # each player's hand on their phone (m), off until asked

    # --- layout -----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static("", id="top", markup=False)
        with Horizontal(id="sides"):
            for i, gang in enumerate(self.gangs):
                with Vertical(classes="side", id=f"side-{i}"):
                    yield Static("", classes="side-head", id=f"head-{i}", markup=False)
                    yield FighterTable(gang, id=f"crew-{i}")
        yield EventLog(id="log")
        yield Static("", id="message", markup=False)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        if self._new_setup:
            self._save_setup()
        if self.battle_record.changed or self._new_setup:
            self._save()
        self.refresh_view()
        self.table(0).focus()
        if self.start_walk_due():
            self.run_worker(self._walk_start(), exclusive=True, group="start-walk")
        if self._unknown_cards:
            self.message("Unknown Sub-plot cards left out: " + ", ".join(self._unknown_cards))
        if self.battle_record.problem:
            self.app.push_screen(ErrorScreen(
                "Part of the battle log could not be replayed",
                f"The log stops before {self.battle_record.problem}. That event and the ones "
                "after it are kept in the battle file under battle.rejected; the battle goes on "
                "from the last event that replays."))

    def _summary(self) -> BattleSummary | None:
        for s in self.handle.campaign.battles:
            if s.number == self.number:
                return s
        return None

    def table(self, side: int) -> FighterTable:
        return self.query_one(f"#crew-{side}", FighterTable)

    # --- state shown --------------------------------------------------------------

    @property
    def battle(self) -> Battle:
        """The log with undo/redo (the record's)."""
        return self.battle_record.battle

    @property
    def state(self) -> BattleState:
        return self.battle_record.state

    @property
    def shown(self) -> dict[str, dict[str, str]]:
        """Cards the owner showed in the pre-battle (Choose Crew / start of the battle, with
        their choice): public already; their rewards are walked when revealed here."""
        return self.battle_record.public

    @property
    def matches(self) -> list[Match]:
        """The hands against the log: fed one new event at a time, rebuilt after an undo."""
        if self._matches_rev != self.battle.revision:
            log = self.battle.log
            run = self._watch
            if run is None or run.fed > len(log) or (
                run.fed and self._watch_last is not log[run.fed - 1]
            ):
                run = self._watch = HandWatch(self.hands, facts=self.setup)
            for ev in log[run.fed:]:
                run.feed(ev)
            self._watch_last = log[-1] if log else None
            self._matches = run.matches()
            self._reminders = run.reminders()
            self._matches_rev = self.battle.revision
        return self._matches

    @property
    def reminders(self) -> list[Reminder]:
        """Cards the tracker cannot decide whose timing the log has reached."""
        self.matches  # noqa: B018 - brings the watch up to date
        return self._reminders

    def hand_matches(self, gang: str) -> list[Match]:
        return [m for m in self.matches if m.gang == gang]

    def refresh_view(self) -> None:
        st = self.state
        if st.ended:
            won = st.sides[st.winner].name if st.winner else ""
            where = f"Battle over: {won} win" if won else "Battle over: a draw"
            where += " · F finish"
        else:
            prio = st.sides[st.priority].name if st.priority else "-"
            where = (f"Round {st.round} · {PHASE_NAMES[st.phase]} phase · Priority: {prio}")
        title = self.setup.objective or "Quick battle"
        if self.phones.running:
            where += f" · phones on {self.phones.address}"
            self.phones.publish(self.phone_views())
        self._set("top", f"Battle {self.number} · {title} · {where}")
        for i, gang in enumerate(self.gangs):
            self._set(f"head-{i}", self._side_head(gang))
            self.table(i).show(st)
        self.query_one("#log", EventLog).show(self.battle, self.card_names)

    def _set(self, widget_id: str, text: str) -> None:
        """Update a fixed-size line only when its text changed, without a re-layout."""
        if self._texts.get(widget_id) != text:
            self._texts[widget_id] = text
            self.query_one(f"#{widget_id}", Static).update(text, layout=False)

    def _side_head(self, gang: str) -> str:
        st = self.state
        side = st.sides[gang]
        hand = self.hand_matches(gang)
        shown = self.shown.get(gang, {})
        hidden = [m for m in hand if m.status != REVEALED and m.card not in shown]
        backs = " ".join(CARD_BACK for _ in hidden)
        marker = ""
        seen = self.battle_record.seen.get(gang, ())
        if not self.strict and owner_marker(gang, hand, self.reminders, seen):
            marker = f" {MARKER}"
        line1 = side.name + (" (won)" if st.ended and st.winner == gang else "")
        public = self.battle_record.public_in_order(gang)
        if public:
            line1 += " · " + ", ".join(self.card_names.get(c, c) for c in public)
        gained = sum(r.amount for _, r in side.rewards if r.kind == "gang_tactics")
        parts = [f"VP {side.vp}", f"GT {len(side.tactics)}" + (f" +{gained}" if gained else "")]
        if side.reserves:
            parts.append(f"Res {len(side.reserves)}")
        if side.bottle_failed:
            parts.append("Bottled")
        if side.side_job_done:
            parts.append("Job done")
        if hand:
            parts.append(f"Hand {backs or '-'}{marker}")
        due = sum(1 for m in hand if m.reward_due)
        if due:
            parts.append("reward due")
        return f"{line1}\n{'  '.join(parts)}"

    def _public_name(self, gang: str, card: str) -> str:
        """A public card's name, with the fighters its open choice picked (e.g. the bomb
        carrier of A Little Surprise): both players saw the choice."""
        name = self.card_names.get(card, card)
        value = self.shown.get(gang, {}).get(card, "")
        names = [self.state.name_of(f"{self._owner_of(p, gang)}/{p}") for p in value.split("|") if p]
        return f"{name} ({' and '.join(names)})" if names else name

    def message(self, text: str) -> None:
        self._set("message", text)

    # --- recording ------------------------------------------------------------------

    def record(self, ev: Event) -> bool:
        try:
            self.battle_record.record(ev)
        except BattleError as error:
            self.message(f"Not recorded: {error}")
            return False
        self._save()
        self.message(describe(ev, self.state, self.card_names))
        self.refresh_view()
        return True

    def _save(self) -> None:
        """The record, as the battle file's ``battle`` part (on every key)."""
        try:
            self.handle.update_battle(self.number, "battle", self.battle_record.to_data(),
                                      checked=True)
        except Exception as error:  # noqa: BLE001 - shown to the player, nothing lost in memory
            self.app.push_screen(ErrorScreen("The battle could not be saved", str(error)))

    def _save_setup(self) -> None:
        """The set-up (a quick battle's, or the choices of the start walk)."""
        try:
            self.handle.update_battle(self.number, "setup", self.setup.to_data())
        except Exception as error:  # noqa: BLE001 - shown to the player, nothing lost in memory
            self.app.push_screen(ErrorScreen("The battle could not be saved", str(error)))

    def selected(self) -> FighterState | None:
        key = self.table(self._side).selected
        f = self.state.fighters.get(key) if key else None
        if f is None:
            self.message("Select a fighter first (up/down).")
        return f

    @property
    def side_gang(self) -> str:
        return self.gangs[self._side]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        ended = self.state.ended
        if action in _BATTLE_ACTIONS:
            return not ended
        if action == "finish":
            return ended
        return True

    def on_descendant_focus(self, event) -> None:  # type: ignore[no-untyped-def]
        widget = event.widget
        if isinstance(widget, FighterTable):
            self._side = self.gangs.index(widget.gang)

    # --- actions on the selected fighter ------------------------------------------------

    def action_side(self, side: int) -> None:
        self._side = side
        self.table(side).focus()

    def action_down(self, new_state: str) -> None:
        f = self.selected()
        if f is None:
            return

        def done(attack: Attack | None) -> None:
            if attack is None:
                self.message("Cancelled.")
                return
            self.record(Event("state", fighter=f.key, state=new_state, attacker=attack.attacker,
                              action=attack.action, traits=attack.traits))

        self.app.push_screen(
            AttackScreen(f"{f.name}: {STATE_NAMES[new_state]}", self.state, f.key), done)

    def action_set_state(self, new_state: str) -> None:
        f = self.selected()
        if f is not None:
            self.record(Event("state", fighter=f.key, state=new_state))

    def action_broken_by(self) -> None:
        """Broken, with its cause: the fighter whose attack broke them (a card such as
        Noble Whims' Cruel and Unusual counts only enemies your fighters caused to break).
        A fighter already Broken rallies, as with b."""
        f = self.selected()
        if f is None:
            return
        if "Broken" in f.conditions:
            self.action_condition("Broken")
            return

        def done(attack: Attack | None) -> None:
            if attack is not None:
                self.record(Event("condition", fighter=f.key, condition="Broken",
                                  attacker=attack.attacker, action=attack.action,
                                  traits=attack.traits))

        self.app.push_screen(AttackScreen(f"{f.name}: Broken, caused by", self.state, f.key),
                             done)

    def action_flesh_wound(self) -> None:
        f = self.selected()
        if f is None:
            return

        def done(attack: Attack | None) -> None:
            if attack is not None:
                self.record(Event("flesh_wound", fighter=f.key, amount=1, attacker=attack.attacker,
                                  action=attack.action, traits=attack.traits))

        self.app.push_screen(AttackScreen(f"{f.name}: Flesh Wound", self.state, f.key), done)

    def action_attack(self) -> None:
        f = self.selected()
        if f is None:
            return

        def done(attack: Attack | None) -> None:
            if attack is not None:
                self.record(Event("attack", fighter=f.key, attacker=attack.attacker,
                                  action=attack.action, traits=attack.traits))

        self.app.push_screen(
            AttackScreen(f"{f.name}: attacked, no result", self.state, f.key), done)

    def action_recovery(self) -> None:
        f = self.selected()
        if f is None:
            return
        if f.state != SERIOUSLY_INJURED:
            self.message(f"{f.name} is not Seriously Injured: no Recovery test.")
            return

        def done(result: str | None) -> None:
            if result:
                self.record(Event("recovery", fighter=f.key, result=result))

        self.app.push_screen(
            PickOneScreen(f"{f.name}: Recovery test",
                          [Pick(r, RECOVERY_NAMES[r]) for r in RECOVERY_RESULTS]), done)

    def action_condition(self, name: str) -> None:
        f = self.selected()
        if f is not None:
            self.record(Event("condition", fighter=f.key, condition=name,
                              lost=name in f.conditions))

    def action_other_condition(self) -> None:
        f = self.selected()
        if f is None:
            return

        def done(name: str | None) -> None:
            if name:
                self.record(Event("condition", fighter=f.key, condition=name,
                                  lost=name in f.conditions))

        have = f", has: {', '.join(f.conditions)}" if f.conditions else ""
        self.app.push_screen(
            LineScreen(f"{f.name}: condition gained or lost{have}",
                       placeholder="e.g. Insane, Webbed", hint="Enter to record, Esc to cancel"),
            done)

    def action_xp(self, amount: int) -> None:
        f = self.selected()
        if f is not None:
            self.record(Event("xp", fighter=f.key, amount=amount))

    def action_activate(self) -> None:
        f = self.selected()
        if f is not None:
            self.record(Event("activate", fighter=f.key))

    def action_deploy(self) -> None:
        if reinforcement_step_due(self.state, self.setup):
            self._skipped_steps.discard(self.state.round)
            self.walk_reinforcements()
            return
        f = self.selected()
        if f is None:
            return
        if f.state != NOT_DEPLOYED:
            reserves = self.state.sides[f.gang].reserves
            if not reserves:
                self.message(f"{self.state.sides[f.gang].name} have no Reinforcements left.")
                return
            f = self.state.fighters[reserves[0]]
        self.record(Event("reinforcement", fighter=f.key))
        self.table(self._side).select(f.key)

    def action_log(self) -> None:
        self.app.push_screen(LogScreen(self.battle, self.card_names))

    def action_failed_test(self) -> None:
        f = self.selected()
        if f is None:
            return

        def done(test: str | None) -> None:
            if not test:
                return
            if test == "bottle":
                self.record(Event("test_failed", gang=f.gang, test=test))
            else:
                self.record(Event("test_failed", fighter=f.key, test=test))

        options = [Pick(t, TEST_NAMES[t] + (f" ({self.state.sides[f.gang].name})" if t == "bottle"
                                            else f" ({f.name})")) for t in TESTS]
        self.app.push_screen(PickOneScreen("Which test was failed?", options), done)

    # --- battle-wide actions -------------------------------------------------------------

    def action_next_phase(self) -> None:
        st = self.state
        if (st.phase == END and st.round not in self._skipped_steps
                and reinforcement_step_due(st, self.setup)):
            # leaving an End phase whose Reinforcements step is still to do: do it first
            self.walk_reinforcements(then=self._next_phase)
            return
        self._next_phase()

    def _next_phase(self) -> None:
        if self.record(next_phase_event(self.state)) and reinforcement_step_due(self.state, self.setup):
            self.walk_reinforcements()

    # --- the Reinforcements step of the End phase ------------------------------------------

    def walk_reinforcements(self, then=None) -> None:  # type: ignore[no-untyped-def]
        """One prompt at a time: Priority (if not recorded this round), each gang's number
        due, then the draws; ``then`` runs once the step is done (not when skipped)."""
        st = self.state
        if not reinforcement_step_due(st, self.setup):
            if then is not None:
                then()
            return
        title = f"Round {st.round} · Reinforcements"
        if needs_priority(st, self.setup):
            def chose(gang: str | None) -> None:
                if not gang:
                    self._skip_step()
                elif self.record(Event("priority", gang=gang)):
                    self.walk_reinforcements(then)

            self.app.push_screen(PickOneScreen(
                f"{title}: who won Priority this round?",
                [Pick(g, self.state.sides[g].name) for g in self.gangs],
                detail="The Priority winner draws first; players then alternate. Esc skips "
                       "the Reinforcements step."), chose)
            return
        gang = due_roll_needed(st, self.setup)[0] if due_roll_needed(st, self.setup) else ""
        if gang:
            expr = self.setup.reinforcements_each_round
            side = st.sides[gang]
            if not parse(expr).dice:  # a fixed number: nothing to roll
                if self.record(due_event(gang, st.round, roll(expr, munda_app(self).rng))):
                    self.walk_reinforcements(then)
                return

            def rolled(outcome: DiceOutcome | None) -> None:
                if outcome is None or outcome.roll is None:
                    self._skip_step()
                elif self.record(due_event(gang, self.state.round, outcome.roll)):
                    self.walk_reinforcements(then)

            self.app.push_screen(DicePrompt(
                expr, title=title, who=f"{side.name}: how many arrive this round",
                detail=f"{plural(len(side.reserves), 'card')} in their Reinforcements deck",
                rng=munda_app(self).rng,
                prefer_entry=self.handle.campaign.settings.dice_by_hand), rolled)
            return

        def walked(result: str | None) -> None:
            if result is None:
                self._skip_step()
            else:
                self.walk_reinforcements(then)

        self.app.push_screen(ReinforcementScreen(
            self.battle, self.record, self.action_undo, munda_app(self).rng,
            prefer_entry=self.handle.campaign.settings.dice_by_hand), walked)

    def _skip_step(self) -> None:
        self._skipped_steps.add(self.state.round)
        self.message("Reinforcements step skipped (d resumes it; n moves on).")

    def action_priority(self) -> None:
        def done(gang: str | None) -> None:
            if gang:
                self.record(Event("priority", gang=gang))

        self.app.push_screen(
            PickOneScreen("Who won Priority?",
                          [Pick(g, self.state.sides[g].name) for g in self.gangs]), done)

    def action_tactic(self) -> None:
        gang = self.side_gang

        def done(name: str | None) -> None:
            if name is not None:
                self.record(Event("tactic", gang=gang, note=name))

        self.app.push_screen(
            LineScreen(f"{self.state.sides[gang].name} play a Gang Tactic",
                       placeholder="its name (optional), Enter to record", allow_empty=True,
                       hint="Enter to record, Esc to cancel"), done)

    def action_side_job(self) -> None:
        self.record(Event("side_job", gang=self.side_gang))

    def action_vp(self, amount: int) -> None:
        self.record(Event("vp", gang=self.side_gang, amount=amount))

    def action_undo(self) -> None:
        ev = self.battle_record.undo()
        if ev is None:
            self.message("Nothing to undo.")
            return
        self._save()
        self.message(f"Undone: {describe(ev, self.state, self.card_names)}")
        self.refresh_view()

    def action_redo(self) -> None:
        try:
            ev = self.battle_record.redo()
        except BattleError as error:
            self.message(f"Cannot redo: {error}")
            return
        if ev is None:
            self.message("Nothing to redo.")
            return
        self._save()
        self.message(f"Redone: {describe(ev, self.state, self.card_names)}")
        self.refresh_view()

    def action_end(self) -> None:
        def done(choice: EndChoice | None) -> None:
            if choice is not None:
                self.record(Event("end", winner=choice.winner, fled=choice.fled))

        self.app.push_screen(
            EndScreen([(g, self.state.sides[g].name) for g in self.gangs]), done)

    def action_back(self) -> None:
        self.app.pop_screen()

    # --- each player's hand on their own phone ---------------------------------------------

    def phone_views(self):  # type: ignore[no-untyped-def]
        """Each gang's own hand view (rules.hand_view): what its phone page shows."""
        from munda_tui.rules.hand_view import hand_views

        matches = self.matches  # feeds the watch
        reminders = self._watch.reminders() if self._watch is not None else []
        return hand_views(self.setup, self.state, matches,
                          {g: self._player(g) for g in self.gangs}, reminders)

    @work(group="dialog")
    async def action_phones(self) -> None:
        """m: serve each player's hand on their phone (the address asked first), then each
        player in turn sees their own link behind their curtain; m again stops."""
        if self.phones.running:
            self.phones.stop()
            self.message("Phones: stopped; the links no longer work.")
            self.refresh_view()
            return
        from munda_tui.phone import default_host, parse_bind
        from munda_tui.phone.net import DEFAULT_PORT

        address = await self.app.push_screen_wait(bind_dialog(f"{default_host()}:{DEFAULT_PORT}"))
        if address is None:
            self.message("Phones: not started.")
            return
        host, port = parse_bind(address)  # the dialog accepted it
        try:
            self.phones.start(host, port, self.phone_views())
        except PhoneServerError as error:
            self.app.push_screen(ErrorScreen("The phone links could not be served", str(error)))
            return
        self.refresh_view()
        await self._show_links([g for g in self.gangs if self.hands.get(g)])

    async def _show_links(self, gangs: list[str]) -> None:
        """Each player in turn: their curtain, then their link and its QR code (a player
        who leaves the curtain with Esc is skipped). From a worker."""
        for gang in gangs:
            if not self.phones.running:
                return
            name, player = self.state.sides[gang].name, self._player(gang)
            url = self.phones.links.get(gang, "")
            if await self.app.push_screen_wait(
                    PrivacyCurtain(player or name, f"to see the phone link of {name}")):
                await self.app.push_screen_wait(LinkScreen(name, player, url))
        if self.phones.running:
            self.message(f"Phones: serving the hands on {self.phones.address} "
                         "(m stops, M shows a link again).")

    @work(group="dialog")
    async def action_phone_link(self) -> None:
        gang = self.side_gang
        if not self.phones.running:
            self.message("Phones are not served: m serves each player's hand on their phone.")
            return
        if not self.hands.get(gang):
            self.message(f"{self.state.sides[gang].name} hold no Sub-plots.")
            return
        await self._show_links([gang])

    def on_unmount(self) -> None:
        self.phones.stop()  # leaving the battle stops the phones

    # --- Sub-plots -----------------------------------------------------------------------

    def _player(self, gang: str) -> str:
        try:
            return self.handle.campaign.gang(gang).player
        except KeyError:
            return ""

    def action_hand(self) -> None:
        gang = self.side_gang
        name = self.state.sides[gang].name
        hand = self.hand_matches(gang)
        if not hand:
            self.message(f"{name} hold no Sub-plots.")
            return

        def done(card: str | None) -> None:
            self._mark_seen(gang)
            if card:
                self.reveal(gang, card)

        peek(self, name, self._player(gang), hand, done, shown=set(self.shown.get(gang, {})),
             notes=self.owner_notes(gang), passed=self.passed_moments(gang))

    def start_walk_due(self) -> bool:
        """The start of the game is walked once, with Sub-plots in play, before round 1
        has moved on (Esc at a curtain leaves it for the next time the battle opens)."""
        return self.battle_record.start_walk_due(self.setup, self.hands)

    async def _walk_start(self) -> None:
        from munda_tui.screens.battle.start import walk_start_of_game

        walked = await walk_start_of_game(self)
        done = len(walked) == len(self.setup.sides)
        self.battle_record.update_public(self.setup)
        self._watch = None  # the choices are facts of the watch (Dead of Night's round)
        self._matches_rev = -1
        # walking the start is looking at its reminders
        self.battle_record.walked_start(
            {g: [r.key for r in self.reminders if r.gang == g and r.timing == "battle_start"]
             for g in walked}, everyone=done)
        self._save_setup()
        self._save()
        self.refresh_view()
        shown = [self._public_name(g, c) for g in self.gangs for c in self.shown.get(g, {})
                 if subplots.card(c).reveal == "start_of_battle"]
        said = f" Revealed: {', '.join(shown)}." if shown else ""
        self.message(("Start of the battle walked: round 1 begins." if done else
                      "The start of the battle is not walked for everyone yet: it is "
                      "offered again when the battle reopens in round 1.") + said)

    def owner_notes(self, gang: str) -> dict[str, str]:
        """What only the owner reads on their peek: each card's choice (a secret number,
        the fighter picked) and the reminders whose time has come."""
        from munda_tui.rules.watch import TIMINGS

        notes: dict[str, list[str]] = {}
        side = next((s for s in self.setup.sides if s.gang == gang), None)
        for cid, value in (side.subplot_choices if side else {}).items():
            if not value:
                continue
            names = [self.state.name_of(f"{g}/{part}") if f"{g}/{part}" in self.state.fighters
                     else part for part in value.split("|") for g in [self._owner_of(part, gang)]]
            try:
                secret = subplots.card(cid).choice_info.secret
            except subplots.SubplotError:
                continue
            label = "Your secret choice" if secret else "Chosen"
            notes.setdefault(cid, []).append(f"{label}: {' and '.join(names)}")
        seen = self.battle_record.seen.get(gang, ())
        passed = self.passed_moments(gang)
        for r in self.reminders:
            if r.gang == gang:
                due = "" if r.key in seen else " (new)"
                check = (f"its moment ({passed[r.card]}) has passed" if r.card in passed
                         else "check this card")
                notes.setdefault(r.card, []).append(
                    f"Reminder{due}: {TIMINGS.get(r.timing, r.timing)} - {check}")
        return {c: "\n".join(lines) for c, lines in notes.items()}

    def passed_moments(self, gang: str) -> dict[str, str]:
        """For the owner's peek only: the cards of the hand, not revealed, whose moment has
        passed (a Choose Crew card not revealed at Choose Crew), with that moment."""
        side = next((s for s in self.setup.sides if s.gang == gang), None)
        if side is None:
            return {}
        st = self.state
        revealed = set(st.sides[gang].revealed) if gang in st.sides else set()
        out = {}
        for cid in side.hand:
            if cid in revealed:
                continue
            moment = subplots.moment_passed(cid, st.round, st.ended, side.subplot_choices)
            if moment:
                out[cid] = moment
        return out

    def _owner_of(self, fighter_id: str, gang: str) -> str:
        """The gang whose fighter has this id (the owner's first, then the other)."""
        for g in [gang, *[x for x in self.gangs if x != gang]]:
            if f"{g}/{fighter_id}" in self.state.fighters:
                return g
        return gang

    def _mark_seen(self, gang: str) -> None:
        """The owner has looked: their marker stays off until another card is met."""
        met = marker_keys(gang, self.hand_matches(gang), self.reminders)
        if self.battle_record.mark_seen(gang, met):
            self._save()
            self.refresh_view()

    def reveal(self, gang: str, card: str, then=None) -> None:  # type: ignore[no-untyped-def]
        match = next(m for m in self.hand_matches(gang) if m.card == card)
        mode = DEFER if match.reward_at == "end" and not self.state.ended else REVEAL
        from munda_tui.rules.subplot_effects import post_battle_step

        later = post_battle_step(card)
        if later:  # its reward needs the post-battle results (e.g. the Lasting Injuries)
            mode = DEFER
        chosen = self.shown.get(gang, {}).get(card, "").split("|")[0]
        if not match.fighter and f"{gang}/{chosen}" in self.state.fighters:
            match = replace(match, fighter=f"{gang}/{chosen}")  # the fighter the card chose

        def done(result: RevealResult | None) -> None:
            if result is not None:
                self.record(self.battle_record.reveal_event(gang, card, result))
            if then is not None:
                then()

        self.app.push_screen(
            RevealScreen(self.state.sides[gang].name, match, self.state, munda_app(self).rng,
                         mode=mode, prefer_entry=self.handle.campaign.settings.dice_by_hand,
                         later=f"in the post-battle sequence ({later.replace('-', ' ')} step)"
                         if later else ""),
            done,
        )

    def action_finish(self) -> None:
        """Walk the rewards due, offer each player a last peek at their hand, confirm."""
        self._offered: set[str] = set()
        self._finish_step()

    def _finish_step(self) -> None:
        due = [m for m in self.matches if m.reward_due]
        if due:
            m = due[0]

            def walked(result: RevealResult | None) -> None:
                if result is None:
                    return
                if self.record(self.battle_record.reward_event(m.gang, m.card, result)):
                    self._finish_step()

            self.app.push_screen(
                RevealScreen(self.state.sides[m.gang].name, m, self.state, munda_app(self).rng,
                             mode=REWARD,
                             prefer_entry=self.handle.campaign.settings.dice_by_hand),
                walked,
            )
            return

        # Cards revealed at the end or in the Wrap-up: every player still holding a
        # card may look (Esc skips); asking everyone keeps met cards secret.
        for gang in self.gangs:
            if gang in self._offered:
                continue
            held = [m for m in self.hand_matches(gang) if m.status != REVEALED]
            if not held:
                continue
            self._offered.add(gang)
            name = self.state.sides[gang].name

            def looked(card: str | None, gang: str = gang) -> None:
                self._mark_seen(gang)
                if card:
                    self.reveal(gang, card, then=self._finish_step)
                else:
                    self._finish_step()

            peek(self, name, self._player(gang), self.hand_matches(gang), looked,
                 notes=self.owner_notes(gang),
                 shown=set(self.shown.get(gang, {})),
                 reason=f"a last look at the Sub-plots of {name} before the battle is "
                        f"finished (Esc: skip)",
                 on_skip=self._finish_step)
            return

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.finish()

        self.app.push_screen(ConfirmScreen(
            "Finish the battle and open the post-battle sequence?",
            "Each player may first peek at their hand (h) to reveal a Sub-plot met at the end.",
            yes="Finish", no="Not yet"), confirmed)

    def finish(self) -> None:
        """Store the outcome, mark the battle post-battle, open the post-battle sequence."""
        before_outcome = self.battle_record.outcome
        o = self.battle_record.finish(self.setup, self.card_names)
        if not munda_app(self).guarded_save(
                "The battle's outcome",
                lambda: self.handle.update_battle(self.number, "battle", self.battle_record.to_data())):
            self.battle_record.outcome = before_outcome
            return  # still in the tracker, the battle as it was saved last
        summary = self._summary()
        if summary is None:
            summary = BattleSummary(number=self.number, status=BattleStatus.BATTLE)
            self.handle.campaign.battles.append(summary)
        before = (summary.status, summary.winner, list(summary.gangs), summary.scenario)
        advance(summary, BattleStatus.POST_BATTLE)
        summary.winner = o.winner
        summary.gangs = list(o.gangs)
        if self.setup.objective and not summary.scenario:
            summary.scenario = self.setup.objective
        if not munda_app(self).guarded_save("The campaign", self.handle.save):
            summary.status, summary.winner, summary.gangs, summary.scenario = before
            return  # still in the tracker; finishing again once the disk is fixed moves on
        munda_app(self).open_battle(self.number)
