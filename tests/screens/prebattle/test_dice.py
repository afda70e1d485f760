"""The reusable dice prompt (screens/common/dice_prompt.py): roll, real dice, choose."""

from __future__ import annotations

import random

from textual.app import App

from munda_tui.screens.common.dice_prompt import DiceOutcome, DicePrompt

SIZE = (80, 24)


class PromptApp(App[None]):
    def __init__(self, prompt: DicePrompt) -> None:
        super().__init__()
        self.prompt = prompt
        self.results: list[DiceOutcome | None] = []

    def on_mount(self) -> None:
        self.push_screen(self.prompt, self.results.append)


def _prompt(expr: str = "D6", **kw) -> DicePrompt:
    kw.setdefault("rng", random.Random(4))
    kw.setdefault("title", "Test roll")
    return DicePrompt(expr, **kw)


async def test_roll_for_me_uses_the_given_rng() -> None:
    app = PromptApp(_prompt("2D6"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        await pilot.pause()
    expected = random.Random(4)
    faces = (expected.randint(1, 6), expected.randint(1, 6))
    (outcome,) = app.results
    assert outcome.how == "app" and outcome.roll.faces == faces
    assert outcome.roll.total == sum(faces) and not outcome.roll.entered


async def test_real_dice_are_checked_then_taken() -> None:
    app = PromptApp(_prompt("D66"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e", "7", "1", "enter")
        await pilot.pause()
        assert app.results == []  # 7 is no D6 face: the prompt stays and says why
        assert "not a D6 face" in str(app.screen.query_one("#dice-error").render())
        await pilot.press("backspace", "backspace", "3", "5", "enter")
        await pilot.pause()
    (outcome,) = app.results
    assert outcome.how == "dice" and outcome.roll.faces == (3, 5) and outcome.roll.total == 35
    assert outcome.roll.entered


async def test_choose_outright_and_escape() -> None:
    app = PromptApp(_prompt(choices=["1 Sniping Range", "2 Face Off"]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c", "down", "enter")
        await pilot.pause()
    assert app.results == [DiceOutcome("chosen", None, 1)]
    app = PromptApp(_prompt())
    async with app.run_test(size=SIZE) as pilot:
        assert app.screen.check_action("choose", ()) is False  # no choices given
        await pilot.press("e", "escape")  # back to the menu
        await pilot.pause()
        assert app.results == []
        await pilot.press("escape")  # cancel
        await pilot.pause()
    assert app.results == [None]


async def test_prefer_entry_opens_on_the_faces_field() -> None:
    app = PromptApp(_prompt("D3", prefer_entry=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "dice-faces"
        await pilot.press("2", "enter")
        await pilot.pause()
    assert app.results[0].roll.total == 2


def test_dice_prompt_snapshot(snap_compare) -> None:
    app = PromptApp(_prompt("D3+5", title="Scouting Force: X", who="Ana rolls",
                            detail="Hybrid (D3+5)", choices=["6", "7", "8"]))
    assert snap_compare(app, terminal_size=SIZE)
