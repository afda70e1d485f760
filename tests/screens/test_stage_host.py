"""The stage host (issue 24): a battle file is loaded once when a battle is opened, by the
app (which says a load failure, with the backup offer), and handed to the screen that
continues it: the pre-battle flow, the tracker and the post-battle wizard."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from munda_tui.rules.prebattle import scenario as sc
from munda_tui.rules.battle.events import default_setup
from munda_tui.rules.core.model import BattleSummary
from munda_tui.saves import Store

V, G = "venom-sisters", "iron-skulls"


def _seed(data_dir: Path) -> None:
    from support import ensure_demo  # the demo written once per process, then copied

    ensure_demo(data_dir)
    with Store(data_dir).open_campaign("demo") as handle:
        c = handle.campaign
        c.battles += [BattleSummary(number=1, status="setup"),
                      BattleSummary(number=2, status="battle", gangs=[V, G]),
                      BattleSummary(number=3, status="post-battle", gangs=[V, G])]
        handle.save()
        setup = sc.new_setup(1, V, G)
        setup.step = "battlefield"
        handle.save_battle(1, {"setup": setup.to_data()})
        handle.save_battle(2, {"setup": default_setup(c, 2, V, G).to_data()})


@pytest.mark.parametrize("number, screen", [(1, "PreBattleScreen"), (2, "BattleScreen"),
                                            (3, "PostBattleScreen")])
async def test_opening_a_battle_loads_its_file_once(make_app: Any, data_dir: Path,
                                                    number: int, screen: str) -> None:
    _seed(data_dir)
    app = make_app(seed=1, demo=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        handle = app.handle
        loads: list[int] = []
        load = handle.load_battle

        def counted(n: int) -> Any:
            caller = sys._getframe(1).f_code.co_filename
            if "saves" not in Path(caller).parts:  # (the store's own update reads its memo)
                loads.append(n)
            return load(n)

        handle.load_battle = counted
        assert app.open_battle(number)
        await pilot.pause()
        await pilot.pause()
        assert type(app.screen).__name__ == screen
        assert loads == [number]


async def test_a_set_up_that_cannot_be_saved_is_said_as_every_failed_save(make_app: Any,
                                                                        data_dir: Path) -> None:
    """The pre-battle flow's failed save shows the error dialog with its reason, as the
    tracker's and the wizard's do (it was a passing notification)."""
    from munda_tui.saves import SaveError

    _seed(data_dir)
    app = make_app(seed=1, demo=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert app.open_battle(1)
        await pilot.pause()
        screen = app.screen
        assert type(screen).__name__ == "PreBattleScreen"
        handle = app.handle
        on_disk = handle.load_battle(1)

        def refuse(*args: Any, **kwargs: Any) -> None:
            raise OSError(28, "No space left on device")

        handle.update_battle = refuse
        assert screen.save() is False
        await pilot.pause()
        assert type(app.screen).__name__ == "ErrorScreen"
        assert app.screen.title_text == "The set-up could not be saved"
        assert "No space left on device" in app.screen.message
        del handle.update_battle
        assert handle.load_battle(1) == on_disk


async def test_a_post_battle_commit_that_cannot_be_saved_is_said_as_every_failed_save(
        make_app: Any, data_dir: Path) -> None:
    """The wizard's commit goes through the stage host's one move: a campaign save that
    fails shows the error dialog with its reason (it was a line of its own under the
    question), the campaign and the battle file stay as they were, and Enter once the disk
    is fixed applies the sequence once."""
    import random

    import postbattle_support as S
    from support import wait_for_screen

    from munda_tui.rules.postbattle import sequence as pb

    slug = S.seed_battle(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.open_battle(1)
        await wait_for_screen(pilot, "PostBattleScreen")
        screen = app.screen
        S.drive(screen.seq, random.Random(1))  # every step walked: the commit is next
        assert screen.seq.at_end and screen.seq.pending is None
        screen._changed()
        await pilot.pause()
        handle = app.handle
        credits = [g.credits for g in handle.campaign.gangs]
        on_disk = handle.load_battle(1)

        def refuse() -> None:
            raise OSError(28, "No space left on device")

        handle.save = refuse
        await pilot.press("enter")
        await wait_for_screen(pilot, "ErrorScreen")
        assert app.screen.title_text == "The campaign could not be saved"
        assert "No space left on device" in app.screen.message
        assert not pb.is_applied(handle.campaign, 1)
        assert [g.credits for g in handle.campaign.gangs] == credits
        assert handle.load_battle(1) == on_disk  # (saved as it was again: not committing)
        del handle.save
        await pilot.press("enter")
        await wait_for_screen(pilot, "PostBattleScreen")
        await pilot.press("enter")
        for _ in range(5):
            await pilot.pause()
        assert pb.is_applied(handle.campaign, 1) and screen.seq is None
        assert handle.load_battle(1)["postbattle"]["status"] == "done"
