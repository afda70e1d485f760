"""The battle tracker screen: snapshots at 80x24, a battle played by keyboard,
kill -9 and resume."""

from __future__ import annotations

from munda_tui.rules.battle.events import ActivateEvent, ConditionEvent, EndEvent, FleshWoundEvent, PhaseEvent, PriorityEvent, RecoveryEvent, SideJobEvent, StateEvent, TacticEvent, VpEvent, XpEvent

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from munda_tui.rules.battle.events import (
    OUT_OF_ACTION,
    PINNED,
    SERIOUSLY_INJURED,
    Battle,
    Event,
    default_setup,
    start_event,
)
from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import BattleSummary
from munda_tui.saves import Store

SIZE = (80, 24)
V, G = "venom-sisters", "iron-skulls"


def v(fid: str) -> str:
    return f"{V}/{fid}"


def g(fid: str) -> str:
    return f"{G}/{fid}"


def make_battle(data_dir: Path, hands: dict[str, list[str]] | None = None,
                events: list[Event] = (), strict: bool = False,
                choices: dict[str, dict[str, str]] | None = None, walked: bool = True) -> None:
    """The demo campaign with battle 1 in the tracker (status "battle"); ``walked``: the
    start of the game already walked (test_battle_start.py walks it)."""
    c = demo_campaign()
    c.settings.strict_secrecy = strict
    c.battles.append(BattleSummary(1, date="2026-01-15", gangs=[V, G], status="battle"))
    setup = default_setup(c, 1, V, G)
    setup.objective = "Sabotage"
    for side in setup.sides:
        side.hand = list((hands or {}).get(side.gang, []))
        side.subplot_choices = dict((choices or {}).get(side.gang, {}))
    setup.subplots = bool(hands)
    data = {"setup": setup.to_data()}
    if events:
        data["battle"] = Battle([start_event(setup, c), *events]).to_data()
    if walked:
        data.setdefault("battle", {})["start_walked"] = True
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, data)


async def open_battle(pilot) -> None:  # type: ignore[no-untyped-def]
    await pilot.pause()
    pilot.app.open_battle(1)
    await pilot.pause()


def battle_log(data_dir: Path, app=None) -> list[Event]:  # type: ignore[no-untyped-def]
    """The log as saved on disk (through the running app's handle if any)."""
    if app is not None:
        return Battle.from_data(app.handle.load_battle(1)["battle"]).log
    with Store(data_dir).open_campaign("demo") as h:
        return Battle.from_data(h.load_battle(1)["battle"]).log


def _text(app) -> str:  # type: ignore[no-untyped-def]
    from textual.widgets import DataTable, OptionList, Static

    from munda_tui.widgets.fighter_table import FighterTable
    from munda_tui.widgets.playing_card import PlayingCard

    parts = []
    for w in app.screen.query("*"):
        if isinstance(w, (Static, PlayingCard)):
            parts.append(str(w.render()))
        elif isinstance(w, OptionList):
            parts.extend(str(w.get_option_at_index(i).prompt) for i in range(w.option_count))
        elif isinstance(w, FighterTable):
            parts.extend(w.render_line(y).text for y in range(w.size.height))
        elif isinstance(w, DataTable):
            for r in range(w.row_count):
                parts.append(" ".join(str(c) for c in w.get_row_at(r)))
    return "\n".join(parts)


MID_BATTLE = [
    PriorityEvent(gang=V),
    PhaseEvent(round=1, phase="action"),
    ActivateEvent(fighter=v("vexa-nightshade")),
    StateEvent(fighter=g("thug-varro"), state=SERIOUSLY_INJURED,
          attacker=v("vexa-nightshade"), action="fight", traits=("Melee",)),
    ConditionEvent(fighter=g("dak-cinderfist"), condition="Broken"),
    ConditionEvent(fighter=g("krug-ashenhide"), condition="Blaze"),
    FleshWoundEvent(fighter=v("mara-quill"), amount=1),
    StateEvent(fighter=v("mara-quill"), state=PINNED),
    StateEvent(fighter=v("pip-hollow"), state=OUT_OF_ACTION, attacker=g("zorn-blackslag"),
          action="shoot"),
    XpEvent(fighter=v("vexa-nightshade"), amount=2),
    TacticEvent(gang=G, note="Overwhelming Firepower"),
    VpEvent(gang=V, amount=1),
]

