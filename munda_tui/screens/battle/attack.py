"""Quick modal: who did it and how (attacker, action, weapon traits).

Enter records the event with what is set (nothing set = skipped); Escape
cancels the event. Keys: up/down pick the attacker, letters pick the action,
digits toggle weapon traits, ``t`` types another trait.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input
from munda_tui.widgets.plain import Label, OptionList, Static
from textual.widgets.option_list import Option

from munda_tui.rules.battle.events import ACTION_NAMES, NOT_DEPLOYED, TRAITS, BattleState
from munda_tui.rules.battle.flow import Attack
from munda_tui.screens.common.dialogs import DIALOG_CSS, DialogScreen
from munda_tui.widgets.footer import Footer
from munda_tui.widgets.keys import key_for

#: action key -> action id
ACTION_KEYS = {"s": "shoot", "f": "fight", "c": "coup_de_grace", "r": "reaction",
               "a": "fall", "o": "other"}
#: digit -> trait
TRAIT_KEYS = {str((i + 1) % 10): t for i, t in enumerate(TRAITS)}


def trait_id(trait: str) -> str:
    """The binding id of a trait's key (the keymap's name for it)."""
    return f"attack.trait-{trait.lower().replace(' ', '-')}"


class AttackScreen(DialogScreen["Attack | None"]):
    CSS_PATH = [DIALOG_CSS, "modals.tcss"]  # the kit's frame; its own sizes
    BINDINGS = [
        *[Binding(k, f"action('{a}')", ACTION_NAMES[a], show=False, id=f"attack.action-{a}") for k, a in ACTION_KEYS.items()],
        *[Binding(d, f"trait('{t}')", t, show=False, id=trait_id(t)) for d, t in TRAIT_KEYS.items()],
        Binding("t", "other_trait", "Other trait", show=False, id="attack.other_trait"),
        Binding("enter", "done", "Record", id="attack.done"),
        Binding("escape", "cancel", "Cancel", id="attack.cancel"),
    ]

    def __init__(self, title: str, state: BattleState, victim: str) -> None:
        super().__init__()
        self.title_text = title
        self.state = state
        self.victim = victim
        self.action = ""
        self.traits: list[str] = []

    def compose(self) -> ComposeResult:
        victim = self.state.fighters[self.victim]
        # a fighter still in the Reinforcements deck (not yet deployed) harmed nobody
        deployed = [f for f in self.state.fighters.values() if f.state != NOT_DEPLOYED]
        enemies = [f for f in deployed if f.gang != victim.gang]
        friends = [f for f in deployed if f.gang == victim.gang and f.key != victim.key]
        options = [Option("(attacker not recorded)", id="-")]
        options += [Option(f"{f.name} ({f.type})", id=f.key) for f in enemies + friends]
        with Vertical(id="dialog", classes="attack"):
            yield Label(self.title_text, id="dialog-title")
            yield Static(f"By whom? (up/down)  {key_for(self, 'attack.done')}: record  "
                         f"{key_for(self, 'attack.cancel')}: cancel", classes="hint")
            yield OptionList(*options, id="attackers")
            yield Static(
                "Action: " + "  ".join(f"{key_for(self, f'attack.action-{a}')} {ACTION_NAMES[a]}"
                                       for a in ACTION_KEYS.values()),
                classes="keys", markup=False)
            yield Static(
                "Traits: " + "  ".join(f"{key_for(self, trait_id(t))} {t}" for t in TRAIT_KEYS.values())
                + f"  {key_for(self, 'attack.other_trait')} other",
                classes="keys", markup=False)
            yield Input(placeholder="another trait, Enter to add", id="other-trait",
                        classes="hidden")
            yield Static("", id="chosen", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#attackers", OptionList).focus()
        self._show()

    def _show(self) -> None:
        action = ACTION_NAMES.get(self.action, "-") if self.action else "-"
        traits = ", ".join(self.traits) or "-"
        self.query_one("#chosen", Static).update(f"Action: {action}   Traits: {traits}")

    def action_action(self, action: str) -> None:
        self.action = "" if self.action == action else action
        self._show()

    def action_trait(self, trait: str) -> None:
        if trait in self.traits:
            self.traits.remove(trait)
        else:
            self.traits.append(trait)
        self._show()

    def action_other_trait(self) -> None:
        field = self.query_one("#other-trait", Input)
        field.remove_class("hidden")
        field.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        if value and value not in self.traits:
            self.traits.append(value)
        event.input.value = ""
        event.input.add_class("hidden")
        self.query_one("#attackers", OptionList).focus()
        self._show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if isinstance(self.focused, Input) and action in ("action", "trait", "other_trait"):
            return False
        return True

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_done()

    def action_done(self) -> None:
        options = self.query_one("#attackers", OptionList)
        attacker = ""
        if options.highlighted is not None:
            opt = options.get_option_at_index(options.highlighted)
            attacker = "" if opt.id == "-" else str(opt.id)
        self.dismiss(Attack(attacker, self.action, tuple(self.traits)))

    def action_cancel(self) -> None:
        self.dismiss(None)
