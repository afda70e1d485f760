"""munda_tui.rules.subplots.decks: the House Sub-plot decks and the draw."""
