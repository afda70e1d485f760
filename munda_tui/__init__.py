"""munda-tui: a keyboard-driven terminal companion for Necromunda."""

__version__ = "0.1.0"
