"""Issue 34, property: campaign, gang and battle files mutated (bytes, types, big
numbers, unicode, duplicate and empty ids, semantic ranges) and each put through
`munda-tui check`, the app's open and every battle's load, and a re-save:

* check and the app agree on every file: the same `path:line:col: message` lines;
* nothing is dropped without a word: every gang and battle file on disk is loaded or
  named (a battle left out is listed with its file and line);
* what the app read, written again, reads back the same;
* a warm `.cache/` (built before the edit) and a cold one give the same outcome.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.rules.core.model import BattleSummary, Fighter, Standing
from munda_tui.saves import SaveError, Store, codec, tomlemit
from munda_tui.saves.check import check_paths
from munda_tui.saves.files import _BATTLE_ID_NAME

SLUG = "demo"
VALUES = st.one_of(
    st.sampled_from([-1, 0, 1, 2, 9_999, 10_000, 999_999_999, 10_000_001, 2**63 - 1, -(2**63), 1.5, True,
                     "", "x", "é", "\u202e", "😀😀😀", "a" * 200, "line\nbreak", [], {}, [1, "a"], {"k": 1}]),
    st.integers(-10**12, 10**12),
    st.text(max_size=12),
)
TOKENS = [b'"', b"[", b"]", b"=", b"\n", b"#", b"{", b"}", b",", b"0", b"-1", b"\xff", b"\x00",
          b"number = 7\n", b"schema_version = 1\n", b"schema_version = 2\n", b'id = ""\n', b"[summary]\n"]


@pytest.fixture(scope="module")
def template():
    """A split campaign: two gangs (one with a fallen fighter), two battles with
    summaries and stages, each file saved twice (a backup of each)."""
    root = Path(tempfile.mkdtemp(prefix="munda-agree-"))
    store = Store(root / "data")
    campaign = demo_campaign()
    gangs = [g.id for g in campaign.gangs]
    campaign.gangs[0].fallen.append(Fighter(id="old-1", name="Gone"))
    campaign.battles = [
        BattleSummary(1, "2026-03-01", "Sneak Attack", gangs, gangs[0], "done",
                      {g: Standing(900, 5, 100) for g in gangs}),
        BattleSummary(2, "2026-03-08", "Ambush", gangs, "", "battle"),
    ]
    with store.create_campaign(campaign) as handle:
        handle.save_battle(1, {"battle": {"events": [{"kind": "start"}]}, "report": {"markdown": "won"}})
        handle.save_battle(2, {"battle": {"events": [{"kind": "start"}]}})
        handle.campaign.notes = "saved twice"
        for g in handle.campaign.gangs:
            g.credits += 5
        handle.save()
    shutil.rmtree(store.campaign_dir(SLUG) / ".cache", ignore_errors=True)
    yield store.campaign_dir(SLUG)
    shutil.rmtree(root, ignore_errors=True)


def _leaves(data: Any, path: tuple = ()) -> list[tuple]:
    out: list[tuple] = [path] if path else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += _leaves(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _leaves(v, (*path, i))
    return out


def _ids(data: Any) -> list[str]:
    if isinstance(data, dict):
        return [v for k, v in data.items() if k == "id" and isinstance(v, str)] + [
            i for v in data.values() for i in _ids(v)]
    if isinstance(data, list):
        return [i for v in data for i in _ids(v)]
    return []


def _set(data: Any, path: tuple, value: Any) -> None:
    for part in path[:-1]:
        data = data[part]
    if value is _DELETE:
        del data[path[-1]]
    else:
        data[path[-1]] = value


_DELETE = object()


@st.composite
def mutation(draw, original: bytes) -> bytes:
    """The file's bytes changed: bytes and tokens, or a value of its data changed (a type,
    a big number, unicode, an id emptied or doubled, a key removed or unknown)."""
    if draw(st.integers(0, 3)) == 0:
        data = bytearray(original)
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(data)))
            kind = draw(st.sampled_from(["truncate", "replace", "token", "delete"]))
            if kind == "truncate":
                del data[i:]
            elif kind == "replace":
                data[i:i + draw(st.integers(0, 6))] = draw(st.binary(min_size=1, max_size=6))
            elif kind == "token":
                data[i:i] = draw(st.sampled_from(TOKENS))
            else:
                del data[i:i + draw(st.integers(1, 30))]
        return bytes(data)
    plain = tomllib.loads(original.decode("utf-8"))
    leaves = _leaves(plain)
    path = draw(st.sampled_from(leaves))
    kind = draw(st.sampled_from(["value", "value", "value", "id", "delete", "unknown"]))
    if kind == "id":
        ids = _ids(plain)
        id_paths = [p for p in leaves if p[-1] == "id"]
        if id_paths:
            path = draw(st.sampled_from(id_paths))
        _set(plain, path, draw(st.sampled_from(["", *ids])))
    elif kind == "delete":
        _set(plain, path, _DELETE)
    elif kind == "unknown":
        parent = path[:-1]
        target = plain
        for part in parent:
            target = target[part]
        if isinstance(target, dict):
            target["bogus_key"] = draw(VALUES)
        else:
            _set(plain, path, draw(VALUES))
    else:
        _set(plain, path, draw(VALUES))
    try:
        return tomlemit.dumps(plain).encode("utf-8", "surrogatepass")
    except Exception:  # noqa: BLE001 - what the writer refuses: a byte mutation instead
        return original + b"\n= broken\n"


def _files(directory: Path) -> dict[str, list[str]]:
    gangs = sorted(n for n in os.listdir(directory / "gangs") if n.endswith(".toml") and not n.startswith("."))
    battles = sorted(n for n in os.listdir(directory / "battles") if _BATTLE_ID_NAME.match(n))
    return {"gangs": gangs, "battles": battles}


def _app(store: Store, directory: Path) -> tuple[Any, list[str]]:
    """What the app makes of the folder: (the campaign's data and its battles' files and
    stages, or None when it does not open; every problem it says)."""
    try:
        handle = store.open_campaign(SLUG)
    except SaveError as error:
        return None, [str(error)]
    with handle:
        problems = list(handle.problems)
        left = {lo.path.name for lo in handle.left_out()}
        assert [lo.error for lo in handle.left_out()] == problems
        stages: dict[int, Any] = {}
        for number in handle.battle_numbers():
            try:
                stages[number] = handle.load_battle(number)
            except SaveError as error:
                problems.append(str(error))
        on_disk = _files(directory)
        # nothing dropped without a word: each file loaded, or named
        assert sorted(handle._gang_files.values()) == on_disk["gangs"]
        assert set(handle._battle_files.values()) | left == set(on_disk["battles"])
        assert not set(handle._battle_files.values()) & left
        reserved = [lo.number for lo in handle.left_out() if lo.number is not None]
        assert all(handle.next_battle_number() > n for n in reserved)
        state = (codec.to_data(handle.campaign), sorted(handle._battle_files.items()), stages)
    return state, problems


AGREE = settings(max_examples=examples(60), deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@AGREE
@given(data=st.data())
def test_check_and_the_app_agree_on_every_mutated_file(template, data, tmp_path_factory):
    root = tmp_path_factory.mktemp("agree")
    store = Store(root / "data")
    directory = store.campaign_dir(SLUG)
    shutil.copytree(template, directory)
    with store.open_campaign(SLUG):  # the cache warmed by the files as they were
        pass
    which = data.draw(st.sampled_from(["campaign", "gang", "gang", "battle", "battle"]))
    if which == "campaign":
        path = directory / "campaign.toml"
    else:
        folder = directory / ("gangs" if which == "gang" else "battles")
        path = folder / data.draw(st.sampled_from(_files(directory)[which + "s"]))
    before = os.stat(path)
    bad = data.draw(mutation(path.read_bytes()))
    path.write_bytes(bad)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # the time put back (touch -r)

    warm = _app(store, directory)
    assert path.read_bytes() == bad  # a file the app reads is never changed by reading
    shutil.rmtree(directory / ".cache")
    cold = _app(store, directory)
    assert warm == cold  # the cache decides nothing

    state, problems = cold
    event(f"{which}: {'does not open' if state is None else f'{len(problems)} left out or not loading'}")
    checked = check_paths([directory])
    if state is None:  # it does not open: check says why, in the same words
        [said] = problems
        assert said in checked
    else:
        assert sorted(checked) == sorted(problems)
        assert all(p.split(":", 1)[0] for p in problems)

    if state is not None:  # what was read, written again, reads back the same
        campaign_data, _files_of, stages = state
        again = Store(root / "again")
        campaign = codec.campaign_from_data({**campaign_data, "schema_version": codec.SCHEMA_VERSIONS["campaign"]})
        with again.create_campaign(campaign) as handle:
            for number, stage in stages.items():
                handle.save_battle(number, stage)
        with again.open_campaign(campaign.id) as handle:
            assert codec.to_data(handle.campaign) == campaign_data
            assert {n: handle.load_battle(n) for n in stages} == stages
            assert handle.problems == []
        assert check_paths([again.campaign_dir(campaign.id)]) == []
