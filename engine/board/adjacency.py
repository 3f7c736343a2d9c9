"""Which areas share an edge, and how long it is (rules §1: corner contact never counts).

Two ways to find the pairs, with the same answer:

* :func:`grid_adjacency` – when every polygon is valid and rectilinear with whole-centimetre
  corners (what the editor draws), shared edges are found by exact interval matching along
  each grid line, with numpy, in a few tens of milliseconds for 50,000 areas;
* :func:`general_adjacency` – otherwise, one vectorised shapely STRtree query for all areas,
  then the length of each candidate pair's common boundary.

:func:`location_edges` turns the area pairs (and stairwells) into edges between locations.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

from .model import Scenario

IntArray = npt.NDArray[np.int64]
#: Float slack when comparing a measured contact with ``min_contact_cm``.
EPS = 1e-9

#: Adjacency is stored as {area index: {neighbour index: shared boundary cm}}.
Adjacency = dict[int, dict[int, float]]


def location_edges(
    adjacency: Adjacency,
    levels: tuple[IntArray, IntArray],
    first_node: IntArray,
    stairwells: Collection[int],
) -> tuple[IntArray, IntArray, npt.NDArray[np.bool_]]:
    """Directed edges between locations (src, dst, is_stairs), both directions of each link:
    adjacent areas at every level both have, and each stairwell area's levels in turn.

    ``levels`` is (lowest, highest) level by area index and ``first_node`` the node id of
    each area's lowest level; node ids of one area's levels are consecutive.
    """
    lo, hi = levels
    first = first_node
    pairs = [(i, j) for i, nb in adjacency.items() for j in nb if i < j]
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
    stairs = np.array(sorted(stairwells), dtype=np.int64)
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


def contacts(
    shape: BaseGeometry, geoms: npt.NDArray[np.object_], candidates: list[int], min_cm: float
) -> dict[int, float]:
    if not candidates or shape.is_empty:
        return {}
    idx = np.array(candidates, dtype=np.int64)
    lengths = shared_lengths(np.full(len(idx), shape, dtype=object), geoms[idx])
    return {int(j): float(cm) for j, cm in zip(idx, lengths, strict=True) if cm >= min_cm - EPS}


def shared_lengths(
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


def general_adjacency(geoms: npt.NDArray[np.object_], min_cm: float) -> Adjacency:
    adj: Adjacency = {}
    if len(geoms) == 0:
        return adj
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate="intersects")
    keep = left < right
    left, right = left[keep], right[keep]
    lengths = shared_lengths(geoms[left], geoms[right])
    ok = lengths >= min_cm - EPS
    for i, j, cm in zip(left[ok].tolist(), right[ok].tolist(), lengths[ok].tolist(), strict=True):
        adj.setdefault(i, {})[j] = cm
        adj.setdefault(j, {})[i] = cm
    return adj


def grid_adjacency(scenario: Scenario, geoms: npt.NDArray[np.object_]) -> Adjacency | None:
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
    ok = total >= min_cm - EPS
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