THREE_DOWN = [
    StateEvent(fighter=g("thug-varro"), state=SERIOUSLY_INJURED),
    StateEvent(fighter=g("dak-cinderfist"), state=SERIOUSLY_INJURED),
    StateEvent(fighter=g("zorn-blackslag"), state=OUT_OF_ACTION),
]


# --- snapshots --------------------------------------------------------------------------


def test_snapshot_start_of_battle(snap_compare, make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["escher:2"], G: ["goliath:5"]})
    assert snap_compare(make_app(campaign="demo"), terminal_size=SIZE, run_before=open_battle)


def test_snapshot_mid_battle_with_conditions(snap_compare, make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["escher:2"]}, MID_BATTLE)
    assert snap_compare(make_app(campaign="demo"), terminal_size=SIZE, run_before=open_battle,
                        press=["right", "down", "down", "down"])


def test_snapshot_discreet_marker(snap_compare, make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["escher:2", "escher:7"], G: ["goliath:5"]}, THREE_DOWN)
    assert snap_compare(make_app(campaign="demo"), terminal_size=SIZE, run_before=open_battle)


def test_snapshot_reveal_with_reward_roll(snap_compare, make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["escher:A"]}, [
        StateEvent(fighter=g("brakk-ironjaw"), state=OUT_OF_ACTION,
              attacker=v("vexa-nightshade"), action="fight", traits=("Melee",)),
    ])
    # h: curtain, enter: ready, r: reveal, enter: roll, r: the app rolls the D6
    assert snap_compare(make_app(campaign="demo"), terminal_size=SIZE, run_before=open_battle,
                        press=["h", "enter", "r", "enter", "r"])


def test_snapshot_end_of_battle(snap_compare, make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["escher:7"]}, [*THREE_DOWN, PhaseEvent(round=2, phase="priority"),
                                              EndEvent(winner=V, fled=(G,))])
    assert snap_compare(make_app(campaign="demo"), terminal_size=SIZE, run_before=open_battle)


# --- behaviour ------------------------------------------------------------------------------


async def test_marker_is_on_the_owner_side_only_and_never_names_the_card(make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["escher:2"], G: ["goliath:5"]}, THREE_DOWN)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        heads = [str(app.screen.query_one(f"#head-{i}").render()) for i in (0, 1)]
        assert "◆" in heads[0] and "◆" not in heads[1]
        text = _text(app)
        assert "Murder Run" not in text and "Pit Fight" not in text


async def test_strict_secrecy_hides_the_marker(make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["escher:2"]}, THREE_DOWN, strict=True)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        assert "◆" not in str(app.screen.query_one("#head-0").render())
        # the match still shows inside the owner's peek
        await pilot.press("h", "enter")
        assert "Murder Run - MET" in _text(app)


