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
