"""The home screen (campaign list) and the new-campaign form."""
