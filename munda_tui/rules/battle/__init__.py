"""munda_tui.rules.battle.events: the battle's events, its record, the flow (BattleFlow), the Sub-plot watch and reveal."""
