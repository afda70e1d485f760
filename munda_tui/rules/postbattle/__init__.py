"""munda_tui.rules.postbattle.sequence: the post-battle sequence (PostBattle): its core, steps, actions, changes, report."""