async def test_play_a_short_battle_murder_run_met_revealed_and_recorded(make_app, data_dir) -> None:
    """An Escher hand's Murder Run: met by three takedowns, revealed, two Gang Tactics."""
    make_battle(data_dir, {V: ["escher:2"], G: ["goliath:5"]})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        screen = app.screen
        await pilot.press("n")  # Action phase
        await pilot.press("right")  # the Iron Skulls' crew; Brakk Ironjaw selected
        await pilot.press("down", "down", "down", "down")  # Thug Varro
        await pilot.press("s", "down", "f", "1", "enter")  # SI by Vexa, Fight, Melee
        await pilot.press("down", "o", "enter")  # Krug Ashenhide OOA, attacker skipped
        await pilot.press("down", "b")  # Hesk Molten Broken
        assert "◆" not in str(screen.query_one("#head-0").render())
        await pilot.press("down", "s", "down", "down", "s", "2", "enter")  # Zorn SI
        assert "◆" in str(screen.query_one("#head-0").render())
        await pilot.press("left", "x")  # Vexa +1 XP
        await pilot.press("h")  # the curtain
        assert "Only Ana should look" in _text(app)
        await pilot.press("enter")  # Ana is ready: her hand
        assert "Murder Run - MET" in _text(app)
        await pilot.press("r")  # reveal: shown to both players
        assert "The Venom Sisters reveal a Sub-plot" in _text(app)
        assert "2 Gang Tactics" in _text(app)
        await pilot.press("enter")  # record
        await pilot.pause()
        assert app.screen is screen
        assert "Murder Run" in str(screen.query_one("#head-0").render())
        assert "GT 0 +2" in str(screen.query_one("#head-0").render())
        await pilot.press("E", "enter")  # the Venom Sisters win
        await pilot.press("F")  # finish: Ben still holds a card and may take a last look
        assert "Only Ben should look" in _text(app)
        await pilot.press("enter")
        assert "Pit Fight - MET" in _text(app)  # no Iron Skull used a non-Melee weapon
        await pilot.press("escape")  # Ben keeps it hidden
        await pilot.press("y")  # finish
        await pilot.pause()
    log = battle_log(data_dir)
    kinds = [e.kind for e in log]
    assert kinds == ["start", "phase", "state", "state", "condition", "state", "xp", "reveal", "end"]
    thug = log[2]
    assert (thug.fighter, thug.state, thug.attacker, thug.action, thug.traits) == (
        g("thug-varro"), SERIOUSLY_INJURED, v("vexa-nightshade"), "fight", ("Melee",))
    reveal = log[7]
    assert reveal.card == "escher:2" and reveal.gang == V
    assert [(r.kind, r.amount) for r in reveal.rewards] == [("gang_tactics", 2)]
    with Store(data_dir).open_campaign("demo") as h:
        data = h.load_battle(1)
        summary = h.campaign.battles[0]
    assert summary.status == "post-battle" and summary.winner == V
    out = data["battle"]["outcome"]
    assert out["winner"] == V and out["subplots_revealed"] == ["escher:2"]
    assert [(r["gang"], r["kind"], r["amount"], r["source"]) for r in out["rewards"]] == [
        (V, "gang_tactics", 2, "Sub-plot: Murder Run")]
    states = {f["fighter"]: f["end_state"] for f in out["fighters"]}
    assert states["krug-ashenhide"] == "out_of_action" and states["thug-varro"] == "seriously_injured"
    assert {f["fighter"]: f["xp"] for f in out["fighters"]}["vexa-nightshade"] == 1


async def test_undo_redo_and_refused_events(make_app, data_dir) -> None:
    make_battle(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("x", "x", "u")
        assert [e.kind for e in battle_log(data_dir, app)] == ["start", "xp"]
        await pilot.press("U")
        assert [e.kind for e in battle_log(data_dir, app)] == ["start", "xp", "xp"]
        await pilot.press("r")  # Recovery on a standing fighter: refused, nothing logged
        assert "not Seriously Injured" in str(app.screen.query_one("#message").render())
        await pilot.press("s", "escape")  # cancelled in the modal
        assert len(battle_log(data_dir, app)) == 3


async def test_quick_battle_without_setup(make_app, data_dir) -> None:
    c = demo_campaign()
    c.battles.append(BattleSummary(1, gangs=[G, V], status="battle"))
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, {})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        assert app.screen.gangs == [G, V]
        await pilot.press("o", "enter")
    log = battle_log(data_dir)
    assert log[0].kind == "start" and log[1].fighter == g("brakk-ironjaw")


