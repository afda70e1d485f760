"""munda_tui.rules.campaign: the campaign between battles: roster, careers, catalogue, standings, reports and their formats, imports and exports."""
