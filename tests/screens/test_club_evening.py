"""Issue 32, a club evening's second pass: real dice typed with any keymap, no silent
Enter, digits mean lines, a key bound twice, 80x24, toasts, what the docs say."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from munda_tui.rules.postbattle import sequence as pb
from support import wait_for_screen, wait_until

import postbattle_support as S

SIZE = (100, 32)


async def open_wizard(pilot: Any) -> None:
    await wait_for_screen(pilot, "CampaignScreen")
    pilot.app.open_battle(1)
    await wait_for_screen(pilot, "PostBattleScreen")
    await pilot.pause()


def write_config(config_dir: Path, keymap: dict[str, str]) -> None:
    lines = ["schema_version = 1", "[keymap]", *(f'"{k}" = "{v}"' for k, v in keymap.items())]
    (config_dir / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def seed_d66(data_dir: Path) -> str:
    """Battle 1's post-battle sequence asking its first D66 roll (a Lasting Injury)."""
    from munda_tui.saves import Store

    slug = S.seed_battle(data_dir)
    with Store(data_dir).open_campaign(slug) as h:
        data = h.load_battle(1)
        seq = pb.PostBattle(h.campaign, 1, pb.new_draft("gang-war"), S.demo_outcome())
        rng = random.Random(3)
        while seq.pending is None or seq.pending.kind != "roll" or "66" not in seq.pending.dice:
            if seq.pending is not None:
                S.answer_default(seq, rng)
            else:
                seq.advance()
        data["postbattle"] = seq.draft
        h.save_battle(1, data)
    return slug


# --- 1. real dice typed with any keymap --------------------------------------------------

