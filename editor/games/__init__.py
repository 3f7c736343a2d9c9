"""Per-game editor parts (one subpackage per game pack)."""
