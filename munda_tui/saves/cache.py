"""A parse cache beside each campaign file: ``<campaign>/.cache/``.

Reading a league's campaign.toml (50 gangs, 2,000 battles: 1.4 MB) with tomllib
takes about 300 ms; the same data from ``marshal`` a few. So each campaign folder
keeps two small files, both keyed by a BLAKE2b digest of the exact text of
campaign.toml (and of the munda-tui, schema and Python versions):

* ``campaign.marshal``: what tomllib made of that text;
* ``summary.marshal``: what the list of campaigns shows (name, gangs, battles),
  written only once the text loaded and validated.

A key that does not match (the file was edited, restored, saved by another
version), or a cache file that cannot be read, is a miss: the file is parsed as
if there were no cache, and the cache written again. The cache is never the only
copy of anything and is never fsynced; losing it costs one slow open.
"""

from __future__ import annotations

import hashlib
import json
import marshal
import os
import sys
from pathlib import Path
from typing import Any

from .. import __version__
from . import codec
from .atomic import temp_path_for
from .files import LoadedCampaign, load_campaign_file, parse_text, read_text

CACHE_DIR = ".cache"
DATA_FILE = "campaign.marshal"
SUMMARY_FILE = "summary.marshal"

_SALT = repr((__version__, sorted(codec.SCHEMA_VERSIONS.items()), sys.version_info[:2])).encode()


def cache_dir(campaign_file: Path) -> Path:
    return Path(campaign_file).parent / CACHE_DIR


def text_key(text: str) -> bytes:
    h = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20)
    h.update(_SALT)
    return h.digest()


def _read(path: Path, key: bytes) -> Any:
    try:
        obj = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not isinstance(obj, dict) or obj.get("key") != key:
        return None
    return obj.get("value")


def _write(path: Path, key: bytes, blob: bytes | None = None, value: Any = None) -> None:
    """Replace a cache file (best effort: a cache that cannot be written is a miss later)."""
    tmp = temp_path_for(path)
    try:
        if blob is None:
            blob = marshal.dumps(value)
        path.parent.mkdir(exist_ok=True)
        tmp.write_bytes(marshal.dumps({"key": key, "value": blob}))
        os.replace(tmp, path)
    except (OSError, ValueError):  # a read-only folder, a full disk, a value marshal refuses
        try:
            tmp.unlink()
        except OSError:
            pass


def _summary(loaded: LoadedCampaign) -> dict[str, Any]:
    c = loaded.campaign
    return {"name": c.name, "gangs": [g.name for g in c.gangs], "battles": len(c.battles)}


def load_campaign(path: Path) -> LoadedCampaign:
    """:func:`files.load_campaign_file` through the cache (SaveError as it raises)."""
    text = read_text(path)
    key = text_key(text)
    blob = _read(cache_dir(path) / DATA_FILE, key)
    data = None
    if isinstance(blob, bytes):
        try:
            data = marshal.loads(blob)
        except (EOFError, ValueError, TypeError):
            data = None
    if data is None:
        data = parse_text(path, text)
        try:
            blob = marshal.dumps(data)  # before decoding: a migration may change the dict
        except ValueError:  # a TOML date or time (refused by the codec with its message)
            blob = None
        loaded = load_campaign_file(path, text, data=data)
        if blob is not None:
            _write(cache_dir(path) / DATA_FILE, key, blob)
    else:
        loaded = load_campaign_file(path, text, data=data)
    _write_summary(path, key, loaded)
    return loaded


def _write_summary(path: Path, key: bytes, loaded: LoadedCampaign) -> None:
    summary_path = cache_dir(path) / SUMMARY_FILE
    if _read(summary_path, key) is None:
        _write(summary_path, key, value=_summary(loaded))


def campaign_summary(path: Path) -> dict[str, Any]:
    """The list's view of a campaign file: ``name``, ``gangs`` (names), ``battles``
    (count). From the cache when it matches the file, else loaded (and cached);
    SaveError if the file does not load."""
    text = read_text(path)
    blob = _read(cache_dir(path) / SUMMARY_FILE, text_key(text))
    if isinstance(blob, bytes):
        try:
            summary = marshal.loads(blob)
        except (EOFError, ValueError, TypeError):
            summary = None
        if isinstance(summary, dict) and {"name", "gangs", "battles"} <= summary.keys():
            return summary
    return _summary(load_campaign(path))


def remember(path: Path, text: str, data: dict[str, Any], loaded: LoadedCampaign | None = None) -> None:
    """After a save: ``text`` is what campaign.toml now holds and ``data`` what tomllib
    reads from it; cache both (and the summary, from ``loaded``)."""
    key = text_key(text)
    try:
        blob = marshal.dumps(data)
    except ValueError:
        return
    _write(cache_dir(path) / DATA_FILE, key, blob)
    if loaded is not None:
        _write(cache_dir(path) / SUMMARY_FILE, key, value=_summary(loaded))


# --- battle files ---------------------------------------------------------------------------
#
# ``.cache/battles/NNNN.json``: the key's hex digest on the first line, then the JSON of
# what tomllib reads from the battle file (plain data: JSON keeps every value as it is,
# and gives lists where the writer had tuples, as tomllib does).


def battle_cache_path(battle_file: Path) -> Path:
    battle_file = Path(battle_file)
    return battle_file.parent.parent / CACHE_DIR / "battles" / (battle_file.stem + ".json")


def read_battle(battle_file: Path, text: str) -> dict[str, Any] | None:
    """What tomllib makes of ``text`` (the battle file's), if the cache has it."""
    try:
        cached = battle_cache_path(battle_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    head, _, body = cached.partition("\n")
    if head != text_key(text).hex():
        return None
    try:
        data = json.loads(body)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def battle_json(data: Any) -> str | None:
    """The cache's JSON of plain battle data (None for what JSON cannot hold)."""
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return None


def write_battle(battle_file: Path, text: str, data_json: str) -> None:
    """Cache ``data_json`` (:func:`battle_json` of what tomllib reads from ``text``)."""
    path = battle_cache_path(battle_file)
    tmp = temp_path_for(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text_key(text).hex() + "\n" + data_json, encoding="utf-8")
        os.replace(tmp, path)
    except (OSError, UnicodeEncodeError):
        try:
            tmp.unlink()
        except OSError:
            pass