def test_kill_dash_nine_and_reopen_returns_to_the_same_battle(make_app, data_dir, config_dir) -> None:
    """A real process records events by keyboard and is killed with SIGKILL."""
    make_battle(data_dir, {V: ["escher:2"]})
    script = textwrap.dedent(f"""
        import asyncio, os, signal, sys
        from pathlib import Path
        sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})
        from support import settle  # this process has no conftest: wait for each screen here
        from munda_tui.app import MundaApp

        async def main():
            app = MundaApp(Path({str(data_dir)!r}), Path({str(config_dir)!r}), seed=1,
                           campaign="demo", today="2026-01-15")
            async with app.run_test(size=(80, 24)) as pilot:
                await settle(pilot)
                app.open_battle(1)
                await settle(pilot)
                for key in ("right", "s", "enter", "down", "o", "enter", "down", "b", "n", "x"):
                    await pilot.press(key)  # the next key once the dialog it opened is up
                    await settle(pilot)
                os.kill(os.getpid(), signal.SIGKILL)

        asyncio.run(main())
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60, env={**os.environ})
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    log = battle_log(data_dir)
    assert [e.kind for e in log] == ["start", "state", "state", "condition", "phase", "xp"]
    # a new app on the same data dir reopens the battle where it stood
    async def reopen() -> None:
        app = make_app(campaign="demo")
        async with app.run_test(size=SIZE) as pilot:
            await open_battle(pilot)
            st = app.screen.battle.state
            assert st.fighters[g("brakk-ironjaw")].state == SERIOUSLY_INJURED
            assert st.fighters[g("gorth-slagborn")].state == OUT_OF_ACTION
            assert st.fighters[g("mord-hammerhand")].conditions == ["Broken"]
            assert st.phase == "action"
            assert len(app.screen.battle.log) == 6

    import asyncio as aio
    aio.run(reopen())


async def test_end_of_battle_card_revealed_with_real_dice(make_app, data_dir) -> None:
    """Scrag 'em All: met when the battle ends in round 1; its D6 (upgraded) from real dice."""
    make_battle(data_dir, {V: ["escher:7"]})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("h", "enter")
        assert "Scrag 'em All - watched" in _text(app)
        await pilot.press("escape", "E", "enter")  # the Venom Sisters win in round 1
        assert "◆" in str(app.screen.query_one("#head-0").render())
        await pilot.press("h", "enter", "r")
        assert "Upgraded reward: yes" in _text(app)
        await pilot.press("enter", "e", "4", "enter")  # the D6 rolled at the table: 4
        assert "4 Reputation" in _text(app)
        await pilot.press("enter")
        await pilot.press("F", "y")
        await pilot.pause()
    with Store(data_dir).open_campaign("demo") as h:
        out = h.load_battle(1)["battle"]["outcome"]
    assert [(r["kind"], r["amount"], r["dice"], r["faces"], r["source"]) for r in out["rewards"]] == [
        ("reputation", 4, "D6", [4], "Sub-plot: Scrag 'em All")]


async def test_reward_walked_at_the_end_for_a_two_stage_card(make_app, data_dir) -> None:
    """Back from the Dead: revealed on the second recovery, its reward walked at Finish."""
    make_battle(data_dir, {G: ["goliath:Q"]}, [
        StateEvent(fighter=g("thug-varro"), state=SERIOUSLY_INJURED),
        RecoveryEvent(fighter=g("thug-varro"), result=PINNED),
        StateEvent(fighter=g("dak-cinderfist"), state=SERIOUSLY_INJURED),
        RecoveryEvent(fighter=g("dak-cinderfist"), result=PINNED),
    ])
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("right", "h", "enter", "r")
        assert "walked at the end of the battle" in _text(app)
        await pilot.press("enter")  # revealed, no reward yet
        assert "reward due" not in str(app.screen.query_one("#head-1").render())
        await pilot.press("E", "down", "enter")  # the Iron Skulls win
        assert "reward due" in str(app.screen.query_one("#head-1").render())
        await pilot.press("F")  # the reward is walked first
        assert "reward for Back from the Dead" in _text(app)
        await pilot.press("enter", "r", "enter", "y")
        await pilot.pause()
    log = battle_log(data_dir)
    assert [e.kind for e in log[-3:]] == ["reveal", "end", "reward"]
    assert log[-3].rewards == () and log[-1].rewards[0].kind == "reputation"
    assert log[-1].rewards[0].dice == "D3"


async def test_reinforcements_and_the_full_log(make_app, data_dir) -> None:
    c = demo_campaign()
    c.battles.append(BattleSummary(1, gangs=[V, G], status="battle"))
    setup = default_setup(c, 1, V, G)
    side = setup.sides[1]
    side.reinforcements = side.crew[-2:]
    side.crew = side.crew[:-2]
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, {"setup": setup.to_data()})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        st = app.screen.battle.state
        assert st.fighters[g("nub-sparkjaw")].state == "not_deployed"
        assert "Res 2" in str(app.screen.query_one("#head-1").render())
        await pilot.press("right", "d")  # the next card of the deck arrives
        assert app.screen.battle.state.fighters[g("nub-sparkjaw")].state == "active"
        assert app.screen.table(1).selected == g("nub-sparkjaw")
        await pilot.press("L")
        assert "Reinforcements to come: Runt Kettle" in _text(app)
        assert "Nub Sparkjaw arrives (Reinforcement)" in _text(app)
        await pilot.press("escape", "question_mark")
        assert "d Reinforcement arrives (from the Reinforcements deck)" in _text(app)


