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
        seg_of, found = self.tree.query(segs, predicate="intersects")
        hits: list[set[int]] = [set() for _ in js]
        for s, k in zip(seg_of.tolist(), found.tolist(), strict=True):
            hits[s].add(k)
        dirty = set(self.dirty)
        cands = [sorted((hits[n] | dirty) - {i, j}) for n, j in enumerate(js)]
        building = [[areas[k].kind is AreaKind.BUILDING for k in c] for c in cands]
        # 1. each line's building candidates: a line crossing one is no jump line. Asked in
        # two calls: each line's first building candidate (every candidate meets the line,
        # so most lines through a building are found by it), then the others of the lines
        # left; a line found crossing one needs no more answers, a line kept has them all.
        lengths: list[list[float]] = [[0.0] * len(c) for c in cands]
        blds = [[m for m, is_b in enumerate(b) if is_b] for b in building]
        left = [n for n in range(len(js)) if totals[n] != 0]
        for first in (True, False):
            if first:
                pairs = [(n, blds[n][0]) for n in left if blds[n]]
            else:
                pairs = [(n, m) for n in left for m in blds[n][1:]]
            self._fill(segs, cands, pairs, lengths)
            left = [
                n
                for n in left
                if not any(lengths[n][m] > 1e-9 * max(totals[n], 1.0) for m in blds[n])
            ]
        alive = left
        # 2. the lines left: their other candidates, and their lengths in A and in B
        pairs = [(n, m) for n in alive for m, is_b in enumerate(building[n]) if not is_b]
        self._fill(segs, cands, pairs, lengths)
        out: list[tuple[int, ...] | None] = [None] * len(js)
        found = []  # (line, its candidates crossed, its lengths in them)
        for n in alive:
            idx = np.array(cands[n], dtype=np.int64)
            line = np.array(lengths[n], dtype=float)
            crossed = idx[line > 1e-9 * max(totals[n], 1.0)]
            if most is None or 1 <= len(crossed) <= most:
                found.append((n, crossed, line))
        if not found:
            return out
        picked = np.array([n for n, _c, _l in found], dtype=np.int64)
        in_i = shapely.length(shapely.intersection(segs[picked], self.geoms[i])).tolist()
        own = self.geoms[np.array([js[n] for n, _c, _l in found], dtype=np.int64)]
        in_j = shapely.length(shapely.intersection(segs[picked], own)).tolist()
        for a, (n, crossed, line) in enumerate(found):
            total = totals[n]
            inside = float(in_i[a])
            inside += float(in_j[a])
            covered = inside + float(line.sum())
            if abs(covered - total) > 1e-6 * max(total, 1.0):
                continue  # the line crosses undrawn table, or overlapping areas
            out[n] = tuple(int(k) for k in crossed.tolist())
        return out

    def _fill(
        self,
        segs: npt.NDArray[np.object_],
        cands: list[list[int]],
        pairs: list[tuple[int, int]],
        lengths: list[list[float]],
    ) -> None:
        """``lengths[n][m]``: the length of line ``n`` inside its candidate area
        ``cands[n][m]``, for each (n, m) of ``pairs`` (one array call)."""
        if not pairs:
            return
        seg_idx = np.array([n for n, _m in pairs], dtype=np.int64)
        geom_idx = np.array([cands[n][m] for n, m in pairs], dtype=np.int64)
        got = shapely.length(shapely.intersection(segs[seg_idx], self.geoms[geom_idx])).tolist()
        for (n, m), v in zip(pairs, got, strict=True):
            lengths[n][m] = v

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
