"""munda-tui in a real terminal (tmux): a whole battle, a SIGKILL, the saves on disk.

Drives `munda-tui --demo` with send-keys as players would and reads the
screen with capture-pane at each stage: the Sub-plot draw for both players
(real cards typed in), a few events, a kill -9 mid-battle and the resume, the
Murder Run met and revealed, the end of the battle, the whole post-battle
sequence, and finally the saved campaign and battle files.
"""

from __future__ import annotations

from munda_tui.rules.postbattle.sequence import commit_report
import os
import time
import signal
import tomllib
from pathlib import Path

import pytest

from .tmux_driver import Tmux, tmux_available

pytestmark = pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")

APP = ["--demo", "--seed", "11", "--today", "2026-01-15"]


def _start(tmux: Tmux) -> None:
    tmux.start(*APP, "--data-dir", str(tmux.data_dir))


def _real_die(tmux: Tmux, face: str, result: str) -> None:
    """Enter on the selected scenario line, then the face of a real die."""
    tmux.send("Enter")
    tmux.wait_for("Enter the die I rolled")
    tmux.send("e")
    tmux.wait_for("Enter to confirm")
    tmux.type(face)
    tmux.send("Enter")
    tmux.wait_for(result)


def _type_card(tmux: Tmux, card: str, name: str) -> None:
    tmux.send("c")
    tmux.wait_for("The card you drew", "e.g. Q♦")
    tmux.type(card)
    tmux.wait_for(card)
    tmux.send("Enter")
    tmux.wait_for("Your draw is complete", name)


