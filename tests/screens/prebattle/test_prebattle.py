"""The pre-battle flow driven by keyboard as players would (seed 001)."""

from __future__ import annotations

from pathlib import Path

from munda_tui.rules.prebattle.setup import BattleSetup
from munda_tui.saves import Store
from support import new_battle, open_saved_battle

SIZE = (100, 32)


async def _to_prebattle(pilot) -> None:
    await new_battle(pilot)


def _setup(app) -> BattleSetup:
    return BattleSetup.from_data(app.handle.load_battle(1)["setup"])


async def _press(pilot, *keys: str) -> None:
    for k in keys:
        await pilot.press(k)
        await pilot.pause()


async def test_from_choosing_gangs_to_a_started_battle_by_keyboard(make_app) -> None:
    app = make_app(seed=7, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _to_prebattle(pilot)
        screen = app.screen
        # gangs: the challenged is the Iron Skulls; swap: the challenged attacks
        await _press(pilot, "a", "n")
        s = _setup(app)
        assert (s.challenger, s.challenged, s.attacker) == ("venom-sisters", "iron-skulls", "iron-skulls")
        assert s.step == "battlefield"
        # battlefield: Tunnel Warfare
        await _press(pilot, "down", "enter")
        assert _setup(app).battlefield == "Tunnel Warfare"
        # scenario: deployment from a real die (4 = Ambush), objective chosen outright,
        # crew chosen outright (Surprise Attack), the side jobs rolled by the app
        await _press(pilot, "enter", "e", "4", "enter")
        await _press(pilot, "down", "enter", "c", "down", "down", "enter")  # 3 Tunnel Clash
        await _press(pilot, "down", "enter", "c", "down", "down", "down", "enter")  # 4 Surprise Attack
        await _press(pilot, "down", "enter", "c", "down", "down", "enter")  # 3 Settle a Score
        await _press(pilot, "down", "enter", "c", "down", "enter")  # 2 The Package
        await _press(pilot, "n")
        s = _setup(app)
        assert (s.deployment, s.objective, s.crew_table) == ("Ambush", "Tunnel Clash", "Surprise Attack")
        assert [side.side_job for side in s.sides] == ["Settle a Score", "The Package"]
        dep = next(r for r in s.rolls if r["table"] == "deployment")
        assert dep["how"] == "dice" and dep["faces"] == [4] and dep["by"] == "venom-sisters"
        crew = next(r for r in s.rolls if r["table"] == "crew")
        assert crew["by"] == "iron-skulls" and crew["how"] == "chosen"
        assert all(side.side_job for side in s.sides)
        assert s.side("iron-skulls").crew_method == "Hybrid (4+4)"  # the attacker
        assert s.side("venom-sisters").crew_method == "Custom (3)"  # the defender
        # pitch black: both agree, real die 6
        await _press(pilot, "down", "enter", "e", "6", "enter", "n")
        s = _setup(app)
        assert s.pitch_black and s.visibility == 'Pitch Black: Full Day Cycle, Visibility (24")'
        assert s.step == "subplots"
        # no Sub-plots this time (drawn before the crews: Choose Crew reveals need the hands)
        await _press(pilot, "enter")
        s = _setup(app)
        assert not s.subplots and s.step == "crews"
        # crew 1: Venom Sisters, Custom (3) + Reinforcements (7): choose 3, deal the deck
        await _press(pilot, "space", "down", "space", "down", "space", "d")
        s = _setup(app)
        venom = s.side("venom-sisters")
        assert [m.fighter for m in venom.crew] == ["vexa-nightshade", "sable-thorn", "kira-ashfall"]
        assert len(venom.reinforcements) == 6  # 9 fighters, 3 deployed: all the rest
        # the head says what the deck holds, not only the table's 7 (issue 26.9: it said
        # "Reinforcements (7)" with an empty deck)
        assert "Reinforcements (7, 6 in the deck)" in str(
            app.screen.query_one("#crew-head").render())
        assert not {m.fighter for m in venom.crew} & {m.fighter for m in venom.reinforcements}
        assert s.reinforcements_each_round == "D3" and s.reinforcements_from_round == 1
        # crew 2: Iron Skulls, Hybrid (4+4): choose 4, the real cards dealt are entered
        await _press(pilot, "n")
        await _press(pilot, "space", "down", "space", "down", "space", "down", "space")
        await _press(pilot, "t", "space", "down", "space", "down", "space", "down", "space", "enter")
        s = _setup(app)
        skulls = s.side("iron-skulls")
        assert len(skulls.crew) == 8 and skulls.reinforcements == []
        assert [m.fighter for m in skulls.crew] == [
            "brakk-ironjaw", "gorth-slagborn", "mord-hammerhand", "dak-cinderfist",  # chosen
            "thug-varro", "krug-ashenhide", "hesk-molten", "zorn-blackslag"]  # dealt (real cards)
        await _press(pilot, "n")
        assert screen.step == "side_jobs"
        # side jobs: Settle a Score at random (never the enemy Leader), The Package chosen
        await _press(pilot, "n")
        assert screen.step == "side_jobs"  # the targets are not picked yet
        await _press(pilot, "enter")  # Enter never picks at random: the table's pick
        assert type(app.screen).__name__ == "PickOneScreen"
        prompts = [str(o.prompt) for o in app.screen.query_one("OptionList")._options]
        assert not any("at random" in p for p in prompts)
        await _press(pilot, "escape")
        await _press(pilot, "r")  # the app picks at random
        await _press(pilot, "down", "enter", "down", "enter")  # the second deployed fighter
        s = _setup(app)
        target = s.side("venom-sisters").side_job_target
        assert target.startswith("iron-skulls/") and target != "iron-skulls/brakk-ironjaw"
        assert target.split("/")[1] in {m.fighter for m in skulls.crew}
        assert s.side("iron-skulls").side_job_target == "iron-skulls/gorth-slagborn"
        await _press(pilot, "n")
        assert screen.step == "summary"
        await _press(pilot, "s")
        await pilot.pause()
        s = _setup(app)
        assert s.complete and s.step == "summary"
        summary = app.handle.campaign.battles[0]
        assert summary.status == "battle"
        assert summary.gangs == ["venom-sisters", "iron-skulls"]
        assert summary.scenario == "Tunnel Clash"
        assert type(app.screen).__name__ == "BattleScreen"


async def test_closing_the_app_resumes_the_set_up(make_app, data_dir: Path) -> None:
    app = make_app(seed=3, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _to_prebattle(pilot)
        await _press(pilot, "n", "enter", "a", "n")
        assert app.screen.step == "pitch_black"
    # the campaign summary and the set-up are on disk
    store = Store(data_dir)
    with store.open_campaign("demo") as handle:
        data = handle.load_battle(1)
        assert data["setup"]["step"] == "pitch_black"
        assert handle.campaign.battles[0].status == "setup"
    app = make_app(seed=3, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await open_saved_battle(pilot)
        assert app.screen.step == "pitch_black"
        assert app.screen.setup.deployment
        # Back goes to the earlier step with its results kept
        await _press(pilot, "escape")
        assert app.screen.step == "scenario"
        assert _setup(app).step == "scenario"


async def test_steps_refuse_to_go_on_until_decided(make_app) -> None:
    app = make_app(seed=5, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _to_prebattle(pilot)
        await _press(pilot, "tab", "up", "n")  # the same gang twice
        assert app.screen.step == "gangs"
        await _press(pilot, "down", "n", "n")
        assert app.screen.step == "scenario"
        await _press(pilot, "n")  # nothing rolled yet
        assert app.screen.step == "scenario"
        # choose Hold Nothing Back! (Custom 10): crews need 9 chosen (all the Escher)
        await _press(pilot, "down", "down", "enter", "c", "down", "enter", "a", "n", "n", "n")
        assert app.screen.step == "crews"
        await _press(pilot, "space", "n")
        assert app.screen.step == "crews"
        assert app.screen.setup.sides[0].crew == []


async def test_adjusting_the_crew_method(make_app) -> None:
    app = make_app(seed=5, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _to_prebattle(pilot)
        await _press(pilot, "n", "n")
        await _press(pilot, "down", "down", "enter", "c", "enter", "a", "n", "n", "n")  # Escalating Engagement
        assert app.screen.step == "crews"
        head = app.screen.query_one("#crew-head")
        assert "Reading note: The scan reads \"Hybrid (3+03)\"" in str(head.render())
        await _press(pilot, "m")
        for _ in range(20):
            await pilot.press("backspace")
        await pilot.press(*"Random (D3+5)")
        await _press(pilot, "enter")
        assert app.screen.setup.sides[0].crew_method == "Random (D3+5)"
        # QA walk: the note reads the table's Hybrid (3+D3): stale once adjusted
        assert "Reading note" not in str(app.screen.query_one("#crew-head").render())
        await _press(pilot, "x", "e", "2", "enter", "d")
        crew = app.screen.setup.sides[0].crew
        assert len(crew) == 7
        x = next(r for r in app.screen.setup.rolls if r["table"] == "crew_x")
        assert x["faces"] == [2] and x["total"] == 7


async def test_override_problems_are_shown(make_app, config_dir: Path) -> None:
    (config_dir / "tables").mkdir()
    (config_dir / "tables" / "broken.toml").write_text('table = "crew"\nmode = "merge"\n')
    (config_dir / "tables" / "deploy.toml").write_text(
        'table = "deployment"\nmode = "replace"\ndice = "D3"\n'
        '[[entries]]\nroll = "1-3"\nname = "Tight Corners"\ntext = "Anywhere."\n'
    )
    app = make_app(seed=5, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _to_prebattle(pilot)
        note = str(app.screen.query_one("#tables-note").render())
        assert "broken.toml:2" in note and "mode" in note
        assert "Deployment table from" in note
        await _press(pilot, "n", "n", "enter", "r")
        assert app.screen.setup.deployment == "Tight Corners"


async def test_choose_crew_subplot_is_offered_behind_the_curtain(make_app, data_dir: Path) -> None:
    from munda_tui.rules.prebattle import scenario as sc
    from munda_tui.rules.prebattle.setup import CrewMember

    store = Store(data_dir)
    from support import ensure_demo  # the demo written once per process, then copied

    ensure_demo(data_dir)
    with store.open_campaign("demo") as handle:
        from munda_tui.rules.core.model import BattleSummary

        handle.campaign.battles.append(BattleSummary(number=1, status="setup"))
        handle.save()
        setup = sc.new_setup(1, "venom-sisters", "iron-skulls")
        setup.deployment, setup.objective = "Face Off", "Turf War"
        sc.apply_crew_entry(setup, sc.packaged_tables()["crew"].entry("Strike Force"))
        setup.sides[0].side_job = setup.sides[1].side_job = "Crippling Strike"
        setup.subplots = True
        setup.sides[1].hand = ["goliath:K"]  # Naked Brutality: revealed at Choose Crew
        setup.sides[1].crew = [CrewMember(f) for f in (
            "brakk-ironjaw", "gorth-slagborn", "mord-hammerhand", "dak-cinderfist", "thug-varro")]
        setup.step = "crews"
        handle.save_battle(1, {"setup": setup.to_data()})
    app = make_app(seed=2, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await open_saved_battle(pilot)
        screen = app.screen
        assert screen.step == "crews"
        # the first side (no hand) offers no Sub-plot key; the Iron Skulls do
        assert screen.panel.check_action("subplots", ()) is False
        await _press(pilot, "space", "down", "space", "down", "space", "down", "space", "down", "space", "n")
        assert screen.panel.side_i == 1
        await _press(pilot, "p")
        assert type(app.screen).__name__ == "PrivacyCurtain"
        await _press(pilot, "enter")
        assert type(app.screen).__name__ == "SubplotChoiceScreen"
        await _press(pilot, "down", "enter")  # the second fighter of the crew
        assert app.screen is screen
        s = _setup(app)
        assert s.sides[1].subplot_choices == {"goliath:K": "gorth-slagborn"}
        text = str(screen.query_one("#crew-result").render())
        assert "Naked Brutality (Gorth Slagborn)" in text


async def test_protect_the_future_without_prospects_or_gangers_generates_a_new_side_job(
    make_app, data_dir: Path
) -> None:
    from support import ensure_demo  # the demo written once per process, then copied
    from munda_tui.rules.prebattle import scenario as sc
    from munda_tui.rules.core.model import BattleSummary
    from munda_tui.rules.prebattle.setup import CrewMember

    ensure_demo(data_dir)
    with Store(data_dir).open_campaign("demo") as handle:
        handle.campaign.battles.append(BattleSummary(number=1, status="setup"))
        handle.save()
        setup = sc.new_setup(1, "venom-sisters", "iron-skulls")
        setup.deployment, setup.objective = "Face Off", "Turf War"
        sc.apply_crew_entry(setup, sc.packaged_tables()["crew"].entry("Strike Force"))
        setup.sides[0].side_job = "Crippling Strike"
        setup.sides[1].side_job = "Protect the Future"
        setup.sides[0].crew = [CrewMember("vexa-nightshade")]
        setup.sides[1].crew = [CrewMember(f) for f in ("brakk-ironjaw", "gorth-slagborn", "mord-hammerhand")]
        setup.step = "side_jobs"
        handle.save_battle(1, {"setup": setup.to_data()})
    app = make_app(seed=2, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await open_saved_battle(pilot)
        screen = app.screen
        assert screen.step == "side_jobs"
        await _press(pilot, "n")  # Protect the Future is not settled yet
        assert screen.step == "side_jobs"
        await _press(pilot, "down", "enter")  # no Prospect, no Ganger: a new Side Job
        assert type(app.screen).__name__ == "DicePrompt"
        await _press(pilot, "e", "1", "enter")
        s = _setup(app)
        assert s.sides[1].side_job == "Stitch 'em Up!"
        rec = s.rolls[-1]
        assert rec["table"] == "side_job" and rec["by"] == "iron-skulls" and rec["faces"] == [1]
        await _press(pilot, "n")
        assert screen.step == "summary"


async def test_fighters_who_cannot_fight_are_shown_but_never_chosen(make_app, data_dir: Path) -> None:
    from support import ensure_demo  # the demo written once per process, then copied
    from munda_tui.rules.core.model import FighterStatus

    ensure_demo(data_dir)
    with Store(data_dir).open_campaign("demo") as handle:
        gang = handle.campaign.gang("venom-sisters")
        gang.fighter("vexa-nightshade").status = FighterStatus.RECOVERY
        gang.fighter("lys-venom").status = FighterStatus.CAPTURED
        handle.save()
    app = make_app(seed=4, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _to_prebattle(pilot)
        # Strike Force: Custom (5) for both
        await _press(pilot, "n", "n", "down", "down", "enter", "c", "down", "down", "down", "down", "enter")
        await _press(pilot, "a", "n", "n", "n")
        screen = app.screen
        assert screen.step == "crews"
        fighters = screen.query_one("#crew-fighters")
        assert fighters.get_option("f-vexa-nightshade").disabled
        assert "in Recovery: misses the gang's next battle: cannot take part" in str(
            fighters.get_option("f-vexa-nightshade").prompt)
        assert fighters.get_option("f-lys-venom").disabled
        for _ in range(5):
            await _press(pilot, "space", "down")
        await _press(pilot, "n")
        crew = [m.fighter for m in _setup(app).side("venom-sisters").crew]
        assert len(crew) == 5 and "vexa-nightshade" not in crew and "lys-venom" not in crew


async def test_enter_on_a_rolled_line_never_rerolls_and_R_keeps_both(make_app) -> None:
    """#15: Deployment went 1 → 6 → 3 with only the last kept. Now Enter on a rolled line
    rolls nothing; R asks why and keeps both results in the record and the summary."""
    from munda_tui.rules.prebattle import scenario as sc
    from munda_tui.rules.prebattle.flow import summary_markdown

    app = make_app(seed=7, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _to_prebattle(pilot)
        await _press(pilot, "n", "enter")  # gangs, battlefield
        assert app.screen.step == "scenario"
        await _press(pilot, "enter", "e", "1", "enter")  # Deployment: a real 1
        first = _setup(app)
        assert [r["faces"] for r in first.rolls if r["table"] == "deployment"] == [[1]]
        for _ in range(2):  # Enter, Enter again: no prompt, no roll
            await _press(pilot, "enter")
            assert type(app.screen).__name__ == "PreBattleScreen"
            await _press(pilot, "r")  # r alone on the line rolls nothing either
            assert type(app.screen).__name__ == "PreBattleScreen"
        assert _setup(app).rolls == first.rolls
        await _press(pilot, "R")
        assert getattr(app.screen, "title_text", "").startswith("Re-roll or correct")
        await _press(pilot, "escape")  # changed their mind: the 1 stands
        assert _setup(app).rolls == first.rolls
        await _press(pilot, "R", *"the die fell off the table", "enter")
        assert type(app.screen).__name__ == "DicePrompt"
        await _press(pilot, "e", "6", "enter")
        s = _setup(app)
        (dep,) = [r for r in s.rolls if r["table"] == "deployment"]
        table = app.screen.tables["deployment"]
        assert dep["faces"] == [6] and dep["previous"][0]["faces"] == [1]
        assert dep["reason"] == "the die fell off the table"
        assert s.deployment == table.entry_for(6).name
        assert sc.reroll_lines(dep) == [
            f"re-rolled: 1 → 6 ({table.entry_for(1).name} → {table.entry_for(6).name}), "
            "the die fell off the table"]
        assert "re-rolled: 1 → 6" in str(app.screen.query_one("#sc-detail").render())
        await _press(pilot, "a", "n")  # the rest rolled; Pitch Black
        assert app.screen.step == "pitch_black"
        await _press(pilot, "down", "enter", "e", "3", "enter")
        rolled = _setup(app).rolls
        await _press(pilot, "enter")  # Enter on the rolled choice: no second roll
        assert type(app.screen).__name__ == "PreBattleScreen"
        assert _setup(app).rolls == rolled
        summary = summary_markdown(app.screen.flow)
    assert "re-rolled: 1 → 6" in summary and "the die fell off the table" in summary


async def test_a_half_made_crew_is_there_after_quitting_and_reopening(make_app, data_dir: Path) -> None:
    """Choose Crew: Y rolled, two fighters chosen (one with its second Model Card), the
    app quit; reopened, the set-up resumes the same half-made crew, and dealing goes on."""
    from prebattle_states import seed_state
    from support import wait_for_screen

    slug = seed_state(data_dir, "subplots")  # Escalating Engagement: Hybrid (3+D3)
    app = make_app(seed=11, campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        app.open_battle(1)
        await wait_for_screen(pilot, "PreBattleScreen")
        await _press(pilot, "enter")  # no Sub-plots: Choose Crew
        await _press(pilot, "y", "e", "2", "enter", "space", "down", "space", "l", "down", "enter")
        before = str(app.screen.query_one("#crew-result").render())
        fighters_before = [str(o.prompt) for o in app.screen.query_one("#crew-fighters").options]
        await _press(pilot, "ctrl+q")
    with Store(data_dir).open_campaign(slug) as handle:  # what the file holds, app closed
        saved = BattleSetup.from_data(handle.load_battle(1)["setup"])
        gang = handle.campaign.gang(saved.sides[0].gang)
    draft = saved.sides[0].draft
    first, second = [f.id for f in gang.fighters if f.can_fight][:2]
    assert draft.amounts == {"y": 2}
    assert [m.fighter for m in draft.picks] == [first, second]
    assert draft.picks[1].loadout  # the second Model Card
    assert [r["table"] for r in draft.rolls] == ["crew_y"] and draft.rolls[0]["faces"] == [2]
    assert saved.sides[0].crew == [] and saved.step == "crews"

    app = make_app(seed=11, campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        app.open_battle(1)
        await wait_for_screen(pilot, "PreBattleScreen")
        screen = app.screen
        assert screen.step == "crews" and screen.panel.side_i == 0
        assert str(screen.query_one("#crew-result").render()) == before
        assert [str(o.prompt) for o in screen.query_one("#crew-fighters").options] == fighters_before
        assert "Y = D3 → 2" in before and "Chosen: 2 of 3" in before
        await _press(pilot, "down", "down", "space", "d")  # the third chosen, the two of Y dealt
        s = _setup(app)
        crew = s.sides[0].crew
        assert len(crew) == 5 and [m.fighter for m in crew[:2]] == [first, second]
        assert crew[1].loadout == draft.picks[1].loadout
        assert s.sides[0].draft.empty()  # emptied into the crew, and not written
        assert "draft" not in app.handle.load_battle(1)["setup"]["sides"][0]
        y = next(r for r in s.rolls if r["table"] == "crew_y")
        assert y["faces"] == [2] and y["by"] == s.sides[0].gang


async def test_hostile_table_files_are_reported_and_end_nothing(make_app, config_dir: Path) -> None:
    """Issue 26 item 13: an array nested 600 deep ended the app at `n` (RecursionError);
    a 20,000-part dotted key stalled the pre-battle for seconds. Both go through the
    guarded reader save files have and are named in the tables note."""
    (config_dir / "tables").mkdir()
    (config_dir / "tables" / "deep.toml").write_text('table = "crew"\nx = ' + "[" * 600 + "]" * 600 + "\n")
    (config_dir / "tables" / "dotted.toml").write_text(".".join("a" for _ in range(20_000)) + " = 1\n")
    (config_dir / "tables" / "inline.toml").write_text("x = " + "{ a = " * 600 + "1" + " }" * 600 + "\n")
    app = make_app(seed=5, demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await _to_prebattle(pilot)
        note = str(app.screen.query_one("#tables-note").render())
        assert "deep.toml:2:5 arrays or tables nested more than 64 deep" in note
        assert "dotted.toml:1:1 a dotted key of more than 64 parts" in note
        assert "inline.toml:1:1" in note and "nested too deeply" in note
