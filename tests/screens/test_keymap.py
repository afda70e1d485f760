"""Remappable keys (#15): every binding has an id; ``[keymap]`` in the config remaps it."""

from __future__ import annotations

from pathlib import Path

import munda_tui.app  # noqa: F401 - the app's own bindings are among them
from munda_tui.keymap import all_bindings, unnamed_bindings

from support import wait_for_screen

SIZE = (100, 32)


def test_every_binding_has_an_id_and_the_ids_are_unique() -> None:
    assert unnamed_bindings() == []
    ids = all_bindings()
    assert "post_battle.roll" in ids and "campaign.new_battle" in ids
    # every id names its screen and action: "<screen>.<action>"
    assert all("." in i and " " not in i for i in ids), [i for i in ids if " " in i]


def test_the_keymap_knows_every_binding_by_its_explicit_imports() -> None:
    """Issue 33.4: ``keymap.all_bindings`` imports the modules with bindings by name, not
    by walking the packages with import strings; in a fresh interpreter (no other test's
    imports) it finds every binding a walk of every module finds (a module with bindings
    left out of ``keymap._import_all`` fails here)."""
    import subprocess
    import sys

    script = (
        "import importlib, pkgutil, sys\n"
        "import munda_tui.app\n"
        "from munda_tui.keymap import all_bindings\n"
        "listed = sorted(all_bindings())\n"
        "import munda_tui.screens, munda_tui.widgets\n"
        "for p in (munda_tui.screens, munda_tui.widgets):\n"
        "    for info in pkgutil.walk_packages(p.__path__, prefix=p.__name__ + '.'):\n"
        "        try:\n"
        "            importlib.import_module(info.name)\n"
        "        except ImportError:\n"
        "            pass\n"
        "walked = sorted(all_bindings())\n"
        "print(sorted(set(walked) - set(listed)))\n"
        "print(len(listed))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, timeout=120).stdout.split("\n")
    assert out[0] == "[]", f"bindings of modules keymap._import_all does not import: {out[0]}"
    assert int(out[1]) > 200


async def test_a_remapped_key_works_and_help_shows_it(make_app, config_dir: Path) -> None:
    (config_dir / "config.toml").write_text(
        'schema_version = 1\n'
        "\n"
        "[keymap]\n"
        '"campaign.new_battle" = "b"\n'
        '"campaign.no_such_thing" = "x"\n',
        encoding="utf-8")
    app = make_app(demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for_screen(pilot, "CampaignScreen")
        # the unknown id is reported with its place in the file; the rest applies
        notes = [n.message for n in app._notifications]
        assert any("config.toml:5:1: " in m and "'campaign.no_such_thing'" in m for m in notes), notes
        await pilot.press("question_mark")
        await pilot.pause()
        in_force = {binding_id: key for (key, _what), binding_id in
                    zip(app.screen.keys, app.screen.ids)}
        assert in_force["campaign.new_battle"] == "b"  # ? shows the key in force
        assert in_force["campaign.roster"] == "r"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("n")  # the old key no longer starts a battle
        await pilot.pause()
        assert type(app.screen).__name__ == "CampaignScreen"
        await pilot.press("b")
        await wait_for_screen(pilot, "PreBattleScreen")
