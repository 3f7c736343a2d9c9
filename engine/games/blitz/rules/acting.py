"""One action a turn: which units have already moved or started work in step 6 (§4)."""

from __future__ import annotations

from ..state import GameState
from ..units import UnitState


def acted(state: GameState, u: UnitState) -> bool:
    """Whether a unit has already moved or started work this turn."""
    return bool(u.extra.get("acted") == state.turn)


def mark(state: GameState, u: UnitState) -> None:
    u.extra["acted"] = state.turn
