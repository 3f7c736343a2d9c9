"""What every check reads: the scenario with its shapes, graph and ruleset, computed once
(:class:`CheckContext`), and what every check returns (:class:`Finding`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from ....board.graph import MapGraph, build_graph
from ....board.model import AreaKind, Location, Scenario
from ....board.shapes import raw_shapes
from ....core.ruleset import Ruleset, load_ruleset

Severity = Literal["error", "warning"]
#: Highest ladder rating when the ruleset lists none (turntable ladder, §7).
DEFAULT_LADDER_REACH = 4


@dataclass(frozen=True)
class Finding:
    """One problem: a stable ``code`` (FG1nn), severity, message and where it is."""

    code: str
    severity: Severity
    message: str
    area: str | None = None
    level: int | None = None
    line: int | None = None
    #: Where in the scenario: ("forces", 2), ("features", 5), ("objectives", 0), … (not
    #: compared: two findings that say the same are one).
    path: tuple[str | int, ...] | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return f"{self.code} {self.message}"

    @property
    def sort_key(self) -> tuple[int, int, str, str, int, str]:
        return (
            0 if self.severity == "error" else 1,
            self.line if self.line is not None else 1 << 30,
            self.code,
            self.area or "",
            self.level if self.level is not None else -99,
            self.message,
        )


class CheckContext:
    """Shared, lazily computed inputs of the checks."""

    def __init__(self, scenario: Scenario) -> None:
        self.s = scenario
        self.area_line = {a.id: scenario.line_of("areas", i) for i, a in enumerate(scenario.areas)}

    @cached_property
    def raw(self) -> Any:
        """Polygons as drawn (maybe invalid, empty where none can be built)."""
        return raw_shapes(self.s.areas)

    @cached_property
    def graph(self) -> MapGraph:
        return build_graph(self.s, raw_shapes=self.raw)

    @cached_property
    def ruleset(self) -> Ruleset | None:
        try:
            return load_ruleset(self.s.ruleset, self.s.house_rules)
        except Exception:
            try:
                return load_ruleset("blitz")
            except Exception:
                return None

    @cached_property
    def units(self) -> dict[str, dict[str, Any]]:
        return dict(self.ruleset.units) if self.ruleset is not None else {}

    @cached_property
    def geoms(self) -> Any:
        return self.graph.shapes

    def levels(self, area: str) -> range:
        return self.s.levels_of(area)

    def kind(self, area: str) -> AreaKind | None:
        a = self.s.area_by_id.get(area)
        return a.kind if a is not None else None

    @cached_property
    def foot_reach(self) -> set[Location]:
        """Locations a firefighter reaches from a street: on foot (stairs included), or by a
        ladder pitched in a street/open area next to the building (§7)."""
        g = self.graph
        areas = self.s.areas
        kinds = {AreaKind.STREET}
        if not any(a.kind is AreaKind.STREET for a in areas):
            kinds.add(AreaKind.OPEN)
        seeds: list[Location] = [(a.id, 0) for a in areas if a.kind in kinds]
        return set(g.hose_steps_from(seeds, ladders=self.ladder_reach))

    @cached_property
    def ladder_reach(self) -> int:
        return ladder_reach(self.units)

    def finding(
        self,
        code: str,
        severity: Severity,
        message: str,
        area: str | None = None,
        level: int | None = None,
        path: tuple[str | int, ...] | None = None,
    ) -> Finding:
        line = self.s.line_of(*path) if path else None
        if line is None and area is not None:
            line = self.area_line.get(area)
        return Finding(code, severity, message, area, level, line, path)


def ladder_reach(units: dict[str, dict[str, Any]]) -> int:
    """The highest ladder rating in the unit catalogue (how high a ladder takes hose)."""
    ratings = [
        int(ld.get("rating", 0))
        for u in units.values()
        for ld in (u.get("ladders") or [])
        if isinstance(ld, dict)
    ]
    return max(ratings, default=DEFAULT_LADDER_REACH)
