"""Per-game printed aids (one subpackage per game pack)."""
