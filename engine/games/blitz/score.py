"""The scorecard at game end (§12) and the scenario objectives."""

from __future__ import annotations

from typing import Any

from ...board.model import Objective, Scenario
from ...core.ruleset import Ruleset
from .state import GameState
from .units import LOST

ALIVE = frozenset({"badly_injured", "lightly_injured", "evacuated"})
INJURED = frozenset({"badly_injured", "lightly_injured"})


def _destroyed(state: GameState, rules: Ruleset) -> list[tuple[str, int]]:
    d = rules.int("damage.destroyed")
    return sorted(loc for loc, v in state.damage.items() if v >= d)


def objective_result(
    obj: Objective, scenario: Scenario, state: GameState, rules: Ruleset
) -> dict[str, Any]:
    """One objective with ``met`` true or false (and the figure it was judged on)."""
    d = rules.int("damage.destroyed")
    out: dict[str, Any] = {"type": obj.type}
    if obj.type == "protect":
        if obj.building is not None:
            out["building"] = obj.building
            areas = {a.id for a in scenario.areas if a.building == obj.building}
        else:
            out["area"] = obj.area
            areas = {obj.area} if obj.area else set()
        lost = sum(1 for (a, _), v in state.damage.items() if a in areas and v >= d)
        out["destroyed"] = lost
        out["met"] = lost == 0
    elif obj.type == "rescue":
        need = obj.at_least or 0
        alive = sum(1 for c in state.casualties if c.status in ALIVE and c.origin == "civilian")
        out["at_least"] = need
        out["rescued"] = alive
        out["met"] = alive >= need
    elif obj.type == "contain":
        limit = obj.max_destroyed if obj.max_destroyed is not None else 0
        n = len(_destroyed(state, rules))
        out["max_destroyed"] = limit
        out["destroyed"] = n
        out["met"] = n <= limit
    else:
        out["met"] = False
        out["error"] = f"unknown objective type {obj.type!r}"
    return out


def scorecard(scenario: Scenario, state: GameState, rules: Ruleset) -> dict[str, Any]:
    """Locations destroyed, fires burning, casualties by outcome, units lost, objectives."""
    by: dict[str, int] = {}
    for c in state.casualties:
        by[c.status] = by.get(c.status, 0) + 1
    lost = sum(1 for u in state.units.values() if u.status in LOST)
    return {
        "destroyed": len(_destroyed(state, rules)),
        "burning": len(state.fire),
        "dead": by.get("dead", 0),
        "injured": sum(by.get(s, 0) for s in INJURED),
        "rescued": sum(by.get(s, 0) for s in ALIVE),
        "buried": by.get("buried", 0) + by.get("located", 0),
        "casualties": dict(sorted(by.items())),
        "units_lost": lost,
        "objectives": [objective_result(o, scenario, state, rules) for o in scenario.objectives],
    }
