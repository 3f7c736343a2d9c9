"""Map graph rules: adjacency, levels, stairs, R-1, R-2, R-5, roads and hose reach."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from fireground.engine.board import adjacency
from fireground.engine.board import shapes as shapes_mod
from fireground.engine.board.graph import MapGraph, build_graph
from fireground.engine.board.hose import max_hose_lengths
from fireground.engine.board.model import (
    Area,
    AreaKind,
    Building,
    Feature,
    FeatureType,
    Scenario,
    Wind,
)

ST, OP, WA, BU = AreaKind.STREET, AreaKind.OPEN, AreaKind.WATER, AreaKind.BUILDING

STEPNEY = Path(__file__).resolve().parents[2] / "examples" / "stepney.fg.yaml"


def rect(x: float, y: float, w: float = 10, h: float = 10) -> tuple[tuple[float, float], ...]:
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def bld(aid: str, x: float, y: float, building: str, w: float = 10, h: float = 10) -> Area:
    return Area(aid, BU, rect(x, y, w, h), building=building)


def street(aid: str, x: float, y: float, w: float = 10, h: float = 10, kind: AreaKind = ST) -> Area:
    return Area(aid, kind, rect(x, y, w, h))


def scen(
    *areas: Area,
    buildings: tuple[Building, ...] = (),
    features: tuple[Feature, ...] = (),
    **kw: object,
) -> Scenario:
    return Scenario(areas=areas, buildings=buildings, features=features, **kw)  # type: ignore[arg-type]


# -- adjacency --------------------------------------------------------------------------------
@pytest.mark.parametrize("offset", [0.0, 0.3])  # 0: grid path, 0.3: general path
def test_corner_contact_is_not_adjacency(offset: float) -> None:
    s = scen(street("A", offset, 0), street("B", 10 + offset, 10), street("C", 10 + offset, 0))
    g = build_graph(s)
    assert g.area_neighbours("A") == ["C"]
    assert g.area_neighbours("B") == ["C"]
    assert g.shared_edge_cm("A", "B") == 0.0
    assert g.shared_edge_cm("A", "C") == pytest.approx(10.0)


@pytest.mark.parametrize("offset", [0.0, 0.25])
def test_contact_shorter_than_min_contact_is_not_adjacency(offset: float) -> None:
    # B overlaps A's east edge by 0.5 cm only (general path), or by exactly 1 cm (grid path).
    s = scen(street("A", offset, 0), street("B", 10 + offset, 9.5 if offset else 9))
    g = build_graph(s)
    if offset:
        assert g.area_neighbours("A") == []
    else:
        assert g.area_neighbours("A") == ["B"]
        assert g.shared_edge_cm("A", "B") == pytest.approx(1.0)


def test_partial_edges_add_up_and_neighbours_are_sorted() -> None:
    # A long street touched by three buildings along its north side.
    b = (Building("b"),)
    s = scen(
        street("R", 0, 0, 30, 10),
        bld("z", 0, 10, "b"),
        bld("m", 10, 10, "b"),
        bld("a", 20, 10, "b", w=5),
        buildings=b,
    )
    g = build_graph(s)
    assert g.area_neighbours("R") == ["a", "m", "z"]
    assert g.shared_edge_cm("R", "a") == pytest.approx(5.0)


def test_shared_edge_ignores_extra_vertices_and_orientation() -> None:
    cw = Area("A", ST, ((0, 0), (0, 10), (10, 10), (10, 5), (10, 0)))  # clockwise, split edge
    s = scen(cw, street("B", 10, 0))
    assert build_graph(s).shared_edge_cm("A", "B") == pytest.approx(10.0)


def _random_rectilinear_map(rng: random.Random, n: int) -> Scenario:
    """Random cells on a 10 cm grid, some merged into L shapes; integer coordinates."""
    areas = []
    taken: set[tuple[int, int]] = set()
    for k in range(n):
        x, y = rng.randrange(8), rng.randrange(8)
        if (x, y) in taken:
            continue
        taken.add((x, y))
        w = rng.choice([5, 10])
        areas.append(Area(f"a{k}", ST, rect(x * 10, y * 10, w, 10)))
    return scen(*areas)


def test_grid_path_agrees_with_general_path() -> None:
    rng = random.Random(7)
    for _ in range(20):
        s = _random_rectilinear_map(rng, 30)
        geoms = shapes_mod.shapes(s.areas)
        grid = adjacency.grid_adjacency(s, geoms)
        assert grid is not None
        general = adjacency.general_adjacency(geoms, s.scale.min_contact_cm)
        assert {k: v for k, v in grid.items() if v} == {k: v for k, v in general.items() if v}


def _random_partition(rng: random.Random, side: int = 12, n_seeds: int = 25) -> Scenario:
    """A side x side board of 5 cm cells grown into random regions; each region that is one
    polygon without holes becomes an area (L, T and U shapes with collinear runs)."""
    import shapely

    owner = [[-1] * side for _ in range(side)]
    frontier = []
    for k in range(n_seeds):
        x, y = rng.randrange(side), rng.randrange(side)
        if owner[x][y] < 0:
            owner[x][y] = k
            frontier.append((x, y))
    while frontier:
        x, y = frontier.pop(rng.randrange(len(frontier)))
        for nx_, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx_ < side and 0 <= ny < side and owner[nx_][ny] < 0:
                owner[nx_][ny] = owner[x][y]
                frontier.append((nx_, ny))
    cells: dict[int, list[object]] = {}
    for x in range(side):
        for y in range(side):
            cells.setdefault(owner[x][y], []).append(
                shapely.box(x * 5, y * 5, x * 5 + 5, y * 5 + 5)
            )
    areas = []
    for k, boxes in sorted(cells.items()):
        poly = shapely.union_all(boxes).simplify(0)
        if poly.geom_type != "Polygon" or poly.interiors:
            continue
        ring = tuple((float(x), float(y)) for x, y in poly.exterior.coords[:-1])
        areas.append(Area(f"p{k}", ST, ring))
    return scen(*areas)


def test_grid_path_agrees_with_general_path_on_irregular_regions() -> None:
    rng = random.Random(11)
    for _ in range(15):
        s = _random_partition(rng)
        geoms = shapes_mod.shapes(s.areas)
        grid = adjacency.grid_adjacency(s, geoms)
        assert grid is not None
        general = adjacency.general_adjacency(geoms, s.scale.min_contact_cm)
        assert grid.keys() == general.keys()
        for i, nb in grid.items():
            assert nb.keys() == general[i].keys()
            for j, cm in nb.items():
                assert cm == pytest.approx(general[i][j])


def test_grid_path_declines_diagonal_edges_and_fractions() -> None:
    tri = scen(Area("T", ST, ((0, 0), (10, 0), (0, 10))), street("B", 0, -10))
    assert adjacency.grid_adjacency(tri, shapes_mod.shapes(tri.areas)) is None
    assert build_graph(tri).area_neighbours("T") == ["B"]
    frac = scen(street("A", 0.5, 0), street("B", 10.5, 0))
    assert adjacency.grid_adjacency(frac, shapes_mod.shapes(frac.areas)) is None


def test_bad_geometry_does_not_raise() -> None:
    s = scen(
        Area("bow", ST, ((0, 0), (10, 10), (10, 0), (0, 10))),  # self-intersecting
        Area("two", ST, ((0, 0), (1, 1))),  # too few points
        Area("nan", ST, ((0, 0), (float("nan"), 0), (1, 1))),
        street("ok", 10, 0),
    )
    g = build_graph(s)
    assert g.area_neighbours("two") == []
    assert g.area_neighbours("ok") == ["bow"]


# -- levels -----------------------------------------------------------------------------------
def _terrace() -> Scenario:
    """Two buildings side by side (party wall) on a street; b has a basement and a stair."""
    return scen(
        bld("A1", 0, 10, "a"),
        bld("B1", 10, 10, "b"),
        bld("B2", 20, 10, "b"),
        street("R1", 0, 0),
        street("R2", 10, 0),
        street("R3", 20, 0),
        buildings=(Building("a", levels=2, basement=True), Building("b", levels=3, basement=True)),
        features=(Feature(FeatureType.STAIRWELL, "B1"),),
    )


def test_locations_sorted_with_integer_ids() -> None:
    g = build_graph(_terrace())
    assert g.locations == sorted(g.locations)
    assert g.locations[:3] == [("A1", -1), ("A1", 0), ("A1", 1)]
    assert all(g.index[loc] == n for n, loc in enumerate(g.locations))
    assert len(g.locations) == 3 + 4 + 4 + 3


def test_party_walls_link_every_shared_level() -> None:
    g = build_graph(_terrace())
    assert ("B1", 1) in g.horizontal(("A1", 1))
    assert ("B1", 2) not in g.horizontal(("A1", 1))
    assert g.horizontal(("B1", 2)) == [("B2", 2)]  # A1 has no level 2


def test_ground_links_street_and_basements_link_only_basements() -> None:
    g = build_graph(_terrace())
    assert g.horizontal(("A1", 0)) == [("B1", 0), ("R1", 0)]
    assert g.horizontal(("A1", -1)) == [("B1", -1)]
    assert ("A1", 0) in g.horizontal(("R1", 0))
    assert all(loc[1] == 0 for loc in g.horizontal(("R2", 0)))


def test_stairwell_links_all_levels_of_its_area_only() -> None:
    g = build_graph(_terrace())
    assert g.vertical(("B1", -1)) == [("B1", 0)]
    assert g.vertical(("B1", 1)) == [("B1", 0), ("B1", 2)]
    assert g.vertical(("B2", 1)) == []
    assert g.vertical(("A1", 0)) == []
    assert g.neighbours(("B1", 0)) == [("A1", 0), ("B1", -1), ("B1", 1), ("B2", 0), ("R2", 0)]


def test_climb_only_without_stairwell() -> None:
    g = build_graph(_terrace())
    assert g.climb_targets(("B2", 1)) == [("B2", 2)]
    assert g.climb_targets(("B2", 2)) == []  # top level
    assert g.climb_targets(("B1", 1)) == []  # has a stairwell
    assert g.climb_targets(("A1", -1)) == [("A1", 0)]
    assert g.climb_targets(("R1", 0)) == []


def test_unknown_locations_have_no_neighbours() -> None:
    g = build_graph(_terrace())
    assert g.neighbours(("nowhere", 0)) == []
    assert g.neighbours(("R1", 1)) == []
    assert g.area_neighbours("nowhere") == []


def test_csr_matches_neighbours() -> None:
    g = build_graph(_terrace())
    for n, loc in enumerate(g.locations):
        row = g.csr_indices[g.csr_indptr[n] : g.csr_indptr[n + 1]]
        assert [g.locations[m] for m in row] == g.neighbours(loc)
    assert g.csr_indptr.dtype == np.int64


# -- wind and jumps ---------------------------------------------------------------------------
def test_downwind_within_45_degrees() -> None:
    s = scen(street("O", 0, 0), street("N", 0, 20), street("NE", 20, 20), street("E", 30, 5))
    g = build_graph(s)
    south_wind = Wind(from_="S", strong=True)  # blows towards the north
    assert g.is_downwind("O", "N", south_wind)
    assert g.is_downwind("O", "NE", south_wind)  # exactly 45 degrees
    assert not g.is_downwind("O", "E", south_wind)
    assert not g.is_downwind("N", "O", south_wind)
    assert not g.is_downwind("O", "O", south_wind)
    assert not g.is_downwind("O", "N", Wind())


def _street_of_width(width_cells: int) -> Scenario:
    """Building a0 south of a street `width_cells` cells wide, buildings north of it."""
    top = 10 + 10 * width_cells
    areas = [bld("A", 10, 0, "a"), bld("side", 0, 0, "a")]
    for k in range(width_cells):
        areas += [street(f"S{k}_{x}", x * 10, 10 + k * 10) for x in range(3)]
    areas += [bld("B", 10, top, "b"), bld("Bdiag", 20, top, "b"), bld("Bfar", 0, top, "b")]
    return scen(
        *areas,
        buildings=(Building("a", levels=3), Building("b", levels=2)),
    )


def test_one_gap_jump_across_a_street_in_any_wind() -> None:
    g = build_graph(_street_of_width(1))
    targets = g.jump_targets(("A", 2), Wind())
    assert (("B", 1), 1) in targets  # level min(2, top level 1)
    assert all(t[0][0] != "side" for t in targets)  # adjacent: ordinary spread, not a jump
    assert g.jump_targets(("A", 0), Wind()) == sorted(g.jump_targets(("A", 0), Wind()))
    assert (("B", 0), 1) in g.jump_targets(("A", 0), Wind())


def test_diagonal_across_a_street_is_two_gaps_so_downwind_only() -> None:
    # The line from A to Bdiag crosses S0_1 and S0_2: two gap areas.
    g = build_graph(_street_of_width(1))
    assert ("Bdiag", 0) not in [t for t, _ in g.jump_targets(("A", 0), Wind())]
    south = g.jump_targets(("A", 0), Wind(from_="S", strong=True))
    assert (("Bdiag", 0), 2) in south
    assert (("Bfar", 0), 2) in south
    west = g.jump_targets(("A", 0), Wind(from_="W", strong=True))  # towards the east
    assert (("Bdiag", 0), 2) not in west  # bearing 26.6 deg from north: not within 45 of east


def test_two_gap_jump_only_downwind_and_in_line() -> None:
    g = build_graph(_street_of_width(2))
    assert g.jump_targets(("A", 1), Wind()) == []
    assert g.jump_targets(("A", 1), Wind(from_="N", strong=True)) == []  # upwind
    south = g.jump_targets(("A", 1), Wind(from_="S", strong=True))
    # Bdiag: the line passes S0_1 then S1_2, through their shared corner.
    assert south == [(("B", 1), 2), (("Bdiag", 1), 2), (("Bfar", 1), 2)]


def test_no_jump_through_a_building_or_over_undrawn_table() -> None:
    s = scen(
        bld("A", 0, 0, "a"),
        bld("C", 10, 0, "c"),
        street("S", 20, 0),
        bld("B", 30, 0, "b"),
        street("R", 0, -10, 40, 10),
        street("S2", 0, 10),  # north of A, then 10 cm of undrawn table, then "far"
        street("S3", 10, 20, 10, 20),  # touches S2 at a corner and "far" on its side
        bld("far", 0, 30, "b"),
        buildings=(Building("a"), Building("b"), Building("c")),
    )
    g = build_graph(s)
    for wind in (Wind(), Wind(from_="W", strong=True), Wind(from_="S", strong=True)):
        assert g.jump_targets(("A", 0), wind) == []
    assert g.jump_targets(("C", 0), Wind()) == [(("B", 0), 1)]


def test_three_gaps_are_too_wide() -> None:
    g = build_graph(_street_of_width(3))
    assert g.jump_targets(("A", 0), Wind(from_="S", strong=True)) == []


def test_no_jumps_from_streets_or_basements() -> None:
    g = build_graph(_street_of_width(1))
    assert g.jump_targets(("S0_1", 0), Wind()) == []
    assert g.jump_targets(("A", -1), Wind()) == []


def test_flammable_kind() -> None:
    g = build_graph(_terrace())
    assert g.is_flammable_area_kind("A1")
    assert not g.is_flammable_area_kind("R1")
    assert not g.is_flammable_area_kind("missing")


# -- roads, feet, hoses -----------------------------------------------------------------------
def _lane() -> Scenario:
    """Streets R0..R4 in a row, an open yard Y north of R2, a river W south of R0."""
    areas = [street(f"R{k}", k * 10, 0) for k in range(5)]
    areas += [street("Y", 20, 10, kind=OP), street("W", 0, -10, 50, 10, kind=WA)]
    areas += [bld("H", 30, 10, "h")]
    return scen(
        *areas,
        buildings=(Building("h", levels=3),),
        features=(Feature(FeatureType.STAIRWELL, "H"),),
    )


def test_road_graph_streets_only_and_blocked_removed() -> None:
    g = build_graph(_lane())
    roads = g.road_graph()
    assert sorted(roads.nodes) == g.street_areas == [f"R{k}" for k in range(5)]
    assert roads.number_of_edges() == 4
    import networkx as nx

    assert nx.has_path(roads, "R0", "R4")
    cut = g.road_graph(blocked=["R2"])
    assert "R2" not in cut
    assert not nx.has_path(cut, "R0", "R4")
    assert "R2" in g.road_graph()  # the base graph is untouched


def test_street_neighbours_are_the_road_graph_without_networkx() -> None:
    """Play reads the roads as a dict (networkx is imported only for its graphs): the same
    streets and links as the road graph, each list in id order."""
    g = build_graph(_lane())
    roads = g.road_graph()
    streets = g.street_neighbours()
    assert list(streets) == sorted(roads.nodes)
    assert streets == {a: sorted(roads.neighbors(a)) for a in roads.nodes}
    assert streets["R0"] == ["R1"] and streets["R2"] == ["R1", "R3"]


def test_a_full_game_does_not_import_networkx() -> None:
    """networkx costs a game process about 2% of the full-autopilot benchmark to import;
    play needs none of its graphs."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from fireground.engine.play.montecarlo import autopilot_outcomes\n"
        "from fireground.engine.scenario.io import load_scenario\n"
        f"sc = load_scenario({str(STEPNEY)!r})\n"
        "autopilot_outcomes(sc, 1, 6, seed=1, workers=1)\n"
        "print('networkx' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_foot_graph_excludes_water_and_marks_stairs() -> None:
    g = build_graph(_lane())
    foot = g.foot_graph()
    assert ("W", 0) not in foot
    assert foot.edges[("H", 0), ("H", 1)]["kind"] == "stairs"
    assert foot.edges[("R3", 0), ("H", 0)] == {"cost": 1, "kind": "area"}


