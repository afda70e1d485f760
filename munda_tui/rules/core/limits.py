"""The ranges of every number and the length of every text a player or a file can enter.

One table, read by the codec (loading a save, an import, a hand edit) and by the
forms (``rules.roster``, the post-battle prompts), so a value is accepted or refused
the same way wherever it comes from. A field another module adds to the model joins
by adding a line to :data:`RANGES` or :data:`TEXT_MAX`.

The figures are limits of sense, not rules of the game: no Necromunda gang holds a
million credits, and a save must stay writable (TOML integers are 64-bit).
"""

from __future__ import annotations

from typing import Any, Callable

#: What TOML (and so every save) can hold.
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1

#: (dataclass name, field) -> (lowest, highest). A list or table of integers has the
#: range checked for each of its values. (A fighter's profile has its own limits per
#: characteristic, in ``rules.profile``, which the codec applies as well.)
RANGES: dict[tuple[str, str], tuple[int, int]] = {
    ("Gang", "credits"): (0, 10_000_000),
    # the widest range of any ruleset (RULESET_FLOORS narrows it for a campaign)
    ("Gang", "reputation"): (-1_000_000, 1_000_000),
    ("Gang", "territory_size"): (0, 10_000),
    # a club's own counter (a pack's: issue 35), either way
    ("Gang", "counters"): (-1_000_000, 1_000_000),
    ("Fighter", "cost"): (0, 10_000_000),
    ("Fighter", "xp"): (0, 1_000_000),
    ("Fighter", "advancements"): (0, 1_000_000),
    ("Fighter", "kills"): (0, 1_000_000),
    ("Fighter", "bounty"): (0, 10_000_000),
    ("Equipment", "cost"): (0, 10_000_000),
    ("Equipment", "qty"): (0, 10_000),
    ("LastingInjury", "battle"): (0, 9_999),
    ("BattleSummary", "number"): (0, 9_999),
    ("Standing", "rating"): (0, 100_000_000),
    ("Standing", "reputation"): (-1_000_000, 1_000_000),  # a Gang's, as it was
    ("Standing", "credits"): (0, 10_000_000),
    ("BattleSetup", "number"): (0, 9_999),
    ("BattleSetup", "reinforcements_from_round"): (0, 1_000),
    ("SideSetup", "jokers"): (0, 2),
    ("Settings", "xp_awards"): (0, 1_000),
}

#: (dataclass name, field) -> the key of a post-battle ruleset's file that, when true, puts
#: the field's floor at 0 in a campaign of that ruleset, in place of the widest range in
#: :data:`RANGES` (for a value met before the campaign's ruleset is known). Gang War
#: (seed 004, Reputation): "Reputation cannot fall below 0." (``reputation_floor = true``);
#: Turf War 2017 (seed 002) sets no floor (readings: turf-reputation-floor).
RULESET_FLOORS: dict[tuple[str, str], str] = {
    ("Gang", "reputation"): "reputation_floor",
}


def _floored(owner: str, name: str, ruleset: str) -> str:
    """The title of ``ruleset`` when it floors the field at 0 ("" when it does not)."""
    key = RULESET_FLOORS.get((owner, name))
    if not key or not ruleset:
        return ""
    from .rulesets import ruleset_property

    return ruleset_property(str(ruleset), "title") if ruleset_property(str(ruleset), key) else ""


#: How a field is named in a message (default: its name).
LABELS: dict[tuple[str, str], str] = {
    ("Gang", "credits"): "Credits",
    ("Gang", "reputation"): "Reputation",
    ("Fighter", "xp"): "XP",
}

#: Most fighters in one gang (a Yaktribe import above it is refused). No rule of the game
#: caps a gang, but real ones are small: the real export in the fixtures has 18 fighters,
#: the app's performance league 30 a gang, and the tracker is measured at 60. Three
#: hundred is five times the largest gang the app is measured with and far beyond any
#: published gang list, while keeping an import, a save and a roster quick (an export
#: of 20,000 fighters took 14-18 s to import whole).
GANG_FIGHTERS_MAX = 300

