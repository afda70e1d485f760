"""A campaign is locked while open; stale locks are taken over."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap

import pytest

from munda_tui.saves import CampaignLocked, Store


def test_second_handle_is_refused_with_a_clear_message(store, demo_campaign):
    first = store.create_campaign(demo_campaign)
    with pytest.raises(CampaignLocked) as caught:
        store.open_campaign("demo")
    message = str(caught.value)
    assert "open in another munda-tui" in message
    assert f"pid {os.getpid()}" in message and socket.gethostname() in message
    assert str(first.path / ".lock") in message
    # another Store on the same data dir (a second window) is refused too
    with pytest.raises(CampaignLocked):
        Store(store.data_dir).open_campaign("demo")
    first.close()
    assert not (first.path / ".lock").exists()
    with store.open_campaign("demo") as again:
        assert again.campaign.name == demo_campaign.name
    assert first.closed
    with pytest.raises(RuntimeError):
        first.save()


def test_lock_file_names_the_owner(store, demo_campaign):
    with store.create_campaign(demo_campaign) as handle:
        text = (handle.path / ".lock").read_text()
        assert f"pid={os.getpid()}" in text
        assert f"host={socket.gethostname()}" in text


def _dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def test_stale_lock_of_a_dead_process_is_taken_over(store, demo_campaign):
    store.create_campaign(demo_campaign).close()
    lock = store.campaign_dir("demo") / ".lock"
    lock.write_text(f"pid={_dead_pid()}\nhost={socket.gethostname()}\n")
    with store.open_campaign("demo") as handle:
        assert f"pid={os.getpid()}" in lock.read_text()
        handle.save()


def test_lock_from_another_host_is_respected(store, demo_campaign):
    store.create_campaign(demo_campaign).close()
    lock = store.campaign_dir("demo") / ".lock"
    lock.write_text("pid=4242\nhost=the-club-laptop\n")
    with pytest.raises(CampaignLocked, match="pid 4242 on the-club-laptop"):
        store.open_campaign("demo")
    assert lock.read_text() == "pid=4242\nhost=the-club-laptop\n"


def test_lock_held_by_a_live_process_is_refused(store, demo_campaign, tmp_path):
    store.create_campaign(demo_campaign).close()
    script = textwrap.dedent(
        f"""
        import sys
        from munda_tui.saves import Store
        h = Store({str(store.data_dir)!r}).open_campaign("demo")
        print("open", flush=True)
        sys.stdin.readline()
        h.close()
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "open"
        with pytest.raises(CampaignLocked, match=f"pid {proc.pid}"):
            store.open_campaign("demo")
        with pytest.raises(CampaignLocked):
            store.delete_campaign("demo")
        assert store.campaign_dir("demo").is_dir()
    finally:
        proc.communicate("\n", timeout=30)
    assert proc.returncode == 0
    with store.open_campaign("demo"):
        pass


def test_killed_owner_leaves_a_lock_that_is_taken_over(store, demo_campaign):
    store.create_campaign(demo_campaign).close()
    script = textwrap.dedent(
        f"""
        import os, signal
        from munda_tui.saves import Store
        h = Store({str(store.data_dir)!r}).open_campaign("demo")
        os.kill(os.getpid(), signal.SIGKILL)
        """
    )
    subprocess.run([sys.executable, "-c", script], check=False)
    lock = store.campaign_dir("demo") / ".lock"
    assert lock.exists()  # left behind by the killed owner
    with store.open_campaign("demo"):
        assert f"pid={os.getpid()}" in lock.read_text()


def test_failed_open_releases_the_lock(store, demo_campaign):
    store.create_campaign(demo_campaign).close()
    path = store.campaign_dir("demo") / "campaign.toml"
    good = path.read_bytes()
    path.write_bytes(b"name = \n")
    from munda_tui.saves import SaveError

    with pytest.raises(SaveError):
        store.open_campaign("demo")
    assert not (store.campaign_dir("demo") / ".lock").exists()
    path.write_bytes(good)
    with store.open_campaign("demo"):
        pass


@pytest.mark.parametrize("slug", ["missing", "../outside", "Has Caps", "a\n", ""])
def test_opening_a_missing_or_odd_slug_is_a_save_error(store, slug):
    from munda_tui.saves import SaveError

    with pytest.raises(SaveError):
        store.open_campaign(slug)
