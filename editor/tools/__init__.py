"""Canvas tools: one class per tool, each with an explicit state enum (Tiled's pattern)."""
