"""Geometry checks: polygons that cannot be played (FG110, FG111), odd sizes (FG114),
overlaps (FG112) and near-misses (FG113)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import shapely

from ....board.model import AreaKind
from .context import CheckContext, Finding

#: Areas closer than this (cm) that do not touch are reported as a drawing slip.
NEAR_MISS_CM = 1.0
#: An area smaller than LOW or larger than HIGH times the nominal area is reported.
SIZE_LOW, SIZE_HIGH = 0.25, 4.0


def _polygons(ctx: CheckContext) -> Iterator[Finding]:
    nominal = ctx.s.scale.area_cm**2
    raw = ctx.raw
    empty = shapely.is_empty(raw)
    area = np.nan_to_num(shapely.area(raw))
    valid = shapely.is_valid(raw)
    water = np.array([a.kind is AreaKind.WATER for a in ctx.s.areas], dtype=bool)
    ratio = area / nominal if nominal > 0 else np.ones(len(raw))
    odd = ~water & ((ratio < SIZE_LOW) | (ratio > SIZE_HIGH))
    bad = empty | (area <= 0) | ~valid | odd
    for i in np.flatnonzero(bad).tolist():
        a = ctx.s.areas[i]
        path = ("areas", i)
        if empty[i]:
            msg = f"area {a.id}: polygon needs 3 distinct finite points"
            yield ctx.finding("FG111", "error", msg, a.id, path=path)
        elif area[i] <= 0:
            yield ctx.finding(
                "FG111", "error", f"area {a.id}: polygon has no area", a.id, path=path
            )
        elif not valid[i]:
            why = shapely.is_valid_reason(raw[i])
            msg = f"area {a.id}: invalid polygon ({why})"
            yield ctx.finding("FG110", "error", msg, a.id, path=path)
        else:
            msg = f"area {a.id} covers {area[i]:g} cm², {ratio[i]:.2g}× the nominal {nominal:g} cm²"
            yield ctx.finding("FG114", "warning", msg, a.id, path=path)


def _overlaps(ctx: CheckContext) -> Iterator[Finding]:
    """Overlaps beyond the tolerance, and near-misses. Pairs of axis-aligned rectangles (most
    maps) are measured from their bounds; other pairs with shapely."""
    geoms = ctx.geoms
    if len(geoms) < 2:
        return
    areas = ctx.s.areas
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate="dwithin", distance=NEAR_MISS_CM)
    keep = left < right
    left, right = left[keep], right[keep]
    if not len(left):
        return
    bounds = shapely.bounds(geoms)
    box_area = (bounds[:, 2] - bounds[:, 0]) * (bounds[:, 3] - bounds[:, 1])
    is_box = np.isclose(shapely.area(geoms), box_area, rtol=1e-12, atol=1e-12) & (box_area > 0)
    boxes = is_box[left] & is_box[right]
    bl, br = bounds[left], bounds[right]
    w = np.minimum(bl[:, 2], br[:, 2]) - np.maximum(bl[:, 0], br[:, 0])
    h = np.minimum(bl[:, 3], br[:, 3]) - np.maximum(bl[:, 1], br[:, 1])
    overlap = np.where(boxes, np.maximum(w, 0) * np.maximum(h, 0), 0.0)
    dist = np.where(boxes, np.hypot(np.maximum(-w, 0), np.maximum(-h, 0)), 0.0)
    other = np.flatnonzero(~boxes)
    if len(other):
        a, b = geoms[left[other]], geoms[right[other]]
        with np.errstate(all="ignore"):
            dist[other] = shapely.distance(a, b)
            overlap[other] = shapely.area(shapely.intersection(a, b))
    tol = ctx.s.scale.overlap_tolerance_cm2
    flagged = np.flatnonzero((overlap > tol) | ((dist > 0) & (dist < NEAR_MISS_CM)))
    for k in flagged.tolist():
        i, j = int(left[k]), int(right[k])
        a_id, b_id = areas[i].id, areas[j].id
        if overlap[k] > tol:
            msg = f"areas {a_id} and {b_id} overlap by {overlap[k]:.3g} cm²"
            yield ctx.finding("FG112", "error", msg, a_id, path=("areas", i))
        else:
            msg = (
                f"areas {a_id} and {b_id} are {dist[k]:.2g} cm apart but do not touch "
                "(a drawing slip?)"
            )
            yield ctx.finding("FG113", "warning", msg, a_id, path=("areas", i))


CHECKS = [_polygons, _overlaps]
