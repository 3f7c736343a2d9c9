"""Layouts and starter scenarios (data)."""
