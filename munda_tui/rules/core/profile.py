"""A fighter's profile as the game writes it.

Twelve characteristics. Movement, Strength, Toughness, Wounds and Attacks are
plain numbers (``4``); Weapon Skill, Ballistic Skill, Initiative, Leadership,
Cool, Willpower and Intelligence are *target numbers* (``3+``: the roll needed;
a Fighter card prints Initiative as ``4+``, an Initiative test is a D6 roll).
A better target number is a lower one, so a -1 to WS 4+ gives 5+ and a +1 to
Ld 8+ gives 7+.

In memory a profile is ``dict[str, int]`` keyed by :data:`CHARACTERISTICS`
(a target number ``3+`` is held as ``3``; a characteristic the fighter does
not have, written ``-``, is simply absent). On disk and on screen the target
numbers carry their ``+``: :func:`encode` / :func:`decode` are what the saves
codec uses, :func:`format_value` / :func:`format_profile` what screens show.

Each characteristic has a usual range (:data:`LIMITS`): a plain characteristic
1 to 12, a WS/BS/I 2+ to 6+ (a D6 roll), a Ld/Cl/Wil/Int 2+ to 12+ (a 2D6 roll).
The game can go beyond it through advancements, skills and special rules (a
Nacht-Ghul's WS 1+ in a real Yaktribe export), so a value outside it is kept as it
is, wherever it comes from (an import, a save, a hand edit, the catalogue, a pack,
the forms), and :func:`unusual` names it where the value arrives (an import's
notes). Only what cannot be read as a characteristic is refused
(:func:`check_value`): a value that is not a whole number from 1 (1+) to
:data:`READABLE_MAX` (the two digits of a fighter card's box). The limits of a
fighter's own book (its maximum profile) are the player's to keep.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

#: Profile order, as a Fighter card prints it.
CHARACTERISTICS: tuple[str, ...] = (
    "m", "ws", "bs", "s", "t", "w", "i", "a", "ld", "cl", "wil", "int",
)

#: Characteristics written as a target number (``3+``).
TARGETS: frozenset[str] = frozenset({"ws", "bs", "i", "ld", "cl", "wil", "int"})

#: The card's column heads.
LABELS: dict[str, str] = {
    "m": "M", "ws": "WS", "bs": "BS", "s": "S", "t": "T", "w": "W", "i": "I",
    "a": "A", "ld": "Ld", "cl": "Cl", "wil": "Wil", "int": "Int",
}

#: Full names, as Lasting Injury and advancement texts spell them.
NAMES: dict[str, str] = {
    "m": "Movement", "ws": "Weapon Skill", "bs": "Ballistic Skill", "s": "Strength",
    "t": "Toughness", "w": "Wounds", "i": "Initiative", "a": "Attacks",
    "ld": "Leadership", "cl": "Cool", "wil": "Willpower", "int": "Intelligence",
}

#: Possible values: (lowest, highest). Target numbers: the best and worst roll.
LIMITS: dict[str, tuple[int, int]] = {
    **{k: (1, 12) for k in ("m", "s", "t", "w", "a")},
    "ws": (2, 6), "bs": (2, 6), "i": (2, 6),  # a D6 roll
    **{k: (2, 12) for k in ("ld", "cl", "wil", "int")},  # a 2D6 roll
}

#: The largest value a characteristic can be read as (a fighter card's box holds two
#: digits); 1 (1+) is the smallest. What lies between is kept, usual or not.
READABLE_MAX = 99

_ALIASES: dict[str, str] = {
    **{k: k for k in CHARACTERISTICS},
    **{v.lower(): k for k, v in NAMES.items()},
    "move": "m", "str": "s", "tough": "t", "wounds": "w", "init": "i", "att": "a",
    "lead": "ld", "will": "wil", "intel": "int", "intellect": "int",
}

Profile = dict[str, int]


class ProfileError(ValueError):
    """A characteristic value the game cannot have, or text that is not one."""


def is_target(key: str) -> bool:
    return key in TARGETS


def key_of(name: str) -> str:
    """``"Ballistic Skill"`` / ``"BS"`` / ``"bs"`` -> ``"bs"`` (ProfileError if unknown)."""
    key = _ALIASES.get(re.sub(r"\s+", " ", str(name).strip().lower()))
    if key is None:
        raise ProfileError(f"{name!r} is not a characteristic")
    return key


def check_value(key: str, value: int) -> int:
    """``value`` if it can be read as the characteristic ``key`` (1 to
    :data:`READABLE_MAX`, usual or not: see :func:`unusual`), else ProfileError
    naming the characteristic and the value."""
    if key not in LIMITS:
        raise ProfileError(f"{key!r} is not a characteristic")
    lo, hi = 1, READABLE_MAX
    if not lo <= value <= hi:
        from .limits import show_number

        found = show_number(value)
        if is_target(key):
            raise ProfileError(
                f"{LABELS[key]} is a target number from {lo}+ to {hi}+ "
                f"(found {found}{'+' if 0 <= value < 10**15 else ''})"
            )
        raise ProfileError(f"{LABELS[key]} is a number from {lo} to {hi} (found {found})")
    return value


def unusual(key: str, value: int) -> str:
    """"" when ``value`` is in the characteristic's usual range (:data:`LIMITS`), else
    the words that name it: ``"WS 1+ is beyond the usual 2+ to 6+"``."""
    lo, hi = LIMITS[key]
    if lo <= value <= hi:
        return ""
    return (f"{LABELS[key]} {format_value(key, value)} is beyond the usual "
            f"{format_value(key, lo)} to {format_value(key, hi)}")


def format_value(key: str, value: int | None) -> str:
    """``"3+"`` for a target number, ``"4"`` for a plain one, ``"-"`` for none."""
    if value is None:
        return "-"
    return f"{value}+" if is_target(key) else str(value)


def parse_value(key: str, text: str) -> int | None:
    """What a player typed for one characteristic: ``"3+"`` (or ``"3"``) for a
    target number, ``"4"`` for a plain one, ``"-"`` for none (None).
    ProfileError with the message to show."""
    raw = str(text).strip()
    if raw in ("-", "—"):
        return None
    if not raw:
        raise ProfileError(f"{LABELS.get(key, key)} is required (or - for none)")
    body = raw[:-1].strip() if raw.endswith("+") else raw
    if raw.endswith("+") and not is_target(key):
        raise ProfileError(f"{LABELS[key]} is a plain number, not a target number (found {raw!r})")
    if not re.fullmatch(r"\d+", body):
        want = "a target number like 3+" if is_target(key) else "a whole number"
        raise ProfileError(f"{LABELS.get(key, key)} is {want} (found {raw!r})")
    return check_value(key, int(body))


def format_profile(profile: Mapping[str, int], *, sep: str = " ") -> str:
    """``"M 5 WS 3+ BS 4+ ..."`` (absent characteristics as ``-``)."""
    return sep.join(f"{LABELS[k]} {format_value(k, profile.get(k))}" for k in CHARACTERISTICS)


def parse_profile(text: str) -> Profile:
    """A whole profile on one line: twelve values in card order
    (``5 3+ 4+ 3 3 1 4+ 1 7+ 7+ 8+ 8+``, ``-`` for none) or labelled pairs
    (``M5 WS3+ BS4+ ...`` / ``M 5, WS 3+``; missing ones stay absent)."""
    tokens = [t for t in re.split(r"[\s,;|/]+", str(text).strip()) if t]
    if not tokens:
        raise ProfileError("an empty profile")
    out: Profile = {}
    labelled = [re.fullmatch(r"([A-Za-z]+)\s*:?\s*([0-9]+\+?|-)?", t) for t in tokens]
    if all(m is None for m in labelled):
        if len(tokens) != len(CHARACTERISTICS):
            raise ProfileError(
                f"{len(tokens)} values; a profile has {len(CHARACTERISTICS)} "
                f"({' '.join(LABELS[k] for k in CHARACTERISTICS)})"
            )
        for key, token in zip(CHARACTERISTICS, tokens):
            value = parse_value(key, token)
            if value is not None:
                out[key] = value
        return out
    pending: str | None = None
    for token, match in zip(tokens, labelled):
        if match is not None and match.group(2) is not None:
            key = key_of(match.group(1))
            value = parse_value(key, match.group(2))
        elif match is not None:
            pending = key_of(match.group(1))
            continue
        elif pending is not None:
            key, pending = pending, None
            value = parse_value(key, token)
        else:
            raise ProfileError(f"{token!r}: which characteristic? (e.g. WS 3+)")
        if key in out:
            raise ProfileError(f"{LABELS[key]} given twice")
        if value is not None:
            out[key] = value
    if pending is not None:
        raise ProfileError(f"{LABELS[pending]} has no value")
    return out


def modified(key: str, value: int, delta: int) -> int:
    """``value`` improved by ``delta`` (negative: worsened), in the game's
    sense: +1 to WS 4+ is 3+, -1 to M 5 is 4. Not clamped: see :func:`apply`."""
    return value - delta if is_target(key) else value + delta


def apply(profile: Profile, changes: list[tuple[str, int]], *, clamp: bool) -> list[str]:
    """Apply ``(key, delta)`` changes to ``profile`` in place. Returns a line
    per change (``"BS 3+ -> 4+"``). With ``clamp`` a result beyond the
    possible range stops at the limit (and says so); without it the change
    is refused with ProfileError and the profile is left as it was. A
    characteristic the fighter does not have (``-``) is left alone."""
    new = dict(profile)
    lines: list[str] = []
    for key, delta in changes:
        if key not in new:
            lines.append(f"{LABELS[key]} - (none): unchanged")
            continue
        old = new[key]
        value = modified(key, old, delta)
        lo, hi = LIMITS[key]
        # a value already beyond the usual range (kept as the game reached it) is its
        # own limit: an advancement never worsens WS 1+ to 2+
        lo, hi = min(lo, old), max(hi, old)
        if not lo <= value <= hi:
            if not clamp:
                check_value(key, value)
            value = min(max(value, lo), hi)
            note = " (at its limit)"
        else:
            note = ""
        new[key] = value
        lines.append(f"{LABELS[key]} {format_value(key, old)} -> {format_value(key, value)}{note}")
    profile.clear()
    profile.update(new)
    return lines


#: compiled on first use (re's own cache): effects are parsed after a battle, not to start
_EFFECT_RE = (r"([+-]\d+)\s+([A-Za-z][A-Za-z ]*?)(?=\s*(?:,|and\b|$))", re.I)


def parse_effect(text: str) -> list[tuple[str, int]]:
    """The characteristic changes an effect text names: ``"-1 Leadership, -1
    Cool"`` -> ``[("ld", -1), ("cl", -1)]``. Text that names none gives []
    (``"goes into Recovery"``); a ``+/-N Name`` whose name is not a
    characteristic is a ProfileError."""
    out: list[tuple[str, int]] = []
    text = str(text).replace("\u2212", "-").replace("\u2013", "-")  # a typographic minus
    for match in re.compile(*_EFFECT_RE).finditer(text):
        out.append((key_of(match.group(2)), int(match.group(1))))
    return out


def format_changes(changes: list[tuple[str, int]]) -> str:
    return ", ".join(f"{d:+d} {NAMES[k]}" for k, d in changes)


# --- on disk -------------------------------------------------------------------


def encode(profile: Mapping[str, int]) -> dict[str, Any]:
    """Plain data for a save: target numbers as ``"3+"``, plain ones as ints,
    in card order."""
    return {
        k: (f"{profile[k]}+" if is_target(k) else profile[k])
        for k in CHARACTERISTICS
        if k in profile
    }


def decode_value(key: str, data: Any) -> int | None:
    """One saved value. Accepts what this version writes (``"3+"``, ``4``) and
    what earlier versions wrote (a bare integer for a target number; ``0``
    for a characteristic the fighter does not have)."""
    if isinstance(data, bool):
        raise ProfileError(f"expected {'a target number like 3+' if is_target(key) else 'an integer'}, found a boolean")
    if isinstance(data, int):
        if data == 0:
            return None
        return check_value(key, data)
    if isinstance(data, str) and (is_target(key) or data.strip() == "-"):
        return parse_value(key, data)
    raise ProfileError(
        f"expected {'a target number like 3+' if is_target(key) else 'an integer'}, "
        f"found {data!r}"
    )