def test_a_whole_battle_in_tmux_with_a_kill_and_a_resume(tmp_path: Path) -> None:
    data, config = tmp_path / "data", tmp_path / "config"
    tmux = Tmux(f"munda-e2e-{os.getpid()}", data, config)
    try:
        _start(tmux)
        tmux.wait_for("Demo: Ashfall Sump", "The Venom Sisters", "The Iron Skulls")

        # --- pre-battle -------------------------------------------------------------
        tmux.send("n")
        tmux.wait_for("Battle 1: set-up", "Who fights?")
        tmux.send("n")
        tmux.wait_for("[Battlefield]")
        tmux.send("n")
        tmux.wait_for("[Scenario]")
        # real dice: Deployment 4 (Ambush), Objective 1, Crew 5 (Strike Force: Custom (5))
        _real_die(tmux, "4", "Ambush")
        tmux.send("Down")
        _real_die(tmux, "1", "King of the Hive")
        tmux.send("Down")
        _real_die(tmux, "5", "Strike Force")
        tmux.send("a")  # the Side Jobs rolled by the app
        tmux.send("n")
        tmux.wait_for("[Pitch Black]")
        tmux.send("n")
        tmux.wait_for("[Sub-plots]")
        tmux.send("Down", "Enter")
        screen = tmux.wait_for("House Sub-plots: the draw", "lower Gang Rating")
        tmux.send("Enter")
        tmux.wait_for("Only Ana (The Venom Sisters) should look")
        tmux.send("Enter")
        tmux.wait_for("Ana (The Venom Sisters) is drawing")
        _type_card(tmux, "2S", "Murder Run")  # Escher's 2
        tmux.send("h")
        tmux.wait_for("Continue")
        assert "Murder Run" not in tmux.screen()
        tmux.send("Enter")
        tmux.wait_for("Only Ben (The Iron Skulls) should look")
        assert "Murder Run" not in tmux.screen()
        tmux.send("Enter")
        _type_card(tmux, "QH", "Back from the Dead")  # Goliath's Queen
        tmux.send("h")
        tmux.wait_for("cards are hidden")
        tmux.send("Enter")
        screen = tmux.wait_for("The draw is done", "The Iron Skulls: 1 Sub-plot")
        assert "Murder Run" not in screen
        tmux.send("Enter")
        tmux.wait_for("1 card in hand")
        tmux.send("n")
        tmux.wait_for("Crew 1 of 2: The Venom Sisters")
        tmux.send(*["space", "Down"] * 5, "n")
        tmux.wait_for("Crew 2 of 2: The Iron Skulls")
        tmux.send(*["space", "Down"] * 5, "n")
        tmux.wait_for("[Side Jobs]")
        tmux.send("n")
        tmux.wait_for("[Summary]", "King of the Hive")
        tmux.send("s")

        # --- the start of the game: each player behind the curtain, before round 1 ------
        for player in ("Ana", "Ben"):
            tmux.wait_for(f"Only {player} should look", "start of the battle")
            tmux.send("Enter")
            screen = tmux.wait_for("None of your Sub-plots acts at the start of the battle")
            assert "Murder Run" not in screen and "Back from the Dead" not in screen
            tmux.send("Enter")

        # --- the battle ------------------------------------------------------------
        screen = tmux.wait_for("Round 1", "Priority phase", "Brakk Ironjaw")
        assert "Murder Run" not in screen
        tmux.send("n")  # Action phase
        tmux.wait_for("Action phase")
        tmux.send("Right", "Down", "s", "Enter")  # Gorth Slagborn Seriously Injured
        tmux.wait_for("Gorth Slagborn: Seriously Injured")
        tmux.send("Down", "o", "Enter")  # Mord Hammerhand Out of Action
        tmux.wait_for("Mord Hammerhand: Out of Action")
        tmux.send("Down", "s", "Enter")  # Dak Cinderfist Seriously Injured: three in a round
        screen = tmux.wait_for("Dak Cinderfist: Seriously Injured", "◆")
        assert "◆" in screen.splitlines()[2].split("▕")[0]  # the marker, on Ana's side only
        assert "◆" not in screen.splitlines()[2].split("▕")[1]
        assert "Murder Run" not in screen  # discreet: never the card's name

        # --- kill -9 mid-battle, then reopen -------------------------------------------
        from munda_tui.saves.folder import load_campaign_dir

        battle_file = load_campaign_dir(data / "campaigns" / "demo")[1][1]
        before = tomllib.loads(battle_file.read_text(encoding="utf-8"))
        os.kill(tmux.pid(), signal.SIGKILL)
        tmux.wait_for("EXITED")
        tmux.kill()
        after_kill = tomllib.loads(battle_file.read_text(encoding="utf-8"))
        assert after_kill == before  # every event was on disk before the screen moved on

        tmux = Tmux(f"munda-e2e2-{os.getpid()}", data, config)
        _start(tmux)
        screen = tmux.wait_for("Demo: Ashfall Sump", "King of the Hive")
        assert "battle" in screen
        tmux.send("o")
        tmux.wait_for("Round 1", "Action phase", "Dak Cinderfist", "Ser.Inj", "OOA", "◆")

        # --- Ana reveals Murder Run --------------------------------------------------
        tmux.send("Left", "h")
        tmux.wait_for("Only Ana should look")
        tmux.send("Enter")
        tmux.wait_for("Murder Run", "MET")
        tmux.send("r")
        tmux.wait_for("reveal a Sub-plot", "2 Gang Tactics")
        tmux.send("Enter")
        tmux.wait_for("revealed Murder Run", "GT 0 +2")  # two Gang Tactics for this battle

        # --- end of the battle ---------------------------------------------------------
        tmux.send("E")
        tmux.wait_for("End the battle", "Who won?")
        tmux.send("Enter")
        tmux.wait_for("Battle over: The Venom Sisters win")
        tmux.send("F")
        tmux.wait_for("Only Ben should look")  # Ben still holds a card: a last look
        tmux.send("Escape")
        tmux.wait_for("Finish the battle and open the post-battle sequence?")
        tmux.send("y")

        # --- the whole post-battle sequence ----------------------------------------------
        tmux.wait_for("Post-Battle Sequence", "Step 1/26: Wrap Up")
        seen_steps = set()
        for _ in range(80):
            screen = tmux.screen()
            for line in screen.splitlines():
                if "Step " in line and "/26:" in line:
                    seen_steps.add(line.split("Step ", 1)[1].split("/26")[0])
            if "Step 26/26" in screen:
                break
            if "for me — or type real dice" in screen or "(r: roll for me)" in screen:
                tmux.send("r")  # a roll: r rolls for me (Enter never rolls)
            else:
                tmux.send("Enter")  # nothing to add / next step
            time.sleep(0.3)
        assert {"1", "4", "26"} <= seen_steps  # Wrap Up, Seriously Injured, Report Results
        tmux.send("Enter")  # commit: applied to both gangs once
        tmux.wait_for("Battle 1: report (saved)", "Both rosters are updated", "Murder Run")
        tmux.send("Enter")
        tmux.wait_for("Demo: Ashfall Sump", "done")
        tmux.send("C-q")
        tmux.wait_for("EXITED")
    finally:
        tmux.kill()

    # --- the saves on disk ---------------------------------------------------------------
    battle = tomllib.loads(battle_file.read_text(encoding="utf-8"))
    summary = {**battle["summary"], "number": battle["number"]}  # (the battle's own file)
    assert (summary["number"], summary["status"], summary["winner"]) == (1, "done", "venom-sisters")
    assert set(summary["standings"]) == {"venom-sisters", "iron-skulls"}
    assert battle["setup"]["complete"] is True
    assert battle["setup"]["objective"] == "King of the Hive"
    hands = {side["gang"]: side["hand"] for side in battle["setup"]["sides"]}
    assert hands == {"venom-sisters": ["escher:2"], "iron-skulls": ["goliath:Q"]}
    assert "escher:2" in battle["battle"]["outcome"]["subplots_revealed"]
    assert "Murder Run" in commit_report(battle["report"])
    # Mord went Out of Action: a Lasting Injury was rolled for him in the sequence
    assert "injury:iron-skulls:mord-hammerhand" in battle["postbattle"]["answers"]
    assert battle["postbattle"]["status"] == "done"
