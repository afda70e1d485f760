"""The owner commits values (issue 33.4): the campaign handle adopts new values only
once they are on disk, in one transaction; a commit that fails leaves the old values, on
disk and in memory, and the next commit lands whole."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path

import pytest

from munda_tui.saves import Store
from campaign_support import campaign_with_history, seed

V = "venom-sisters"


def _renamed(campaign, gang_id: str, name: str, credits: int):  # type: ignore[no-untyped-def]
    """New values: the campaign with one gang renamed and its credits changed (a copy:
    the old values are never touched)."""
    gang = copy.deepcopy(campaign.gang(gang_id))
    gang.name, gang.credits = name, credits
    return replace(campaign, gangs=[gang if g.id == gang_id else g for g in campaign.gangs])


def test_a_failed_commit_leaves_the_old_values_on_disk_and_in_memory(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    slug = seed(data_dir, campaign_with_history())
    with Store(data_dir).open_campaign(slug) as handle:
        old = handle.campaign
        before = copy.deepcopy(old)
        disk = {p.name: p.read_bytes() for p in (handle.path / "gangs").iterdir()}
        new = _renamed(old, V, "The Venom Queens", 999)

        def full(self, **_kw) -> None:  # type: ignore[no-untyped-def]
            raise OSError(28, "No space left on device")

        with monkeypatch.context() as m:
            m.setattr("munda_tui.saves.journal.Transaction.commit", full)
            with pytest.raises(OSError, match="No space left"):
                handle.commit(new)
        assert handle.campaign is old and old == before  # in memory: the old values
        assert {p.name: p.read_bytes() for p in (handle.path / "gangs").iterdir()} == disk
        # the next commit lands whole
        handle.commit(new)
        assert handle.campaign is new
    with Store(data_dir).open_campaign(slug) as handle:
        gang = handle.campaign.gang(V)
        assert (gang.name, gang.credits) == ("The Venom Queens", 999)


def test_a_commit_never_changes_the_values_it_replaces(data_dir: Path) -> None:
    """The old values stay as they were (a screen or a rule holding them sees no change
    under it); on main the post-battle commit and the league's reload swapped the
    campaign's ``__dict__`` in place."""
    slug = seed(data_dir, campaign_with_history())
    with Store(data_dir).open_campaign(slug) as handle:
        old = handle.campaign
        before = copy.deepcopy(old)
        handle.commit(_renamed(old, V, "The Venom Queens", 5))
        assert old == before and handle.campaign.gang(V).name == "The Venom Queens"


def test_no_dict_swap_no_any_and_no_import_string_in_the_stages() -> None:
    """Issue 33.4: rules/stages reaches the saves through a typed protocol; no module
    swaps a campaign's ``__dict__``."""
    package = Path(__file__).resolve().parents[2] / "munda_tui"
    stages = "\n".join(p.read_text(encoding="utf-8") for p in (package / "rules" / "stages").glob("*.py"))
    assert ": Any" not in stages and "importlib" not in stages and "import_module" not in stages
    swaps = [f"{p.relative_to(package)}" for p in package.rglob("*.py")
             if "campaign.__dict__" in p.read_text(encoding="utf-8")
             or "live.__dict__" in p.read_text(encoding="utf-8")]
    assert swaps == []


def test_no_screen_catches_every_exception() -> None:
    """Screens and widgets catch the errors the saves and rules raise, by name."""
    package = Path(__file__).resolve().parents[2] / "munda_tui"
    found = [f"{p.relative_to(package)}:{n}" for folder in ("screens", "widgets")
             for p in sorted((package / folder).rglob("*.py"))
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if "except Exception" in line or "except BaseException" in line or line.strip() == "except:"]
    assert found == []


def test_a_sync_that_renumbers_the_battles_never_changes_the_values_it_replaces(tmp_path: Path) -> None:
    """Issue 33.4: a league sync whose merge renumbers this laptop's battles (the records'
    order, issue 30.4) hands the handle new values read from the merged folder; the
    campaign a screen held before the sync is not changed under it."""
    from munda_tui.saves.league import sync

    from league_support import play, two_laptops

    _remote, ana, bo = two_laptops(tmp_path)
    with bo.open_campaign("club-league") as handle:
        play(handle, "gang-03", "gang-04", 2, "2026-12-02")
        assert sync(handle).pushed
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
    with ana.open_campaign("club-league") as handle:
        held = handle.campaign
        before = copy.deepcopy(held)
        numbers_before = handle.battle_numbers_by_stem()
        assert sync(handle).pushed
        assert handle.battle_numbers_by_stem() != numbers_before  # (the merge renumbered)
        assert held == before  # the values held before the sync: unchanged
        assert handle.campaign is not held
        assert sorted(s.number for s in handle.campaign.battles) == [1, 2]
