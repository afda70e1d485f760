"""munda_tui.rules.core: the shared core: the model, dice, cards, limits, wording, the rule data reader, the rulesets' discovery, the readings, a battle's outcome."""
