"""Issue 26 item 2: every text that names a key names the key in force for its binding
id (footer, prompts, hints, help, dice prompts), and a remapped key does what it says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import random
import re

from munda_tui.rules.postbattle import sequence as pb
from support import screen_text, wait_for_screen
from postbattle_support import seed_roll

import postbattle_support as S

SIZE = (100, 32)


async def open_wizard(pilot: Any) -> None:
    await wait_for_screen(pilot, "CampaignScreen")
    pilot.app.open_battle(1)
    await wait_for_screen(pilot, "PostBattleScreen")
    await pilot.pause()


def write_config(config_dir: Path, keymap: dict[str, str], head: str = "") -> None:
    lines = [head, "[keymap]", *(f'"{k}" = "{v}"' for k, v in keymap.items())]
    (config_dir / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


async def test_roll_remapped_to_space_rolls_and_every_text_says_space(
        make_app: Any, data_dir: Path, config_dir: Path) -> None:
    write_config(config_dir, {"post_battle.roll": "space"}, head="schema_version = 1")
    slug = seed_roll(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_wizard(pilot)
        screen = app.screen
        seq = screen.seq
        pending = seq.pending.id
        assert seq.pending.kind == "roll"
        roll = app.focused
        # the prompt names the key in force
        prompt = str(roll.render())
        assert prompt.startswith("space: roll "), prompt
        # Enter says which key rolls
        await pilot.press("enter")
        await pilot.pause()
        error = str(screen.query_one("#pb-error").render())
        assert "press space to roll" in error and "press r" not in error, error
        # the footer shows it
        assert "space Roll for me" in screen_text(app)
        # r no longer rolls, and space rolls (it does not open the dice entry)
        await pilot.press("r")
        await pilot.pause()
        assert pending not in seq.answers and roll.text == ""
        await pilot.press("space")
        await pilot.pause()
        assert roll.text == ""
        assert pending in seq.answers and seq.answers[pending]["value"]["entered"] is False
        # the help names it too
        await pilot.press("question_mark")
        await wait_for_screen(pilot, "HelpScreen")
        about = str(app.screen.query_one("#help-about").render())
        assert "space rolls for you" in about and not re.search(r"\br rolls", about), about


async def test_with_space_bound_the_faces_are_typed_with_commas(
        make_app: Any, data_dir: Path, config_dir: Path) -> None:
    write_config(config_dir, {"post_battle.roll": "space"}, head="schema_version = 1")
    slug = seed_roll(data_dir)
    app = make_app(campaign=slug)
    async with app.run_test(size=SIZE) as pilot:
        await open_wizard(pilot)
        seq = app.screen.seq
        pending = seq.pending.id
        await pilot.press("4", "enter")  # real dice still typed as before
        await pilot.pause()
        assert seq.answers[pending]["value"] == {"faces": [4], "entered": True} or \
            seq.answers[pending]["value"]["faces"] == [4]


def test_every_binding_id_a_text_names_is_declared() -> None:
    """A text names a key by its binding id ({key:post_battle.roll}, key_for(node, "dice.roll")):
    each id it names is one a binding has (a typo would print the id itself)."""
    import munda_tui
    import munda_tui.app  # noqa: F401
    from munda_tui.keymap import all_bindings
    from munda_tui.widgets.keys import _PLACEHOLDER

    known = all_bindings()
    root = Path(munda_tui.__file__).parent
    named: set[str] = set()
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        named |= {m.group(1) for m in _PLACEHOLDER.finditer(text)}
        named |= set(re.findall(r"key_for\([^,()]+, ['\"]([^'\"]+)['\"]\)", text))
    named -= {"dice.{a}"}
    assert named, "no text names a key through its binding id"
    assert sorted(named - set(known)) == []


def readme_keymap_snippet() -> str:
    """The ``[keymap]`` example of the README (or of the docs page it moved to)."""
    root = Path(__file__).resolve().parents[2]
    for doc in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        if not doc.is_file():
            continue
        for block in re.findall(r"```toml\n(.*?)```", doc.read_text(encoding="utf-8"), re.S):
            if block.lstrip().startswith("[keymap]"):
                return block
    raise AssertionError("no [keymap] example in the README or docs/")


async def test_the_readme_keymap_snippet_alone_is_a_config(
        make_app: Any, config_dir: Path) -> None:
    """Item 1: a config written by hand needs no schema_version."""
    snippet = readme_keymap_snippet()
    assert "schema_version" not in snippet
    (config_dir / "config.toml").write_text(snippet, encoding="utf-8")
    app = make_app(demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        assert app.config.load_error is None
        assert not [n.message for n in app._notifications], [n.message for n in app._notifications]
        assert app.config.keymap["post_battle.roll"] == "space"
        await pilot.press("ctrl+n")  # "campaign.new_battle" = "n,ctrl+n"
        await wait_for_screen(pilot, "PreBattleScreen")
    # the app adds schema_version only when it writes the file itself
    app.config.theme = "nord"
    from munda_tui.saves.config import load_config, save_config

    save_config(config_dir, app.config)
    text = (config_dir / "config.toml").read_text(encoding="utf-8")
    assert "schema_version = 1" in text and load_config(config_dir).keymap == app.config.keymap


# --- item 11: typos in config.toml are said, as path:line:col: message ------------------


async def test_an_unknown_theme_and_misspelt_keys_are_said_where_they_are(
        make_app: Any, config_dir: Path) -> None:
    path = config_dir / "config.toml"
    path.write_text(
        'theme = "nrod"\n'
        "\n"
        "[keymap]\n"
        '"campaign.new_battle" = "ctl+n"\n'
        '"campaign.roster" = "Return"\n'
        '"campaign.charts" = "enterr"\n'
        '"campaign.settings" = "f5"\n', encoding="utf-8")
    app = make_app(demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        notes = [n.message.replace("\n", "") for n in app._notifications]  # (a long path: broken after a "/")
        assert len(notes) == 1, notes  # one notification, counting them
        assert notes[0].startswith("4 problems in your config"), notes
        assert f"{path}:1:1: theme: no theme is called 'nrod' (did you mean 'nord'?)" in notes[0]
        assert app.theme == "textual-dark"
        from munda_tui.keymap import config_problems

        _good, problems = config_problems(app.config, path, path.read_text(), app.available_themes)
        assert problems == [
            f"{path}:1:1: theme: no theme is called 'nrod' (did you mean 'nord'?); the default theme is used",
            f"{path}:4:1: keymap.campaign.new_battle: 'ctl+n' is not a key name (did you mean "
            "'ctrl+n'?): the binding keeps its own key",
            f"{path}:5:1: keymap.campaign.roster: 'Return' is not a key name (did you mean "
            "'enter'?): the binding keeps its own key",
            f"{path}:6:1: keymap.campaign.charts: 'enterr' is not a key name (did you mean "
            "'enter'?): the binding keeps its own key",
        ]
        # a misspelt key leaves the action its own key; the good one applies
        await pilot.press("f5")
        await wait_for_screen(pilot, "SettingsScreen")
        await pilot.press("escape")
        await wait_for_screen(pilot, "CampaignScreen")
        await pilot.press("n")
        await wait_for_screen(pilot, "PreBattleScreen")


def test_every_key_the_app_binds_is_a_key_name() -> None:
    import munda_tui.app  # noqa: F401
    from munda_tui.keymap import all_bindings, key_name_problem

    assert [(i, k) for i, (_c, b) in all_bindings().items() for k in b.key.split(",")
            if key_name_problem(k.strip())] == []


# --- item 16: many unknown ids: linear, one notification ----------------------------------


async def test_two_thousand_unknown_ids_are_one_notification_and_one_scan(
        make_app: Any, config_dir: Path, monkeypatch: Any) -> None:
    import munda_tui.saves.errors as errors

    scans = []
    real = errors.key_positions

    def counted(text: str) -> Any:
        scans.append(1)
        return real(text)

    monkeypatch.setattr(errors, "key_positions", counted)
    ids = "".join(f'"campaign.nothing_{i}" = "x"\n' for i in range(2000))
    path = config_dir / "config.toml"
    path.write_text(f'[keymap]\n"campaign.settings" = "f5"\n{ids}', encoding="utf-8")
    app = make_app(demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        notes = [n.message.replace("\n", "") for n in app._notifications]  # (a long path: broken after a "/")
        assert len(notes) == 1 and notes[0].startswith("2000 problems in your config"), notes[:3]
        assert f"{path}:3:1: keymap.campaign.nothing_0: no key binding has the id" in notes[0]
        assert f"munda-tui check {path}" in notes[0]
        assert len(scans) == 1  # the file is scanned once for every problem's place
        await pilot.press("f5")  # the rest applies
        await wait_for_screen(pilot, "SettingsScreen")
