"""Game-agnostic drivers: a game played at the table (the game file, the table turn and the
table delta)."""
