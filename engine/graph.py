"""Map graphs: which locations touch, climb, jump, drive and carry hose (rules §1, §7).

:func:`build_graph` turns a :class:`Scenario` into a :class:`MapGraph`, built once and cheap
to query. Areas are adjacent when their boundaries share at least ``scale.min_contact_cm``
(corner contact never counts). Two ways to find the pairs, with the same answer:

* **grid path** – when every polygon is valid and rectilinear with whole-centimetre corners
  (what the editor draws), shared edges are found by exact interval matching along each grid
  line, with numpy, in a few tens of milliseconds for 50,000 areas;
* **general path** – otherwise, one vectorised shapely STRtree query for all areas, then the
  length of each candidate pair's common boundary.

Inside, locations are integer node ids (``index``), with CSR arrays (``csr_indptr``,
``csr_indices``) for numpy users; the API speaks ``(area_id, level)``.

>>> from fireground.engine.scenario import Area, AreaKind, Scenario
>>> sq = lambda x: ((x, 0), (x + 10, 0), (x + 10, 10), (x, 10))
>>> s = Scenario(areas=(Area("A", AreaKind.STREET, sq(0)), Area("B", AreaKind.STREET, sq(10))))
>>> build_graph(s).area_neighbours("A")
['B']
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Collection, Iterable
from dataclasses import replace
from functools import cached_property
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry

from .scenario import Area, AreaId, AreaKind, FeatureType, Location, Scenario, Wind

IntArray = npt.NDArray[np.int64]
#: Float slack when comparing a measured contact with ``min_contact_cm``.
_EPS = 1e-9
#: Edited areas kept outside the STRtree before :meth:`MapGraph.with_area_replaced` rebuilds it.
_MAX_DIRTY = 64
DEFAULT_MAX_HOSE_LENGTHS = 14

# Adjacency is stored as {area index: {neighbour index: shared boundary cm}}.
Adjacency = dict[int, dict[int, float]]


def build_graph(
    scenario: Scenario, *, raw_shapes: npt.NDArray[np.object_] | None = None
) -> MapGraph:
    """Build the map graph of a scenario (never raises for bad geometry: see checks).

    ``raw_shapes``: the areas' polygons from :func:`raw_shapes`, when the caller has them.
    """
    geoms, valid = _shapes_and_validity(list(scenario.areas), raw_shapes)
    adjacency = _grid_adjacency(scenario, geoms) if valid else None
    if adjacency is None:
        adjacency = _general_adjacency(geoms, scenario.scale.min_contact_cm)
    return MapGraph(scenario, geoms, adjacency, shapely.STRtree(geoms), frozenset())


def max_hose_lengths(scenario: Scenario) -> int:
    """The longest hose line that still gives pressure (``hose.max_lengths`` of the ruleset
    with the scenario's house rules; 14 when the ruleset cannot be read)."""
    from .ruleset import load_ruleset, ruleset_data

    value: Any = None
    try:
        value = load_ruleset(scenario.ruleset, scenario.house_rules).get("hose.max_lengths")
    except Exception:  # unknown ruleset or bad house rule: the checks report it
        try:
            value = ruleset_data("blitz").get("hose", {}).get("max_lengths")
        except Exception:
            value = None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return DEFAULT_MAX_HOSE_LENGTHS
    return int(value)


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
        self._jump_cache: dict[int, list[tuple[int, int]]] = {}
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
        lo, hi = self._levels
        first = self._first_node
        pairs = [(i, j) for i, nb in self._adj.items() for j in nb if i < j]
        pa = np.array([p[0] for p in pairs], dtype=np.int64)
        pb = np.array([p[1] for p in pairs], dtype=np.int64)
        src: list[IntArray] = []
        dst: list[IntArray] = []
        for lvl in range(int(lo.min(initial=0)), int(hi.max(initial=0)) + 1):
            keep = (lo[pa] <= lvl) & (hi[pa] >= lvl) & (lo[pb] <= lvl) & (hi[pb] >= lvl)
            a, b = pa[keep], pb[keep]
            src.append(first[a] - lo[a] + lvl)
            dst.append(first[b] - lo[b] + lvl)
        n_flat = sum(len(s) for s in src)
        stairs = np.array(sorted(self._stairwells), dtype=np.int64)
        span = (hi - lo)[stairs] if len(stairs) else np.zeros(0, dtype=np.int64)
        owner = np.repeat(stairs, span)
        offset = np.arange(len(owner)) - np.repeat(np.cumsum(span) - span, span)
        below = first[owner] + offset
        src.append(below)
        dst.append(below + 1)
        s = np.concatenate(src) if src else np.zeros(0, dtype=np.int64)
        d = np.concatenate(dst) if dst else np.zeros(0, dtype=np.int64)
        kind = np.zeros(len(s), dtype=bool)
        kind[n_flat:] = True
        return (
            np.concatenate((s, d)).astype(np.int64),
            np.concatenate((d, s)).astype(np.int64),
            np.concatenate((kind, kind)),
        )

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
        return _within_45(self._centroid(i), self._centroid(j), towards)

    def _centroid(self, i: int) -> tuple[float, float]:
        return self.scenario.areas[i].centroid

    def jump_targets(self, loc: Location, wind: Wind) -> list[tuple[Location, int]]:
        """R-5: locations a fire of 5 at ``loc`` may jump to, with the gap areas crossed.

        "In a line" is read along the straight segment joining the two areas' centroids:
        between leaving A and entering B it must run through street/open/water areas only,
        with no undrawn table on the way, and cross one of them (any wind) or two (only when
        B is downwind of A, R-2). Adjacent areas are ordinary spread, never jumps. The
        target level is min(source level, the target's top level); basements do not jump.
        """
        i = self._pos.get(loc[0])
        if i is None or loc[1] < 0 or not self._has_level(i, loc[1]):
            return []
        if i not in self._jump_cache:
            self._jump_cache[i] = self._jump_candidates(i)
        towards = wind.towards_bearing
        out: list[tuple[Location, int]] = []
        for j, gaps in self._jump_cache[i]:
            if gaps == 2 and (
                towards is None or not _within_45(self._centroid(i), self._centroid(j), towards)
            ):
                continue
            level = min(loc[1], int(self._levels[1][j]))
            out.append(((self._ids[j], level), gaps))
        return sorted(out)

    def _jump_candidates(self, i: int) -> list[tuple[int, int]]:
        """(target area, gap areas crossed) for every building a jump from area i may reach."""
        areas = self.scenario.areas
        if areas[i].kind is not AreaKind.BUILDING or self._geoms[i].is_empty:
            return []
        # Gap areas touch A (corners included: a line may leave A through a corner).
        near = self._touching([i])
        gaps1 = [k for k in near if areas[k].kind is not AreaKind.BUILDING]
        gaps2 = [k for k in self._touching(gaps1) if areas[k].kind is not AreaKind.BUILDING]
        mine = self._adj.get(i, {})
        out: list[tuple[int, int]] = []
        for j in sorted(self._touching(gaps1 + gaps2)):
            if j == i or j in mine or areas[j].kind is not AreaKind.BUILDING:
                continue
            gaps = self._gaps_on_line(i, j)
            if gaps is not None and 1 <= gaps <= 2:
                out.append((j, gaps))
        return out

    def _touching(self, ks: list[int]) -> list[int]:
        """Areas whose shapes touch or cross any of ``ks`` (corner contact included)."""
        if not ks:
            return []
        shapes = self._geoms[np.array(ks, dtype=np.int64)]
        _, found = self._tree.query(shapes, predicate="intersects")
        cand = set(found.tolist()) | set(self._dirty)
        cand -= set(ks)
        idx = np.array(sorted(cand), dtype=np.int64)
        if not len(idx):
            return []
        union = shapely.union_all(shapes)
        hit = shapely.intersects(self._geoms[idx], union)
        return [int(k) for k in idx[hit]]

    def _gaps_on_line(self, i: int, j: int) -> int | None:
        """How many areas the centroid segment A->B crosses between A and B, when every one
        of them is non-flammable and they cover the whole way; None otherwise."""
        seg = LineString([self._centroid(i), self._centroid(j)])
        total = seg.length
        if total == 0:
            return None
        _, found = self._tree.query(np.array([seg], dtype=object), predicate="intersects")
        cand = (set(found.tolist()) | set(self._dirty)) - {i, j}
        idx = np.array(sorted(cand), dtype=np.int64)
        inside = float(shapely.length(shapely.intersection(seg, self._geoms[i])))
        inside += float(shapely.length(shapely.intersection(seg, self._geoms[j])))
        lengths = np.asarray(shapely.length(shapely.intersection(seg, self._geoms[idx])))
        crossed = idx[lengths > 1e-9 * max(total, 1.0)]
        if any(self.scenario.areas[k].kind is AreaKind.BUILDING for k in crossed.tolist()):
            return None
        covered = inside + float(lengths.sum())
        if abs(covered - total) > 1e-6 * max(total, 1.0):
            return None  # the line crosses undrawn table, or overlapping areas
        return len(crossed)

    # -- roads, feet and hoses -------------------------------------------------------------
    @cached_property
    def _road_base(self) -> nx.Graph:
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
        if ladders > 0:
            return self._dijkstra(starts, self._ladder_links(ladders))
        return self._bfs(starts)

    def _bfs(self, starts: list[tuple[int, int]]) -> tuple[IntArray, IntArray]:
        indptr, indices = self.csr_indptr.tolist(), self.csr_indices.tolist()
        water = self._water_nodes.tolist()
        dist, label = [-1] * len(water), [-1] * len(water)
        queue: deque[int] = deque()
        for n, k in starts:
            if dist[n] < 0:
                dist[n], label[n] = 0, k
                queue.append(n)
        while queue:
            n = queue.popleft()
            nd, lab = dist[n] + 1, label[n]
            for m in indices[indptr[n] : indptr[n + 1]]:
                if dist[m] < 0 and not water[m]:
                    dist[m], label[m] = nd, lab
                    queue.append(m)
        return np.array(dist, dtype=np.int64), np.array(label, dtype=np.int64)

    def _ladder_links(self, rating: int) -> dict[int, list[tuple[int, int]]]:
        """node -> [(node, steps)]: from a street/open area's level 0 up a ladder into the
        levels 1..rating of each adjacent building area, and back."""
        lo, hi = self._levels
        areas = self.scenario.areas
        links: dict[int, list[tuple[int, int]]] = {}
        for i, a in enumerate(areas):
            if a.kind is not AreaKind.BUILDING or hi[i] < 1:
                continue
            for j in self._adj.get(i, {}):
                if areas[j].kind not in (AreaKind.STREET, AreaKind.OPEN):
                    continue
                foot = int(self._first_node[j])
                for lvl in range(1, min(int(hi[i]), rating) + 1):
                    up = int(self._first_node[i] - lo[i] + lvl)
                    links.setdefault(foot, []).append((up, 1 + lvl))
                    links.setdefault(up, []).append((foot, 1 + lvl))
        return links

    def _dijkstra(
        self, starts: list[tuple[int, int]], extra: dict[int, list[tuple[int, int]]]
    ) -> tuple[IntArray, IntArray]:
        import heapq

        indptr, indices = self.csr_indptr.tolist(), self.csr_indices.tolist()
        water = self._water_nodes.tolist()
        dist, label = [-1] * len(water), [-1] * len(water)
        heap = [(0, k, n) for n, k in starts]
        heapq.heapify(heap)
        while heap:
            d, k, n = heapq.heappop(heap)
            if dist[n] >= 0:
                continue
            dist[n], label[n] = d, k
            for m in indices[indptr[n] : indptr[n + 1]]:
                if dist[m] < 0 and not water[m]:
                    heapq.heappush(heap, (d + 1, k, m))
            for m, w in extra.get(n, ()):
                if dist[m] < 0 and not water[m]:
                    heapq.heappush(heap, (d + w, k, m))
        return np.array(dist, dtype=np.int64), np.array(label, dtype=np.int64)

    @staticmethod
    def hose_lengths(steps: int, hydrant: bool = True) -> int:
        """Lengths for a hose path of ``steps`` steps: one length covers two steps, and a
        hydrant takes one more length to connect (open water is drawn by suction)."""
        return math.ceil(steps / 2) + (1 if hydrant else 0)

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
        """(location, is a hydrant) of every source giving water: hydrants while the mains
        work, and open water, in feature order."""
        out: list[tuple[Location, bool]] = []
        for f in self.scenario.features:
            if f.type is FeatureType.HYDRANT and self.scenario.mains != "failed":
                out.append(((f.area, 0), True))
            elif f.type is FeatureType.WATER:
                out.append(((f.area, 0), False))
        return out

    def water_sources_reach(self, ladders: int = 0) -> tuple[IntArray, IntArray]:
        """(lengths, source) per node id: hose lengths from the best water source and its
        index in :meth:`water_sources`; -1 where none reaches (and on water)."""
        key = ladders
        if key not in self._reach_cache:
            self._reach_cache[key] = self._sources_reach(ladders)
        return self._reach_cache[key]

    def _sources_reach(self, ladders: int) -> tuple[IntArray, IntArray]:
        sources = self.water_sources()
        n = len(self.locations)
        best, best_src = np.full(n, -1, dtype=np.int64), np.full(n, -1, dtype=np.int64)
        for hydrant in (True, False):
            picked = [k for k, (_, h) in enumerate(sources) if h == hydrant]
            if not picked:
                continue
            steps, lab = self.hose_search([sources[k][0] for k in picked], ladders)
            ok = steps >= 0
            if not hydrant:  # a pump on a bank: the bank is step 0
                ok &= steps >= 1
                steps = steps - 1
            lengths = np.where(ok, (steps + 1) // 2 + (1 if hydrant else 0), -1)
            better = ok & ((best < 0) | (lengths < best))
            best[better] = lengths[better]
            best_src[better] = np.array(picked, dtype=np.int64)[lab[better]]
        best[self._water_nodes] = -1
        best_src[self._water_nodes] = -1
        return best, best_src

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
        shape = _shapes((area,))[0]
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
        found = _contacts(shape, geoms, sorted(candidates), scenario.scale.min_contact_cm)
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


# -- geometry helpers ------------------------------------------------------------------------
def _within_45(a: tuple[float, float], b: tuple[float, float], towards: float) -> bool:
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 and dy == 0:
        return False
    bearing = math.degrees(math.atan2(dx, dy)) % 360.0
    diff = abs((bearing - towards + 180.0) % 360.0 - 180.0)
    return diff <= 45.0 + 1e-9


def _shapes(areas: Iterable[Area]) -> npt.NDArray[np.object_]:
    """Shapely polygons of the areas, built in one vectorised call. A polygon that cannot be
    built (fewer than 3 points, NaN) becomes empty; an invalid one is made valid, so that
    queries never fail on it (the checks report both)."""
    return _shapes_and_validity(list(areas))[0]


def _shapes_and_validity(
    areas: list[Area], raw: npt.NDArray[np.object_] | None = None
) -> tuple[npt.NDArray[np.object_], bool]:
    """(shapes made valid, every polygon was valid and not empty as drawn)."""
    arr = raw_shapes(areas) if raw is None else raw.copy()
    invalid = ~shapely.is_valid(arr)
    if invalid.any():
        arr[invalid] = shapely.make_valid(arr[invalid])
    all_valid = not invalid.any() and not shapely.is_empty(arr).any()
    return arr, bool(all_valid)


def raw_shapes(areas: Iterable[Area]) -> npt.NDArray[np.object_]:
    """The areas' polygons as drawn (maybe invalid), built in one vectorised call; an empty
    polygon where none can be built (fewer than 3 points, NaN or infinite coordinates)."""
    areas = list(areas)
    arr = np.empty(len(areas), dtype=object)
    arr[:] = Polygon()
    lens = np.array([len(a.polygon) for a in areas], dtype=np.int64)
    try:
        pts = np.array([p for a in areas for p in a.polygon], dtype=float).reshape(-1, 2)
    except (ValueError, TypeError):  # ragged points: build one by one
        for k, a in enumerate(areas):
            arr[k] = _one_shape(a)
        return arr
    if len(areas):
        owner = np.repeat(np.arange(len(areas)), lens)
        finite = np.ones(len(areas), dtype=bool)
        finite[owner[~np.isfinite(pts).all(axis=1)]] = False
        good = finite & (lens >= 3)
        try:
            rings = shapely.linearrings(pts[good[owner]], indices=owner[good[owner]])
            arr[np.flatnonzero(good)] = shapely.polygons(rings)
        except Exception:  # e.g. a ring of repeated points: build one by one
            for k in np.flatnonzero(good).tolist():
                arr[k] = _one_shape(areas[k])
    return arr


def _one_shape(area: Area) -> BaseGeometry:
    try:
        pts = area.polygon
        if len(pts) < 3 or not all(math.isfinite(c) for p in pts for c in p):
            return Polygon()
        return Polygon(pts)
    except Exception:
        return Polygon()


def _contacts(
    shape: BaseGeometry, geoms: npt.NDArray[np.object_], candidates: list[int], min_cm: float
) -> dict[int, float]:
    if not candidates or shape.is_empty:
        return {}
    idx = np.array(candidates, dtype=np.int64)
    lengths = _shared_lengths(np.full(len(idx), shape, dtype=object), geoms[idx])
    return {int(j): float(cm) for j, cm in zip(idx, lengths, strict=True) if cm >= min_cm - _EPS}


def _shared_lengths(
    a: npt.NDArray[np.object_], b: npt.NDArray[np.object_]
) -> npt.NDArray[np.float64]:
    """Length of a's boundary lying in b (the shared edge; a slight overlap still counts)."""
    with np.errstate(all="ignore"):
        try:
            return np.asarray(shapely.length(shapely.intersection(shapely.boundary(a), b)))
        except shapely.errors.GEOSException:
            out = np.zeros(len(a))
            for k in range(len(a)):
                try:
                    out[k] = shapely.length(shapely.intersection(shapely.boundary(a[k]), b[k]))
                except shapely.errors.GEOSException:
                    out[k] = 0.0
            return out


def _general_adjacency(geoms: npt.NDArray[np.object_], min_cm: float) -> Adjacency:
    adj: Adjacency = {}
    if len(geoms) == 0:
        return adj
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate="intersects")
    keep = left < right
    left, right = left[keep], right[keep]
    lengths = _shared_lengths(geoms[left], geoms[right])
    ok = lengths >= min_cm - _EPS
    for i, j, cm in zip(left[ok].tolist(), right[ok].tolist(), lengths[ok].tolist(), strict=True):
        adj.setdefault(i, {})[j] = cm
        adj.setdefault(j, {})[i] = cm
    return adj


def _grid_adjacency(scenario: Scenario, geoms: npt.NDArray[np.object_]) -> Adjacency | None:
    """Exact shared edges when all polygons are valid, rectilinear, on whole centimetres.

    On such a map any overlap covers at least 1 cm², so if the overlap tolerance is below
    that, a map that checks clean has no overlaps and shared boundaries are exactly the
    overlaps of opposite-facing collinear edges. Returns None when the map does not qualify.
    """
    areas = scenario.areas
    if not areas or scenario.scale.overlap_tolerance_cm2 >= 1.0:
        return None
    # Callers pass only valid, non-empty polygons, so each is one Polygon without holes.
    coords, owner = shapely.get_coordinates(shapely.get_exterior_ring(geoms), return_index=True)
    if not np.array_equal(coords, np.round(coords)) or np.abs(coords).max() > 1e7:
        return None  # (huge coordinates would lose the exactness of the packed keys)
    same = owner[1:] == owner[:-1]  # closed rings: consecutive points of one ring are edges
    p0, p1, who = coords[:-1][same], coords[1:][same], owner[:-1][same]
    dx, dy = p1[:, 0] - p0[:, 0], p1[:, 1] - p0[:, 1]
    if np.any((dx != 0) & (dy != 0)):
        return None
    # Orient every ring counter-clockwise (interior on the left) by flipping clockwise ones.
    cross = p0[:, 0] * p1[:, 1] - p1[:, 0] * p0[:, 1]
    sign = np.sign(np.bincount(who, weights=cross, minlength=len(areas)))[who]
    dx, dy = dx * sign, dy * sign
    min_cm = scenario.scale.min_contact_cm
    pairs: list[IntArray] = []
    lens: list[npt.NDArray[np.float64]] = []
    # Vertical edges: going north the interior is west, so it is its area's east side.
    for mask_a, mask_b, line, lo_c, hi_c in (
        (dy > 0, dy < 0, p0[:, 0], np.minimum(p0[:, 1], p1[:, 1]), np.maximum(p0[:, 1], p1[:, 1])),
        (dx < 0, dx > 0, p0[:, 1], np.minimum(p0[:, 0], p1[:, 0]), np.maximum(p0[:, 0], p1[:, 0])),
    ):
        found = _match_intervals(line, lo_c, hi_c, who, mask_a, mask_b)
        if found is None:
            return None
        pairs.append(found[0])
        lens.append(found[1])
    if not pairs:
        return {}
    ab = np.concatenate(pairs, axis=1)
    ln = np.concatenate(lens)
    a, b = np.minimum(ab[0], ab[1]), np.maximum(ab[0], ab[1])
    key = a * len(areas) + b
    uniq, inv = np.unique(key, return_inverse=True)
    total = np.zeros(len(uniq))
    np.add.at(total, inv, ln)
    ok = total >= min_cm - _EPS
    adj: Adjacency = {}
    for k, cm in zip(uniq[ok].tolist(), total[ok].tolist(), strict=True):
        i, j = divmod(k, len(areas))
        if i == j:
            continue
        adj.setdefault(i, {})[j] = cm
        adj.setdefault(j, {})[i] = cm
    return adj


def _match_intervals(
    line: npt.NDArray[np.float64],
    lo: npt.NDArray[np.float64],
    hi: npt.NDArray[np.float64],
    who: IntArray,
    side_a: npt.NDArray[np.bool_],
    side_b: npt.NDArray[np.bool_],
) -> tuple[IntArray, npt.NDArray[np.float64]] | None:
    """Overlaps between side-a and side-b intervals on the same line: (pairs, lengths).

    Intervals of one side on one line must not overlap (they would be overlapping areas);
    if they do, return None and let the general path decide.
    """
    if not side_a.any() or not side_b.any():
        return np.zeros((2, 0), dtype=np.int64), np.zeros(0)
    span = float(max(hi.max(), 1.0) - min(lo.min(), 0.0)) + 1.0
    base = float(min(lo.min(), 0.0))
    _, rank = np.unique(line, return_inverse=True)

    def keys(mask: npt.NDArray[np.bool_]) -> tuple[Any, ...]:
        r = rank[mask].astype(np.float64) * span
        s, e, w = r + (lo[mask] - base), r + (hi[mask] - base), who[mask]
        order = np.argsort(s, kind="stable")
        return s[order], e[order], w[order]

    sa, ea, wa = keys(side_a)
    sb, eb, wb = keys(side_b)
    if np.any(eb[:-1] > sb[1:]) or np.any(ea[:-1] > sa[1:]):
        return None
    first = np.searchsorted(eb, sa, side="right")
    last = np.searchsorted(sb, ea, side="left")
    count = np.maximum(last - first, 0)
    rows = np.repeat(np.arange(len(sa)), count)
    cols = np.repeat(first, count) + (
        np.arange(count.sum()) - np.repeat(np.cumsum(count) - count, count)
    )
    length = np.minimum(ea[rows], eb[cols]) - np.maximum(sa[rows], sb[cols])
    keep = length > 0
    return np.vstack((wa[rows][keep], wb[cols][keep])).astype(np.int64), length[keep]