async def test_generated_battle_for_the_benchmark_opens_and_takes_keys(make_app, data_dir) -> None:
    from munda_tui.screens.battle.screen import BattleScreen
    from scripts.generate import write_generated_battle

    slug = write_generated_battle(Store(data_dir), seed=2,
                                  hands={"red-blades": ["escher:2"], "grey-hammers": ["goliath:5"]})
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.open_battle(1)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BattleScreen)
        assert len(screen.battle.log) == 300
        assert [screen.table(i).row_count for i in (0, 1)] == [15, 15]
        await pilot.press(*["down"] * 14, "x")  # the 15th fighter, scrolled into view
        assert screen.table(0).selected == "red-blades/f15"
        assert len(battle_log(data_dir, app)) == 301


async def test_revealing_a_card_the_log_does_not_show_met_asks_first(make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["escher:A"]})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("h", "enter", "r")
        assert "does not show this card met" in _text(app)
        await pilot.press("n")  # kept hidden
        assert "Decapitation - watched" in _text(app)
        await pilot.press("r", "y")  # revealed anyway: the reward is still walked
        assert "The Venom Sisters reveal a Sub-plot" in _text(app)


async def test_manual_card_with_alternative_rewards_and_an_effect(make_app, data_dir) -> None:
    """Stimmer Rampage (revealed by its owner): the win reward skipped, the loss entered."""
    make_battle(data_dir, {G: ["goliath:3"]})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("right", "h", "enter")
        assert "Stimmer Rampage - depends on the table" in _text(app)
        await pilot.press("r")
        assert "effect (not banked): every fighter in your crew" in _text(app)
        await pilot.press("s")  # D6 Reputation (if you win): does not apply
        assert "skipped: D6 Reputation" in _text(app)
        await pilot.press("enter", "e", "2", "enter")  # -D3 Reputation from a real die
        assert "-2 Reputation" in _text(app)
        await pilot.press("enter")
    log = battle_log(data_dir)
    assert log[-1].kind == "reveal" and log[-1].card == "goliath:3"
    assert [(r.kind, r.amount, r.faces) for r in log[-1].rewards] == [("reputation", -2, (2,))]


