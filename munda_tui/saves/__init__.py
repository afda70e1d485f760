"""Every byte on disk: campaign folders, battle files, backups, the lock, config.

See ARCHITECTURE.md ("Saves") for the contract.
"""

from .errors import CampaignLocked, SaveError
from .paths import default_config_dir, default_data_dir
from .store import CampaignHandle, CampaignInfo, Store

__all__ = [
    "CampaignHandle",
    "CampaignInfo",
    "CampaignLocked",
    "SaveError",
    "Store",
    "default_config_dir",
    "default_data_dir",
]