async def test_real_faces_typed_with_space_between_them_when_space_rolls(
        make_app: Any, data_dir: Path, config_dir: Path) -> None:
    """With the roll on space (the docs' keymap example), ``3 5`` rolled at the space,
    threw the 3 away and sent the 5 to the next prompt. Once a face is typed, space
    separates faces; the roll key rolls only on an empty prompt."""
    write_config(config_dir, {"post_battle.roll": "space"})
    slug = seed_d66(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_wizard(pilot)
        screen = app.screen
        seq = screen.seq
        asked = seq.pending.id
        assert "66" in seq.pending.dice
        roll = app.focused
        await pilot.press("3", "space", "5")
        await pilot.pause()
        assert asked not in seq.answers and roll.text == "3 5"
        await pilot.press("enter")
        await pilot.pause()
        assert seq.answers[asked]["value"] == {"faces": [3, 5], "entered": True}
        nxt = seq.pending
        if nxt is not None and nxt.kind == "roll":
            assert app.focused.text == ""  # nothing carried to the next prompt


async def test_the_roll_key_with_faces_typed_rolls_nothing_and_says_so(
        make_app: Any, data_dir: Path, config_dir: Path) -> None:
    """The roll key (r, or any key it is remapped to) with faces typed keeps them: it
    says how to confirm or clear them; on the empty prompt it rolls."""
    write_config(config_dir, {"post_battle.roll": "f3"})
    slug = seed_d66(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_wizard(pilot)
        screen = app.screen
        seq = screen.seq
        asked = seq.pending.id
        roll = app.focused
        await pilot.press("6", "f3")
        await pilot.pause()
        assert asked not in seq.answers and roll.text == "6"
        error = str(screen.query_one("#pb-error").render())
        assert "Enter to confirm" in error and "ctrl+u" in error and "f3" in error, error
        await pilot.press("ctrl+u", "f3")  # the prompt empty: f3 rolls
        await pilot.pause()
        assert seq.answers[asked]["value"]["entered"] is False


async def test_space_on_an_empty_prompt_still_rolls_when_bound(
        make_app: Any, data_dir: Path, config_dir: Path) -> None:
    write_config(config_dir, {"post_battle.roll": "space"})
    slug = seed_d66(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_wizard(pilot)
        seq = app.screen.seq
        asked = seq.pending.id
        await pilot.press("space")
        await pilot.pause()
        assert seq.answers[asked]["value"]["entered"] is False


# --- 3. digits mean lines -------------------------------------------------------------------

async def test_every_line_of_the_roll_dialog_is_taken_by_its_digit() -> None:
    """In the pre-battle roll dialog 1 answered "Enter does not roll" while 2 and 3 took
    their lines: 1 rolls for me, 2 asks the faces, 3 the result."""
    from textual.app import App

    from munda_tui.screens.common.dice_prompt import DicePrompt

    class PromptApp(App[None]):
        def __init__(self) -> None:
            super().__init__()
            self.results: list[Any] = []

        def on_mount(self) -> None:
            self.push_screen(DicePrompt("D6", title="Deployment", rng=random.Random(4),
                                        choices=["1-3 Sniping Range", "4-6 Face Off"]),
                             self.results.append)

    for digit, check in (
            ("1", lambda out: out.how == "app" and out.roll.total == random.Random(4).randint(1, 6)),
            ("2", None), ("3", None)):
        app = PromptApp()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(digit)
            await pilot.pause()
            if check is not None:
                assert len(app.results) == 1 and check(app.results[0]), digit
                continue
            prompt = app.screen
            assert prompt._mode == {"2": "enter", "3": "choose"}[digit]
            await pilot.press("2")  # the digit of a face (2) or of a result's line (2)
            await pilot.press("enter") if digit == "2" else None
            await pilot.pause()
            (out,) = app.results
            assert (out.how, out.roll.total if out.roll else out.choice) == (
                {"2": ("dice", 2), "3": ("chosen", 1)}[digit])


# --- 2. no silent Enter ---------------------------------------------------------------------

async def test_a_choice_that_comes_back_says_what_enter_needs(
        make_app: Any, data_dir: Path) -> None:
    """A list question taken back by Escape, or reopened, has no line under the cursor (a
    stray Enter must not answer it); Enter then said nothing at all. It says what it
    needs, and the arrows or a number then answer."""
    from tests.screens.postbattle.test_screen import seed, typical_outcome

    from munda_tui.screens.postbattle.screen import PromptOptions

    slug = seed(data_dir, "gang-war", typical_outcome(), step="distribute-equipment")
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_wizard(pilot)
        screen = app.screen
        await pilot.press("a")
        await wait_for_screen(pilot, "PickOneScreen")
        await pilot.press("enter")
        await wait_for_screen(pilot, "PostBattleScreen")
        await pilot.press("enter")  # the Lasgun
        await pilot.pause()
        await pilot.press("escape")  # taken back: "which Stash item?" again
        await pilot.pause()
        asked = screen.seq.pending.label
        assert asked.endswith("which Stash item?")
        assert screen.query_one(PromptOptions).highlighted is None
        assert str(screen.query_one("#pb-error").render()) == ""
        await pilot.press("enter")
        await pilot.pause()
        error = str(screen.query_one("#pb-error").render())
        assert "none is yet" in error and "↓/↑" in error and "number" in error, error
        assert screen.seq.pending.label == asked  # nothing answered
        app.pop_screen()  # left with the question open, reopened
        await wait_for_screen(pilot, "CampaignScreen")
        app.open_battle(1)
        await wait_for_screen(pilot, "PostBattleScreen")
        await pilot.pause()
        again = app.screen
        assert again.query_one(PromptOptions).highlighted is None
        await pilot.press("enter")
        await pilot.pause()
        assert "none is yet" in str(again.query_one("#pb-error").render())
        await pilot.press("1")  # the number answers
        await pilot.pause()
        assert again.seq.pending.label != asked


async def test_a_list_of_several_that_comes_back_says_what_enter_needs(
        make_app: Any, data_dir: Path) -> None:
    """"Who fought?" taken back by Escape shows nobody picked: Enter says it needs one."""
    from munda_tui.screens.postbattle.screen import MultiPick

    slug = S.seed_battle(data_dir, tracker=False)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_wizard(pilot)
        screen = app.screen
        crew = screen.seq.pending.id
        screen.seq.answer(screen.seq.pending.default)
        screen._changed()
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert screen.seq.pending.id == crew and screen.query_one(MultiPick).selected == []
        assert screen.query_one(MultiPick).highlighted is not None  # a line under the cursor
        await pilot.press("enter")
        await pilot.pause()
        assert str(screen.query_one("#pb-error").render()) != ""


# --- 4. a key bound twice keeps its footer --------------------------------------------------

def footer_keys(app: Any) -> list[str]:
    """The footer's keys as shown, left to right (those that fit the width)."""
    from textual.widgets._footer import FooterKey

    width = app.size.width
    return [f"{k.key_display} {k.description}" for k in app.screen.query(FooterKey)
            if k.display and k.region.width and k.region.right <= width]


async def test_a_key_bound_twice_keeps_its_place_in_the_footer_and_the_help(
        make_app: Any, config_dir: Path) -> None:
    """The docs' example ``"campaign.new_battle" = "n,ctrl+n"`` moved "n New battle" to the
    end of the campaign's footer (cut off at 100 columns) and to the end of ``?``'s list;
    the key keeps its place and the first key of the binding is the one shown."""
    plain_app = make_app(demo=True)
    async with plain_app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.pause()
        plain = footer_keys(plain_app)
        await pilot.press("question_mark")
        await wait_for_screen(pilot, "HelpScreen")
        plain_help = plain_app.screen.keys
    assert "n New battle" in plain, plain
    write_config(config_dir, {"campaign.new_battle": "n,ctrl+n"})
    app = make_app(demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.pause()
        assert footer_keys(app) == plain
        await pilot.press("question_mark")
        await wait_for_screen(pilot, "HelpScreen")
        assert app.screen.keys == plain_help  # in its place, named by its first key
        assert ("n", "Set up the next battle (pre-battle)") in plain_help
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("ctrl+n")  # the second key works too
        await wait_for_screen(pilot, "PreBattleScreen")


# --- 7. what the docs say, the app does ------------------------------------------------------

def test_check_on_a_fresh_install_has_nothing_to_check(
        monkeypatch: Any, tmp_path: Path, capsys: Any) -> None:
    """A fresh install has no data folder yet: ``munda-tui check`` printed
    "data:1:1: no such file or folder" and exited 1; there is nothing to check (0). A
    path named on the command line must still exist."""
    from munda_tui.cli import main

    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "never-made"))
    monkeypatch.setenv("MUNDA_TUI_CONFIG_DIR", str(tmp_path / "no-config"))
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("nothing to check") and "never-made" in out, out
    assert main(["check", str(tmp_path / "never-made")]) == 1


def test_demo_saves_in_a_throw_away_folder_even_with_munda_tui_data_dir(
        monkeypatch: Any, tmp_path: Path) -> None:
    """The docs: --demo saves "in a throw-away data dir unless --data-dir is given"; with
    MUNDA_TUI_DATA_DIR set it wrote the demo among the player's real saves."""
    from munda_tui.cli import _tui_data_dir, build_parser

    real = tmp_path / "my-saves"
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(real))
    demo = _tui_data_dir(build_parser(only=None, words=["--demo"]).parse_args(["--demo"]))
    assert demo != real and demo.name.startswith("munda-tui-demo-")
    given = build_parser(only=None).parse_args(["--demo", "--data-dir", str(tmp_path / "d")])
    assert _tui_data_dir(given) == tmp_path / "d"
    plain = build_parser(only=None, words=[]).parse_args([])
    assert _tui_data_dir(plain) == real  # the app without --demo: the player's saves


#: every class of munda-tui with bindings, and the row of docs/keys.md's table naming its
#: keys (a new screen, dialog or widget with keys fails the test below until it has one)
KEYS_ROWS = {
    "app.MundaApp": "everywhere",
    "screens.home.home.HomeScreen": "home", "screens.home.new_campaign.NewCampaignScreen": "home",
    "screens.campaign.campaign.CampaignScreen": "campaign",
    "screens.campaign.campaign.ReportScreen": "report",
    "screens.campaign.roster.RosterScreen": "roster", "screens.campaign.roster.TerritoriesScreen": "roster",
    "screens.campaign.hire.HireScreen": "roster",
    "screens.campaign.charts.ChartsScreen": "charts",
    "screens.campaign.settings.SettingsScreen": "settings",
    "screens.campaign.import_gang.ImportGangScreen": "import a gang",
    "screens.campaign.catalogue.CatalogueScreen": "catalogue",
    "screens.campaign.league.SyncingScreen": "league", "screens.campaign.league.ConflictScreen": "league",
    "screens.campaign.league.LeagueTextScreen": "league", "screens.campaign.league.QuestionScreen": "league",
    "screens.prebattle.screen.PreBattleScreen": "pre-battle",
    "screens.common.dice_prompt.DicePrompt": "pre-battle",
    "screens.prebattle.modals.DealtCardsModal": "pre-battle",
    "screens.prebattle.steps.crews.CrewStep": "pre-battle", "screens.prebattle.steps.gangs.GangsStep": "pre-battle",
    "screens.prebattle.steps.summary.SummaryStep": "pre-battle",
    "screens.prebattle.steps.pitch_black.PitchBlackStep": "pre-battle",
    "screens.prebattle.steps.scenario.ScenarioStep": "pre-battle",
    "screens.prebattle.steps.side_jobs.SideJobsStep": "pre-battle",
    "screens.prebattle.subplot_draw.SubplotDrawScreen": "Sub-plot draw",
    "widgets.curtain.PrivacyCurtain": "Sub-plot draw",
    "screens.prebattle.subplot_draw.JokerScreen": "Sub-plot draw",
    "screens.prebattle.subplot_draw.DrawnHandScreen": "Sub-plot draw",
    "screens.prebattle.subplot_draw.SubplotChoiceScreen": "Sub-plot draw",
    "screens.battle.screen.BattleScreen": "battle tracker", "widgets.fighter_table.FighterTable": "battle tracker",
    "screens.battle.attack.AttackScreen": "tracker dialogs", "screens.battle.end.EndScreen": "tracker dialogs",
    "screens.battle.hand.HandScreen": "tracker dialogs", "screens.battle.reveal.RevealScreen": "tracker dialogs",
    "screens.battle.reinforcements.ReinforcementScreen": "tracker dialogs",
    "screens.battle.log.LogScreen": "tracker dialogs", "screens.battle.phone.LinkScreen": "tracker dialogs",
    "screens.battle.start.NothingAtTheStart": "tracker dialogs",
    "screens.common.dialogs.ListDialog": "any dialog", "screens.common.dialogs.PickOneScreen": "any dialog",
    "screens.common.dialogs.LineScreen": "any dialog", "screens.common.dialogs.ConfirmScreen": "any dialog",
    "screens.common.dialogs.ErrorScreen": "any dialog", "screens.common.help.HelpScreen": "any dialog",
    "screens.common.card_viewer.CardViewerScreen": "any dialog",
    "screens.campaign.fighter_form.FormScreen": "any dialog", "screens.campaign.catalogue.EntryScreen": "any dialog",
    "screens.postbattle.screen.PostBattleScreen": "post-battle", "screens.postbattle.screen.MultiPick": "post-battle",
}


def _keys_table(text: str) -> dict[str, set[str]]:
    """A doc's table of keys: each row's name and the keys it names (Textual's names)."""
    import re

    glyphs = {"←": "left", "→": "right", "↑": "up", "↓": "down", "+": "plus", "=": "equals_sign",
              "?": "question_mark", ".": "full_stop"}
    rows: dict[str, set[str]] = {}
    for m in re.finditer(r"^\| ([^|]+?) \| (.+) \|$", text, re.M):
        named: set[str] = set()
        for token in re.findall(r"`([^`]+)`", m.group(2)):
            named |= {glyphs.get(k, k) for k in token.split("/")}
        for first, last in re.findall(r"`(\d)`(?:–|…| \w+ … )`(\d)`", m.group(2)):
            named |= {str(n) for n in range(int(first), int(last) + 1)}
        rows[m.group(1)] = named
    return rows


def test_the_keys_tables_list_every_key_of_every_screen() -> None:
    """docs/keys.md's table names every key of every screen, dialog and widget (each
    class of munda-tui with bindings, walked, with the keys in force under the default
    keymap: the config's is empty), in the row of KEYS_ROWS; a class with keys and no
    row fails. The roster, charts, settings, catalogue and league screens' keys were
    missing. The README's table is a part of it: each of its rows is keys.md's, word
    for word (links aside), so neither drifts."""
    import re

    from munda_tui import keymap
    from munda_tui.saves.config import Config

    assert Config().keymap == {}  # the default keymap: the keys as declared
    root = Path(__file__).resolve().parents[2]
    docs = (root / "docs/keys.md").read_text(encoding="utf-8")
    table = _keys_table(docs)
    keymap._import_all()
    import munda_tui.app  # noqa: F401 (its own bindings)
    from textual.dom import DOMNode

    walked, missing = set(), []
    for cls in keymap._subclasses(DOMNode):
        if not cls.__module__.startswith("munda_tui."):
            continue
        bindings = [b for b in cls.__dict__.get("BINDINGS", []) if getattr(b, "id", None)]
        if not bindings:
            continue
        name = f"{cls.__module__.removeprefix('munda_tui.')}.{cls.__name__}"
        walked.add(name)
        row = KEYS_ROWS.get(name)
        assert row is not None, f"{name} has keys and no row of docs/keys.md (add one to KEYS_ROWS)"
        for b in bindings:
            missing += [f"{row}: {key} ({b.id}: {b.description})" for key in b.key.split(",")
                        if key not in table.get(row, set())]
    assert missing == [], missing
    assert walked == set(KEYS_ROWS), set(KEYS_ROWS) - walked  # (no row for a class gone)

    def rows(text: str) -> dict[str, str]:  # (the table of keys alone, links aside)
        text = text[text.index("| where | keys |"):]
        text = text[:text.index("\n\n")]
        return {m.group(1): re.sub(r"\]\([^)]*\)", "]", m.group(2))
                for m in re.finditer(r"^\| ([^|]+?) \| (.+) \|$", text, re.M) if m.group(1) != "---"}

    readme = rows((root / "README.md").read_text(encoding="utf-8"))
    full = rows(docs)
    assert {"home", "campaign", "battle tracker", "post-battle"} <= set(readme)
    for row, text in readme.items():
        assert full.get(row) == text, (row, "README's row is not docs/keys.md's")


def test_every_command_in_the_docs_parses_as_written_and_the_readme_says_where_it_is() -> None:
    """docs/commands.md's commands are the app's (each parses with the app's own parser,
    optional parts left out), and the README's set-up says how `munda-tui` is run after it
    (it makes `.venv/bin/munda-tui`: the docs wrote `munda-tui ...`, not found)."""
    import re
    import shlex

    from munda_tui.cli import build_parser

    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    setup = readme[readme.index("## Set up"):readme.index("## Your first battle")]
    assert ".venv/bin/munda-tui" in setup and ".venv/bin/activate" in setup
    commands = (root / "docs/commands.md").read_text(encoding="utf-8")
    block = commands[commands.index("```sh"):commands.index("```", commands.index("```sh") + 5)]
    lines = [line.split("  #")[0].strip() for line in block.splitlines()[1:]]
    lines = [re.sub(r"\s*\[[^\]]*\]", "", line) for line in lines if line.startswith("munda-tui")]
    assert len(lines) > 10
    for line in list(lines):  # "munda-tui pack list | check | new KIND NAME": one command each
        if " | " in line:
            first, *others = line.split(" | ")
            prefix = first.rsplit(" ", 1)[0]
            lines[lines.index(line):lines.index(line) + 1] = [first] + [
                f"{prefix} {other}" for other in others]
    for line in lines:
        words = [{"N": "1", "KIND": "scenario"}.get(w, w) for w in shlex.split(line)[1:]]
        try:
            build_parser().parse_args(words)
        except SystemExit as stop:  # argparse refused it
            raise AssertionError(f"docs/commands.md: {line!r} does not parse") from stop


# --- 6. notices never cover a question ------------------------------------------------------

async def _notice_over_the_wizard(make_app: Any, data_dir: Path, config_dir: Path,
                                  pilot_size: tuple[int, int]) -> Any:
    from tests.screens.postbattle.test_screen import seed, typical_outcome

    write_config(config_dir, {"campaign.no_such_key": "x"})  # the start-up notice
    slug = seed(data_dir, "gang-war", typical_outcome(), step="seriously-injured")
    return make_app(campaign=slug)


async def test_a_notice_never_covers_the_question_and_goes_at_the_next_key(
        make_app: Any, data_dir: Path, config_dir: Path) -> None:
    """The 15-second start-up config notice, a toast at the bottom right, covered the
    post-battle prompt's message (and a report's last line). There, notices take a line of
    their own above the step (hiding nothing: the rest of the screen makes room), and go at
    the player's next key."""
    from textual.widgets._toast import Toast

    app = await _notice_over_the_wizard(make_app, data_dir, config_dir, (80, 24))
    app.NOTICE_READ_SECONDS = 1e9  # (a key would take it away: kept while the keys are typed)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_wizard(pilot)
        notice = next(iter(app._notifications)).message  # the start-up config notice
        assert notice.startswith("Your config")
        # (raised again for 10 minutes: its 15 s may run out on a loaded machine)
        app.clear_notifications()
        app.notify(notice, severity="warning", timeout=600)
        await pilot.press("7", "enter")  # a refused face: the message under the prompt
        screen = app.screen
        line = screen.query_one("#pb-notice")
        await wait_until(pilot, lambda: line.display, "the notice")
        assert "Your config" in str(line.render())
        assert not [t for t in screen.query(Toast) if t.display]  # no toast over anything
        assert "not a D6 face" in str(screen.query_one("#pb-error").render())
        for part in ("#pb-title", "#pb-prompt", "#pb-error", "#pb-hint"):
            assert not line.region.overlaps(screen.query_one(part).region), part
            assert screen.query_one(part).region.height  # all still shown
        app.NOTICE_READ_SECONDS = 0.0  # (read: the next key takes it away)
        await pilot.press("backspace")
        await pilot.pause(0.2)
        assert not line.display and not list(app._notifications)


@pytest.mark.parametrize("where", ["campaign", "roster", "settings", "charts", "pre-battle",
                                   "tracker", "league text", "a question"])
async def test_a_notice_on_any_screen_hides_nothing_and_goes_at_the_next_key(
        make_app: Any, data_dir: Path, where: str) -> None:
    """A notice raised on the roster, settings, pre-battle, tracker or league screens was
    a toast at the bottom right, over their messages and status lines (the tracker's
    status, a dialog's hint) until the next key. Every screen now shows notices on a line
    of its own above its first part: everything else stays in view (the rest makes
    room), and a key takes it away."""
    from textual.widgets._toast import Toast

    from munda_tui.screens.campaign.league import LeagueTextScreen
    from munda_tui.screens.common.dialogs import ConfirmScreen
    from tests.screens.battle.test_battle import make_battle, open_battle

    make_battle(data_dir)
    app = make_app(campaign="demo")
    app.NOTICE_READ_SECONDS = 1e9
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        opened = {"roster": "RosterScreen", "settings": "SettingsScreen", "charts": "ChartsScreen"}
        if where in opened:
            await pilot.press(where[0])
            await wait_for_screen(pilot, opened[where])
        elif where == "pre-battle":
            app.new_battle()
            await wait_for_screen(pilot, "PreBattleScreen")
        elif where == "tracker":
            await open_battle(pilot)
            await wait_for_screen(pilot, "BattleScreen")
        elif where == "league text":
            app.push_screen(LeagueTextScreen("League status", [f"line {i}" for i in range(40)]))
            await wait_for_screen(pilot, "LeagueTextScreen")
        else:
            app.push_screen(ConfirmScreen("Delete the set-up of battle 1?", "A backup is kept."))
            await wait_for_screen(pilot, "ConfirmScreen")
        await pilot.pause()
        screen = app.screen
        before = {id(w): w.region for w in screen.walk_children() if w.region.area}
        app.notify("Your config: config.toml:3:1: keymap: no binding 'campaign.no_such_key' "
                   "(left out; the rest applies)", severity="warning", timeout=600)
        await wait_until(pilot, lambda: bool(screen.query("#app-notice")), "the notice line")
        line = screen.query_one("#app-notice")
        await wait_until(pilot, lambda: line.display and line.region.height, "the notice line shown")
        await pilot.pause()
        assert "campaign.no_such_key" in str(line.render())
        assert not [t for t in screen.query(Toast) if t.display]  # no toast over anything
        shown = [w for w in screen.walk_children() if w.region.area and w is not line
                 and line not in w.ancestors_with_self and w not in line.ancestors_with_self]
        over = [w for w in shown if line.region.overlaps(w.region) and w.parent is not None
                and not w.region.contains_region(line.region)]
        assert over == [], over  # (a container around it, not a part under it)
        assert len([w for w in shown if id(w) in before]) >= len(before) - 2  # all still shown
        app.NOTICE_READ_SECONDS = 0.0
        await pilot.press("f1" if where == "settings" else "question_mark")  # a key that acts
        await pilot.pause(0.2)
        assert not line.display and not list(app._notifications)


# --- 5. 80x24 plays a whole battle ----------------------------------------------------------

def test_serve_keeps_the_title_of_a_secret_link_in_view_at_80x24() -> None:
    """`munda-tui serve` showed the title ("only Ana should look"), a blank line, the QR
    code, blank lines, the link, the note and the prompt: at 24 rows the title scrolled
    away. The whole curtain fits 23 lines (the prompt's line is the 24th) and its last line
    says who should look."""
    import io
    from types import SimpleNamespace

    from munda_tui.phone_cli import _Screen

    url = "http://192.168.1.23:8765/h/" + "Zk3pQ9v_2mXcL8rT0aYbN4sW6dE1fG7hAbCd"  # (24 bytes)
    out = io.StringIO()
    view = SimpleNamespace(gang_name="The Venom Sisters", player="Ana")
    assert _Screen(out, io.StringIO("\n\n")).curtain(view, url)  # type: ignore[arg-type]
    text = out.getvalue()
    rows = text[text.index("Hand of The Venom Sisters"):].split("\n")
    rows = rows[:next(i for i, row in enumerate(rows) if url in row)
                + next(i for i, row in enumerate(rows[next(j for j, r in enumerate(rows) if url in r):])
                       if "Enter" in row) + 1]  # up to the prompt's line, after the link
    shown = "\n".join(rows)
    assert rows[0] == "Hand of The Venom Sisters: only Ana should look.", rows[0]
    assert len(rows) <= 24, len(rows)  # the title still on a 24-row screen
    assert url in shown and "Only Ana should look" in rows[-1]


async def test_every_tracker_key_is_reachable_from_the_footer_at_80x24(
        make_app: Any, data_dir: Path) -> None:
    """At 80 columns the tracker's footer cut E End (and never had room for P Priority or
    m Phones): when its keys are too many for the width the footer shows `.` More, which
    lists every key the footer does not show; the one picked acts as its key."""
    from tests.screens.battle.test_battle import make_battle, open_battle

    make_battle(data_dir)
    app = make_app(campaign="demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_battle(pilot)
        await pilot.pause()
        keys = footer_keys(app)
        assert keys[:2] == ["? Keys", ". More"], keys
        assert not any(k.startswith(("E ", "P ", "m ")) for k in keys)
        await pilot.press("full_stop")
        await wait_for_screen(pilot, "PickOneScreen")
        lines = [str(o.prompt) for o in app.screen.query_one("#dialog-options").options]
        for key, what in (("E", "End the battle"), ("P", "Who won Priority"),
                          ("m", "Each player's hand on their own phone"),
                          ("h", "Peek at the selected crew's Sub-plots")):
            assert any(f"  {key}  {what}" in line for line in lines), (key, lines)
        assert not any("  s  " in line for line in lines)  # in the footer: not again
        await pilot.press("escape")
        await wait_for_screen(pilot, "BattleScreen")
        await pilot.press("full_stop")
        await wait_for_screen(pilot, "PickOneScreen")
        end = next(i for i, line in enumerate(lines) if "  E  End the battle" in line)
        for _ in range(end):
            await pilot.press("down")
        await pilot.press("enter")  # as E would: the end of the battle asks its winner
        await wait_for_screen(pilot, "EndScreen")


def test_the_tracker_footer_and_its_overflow_at_80x24_snapshot(
        snap_compare: Any, make_app: Any, data_dir: Path) -> None:
    from tests.screens.battle.test_battle import make_battle, open_battle

    make_battle(data_dir)
    assert snap_compare(make_app(campaign="demo"), terminal_size=(80, 24),
                        run_before=open_battle, press=["full_stop"])


async def test_the_lasting_injury_table_scrolls_at_80x24(make_app: Any, data_dir: Path) -> None:
    """The Lasting Injury table under the roll was cut at 53 at 80x24, with no way to read
    the rest: page down / page up scroll it, the roll prompt keeping the focus."""
    from tests.screens.postbattle.test_screen import full_outcome, seed

    slug = seed(data_dir, "gang-war", full_outcome(), full=True, step="lasting-injuries")
    app = make_app(campaign=slug)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_wizard(pilot)
        screen = app.screen
        table = screen.query_one("#pb-table")
        roll = app.focused

        text = str(table.render())
        assert "61-65 Critical Injury" in text
        scroll = screen.query_one("#pb-table-scroll")
        assert scroll.max_scroll_y > 0  # cut at 80x24
        await pilot.press("pagedown")
        await pilot.pause()
        assert scroll.scroll_y > 0 and app.focused is roll
        await pilot.press("pagedown", "pagedown")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y  # the last line reached
        await pilot.press("pageup", "pageup", "pageup")
        await pilot.pause()
        assert scroll.scroll_y == 0


def test_the_lasting_injury_table_at_80x24_scrolled_snapshot(
        snap_compare: Any, make_app: Any, data_dir: Path) -> None:
    from tests.screens.postbattle.test_screen import full_outcome, seed

    slug = seed(data_dir, "gang-war", full_outcome(), full=True, step="lasting-injuries")
    assert snap_compare(make_app(campaign=slug), terminal_size=(80, 24),
                        run_before=open_wizard, press=["pagedown", "pagedown"])
