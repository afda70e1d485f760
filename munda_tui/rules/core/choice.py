"""One option of a question the player answers by picking (the post-battle sequence's
choices, the Sub-plot effects' questions asked inside it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Option:
    id: str
    label: str
    enabled: bool = True
    reason: str = ""  # why it is greyed out
    detail: str = ""  # rules text shown while the option is highlighted


__all__ = ["Option"]
