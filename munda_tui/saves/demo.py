"""The demo campaign on disk (``munda-tui --demo``, and tests)."""

from __future__ import annotations

from pathlib import Path

from ..rules.campaign.demo import demo_campaign
from .store import Store


def ensure_demo(data_dir: Path) -> str:
    """Create the demo campaign in ``data_dir`` unless it is there; its slug."""
    store = Store(data_dir)
    campaign = demo_campaign()
    if campaign.id not in {info.slug for info in store.list_campaigns()}:
        store.create_campaign(campaign).close()
    return campaign.id
