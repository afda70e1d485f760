"""Git as a player expects it (issue 30.7): a password in a URL is never printed nor
stored; git never waits for an answer (a password, an SSH passphrase or host key) but
says in one line what to set up; a push that lost a race with another laptop's is
fetched, merged and pushed again; commits carry the player's name when git knows
none; a second join of the same league says so; the remote's HEAD names the branch."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from munda_tui.cli import main
from munda_tui.saves import Store
from munda_tui.saves.git import PASSWORD, public_url, scrub
from munda_tui.saves.league import LeagueError, init, join, sync

from league_support import HttpRemote, bare_remote, git_home, league, play

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def _git(directory: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(directory), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def _everything_under(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())


def test_public_url_takes_the_password_out() -> None:
    assert public_url("http://alice:s3cret@host/x.git") == "http://host/x.git"
    assert public_url("https://alice@host:8443/club/x.git") == "https://host:8443/club/x.git"
    assert public_url("ssh://git:pw@host/x.git") == "ssh://git@host/x.git"
    assert public_url("git@github.com:club/league.git") == "git@github.com:club/league.git"
    assert public_url("/media/usb/league.git") == "/media/usb/league.git"
    assert scrub("fatal: unable to access 'https://bo:hunter2@h/x/': 403") == \
        "fatal: unable to access 'https://h/x/': 403"


def test_a_url_with_a_password_is_used_never_printed_nor_stored(tmp_path: Path, monkeypatch, capsys) -> None:
    """Over smart HTTP behind a password: init and join with the password in the URL work
    (git's credential helper keeps it); nothing printed and no file of either laptop
    holds it; without a helper the next sync says at once what to set up."""
    helper_file = tmp_path / "credentials"
    git_home(tmp_path, monkeypatch, "[user]\n\tname = Ana\n\temail = ana@club\n"
             f"[credential]\n\thelper = store --file {helper_file}\n")
    bare = bare_remote(tmp_path / "srv" / "league.git")
    with HttpRemote(bare) as remote:
        secret_url = remote.url_with("alice", "s3cret")
        ana = Store(tmp_path / "ana")
        ana.create_campaign(league(2)).close()
        monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "ana"))
        assert main(["league", "init", "club-league", "--remote", secret_url]) == 0
        said = capsys.readouterr()
        assert "s3cret" not in said.out + said.err
        assert f"munda-tui league join {remote.url}" in said.out
        folder = ana.campaign_dir("club-league")
        assert "s3cret" not in (folder / ".git" / "config").read_text()
        assert _git(folder, "config", "--get", "remote.origin.url") == remote.url
        assert "s3cret" in helper_file.read_text()  # kept by git's helper, not by us
        with ana.open_campaign("club-league") as handle:
            play(handle, "gang-01", "gang-02", 1, "2026-12-01")
            assert sync(handle).pushed  # the helper answers for the stored URL
        # another laptop with no helper: the join with the password works, once
        git_home(tmp_path / "bo-home", monkeypatch, "[user]\n\tname = Bo\n\temail = bo@club\n")
        monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "bo"))
        assert main(["league", "join", secret_url]) == 0
        said = capsys.readouterr()
        assert "s3cret" not in said.out + said.err
        bo = Store(tmp_path / "bo")
        assert b"s3cret" not in _everything_under(bo.campaign_dir("club-league"))
        with bo.open_campaign("club-league") as handle:
            play(handle, "gang-01", "gang-02", 2, "2026-12-02")
        t = time.perf_counter()
        assert main(["sync", "club-league", "--verbose"]) == 1  # and then it is asked for
        said = capsys.readouterr()
        assert time.perf_counter() - t < 20
        first = said.err.splitlines()[0]
        assert first.startswith("munda-tui sync: could not fetch") and PASSWORD in first
        assert "git said:" in said.err and "s3cret" not in said.err
        log = (bo.campaign_dir("club-league") / ".cache" / "league.log").read_text()
        assert "could not read Username" in log and "s3cret" not in log
        # a wrong password in a join: refused in our words, the password not echoed
        assert main(["league", "join", remote.url_with("alice", "wrong-one")]) == 1
        said = capsys.readouterr()
        assert "wrong-one" not in said.out + said.err and PASSWORD in said.err


def _fake_ssh(tmp_path: Path) -> Path:
    """An ``ssh`` that behaves as OpenSSH with a key behind a passphrase: in batch mode it
    gives up at once; otherwise it asks and waits for the answer (here: ever)."""
    tool = tmp_path / "bin" / "ssh"
    tool.parent.mkdir(parents=True)
    tool.write_text("#!/bin/sh\n"
                    "case \"$*\" in *BatchMode=yes*)\n"
                    "  echo 'git@club: Permission denied (publickey).' >&2; exit 255;;\n"
                    "esac\n"
                    "printf \"Enter passphrase for key '/home/ana/.ssh/id_ed25519': \" >&2\n"
                    "sleep 60\n")
    tool.chmod(0o755)
    return tool


def test_an_ssh_prompt_fails_at_once_with_one_line(tmp_path: Path, monkeypatch, capsys) -> None:
    git_home(tmp_path, monkeypatch, "[user]\n\tname = Ana\n\temail = ana@club\n")
    monkeypatch.setenv("GIT_SSH_COMMAND", str(_fake_ssh(tmp_path)))
    store = Store(tmp_path / "ana")
    store.create_campaign(league(2)).close()
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "ana"))
    t = time.perf_counter()
    assert main(["league", "init", "club-league", "--remote", "git@club:league.git"]) == 1
    assert time.perf_counter() - t < 20
    err = capsys.readouterr().err
    assert PASSWORD in err and len(err.strip().splitlines()) == 1
    assert "Permission denied" not in err  # git's words only with --verbose
    assert not (store.campaign_dir("club-league") / ".git").exists()
    # a league whose remote moved behind SSH: the sync says the same, at once
    remote = bare_remote(tmp_path / "remote.git")
    with store.open_campaign("club-league") as handle:
        init(handle, str(remote))
        _git(handle.path, "remote", "set-url", "origin", "ssh://git@club/league.git")
        t = time.perf_counter()
        with pytest.raises(LeagueError) as caught:
            sync(handle)
        assert time.perf_counter() - t < 20 and PASSWORD in str(caught.value)
        assert "Permission denied (publickey)" in caught.value.detail


def test_an_unknown_host_key_is_said_not_asked(tmp_path: Path, monkeypatch) -> None:
    git_home(tmp_path, monkeypatch, "[user]\n\tname = Ana\n\temail = ana@club\n")
    tool = tmp_path / "ssh"
    tool.write_text("#!/bin/sh\ncase \"$*\" in *BatchMode=yes*)\n"
                    "  echo 'Host key verification failed.' >&2; exit 255;;\nesac\n"
                    "echo 'Are you sure you want to continue connecting (yes/no)?' >&2\nsleep 60\n")
    tool.chmod(0o755)
    monkeypatch.setenv("GIT_SSH_COMMAND", f"{tool} -i /keys/club")
    store = Store(tmp_path / "bo")
    t = time.perf_counter()
    with pytest.raises(LeagueError, match="host key is not known") as caught:
        join(store, "ssh://git@club/league.git")
    assert time.perf_counter() - t < 20
    assert "\n" not in str(caught.value)


def test_two_pushes_at_once_the_second_fetches_and_retries(tmp_path: Path, monkeypatch) -> None:
    """Bo's push reaches the remote while Ana's is being written there (the remote's ref
    moves under Bo's push: git says 'failed to update ref'): Bo's sync fetches Ana's
    battle, merges it and pushes again; both battles end on the remote."""
    git_home(tmp_path, monkeypatch, "[user]\n\tname = Ana\n\temail = ana@club\n")
    remote = bare_remote(tmp_path / "remote.git")
    ana, bo = Store(tmp_path / "ana"), Store(tmp_path / "bo")
    with ana.create_campaign(league(4)) as handle:
        init(handle, str(remote))
    join(bo, str(remote))
    with ana.open_campaign("club-league") as handle:  # Ana's battle, on its way to the remote
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        sync(handle)
        ana_head = _git(handle.path, "rev-parse", "HEAD")
    _git(remote, "update-ref", "refs/heads/main", f"{ana_head}~1")  # (not there yet)
    _git(remote, "update-ref", "refs/ana-landing", ana_head)
    # Ana's push lands while Bo's receive-pack runs: the ref moves under it
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\ncat >/dev/null\nunset GIT_QUARANTINE_PATH\n"
                    "if git rev-parse -q --verify refs/ana-landing >/dev/null; then\n"
                    "  git update-ref refs/heads/main refs/ana-landing\n  git update-ref -d refs/ana-landing\n"
                    "fi\nexit 0\n")
    hook.chmod(0o755)
    with bo.open_campaign("club-league") as handle:
        play(handle, "gang-03", "gang-04", 2, "2026-12-02")
        result = sync(handle)
        assert result.pushed and not result.conflicts
        assert result.received == ["Battle 1 (2026-12-01) Gang 01 vs Gang 02: post-battle applied"]
        assert "Battle 1 (2026-12-02) Gang 03 vs Gang 04: post-battle applied" in result.shared
        assert sorted(b.date for b in handle.campaign.battles) == ["2026-12-01", "2026-12-02"]
    on_remote = _git(remote, "log", "--format=%s", "main")
    assert "Gang 01 vs Gang 02" in on_remote and "Gang 03 vs Gang 04" in on_remote


def test_without_a_git_identity_commits_carry_the_players_name(tmp_path: Path, monkeypatch) -> None:
    git_home(tmp_path, monkeypatch)
    monkeypatch.setenv("LOGNAME", "ana")
    remote = bare_remote(tmp_path / "remote.git")
    store = Store(tmp_path / "ana")
    with store.create_campaign(league(2)) as handle:
        init(handle, str(remote))
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        sync(handle)
        authors = set(_git(handle.path, "log", "--format=%an <%ae>").splitlines())
    assert len(authors) == 1
    (author,) = authors
    assert author.startswith("ana <ana@") and "munda-tui" not in author


def test_joining_a_league_twice_says_so(tmp_path: Path, monkeypatch, capsys) -> None:
    git_home(tmp_path, monkeypatch, "[user]\n\tname = Bo\n\temail = bo@club\n")
    remote = bare_remote(tmp_path / "remote.git")
    with Store(tmp_path / "ana").create_campaign(league(2)) as handle:
        init(handle, str(remote))
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "bo"))
    assert main(["league", "join", str(remote)]) == 0
    capsys.readouterr()
    assert main(["league", "join", str(remote) + "/"]) == 1  # (the same league, written otherwise)
    err = capsys.readouterr().err
    assert "this laptop has that league already: campaign 'club-league'" in err
    assert sorted(p.name for p in Store(tmp_path / "bo").campaigns_dir.iterdir()) == ["club-league"]
    # the laptop that started it is told the same
    with pytest.raises(LeagueError, match="already: campaign 'club-league'"):
        join(Store(tmp_path / "ana"), str(remote))


def test_the_remote_head_names_the_leagues_branch(tmp_path: Path, monkeypatch) -> None:
    """A league whose remote plays on 'trunk' (its HEAD says so): joined on trunk, synced on
    trunk; a remote whose HEAD names a branch it has not is joined on the league's."""
    git_home(tmp_path, monkeypatch, "[user]\n\tname = Ana\n\temail = ana@club\n"
             "[init]\n\tdefaultBranch = master\n")
    remote = bare_remote(tmp_path / "remote.git")  # HEAD -> master, which never exists
    ana = Store(tmp_path / "ana")
    with ana.create_campaign(league(4)) as handle:
        init(handle, str(remote))
    bo = Store(tmp_path / "bo")
    assert join(bo, str(remote)) == "club-league"
    assert _git(bo.campaign_dir("club-league"), "symbolic-ref", "--short", "HEAD") == "main"
    # the club renames its branch to trunk on the remote
    _git(remote, "branch", "-m", "main", "trunk")
    _git(remote, "symbolic-ref", "HEAD", "refs/heads/trunk")
    cy = Store(tmp_path / "cy")
    join(cy, str(remote))
    folder = cy.campaign_dir("club-league")
    assert _git(folder, "symbolic-ref", "--short", "HEAD") == "trunk"
    with cy.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        assert sync(handle).pushed
    assert "Gang 01 vs Gang 02" in _git(remote, "log", "--format=%s", "trunk")
    assert _git(remote, "for-each-ref", "--format=%(refname)", "refs/heads/") == "refs/heads/trunk"


def test_counts_are_right(tmp_path: Path, monkeypatch, capsys) -> None:
    """init says how many commits it pushed (all of them); a battle recorded by a sync whose
    push failed is counted by the sync that pushes it; the screen's hint and `league
    status` say it waits."""
    from munda_tui.saves.league import pending

    git_home(tmp_path, monkeypatch, "[user]\n\tname = Ana\n\temail = ana@club\n")
    remote = bare_remote(tmp_path / "remote.git")
    Store(tmp_path / "ana").create_campaign(league(2)).close()
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "ana"))
    assert main(["league", "init", "club-league", "--remote", str(remote)]) == 0
    pushed = int(_git(remote, "rev-list", "--count", "main"))
    assert f"({pushed} commits pushed)" in capsys.readouterr().out
    store = Store(tmp_path / "ana")
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'closed for the night' >&2\nexit 1\n")
    hook.chmod(0o755)
    with store.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        with pytest.raises(LeagueError, match="closed for the night"):
            sync(handle)
        assert pending(handle) == (1, 1)  # recorded, not pushed: still waiting
    assert main(["league", "status", "club-league"]) == 0
    out = capsys.readouterr().out
    assert "Recorded here, not yet on the remote (1 change):" in out
    assert "Battle 1 (2026-12-01) Gang 01 vs Gang 02: post-battle applied" in out
    assert "Nothing new to share" not in out
    hook.unlink()
    assert main(["sync", "club-league"]) == 0
    assert capsys.readouterr().out == "Synced: 1 change shared, 0 received.\n"
    assert main(["league", "status", "club-league"]) == 0
    assert "Nothing new to share." in capsys.readouterr().out


