"""One campaign: its overview, rosters, fighter forms, charts, settings, gang import."""
