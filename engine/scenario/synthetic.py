"""A large, deterministic synthetic city for benchmarks and stress tests.

:func:`synthetic_city` lays out a square grid of city blocks, 50 cm apart. Each block
*period* holds an L of street (five 10 cm segments along its south side, four up its west
side) and a 40 x 40 cm block of sixteen 10 cm building areas, split into two or four
buildings of one to six levels (some with a basement); a few blocks are parks instead. The
first row of blocks also has a strip of river below its street. Stairwells, hydrants,
stores, occupants, incendiaries, entries and a handful of units are sprinkled on by a
seeded generator, so one (n_areas, seed) pair always gives the same scenario.

Every corner lies on the 10 cm grid: areas meet along exact shared edges and never overlap.
The area list is cut at exactly ``n_areas``; areas come block by block, streets first and
building areas from the south, so a cut block is still reachable from its street.

>>> s = synthetic_city(60, seed=1)
>>> len(s.areas)
60
>>> s == synthetic_city(60, seed=1)
True
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass, field

from ..board.model import (
    COMPASS,
    Area,
    AreaKind,
    Building,
    Feature,
    FeatureType,
    ForceUnit,
    LocationValue,
    Material,
    Objective,
    Point,
    Scenario,
    Start,
    Wind,
)

#: Table cm of one area side, and of one block period (a 40 cm block + a 10 cm street).
CELL = 10
PERIOD = 50
#: Areas per period: 9 street segments + 16 building (or park) areas (+5 river in row 0).
PER_BLOCK = 25


def _square(x: int, y: int, w: int = CELL, h: int = CELL) -> tuple[Point, ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


@dataclass
class _Draft:
    """Mutable lists while drawing; frozen into a Scenario at the end."""

    areas: list[Area] = field(default_factory=list)
    buildings: dict[str, Building] = field(default_factory=dict)
    features: list[Feature] = field(default_factory=list)
    fires: list[LocationValue] = field(default_factory=list)
    forces: list[ForceUnit] = field(default_factory=list)
    used_buildings: set[str] = field(default_factory=set)


def _block_buildings(rng: random.Random, i: int, j: int) -> tuple[list[Building], list[str]]:
    """The buildings of block (i, j) and, for each of its 4 x 4 cells, the owning id."""
    split = rng.choice(("halves", "quarters", "quarters", "rows"))
    if split == "halves":  # west and east halves
        names = [f"b{i}_{j}_w", f"b{i}_{j}_e"]
        owner = [names[0] if col < 2 else names[1] for _row in range(4) for col in range(4)]
    elif split == "rows":  # a south and a north range
        names = [f"b{i}_{j}_s", f"b{i}_{j}_n"]
        owner = [names[0] if row < 2 else names[1] for row in range(4) for _col in range(4)]
    else:
        names = [f"b{i}_{j}_{q}" for q in ("sw", "se", "nw", "ne")]
        owner = [names[(row // 2) * 2 + col // 2] for row in range(4) for col in range(4)]
    buildings = [
        Building(
            id=name,
            name=f"Block {i}.{j} {name.rsplit('_', 1)[1].upper()}",
            levels=rng.choice((1, 2, 2, 3, 3, 4, 5, 6)),
            basement=rng.random() < 0.2,
        )
        for name in names
    ]
    return buildings, owner


def _draw_period(d: _Draft, rng: random.Random, i: int, j: int) -> None:
    """Append the areas of block period (i, j): river (row 0), streets, then the block."""
    bx, by = i * PERIOD, j * PERIOD
    if j == 0:
        for k in range(5):
            aid = f"W{i}_{k}"
            d.areas.append(Area(aid, AreaKind.WATER, _square(bx + k * CELL, by - CELL)))
    for k in range(5):  # south side, west to east (k = 0 is the crossing)
        aid = f"S{i}_{j}_{k}"
        d.areas.append(Area(aid, AreaKind.STREET, _square(bx + k * CELL, by)))
    for k in range(4):  # west side, south to north
        aid = f"S{i}_{j}_{5 + k}"
        d.areas.append(Area(aid, AreaKind.STREET, _square(bx, by + (k + 1) * CELL)))
    park = rng.random() < 0.06
    buildings, owner = _block_buildings(rng, i, j)
    by_id = {b.id: b for b in buildings}
    for row in range(4):
        for col in range(4):
            aid = f"B{i}_{j}_{row * 4 + col}"
            poly = _square(bx + (col + 1) * CELL, by + (row + 1) * CELL)
            if park:
                d.areas.append(Area(aid, AreaKind.OPEN, poly, name="Park"))
                continue
            b = by_id[owner[row * 4 + col]]
            d.areas.append(Area(aid, AreaKind.BUILDING, poly, building=b.id))
            d.buildings[b.id] = b


def _dress(d: _Draft, rng: random.Random) -> None:
    """Stairwells, hydrants, stores, occupants, fires and entries on the drawn areas."""
    first_area: dict[str, str] = {}
    for a in d.areas:
        if a.building is not None:
            d.used_buildings.add(a.building)
            first_area.setdefault(a.building, a.id)
    for bid in sorted(d.used_buildings, key=lambda b: first_area[b]):
        b = d.buildings[bid]
        if b.levels > 1 or b.basement:
            d.features.append(Feature(FeatureType.STAIRWELL, first_area[bid]))
    river = [a for a in d.areas if a.kind is AreaKind.WATER]
    for a in river[::10]:
        d.features.append(Feature(FeatureType.WATER, a.id, points=1000, name="River"))
    streets = [a for a in d.areas if a.kind is AreaKind.STREET]
    for k, a in enumerate(streets):
        if k % 4 == 1:
            d.features.append(Feature(FeatureType.HYDRANT, a.id, pressure=rng.randint(2, 6)))
    for a in d.areas:
        if a.building is None:
            continue
        b = d.buildings[a.building]
        levels = list(b.level_range)
        roll = rng.random()
        if roll < 0.03:
            d.features.append(
                Feature(FeatureType.STORE, a.id, level=rng.choice(levels), material=Material.WOOD)
            )
        elif roll < 0.034:
            d.features.append(Feature(FeatureType.STORE, a.id, level=0, material=Material.OIL))
        elif roll < 0.037:
            d.features.append(Feature(FeatureType.STORE, a.id, level=0, material=Material.PETROL))
        if rng.random() < 0.05:
            d.features.append(
                Feature(
                    FeatureType.OCCUPANTS, a.id, level=rng.choice(levels), count=rng.randint(1, 6)
                )
            )
        if rng.random() < 0.01:
            d.fires.append(LocationValue(a.id, b.top_level, rng.randint(1, 2)))
    edge = [s for s in streets if s.polygon[0][0] == 0 or s.polygon[0][1] == 0]
    entries = edge[:: max(1, len(edge) // 4)][:4] if edge else []
    for k, a in enumerate(entries, 1):
        d.features.append(Feature(FeatureType.ENTRY, a.id, name=f"entry {k}"))
        d.forces.append(ForceUnit(f"GA{k}", "general_appliance", entry=f"entry {k}", arrives=k))
        d.forces.append(ForceUnit(f"HP{k}", "heavy_pump", entry=f"entry {k}", arrives=k + 2))
    if entries:
        d.forces.append(ForceUnit("OFF", "officer", entry="entry 1", arrives=1))
    homes = [a for a in d.areas if a.building is not None]
    for k, a in enumerate(homes[:: max(1, len(homes) // 5)][:5], 1):
        top = d.buildings[a.building or ""].top_level
        d.forces.append(ForceUnit(f"FP{k}", "fire_party", area=a.id, level=top))


def synthetic_city(n_areas: int, seed: int = 0) -> Scenario:
    """A city of exactly ``n_areas`` areas, the same for the same ``seed``."""
    if n_areas < 1:
        raise ValueError("a synthetic city needs at least one area")
    rng = random.Random(seed)
    side = max(1, math.ceil(math.sqrt(n_areas / PER_BLOCK)))
    d = _Draft()
    j = 0
    while len(d.areas) < n_areas:
        for i in range(side):
            _draw_period(d, rng, i, j)
        j += 1
    d.areas = d.areas[:n_areas]
    _dress(d, rng)
    buildings = tuple(d.buildings[b] for b in sorted(d.used_buildings))
    return Scenario(
        name=f"Synthetic city ({n_areas} areas, seed {seed})",
        description="Generated by fireground.engine.scenario.synthetic for benchmarks and tests.",
        turns=40,
        seed=seed,
        wind=Wind(from_=rng.choice(COMPASS), strong=rng.random() < 0.5),
        bombing=True,
        mains="working",
        buildings=buildings,
        areas=tuple(d.areas),
        features=tuple(d.features),
        start=Start(fires=tuple(d.fires)),
        forces=tuple(d.forces),
        objectives=(Objective("contain", max_destroyed=max(1, n_areas // 10)),),
    )


def write_synthetic_city(path: str | os.PathLike[str], n_areas: int, seed: int = 0) -> Scenario:
    """Save a synthetic city as a scenario file (format v1) and return it."""
    from .io import save_scenario

    s = synthetic_city(n_areas, seed)
    save_scenario(s, path)
    return s
