"""Issue 26, Done when: for every binding id, remap it and check that every on-screen text
naming that action shows the new key.

Every binding id of the app is remapped at once, each to a key of its own that no
default uses (``f1`` ... ``ctrl+super+f24``), and the app is walked, by those new keys,
to each screen (and dialog) these tests reach. On each:

* the footer shows only the new keys of the bindings in force;
* the help lists each binding with its new key (the key column, by id);
* no text on the screen or in the help's about text still names a binding in force by
  its old key: "press r", "r: roll", "(d)", "Enter: next step", "u to undo" ...

The walks are kept honest twice: after each walk, every binding id of the classes it
names was seen in force on a screen it checked (``EXCUSED`` would say why an id only
in force in a state no walk reaches is not: none is); and every class with bindings is
named by a walk (``test_every_class_with_bindings_is_walked_or_said_why_not``: every id, 256 now)."""

from __future__ import annotations

from munda_tui.rules.battle.events import PhaseEvent

import re
from pathlib import Path
from typing import Any, Awaitable, Callable

import pytest

import munda_tui.app  # noqa: F401 - the app's own bindings are among them
from munda_tui.keymap import all_bindings
from munda_tui.widgets.keys import _prose, default_binding

from support import open_saved_battle, screen_text, wait_for_screen

SIZE = (120, 40)

_MODS = ["", "ctrl+", "shift+", "alt+", "super+", "hyper+", "meta+", "ctrl+alt+",
         "ctrl+shift+", "alt+shift+", "ctrl+super+", "ctrl+meta+"]
IDS = sorted(all_bindings())
NEW: dict[str, str] = dict(zip(IDS, (f"{m}f{i}" for m in _MODS for i in range(1, 25))))
assert len(NEW) == len(IDS), "more binding ids than remap keys: add modifiers"

#: ids seen in force on a screen walked (filled by each walk, checked after it)
SEEN: set[str] = set()
#: the helps a walk has checked: (screen class, the ids in force)
HELPED: set[tuple[type, frozenset[str]]] = set()

_VERBS = ("to|rolls|draws|goes|opens|shows|hides|picks|deals|types|reveals|undoes|redoes|"
          "cycles|asks|adds|marks|takes|toggles|skips|cancels|again|names|enters|corrects|"
          "sends|removes|moves|leaves|saves|resumes|stops|chooses|confirms|closes|starts|"
          "imports|records|serves|syncs|walks|finish|finishes|re-rolls")
_WORDS = {"enter": "Enter", "escape": "Esc(?:ape)?", "space": "Space", "delete": "Del(?:ete)?"}


