"""Fuzz: mutated and truncated saves never raise anything but SaveError, and
a file that does not load is left exactly as it was."""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import examples

from munda_tui.rules.campaign.demo import demo_campaign
from munda_tui.saves import SaveError, Store
from munda_tui.saves.check import check_paths
from munda_tui.saves.config import load_config, save_config, Config

FORMAT = re.compile(r"^.+:\d+:\d+: .+$", re.S)
TOML_BITS = [b'"', b"'", b"[", b"]", b"[[", b"=", b"\n", b"#", b"{", b"}", b",", b".", b"0", b"-1",
             b"\\", b'"""', b"true", b"1979-05-27", b"inf", b"\xff", b"\x00", b"\r", b" ", b"schema_version = 2\n"]


@st.composite
def mutated(draw, original: bytes) -> bytes:
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["truncate", "replace", "insert", "delete", "token", "dupline"]))
        i = draw(st.integers(0, len(data)))
        if kind == "truncate":
            del data[i:]
        elif kind == "replace":
            j = draw(st.integers(i, min(len(data), i + 8)))
            data[i:j] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete":
            j = draw(st.integers(i, min(len(data), i + 40)))
            del data[i:j]
        elif kind == "token":
            j = draw(st.integers(i, min(len(data), i + 3)))
            data[i:j] = draw(st.sampled_from(TOML_BITS))
        else:
            lines = bytes(data).split(b"\n")
            k = draw(st.integers(0, len(lines) - 1))
            lines.insert(k, lines[k])
            data = bytearray(b"\n".join(lines))
    return bytes(data)


@pytest.fixture(scope="module")
def workspace():
    root = Path(tempfile.mkdtemp(prefix="munda-fuzz-"))
    store = Store(root / "data")
    with store.create_campaign(demo_campaign()) as handle:
        handle.save_battle(1, {
            "extra": {"scenario": "Sneak Attack", "crews": {"a": ["x", "y"]}},
            "battle": {"events": [{"kind": "ooa", "fighter": "vexa", "round": i, "note": "hit \"hard\""} for i in range(6)]},
            "report": {"lines": ["one", "two"]},
        })
        campaign_bytes = handle.file.read_bytes()
        battle_bytes = handle.battle_path(1).read_bytes()
    save_config(root / "config", Config(theme="nord"))
    config_bytes = (root / "config" / "config.toml").read_bytes()
    yield {"root": root, "store": store, "campaign": campaign_bytes, "battle": battle_bytes, "config": config_bytes}
    shutil.rmtree(root, ignore_errors=True)


def _check_error(error: SaveError, path: Path) -> None:
    assert error.path == path
    assert error.line >= 1 and error.column >= 1
    assert FORMAT.match(str(error))


FUZZ = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(data=st.data())
def test_mutated_campaign_file(workspace, data):
    store: Store = workspace["store"]
    path = store.campaign_dir("demo") / "campaign.toml"
    bad = data.draw(mutated(workspace["campaign"]))
    backups_before = sorted(p.name for p in (path.parent / ".backups").glob("*")) if (path.parent / ".backups").exists() else []
    path.write_bytes(bad)
    try:
        handle = store.open_campaign("demo")
    except SaveError as error:
        _check_error(error, path)
        assert path.read_bytes() == bad  # untouched
        assert not (path.parent / ".lock").exists()
        after = sorted(p.name for p in (path.parent / ".backups").glob("*")) if (path.parent / ".backups").exists() else []
        assert after == backups_before
        assert check_paths([path]) == [str(error)]
        [info] = store.list_campaigns()
        assert info.error == str(error)
    else:
        handle.close()
        assert check_paths([path]) == []
    finally:
        path.write_bytes(workspace["campaign"])


@FUZZ
@given(data=st.data())
def test_mutated_battle_file(workspace, data):
    store: Store = workspace["store"]
    with store.open_campaign("demo") as handle:
        path = handle.battle_path(1)
        bad = data.draw(mutated(workspace["battle"]))
        path.write_bytes(bad)
        try:
            loaded = handle.load_battle(1)
        except SaveError as error:
            _check_error(error, path)
            with pytest.raises(SaveError):
                handle.save_battle(1, {"battle": {}})
            assert path.read_bytes() == bad
            assert check_paths([path]) == [str(error)]
        else:
            assert isinstance(loaded, dict)
            assert check_paths([path]) == []
        finally:
            path.write_bytes(workspace["battle"])


@FUZZ
@given(data=st.data())
def test_mutated_config_file(workspace, data):
    config_dir = workspace["root"] / "config"
    path = config_dir / "config.toml"
    bad = data.draw(mutated(workspace["config"]))
    path.write_bytes(bad)
    config = load_config(config_dir)  # never raises: defaults and a reason
    if config.load_error is not None:
        assert FORMAT.match(config.load_error)
        assert path.read_bytes() == bad
        assert check_paths([path]) == [config.load_error]
    path.write_bytes(workspace["config"])