async def test_card_shown_at_choose_crew_is_public_and_its_xp_goes_to_the_chosen_fighter(
        make_app, data_dir) -> None:
    """Naked Brutality, shown at Choose Crew for Thug Varro: public on the Iron Skulls'
    side from the start; revealed later, its 6 XP go to him without asking."""
    make_battle(data_dir, {G: ["goliath:K", "goliath:5"]},
                choices={G: {"goliath:K": "thug-varro"}})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        head = str(app.screen.query_one("#head-1").render())
        assert "Naked Brutality" in head and head.count("▚▞") == 1  # Pit Fight stays hidden
        await pilot.press("right", "h", "enter")
        assert "Naked Brutality - shown to both before round 1" in _text(app)
        await pilot.press("r")
        assert "6 XP to Thug Varro" in _text(app)
        await pilot.press("enter")
    rewards = battle_log(data_dir)[-1].rewards
    assert [(r.kind, r.amount, r.fighter) for r in rewards] == [("xp", 6, g("thug-varro"))]


async def test_mouse_picks_a_fighter_and_unknown_cards_are_left_out(make_app, data_dir) -> None:
    from munda_tui.widgets.fighter_table import FighterTable

    make_battle(data_dir, {V: ["escher:2", "nonsense:Z"]})
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        assert "nonsense:Z" in str(app.screen.query_one("#message").render())
        assert app.screen.hands[V] == ["escher:2"]
        right = app.screen.query_one("#crew-1", FighterTable)
        await pilot.click(right, offset=(5, 3))  # the header, then Brakk, Gorth, Mord
        assert right.has_focus and right.selected == g("mord-hammerhand")
        await pilot.press("x")
    assert battle_log(data_dir)[-1] == XpEvent(fighter=g("mord-hammerhand"), amount=1)


