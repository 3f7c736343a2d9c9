"""Map graphs: which locations touch, climb, jump, drive and carry hose (rules §1, §7).

:func:`build_graph` turns a :class:`Scenario` into a :class:`MapGraph`, built once and cheap
to query. Areas are adjacent when their boundaries share at least ``scale.min_contact_cm``
(corner contact never counts), found by :mod:`.adjacency`
(an exact grid path for editor-drawn maps, an STRtree path otherwise); hose reach is
computed by :mod:`.hose` and R-5 jump lines by :mod:`.jumps`.

Inside, locations are integer node ids (``index``), with CSR arrays (``csr_indptr``,
``csr_indices``) for numpy users; the API speaks ``(area_id, level)``.

>>> from fireground.engine.board.model import Area, AreaKind, Scenario
>>> sq = lambda x: ((x, 0), (x + 10, 0), (x + 10, 10), (x, 10))
>>> s = Scenario(areas=(Area("A", AreaKind.STREET, sq(0)), Area("B", AreaKind.STREET, sq(10))))
>>> build_graph(s).area_neighbours("A")
['B']
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import shapely

from . import hose
from .adjacency import Adjacency, contacts, general_adjacency, grid_adjacency, location_edges
from .hose import max_hose_lengths
from .jumps import JumpFinder, within_45
from .model import Area, AreaId, AreaKind, FeatureType, Location, Scenario, Wind
from .shapes import shapes, shapes_and_validity

if TYPE_CHECKING:  # networkx is imported when a caller asks for one of its graphs
    import networkx as nx

__all__ = [
    "IntArray",
    "MapGraph",
    "build_graph",
]

IntArray = npt.NDArray[np.int64]
#: Edited areas kept outside the STRtree before :meth:`MapGraph.with_area_replaced` rebuilds it.
_MAX_DIRTY = 64


def build_graph(
    scenario: Scenario, *, raw_shapes: npt.NDArray[np.object_] | None = None
) -> MapGraph:
    """Build the map graph of a scenario (never raises for bad geometry: see checks).

    ``raw_shapes``: the areas' polygons from :func:`raw_shapes`, when the caller has them.
    """
    geoms, valid = shapes_and_validity(list(scenario.areas), raw_shapes)
    adjacency = grid_adjacency(scenario, geoms) if valid else None
    if adjacency is None:
        adjacency = general_adjacency(geoms, scenario.scale.min_contact_cm)
    return MapGraph(scenario, geoms, adjacency, shapely.STRtree(geoms), frozenset())


class MapGraph:
    """Adjacency, stairs, climbing, jumps, roads and hose reach of one scenario."""

    def __init__(
        self,
        scenario: Scenario,
        geoms: npt.NDArray[np.object_],
        adjacency: Adjacency,
        tree: shapely.STRtree,
        dirty: frozenset[int],
        ids: tuple[list[AreaId], dict[AreaId, int]] | None = None,
    ) -> None:
        self.scenario = scenario
        self._geoms = geoms
        self._adj = adjacency
        self._tree = tree
        self._dirty = dirty  # area indices whose shape differs from the tree's
        if ids is None:
            self._ids: list[AreaId] = [a.id for a in scenario.areas]
            self._pos: dict[AreaId, int] = {aid: i for i, aid in enumerate(self._ids)}
        else:  # shared with the graph this one was derived from (never mutated)
            self._ids, self._pos = ids
        self._jump_cache: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        self._reach_cache: dict[int, tuple[IntArray, IntArray]] = {}

    # -- areas -----------------------------------------------------------------------------
    @property
    def shapes(self) -> npt.NDArray[np.object_]:
        """Area polygons in scenario order, invalid ones made valid (do not mutate)."""
        return self._geoms

    def area_neighbours(self, area_id: AreaId) -> list[AreaId]:
        """Areas sharing an edge of at least ``min_contact_cm`` with this one, sorted."""
        i = self._pos.get(area_id)
        if i is None:
            return []
        return sorted(self._ids[j] for j in self._adj.get(i, {}))

    def shared_edge_cm(self, a: AreaId, b: AreaId) -> float:
        """Length of the boundary two adjacent areas share (0 when not adjacent)."""
        i, j = self._pos.get(a), self._pos.get(b)
        if i is None or j is None:
            return 0.0
        return self._adj.get(i, {}).get(j, 0.0)

    def is_flammable_area_kind(self, area_id: AreaId) -> bool:
        """Building areas always burn; streets/open only with rubble or a vehicle (run time)."""
        i = self._pos.get(area_id)
        return i is not None and self.scenario.areas[i].kind is AreaKind.BUILDING

    @cached_property
    def street_areas(self) -> list[AreaId]:
        return sorted(a.id for a in self.scenario.areas if a.kind is AreaKind.STREET)

    @cached_property
    def _levels(self) -> tuple[IntArray, IntArray]:
        """(lowest, highest) level of every area, by area index."""
        lo = np.zeros(len(self._ids), dtype=np.int64)
        hi = np.zeros(len(self._ids), dtype=np.int64)
        buildings = self.scenario.building_by_id
        for i, a in enumerate(self.scenario.areas):
            b = buildings.get(a.building) if a.building is not None else None
            if b is not None and a.kind is AreaKind.BUILDING:
                lo[i] = -1 if b.basement else 0
                hi[i] = max(b.levels - 1, 0)
        return lo, hi

    def _has_level(self, i: int, level: int) -> bool:
        lo, hi = self._levels
        return bool(lo[i] <= level <= hi[i])

    @cached_property
    def _stairwells(self) -> frozenset[int]:
        return frozenset(
            self._pos[f.area]
            for f in self.scenario.features
            if f.type is FeatureType.STAIRWELL and f.area in self._pos
        )

    # -- locations -------------------------------------------------------------------------
    @cached_property
    def _order(self) -> IntArray:
        """Area indices sorted by area id (the R-3 visiting order)."""
        return np.array(sorted(range(len(self._ids)), key=self._ids.__getitem__), dtype=np.int64)

    @cached_property
    def _first_node(self) -> IntArray:
        """Node id of each area's lowest level, by area index."""
        lo, hi = self._levels
        counts = (hi - lo + 1)[self._order]
        starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
        first = np.empty(len(self._ids), dtype=np.int64)
        first[self._order] = starts
        return first

    @cached_property
    def locations(self) -> list[Location]:
        """Every location, sorted by (area id, level)."""
        lo, hi = self._levels
        return [
            (self._ids[i], lvl) for i in self._order.tolist() for lvl in range(lo[i], hi[i] + 1)
        ]

    @cached_property
    def index(self) -> dict[Location, int]:
        return {loc: n for n, loc in enumerate(self.locations)}

    def _node(self, loc: Location) -> int | None:
        i = self._pos.get(loc[0])
        if i is None or not self._has_level(i, loc[1]):
            return None
        return int(self._first_node[i] - self._levels[0][i] + loc[1])

    def horizontal(self, loc: Location) -> list[Location]:
        """Same-level neighbours: party walls at every shared level, ground to street/open.

        Water areas are included (at level 0) like any area: they are geometric neighbours;
        what may enter or burn there is the engine's question.
        """
        i = self._pos.get(loc[0])
        if i is None or not self._has_level(i, loc[1]):
            return []
        lvl = loc[1]
        return sorted((self._ids[j], lvl) for j in self._adj.get(i, {}) if self._has_level(j, lvl))

    def vertical(self, loc: Location) -> list[Location]:
        """Levels above and below reached by the area's stairwell (none without one)."""
        i = self._pos.get(loc[0])
        if i is None or i not in self._stairwells or not self._has_level(i, loc[1]):
            return []
        return [(loc[0], lvl) for lvl in (loc[1] - 1, loc[1] + 1) if self._has_level(i, lvl)]

    def neighbours(self, loc: Location) -> list[Location]:
        return sorted(self.horizontal(loc) + self.vertical(loc))

    def climb_targets(self, loc: Location) -> list[Location]:
        """R-1: a fire of 4-5 may climb to the level above in an area without a stairwell."""
        i = self._pos.get(loc[0])
        if i is None or i in self._stairwells or not self._has_level(i, loc[1]):
            return []
        up = loc[1] + 1
        return [(loc[0], up)] if self._has_level(i, up) else []

    @cached_property
    def _edges(self) -> tuple[IntArray, IntArray, npt.NDArray[np.bool_]]:
        """Directed node edges (src, dst, is_stairs), both directions of each link."""
        return location_edges(self._adj, self._levels, self._first_node, self._stairwells)

    @cached_property
    def _csr(self) -> tuple[IntArray, IntArray]:
        src, dst, _ = self._edges
        order = np.lexsort((dst, src))
        n = len(self.locations)
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
        return indptr, dst[order]

    @property
    def csr_indptr(self) -> IntArray:
        """CSR row pointers over ``locations`` (horizontal + vertical neighbours)."""
        return self._csr[0]

    @property
    def csr_indices(self) -> IntArray:
        """CSR column indices over ``locations``, each row sorted."""
        return self._csr[1]

    # -- wind and jumps --------------------------------------------------------------------
    def is_downwind(self, from_area: AreaId, to_area: AreaId, wind: Wind) -> bool:
        """R-2: the bearing between the centroids is within 45 degrees of the wind's heading."""
        towards = wind.towards_bearing
        if towards is None or from_area == to_area:
            return False
        i, j = self._pos.get(from_area), self._pos.get(to_area)
        if i is None or j is None:
            return False
        return within_45(self._centroid(i), self._centroid(j), towards)

    def _centroid(self, i: int) -> tuple[float, float]:
        return self.scenario.areas[i].centroid

    def jump_targets(self, loc: Location, wind: Wind) -> list[tuple[Location, int]]:
        """R-5: locations a fire of 5 at ``loc`` may jump to, with the gap areas crossed.

        The line from A to B (see :mod:`.jumps`) must cross one street/open/water area (any
        wind) or two (only when B is downwind of A, R-2). Adjacent areas are ordinary spread, never jumps. The
        target level is min(source level, the target's top level); basements do not jump.
        """
        i = self._pos.get(loc[0])
        if i is None or loc[1] < 0 or not self._has_level(i, loc[1]):
            return []
        if self.scenario.areas[i].kind is not AreaKind.BUILDING:
            return []
        towards = wind.towards_bearing
        out: list[tuple[Location, int]] = []
        for j, gap_areas in self._jump_lines_of(i):
            gaps = len(gap_areas)
            if self.scenario.areas[j].kind is not AreaKind.BUILDING:
                continue
            if gaps == 2 and (
                towards is None or not within_45(self._centroid(i), self._centroid(j), towards)
            ):
                continue
            level = min(loc[1], int(self._levels[1][j]))
            out.append(((self._ids[j], level), gaps))
        return sorted(out)

    def jump_lines(self, loc: Location) -> list[tuple[Location, tuple[AreaId, ...]]]:
        """R-5 candidates from ``loc`` in any wind: (target location, the gap areas the line
        crosses, sorted), for every source and target area that is not water.

        Only the shapes are judged here. A jump also needs the gap areas non-flammable and
        the target flammable *at the time*, and two gap areas only downwind: the fire step
        checks those. The target level is min(source level, the target's top level);
        basements do not jump.
        """
        i = self._pos.get(loc[0])
        if i is None or loc[1] < 0 or not self._has_level(i, loc[1]):
            return []
        out: list[tuple[Location, tuple[AreaId, ...]]] = []
        for j, gap_areas in self._jump_lines_of(i):
            level = min(loc[1], int(self._levels[1][j]))
            out.append(((self._ids[j], level), tuple(sorted(self._ids[k] for k in gap_areas))))
        return sorted(out)

    def _jump_lines_of(self, i: int) -> list[tuple[int, tuple[int, ...]]]:
        hit = self._jump_cache.get(i)
        if hit is None:
            hit = self._jump_cache[i] = self._jumps.lines(i, self._adj.get(i, {}))
        return hit

    @cached_property
    def _jumps(self) -> JumpFinder:
        return JumpFinder(self.scenario.areas, self._geoms, self._tree, self._dirty)

    # -- roads, feet and hoses -------------------------------------------------------------
    def street_neighbours(self) -> dict[AreaId, list[AreaId]]:
        """Street area -> its street neighbours, both in id order (every street, joined or
        not): the roads without networkx, for play."""
        return self._streets

    @cached_property
    def _streets(self) -> dict[AreaId, list[AreaId]]:
        areas = self.scenario.areas
        out: dict[AreaId, list[AreaId]] = {}
        for i, a in enumerate(areas):
            if a.kind is AreaKind.STREET:
                out[self._ids[i]] = sorted(
                    self._ids[j]
                    for j in self._adj.get(i, {})
                    if j != i and areas[j].kind is AreaKind.STREET
                )
        return dict(sorted(out.items()))

    @cached_property
    def _road_base(self) -> nx.Graph:
        import networkx as nx

        g = nx.Graph()
        areas = self.scenario.areas
        streets = [i for i, a in enumerate(areas) if a.kind is AreaKind.STREET]
        g.add_nodes_from(sorted(self._ids[i] for i in streets))
        for i in streets:
            for j, cm in self._adj.get(i, {}).items():
                if i < j and areas[j].kind is AreaKind.STREET:
                    g.add_edge(self._ids[i], self._ids[j], contact_cm=cm)
        return nx.freeze(g)

    def road_graph(self, blocked: Collection[str] = ()) -> nx.Graph:
        """Street areas and their adjacency, ``blocked`` ones (rubble, craters) removed.

        Read-only (a frozen graph or view); copy it to edit.
        """
        base = self._road_base
        if not blocked:
            return base
        gone = set(blocked)
        return base.subgraph([n for n in base.nodes if n not in gone])

    @cached_property
    def _water_nodes(self) -> npt.NDArray[np.bool_]:
        lo, hi = self._levels
        mask = np.zeros(len(self.locations), dtype=bool)
        for i, a in enumerate(self.scenario.areas):
            if a.kind is AreaKind.WATER:
                mask[self._first_node[i] : self._first_node[i] + hi[i] - lo[i] + 1] = True
        return mask

    def foot_graph(self) -> nx.Graph:
        """Locations a firefighter can stand in (no water), edges ``cost`` 1, ``kind``
        'area' or 'stairs'. Read-only (frozen); copy it to edit."""
        return self._foot

    @cached_property
    def _foot(self) -> nx.Graph:
        import networkx as nx

        g = nx.Graph()
        locs = self.locations
        water = self._water_nodes
        g.add_nodes_from(loc for n, loc in enumerate(locs) if not water[n])
        src, dst, stairs = self._edges
        keep = (src < dst) & ~water[src] & ~water[dst]
        for s, d, st in zip(
            src[keep].tolist(), dst[keep].tolist(), stairs[keep].tolist(), strict=True
        ):
            g.add_edge(locs[s], locs[d], cost=1, kind="stairs" if st else "area")
        return nx.freeze(g)

    def hose_steps_from(self, sources: Iterable[Location], ladders: int = 0) -> dict[Location, int]:
        """Hose steps (1 per area, 1 per level by stairs) from the nearest source.

        Hose never crosses water; a water source is left through its banks (step 1).
        ``ladders`` > 0 also lets hose go up a ladder of that rating pitched in a street or
        open area into the adjacent building area: 1 step in and 1 per level (§7).
        """
        dist, _ = self.hose_search(list(sources), ladders)
        locs = self.locations
        return {locs[n]: int(d) for n, d in enumerate(dist.tolist()) if d >= 0}

    def hose_search(self, sources: list[Location], ladders: int = 0) -> tuple[IntArray, IntArray]:
        """(steps, source) per node id: hose steps from the nearest of ``sources`` and the
        index in ``sources`` of that source; -1 where no hose path reaches (ties go to the
        earlier source). See :meth:`hose_steps_from` for ``ladders``."""
        starts = [(n, k) for k, n in enumerate(map(self._node, sources)) if n is not None]
        indptr, indices, water = self.csr_indptr, self.csr_indices, self._water_nodes
        if ladders > 0:
            links = hose.ladder_hose_links(
                self.scenario.areas, self._adj, self._levels, self._first_node, ladders
            )
            return hose.dijkstra(indptr, indices, water, starts, links)
        return hose.bfs(indptr, indices, water, starts)

    def hose_lengths(self, steps: int, hydrant: bool = True) -> int:
        """Lengths for a hose line of ``steps`` steps from a hydrant (or open water)
        (:func:`.hose.line_lengths`, with the scenario's ruleset)."""
        per, hyd, _ = hose.hose_numbers(self.scenario)
        return hose.line_lengths(steps, per, hyd if hydrant else 0)

    @property
    def max_hose_lengths(self) -> int:
        return max_hose_lengths(self.scenario)

    def water_reach(self, ladders: int = 0) -> dict[Location, int]:
        """Fewest hose lengths from a hydrant (while the mains work) or open water to every
        location a hose can reach; water locations themselves are left out.

        A hydrant's appliance stands in the hydrant's area; an open-water pump stands on a
        bank (an area next to the water), so a bank needs no length. ``ladders``: as in
        :meth:`hose_steps_from`.
        """
        lengths, _ = self.water_sources_reach(ladders)
        locs = self.locations
        return {locs[n]: v for n, v in enumerate(lengths.tolist()) if v >= 0}

    def water_sources(self) -> list[tuple[Location, bool]]:
        """(location, is a hydrant) of every source giving water (:func:`.hose.water_sources`)."""
        return hose.water_sources(self.scenario)

    def water_sources_reach(self, ladders: int = 0) -> tuple[IntArray, IntArray]:
        """(lengths, source) per node id: hose lengths from the best water source and its
        index in :meth:`water_sources`; -1 where none reaches (and on water)."""
        key = ladders
        if key not in self._reach_cache:
            self._reach_cache[key] = self._sources_reach(ladders)
        return self._reach_cache[key]

    def _sources_reach(self, ladders: int) -> tuple[IntArray, IntArray]:
        per, hyd, _ = hose.hose_numbers(self.scenario)
        return hose.sources_reach(
            self.water_sources(),
            lambda locs: self.hose_search(locs, ladders),
            self._water_nodes,
            per,
            hyd,
        )

    # -- editing ---------------------------------------------------------------------------
    def with_area_replaced(self, area: Area) -> MapGraph:
        """The graph after one area is replaced (same id) or added (new id).

        Only the edited area's contacts are recomputed; everything derived is rebuilt
        lazily on first use.
        """
        areas = list(self.scenario.areas)
        i = self._pos.get(area.id)
        ids: tuple[list[AreaId], dict[AreaId, int]] | None = (self._ids, self._pos)
        if i is None:
            i = len(areas)
            areas.append(area)
            ids = None
        else:
            areas[i] = area
        scenario = replace(self.scenario, areas=tuple(areas))
        shape = shapes((area,))[0]
        geoms = np.empty(max(len(self._geoms), i + 1), dtype=object)
        geoms[: len(self._geoms)] = self._geoms
        geoms[i] = shape
        dirty = self._dirty | {i}
        tree = self._tree
        if len(dirty) > _MAX_DIRTY:
            tree, dirty = shapely.STRtree(geoms), frozenset()

        adj = dict(self._adj)
        for j in adj.pop(i, {}):
            adj[j] = {k: v for k, v in adj[j].items() if k != i}
        candidates = set(tree.query(shape).tolist()) | set(dirty)
        candidates.discard(i)
        found = contacts(shape, geoms, sorted(candidates), scenario.scale.min_contact_cm)
        adj[i] = found
        for j, cm in found.items():
            adj[j] = {**adj.get(j, {}), i: cm}
        g = MapGraph(scenario, geoms, adj, tree, dirty, ids)
        if self._levels_unchanged(area, i):
            # Same location set: the node numbering stays valid.
            for name in ("_levels", "_order", "_first_node", "locations", "index", "_stairwells"):
                if name in self.__dict__:
                    g.__dict__[name] = self.__dict__[name]
        return g

    def _levels_unchanged(self, area: Area, i: int) -> bool:
        if i >= len(self.scenario.areas):
            return False
        old = self.scenario.areas[i]
        return old.kind == area.kind and old.building == area.building
