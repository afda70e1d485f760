"""The battle tracker's keys and its help, read from the data when the screen's module
loads (a condition of ``data/conditions.toml`` is a key): :func:`bindings` and
:func:`help_text` are called by :class:`munda_tui.screens.battle.screen.BattleScreen`'s
class body, so reloading that module with other data gives other keys."""

from __future__ import annotations

from textual.binding import Binding, BindingType
from textual.screen import Screen

from munda_tui.rules.battle import conditions as condition_data
from munda_tui.rules.core.data import RuleData
from munda_tui.rules.battle.events import ACTIVE, ENGAGED, FLED, OUT_OF_ACTION, PINNED, SERIOUSLY_INJURED
from munda_tui.textual_private import add_binding

#: actions that change the battle (refused once it is over)
BATTLE_ACTIONS = {
    "down", "set_state", "flesh_wound", "recovery", "condition", "other_condition", "broken_by",
    "activate", "failed_test", "attack", "deploy", "next_phase", "priority", "tactic", "vp",
    "end",
}


def _b(key: str, action: str, short: str, long: str, show: bool = True) -> Binding:
    name, _, args = action.partition("(")
    args = args.rstrip(")").replace("'", "").replace('"', "").lower().replace(" ", "-")
    return Binding(key, action, short, show=show, tooltip=long,
                   id=f"battle.{name}-{args}" if args else f"battle.{name}")


def condition_bindings(data: RuleData | None = None) -> list[Binding]:
    """One key per fighter condition of data/conditions.toml (and the packs' in
    ``data``): gain it, or lose it."""
    return [_b(c.key, f"condition('{c.name}')", c.label, c.help, show=c.footer)
            for c in condition_data.conditions(data)]


def pack_condition_bindings(data: RuleData) -> list[Binding]:
    """The keys of the packs' conditions alone (the class's bindings have the package's):
    bound by each tracker screen for the packs in force."""
    package = {c.name for c in condition_data.conditions()}
    return [b for b, c in zip(condition_bindings(data), condition_data.conditions(data))
            if c.name not in package]


def bind_pack_conditions(screen: Screen[None], data: RuleData) -> None:
    """A tracker screen binds the keys of the packs' conditions in force and lists them in
    its help (the class's bindings and help are the package's)."""
    extra = pack_condition_bindings(data)
    if not extra:
        return
    for binding in extra:
        add_binding(screen, binding)
    setattr(screen, "HELP", help_text([*screen.BINDINGS, *extra], data))  # (this screen's own)


def condition_key(data: RuleData | None = None) -> str:
    """The Cond column's abbreviations, for the help: "Brk Broken, Blz Blaze, ..."."""
    return ", ".join(f"{c.short} {c.name}" for c in condition_data.conditions(data))



def bindings() -> list[BindingType]:
    """Every key of the tracker, in the footer's order."""
    return [
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
           "whom; {key:attack.done} skips): the log then knows who broke whom", show=False),
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
           "network, show each link behind its player's curtain ({key:battle.phones} again stops)",
           show=False),
        _b("M", "phone_link", "Phone link again", "Show the selected crew's phone link again, "
           "behind its player's curtain", show=False),
        _b("E", "end", "End", "End the battle: winner or draw, who fled"),
        _b("F", "finish", "Finish", "Finish: walk rewards due, open the post-battle sequence"),
        Binding("left", "side(0)", "Left crew", show=False, priority=True, id="battle.side-0"),
        Binding("right", "side(1)", "Right crew", show=False, priority=True, id="battle.side-1"),
        _b("escape", "back", "Back", "Back to the campaign (the battle is saved)", show=False),
    ]


def help_text(keys: list[BindingType], data: RuleData | None = None) -> str:
    """The help: what the tracker does, then the keys the footer does not show. Every key
    is named by its binding id (``{key:<id>}``), which the help fills with the key in force
    (``widgets.keys.keys_text``): a remapped key reads as the player has it."""
    about = (
        "Both crews side by side; {key:battle.side-0}/{key:battle.side-1} (or Tab, or a click) "
        "picks a crew, {key:fighter_table.move--1}/{key:fighter_table.move-1} a fighter. "
        "Keys act on the selected fighter; {key:battle.down-seriously_injured}, "
        "{key:battle.down-out_of_action} and {key:battle.flesh_wound} ask who did it and how "
        "({key:attack.done} skips). Every key is one event in the log, saved at once; "
        "{key:battle.undo} undoes, {key:battle.redo} redoes. "
        "{key:battle.hand} lets a player peek at their own hand behind a curtain and reveal a "
        "card; a ◆ on a side means one of its Sub-plots is newly met (it goes once its owner "
        "has looked). "
        "Table columns: + activated this round; Ty type (L Leader, C Champion, G Ganger, "
        f"J Juve); Cond: {condition_key(data)}, FWn Flesh Wounds; › marks the "
        "selected fighter.\n"
        "Reinforcements (X): entering (or leaving) the End phase of a round in which "
        "Reinforcements are due walks the Reinforcements step: who won Priority (if not "
        "recorded this round), how many each gang draws (rolled or real dice), then the "
        "draws, players alternating from the Priority winner: {key:reinforcement.draw} draws "
        "at random and rolls the D6 (3+: 9\", 1-2: 12\" from all enemy models), "
        "{key:reinforcement.digit-1} takes a real die's face, {key:reinforcement.choose} names "
        "the card dealt by hand. Each arrival is one event ({key:reinforcement.undo} undoes "
        "it); {key:reinforcement.back} skips the rest, {key:battle.deploy} resumes it.\n"
        "Phones ({key:battle.phones}): each player keeps their hand on their own phone. "
        "{key:battle.phones} asks the address to serve on (the laptop's, on the table's "
        "Wi-Fi), then shows each player's secret link and its QR code behind their curtain; "
        "the page follows the battle live. {key:battle.phone_link} shows the selected crew's "
        "link again; {key:battle.phones} again, or leaving the battle, stops it.\n"
    )
    return about + "\nMore keys: " + " · ".join(
        f"{{key:{b.id}}} {b.description}" for b in keys
        if isinstance(b, Binding) and not b.show and b.id not in ("battle.side-0", "battle.side-1")
    ) + " · {key:battle.side-0}/{key:battle.side-1} pick a crew."