async def test_side_job_achieved_by_key(make_app, data_dir) -> None:
    make_battle(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("right", "j")
        assert "Job done" in str(app.screen.query_one("#head-1").render())
        await pilot.press("j")  # only once
        assert "already achieved" in str(app.screen.query_one("#message").render())
        await pilot.press("L")
        assert "Side Job: - (achieved)" in _text(app)
    assert battle_log(data_dir)[-1] == SideJobEvent(gang=G)


async def test_a_log_broken_by_hand_is_replayed_up_to_the_bad_event_and_kept(make_app, data_dir) -> None:
    make_battle(data_dir, events=[XpEvent(fighter=v("lys-venom"), amount=1)])
    with Store(data_dir).open_campaign("demo") as h:
        data = h.load_battle(1)
        data["battle"]["log"].append({"kind": "state", "fighter": "nobody/here", "state": "pinned"})
        data["battle"]["log"].append({"kind": "xp", "fighter": v("lys-venom"), "amount": 1})
        h.save_battle(1, data)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        assert "could not be replayed" in _text(app) and "event 3 (state)" in _text(app)
        await pilot.press("escape")
        assert len(app.screen.battle.log) == 2
        await pilot.press("x")
        data = app.handle.load_battle(1)["battle"]
    assert [e["kind"] for e in data["rejected"]] == ["state", "xp"]
    assert [e["kind"] for e in data["log"]] == ["start", "xp", "xp"]


async def test_marker_goes_once_the_owner_has_looked_and_comes_back_for_a_new_card(
        make_app, data_dir) -> None:
    make_battle(data_dir, {V: ["escher:2", "escher:A"]}, THREE_DOWN)
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        head = app.screen.query_one("#head-0")
        assert "◆" in str(head.render())
        await pilot.press("h", "escape")  # the curtain dismissed: nobody looked
        assert "◆" in str(head.render())
        await pilot.press("h", "enter", "escape")  # Ana looked and kept her card
        assert "◆" not in str(head.render())
        # Decapitation met now: a new marker
        await pilot.press("right", "o", "down", "f", "1", "enter")
        assert "◆" in str(head.render())
    with Store(data_dir).open_campaign("demo") as h:
        assert h.load_battle(1)["battle"]["seen"] == {V: ["escher:2"]}


async def test_hidden_cards_never_show_on_the_shared_screen(make_app, data_dir) -> None:
    """In every state of the tracker outside a peek, no unrevealed card's name or text."""
    from munda_tui.rules.subplots import decks as subplots
    from munda_tui.screens.battle.screen import BattleScreen

    hands = {V: ["escher:2", "escher:K"], G: ["goliath:5", "goliath:8"]}
    make_battle(data_dir, hands)
    secrets = {cid: subplots.card(cid) for cards in hands.values() for cid in cards}
    app = make_app(campaign="demo")

    def check() -> None:
        if not isinstance(app.screen, BattleScreen):
            return
        text = _text(app)
        revealed = {c for side in app.screen.state.sides.values() for c in side.revealed}
        for cid, card in secrets.items():
            if cid not in revealed:
                assert card.name not in text and card.text[:40] not in text, cid

    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        steps = [
            ("right",), ("s", "enter"), ("down", "s", "enter"), ("down", "o", "enter"),
            ("left", "h", "enter"), ("r", "enter"),  # Murder Run revealed: now public
            ("n",), ("n",), ("b",), ("L",), ("escape",), ("right", "h", "enter", "escape"),
            ("E", "enter"), ("u",), ("U",),
        ]
        for keys in steps:
            await pilot.press(*keys)
            check()
        assert "Murder Run" in _text(app)  # the revealed card is public


# --- Contempt for the Weak (Goliath Jack, seed 000): "Should your gang win the scenario, it
# receives D6x10 credits for each fighter that was removed from your starting crew."


def _contempt_battle(data_dir, removed: int) -> None:  # type: ignore[no-untyped-def]
    from munda_tui.rules.prebattle.scenario import reduce_crew

    c = demo_campaign()
    c.battles.append(BattleSummary(1, date="2026-01-15", gangs=[V, G], status="battle"))
    setup = default_setup(c, 1, V, G)
    setup.subplots = True
    side = setup.sides[1]
    side.hand = ["goliath:J"]
    side.subplot_choices = {"goliath:J": str(removed)}
    if removed:
        reduce_crew(side, c.gang(G), [m.fighter for m in side.crew[-removed:]])
    data = {"setup": setup.to_data(),
            "battle": {**Battle([start_event(setup, c)]).to_data(), "start_walked": True}}
    with Store(data_dir).create_campaign(c) as h:
        h.save_battle(1, data)


async def _contempt_walk(make_app, data_dir, keys) -> list:  # type: ignore[no-untyped-def]
    app = make_app(campaign="demo")
    async with app.run_test(size=SIZE) as pilot:
        await open_battle(pilot)
        await pilot.press("right", "h", "enter", "r")
        assert "walked at the end of the battle" in _text(app)
        await pilot.press("enter")  # revealed, the reward waits for the end
        await pilot.press("E", "down", "enter")  # the Iron Skulls win
        await pilot.press("F")
        assert "reward for Contempt for the Weak" in _text(app)
        await pilot.press(*keys)
        await pilot.press("y")
        await pilot.pause()
    return battle_log(data_dir)


async def test_contempt_for_the_weak_one_d6x10_per_fighter_removed(make_app, data_dir) -> None:
    _contempt_battle(data_dir, 2)
    # Enter: roll the first D6x10 (r: by the app), then the second, then Enter records
    log = await _contempt_walk(make_app, data_dir, ["enter", "r", "enter", "r", "enter"])
    assert log[-1].kind == "reward"
    credits = [r for r in log[-1].rewards if r.kind == "credits"]
    assert len(credits) == 2 and all(r.dice == "D6x10" and len(r.faces) == 1 for r in credits)


async def test_contempt_for_the_weak_nobody_removed_no_credits(make_app, data_dir) -> None:
    _contempt_battle(data_dir, 0)
    log = await _contempt_walk(make_app, data_dir, ["enter"])  # nothing to roll: recorded
    assert log[-1].kind == "reward"
    assert not [r for e in log for r in getattr(e, "rewards", ()) if r.kind == "credits"]