def write_keymap(config_dir: Path) -> None:
    lines = ["[keymap]", *(f'"{i}" = "{k}"' for i, k in NEW.items())]
    (config_dir / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


async def press(pilot: Any, binding_id: str) -> None:
    """Press the key a binding answers to now (its new key)."""
    await pilot.press(NEW[binding_id])
    await pilot.pause()


def in_force(app: Any) -> dict[str, Any]:
    """The bindings in force on the top screen with an id: {id: binding}."""
    return {a.binding.id: a.binding for a in app.screen.active_bindings.values() if a.binding.id}


def old_names(binding_ids: set[str]) -> dict[str, str]:
    """A pattern for each old key of these bindings: {pattern: id}."""
    out: dict[str, str] = {}
    for binding_id in binding_ids:
        binding = default_binding(binding_id)
        assert binding is not None, binding_id
        for key in binding.key.split(","):
            key = key.strip()
            shown = binding.key_display if binding.key_display and len(binding.key_display) == 1 else None
            for name in filter(None, {key if len(key) == 1 else None, shown, _WORDS.get(key)}):
                out[name] = binding_id
            if "+" in key and len(key) > 1:  # ctrl+s: "Ctrl+S" in prose
                out[re.escape(_prose(None, key))] = binding_id
    return out


#: texts that look like a key and are data: a Special Territory's mark, a rule's name, a
#: round's or a battle's number ("Battle 1: set-up", not a line's), a die's face ("D6 3: 9\"
#: from enemies")
NOT_KEYS = [re.compile(r"\w \(S\)"), re.compile(r"Reinforcements \(X\)"), re.compile(r"[Rr]ound \d+"),
            re.compile(r"\bBattle \d+"), re.compile(r"\bD\d+ \d+")]


def old_key_mentions(text: str, binding_ids: set[str]) -> list[str]:
    """The places in ``text`` that still name one of these bindings by its old key."""
    for data in NOT_KEYS:
        text = data.sub(" ", text)
    found: list[str] = []
    for name, binding_id in old_names(binding_ids).items():
        k = name if len(name) > 1 and not name.isalpha() else re.escape(name)
        if len(name) > 1 and name[0].isalpha():  # Enter, Esc(ape), Space: words
            k = name
        patterns = [
            rf"\b[Pp]ress(?:es)? {k}(?![\w+])",
            rf"(?<![\w+]){k}(?:/\w)?: (?=\w)",
            rf"\({k}[),]",
            rf"(?<![\w+\-]){k} (?:{_VERBS})\b",
            rf"\b(?:{_VERBS}|or|then) {k}(?![\w+])[,.)]",
        ]
        for pattern in patterns:
            for m in re.finditer(pattern, text):
                start = max(0, m.start() - 30)
                found.append(f"{binding_id} (was {name}): …{text[start:m.end() + 30]}…")
    return found


async def check_screen(pilot: Any, where: str) -> None:
    """The footer, the help and every text of the screen on top name the new keys."""
    app = pilot.app
    await pilot.pause()
    bindings = in_force(app)
    SEEN.update(bindings)
    remapped = {i for i in bindings if i in NEW}
    # the footer: only new keys
    from textual.widgets._footer import FooterKey

    shown = [k for k in app.screen.query(FooterKey) if k.display and k.action]
    for key in shown:
        assert key.key in set(NEW.values()) or key.key == app.COMMAND_PALETTE_BINDING, \
            (where, key.key, key.description)
    # every text on the screen
    # and the notifications (a step's message is one), read once each
    text = "\n".join([screen_text(app), *(n.message for n in app._notifications)])
    app.clear_notifications()
    assert "{key:" not in text, (where, text)  # every placeholder filled
    problems = old_key_mentions(text, remapped)
    # the help: each binding's new key beside its id, and its about text
    screen = app.screen
    help_id = next((i for i in ("app.help", "app.help_in_field") if i in bindings), None)
    if help_id is None and app.screen.is_modal:  # a dialog: the app's keys are priority ones
        help_id = "app.help" if app.check_action("help", ()) else "app.help_in_field"
    shown = (type(screen), frozenset(bindings))  # one help each (it shows no more than these)
    if help_id is not None and shown not in HELPED:  # (in a field the help is F1's, remapped)
        HELPED.add(shown)
        await press(pilot, help_id)
        await wait_for_screen(pilot, "HelpScreen")
        helped = app.screen
        SEEN.update(in_force(app))
        from textual.binding import Binding

        for (key, _what), binding_id in zip(helped.keys, helped.ids):
            if binding_id:
                new = app.get_key_display(Binding(NEW[binding_id], ""))
                assert key == new, (where, binding_id, key, new)
        about = helped.about
        problems += [f"help: {p}" for p in old_key_mentions(about, remapped)]
        problems += [f"help hint: {p}" for p in old_key_mentions(screen_text(app), {"help.close"})]
        await press(pilot, "help.close")
        await pilot.pause()
        assert app.screen is screen
    assert problems == [], f"{where}:\n" + "\n".join(problems)


# --- the walks ---------------------------------------------------------------------------

Walk = Callable[[Any, Path], Awaitable[None]]


async def _campaign(pilot: Any, _data_dir: Path) -> None:
    await wait_for_screen(pilot, "CampaignScreen")
    await check_screen(pilot, "campaign")


async def _home(pilot: Any, _data_dir: Path) -> None:
    await wait_for_screen(pilot, "HomeScreen")
    await check_screen(pilot, "home")
    await press(pilot, "home.new")
    await wait_for_screen(pilot, "NewCampaignScreen")
    await check_screen(pilot, "new campaign")


async def _roster(pilot: Any, _data_dir: Path) -> None:
    await wait_for_screen(pilot, "CampaignScreen")
    await press(pilot, "campaign.roster")
    await wait_for_screen(pilot, "RosterScreen")
    await check_screen(pilot, "roster")
    pilot.app.screen.query_one("#gear").focus()  # the selected fighter's items
    await check_screen(pilot, "roster: the items")
    await press(pilot, "roster.territories")
    await wait_for_screen(pilot, "TerritoriesScreen")
    await check_screen(pilot, "territories")


async def _campaign_screens(pilot: Any, _data_dir: Path) -> None:
    await wait_for_screen(pilot, "CampaignScreen")
    for binding_id, name, back in (("campaign.charts", "ChartsScreen", "charts.back"),
                                   ("campaign.settings", "SettingsScreen", "settings.back"),
                                   ("campaign.catalogue", "CatalogueScreen", "catalogue.back")):
        await press(pilot, binding_id)
        await wait_for_screen(pilot, name)
        await check_screen(pilot, name)
        await press(pilot, back)
        await wait_for_screen(pilot, "CampaignScreen")


async def _prebattle_new(pilot: Any, _data_dir: Path) -> None:
    await wait_for_screen(pilot, "CampaignScreen")
    await press(pilot, "campaign.new_battle")
    await wait_for_screen(pilot, "PreBattleScreen")
    await check_screen(pilot, "pre-battle: gangs")
    await press(pilot, "pre_battle.next_step")
    await check_screen(pilot, "pre-battle: battlefield")


def _prebattle_state(name: str) -> Walk:
    async def walk(pilot: Any, _data_dir: Path) -> None:
        await open_saved_battle(pilot)
        await check_screen(pilot, f"pre-battle: {name}")
        if name == "scenario":  # a line decided: the dice prompt
            await press(pilot, "scenario_step.decide")
            await wait_for_screen(pilot, "DicePrompt")
            await check_screen(pilot, "dice prompt")
            await press(pilot, "dice.back")
            await wait_for_screen(pilot, "PreBattleScreen")
            await press(pilot, "scenario_step.roll_rest")
            await press(pilot, "scenario_step.roll_rest")  # all rolled: says which key re-rolls
            await check_screen(pilot, "pre-battle: every line rolled")
        if name == "pitch-black":  # rolled from a real die, then Enter again
            await pilot.press("down", "enter")
            await wait_for_screen(pilot, "DicePrompt")
            await press(pilot, "dice.enter")
            await pilot.press("3", "enter")
            await wait_for_screen(pilot, "PreBattleScreen")
            await pilot.press("enter")  # Enter never re-rolls: says which key does
            await check_screen(pilot, "pre-battle: Pitch Black rolled")
        if name == "subplots":
            await press(pilot, "pre_battle.next_step")
            await check_screen(pilot, "pre-battle: subplots, next")
    return walk


async def _postbattle(pilot: Any, _data_dir: Path) -> None:
    await wait_for_screen(pilot, "CampaignScreen")
    pilot.app.open_battle(1)
    await wait_for_screen(pilot, "PostBattleScreen")
    await check_screen(pilot, "post-battle: a roll")
    await pilot.press("enter")  # Enter alone never rolls: the hint names the key that does
    await check_screen(pilot, "post-battle: Enter on a roll")
    await press(pilot, "post_battle.roll")
    await check_screen(pilot, "post-battle: rolled")
    await press(pilot, "post_battle.undo")  # a roll is kept: says which key re-rolls
    await check_screen(pilot, "post-battle: a roll kept")
    import random

    from munda_tui.screens.postbattle.screen import PromptOptions
    from postbattle_support import answer_default

    screen, rng = pilot.app.screen, random.Random(3)
    for _ in range(40):  # on to a step where entries are added (each question answered)
        if screen.seq.pending is None and screen.seq.entry_options():
            break
        if screen.seq.pending is not None:
            answer_default(screen.seq, rng)
            screen._changed()
        else:
            await press(pilot, "post_battle.next")
    await pilot.pause()
    await check_screen(pilot, "post-battle: nothing asked, entries to add")
    await press(pilot, "post_battle.add")  # an entry, and the question it asks
    await wait_for_screen(pilot, "PickOneScreen")
    await press(pilot, "pick_one.pick-2")  # (receive rewards: XP for a fighter: which?)
    await wait_for_screen(pilot, "PostBattleScreen")
    await wait_until_focused(pilot, PromptOptions)
    await check_screen(pilot, "post-battle: a choice")  # its lines' numbers


async def _dialogs(pilot: Any, _data_dir: Path) -> None:
    await wait_for_screen(pilot, "CampaignScreen")
    await press(pilot, "campaign.report")  # the selected battle's report
    await wait_for_screen(pilot, "ReportScreen")
    await check_screen(pilot, "report")
    await press(pilot, "report.close")
    await wait_for_screen(pilot, "CampaignScreen")
    await press(pilot, "campaign.back")  # the list, then a question
    await wait_for_screen(pilot, "HomeScreen")
    await check_screen(pilot, "home, a campaign listed")
    await press(pilot, "home.delete")
    await wait_for_screen(pilot, "ConfirmScreen")
    await check_screen(pilot, "confirm")
    await press(pilot, "confirm.answer-False")
    await wait_for_screen(pilot, "HomeScreen")


async def _draw(pilot: Any, _data_dir: Path) -> None:
    import copy
    import random

    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.screens.prebattle.subplot_draw import SubplotDrawScreen

    await wait_for_screen(pilot, "CampaignScreen")
    campaign = demo_campaign()  # two gangs of one Gang Rating: a roll-off first
    twin = copy.deepcopy(campaign.gangs[0])
    twin.id, twin.name = "twin", "The Twins"
    pilot.app.push_screen(SubplotDrawScreen(campaign.gangs[0], twin, campaign.settings,
                                            random.Random(1)))
    await wait_for_screen(pilot, "SubplotDrawScreen")
    await check_screen(pilot, "Sub-plot draw: a roll-off due")
    await press(pilot, "subplot_draw.roll_off")
    await check_screen(pilot, "Sub-plot draw: rolled off")
    pilot.app.pop_screen()
    await wait_for_screen(pilot, "CampaignScreen")
    await open_saved_battle(pilot)
    await pilot.press("down", "enter")  # the step's list: "Both players agree: draw"
    await wait_for_screen(pilot, "SubplotDrawScreen")
    await check_screen(pilot, "Sub-plot draw: set-up")
    await press(pilot, "subplot_draw.next")
    await wait_for_screen(pilot, "PrivacyCurtain")
    await check_screen(pilot, "curtain")
    await press(pilot, "privacy_curtain.ready")
    await wait_for_screen(pilot, "SubplotDrawScreen")
    await check_screen(pilot, "Sub-plot draw: a turn")
    await press(pilot, "subplot_draw.draw")
    while pilot.app.screen.__class__.__name__ == "JokerScreen":
        await check_screen(pilot, "a Joker")
        await press(pilot, "joker.close")
    await check_screen(pilot, "Sub-plot draw: drawn")
    await press(pilot, "subplot_draw.hide")
    await check_screen(pilot, "Sub-plot draw: hidden")
    await press(pilot, "subplot_draw.next")  # the other player's turn
    await wait_for_screen(pilot, "PrivacyCurtain")
    await press(pilot, "privacy_curtain.ready")
    await wait_for_screen(pilot, "SubplotDrawScreen")
    await press(pilot, "subplot_draw.draw")
    while pilot.app.screen.__class__.__name__ == "JokerScreen":
        await press(pilot, "joker.close")
    await press(pilot, "subplot_draw.hide")
    await press(pilot, "subplot_draw.next")
    await check_screen(pilot, "Sub-plot draw: the summary")
    await press(pilot, "subplot_draw.peek-0")  # a peek: the curtain, the hand
    await wait_for_screen(pilot, "PrivacyCurtain")
    await press(pilot, "privacy_curtain.ready")
    await wait_for_screen(pilot, "DrawnHandScreen")
    await check_screen(pilot, "Sub-plot draw: a peek")
    await press(pilot, "hand.close")
    await wait_for_screen(pilot, "SubplotDrawScreen")
    await press(pilot, "subplot_draw.next")  # the draw kept: on to Choose Crew, hands drawn
    await wait_for_screen(pilot, "PreBattleScreen")
    await press(pilot, "pre_battle.next_step")
    await wait_until_step(pilot, "CrewStep")
    await check_screen(pilot, "pre-battle: the crews, hands drawn")
    await press(pilot, "crew_step.method")  # the crew method, typed
    await wait_for_screen(pilot, "LineScreen")
    await check_screen(pilot, "the crew method")
    await press(pilot, "line.cancel")
    await wait_for_screen(pilot, "PreBattleScreen")
    await press(pilot, "crew_step.method")  # a Random (X) crew: X to roll
    await wait_for_screen(pilot, "LineScreen")
    from textual.widgets import Input

    pilot.app.screen.query_one(Input).value = "Random (D3+4)"
    await pilot.press("enter")
    await wait_for_screen(pilot, "PreBattleScreen")
    await check_screen(pilot, "pre-battle: a Random (X) crew")
    await press(pilot, "crew_step.amount-x")
    await wait_for_screen(pilot, "DicePrompt")
    await press(pilot, "dice.roll")
    await wait_for_screen(pilot, "PreBattleScreen")
    await press(pilot, "crew_step.deal")  # dealt: the crew done, redo in force
    await check_screen(pilot, "pre-battle: a crew dealt")


async def _summary(pilot: Any, _data_dir: Path) -> None:
    await open_saved_battle(pilot)
    await press(pilot, "side_jobs_step.pick_rest")
    await press(pilot, "pre_battle.next_step")
    await wait_until_step(pilot, "SummaryStep")
    await check_screen(pilot, "pre-battle: summary")


async def wait_until_step(pilot: Any, name: str) -> None:
    from support import wait_until

    await wait_until(pilot, lambda: any(type(w).__name__ == name for w in pilot.app.screen.walk_children()),
                     name)


async def _bare_dialogs(pilot: Any, _data_dir: Path) -> None:
    """The dialog kit's questions, as any screen asks them."""
    from munda_tui.screens.common.dialogs import ErrorScreen, LineScreen, PickOneScreen, picks
    from munda_tui.screens.prebattle.modals import DealtCardsModal

    await wait_for_screen(pilot, "HomeScreen")
    for dialog, close in ((PickOneScreen("Which one?", picks(["Left", "Right"])), "pick_one.cancel"),
                          (LineScreen("A name?"), "line.cancel"),
                          (ErrorScreen("It failed", "Nothing was lost."), "error.dismiss_dialog"),
                          (DealtCardsModal("Which cards?", ["Vexa", "Sable"], 1),
                           "dealt_cards_modal.cancel")):
        pilot.app.push_screen(dialog)
        await wait_for_screen(pilot, type(dialog).__name__)
        if isinstance(dialog, LineScreen):
            await pilot.press("enter")  # nothing typed: says how to cancel
        await check_screen(pilot, type(dialog).__name__)
        await press(pilot, close)
        await wait_for_screen(pilot, "HomeScreen")


async def _forms(pilot: Any, _data_dir: Path) -> None:
    """The roster's forms (each refused once: the reason names the key that cancels),
    hiring, and the catalogue's entry."""
    from textual.widgets import Input

    await wait_for_screen(pilot, "CampaignScreen")
    await press(pilot, "campaign.roster")
    await wait_for_screen(pilot, "RosterScreen")
    for binding_id, form, typed in (
            ("roster.add_fighter", "FighterFormScreen", {"#f-name": "Neo", "#f-cost": "200"}),
            ("roster.edit_gang", "GangFormScreen", {"#f-credits": "lots"}),
            ("roster.add_item", "EquipmentFormScreen", {"#f-cost": "lots"})):
        await press(pilot, binding_id)
        await wait_for_screen(pilot, form)
        await check_screen(pilot, form)
        for field, value in typed.items():  # refused: a field to fix, the Stash cannot pay
            pilot.app.screen.query_one(field, Input).value = value
        await press(pilot, "form.save")
        assert pilot.app.screen.refusal or binding_id != "roster.add_fighter"  # said why
        await check_screen(pilot, f"{form}, refused")
        await press(pilot, "form.cancel")
        await wait_for_screen(pilot, "RosterScreen")
    await press(pilot, "roster.copy_fighter")  # Vexa's copy: the Stash cannot pay
    await wait_for_screen(pilot, "LineScreen")
    await pilot.press(*"Neo", "enter")
    await check_screen(pilot, "a copy refused")
    await press(pilot, "line.cancel")
    await wait_for_screen(pilot, "RosterScreen")
    await press(pilot, "roster.hire")
    await wait_for_screen(pilot, "HireScreen")
    await check_screen(pilot, "hire")
    await pilot.press(*"Zz", "enter", *"Neo", "enter", *"Ganger", "enter", *"9999", "enter")
    await pilot.press(*"433434317788", "enter", "enter")  # the Stash cannot pay: refused
    assert "the Stash holds" in screen_text(pilot.app)
    await check_screen(pilot, "hire, refused")
    await press(pilot, "hire.cancel")
    await wait_for_screen(pilot, "RosterScreen")
    await press(pilot, "roster.back")
    await wait_for_screen(pilot, "CampaignScreen")
    await press(pilot, "campaign.catalogue")
    await wait_for_screen(pilot, "CatalogueScreen")
    await press(pilot, "catalogue.edit")
    await wait_for_screen(pilot, "EntryScreen")
    await check_screen(pilot, "catalogue entry")
    await press(pilot, "entry.cancel")
    await wait_for_screen(pilot, "CatalogueScreen")


async def _import(pilot: Any, _data_dir: Path) -> None:
    """A Yaktribe export with a type name the app cannot place: the roles' keys."""
    await wait_for_screen(pilot, "CampaignScreen")
    await press(pilot, "campaign.import_gang")
    await wait_for_screen(pilot, "ImportGangScreen")
    await check_screen(pilot, "import")
    export = Path(__file__).parents[1] / "fixtures" / "yaktribe" / "157849.json"
    await pilot.press(*str(export), "enter")
    await check_screen(pilot, "import, checked")
    from munda_tui.widgets.keys import key_for

    preview = str(pilot.app.screen.query_one("#preview").render())  # (the roster's key)
    assert f"each weapon's kind in the roster ({key_for(pilot.app, 'roster.edit_item')})" in preview
    await press(pilot, "import_gang.import")  # refused: a type without its role
    await check_screen(pilot, "import, refused")
    await press(pilot, "import_gang.role-hanger-on")
    await press(pilot, "import_gang.back")
    await wait_for_screen(pilot, "CampaignScreen")


async def _pushed(pilot: Any, _data_dir: Path) -> None:
    """Dialogs deep in a walk (a Joker in the draw, a peek, a Sub-plot's choice, the card
    viewer, a league's conflict), as their screens push them."""
    import random

    from munda_tui.rules.core.cards import parse_card
    from munda_tui.saves.league import GangConflict
    from types import SimpleNamespace

    from munda_tui.rules.history.fold import Question
    from munda_tui.screens.campaign.league import ConflictScreen, LeagueTextScreen, QuestionScreen, SyncingScreen
    from munda_tui.screens.common.card_viewer import CardViewerScreen
    from munda_tui.screens.prebattle.subplot_draw import (DrawnHandScreen, JokerScreen,
                                                          SubplotChoiceScreen, hand_cards)

    fighters = [("vexa", "Vexa Nightshade"), ("sable", "Sable Thorn")]
    conflict = GangConflict("gangs/a.toml", "Gang A", ["credits 10 -> 20"], ["notes"],
                            ["ours", "theirs", "replay-ours"], {"replay-ours": "battle 1"})
    asked = Question("r1", 0, "credits", "g1", "", "", "credits -20", "credits would be -20",
                     ("void", "amount"), record_kind="edit", date="2026-12-03")
    from munda_tui.saves.league_packs import PackQuestion

    pack = PackQuestion("test-club", "0" * 16, "2", "1", by="Bo", date="2026-12-03")
    handle = SimpleNamespace(questions=[asked, pack], battle_numbers_by_stem=dict,
                             campaign=SimpleNamespace(gangs=[SimpleNamespace(id="g1", name="Gang A")]))
    await wait_for_screen(pilot, "HomeScreen")
    for dialog, close in (
            (JokerScreen("Ana", "Ben", parse_card("joker"), 2), "joker.close"),
            (DrawnHandScreen("Ana", hand_cards(["cawdor:6"], ["6h"])), "hand.close"),
            (SubplotChoiceScreen("industrial-sabotage:3", "Ana", fighters, fighters,
                                 random.Random(3), curtained=True), "subplot_choice.cancel"),
            (CardViewerScreen("delaque:10"), "card_viewer.close"),
            (ConflictScreen([conflict]), "league.cancel"),
            (LeagueTextScreen("Not yet shared", ["Nothing new to share."]), "league_text.close"),
            (SyncingScreen(), "league.stop"),
            (QuestionScreen(handle), "league.close")):
        pilot.app.push_screen(dialog)
        await wait_for_screen(pilot, type(dialog).__name__)
        await check_screen(pilot, type(dialog).__name__)
        if isinstance(dialog, SubplotChoiceScreen):
            await press(pilot, "subplot_choice.random")  # says which key confirms
            await check_screen(pilot, "SubplotChoiceScreen, picked")
        if isinstance(dialog, ConflictScreen):
            await press(pilot, "league.done")  # refused: nothing chosen
            await press(pilot, "league.replay")
            await check_screen(pilot, "ConflictScreen, chosen")
        if isinstance(dialog, CardViewerScreen):
            await press(pilot, "card_viewer.step-1")
        if isinstance(dialog, QuestionScreen):
            await press(pilot, "league.keep")  # refused: the rules do not allow it here
            await pilot.press("down")  # the pack's question: its own answers in force
            await check_screen(pilot, "QuestionScreen, a pack's question")
        await press(pilot, close)
        if isinstance(dialog, SyncingScreen):  # (it stops the sync; the sync's end closes it)
            assert "Stopping" in str(dialog.query_one("#syncing-hint").render())
            pilot.app.pop_screen()
        await wait_for_screen(pilot, "HomeScreen")


async def _multi_pick(pilot: Any, _data_dir: Path) -> None:
    """A post-battle list question (who fought?)."""
    await wait_for_screen(pilot, "CampaignScreen")
    pilot.app.open_battle(1)
    await wait_for_screen(pilot, "PostBattleScreen")
    from munda_tui.screens.postbattle.screen import MultiPick

    await wait_until_focused(pilot, MultiPick)
    await check_screen(pilot, "post-battle: a list")


async def wait_until_focused(pilot: Any, cls: type) -> None:
    from support import wait_until

    await wait_until(pilot, lambda: isinstance(pilot.app.screen.focused, cls), cls.__name__)


def _seed_by_hand(data_dir: Path) -> dict[str, Any]:
    from postbattle_support import seed_battle

    return {"campaign": seed_battle(data_dir, tracker=False)}


def _seed_tracker(data_dir: Path) -> dict[str, Any]:
    """Battle 1 in the tracker, round 1's Action phase: a Sub-plot in each hand (Stimmer
    Rampage, whose reveal has rewards to walk), Reinforcements due from round 1."""
    from munda_tui.rules.battle.events import Battle, Event, default_setup, start_event
    from munda_tui.rules.campaign.demo import demo_campaign
    from munda_tui.rules.core.model import BattleSummary
    from munda_tui.saves import Store

    c = demo_campaign()
    c.battles.append(BattleSummary(1, date="2026-01-15", gangs=[c.gangs[0].id, c.gangs[1].id],
                                   status="battle"))
    setup = default_setup(c, 1, c.gangs[0].id, c.gangs[1].id)
    setup.objective = "Sabotage"
    setup.subplots = True
    setup.reinforcements_each_round, setup.reinforcements_from_round = "D3", 1
    setup.reinforcements_rule = "D3 each round from round 1"
    for side, hand in zip(setup.sides, (["goliath:3"], ["escher:2"])):
        side.hand = hand
        side.reinforcements, side.crew = side.crew[-1:], side.crew[:-1]
    log = [start_event(setup, c), PhaseEvent(round=1, phase="action")]
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, {"setup": setup.to_data(),
                          "battle": {**Battle(log).to_data(), "start_walked": True}})
    return {"campaign": c.id}


