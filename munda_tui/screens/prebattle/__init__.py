"""The pre-battle flow: the screen, its step panels, its modals and the Sub-plot draw."""
