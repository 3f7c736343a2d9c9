"""R-5 jump lines and the R-2 downwind test, on the areas' shapes.

"In a line" is read along the straight segment joining the two areas' centroids: between
leaving A and entering B it must run through street/open/water areas only, with no undrawn
table on the way, and cross one or two of them. :class:`JumpFinder` lists those lines once
per source area, with the gap areas crossed; :meth:`~.graph.MapGraph.jump_lines` adds the
levels, and the fire step checks at run time that the gap areas are still non-flammable
(rubble or a vehicle makes a street burn, §1) and that the target is flammable.
:meth:`~.graph.MapGraph.jump_targets` is the static building-to-building view of the same
lines, with the wind applied.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import LineString

from .model import Area, AreaKind


def within_45(a: tuple[float, float], b: tuple[float, float], towards: float) -> bool:
    """R-2: the bearing from point a to point b is within 45 degrees of ``towards``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    if dx == 0 and dy == 0:
        return False
    bearing = math.degrees(math.atan2(dx, dy)) % 360.0
    diff = abs((bearing - towards + 180.0) % 360.0 - 180.0)
    return diff <= 45.0 + 1e-9


@dataclass(frozen=True, eq=False)
class JumpFinder:
    """The areas with their shapes and an STRtree over them; ``dirty`` areas changed since
    the tree was built, so they are always tested directly."""

    areas: Sequence[Area]
    geoms: npt.NDArray[np.object_]
    tree: shapely.STRtree
    dirty: frozenset[int]
    #: by area: the areas (not dirty) the tree finds its shape meets, asked once
    meets: dict[int, frozenset[int]] = field(default_factory=dict)
    #: True: every length asked of GEOS (the reference the clipped lengths are checked on)
    exact: bool = False
    #: the convex areas' edges, made at the first line (see :class:`ConvexEdges`)
    edges: list[ConvexEdges] = field(default_factory=list)

    def lines(self, i: int, adjacent: Collection[int]) -> list[tuple[int, tuple[int, ...]]]:
        """(target area, gap areas crossed) for every area that is not water
        which a jump from area i (not water) may reach over one or two street/open/water
        areas; ``adjacent`` areas (ordinary spread) are left out. Whether the gap areas and
        the target can burn is a question of the moment, for the fire step."""
        areas = self.areas
        if areas[i].kind is AreaKind.WATER or self.geoms[i].is_empty:
            return []
        # Gap areas touch A (corners included: a line may leave A through a corner).
        near = self._touching([i])
        gaps1 = [k for k in near if areas[k].kind is not AreaKind.BUILDING]
        gaps2 = [k for k in self._touching(gaps1) if areas[k].kind is not AreaKind.BUILDING]
        out: list[tuple[int, tuple[int, ...]]] = []
        # a street or open area beyond the gap may be a target itself (rubble, a vehicle)
        js = [
            j for j in sorted(set(self._touching(gaps1 + gaps2)) | set(gaps1) | set(gaps2))
            if j != i and j not in adjacent and areas[j].kind is not AreaKind.WATER
        ]  # fmt: skip
        for j, gaps in zip(js, self._gaps_on_lines(i, js, 2), strict=True):
            if gaps is not None and 1 <= len(gaps) <= 2:
                out.append((j, gaps))
        return out

    def _gaps_on_lines(
        self, i: int, js: list[int], most: int | None = None
    ) -> list[tuple[int, ...] | None]:
        """:meth:`_gaps_on_line` from ``i`` to each of ``js``, the shapes' questions asked in
        a few array calls (the same questions, so the same answers). The lines through a
        building are found first (the building candidates' lengths); the rest of a line's
        lengths are asked only when it crosses none (about half the lines do). With
        ``most``, a line crossing no gap area or more than ``most`` is None as well (its
        lengths in A and in B, for the check that the areas cover it, are not asked)."""
        if not js:
            return []
        areas = self.areas
        ends = np.array([areas[j].centroid for j in js], dtype=float)
        start = np.broadcast_to(np.asarray(areas[i].centroid, dtype=float), ends.shape)
        segs = shapely.linestrings(np.stack([start, ends], axis=1))
        totals = shapely.length(segs).tolist()
        # the candidates: the areas whose box meets the line's (the shapes' own test, the
        # tree's ``intersects``, is asked only of the lines GEOS's lengths decide, below)
        seg_of, found = self.tree.query(segs, predicate="intersects" if self.exact else None)
        hits: list[set[int]] = [set() for _ in js]
        for s, k in zip(seg_of.tolist(), found.tolist(), strict=True):
            hits[s].add(k)
        dirty = set(self.dirty)
        cands = [sorted((hits[n] | dirty) - {i, j}) for n, j in enumerate(js)]
        building = [[areas[k].kind is AreaKind.BUILDING for k in c] for c in cands]
        thr = [1e-9 * max(t, 1.0) for t in totals]
        # Every (line, area) length the answer may need: the candidates, then A, then B.
        # Convex areas' lengths are clipped here (a few array calls); a clipped length
        # decides only with a margin the rounding cannot cross, else GEOS is asked.
        rows: list[tuple[int, int]] = []
        for n, j in enumerate(js):
            if totals[n] != 0:
                rows.extend((n, k) for k in cands[n])
                rows.append((n, i))
                rows.append((n, j))
        got, sure = self._clip(segs, rows)
        at: list[int] = [0] * len(js)  # each line's first row
        r = 0
        for n in range(len(js)):
            if totals[n] != 0:
                at[n] = r
                r += len(cands[n]) + 2
        # a clipped length is unsure near the threshold: asked of GEOS (one call)
        ask: list[int] = []
        for n in range(len(js)):
            if totals[n] != 0:
                lo, hi = 0.5 * thr[n], 2.0 * thr[n]
                for q in range(at[n], at[n] + len(cands[n])):
                    if sure[q] and lo <= got[q] <= hi:
                        sure[q] = False
                for q in range(at[n], at[n] + len(cands[n]) + 2):
                    if not sure[q]:
                        ask.append(q)
        self._exact(segs, rows, ask, got)
        out: list[tuple[int, ...] | None] = [None] * len(js)
        for n in range(len(js)):
            if totals[n] == 0:
                continue
            a, c = at[n], len(cands[n])
            crossed = [m for m in range(c) if got[a + m] > thr[n]]
            if any(building[n][m] for m in crossed):
                continue  # a line crossing a building is no jump line
            if most is not None and not 1 <= len(crossed) <= most:
                continue
            total = totals[n]
            if any(sure[a : a + c + 2]):  # clipped: decided with a margin, or asked again
                covered = got[a + c] + got[a + c + 1] + sum(got[a : a + c])
                gap = abs(covered - total)
                if gap > 2e-6 * max(total, 1.0):
                    continue  # the line crosses undrawn table, or overlapping areas
                if gap < 0.5e-6 * max(total, 1.0):
                    out[n] = tuple(cands[n][m] for m in crossed)
                    continue
            # GEOS's lengths in the candidates the tree's ``intersects`` gives: the sums as
            # before (an area off the line adds nothing, but the sum's order would change)
            meet = list(range(c))
            if not self.exact and c:
                seg = segs[n]
                shapely.prepare(seg)  # the tree's own test: the line prepared
                ok = shapely.intersects(seg, self.geoms[np.array(cands[n], dtype=np.int64)])
                meet = [m for m in meet if ok[m] or cands[n][m] in dirty]
            need = [a + m for m in meet] + [a + c, a + c + 1]
            self._exact(segs, rows, [q for q in need if sure[q]], got)
            line = np.array([got[a + m] for m in meet], dtype=float)
            inside = float(got[a + c])
            inside += float(got[a + c + 1])
            covered = inside + float(line.sum())
            if abs(covered - total) > 1e-6 * max(total, 1.0):
                continue  # the line crosses undrawn table, or overlapping areas
            out[n] = tuple(cands[n][m] for m in crossed)
        return out

    def _exact(
        self,
        segs: npt.NDArray[np.object_],
        rows: list[tuple[int, int]],
        ask: list[int],
        got: list[float],
    ) -> None:
        """``got[q]``: GEOS's length of line ``rows[q][0]`` inside area ``rows[q][1]``, for
        each q of ``ask`` (one array call)."""
        if not ask:
            return
        seg_idx = np.array([rows[q][0] for q in ask], dtype=np.int64)
        geom_idx = np.array([rows[q][1] for q in ask], dtype=np.int64)
        val = shapely.length(shapely.intersection(segs[seg_idx], self.geoms[geom_idx])).tolist()
        for q, v in zip(ask, val, strict=True):
            got[q] = v

    def _clip(
        self, segs: npt.NDArray[np.object_], rows: list[tuple[int, int]]
    ) -> tuple[list[float], list[bool]]:
        """Each row's (line, area) length, clipped against the area's edges when the area
        is convex (Cyrus-Beck) and the line runs along none of its edges, with whether it
        was (``sure``); the other rows are left for GEOS. In :attr:`exact` mode, none."""
        got = [0.0] * len(rows)
        sure = [False] * len(rows)
        if self.exact or not rows:
            return got, sure
        if not self.edges:
            self.edges.append(ConvexEdges.of(self.geoms))
        ce = self.edges[0]
        seg_idx = np.array([n for n, _k in rows], dtype=np.int64)
        area_idx = np.array([k for _n, k in rows], dtype=np.int64)
        use = np.flatnonzero(ce.count[area_idx] > 0)
        if not len(use):
            return got, sure
        xy = shapely.get_coordinates(segs)  # two points a line
        sx, sy = xy[0::2, 0][seg_idx[use]], xy[0::2, 1][seg_idx[use]]
        dx, dy = xy[1::2, 0][seg_idx[use]] - sx, xy[1::2, 1][seg_idx[use]] - sy
        length = np.hypot(dx, dy)
        k = area_idx[use]
        cnt = ce.count[k]
        first = np.cumsum(cnt) - cnt  # each row's first edge row
        e = np.repeat(ce.start[k] - first, cnt) + np.arange(int(cnt.sum()))
        r = np.repeat(np.arange(len(use)), cnt)
        num = ce.nx[e] * (sx[r] - ce.ax[e]) + ce.ny[e] * (sy[r] - ce.ay[e])
        den = ce.nx[e] * dx[r] + ce.ny[e] * dy[r]
        # along an edge's line (both ends within a hair of it): GEOS decides
        band = 1e-6 * np.maximum(length, 1.0)[r] * ce.norm[e]
        along = (np.abs(num) <= band) & (np.abs(num + den) <= band)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = -num / den
        enter = np.where(den > 0, t, -np.inf)
        leave = np.where(den < 0, t, np.inf)
        shut = (den == 0) & (num < 0)
        lo = np.maximum(np.maximum.reduceat(enter, first), 0.0)
        hi = np.minimum(np.minimum.reduceat(leave, first), 1.0)
        out = np.maximum(hi - lo, 0.0) * length
        out[np.logical_or.reduceat(shut, first)] = 0.0
        bad = np.logical_or.reduceat(along, first)
        for q, v, b in zip(use.tolist(), out.tolist(), bad.tolist(), strict=True):
            if not b:
                got[q] = v
                sure[q] = True
        return got, sure

    def _touching(self, ks: list[int]) -> list[int]:
        """Areas whose shapes touch or cross any of ``ks`` (corner contact included), sorted:
        the tree's own test of each shape (GEOS ``intersects``). No union of the shapes is
        made to ask again: an area meets the union exactly when it meets one of them."""
        if not ks:
            return []
        meets = self.meets
        new = sorted({k for k in ks if k not in meets})
        if new:  # the tree's answers for each shape (one array call), kept
            got: dict[int, set[int]] = {k: set() for k in new}
            at, found = self.tree.query(self.geoms[np.array(new, dtype=np.int64)], "intersects")
            for a, k in zip(at.tolist(), found.tolist(), strict=True):
                got[new[a]].add(k)
            for k, hit in got.items():
                meets[k] = frozenset(hit - self.dirty)
        cand: set[int] = set().union(*(meets[k] for k in ks))
        cand -= set(ks)
        if self.dirty:  # the tree holds their old shapes: each asked of every shape here
            shapes = self.geoms[np.array(ks, dtype=np.int64)]
            rest = np.array(sorted(self.dirty - set(ks)), dtype=np.int64)
            if len(rest):
                meet = shapely.intersects(self.geoms[rest][:, None], shapes[None, :]).any(axis=1)
                cand.update(int(k) for k in rest[meet])
        return sorted(cand)

    def _gaps_on_line(self, i: int, j: int) -> tuple[int, ...] | None:
        """The areas the centroid segment A->B crosses between A and B (by index), when none of them is a building and they cover the whole way; None otherwise."""
        seg = LineString([self.areas[i].centroid, self.areas[j].centroid])
        total = seg.length
        if total == 0:
            return None
        _, found = self.tree.query(np.array([seg], dtype=object), predicate="intersects")
        cand = (set(found.tolist()) | set(self.dirty)) - {i, j}
        idx = np.array(sorted(cand), dtype=np.int64)
        inside = float(shapely.length(shapely.intersection(seg, self.geoms[i])))
        inside += float(shapely.length(shapely.intersection(seg, self.geoms[j])))
        lengths = np.asarray(shapely.length(shapely.intersection(seg, self.geoms[idx])))
        crossed = idx[lengths > 1e-9 * max(total, 1.0)]
        if any(self.areas[k].kind is AreaKind.BUILDING for k in crossed.tolist()):
            return None
        covered = inside + float(lengths.sum())
        if abs(covered - total) > 1e-6 * max(total, 1.0):
            return None  # the line crosses undrawn table, or overlapping areas
        return tuple(int(k) for k in crossed.tolist())


