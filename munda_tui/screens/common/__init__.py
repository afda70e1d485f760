"""Shared screens: dialogs, help, the card viewer and its command provider."""