def test_init_of_a_campaign_this_laptop_has_not_says_how_to_make_one(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "data"))
    assert main(["league", "init", "Club League", "--remote", str(tmp_path / "r.git")]) == 1
    err = capsys.readouterr().err
    assert "no campaign 'Club League'" in err
    assert "munda-tui import campaign" in err and "munda-tui league join URL" in err


def test_init_of_a_campaign_open_in_the_app_does_not_send_back_to_sync(tmp_path: Path, monkeypatch, capsys) -> None:
    """The campaign screen's g on a campaign that is no league says `league init`; init
    while the app has it open must not say 'sync from its campaign screen'."""
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "data"))
    with Store(tmp_path / "data").create_campaign(league(2)):
        assert main(["league", "init", "club-league", "--remote", str(tmp_path / "r.git")]) == 1
    err = capsys.readouterr().err
    assert "Close it in munda-tui first, then run this again" in err
    assert "sync" not in err.split("\n", 1)[1]


def _push_a_broken_gang(remote: Path, tmp_path: Path) -> None:
    """Someone with git alone pushes a gang file with a typo (an unclosed string)."""
    hand = tmp_path / "by-hand"
    subprocess.run(["git", "clone", "-q", "-b", "main", str(remote), str(hand)], check=True)
    gang = hand / "gangs" / "gang-02.toml"
    gang.write_text(gang.read_text().replace('name = "Gang 02"', 'name = "Gang 02'))
    _git(hand, "-c", "user.name=Hand", "-c", "user.email=hand@club", "commit", "-qam", "typo")
    _git(hand, "push", "-q", "origin", "main")


