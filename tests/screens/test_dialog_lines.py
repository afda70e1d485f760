"""Every dialog takes the line numbers 1-9 the README promises (issue 24): "any dialog |
a list: ↑/↓ and enter, or the line's number (1–9)".

Every dialog class (a DialogScreen subclass in munda_tui) is one of: a dialog with a list
walked here (its number typed, what it does checked), a dialog whose 1-9 mean something
else (dialogs.OWN_NUMBERS, with why), or a dialog without a list (said why below; its
source composes no OptionList, SelectionList or DataTable). A new dialog with a list
fails the first test until it is walked here. The post-battle's list questions (in place,
not in a dialog) take the numbers too."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import random
from pathlib import Path
from typing import Any, Callable

import pytest
from textual.app import App, ComposeResult
from textual.widgets import DataTable, Input, OptionList, Static

import munda_tui
from munda_tui.screens.common.dialogs import OWN_NUMBERS, DialogScreen, picks

from support import screen_text, wait_until

SIZE = (100, 30)


def dialog_classes() -> dict[str, type]:
    found: dict[str, type] = {}
    for module in pkgutil.walk_packages(munda_tui.__path__, "munda_tui."):
        if module.name.endswith("__main__"):
            continue
        loaded = importlib.import_module(module.name)
        for value in vars(loaded).values():
            if (inspect.isclass(value) and issubclass(value, DialogScreen)
                    and value is not DialogScreen and value.__module__ == module.name):
                found[f"{module.name}.{value.__qualname__}"] = value
    return found


#: dialogs without a list, and what they ask instead
NO_LIST: dict[str, str] = {
    "munda_tui.screens.common.dialogs.ListDialog": "the frame of the dialogs with a list",
    "munda_tui.screens.common.dialogs.ConfirmScreen": "yes or no",
    "munda_tui.screens.common.dialogs.ErrorScreen": "a message",
    "munda_tui.screens.common.dialogs.LineScreen": "a typed line",
    "munda_tui.screens.campaign.league.SyncingScreen": "a wait",
    "munda_tui.screens.campaign.league.LeagueTextScreen": "lines to read (a league's status or history)",
    **{f"munda_tui.screens.campaign.fighter_form.{form}":
       "fields; its choices are Select fields (typing searches them)"
       for form in ("FormScreen", "FighterFormScreen", "EquipmentFormScreen", "GangFormScreen",
                    "TerritoryFormScreen")},
    "munda_tui.screens.campaign.catalogue.EntryScreen": "fields",
    "munda_tui.screens.home.new_campaign.NewCampaignScreen":
        "fields; the ruleset is a Select field (typing searches it)",
    "munda_tui.screens.prebattle.subplot_draw.JokerScreen": "a card shown",
    "munda_tui.screens.prebattle.subplot_draw.DrawnHandScreen": "cards shown",
    "munda_tui.screens.battle.reveal.RevealScreen": "a card and its rewards, walked by keys",
    "munda_tui.screens.battle.log.LogScreen": "the log, read",
    "munda_tui.screens.battle.phone.LinkScreen": "a link and its QR code",
    "munda_tui.screens.battle.start.NothingAtTheStart": "a message",
}


class KitApp(App[None]):
    """Shows the dialog over an empty screen; keeps what it dismissed with."""

    def __init__(self, dialog: DialogScreen[Any]) -> None:
        super().__init__()
        self.dialog = dialog
        self.results: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Static("beneath")

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.results.append)


def _highlighted(app: App[None], selector: str) -> int | None:
    return app.screen.query_one(selector, OptionList).highlighted


# --- the dialogs with a list: how each is made, the keys typed, what they did -----------
Case = tuple[Callable[[], DialogScreen[Any]], list[str], Callable[[KitApp], bool]]


def _pick_one() -> DialogScreen[Any]:
    from munda_tui.screens.common.dialogs import PickOneScreen

    return PickOneScreen("Which?", picks(["Ana", "Ben", "Cal"]))


def _dice() -> DialogScreen[Any]:
    from munda_tui.screens.common.dice_prompt import DicePrompt

    return DicePrompt("D6", title="Lasting injury", rng=random.Random(1),
                      choices=["Lesser injury", "Out cold", "Grievous injury"])


def _end() -> DialogScreen[Any]:
    from munda_tui.screens.battle.end import EndScreen

    return EndScreen([("a", "The Venom Sisters"), ("b", "The Iron Skulls")])


def _hand() -> DialogScreen[Any]:
    from munda_tui.rules.battle.watch import MANUAL, WATCHING, Match
    from munda_tui.screens.battle.hand import HandScreen

    return HandScreen("The Venom Sisters", "Ana",
                      [Match("a", "cawdor:6", MANUAL), Match("a", "escher:A", WATCHING),
                       Match("a", "goliath:5", MANUAL)])


def _choice() -> DialogScreen[Any]:
    from munda_tui.screens.prebattle.subplot_draw import SubplotChoiceScreen

    return SubplotChoiceScreen("cawdor:6", "Ana", [("vexa", "Vexa"), ("sable", "Sable"),
                                                   ("lyra", "Lyra")],
                               rng=random.Random(1), curtained=True)


def _dealt() -> DialogScreen[Any]:
    from munda_tui.screens.prebattle.modals import DealtCardsModal

    return DealtCardsModal("Cards dealt", ["Champion", "Ganger", "Juve"], 1)


def _conflicts() -> DialogScreen[Any]:
    from munda_tui.saves.league import GangConflict
    from munda_tui.screens.campaign.league import ConflictScreen

    return ConflictScreen([GangConflict(f"gangs/{n}.toml", f"Gang {n}", [f"credits of {n}"],
                                        ["notes"], ["ours", "theirs"], {}) for n in "ABC"])


def _questions() -> DialogScreen[Any]:
    from types import SimpleNamespace

    from munda_tui.rules.history.fold import Question
    from munda_tui.screens.campaign.league import QuestionScreen

    asked = [Question(f"r{n}", 0, "credits", "g1", "", "", f"credits -{n}0", f"credits of {n} would be -{n}",
                      ("void", "amount"), record_kind="edit", date="2026-12-03") for n in "123"]
    handle = SimpleNamespace(questions=asked, battle_numbers_by_stem=dict,
                             campaign=SimpleNamespace(gangs=[SimpleNamespace(id="g1", name="Gang A")]))
    return QuestionScreen(handle)


def _territories() -> DialogScreen[Any]:
    from munda_tui.rules.campaign.demo import escher_gang
    from munda_tui.rules.core.model import Territory
    from munda_tui.screens.campaign.roster import TerritoriesScreen

    gang = escher_gang()
    gang.territories = [Territory("Sludge Pits"), Territory("Old Ruins"),
                        Territory("Drinking Hole")]
    return TerritoriesScreen(lambda: gang, lambda _change: True)


def _hire() -> DialogScreen[Any]:
    from munda_tui.rules.campaign import catalogue as cat
    from munda_tui.rules.campaign.demo import escher_gang
    from munda_tui.screens.campaign.hire import HireScreen

    catalogue = cat.Catalogue(fighter_types=[cat.TypeEntry("Escher Wyld Runner", cost=50),
                                             cat.TypeEntry("Escher Death-Maiden", cost=60),
                                             cat.TypeEntry("Escher Little Sister", cost=25)])
    return HireScreen(escher_gang(), catalogue)


def _type_field(app: KitApp) -> str:
    return app.screen.query_one("#h-type", Input).value


CASES: dict[str, Case] = {
    # picks: the number is the line's Enter
    "munda_tui.screens.common.dialogs.PickOneScreen": (_pick_one, ["2"], lambda a: a.results == [1]),
    "munda_tui.screens.common.dice_prompt.DicePrompt": (
        _dice, ["c", "2"], lambda a: len(a.results) == 1 and a.results[0].choice == 1),
    "munda_tui.screens.battle.end.EndScreen": (
        _end, ["2"], lambda a: len(a.results) == 1 and a.results[0].winner == "b"),
    "munda_tui.screens.prebattle.subplot_draw.SubplotChoiceScreen": (
        _choice, ["2"], lambda a: a.results == ["sable"]),
    # toggles: the number marks the line (Space's), Enter confirms
    "munda_tui.screens.prebattle.modals.DealtCardsModal": (
        _dealt, ["3", "enter"], lambda a: a.results == [[2]]),
    # points: the number puts the cursor on the line (Enter is not about one line)
    "munda_tui.screens.battle.hand.HandScreen": (
        _hand, ["3"], lambda a: _highlighted(a, "#hand-cards") == 2 and not a.results),
    "munda_tui.screens.campaign.league.ConflictScreen": (
        _conflicts, ["2"], lambda a: _highlighted(a, "#conflict-list") == 1
        and "credits of B" in str(a.screen.query_one("#conflict-detail", Static).render())),
    "munda_tui.screens.campaign.league.QuestionScreen": (
        _questions, ["2"], lambda a: _highlighted(a, "#question-list") == 1
        and "credits of 2" in str(a.screen.query_one("#question-detail", Static).render())),
    "munda_tui.screens.campaign.roster.TerritoriesScreen": (
        _territories, ["3"], lambda a: a.screen.query_one(DataTable).cursor_row == 2),
    # the hire's type matches: a match's number after the letters takes that match
    "munda_tui.screens.campaign.hire.HireScreen": (
        _hire, ["e", "s", "2"], lambda a: _type_field(a) == "Escher Death-Maiden"
        and a.screen.focused is a.screen.query_one("#h-name", Input)),
}


def test_every_dialog_is_walked_or_said_why_not() -> None:
    classes = dialog_classes()
    said = set(CASES) | set(NO_LIST) | set(OWN_NUMBERS)
    assert sorted(set(classes) - said) == [], "a dialog not walked for its line numbers"
    assert sorted(said - set(classes)) == [], "a name here that is no dialog"
    for name in NO_LIST:  # (a list added to one of them: walk it)
        source = inspect.getsource(classes[name])
        assert not any(w in source for w in ("OptionList(", "SelectionList(", "DataTable(")), name


@pytest.mark.parametrize("name", list(CASES))
async def test_a_number_takes_its_line(name: str) -> None:
    make, keys, took = CASES[name]
    app = KitApp(make())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        assert took(app), (name, app.results, screen_text(app)[:400])


async def test_a_digit_in_a_type_name_stays_typed() -> None:
    """A type whose name has a digit: the digit is typed, not a match's number."""
    from munda_tui.rules.campaign import catalogue as cat
    from munda_tui.rules.campaign.demo import escher_gang
    from munda_tui.screens.campaign.hire import HireScreen

    catalogue = cat.Catalogue(fighter_types=[cat.TypeEntry("Servitor 2"),
                                             cat.TypeEntry("Servitor Mk")])
    app = KitApp(HireScreen(escher_gang(), catalogue))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"servitor ", "2")
        await pilot.pause()
        assert _type_field(app) == "servitor 2"


async def test_a_post_battle_list_question_takes_the_numbers(make_app: Any,
                                                             data_dir: Path) -> None:
    """Who fought? (a list of several): a fighter's number toggles them, as Space."""
    from postbattle_support import seed_battle

    from munda_tui.screens.postbattle.screen import MultiPick

    app = make_app(campaign=seed_battle(data_dir, tracker=False))
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "CampaignScreen",
                         "campaign")
        app.open_battle(1)
        await wait_until(pilot, lambda: isinstance(app.screen.focused, MultiPick), "MultiPick")
        pick = app.screen.focused
        assert isinstance(pick, MultiPick)
        before = list(pick.selected)
        second = pick.get_option_at_index(1).value
        await pilot.press("2")
        await pilot.pause()
        assert pick.highlighted == 1
        assert (second in pick.selected) != (second in before)
