"""A parse cache beside each campaign's files: ``<campaign>/.cache/``.

Reading a league's campaign.toml (50 gangs, 2,000 battles: 1.4 MB) with tomllib
takes about 300 ms; the same data from JSON about 10. So each campaign folder
keeps small files, each keyed by a BLAKE2b digest of the exact text it was read
from (and of the munda-tui, schema and Python versions), on the first line:

* ``campaign.json``: what tomllib made of campaign.toml;
* ``summary.json``: what the list of campaigns shows (name, gangs, battles),
  written only once the text loaded and validated;
* ``overview.json``: the campaign screen's title and first rows
  (``rules.overview``), written with the summary: a campaign opened from the
  command line shows its screen from it, before the rest is decoded;
* ``battles/NNNN.json``: what tomllib made of a battle file.

A key that does not match (the file was edited, restored, saved by another
version), or a cache file that cannot be read, is a miss: the file is parsed as
if there were no cache, and the cache written again. The cache is never the only
copy of anything and is never fsynced; losing it costs one slow open. It is JSON,
never pickle or marshal: a campaign folder may be shared, and reading the cache
must not be a way to run code or crash the app.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

try:  # hashlib's own BLAKE2b, without loading OpenSSL's _hashlib at start-up
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - another Python
    from hashlib import blake2b

from .. import __version__
from . import codec
from .atomic import temp_path_for
from .files import LoadedCampaign, load_campaign_file, parse_text, read_text

CACHE_DIR = ".cache"
DATA_FILE = "campaign.json"
SUMMARY_FILE = "summary.json"
OVERVIEW_FILE = "overview.json"

_SALT = repr((__version__, sorted(codec.SCHEMA_VERSIONS.items()), sys.version_info[:2])).encode()


def cache_dir(campaign_file: Path) -> Path:
    return Path(campaign_file).parent / CACHE_DIR


def text_key(text: str) -> bytes:
    h = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=20)
    h.update(_SALT)
    return h.digest()


def _read(path: Path, text: str, key: str | None = None) -> Any:
    """The cached value for ``text`` in ``path``, or None (``key``: ``text_key(text).hex()``
    if the caller has it already)."""
    try:
        cached = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    head, _, body = cached.partition("\n")
    if head != (key or text_key(text).hex()):
        return None
    try:
        return json_loads(body)
    except ValueError:
        return None


def json_loads(text: str) -> Any:
    """``json.loads(text)`` (ValueError where it is not JSON): msgspec's decoder, several
    times json's speed on a league's caches (the battle index: 780 kB), json's where
    msgspec does not take it (NaN, an integer past 64 bits)."""
    import msgspec

    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError:
        return json.loads(text)


def as_json(data: Any) -> str | None:
    """The cache's JSON of plain data (None for what JSON cannot hold, e.g. a TOML date):
    JSON keeps every value as it is, and gives lists where the writer had tuples, as
    tomllib does."""
    try:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return None


def _write(path: Path, text: str, body: str | None) -> None:
    """Replace a cache file (best effort: a cache that cannot be written is a miss later)."""
    if body is None:
        return
    tmp = temp_path_for(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text_key(text).hex() + "\n" + body, encoding="utf-8")
        os.replace(tmp, path)
    except (OSError, UnicodeEncodeError):  # a read-only folder, a full disk
        try:
            tmp.unlink()
        except OSError:
            pass


def salt() -> str:
    """What every key is salted with, as text (the battle index's check)."""
    return _SALT.decode("utf-8", "replace")


def write_plain_bytes(path: Path, body: bytes) -> None:
    """A cache file of bytes (best effort, as :func:`write_plain`)."""
    tmp = temp_path_for(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(body)
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass


def write_plain(path: Path, body: str) -> None:
    """A cache file with no key (the battle index: checked by its own salt)."""
    tmp = temp_path_for(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(body, encoding="utf-8")
        os.replace(tmp, path)
    except (OSError, UnicodeEncodeError):
        try:
            tmp.unlink()
        except OSError:
            pass


def _parse_cache_path(path: Path) -> Path:
    """Where what tomllib made of a campaign folder's file is kept."""
    path = Path(path)
    if path.name == "campaign.toml":
        return cache_dir(path) / DATA_FILE
    return path.parent.parent / CACHE_DIR / path.parent.name / (path.stem + ".json")


def parsed(path: Path, text: str) -> dict[str, Any]:
    """What tomllib makes of ``text`` (the file ``path``'s), through the cache;
    SaveError if it is not TOML."""
    where = _parse_cache_path(path)
    data = _read(where, text)
    if isinstance(data, dict):
        return data
    data = parse_text(path, text)
    _write(where, text, as_json(data))
    return data


def known_parse(path: Path, text: str) -> dict[str, Any] | None:
    """What :func:`parsed` keeps of ``text`` for the file ``path``, None when it keeps
    nothing for that text (nothing parsed, nothing written)."""
    data = _read(_parse_cache_path(path), text)
    return data if isinstance(data, dict) else None


def _write_keyed(path: Path, key: str, body: str | None) -> None:
    if body is None:
        return
    tmp = temp_path_for(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(key + "\n" + body, encoding="utf-8")
        os.replace(tmp, path)
    except (OSError, UnicodeEncodeError):
        try:
            tmp.unlink()
        except OSError:
            pass


def remember_parse(path: Path, text: str, data: dict[str, Any]) -> None:
    """After a save: what tomllib reads from ``text``, the file's new text."""
    _write(_parse_cache_path(path), text, as_json(data))


def remember_views(campaign_file: Path, key: str, campaign: Any) -> None:
    """The list's summary and the campaign screen's overview of a split folder, under
    its folder key (``saves.folder.folder_key``)."""
    loaded = LoadedCampaign(campaign, codec.SCHEMA_VERSIONS[codec.CAMPAIGN], "")
    _write_keyed(cache_dir(campaign_file) / SUMMARY_FILE, key, as_json(_summary(loaded)))
    _write_keyed(cache_dir(campaign_file) / OVERVIEW_FILE, key, as_json(_overview(loaded)))


def _summary(loaded: LoadedCampaign) -> dict[str, Any]:
    c = loaded.campaign
    return {"name": c.name, "gangs": [g.name for g in c.gangs], "battles": len(c.battles)}


def load_campaign(path: Path, text: str | None = None, key: str | None = None) -> LoadedCampaign:
    """:func:`files.load_campaign_file` through the cache (SaveError as it raises);
    ``text``: the file's, if the caller read it already (``key``: its ``text_key``)."""
    if text is None:
        text = read_text(path)
    if key is None:
        key = text_key(text).hex()  # once: a league's campaign.toml is 1.4 MB
    data = _read(cache_dir(path) / DATA_FILE, text, key)
    if not isinstance(data, dict):
        data = parse_text(path, text)
        body = as_json(data)  # before decoding: a migration may change the dict
        loaded = load_campaign_file(path, text, data=data)
        _write(cache_dir(path) / DATA_FILE, text, body)
    else:
        loaded = load_campaign_file(path, text, data=data)
    summary_path = cache_dir(path) / SUMMARY_FILE
    if _read(summary_path, text, key) is None:
        _write(summary_path, text, as_json(_summary(loaded)))
    if read_overview(path, text, key) is None:
        _write(cache_dir(path) / OVERVIEW_FILE, text, as_json(_overview(loaded)))
    return loaded


def _overview(loaded: LoadedCampaign) -> dict[str, Any]:
    from ..rules.campaign.overview import overview

    return overview(loaded.campaign)


def read_overview(path: Path, text: str, key: str | None = None) -> dict[str, Any] | None:
    """The campaign screen's overview of campaign.toml's ``text`` (``rules.overview``),
    if one was written for this very text by this version; else None."""
    from ..rules.campaign.overview import is_overview

    value = _read(cache_dir(path) / OVERVIEW_FILE, text, key)
    return value if is_overview(value) else None


def remember(path: Path, text: str, data: dict[str, Any], loaded: LoadedCampaign | None = None) -> None:
    """After a save: ``text`` is what campaign.toml now holds and ``data`` what tomllib
    reads from it; cache both (and the summary, from ``loaded``)."""
    _write(cache_dir(path) / DATA_FILE, text, as_json(data))
    if loaded is not None:
        _write(cache_dir(path) / SUMMARY_FILE, text, as_json(_summary(loaded)))
        _write(cache_dir(path) / OVERVIEW_FILE, text, as_json(_overview(loaded)))


# --- battle files ---------------------------------------------------------------------------
#


def battle_cache_path(battle_file: Path) -> Path:
    battle_file = Path(battle_file)
    return battle_file.parent.parent / CACHE_DIR / "battles" / (battle_file.stem + ".json")


def read_battle(battle_file: Path, text: str) -> dict[str, Any] | None:
    """What tomllib makes of ``text`` (the battle file's), if the cache has it."""
    data = _read(battle_cache_path(battle_file), text)
    return data if isinstance(data, dict) else None


def battle_json(data: Any) -> str | None:
    return as_json(data)


def write_battle(battle_file: Path, text: str, data_json: str) -> None:
    """Cache ``data_json`` (:func:`as_json` of what tomllib reads from ``text``)."""
    _write(battle_cache_path(battle_file), text, data_json)