async def _dialog(pilot: Any, key: str, name: str, close: str, where: str = "") -> None:
    """From the tracker: ``key`` opens the dialog ``name``, checked, ``close`` closes it."""
    await press(pilot, key)
    await wait_for_screen(pilot, name)
    await check_screen(pilot, where or name)
    await press(pilot, close)
    await wait_for_screen(pilot, "BattleScreen")


async def _tracker(pilot: Any, _data_dir: Path) -> None:
    """The tracker and the dialogs its keys open."""
    from munda_tui.widgets.keys import key_for

    await wait_for_screen(pilot, "CampaignScreen")
    pilot.app.open_battle(1)
    await wait_for_screen(pilot, "BattleScreen")
    await check_screen(pilot, "tracker")
    await _dialog(pilot, "battle.attack", "AttackScreen", "attack.cancel")
    await _dialog(pilot, "battle.end", "EndScreen", "end.cancel")
    await _dialog(pilot, "battle.log", "LogScreen", "log.close")
    await _dialog(pilot, "battle.other_condition", "LineScreen", "line.cancel", "a condition")
    await _dialog(pilot, "battle.tactic", "LineScreen", "line.cancel", "a Gang Tactic")
    await _dialog(pilot, "battle.phones", "LineScreen", "line.cancel", "phones: the address")
    await _dialog(pilot, "battle.failed_test", "PickOneScreen", "pick_one.cancel", "a failed test")
    # a peek: the curtain, the hand, a card revealed and its rewards
    await press(pilot, "battle.hand")
    await wait_for_screen(pilot, "PrivacyCurtain")
    await press(pilot, "privacy_curtain.ready")
    await wait_for_screen(pilot, "HandScreen")
    await check_screen(pilot, "the hand")
    await press(pilot, "hand.reveal")
    await wait_for_screen(pilot, "RevealScreen")
    await check_screen(pilot, "a reveal")
    await press(pilot, "reveal.earned")  # one reward not earned: "<key> to change"
    await check_screen(pilot, "a reveal, a reward not earned")
    await press(pilot, "reveal.cancel")
    await wait_for_screen(pilot, "BattleScreen")
    await press(pilot, "battle.side-1")  # the other crew's card: Murder Run, an upgrade
    await press(pilot, "battle.hand")
    await wait_for_screen(pilot, "PrivacyCurtain")
    await press(pilot, "privacy_curtain.ready")
    await wait_for_screen(pilot, "HandScreen")
    await press(pilot, "hand.reveal")
    await wait_until_screen_in(pilot, ("ConfirmScreen", "RevealScreen"))
    if type(pilot.app.screen).__name__ == "ConfirmScreen":  # not met: reveal anyway?
        await check_screen(pilot, "reveal anyway?")  # (and the tracker's undo key)
        assert f"({key_for(pilot.app, 'battle.undo')} undoes" in screen_text(pilot.app)
        await press(pilot, "confirm.answer-True")
    await wait_for_screen(pilot, "RevealScreen")
    await check_screen(pilot, "a reveal with an upgrade")
    await press(pilot, "reveal.upgrade")
    await check_screen(pilot, "a reveal, upgraded")
    await press(pilot, "reveal.cancel")
    await wait_for_screen(pilot, "BattleScreen")
    await press(pilot, "battle.side-0")
    # the End phase's Reinforcements step: Priority, the D3s, the draws
    await press(pilot, "battle.next_phase")
    await wait_for_screen(pilot, "PickOneScreen")
    await check_screen(pilot, "Reinforcements: Priority")
    await press(pilot, "pick_one.pick-2")
    for _gang in range(2):
        await wait_for_screen(pilot, "DicePrompt")
        await check_screen(pilot, "Reinforcements: how many")
        await press(pilot, "dice.roll")
    await wait_for_screen(pilot, "ReinforcementScreen")
    await check_screen(pilot, "Reinforcements: a draw")
    await press(pilot, "reinforcement.choose")  # the card dealt by hand: its number's key
    await check_screen(pilot, "Reinforcements: which card")
    deck = pilot.app.screen.query_one("#reinf-deck")
    assert str(deck.get_option_at_index(0).prompt).startswith(
        f"{key_for(pilot.app, 'reinforcement.digit-1')}  ")
    await press(pilot, "reinforcement.back")
    await press(pilot, "reinforcement.enter")  # Enter never rolls: says which keys do
    await check_screen(pilot, "Reinforcements: Enter")
    await press(pilot, "reinforcement.draw")
    await check_screen(pilot, "Reinforcements: drawn")
    await press(pilot, "reinforcement.back")
    await wait_for_screen(pilot, "BattleScreen")
    await check_screen(pilot, "tracker: the step skipped")
    # the end, then the finish: each player's last look, then the question
    await press(pilot, "battle.end")
    await wait_for_screen(pilot, "EndScreen")
    await pilot.press("enter")  # the first gang wins (the list's own Enter)
    await wait_for_screen(pilot, "BattleScreen")
    await check_screen(pilot, "tracker: ended")
    await press(pilot, "battle.finish")
    while True:
        await wait_until_screen_in(pilot, ("PrivacyCurtain", "RevealScreen", "ConfirmScreen"))
        name = type(pilot.app.screen).__name__
        await check_screen(pilot, f"finish: {name}")
        if name == "ConfirmScreen":  # (the tracker's hand key, named as the player has it)
            assert f"hand ({key_for(pilot.app, 'battle.hand')})" in screen_text(pilot.app)
            break
        await press(pilot, "privacy_curtain.cancel" if name == "PrivacyCurtain" else "reveal.cancel")
        if name == "RevealScreen":
            return
    await press(pilot, "confirm.answer-False")
    await wait_for_screen(pilot, "BattleScreen")
    # the link again and the start of the battle, as the tracker pushes them
    from munda_tui.screens.battle.phone import LinkScreen
    from munda_tui.screens.battle.start import NothingAtTheStart

    for dialog, close in ((LinkScreen("The Venom Sisters", "Ana", "http://192.0.2.1:8000/x"),
                           "link.hide"), (NothingAtTheStart("Ana"), "battle_start.close")):
        pilot.app.push_screen(dialog)
        await wait_for_screen(pilot, type(dialog).__name__)
        await check_screen(pilot, type(dialog).__name__)
        await press(pilot, close)
        await wait_for_screen(pilot, "BattleScreen")


