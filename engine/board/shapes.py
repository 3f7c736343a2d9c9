"""Area polygons as shapely geometry, built in one vectorised call.

:func:`raw_shapes` gives the polygons as drawn (what the checks judge); :func:`shapes`
makes invalid ones valid so that the map graph's queries never fail on them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from .model import Area


def shapes(areas: Iterable[Area]) -> npt.NDArray[np.object_]:
    """Shapely polygons of the areas, built in one vectorised call. A polygon that cannot be
    built (fewer than 3 points, NaN) becomes empty; an invalid one is made valid, so that
    queries never fail on it (the checks report both)."""
    return shapes_and_validity(list(areas))[0]


def shapes_and_validity(
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