def test_hose_steps_and_lengths() -> None:
    g = build_graph(_lane())
    steps = g.hose_steps_from([("R0", 0)])
    assert steps[("R0", 0)] == 0
    assert steps[("R3", 0)] == 3
    assert steps[("H", 2)] == 6  # R0..R3 then two flights of stairs
    assert ("W", 0) not in steps  # hose never runs through the river
    assert g.hose_lengths(0) == 2  # §7: the branch's own length, and the hydrant's
    assert g.hose_lengths(3) == 3
    assert g.hose_lengths(4) == 3
    assert g.hose_lengths(3, hydrant=False) == 2
    assert g.hose_lengths(0, hydrant=False) == 1  # even a branch at the pump takes one


def test_hose_lengths_follow_the_house_rules() -> None:
    """The checks' hose reach uses the ruleset's numbers, as play does: a length covering
    three steps and a hydrant needing none to connect change the lengths."""
    s = _lane()
    s = replace(s, features=(*s.features, Feature(FeatureType.HYDRANT, "R4", pressure=3)))
    plain = build_graph(s)
    ruled = build_graph(
        replace(s, house_rules={"hose.steps_per_length": 3, "hose.hydrant_lengths": 0})
    )
    assert ruled.hose_lengths(4) == 2 and ruled.hose_lengths(3, hydrant=False) == 1
    a, b = plain.water_reach(), ruled.water_reach()
    assert a[("R0", 0)] == 1 + 2 and b[("R0", 0)] == 0 + 2  # 4 steps: 2 + 1, then 2 + 0
    assert a.keys() == b.keys() and all(b[loc] <= a[loc] for loc in a)


