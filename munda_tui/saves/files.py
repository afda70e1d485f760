"""Reading save files: campaign, battle and config files, and their backups.

Nothing here writes. Every failure is a :class:`SaveError` naming the path,
line, column and what is wrong.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import codec
from .errors import SaveError, decode_error, parse_error, validation_error
from .codec import ValidationError
from ..rules.core.model import Campaign

CAMPAIGN_FILE = "campaign.toml"
CONFIG_FILE = "config.toml"
BATTLES_DIR = "battles"
GANGS_DIR = "gangs"
RECORDS_DIR = "records"  # the campaign's history (``saves.records``)
BACKUPS_DIR = ".backups"
CAMPAIGNS_DIR = "campaigns"

_BACKUP_NAME = re.compile(r"^(?P<name>.+?)\.(?:\d+|schema\d+(?:-\d+)?)\.bak$")
_BATTLE_NAME = re.compile(r"^(\d+)\.toml$")
#: a battle file of the folder that merges: its date and a random part (``saves.folder``)
_BATTLE_ID_NAME = re.compile(r"^[0-9a-z][0-9a-z-]*-[0-9a-f]{6,}\.toml$")


def is_battle_file_name(name: str) -> bool:
    """A battle file's name: ``0007.toml`` (the old layout) or ``<date>-<random>.toml``."""
    return _BATTLE_NAME.match(name) is not None or _BATTLE_ID_NAME.match(name) is not None


def battle_file_name(number: int) -> str:
    return f"{number:04d}.toml"


def battle_number(path: Path) -> int | None:
    m = _BATTLE_NAME.match(path.name)
    return int(m.group(1)) if m else None


def original_name(path: Path) -> str:
    """A backup's original file name (``campaign.toml.000003.bak`` -> ``campaign.toml``)."""
    m = _BACKUP_NAME.match(path.name)
    return m.group("name") if m else path.name


def is_backup(path: Path) -> bool:
    return any(part == BACKUPS_DIR for part in path.parent.parts) and _BACKUP_NAME.match(path.name) is not None


def file_kind(path: Path) -> str:
    """``campaign``, ``gang``, ``battle`` or ``config`` by where the file lives and its name."""
    name = original_name(path) if is_backup(path) else path.name
    if name == CONFIG_FILE:
        return codec.CONFIG
    if name == CAMPAIGN_FILE:
        return codec.CAMPAIGN
    if path.parent.name == GANGS_DIR:
        return codec.GANG
    if path.parent.name == BATTLES_DIR or _BATTLE_NAME.match(name):
        return codec.BATTLE
    return codec.CAMPAIGN


