"""Plain geometry for the editor: snapping, splitting and merging polygons (no Qt).

Coordinates are table centimetres, x east and y north, as in the scenario file.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import shapely
from shapely.geometry import LineString, MultiPolygon, Point, Polygon
from shapely.ops import split as shapely_split

from fireground.engine.board.model import Area

Coord = tuple[float, float]

#: Coordinates are rounded to this many decimals (a hundredth of a millimetre) so that
#: files stay readable and snapped vertices compare exactly.
DECIMALS = 3


def rnd(p: Sequence[float]) -> Coord:
    return (round(float(p[0]), DECIMALS) + 0.0, round(float(p[1]), DECIMALS) + 0.0)


def polygon_coords(poly: Polygon) -> tuple[Coord, ...]:
    """Exterior ring of a shapely polygon as rounded tuples, without the closing point."""
    ring = list(poly.exterior.coords)[:-1]
    out: list[Coord] = []
    for p in ring:
        q = rnd(p)
        if not out or out[-1] != q:
            out.append(q)
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return tuple(out)


class SnapKind(enum.Enum):
    NONE = "free"
    GRID = "grid"
    VERTEX = "vertex"
    EDGE = "edge"


@dataclass(frozen=True, slots=True)
class Snap:
    point: Coord
    kind: SnapKind
    #: The area whose vertex or edge was snapped to, when any.
    area: str | None = None
    #: The edge snapped to (its two ends), for an edge snap.
    segment: tuple[Coord, Coord] | None = None


class SnapIndex:
    """Finds the nearest vertex or edge of the map's areas (an STRtree over outlines).

    Vertices win over edges, edges over the grid, so neighbours share exact coordinates.
    After an edit, :meth:`updated` keeps the tree and checks the few changed areas apart,
    so a big map does not rebuild its tree on every drag step.
    """

    def __init__(self, areas: Iterable[Area]) -> None:
        self._areas = [a for a in areas if len(a.polygon) >= 3]
        self._tree = shapely.STRtree(
            [shapely.LineString([*a.polygon, a.polygon[0]]) for a in self._areas]
        )
        #: Areas that replaced tree entries (by id), and ids no longer valid in the tree.
        self._extra: dict[str, Area] = {}
        self._stale: set[str] = set()

    def updated(self, areas: Sequence[Area]) -> SnapIndex:
        """An index for ``areas`` that reuses this tree when few areas changed."""
        by_id = {a.id: a for a in self._areas}
        changed = {a.id: a for a in areas if by_id.get(a.id) is not a}
        gone = by_id.keys() - {a.id for a in areas}
        if len(changed) + len(gone) > 256:
            return SnapIndex(areas)
        out = SnapIndex.__new__(SnapIndex)
        out._areas, out._tree = self._areas, self._tree
        out._extra = {k: v for k, v in changed.items() if len(v.polygon) >= 3}
        out._stale = set(changed) | gone
        return out

    def _candidates(self, probe: object) -> Iterable[Area]:
        for i in self._tree.query(probe):
            a = self._areas[int(i)]
            if a.id not in self._stale:
                yield a
        yield from self._extra.values()

    def nearest(self, p: Coord, tolerance: float, *, exclude: Iterable[str] = ()) -> Snap | None:
        skip = set(exclude)
        probe = Point(p).buffer(tolerance)
        best_v: tuple[float, Coord, str] | None = None
        best_e: tuple[float, Coord, str, Coord, Coord] | None = None
        px, py = p
        for a in self._candidates(probe):
            if a.id in skip:
                continue
            pts = a.polygon
            if self._extra and a.id in self._extra:
                xs = [q[0] for q in pts]
                ys = [q[1] for q in pts]
                if (
                    px < min(xs) - tolerance
                    or px > max(xs) + tolerance
                    or py < min(ys) - tolerance
                    or py > max(ys) + tolerance
                ):
                    continue
            for j, v in enumerate(pts):
                d = math.dist(p, v)
                if d <= tolerance and (best_v is None or d < best_v[0]):
                    best_v = (d, (float(v[0]), float(v[1])), a.id)
                w = pts[(j + 1) % len(pts)]
                q = closest_on_segment(p, v, w)
                d = math.dist(p, q)
                if d <= tolerance and (best_e is None or d < best_e[0]):
                    best_e = (d, q, a.id, v, w)
        if best_v is not None:
            return Snap(best_v[1], SnapKind.VERTEX, best_v[2])
        if best_e is not None:
            seg = (
                (float(best_e[3][0]), float(best_e[3][1])),
                (float(best_e[4][0]), float(best_e[4][1])),
            )
            return Snap(rnd(best_e[1]), SnapKind.EDGE, best_e[2], seg)
        return None


def closest_on_segment(p: Coord, a: Coord, b: Coord) -> Coord:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    n = dx * dx + dy * dy
    if n == 0:
        return (float(ax), float(ay))
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / n))
    return (ax + t * dx, ay + t * dy)


def snap_to_grid(p: Coord, step: float) -> Coord:
    return rnd((round(p[0] / step) * step, round(p[1] / step) * step))


def snap(
    p: Coord,
    index: SnapIndex | None,
    *,
    tolerance: float,
    grid: float | None,
    exclude: Iterable[str] = (),
) -> Snap:
    """Snap a point: other areas' vertices, then their edges, then the grid (when on).

    On an edge with the grid on, a grid point lying on that edge within twice the
    tolerance wins over the bare foot of the perpendicular: a click just outside a
    neighbour's corner lands on the corner rather than a few millimetres along the edge.
    """
    if index is not None:
        s = index.nearest(p, tolerance, exclude=exclude)
        if s is not None:
            if s.kind is SnapKind.EDGE and grid and s.segment is not None:
                g = snap_to_grid(p, grid)
                a, b = s.segment
                on_edge = math.dist(g, closest_on_segment(g, a, b)) < 1e-6
                if on_edge and math.dist(g, p) <= 2 * tolerance:
                    kind = SnapKind.VERTEX if g in (rnd(a), rnd(b)) else SnapKind.EDGE
                    return Snap(g, kind, s.area, s.segment)
            return s
    if grid:
        g = snap_to_grid(p, grid)
        if math.dist(g, p) <= max(tolerance, grid / 2):
            return Snap(g, SnapKind.GRID)
    return Snap(rnd(p), SnapKind.NONE)


def rectangle(a: Coord, b: Coord) -> tuple[Coord, ...]:
    x0, x1 = sorted((a[0], b[0]))
    y0, y1 = sorted((a[1], b[1]))
    return (rnd((x0, y0)), rnd((x1, y0)), rnd((x1, y1)), rnd((x0, y1)))


def is_valid_polygon(points: Sequence[Coord]) -> bool:
    if len(points) < 3:
        return False
    poly = Polygon(points)
    return bool(poly.is_valid) and poly.area > 0


def _polygons(geom: object) -> list[Polygon]:
    if isinstance(geom, Polygon):
        return [geom] if not geom.is_empty else []
    if isinstance(geom, MultiPolygon):
        return [g for g in geom.geoms if not g.is_empty]
    parts = getattr(geom, "geoms", None)
    if parts is None:
        return []
    out: list[Polygon] = []
    for g in parts:
        out.extend(_polygons(g))
    return out


def split_into_cells(
    points: Sequence[Coord], cell_cm: float, *, min_area: float = 0.5
) -> list[tuple[Coord, ...]]:
    """Divide a footprint into cells of about ``cell_cm`` square, clipped to the footprint.

    The bounding box is cut into equal columns and rows (as many as fit ``cell_cm`` best);
    each cell is clipped to the footprint. Slivers under ``min_area`` cm² are joined to the
    neighbour they share the longest edge with, so the parts still cover the footprint.
    """
    poly = Polygon(points)
    if not poly.is_valid or poly.area <= 0:
        raise ValueError("footprint is not a valid polygon")
    minx, miny, maxx, maxy = poly.bounds
    nx = max(1, round((maxx - minx) / cell_cm))
    ny = max(1, round((maxy - miny) / cell_cm))
    w, h = (maxx - minx) / nx, (maxy - miny) / ny
    parts: list[Polygon] = []
    for j in range(ny):
        for i in range(nx):
            cell = shapely.box(minx + i * w, miny + j * h, minx + (i + 1) * w, miny + (j + 1) * h)
            parts.extend(_polygons(poly.intersection(cell)))
    big = [p for p in parts if p.area >= min_area]
    small = [p for p in parts if p.area < min_area]
    if not big:
        return [polygon_coords(poly)]
    for s in small:
        k = max(range(len(big)), key=lambda i: big[i].boundary.intersection(s.boundary).length)
        merged = big[k].union(s)
        if isinstance(merged, Polygon):
            big[k] = merged
    return [polygon_coords(shapely.make_valid(p) if not p.is_valid else p) for p in big]


def split_by_line(points: Sequence[Coord], line: Sequence[Coord]) -> list[tuple[Coord, ...]]:
    """Cut a polygon along a polyline drawn across it; fewer than two parts means no cut."""
    poly = Polygon(points)
    if len(line) < 2:
        return [polygon_coords(poly)]
    ls = LineString(line)
    # Extend the end segments a little so a line drawn to the edge cuts cleanly.
    result = shapely_split(poly, _extended(ls, 0.01))
    return [polygon_coords(p) for p in _polygons(result) if p.area > 1e-6]


def _extended(ls: LineString, by: float) -> LineString:
    c = list(ls.coords)

    def push(a: Sequence[float], b: Sequence[float]) -> Coord:
        d = math.dist(a, b) or 1.0
        return (b[0] + (b[0] - a[0]) / d * by, b[1] + (b[1] - a[1]) / d * by)

    return LineString(
        [push(c[1], c[0]), *c[1:-1], push(c[-2], c[-1])]
        if len(c) > 2
        else [push(c[1], c[0]), push(c[0], c[1])]
    )


def merge_polygons(polys: Sequence[Sequence[Coord]]) -> tuple[Coord, ...] | None:
    """Union of touching polygons; None when the result is not one simple polygon."""
    u = shapely.union_all([Polygon(p) for p in polys])
    u = u.buffer(0) if not u.is_valid else u
    if not isinstance(u, Polygon) or u.is_empty or len(u.interiors) > 0:
        return None
    return polygon_coords(shapely.simplify(u, 1e-6))


def point_in_polygon(p: Coord, points: Sequence[Coord]) -> bool:
    return bool(Polygon(points).covers(Point(p)))


def translate(points: Sequence[Coord], dx: float, dy: float) -> tuple[Coord, ...]:
    return tuple(rnd((x + dx, y + dy)) for x, y in points)


def parse_points(text: str) -> tuple[Coord, ...]:
    """Parse typed coordinates such as ``0,0; 10,0; 10,10`` (or one pair per line).

    Raises ValueError with a short message naming the bad pair.
    """
    pairs = [t.strip() for t in text.replace("\n", ";").split(";") if t.strip()]
    out: list[Coord] = []
    for t in pairs:
        bits = t.replace("(", "").replace(")", "").replace("[", "").replace("]", "").split(",")
        if len(bits) != 2:
            raise ValueError(f"expected 'x, y' but got {t!r}")
        try:
            out.append(rnd((float(bits[0]), float(bits[1]))))
        except ValueError:
            raise ValueError(f"not a number in {t!r}") from None
    return tuple(out)


def format_points(points: Sequence[Coord]) -> str:
    return "; ".join(f"{_num(x)}, {_num(y)}" for x, y in points)


def _num(v: float) -> str:
    return f"{v:g}" if abs(v) < 1e15 else str(v)