def test_water_reach_hydrants_and_open_water() -> None:
    s = _lane()
    hydrant = replace(s, features=(*s.features, Feature(FeatureType.HYDRANT, "R4", pressure=3)))
    reach = build_graph(hydrant).water_reach()
    assert reach[("R4", 0)] == 2  # connecting the hydrant, and the branch at the pump
    assert reach[("R0", 0)] == 1 + 2
    river = replace(s, features=(*s.features, Feature(FeatureType.WATER, "W", points=100)))
    reach = build_graph(river).water_reach()
    assert reach[("R0", 0)] == 1  # a pump on the bank: its branch takes one length
    assert reach[("H", 2)] == 2  # bank R3, then H0, H1, H2: 3 steps
    assert ("W", 0) not in reach
    failed = replace(hydrant, mains="failed")
    assert build_graph(failed).water_reach() == {}


def test_max_hose_lengths_from_ruleset_and_house_rules() -> None:
    assert max_hose_lengths(Scenario()) == 14
    assert max_hose_lengths(Scenario(house_rules={"hose.max_lengths": 9})) == 9
    assert build_graph(Scenario(ruleset="unknown")).max_hose_lengths == 14


# -- incremental updates ----------------------------------------------------------------------
def _signature(g: MapGraph) -> tuple[object, ...]:
    s = g.scenario
    return (
        g.locations,
        {
            a.id: [(b, round(g.shared_edge_cm(a.id, b), 6)) for b in g.area_neighbours(a.id)]
            for a in s.areas
        },
        g.csr_indptr.tolist(),
        g.csr_indices.tolist(),
    )


