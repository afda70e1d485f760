"""The dialog kit (screens/common/dialogs.py): pick one, type a line, confirm, error.

Snapshots of each at 80x24 over a screen of text (dimmed, as it shows beneath every
dialog), and keyboard tests of what each dismisses with."""

from __future__ import annotations

from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Static

from munda_tui.screens.common.dialogs import (
    ConfirmScreen,
    DialogScreen,
    ErrorScreen,
    LineScreen,
    Pick,
    PickOneScreen,
    picks,
    squash,
)
from munda_tui.screens.common.reroll import reroll_reason

SIZE = (80, 24)
UNDER = "\n".join(f"Line {i} of the screen beneath the dialog" for i in range(1, 23))


class KitApp(App[None]):
    """Shows a screen of text, then the dialog over it; keeps what it dismissed with."""

    def __init__(self, dialog: DialogScreen[Any]) -> None:
        super().__init__()
        self.dialog = dialog
        self.results: list[Any] = []

    def compose(self) -> ComposeResult:
        yield Static(UNDER)

    def on_mount(self) -> None:
        self.push_screen(self.dialog, self.results.append)


def _priority() -> PickOneScreen[str]:
    return PickOneScreen("Round 2 · Reinforcements: who won Priority this round?",
                         [Pick("a", "The Venom Sisters"), Pick("b", "Ironjaw's Wreckers"),
                          Pick("c", "The Ash Wastes Nomads", enabled=False,
                               reason="not in this battle")],
                         detail="The Priority winner draws first; players then alternate.")


def _odd(text: str) -> str | None:
    return None if text.isdigit() and int(text) % 2 else f"{text!r} is not an odd number"


def _escape_says(app: App[None]) -> list[str]:
    """What the footer says Escape does on the dialog showing."""
    return [a.binding.description for a in app.screen.active_bindings.values()
            if a.binding.key == "escape"]


# --- snapshots ------------------------------------------------------------------------


def test_pick_one_snapshot(snap_compare) -> None:
    assert snap_compare(KitApp(_priority()), terminal_size=SIZE)


def test_line_snapshot_with_an_error(snap_compare) -> None:
    dialog = LineScreen("Crew method for The Venom Sisters", value="Hybrid (3+D)",
                        detail="Random (X), Custom (X) or Hybrid (X+Y).",
                        check=lambda t: "Hybrid (3+D): D is not a dice expression")
    assert snap_compare(KitApp(dialog), terminal_size=SIZE, press=["enter"])


def test_reroll_snapshot(snap_compare) -> None:
    assert snap_compare(KitApp(reroll_reason("Lys Venom: Lasting Injury", "11 (1 1)")),
                        terminal_size=SIZE, press=["enter"])


def test_confirm_snapshot(snap_compare) -> None:
    dialog = ConfirmScreen("Leave the draw for now?", "Every card drawn is kept.")
    assert snap_compare(KitApp(dialog), terminal_size=SIZE)


def test_error_snapshot(snap_compare) -> None:
    dialog = ErrorScreen("Could not save the campaign", "the disk is full")
    assert snap_compare(KitApp(dialog), terminal_size=SIZE)


# --- pick one -------------------------------------------------------------------------


async def test_pick_one_by_arrows_and_enter() -> None:
    app = KitApp(_priority())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down", "enter")
        await pilot.pause()
    assert app.results == ["b"]


async def test_pick_one_by_number() -> None:
    app = KitApp(_priority())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("1")
        await pilot.pause()
    assert app.results == ["a"]


async def test_pick_one_refuses_a_greyed_line_and_says_why() -> None:
    app = KitApp(_priority())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("3", "9")  # greyed out; no ninth line
        await pilot.pause()
        assert app.results == [] and isinstance(app.screen, PickOneScreen)
        error = str(app.screen.query_one(".dialog-error", Static).render())
        assert "not in this battle" in error
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [None]


