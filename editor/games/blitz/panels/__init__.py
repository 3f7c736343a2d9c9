"""BLITZ!'s panels in the polygon editor: Scenario, Forces, Issues, Test turn (and its
event list)."""
