"""A campaign's settings a pack may supply (its post-battle ruleset, its Lasting Injury
table): which pack each comes from, and those no pack in force here has.

Apart from :mod:`munda_tui.rules.packs.check` because a campaign asks this as it opens,
before its first frame: nothing of the packs' checks is read for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.data import RuleData

if TYPE_CHECKING:
    from ..core.model import Settings


#: the settings a pack may supply, and the kind of pack item each one names
SETTING_KINDS = {"post_battle_ruleset": "postbattle", "lasting_injury_table": "injuries"}
SETTING_WORDS = {"post_battle_ruleset": "post-battle ruleset",
                 "lasting_injury_table": "Lasting Injury table"}


def note_setting_packs(settings: Settings, data: RuleData | None) -> bool:
    """Record in ``settings.from_packs`` the pack each pack-supplied setting comes from
    (the package's: no entry), as the packs in force say; a value no pack in force has
    keeps what was recorded (the pack missing here is the one to name). True when it
    changed."""
    from ..core.limits import choices

    data = data if data is not None else RuleData()
    before = dict(settings.from_packs)
    out = dict(before)
    for field_name, kind in SETTING_KINDS.items():
        value = str(getattr(settings, field_name, ""))
        if not data.packs and value in (choices("Settings", field_name) or ()):
            out.pop(field_name, None)  # (no pack in force: the package's own, nothing read)
            continue
        item = data.item(kind, value) if value else None
        if item is None:
            continue  # (not in force here: what was recorded stays)
        if item.source.pack:
            out[field_name] = item.source.pack
        else:
            out.pop(field_name, None)
    out = {k: v for k, v in out.items() if k in SETTING_KINDS}
    if out != before:
        settings.from_packs = out
        return True
    return False


def settings_not_in_force(settings: Settings, data: RuleData | None = None) -> list[tuple[str, str, str]]:
    """A campaign's settings a pack may supply (its post-battle ruleset, its Lasting Injury
    table) whose value neither the package nor a pack in force has: (field, value, the
    message: which pack is missing, when the campaign recorded it, and what to do). A
    campaign loads with such a value (nothing is lost: its pack may be missing on this
    machine); the app says so when it opens and ``munda-tui check`` says the same."""
    from ..core.limits import PACK_CHOICES, choices

    def rulesets() -> tuple[str, ...]:
        from ..core.rulesets import ruleset_ids

        return tuple(ruleset_ids(data))

    def injury_tables() -> tuple[str, ...]:
        from ..postbattle.core import injury_tables

        return tuple(injury_tables(data))

    # (each read only for a value not the package's own: not as a campaign opens)
    known = {"post_battle_ruleset": rulesets, "lasting_injury_table": injury_tables}
    out: list[tuple[str, str, str]] = []
    recorded = getattr(settings, "from_packs", {}) or {}
    for field_name, values_of in known.items():
        if ("Settings", field_name) not in PACK_CHOICES:
            continue
        value = str(getattr(settings, field_name, ""))
        if not value or value in (choices("Settings", field_name) or ()):
            continue  # (the package's own: nothing more is read as a campaign opens)
        values = values_of()
        if value not in values:
            out.append((field_name, value, missing_setting_words(
                field_name, value, str(recorded.get(field_name, "")))))
    return out


def missing_setting_words(field_name: str, value: str, pack: str) -> str:
    """What a campaign whose setting no pack in force has says, and what the player can do."""
    what = f"the {SETTING_WORDS.get(field_name, field_name)} {value!r}"
    whose = (f"comes from the pack {pack!r}, which is not in force on this computer"
             if pack else "is in no pack in force on this computer (the campaign does not "
             "record which pack has it: a pack missing here, or a typo)")
    return (f"{what} {whose}. Nothing is lost: the campaign opens as it is. To play it, get "
            f"the pack{' ' + repr(pack) if pack else ''}: put it in your packs folder, or have "
            "it added to the campaign (munda-tui pack add PACK --campaign C) so a league's "
            "sync brings it; or choose another in the settings (s)")
