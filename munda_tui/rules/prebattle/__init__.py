"""munda_tui.rules.prebattle.flow: the scenario tables, crew selection and the pre-battle flow (PreBattle)."""
