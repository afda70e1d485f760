"""munda_tui.rules.history: the campaign as its records: the fold that turns them into gangs, battle numbers and league questions."""
