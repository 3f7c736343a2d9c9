"""Scenarios built in code for the export tests and the benchmark (no loader needed)."""

from __future__ import annotations

from fireground.engine.board.model import (
    Area,
    AreaKind,
    Building,
    Feature,
    FeatureType,
    ForceUnit,
    LocationRef,
    LocationValue,
    Material,
    Objective,
    Scale,
    Scenario,
    Start,
    Wind,
)


def square(x: float, y: float, w: float = 10.0, h: float = 10.0) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def small_scenario(name: str = "Paternoster Row, 29 December 1940") -> Scenario:
    """Two buildings north of a street, a yard, the river: every feature and marker kind."""
    areas = [
        Area("S1", AreaKind.BUILDING, square(0, 0), building="simpkin"),
        Area("S2", AreaKind.BUILDING, square(10, 0), building="simpkin"),
        Area("S3", AreaKind.BUILDING, square(20, 0), building="simpkin"),
        Area("L1", AreaKind.BUILDING, square(30, 0), building="longman"),
        Area("L2", AreaKind.BUILDING, square(30, 10), building="longman"),
        Area("Y1", AreaKind.OPEN, square(0, 10, 30, 10)),
        Area("R1", AreaKind.STREET, square(0, -10, 20, 10)),
        Area("R2", AreaKind.STREET, square(20, -10, 20, 10)),
        Area("THAMES", AreaKind.WATER, square(0, -25, 40, 15)),
    ]
    return Scenario(
        name=name,
        description="Incendiaries on the publishers' quarter north of St Paul's. "
        "Hold the warehouses until the All Clear.",
        scale=Scale(area_cm=10, figure_mm=25),
        turns=12,
        seed=1940,
        wind=Wind("SW", strong=True),
        buildings=(
            Building("simpkin", "Simpkin Marshall warehouse", levels=4),
            Building("longman", "Longman's", levels=2, basement=True),
        ),
        areas=tuple(areas),
        features=(
            Feature(FeatureType.STAIRWELL, "S1"),
            Feature(FeatureType.STAIRWELL, "L1"),
            Feature(FeatureType.STORE, "S2", level=0, material=Material.WOOD),
            Feature(FeatureType.STORE, "L2", level=-1, material=Material.OIL),
            Feature(FeatureType.HYDRANT, "R1", pressure=3),
            Feature(FeatureType.WATER, "THAMES", points=1000, name="River Thames"),
            Feature(FeatureType.OCCUPANTS, "S3", level=2, count=4),
            Feature(FeatureType.ENTRY, "R2", name="from Cheapside"),
            Feature(FeatureType.LABEL, "S1", text="Paper store"),
        ),
        start=Start(
            fires=(LocationValue("S3", 3, 2), LocationValue("S2", 0, 1)),
            embers=(LocationRef("S1", 1),),
            damp=(LocationValue("L1", 0, 2),),
            damage=(LocationValue("S3", 3, 3),),
            rubble=("R2",),
        ),
        forces=(
            ForceUnit("E1", "escape_carrying_unit", area="R1"),
            ForceUnit("T1", "turntable_ladder_unit", entry="from Cheapside", arrives=4),
            ForceUnit("FP1", "fire_party", area="S1", level=3),
        ),
        objectives=(
            Objective("protect", building="simpkin"),
            Objective("rescue", at_least=3),
            Objective("contain", max_destroyed=6),
        ),
    )


def grid_scenario(cols: int, rows: int, levels: int = 1, cell: float = 10.0) -> Scenario:
    """A large city block pattern: rows of buildings between streets."""
    areas: list[Area] = []
    buildings: list[Building] = []
    for j in range(rows):
        for i in range(cols):
            x, y = i * cell, j * cell
            if j % 3 == 2:
                areas.append(Area(f"R{i}_{j}", AreaKind.STREET, square(x, y, cell, cell)))
            else:
                bid = f"b{i // 2}_{j // 3}"
                if not buildings or (
                    buildings[-1].id != bid and bid not in {b.id for b in buildings}
                ):
                    buildings.append(Building(bid, f"Block {bid}", levels=levels))
                areas.append(
                    Area(f"A{i}_{j}", AreaKind.BUILDING, square(x, y, cell, cell), building=bid)
                )
    fires = tuple(
        LocationValue(a.id, 0, 1 + k % 5)
        for k, a in enumerate(areas)
        if a.kind is AreaKind.BUILDING and k % 17 == 0
    )
    return Scenario(
        name=f"Synthetic {cols}×{rows}",
        buildings=tuple(buildings),
        areas=tuple(areas),
        features=tuple(
            Feature(FeatureType.HYDRANT, a.id, pressure=3)
            for k, a in enumerate(areas)
            if a.kind is AreaKind.STREET and k % 7 == 0
        ),
        start=Start(fires=fires),
    )