async def test_pick_one_by_index_and_a_back_label() -> None:
    app = KitApp(PickOneScreen("Model card", picks(["Ganger", "Ganger (heavy)"]),
                               cancel_label="Back"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert _escape_says(app) == ["Back"]
        assert "Esc: Back" in str(app.screen.query_one(".dialog-hint", Static).render())
        await pilot.press("down", "enter")
        await pilot.pause()
    assert app.results == [1]


async def test_back_label_leaves_other_dialogs_alone() -> None:
    PickOneScreen("x", picks(["a"]), cancel_label="Back")
    app = KitApp(PickOneScreen("y", picks(["a"])))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert _escape_says(app) == ["Cancel"]


# --- type a line ----------------------------------------------------------------------


async def test_line_checks_then_takes_the_text() -> None:
    app = KitApp(LineScreen("An odd number", check=_odd))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("4", "enter")
        await pilot.pause()
        assert isinstance(app.screen, LineScreen) and "'4' is not an odd number" in app.screen.error
        await pilot.press("backspace", "5", "enter")
        await pilot.pause()
    assert app.results == ["5"]


async def test_line_refuses_empty_unless_allowed() -> None:
    app = KitApp(LineScreen("A name"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "enter")
        await pilot.pause()
        assert app.results == [] and "Type it, then Enter" in app.screen.error
        await pilot.press("escape")
        await pilot.pause()
    assert app.results == [None]
    app = KitApp(LineScreen("A Gang Tactic (optional)", allow_empty=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == [""]


async def test_line_keeps_its_value_stripped_or_squashed() -> None:
    app = KitApp(LineScreen("A path", value=" /tmp/a  b.toml "))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == ["/tmp/a  b.toml"]
    app = KitApp(LineScreen("A name", value="  Lys   Venom ", clean=squash))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == ["Lys Venom"]


async def test_reroll_reason_needs_a_reason() -> None:
    app = KitApp(reroll_reason("Deployment", "3 (3)"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert "Say why the roll changes" in app.screen.error
        await pilot.press(*"a  misread", "enter")
        await pilot.pause()
    assert app.results == ["a misread"]


# --- confirm and error ----------------------------------------------------------------


async def test_confirm_yes_only_on_an_explicit_yes() -> None:
    app = KitApp(ConfirmScreen("Delete?"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")  # the focused button is No
        await pilot.pause()
    assert app.results == [False]
    app = KitApp(ConfirmScreen("Delete?"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        await pilot.pause()
    assert app.results == [True]


async def test_error_closes_on_enter() -> None:
    app = KitApp(ErrorScreen("Oops", "nothing lost"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
    assert app.results == [None]


async def test_confirm_and_error_show_their_own_keys_not_the_screens_beneath() -> None:
    """QA walk: over the tracker, 'Finish the battle?' showed the tracker's footer
    (x XP+, u Undo, h Hand...): keys that do nothing while the question is open."""
    from textual.binding import Binding
    from textual.widgets._footer import FooterKey

    from munda_tui.widgets.footer import Footer

    class Beneath(KitApp):
        BINDINGS = [Binding("x", "bell", "XP+")]

        def compose(self) -> ComposeResult:
            yield Static(UNDER)
            yield Footer()

    for dialog, want in ((ConfirmScreen("Finish?"), {"Yes", "No"}),
                         (ErrorScreen("Oops", "nothing lost"), {"Close"})):
        app = Beneath(dialog)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.pause()
            assert app.screen is dialog
            shown = {str(k.description) for k in dialog.query(FooterKey) if k.display}
            assert want <= shown and "XP+" not in shown


def test_every_dialog_uses_the_one_stylesheet() -> None:
    from munda_tui.screens.common.dice_prompt import DicePrompt
    from munda_tui.screens.prebattle.modals import DealtCardsModal

    paths = {cls.CSS_PATH for cls in (PickOneScreen, LineScreen, ConfirmScreen, ErrorScreen,
                                      DicePrompt, DealtCardsModal)}
    assert len(paths) == 1 and str(next(iter(paths))).endswith("screens/common/dialogs.tcss")



async def test_an_opaque_dialog_hides_the_screen_beneath() -> None:
    # behind a privacy curtain (the card a player drew, their start-of-battle walk)
    for opaque, alpha in ((True, 1), (False, 0.6)):
        app = KitApp(LineScreen("The card you drew", opaque=opaque))
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert round(app.screen.styles.background.a, 2) == alpha
