"""Helpers shared by the Pilot tests (importable: pytest puts tests/ on sys.path)."""

from __future__ import annotations


async def wait_for_screen(pilot, name: str) -> None:  # type: ignore[no-untyped-def]
    """Pause until the screen class ``name`` is showing and has finished mounting."""
    for _ in range(50):
        if type(pilot.app.screen).__name__ == name:
            await pilot.pause()  # let the screen finish mounting (its tables fill on mount)
            return
        await pilot.pause()
    raise AssertionError(f"{name} never showed (on {type(pilot.app.screen).__name__})")


_DEMO_TEMPLATE: dict[str, object] = {}


def ensure_demo(data_dir):  # type: ignore[no-untyped-def]
    """``munda_tui.saves.demo.ensure_demo(data_dir)``, built once per test process and copied.

    Writing the demo's campaign.toml (tomlkit) cost a tenth of a short Pilot test's CPU,
    in hundreds of tests. The real function writes it once into a private folder; after
    that an absent demo is copied from there, byte for byte the files it would write (they
    depend only on the demo campaign). Anything else (a demo already there, a data folder
    that is not a plain empty place) goes to the real function.
    """
    import atexit
    import shutil
    import tempfile
    from pathlib import Path

    from munda_tui.saves.demo import ensure_demo as real

    data_dir = Path(data_dir)
    if "slug" not in _DEMO_TEMPLATE:
        root = Path(tempfile.mkdtemp(prefix="munda-demo-"))
        atexit.register(shutil.rmtree, root, True)
        _DEMO_TEMPLATE["slug"] = real(root)
        _DEMO_TEMPLATE["root"] = root
    slug = str(_DEMO_TEMPLATE["slug"])
    target = data_dir / "campaigns" / slug
    if data_dir.is_dir() and not target.exists() and not target.is_symlink():
        shutil.copytree(Path(str(_DEMO_TEMPLATE["root"])) / "campaigns" / slug, target)
        return slug
    return real(data_dir)
