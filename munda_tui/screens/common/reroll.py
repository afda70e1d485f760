"""Asks why a roll already made changes: a re-roll or a correction is never silent.

``R`` on a rolled line (pre-battle) or after a roll (post-battle) opens this; the
reason is kept with both results in the record, and the report shows
"re-rolled: 1 → 6, reason". The new roll itself is then made with the
:class:`~munda_tui.screens.common.dice_prompt.DicePrompt` (``r`` or real dice).
"""

from __future__ import annotations

from munda_tui.screens.common.dialogs import LineScreen, squash


def reroll_reason(label: str, was: str) -> LineScreen:
    """The kit's type-a-line dialog asking why ``label`` (now ``was``) changes; it
    dismisses with the reason (spaces squashed, never empty) or None on Escape."""
    return LineScreen(
        f"Re-roll or correct: {label}",
        detail=f"Now: {was}. Both results stay in the record and the report.",
        placeholder="why? (a skill, a rule, a typing slip ...), then Enter",
        empty_error="Say why the roll changes: both players see it in the report.",
        clean=squash,
        hint="",
        cancel_label="Keep the roll",
        classes="warning",
    )