class ConvexEdges:
    """The edges of the convex areas (valid polygons without holes, every turn to the
    left once the ring runs anticlockwise), end to end: area k's are rows ``start[k]`` to
    ``start[k] + count[k]`` (``count`` 0 for the other areas): each edge's first corner
    (``ax``, ``ay``), its inward normal (``nx``, ``ny``: the edge turned left) and the
    normal's length ``norm``. A plain class: a dataclass would compile its methods at
    import, for every process (start-up)."""

    __slots__ = ("ax", "ay", "count", "norm", "nx", "ny", "start")

    def __init__(
        self,
        start: npt.NDArray[np.int64],
        count: npt.NDArray[np.int64],
        ax: npt.NDArray[np.float64],
        ay: npt.NDArray[np.float64],
        nx: npt.NDArray[np.float64],
        ny: npt.NDArray[np.float64],
        norm: npt.NDArray[np.float64],
    ) -> None:
        self.start, self.count, self.ax, self.ay = start, count, ax, ay
        self.nx, self.ny, self.norm = nx, ny, norm

    @classmethod
    def of(cls, geoms: npt.NDArray[np.object_]) -> ConvexEdges:
        start = np.zeros(len(geoms), dtype=np.int64)
        count = np.zeros(len(geoms), dtype=np.int64)
        parts: list[npt.NDArray[np.float64]] = []
        at = 0
        for k, g in enumerate(geoms.tolist()):
            ring = _convex_ring(g)
            if ring is None:
                continue
            start[k], count[k] = at, len(ring) - 1
            parts.append(ring)
            at += len(ring) - 1
        if not parts:
            empty = np.zeros(0, dtype=float)
            return cls(start, count, empty, empty, empty, empty, empty)
        a = np.concatenate([p[:-1] for p in parts])
        b = np.concatenate([p[1:] for p in parts])
        nx, ny = -(b[:, 1] - a[:, 1]), b[:, 0] - a[:, 0]
        return cls(start, count, a[:, 0], a[:, 1], nx, ny, np.hypot(nx, ny))


def _convex_ring(g: object) -> npt.NDArray[np.float64] | None:
    """The closed anticlockwise ring of a convex polygon without repeated corners, or None
    when ``g`` is anything else."""
    if not isinstance(g, shapely.Polygon) or g.is_empty or g.interiors or not g.is_valid:
        return None
    ring = np.asarray(g.exterior.coords, dtype=float)[:, :2]
    if not shapely.is_ccw(g.exterior):
        ring = ring[::-1]
    keep = np.ones(len(ring), dtype=bool)
    keep[1:] = np.any(ring[1:] != ring[:-1], axis=1)
    ring = ring[keep]
    if len(ring) < 4:
        return None
    e = np.diff(ring, axis=0)
    turn = e[:, 0] * np.roll(e[:, 1], -1) - e[:, 1] * np.roll(e[:, 0], -1)
    if np.any(turn < 0):
        return None
    return ring