#: Highest battle number (battle files are named ``0001.toml`` .. ``9999.toml``).
BATTLE_MAX = 9_999

#: A name (campaign, gang, fighter): what the forms accept.
NAME_MAX = 60
#: Any other text in a save (notes, a report, a rule text).
TEXT_DEFAULT_MAX = 200_000

#: (dataclass name, field) -> most characters.
TEXT_MAX: dict[tuple[str, str], int] = {
    ("Campaign", "name"): NAME_MAX,
    ("Campaign", "id"): NAME_MAX,
    ("Gang", "name"): NAME_MAX,
    ("Gang", "id"): 200,
    ("Gang", "player"): NAME_MAX,
    ("Fighter", "name"): NAME_MAX,
    ("Fighter", "id"): 200,
}

#: (dataclass name, field) -> the values an enumerated setting may take: a campaign's
#: settings and the config's defaults for new campaigns are checked at load with the
#: other values, and the settings screen offers exactly these (a hand-edited
#: ``subplot_decks = "nope"`` ended the app at the settings screen). The Lasting Injury
#: tables are rules/data/injuries.toml's (a test keeps the two the same).
_INJURY_TABLES = ("rulebook-2018", "core-2023")
_SUBPLOT_DECKS = ("house", "suit")


def _ruleset_ids() -> tuple[str, ...]:
    """The post-battle rulesets' ids: their data files' names (rules.rulesets, asked when
    a value is checked: no file is listed when this module is imported)."""
    from .rulesets import ruleset_ids

    return ruleset_ids()


CHOICES: dict[tuple[str, str], tuple[str, ...] | Callable[[], tuple[str, ...]]] = {
    ("Settings", "post_battle_ruleset"): _ruleset_ids,
    ("Settings", "lasting_injury_table"): _INJURY_TABLES,
    ("Settings", "subplot_decks"): _SUBPLOT_DECKS,
    ("Config", "post_battle_ruleset"): _ruleset_ids,
    ("Config", "lasting_injury_table"): _INJURY_TABLES,
    ("Config", "subplot_decks"): _SUBPLOT_DECKS,
}


#: the enumerated settings a pack may add a value to (a club's post-battle ruleset or
#: Lasting Injury table, issue 35): a value the package does not have is kept at load
#: when it is a pack item's id, and is looked up in the packs in force where it is used
#: (a campaign whose pack is missing still opens, and says so there)
PACK_CHOICES = {("Settings", "post_battle_ruleset"), ("Settings", "lasting_injury_table"),
                ("Config", "post_battle_ruleset"), ("Config", "lasting_injury_table")}


def is_pack_id(value: object) -> bool:
    """Text shaped like a pack item's id: 1-60 of a-z, 0-9, '-' and '_'."""
    return (isinstance(value, str) and 0 < len(value) <= 60
            and all(c in "abcdefghijklmnopqrstuvwxyz0123456789-_" for c in value))


def pack_choice(owner: str, name: str, value: object) -> bool:
    """A value of an enumerated setting a pack may supply (:data:`PACK_CHOICES`)."""
    return (owner, name) in PACK_CHOICES and is_pack_id(value)


def choices(owner: str, name: str) -> tuple[str, ...] | None:
    """The values the field ``name`` of dataclass ``owner`` may take, if it is one of
    the enumerated settings (:data:`CHOICES`)."""
    found = CHOICES.get((owner, name))
    return found() if callable(found) else found

#: Largest number a post-battle prompt with no stated maximum accepts.
ENTRY_MAX = 1_000_000


class LimitError(ValueError):
    """A value outside its range; the message never repeats a huge value."""