def test_with_area_replaced_matches_a_fresh_build() -> None:
    rng = random.Random(3)
    s = _terrace()
    g = build_graph(s)
    g.neighbours(("A1", 0))
    for step in range(80):  # beyond the dirty limit, so the tree is rebuilt on the way
        a = s.areas[rng.randrange(len(s.areas))]
        dx, dy = rng.choice([(0, 0), (10, 0), (-10, 0), (0, 10), (5, 0), (0.5, 0.25)])
        moved = replace(a, polygon=tuple((x + dx, y + dy) for x, y in a.polygon))
        if step % 7 == 0 and a.kind is ST:
            moved = replace(moved, kind=OP)
        g = g.with_area_replaced(moved)
        s = g.scenario
        assert _signature(g) == _signature(build_graph(s)), step


def test_with_area_replaced_jump_lines_match_a_fresh_build() -> None:
    """The moved areas (not yet in the shapes' tree) are asked directly by the jump lines."""
    rng = random.Random(5)
    g = build_graph(_street_of_width(2))
    g.jump_lines(("A", 0))
    changed = 0
    for step in range(30):  # under the dirty limit: the tree keeps the old shapes
        a = g.scenario.areas[rng.randrange(len(g.scenario.areas))]
        dx, dy = rng.choice([(0, 0), (10, 0), (-10, 0), (0, 10), (0, -10), (5, 0)])
        moved = replace(a, polygon=tuple((x + dx, y + dy) for x, y in a.polygon))
        before = {b.id: g.jump_lines((b.id, 0)) for b in g.scenario.areas}
        g = g.with_area_replaced(moved)
        fresh = build_graph(g.scenario)
        for b in g.scenario.areas:
            assert g.jump_lines((b.id, 0)) == fresh.jump_lines((b.id, 0)), (step, b.id)
        changed += any(before[b.id] != g.jump_lines((b.id, 0)) for b in g.scenario.areas)
    assert changed  # the moves did change some lines


