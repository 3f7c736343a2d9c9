"""Helpers shared by the editor tests."""

from __future__ import annotations


def sq(x: float, y: float, w: float = 10, h: float = 10) -> tuple[tuple[float, float], ...]:
    """A w x h rectangle with its south-west corner at (x, y)."""
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))
