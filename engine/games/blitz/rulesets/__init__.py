"""Ruleset data files."""
