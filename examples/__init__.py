"""Bundled example scenarios (data)."""
