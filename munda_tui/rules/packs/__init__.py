"""munda_tui.rules.packs: a club's packs checked as the app reads them (issue 35)."""