def show_number(value: int) -> str:
    """A number for a message: itself when short, else how many digits it has."""
    text = str(value) if abs(value) < 10**15 else ""
    if text:
        return text
    digits = len(str(abs(value))) if abs(value) < 10**4000 else "thousands of"
    return f"a {digits}-digit number"


def show_text(value: str, most: int = 30) -> str:
    """Text for a message: cut short, and never a character that cannot be printed."""
    clean = "".join(ch if ch.isprintable() and not _surrogate(ch) else "?" for ch in value[: most + 1])
    return repr(clean if len(value) <= most else clean[: most - 3] + "...")


def _surrogate(ch: str) -> bool:
    return "\ud800" <= ch <= "\udfff"


def range_of(owner: str, name: str) -> tuple[int, int] | None:
    return RANGES.get((owner, name))


def field_range(owner: str, name: str, ruleset: str = "") -> tuple[int, int] | None:
    """The field's range in a campaign of ``ruleset`` (its widest when not given)."""
    widest = RANGES.get((owner, name))
    if widest is not None and _floored(owner, name, ruleset):
        return (0, widest[1])
    return widest


def check_int(value: int, lo: int = INT64_MIN, hi: int = INT64_MAX, what: str = "") -> int:
    """``value`` if ``lo <= value <= hi``; LimitError otherwise."""
    if lo <= value <= hi:
        return value
    prefix = f"{what} " if what else ""
    if lo == INT64_MIN and hi == INT64_MAX:
        raise LimitError(f"{prefix}{show_number(value)} is too large to save (TOML integers are 64-bit)")
    raise LimitError(f"{prefix}{show_number(value)} is out of range ({lo} to {hi})")


def check_field_int(owner: str, name: str, value: int, ruleset: str = "") -> int:
    """``value`` if it is in the field's range (in a campaign of ``ruleset``, when its
    range depends on it); LimitError with the field's label."""
    lo, hi = field_range(owner, name, ruleset) or (INT64_MIN, INT64_MAX)
    if value < lo and lo == 0:
        title = _floored(owner, name, ruleset)
        under = f" under {title}" if title else ""
        raise LimitError(f"{LABELS.get((owner, name), name)} is never below 0{under} "
                         f"(found {show_number(value)})")
    return check_int(value, lo, hi, LABELS.get((owner, name), name))


def check_text(value: str, most: int = TEXT_DEFAULT_MAX, what: str = "") -> str:
    """``value`` if it is savable text of at most ``most`` characters."""
    prefix = f"{what} " if what else ""
    if len(value) > most:
        raise LimitError(f"{prefix}is {len(value)} characters long; at most {most}".lstrip())
    if not value.isascii():  # (C speed: a league's campaign holds ~20,000 texts)
        try:
            value.encode("utf-8")  # refuses exactly the lone surrogates
        except UnicodeEncodeError as error:
            raise LimitError(f"{prefix}holds an invalid character at position {error.start + 1} "
                             "(a lone surrogate)") from None
    return value


def check_field_text(owner: str, name: str, value: str) -> str:
    return check_text(value, TEXT_MAX.get((owner, name), TEXT_DEFAULT_MAX))


def check_name(value: str, what: str = "name") -> str:
    """A name typed or imported: not empty after trimming, at most NAME_MAX characters."""
    text = value.strip()
    if not text:
        raise LimitError(f"the {what} is empty")
    return check_text(text, NAME_MAX, f"the {what}")


def parse_int(text: Any, lo: int = INT64_MIN, hi: int = INT64_MAX, what: str = "") -> int:
    """A whole number from what a player typed, within range (LimitError / ValueError)."""
    raw = str(text).strip()
    body = raw[1:] if raw[:1] in "+-" else raw
    if not body.isdigit() or not body.isascii():
        raise ValueError(f"{show_text(raw)} is not a whole number")
    if len(body) > 30:
        raise LimitError(f"{what + ' ' if what else ''}a {len(body)}-digit number is out of range ({lo} to {hi})")
    return check_int(int(raw), lo, hi, what)
