"""The battle tracker and its modals (attack, choice, end, hand, log, reinforcements, reveal)."""