def test_with_area_replaced_adds_new_area_and_keeps_old_graph() -> None:
    g = build_graph(_terrace())
    before = _signature(g)
    g2 = g.with_area_replaced(street("R4", 30, 0))
    assert g2.area_neighbours("R4") == ["R3"]
    assert ("R4", 0) in g2.locations
    assert _signature(g) == before
    assert _signature(g2) == _signature(build_graph(g2.scenario))


def test_hose_up_ladders_from_the_street() -> None:
    s = _lane()
    no_stairs = replace(s, features=())
    g = build_graph(no_stairs)
    assert ("H", 2) not in g.hose_steps_from([("R0", 0)])
    up = g.hose_steps_from([("R0", 0)], ladders=4)
    assert up[("H", 2)] == 3 + 1 + 2  # R0..R3, into H, two levels up the ladder
    assert up[("H", 1)] == 3 + 1 + 1
    short = g.hose_steps_from([("R0", 0)], ladders=1)
    assert ("H", 1) in short and ("H", 2) not in short
    # The open yard Y beside H also takes a ladder: from R2 it is R2 -> Y -> ladder.
    assert g.hose_steps_from([("R2", 0)], ladders=4)[("H", 2)] == 1 + 1 + 2


def test_hose_search_labels_the_nearest_source() -> None:
    g = build_graph(_lane())
    steps, source = g.hose_search([("R0", 0), ("R4", 0)])
    at = g.index
    assert source[at[("R1", 0)]] == 0 and source[at[("R3", 0)]] == 1
    assert source[at[("R2", 0)]] == 0  # a tie goes to the earlier source
    assert steps[at[("H", 2)]] == 1 + 1 + 2
    assert steps[at[("W", 0)]] == -1 and source[at[("W", 0)]] == -1


def test_water_sources_reach_names_the_source() -> None:
    s = _lane()
    s = replace(
        s,
        features=(
            *s.features,
            Feature(FeatureType.HYDRANT, "R4", pressure=3),
            Feature(FeatureType.WATER, "W", points=100),
        ),
    )
    g = build_graph(s)
    assert g.water_sources() == [(("R4", 0), True), (("W", 0), False)]
    lengths, source = g.water_sources_reach()
    at = g.index
    assert (lengths[at[("R4", 0)]], source[at[("R4", 0)]]) == (1, 1)  # a bank beats a hydrant
    assert (lengths[at[("H", 2)]], source[at[("H", 2)]]) == (2, 1)
    assert lengths[at[("Y", 0)]] == 1  # bank R2, then Y: one step, one length
