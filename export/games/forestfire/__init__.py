"""Forest Fire's printed aids: board strip, counters, reference card, briefing, turn report."""