def read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(path, 1, 1, "file not found") from None
    except IsADirectoryError:
        raise SaveError(path, 1, 1, "is a folder, not a save file") from None
    except OSError as error:
        raise SaveError(path, 1, 1, f"cannot read: {error.strerror or error}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise decode_error(path, data, error) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text


#: Limits on a file's shape, checked before the TOML parser sees it: a hand edit or a
#: hostile file with a 20,000-part dotted key makes the parser take seconds (its cost
#: grows with the square of the depth); no save of ours comes near these.
MAX_FILE_CHARS = 64_000_000
MAX_KEY_PARTS = 64
MAX_KEY_CHARS = 1_000
MAX_NESTING = 64

# possessive and anchored at a word's start, so the scan stays linear on any text
_PART = r'(?:[A-Za-z0-9_-]++|"[^"\n]*+"|\'[^\'\n]*+\')'
# (compiled on first use, by re's own cache: a campaign opened from the parse cache never
# scans its text)
_DEEP_KEY = rf"(?<![A-Za-z0-9_-]){_PART}(?:[ \t]*+\.[ \t]*+{_PART}){{{MAX_KEY_PARTS},}}"
_LONG_KEY = (
    rf'^[ \t]*+\[*+[ \t]*+(?:[A-Za-z0-9_-]{{{MAX_KEY_CHARS + 1},}}+[ \t]*+[=.\]]|"[^"\n]{{{MAX_KEY_CHARS + 1},}}+"[ \t]*+[=.\]]|\'[^\'\n]{{{MAX_KEY_CHARS + 1},}}+\'[ \t]*+[=.\]])',
    re.MULTILINE,
)
_DEEP_NEST = rf"[\[{{](?:[ \t\r\n]*[\[{{]){{{MAX_NESTING},}}"


def _at(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


# strings and comments, in the order a TOML reader meets them (an unclosed string ends at
# its line's end: the parser refuses it there, before anything after it)
_QUOTED = (
    r'#[^\n]*+'
    r'|"""(?:[^"\\]++|\\[\s\S]|"(?!""))*+(?:""""{0,2})?'
    r"|'''[\s\S]*?(?:''''{0,2}|\Z)"
    r'|"(?:[^"\\\n]++|\\.)*+"?'
    r"|'[^'\n]*+'?"
)
_KEY_PART = r'(?:[A-Za-z0-9_-]++|"(?:[^"\\\n]++|\\.)*+"|\'[^\'\n]*+\')'
# a dotted key that starts at a quoted part, read with the strings' escapes
_DEEP_KEY_AT = rf"{_KEY_PART}(?:[ \t]*+\.[ \t]*+{_KEY_PART}){{{MAX_KEY_PARTS},}}"
_Spans = list[tuple[list[int], list[int]]]


def _quoted_spans(text: str) -> tuple[list[int], list[int]]:
    starts: list[int] = []
    ends: list[int] = []
    for m in re.compile(_QUOTED).finditer(text):
        starts.append(m.start())
        ends.append(m.end())
    return starts, ends


def _search_outside_strings(pattern: re.Pattern[str], text: str, at_start: str | None,
                            spans: _Spans) -> re.Match[str] | None:
    """``pattern``'s first match that is TOML, not text inside a string or a comment (a
    player's note may say "a.b.c..." or "[[[[": that is no key, and the app writes it).
    A match at a string's opening quote counts when ``at_start`` matches there (a quoted
    key). The strings are found (once, kept in ``spans``) only when the pattern matches."""
    import bisect

    pos = 0
    while True:
        m = pattern.search(text, pos)
        if m is None:
            return None
        if not spans:
            spans.append(_quoted_spans(text))
        starts, ends = spans[0]
        i = bisect.bisect_right(starts, m.start()) - 1
        if i < 0 or ends[i] <= m.start():
            return m  # outside every string and comment
        if starts[i] == m.start() and at_start is not None and re.compile(at_start).match(text, m.start()):
            return m
        pos = max(ends[i], m.start() + 1)


def check_shape(path: Path, text: str) -> None:
    """SaveError when the text's shape is absurd (before any parser reads it). What
    looks absurd inside a string or a comment is text, not shape."""
    if len(text) > MAX_FILE_CHARS:
        raise SaveError(path, 1, 1, f"the file is {len(text)} characters long; a save is never near {MAX_FILE_CHARS}")
    spans: _Spans = []
    m = _search_outside_strings(re.compile(_DEEP_KEY), text, _DEEP_KEY_AT, spans)
    if m:
        raise SaveError(path, *_at(text, m.start()), f"a dotted key of more than {MAX_KEY_PARTS} parts; refused unread")
    m = _search_outside_strings(re.compile(*_LONG_KEY), text, _LONG_KEY[0].removeprefix("^"), spans)
    if m:
        raise SaveError(path, *_at(text, m.start()), f"a key longer than {MAX_KEY_CHARS} characters; refused unread")
    m = _search_outside_strings(re.compile(_DEEP_NEST), text, None, spans)
    if m:
        raise SaveError(path, *_at(text, m.start()), f"arrays or tables nested more than {MAX_NESTING} deep; refused unread")


def data_shape_problem(data: dict[str, Any]) -> ValidationError | None:
    """What the text scan cannot see, found in the parsed data: tables or arrays nested
    more than ``MAX_NESTING`` deep (inline tables written ``{ a = { b = ...`` are not
    brackets in a row), or a key longer than ``MAX_KEY_CHARS`` (an inline table's key is
    not at a line's start). What passes is written back in a form that reads again:
    no header of ours has more parts than a table's depth (issue 26, item 14)."""
    stack: list[tuple[Any, int, tuple[str | int, ...]]] = [(data, 0, ())]
    pop, push = stack.pop, stack.append
    while stack:
        value, depth, keypath = pop()
        if depth > MAX_NESTING:
            # (named by its first keys: the whole path is as long as the nesting is deep)
            return ValidationError(keypath[:2], f"tables or arrays nested more than {MAX_NESTING} deep; refused")
        if type(value) is dict:
            for k, v in value.items():
                if len(k) > MAX_KEY_CHARS:
                    return ValidationError((*keypath[:2], k[:40] + "..."),
                                           f"a key longer than {MAX_KEY_CHARS} characters; refused")
                if type(v) is dict or type(v) is list:
                    push((v, depth + 1, (*keypath, k)))
        else:
            for i, v in enumerate(value):
                if type(v) is dict or type(v) is list:
                    push((v, depth + 1, (*keypath, i)))
    return None


#: what a text must not hold for rtoml to read it as tomllib does (else tomllib reads it):
#: a carriage return (rtoml keeps it in a multi-line string), a time (rtoml reads one
#: without seconds, and its offsets are another tzinfo class), TOML 1.1's ``\\e`` and
#: ``\\x`` escapes and trailing commas in inline tables (tests/saves/test_toml_read.py)
_NOT_FOR_RTOML = re.compile(r"\r|\d:\d|\\[ex]|,\s*}")


def toml_loads(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, the same data and the same errors, several times faster
    (issue 30.9: a 2,000-battle league's cold fold parsed its 2,050 record files and the
    gang texts it made in 1.1 s of its 1.8): the text is read by rtoml (a Rust TOML
    reader) where it holds nothing rtoml reads otherwise than tomllib (TOML 1.1's
    additions, which tomllib refuses, and the few forms above), by tomllib where it
    does, and by tomllib where rtoml refuses it (tomllib's error, line and column)."""
    import tomllib  # here: a campaign opened from the parse cache never needs it

    if _NOT_FOR_RTOML.search(text) is None and _braces_close_on_their_line(text):
        try:
            import rtoml
        except ImportError:  # pragma: no cover - rtoml is a dependency; tomllib reads the same
            pass
        else:
            try:
                data = rtoml.loads(text)
            except Exception:  # noqa: BLE001 - rtoml refuses it: tomllib's error (or data) below
                pass
            else:
                if type(data) is dict:
                    return data
    return tomllib.loads(text)


def _braces_close_on_their_line(text: str) -> bool:
    """True when every line opens as many ``{`` as it closes (an inline table over
    several lines is TOML 1.1: tomllib refuses it, rtoml does not)."""
    if "{" not in text:
        return True
    return all(line.count("{") == line.count("}") for line in text.split("\n") if "{" in line)


def parse_text(path: Path, text: str) -> dict[str, Any]:
    """The guarded reader every TOML file the app reads goes through (saves, config,
    Arbitrator tables, packs, exports): the text's shape is checked before the parser
    reads it (:func:`toml_loads`), the data's after."""
    import tomllib  # here: a campaign opened from the parse cache never needs it

    check_shape(path, text)
    try:
        data = toml_loads(text)
    except tomllib.TOMLDecodeError as error:
        raise parse_error(path, text, error) from None
    except RecursionError:
        raise SaveError(path, 1, 1, "TOML syntax: nested too deeply") from None
    problem = data_shape_problem(data)
    if problem is not None:
        raise validation_error(path, text, problem)
    return data


@dataclass
class LoadedCampaign:
    """A campaign read from its file: the campaign, the file's schema version, its text."""

    campaign: Campaign
    version: int  # the schema_version the file had
    text: str


def load_campaign_file(path: Path, text: str | None = None, data: dict[str, Any] | None = None) -> LoadedCampaign:
    """``data``: what tomllib made of ``text`` already (see ``saves.cache``)."""
    if text is None:
        text = read_text(path)
    if data is None:
        data = parse_text(path, text)
    try:
        campaign, version = codec.load_campaign_data(data)
    except ValidationError as error:
        raise validation_error(path, text, error) from None
    except RecursionError:
        raise SaveError(path, 1, 1, "nested too deeply") from None
    return LoadedCampaign(campaign, version, text)


def load_battle_file(path: Path, text: str | None = None, data: dict[str, Any] | None = None) -> tuple[dict[str, Any], int]:
    """A battle file's data, every part checked (its number and summary too: see
    ``battle_schema.check_head``); ``data``: what tomllib made of ``text`` already (see
    ``saves.cache``)."""
    if text is None:
        text = read_text(path)
    if data is None:
        data = parse_text(path, text)
    from . import battle_schema  # (and the rules it checks with: not needed to start)

    name = original_name(path) if is_backup(path) else path.name
    try:  # a battle file of the split folder says its number (saves.folder)
        return battle_schema.battle_from_data(data, needs_number=_BATTLE_ID_NAME.match(name) is not None)
    except ValidationError as error:
        raise validation_error(path, text, error) from None
    except RecursionError:
        raise SaveError(path, 1, 1, "nested too deeply") from None