async def wait_until_screen_in(pilot: Any, names: tuple[str, ...]) -> None:
    from support import wait_until

    await wait_until(pilot, lambda: type(pilot.app.screen).__name__ in names, " or ".join(names))
    await wait_for_screen(pilot, type(pilot.app.screen).__name__)


def _seed_history(data_dir: Path) -> dict[str, Any]:
    from campaign_support import seed

    return {"campaign": seed(data_dir)}


def _seed_campaign(data_dir: Path) -> dict[str, Any]:
    from support import ensure_demo

    return {"campaign": ensure_demo(data_dir)}


def _seed_prebattle(name: str) -> Callable[[Path], dict[str, Any]]:
    def seed(data_dir: Path) -> dict[str, Any]:
        from prebattle_states import seed_state

        return {"campaign": seed_state(data_dir, name)}
    return seed


def _seed_postbattle(data_dir: Path) -> dict[str, Any]:
    from postbattle_support import seed_roll

    return {"campaign": seed_roll(data_dir)}


_APP = ("HelpScreen",)
#: each walk: how its campaign is seeded, the walk, and the classes whose every binding
#: id it sees in force (checked after the walk: ``EXCUSED`` says why an id is not)
WALKS: dict[str, tuple[Callable[[Path], dict[str, Any]], Walk, tuple[str, ...]]] = {
    "home": (lambda _d: {}, _home, (*_APP, "NewCampaignScreen")),
    "campaign": (_seed_campaign, _campaign, (*_APP, "CampaignScreen")),
    "roster": (_seed_campaign, _roster, (*_APP, "RosterScreen", "TerritoriesScreen")),
    "campaign screens": (_seed_campaign, _campaign_screens,
                         (*_APP, "ChartsScreen", "SettingsScreen", "CatalogueScreen")),
    "pre-battle": (_seed_campaign, _prebattle_new, (*_APP, "PreBattleScreen", "GangsStep")),
    "pre-battle scenario": (_seed_prebattle("scenario"), _prebattle_state("scenario"),
                            (*_APP, "ScenarioStep", "DicePrompt")),
    "pre-battle pitch-black": (_seed_prebattle("pitch-black"), _prebattle_state("pitch-black"),
                               (*_APP, "PitchBlackStep")),
    "pre-battle subplots": (_seed_prebattle("subplots"), _prebattle_state("subplots"), _APP),
    "pre-battle side-jobs": (_seed_prebattle("side-jobs"), _prebattle_state("side-jobs"),
                             (*_APP, "SideJobsStep")),
    "post-battle": (_seed_postbattle, _postbattle, (*_APP, "PostBattleScreen")),
    "post-battle list": (_seed_by_hand, _multi_pick, (*_APP, "MultiPick")),
    "dialogs": (_seed_history, _dialogs, ("ReportScreen", "ConfirmScreen", "HomeScreen")),
    "the dialog kit": (lambda _d: {}, _bare_dialogs,
                       ("PickOneScreen", "LineScreen", "ErrorScreen", "DealtCardsModal")),
    "Sub-plot draw": (_seed_prebattle("subplots"), _draw,
                      (*_APP, "SubplotDrawScreen", "PrivacyCurtain", "DrawnHandScreen", "CrewStep")),
    "pre-battle summary": (_seed_prebattle("side-jobs"), _summary, (*_APP, "SummaryStep")),
    "forms": (_seed_campaign, _forms, (*_APP, "FormScreen", "HireScreen", "EntryScreen")),
    "import": (_seed_campaign, _import, (*_APP, "MundaApp", "ImportGangScreen")),
    "pushed dialogs": (lambda _d: {}, _pushed,
                       ("JokerScreen", "SubplotChoiceScreen", "CardViewerScreen", "ConflictScreen",
                        "LeagueTextScreen", "SyncingScreen", "QuestionScreen", "ListDialog")),
    "tracker": (_seed_tracker, _tracker,
                (*_APP, "BattleScreen", "FighterTable", "AttackScreen", "EndScreen", "LogScreen",
                 "HandScreen", "RevealScreen", "ReinforcementScreen", "LinkScreen",
                 "NothingAtTheStart")),
}
#: ids no walk sees in force, and why (each in a state the walks do not reach): none now
EXCUSED: dict[str, str] = {}


