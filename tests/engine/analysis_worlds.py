"""Small worlds and a tolerance shared by the analysis and fast-core tests."""

from __future__ import annotations

import dataclasses
import math

from fireground.engine.board.model import (
    Area,
    AreaKind,
    Building,
    Feature,
    FeatureType,
    LocationValue,
    Material,
    Objective,
    Scenario,
    Start,
    Wind,
)


def sq(x: float, y: float, w: float = 10, h: float = 10) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def row(n: int = 2, **kw: object) -> Scenario:
    """``n`` one-level buildings B0..B(n-1) in a row, east of each other, no bombing."""
    areas = tuple(
        Area(f"B{i}", AreaKind.BUILDING, sq(10 * i, 0), building=f"b{i}") for i in range(n)
    )
    buildings = tuple(Building(f"b{i}", name=f"House {i}") for i in range(n))
    base = Scenario(name="row", bombing=False, areas=areas, buildings=buildings)
    return dataclasses.replace(base, **kw)  # type: ignore[arg-type]


def fire_at(*cells: tuple[str, int, int]) -> tuple[LocationValue, ...]:
    return tuple(LocationValue(a, lv, f) for a, lv, f in cells)


def close(observed: float, p: float, n: int) -> bool:
    """Within 4 standard errors of the exact chance (a false alarm about 1 in 16,000)."""
    return abs(observed - p) <= 4 * math.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-12


def mixed_scenario() -> Scenario:
    """Small but with most rules in play: levels, stairs and climbing, a basement, stores,
    a rubble street, a jump gap, strong wind and bombing."""
    areas = (
        Area("A1", AreaKind.BUILDING, sq(0, 0), building="a"),
        Area("A2", AreaKind.BUILDING, sq(10, 0), building="a"),
        Area("W1", AreaKind.BUILDING, sq(20, 0), building="w"),
        Area("R1", AreaKind.STREET, sq(0, 10, 30, 10)),
        Area("C1", AreaKind.BUILDING, sq(0, 20), building="c"),
        Area("C2", AreaKind.BUILDING, sq(10, 20), building="c"),
        Area("Y1", AreaKind.OPEN, sq(20, 20)),
        Area("P1", AreaKind.BUILDING, sq(30, 20), building="p"),
    )
    buildings = (
        Building("a", "Chapel", levels=3, basement=True),
        Building("w", "Woodyard", levels=1),
        Building("c", "Cinema", levels=2),
        Building("p", "Garage", levels=1),
    )
    features = (
        Feature(FeatureType.STAIRWELL, "A1"),
        Feature(FeatureType.STORE, "W1", level=0, material=Material.WOOD),
        Feature(FeatureType.STORE, "C2", level=0, material=Material.OIL),
        Feature(FeatureType.STORE, "P1", level=0, material=Material.PETROL),
        Feature(FeatureType.OCCUPANTS, "C1", level=1, count=3),
    )
    start = Start(fires=fire_at(("A2", 1, 2), ("W1", 0, 1)), rubble=("Y1",))
    return Scenario(
        name="mixed",
        areas=areas,
        buildings=buildings,
        features=features,
        start=start,
        wind=Wind("S", strong=True),
        bombing=True,
        objectives=(Objective("protect", building="c"), Objective("contain", max_destroyed=3)),
    )
