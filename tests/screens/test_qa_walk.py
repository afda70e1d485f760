"""Findings of the club-evening QA walk (a new user through pre-battle, battle and
post-battle on the demo), each pinned by the keys that showed it."""

from __future__ import annotations

from pathlib import Path

from prebattle_states import seed_state
from support import wait_for_screen

from munda_tui.rules.prebattle.setup import BattleSetup

SIZE = (100, 32)


async def _press(pilot, *keys: str) -> None:
    for k in keys:
        await pilot.press(k)
        await pilot.pause()


def _notes(app) -> list[str]:
    return [n.message for n in app._notifications]


def _setup(app) -> BattleSetup:
    return BattleSetup.from_data(app.handle.load_battle(1)["setup"])


async def _open_state(pilot) -> None:
    await wait_for_screen(pilot, "CampaignScreen")
    pilot.app.open_battle(1)
    await wait_for_screen(pilot, "PreBattleScreen")


async def test_scenario_lines_say_what_enter_opens_and_a_says_when_nothing_is_left(
        make_app, data_dir: Path) -> None:
    """The open lines read "Enter to roll" though Enter opens roll / real dice / choose;
    a (roll the rest) with every line rolled did nothing at all."""
    slug = seed_state(data_dir, "scenario")
    app = make_app(seed=11, campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await _open_state(pilot)
        lines = app.screen.query_one("#sc-rolls")
        first = str(lines.get_option_at_index(0).prompt)
        assert first.endswith("— Enter: roll/choose") and "Enter to roll" not in first
        await _press(pilot, "a")  # rolls every open line
        rolled = _setup(app).rolls
        assert rolled and not _notes(app)
        await _press(pilot, "a")
        assert _setup(app).rolls == rolled
        assert _notes(app) == ["Every line is rolled already: R re-rolls or corrects one "
                               "(asks why; both are kept)."]


async def test_pitch_black_R_before_a_roll_says_how_to_roll(make_app, data_dir: Path) -> None:
    """R (shown in the footer) did nothing before Pitch Black was rolled."""
    slug = seed_state(data_dir, "pitch-black")
    app = make_app(seed=11, campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await _open_state(pilot)
        assert app.screen.step == "pitch_black"
        await _press(pilot, "R")
        assert type(app.screen).__name__ == "PreBattleScreen"
        assert _notes(app) == ["Nothing to re-roll yet: Enter on 'Both players agree' rolls "
                               "the Pitch Black table."]
        assert not _setup(app).visibility


async def test_subplot_counts_read_as_words_not_card_s(make_app, data_dir: Path) -> None:
    """'1 card(s) in hand, 1 Joker(s) shown' / '0 Joker(s)' on the step and the summary."""
    from munda_tui.rules.prebattle.flow import summary_markdown

    slug = seed_state(data_dir, "side-jobs")
    from munda_tui.saves.folder import load_campaign_dir

    path = load_campaign_dir(data_dir / "campaigns" / slug)[1][1]
    text = path.read_text(encoding="utf-8").replace("subplots = false", "subplots = true", 1)
    text = text.replace("hand = []\njokers = 0", 'hand = ["escher:Q", "escher:A"]\njokers = 1', 1)
    text = text.replace("hand = []\njokers = 0", 'hand = ["goliath:Q"]\njokers = 0', 1)
    path.write_text(text, encoding="utf-8")
    app = make_app(seed=11, campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await _open_state(pilot)
        summary = summary_markdown(app.screen.flow)
        assert "- The Venom Sisters: 2 cards (hidden), 1 Joker shown" in summary
        assert "- The Iron Skulls: 1 card (hidden)\n" in summary
        assert "(s)" not in summary.split("### Sub-plots")[1].split("###")[0]
        app.screen.show_step("subplots")
        await pilot.pause()
        status = str(app.screen.query_one("#sp-status").render())
        assert "The Venom Sisters: 2 cards in hand, 1 Joker shown" in status
        assert "The Iron Skulls: 1 card in hand" in status and "(s)" not in status


async def test_a_side_job_fighter_picked_at_random_is_not_picked_at_random_again(
        make_app, data_dir: Path) -> None:
    """QA walk: Enter on a picked Side Job line offered 'Pick at random for me' again, a
    second random selection with no record; a (pick the rest) with none left did nothing."""
    slug = seed_state(data_dir, "side-jobs")
    app = make_app(seed=11, campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await _open_state(pilot)
        assert app.screen.step == "side_jobs"
        await _press(pilot, "a")  # both picked at random
        first = [side.side_job_target for side in _setup(app).sides]
        assert all(first) and not _notes(app)
        await _press(pilot, "a")
        assert [side.side_job_target for side in _setup(app).sides] == first
        assert _notes(app) == ["No Side Job fighter is left to pick at random: Enter on a "
                               "line corrects it to the fighter selected at the table."]
        was = app.screen.flow.fighter_label(*first[0].split("/", 1))
        await _press(pilot, "enter")
        dialog = app.screen
        assert type(dialog).__name__ == "PickOneScreen"
        options = dialog.query_one("OptionList")
        prompts = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert not any("at random" in p for p in prompts)
        assert "the random pick is not made again" in str(dialog.query_one(".dialog-detail").render())
        other = next(i for i, p in enumerate(prompts) if was not in p)
        await _press(pilot, *["down"] * other, "enter")
        assert type(app.screen).__name__ == "PreBattleScreen"
        now = _setup(app).sides[0].side_job_target
        assert now and now != first[0]
