"""munda_tui.rules.stages: the stage host's rules above the three stages: the battle file as
typed parts (BattleFile), decoded once when a battle is opened, and the post-battle commit."""
