"""Map-graph timings: build at 10,000 and 50,000 areas, and one-area incremental updates.

Run: ``.venv/bin/python benchmarks/bench_graph.py [N ...]``. The city is generated here: a
grid of 10 cm squares in blocks of 4 x 4 building cells (two cells per building, 1-4
levels, some basements, a stairwell in every third building area) between one-cell streets.
Each figure is the best of a few runs.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from dataclasses import replace

from fireground.engine.board import adjacency
from fireground.engine.board import shapes as shapes_mod
from fireground.engine.board.graph import build_graph
from fireground.engine.board.model import Area, AreaKind, Building, Feature, FeatureType, Scenario
from fireground.engine.games.blitz.checks.run import check

CELL = 10
BLOCK = 5  # 4 building cells, then a street cell


def grid_city(n_areas: int, seed: int = 1940) -> Scenario:
    rng = random.Random(seed)
    side = max(2, round(n_areas**0.5))
    buildings: dict[str, Building] = {}
    areas: list[Area] = []
    features: list[Feature] = []
    for gx in range(side):
        for gy in range(side):
            x, y = gx * CELL, gy * CELL
            poly = ((x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL))
            aid = f"a{gx}_{gy}"
            if gx % BLOCK == BLOCK - 1 or gy % BLOCK == BLOCK - 1:
                areas.append(Area(aid, AreaKind.STREET, poly))
                if rng.random() < 0.05:
                    features.append(Feature(FeatureType.HYDRANT, aid, pressure=3))
                continue
            bid = f"b{gx // 2}_{gy}"  # two cells side by side make one building
            if bid not in buildings:
                buildings[bid] = Building(
                    bid, levels=rng.randint(1, 4), basement=rng.random() < 0.2
                )
            areas.append(Area(aid, AreaKind.BUILDING, poly, building=bid))
            if len(areas) % 3 == 0:
                features.append(Feature(FeatureType.STAIRWELL, aid))
    return Scenario(
        name=f"grid city {len(areas)}",
        buildings=tuple(buildings.values()),
        areas=tuple(areas),
        features=tuple(features),
    )


def best_of(fn: Callable[[], object], runs: int = 3) -> float:
    best = float("inf")
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main(sizes: list[int]) -> None:
    for n in sizes:
        bench_one(n)


def bench_one(n: int) -> None:
    city = grid_city(n)

    # Fresh scenario objects each run so cached shapes are not reused between runs.
    def fresh() -> Scenario:
        return replace(city, areas=tuple(replace(a) for a in city.areas))

    cities = [fresh() for _ in range(3)]
    it = iter(cities)
    t_grid = best_of(lambda: build_graph(next(it)))
    shapes = shapes_mod.shapes(city.areas)
    t_general = best_of(
        lambda: adjacency.general_adjacency(shapes, city.scale.min_contact_cm), runs=2
    )
    g = build_graph(city)
    t_locs = best_of(lambda: build_graph(city).csr_indices, runs=2)
    t_reach = best_of(lambda: build_graph(city).water_reach(), runs=1)
    # One edit: move a building cell by 3 cm east (it loses and gains neighbours).
    target = city.areas[len(city.areas) // 2]
    moved = replace(target, polygon=tuple((x + 3, y) for x, y in target.polygon))
    g.neighbours((target.id, 0))  # warm the per-level tables an editor would have
    t_edit = best_of(lambda: g.with_area_replaced(moved), runs=5)
    t_edit_q = best_of(lambda: g.with_area_replaced(moved).neighbours((moved.id, 0)), runs=5)
    t_check = best_of(lambda: check(city), runs=1)
    print(
        f"{len(city.areas):>6} areas, {len(g.locations):>6} locations: "
        f"build (grid path) {t_grid:.3f} s | adjacency general path {t_general:.3f} s | "
        f"build + CSR {t_locs:.3f} s | water reach {t_reach:.3f} s | "
        f"one-area update {t_edit * 1000:.1f} ms (+ first query {t_edit_q * 1000:.1f} ms) | "
        f"check() {t_check:.2f} s"
    )


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [10_000, 50_000])