def test_a_broken_file_from_the_remote_is_refused_by_name(tmp_path: Path, monkeypatch, capsys) -> None:
    """A gang file that does not load arrives from the remote: the sync names it
    (path:line:col), writes nothing, the campaign keeps opening, and this laptop's own
    battle is not pushed on top of it."""
    git_home(tmp_path, monkeypatch, "[user]\n\tname = Ana\n\temail = ana@club\n")
    remote = bare_remote(tmp_path / "remote.git")
    ana = Store(tmp_path / "ana")
    with ana.create_campaign(league(2)) as handle:
        init(handle, str(remote))
    _push_a_broken_gang(remote, tmp_path)
    broken_head = _git(remote, "rev-parse", "main")
    with ana.open_campaign("club-league") as handle:
        play(handle, "gang-01", "gang-02", 1, "2026-12-01")
        before = (handle.path / "gangs" / "gang-02.toml").read_bytes()
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "ana"))
    assert main(["sync", "club-league"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("munda-tui sync: the league's remote holds a file that does not load: "
                          "gangs/gang-02.toml:")
    line_col = err.split("gangs/gang-02.toml:", 1)[1].split(":")[:2]
    assert all(x.isdigit() for x in line_col) and len(err.strip().splitlines()) == 1
    with ana.open_campaign("club-league") as handle:  # opens, as it was
        assert (handle.path / "gangs" / "gang-02.toml").read_bytes() == before
        assert [b.status for b in handle.campaign.battles] == ["done"]
    assert _git(remote, "rev-parse", "main") == broken_head  # nothing pushed on top
    assert main(["check", str(tmp_path / "ana")]) == 0


def test_a_gang_below_the_rulesets_reputation_floor_is_refused_as_check_refuses_it(
        tmp_path: Path, monkeypatch, capsys) -> None:
    """Under Gang War a gang's Reputation is never below 0 (the campaign's ruleset): the
    open and `munda-tui check` refuse a gang file saying -3, but the sync loaded a gang
    file without its campaign and wrote it. Now it reads it with the campaign.toml of the
    same commit and says what check says, word for word."""
    from munda_tui.saves.check import check_paths

    git_home(tmp_path, monkeypatch, "[user]\n\tname = Ana\n\temail = ana@club\n")
    remote = bare_remote(tmp_path / "remote.git")
    ana = Store(tmp_path / "ana")
    with ana.create_campaign(league(2)) as handle:
        assert handle.campaign.settings.post_battle_ruleset == "gang-war"
        init(handle, str(remote))
    hand = tmp_path / "by-hand"
    subprocess.run(["git", "clone", "-q", "-b", "main", str(remote), str(hand)], check=True)
    gang = hand / "gangs" / "gang-02.toml"
    text = gang.read_text()
    assert "\nreputation = " in text
    gang.write_text(text.replace("\nreputation = ", "\nreputation = -3\nx_was = ", 1)
                    .replace("\nx_was = ", "\n#", 1))
    _git(hand, "-c", "user.name=Hand", "-c", "user.email=hand@club", "commit", "-qam", "below 0")
    _git(hand, "push", "-q", "origin", "main")
    [checked] = check_paths([hand])  # what check says of it
    assert checked.startswith(f"{gang}:") and "reputation" in checked
    before = (ana.campaign_dir("club-league") / "gangs" / "gang-02.toml").read_bytes()
    monkeypatch.setenv("MUNDA_TUI_DATA_DIR", str(tmp_path / "ana"))
    assert main(["sync", "club-league"]) == 1
    err = capsys.readouterr().err
    assert "gangs/gang-02.toml:" + checked.split(f"{gang}:", 1)[1] in err, (err, checked)
    assert (ana.campaign_dir("club-league") / "gangs" / "gang-02.toml").read_bytes() == before


def test_a_hand_broken_file_here_is_not_pushed(tmp_path: Path, monkeypatch) -> None:
    git_home(tmp_path, monkeypatch, "[user]\n\tname = Ana\n\temail = ana@club\n")
    remote = bare_remote(tmp_path / "remote.git")
    ana = Store(tmp_path / "ana")
    with ana.create_campaign(league(2)) as handle:
        init(handle, str(remote))
    pushed = _git(remote, "rev-parse", "main")
    with ana.open_campaign("club-league") as handle:
        gang = handle.path / "gangs" / "gang-01.toml"
        gang.write_text(gang.read_text().replace("credits = ", "credits = = "))
        with pytest.raises(LeagueError, match=r"not pushed: this laptop has a file that does not "
                                              r"load: gangs/gang-01\.toml:\d+:\d+"):
            sync(handle)
    assert _git(remote, "rev-parse", "main") == pushed


def test_a_pack_or_an_answer_waiting_to_be_shared_is_not_nothing_new(tmp_path: Path, monkeypatch) -> None:
    """A pack changed here, or a league question answered here, waits for the next sync:
    the campaign screen's hint said "nothing new to share" (it counted battles and gangs
    alone). It counts the other league files too."""
    from munda_tui.saves.league import unshared

    from league_support import two_laptops

    git_home(tmp_path, monkeypatch, "[user]\n\tname = Ana\n\temail = ana@club\n")
    _remote, ana, _bo = two_laptops(tmp_path)
    with ana.open_campaign("club-league") as handle:
        assert unshared(handle) == (0, 0, 0)
        folder = handle.path / "packs" / "test-club"
        folder.mkdir(parents=True)
        (folder / "pack.toml").write_text('id = "test-club"\ntitle = "Test club"\nversion = "1"\n',
                                          encoding="utf-8")
        assert unshared(handle) == (0, 0, 1)
        assert sync(handle).pushed
        assert unshared(handle) == (0, 0, 0)