@pytest.mark.parametrize("walk", list(WALKS))
async def test_every_text_names_the_remapped_key(walk: str, make_app: Any, data_dir: Path,
                                                 config_dir: Path) -> None:
    write_keymap(config_dir)
    seed, go, classes = WALKS[walk]
    app = make_app(**seed(data_dir))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.config.load_error is None
        assert not app._notifications, [n.message for n in app._notifications]
        SEEN.clear()
        HELPED.clear()
        await go(pilot, data_dir)
    # the walk saw every binding id of its classes in force (and so checked its texts)
    ids = {i for i, (cls, _b) in all_bindings().items() if cls.__name__ in classes}
    assert sorted(ids - SEEN - set(EXCUSED)) == [], walk


#: the classes whose bindings the walks above check
WALKED = {name for _seed, _walk, classes in WALKS.values() for name in classes}
#: the classes with bindings that no walk reaches, and why (none: every one is walked)
NOT_WALKED: dict[str, str] = {}


def test_every_class_with_bindings_is_walked_or_said_why_not() -> None:
    classes = {cls.__name__ for cls, _b in all_bindings().values()}
    assert sorted(classes - WALKED - set(NOT_WALKED)) == []
    assert sorted((WALKED | set(NOT_WALKED)) - classes) == []
    walked = [i for i, (cls, _b) in all_bindings().items() if cls.__name__ in WALKED]
    assert len(walked) == len(all_bindings())  # every id (256 now)

