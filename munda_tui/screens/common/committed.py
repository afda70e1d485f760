"""A commit of the open campaign's values, told to every screen (issue 33.4).

The campaign handle owns the campaign's values: a stage move, a roster edit, the
settings, an import build new values and the handle commits them (one transaction that
lands whole or leaves the old values). Screens hold no campaign object of their own: they
read ``handle.campaign`` and, told by :class:`CampaignCommitted` (the app posts it to every
screen on the stack after a commit lands: ``MundaApp.commit_campaign``), show it again.
"""

from __future__ import annotations

from textual.message import Message


class CampaignCommitted(Message):
    """The open campaign's values were committed: a screen that shows them shows them
    again (``what``: what was committed, as the commit's caller named it)."""

    def __init__(self, what: str = "") -> None:
        super().__init__()
        self.what = what


__all__ = ["CampaignCommitted"]
