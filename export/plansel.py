"""What the 1:1 plans print: the chosen levels and buildings, and how each is cut into sheets.

The ground level is one grid over everything on it; every other level is cut building by
building (a warehouse's third floor is a sheet or two of its own, not a street-sized map).
Each grid's origin is moved to fit its content, so as few sheets as possible are printed
and blank ones are left out. The plan is made before anything is drawn, so the page count
of each level can be reported first and the assembly guides can give page numbers.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from fireground.engine.board.model import AreaKind, FeatureType, Scenario, Start
from fireground.engine.core.errors import UsageError

from .layout import CM
from .mapview import all_levels, level_name
from .plansheet import Extent, level_extent
from .plantiles import TileGrid, tile_options

#: The content raster used to fit grids: a cell of this many cm.
CELL_CM = 0.5
#: Candidate origins tried along each axis between the two extreme placements.
ORIGIN_STEPS = 7


Rect = tuple[float, float, float, float]


@dataclass(frozen=True)
class Piece:
    """One building's floor placed in a packed sheet group: ``box`` is its part of the
    level form (points: the building's box and a margin), drawn at ``box`` + (dx, dy) in
    the group's coordinates."""

    title: str
    box: Rect
    dx: float
    dy: float

    @property
    def placed(self) -> Rect:
        x0, y0, x1, y1 = self.box
        return (x0 + self.dx, y0 + self.dy, x1 + self.dx, y1 + self.dy)


@dataclass(frozen=True)
class SheetGroup:
    """One grid of sheets: a whole level, or one building on a level above or below the
    ground (unless the level takes fewer sheets as one map), or several buildings' floors
    of one level packed side by side when that saves sheets (``pieces``)."""

    title: str  # "" for a whole level, else the building's name (names, when packed)
    grid: TileGrid
    keep: tuple[tuple[int, int], ...]  # (col, row) of the printed sheets, in print order
    prefix: str  # "" on the ground level: labels are "B2"; else "L3." and a running number
    first: int  # running number of this group's first sheet on its level
    bounds: Rect  # the content's box, in the group's coordinates
    #: the floors packed in this group (empty: the group's coordinates are the level form's)
    pieces: tuple[Piece, ...] = ()

    def label(self, col: int, row: int) -> str:
        if not self.prefix:
            return self.grid.label(col, row)
        return f"{self.prefix}{self.first + self.keep.index((col, row))}"


@dataclass(frozen=True)
class LevelPlan:
    """How one level prints: its form's extent (table cm) and its sheet groups."""

    level: int
    ext: Extent
    groups: tuple[SheetGroup, ...]

    @property
    def sheets(self) -> int:
        return sum(len(g.keep) for g in self.groups)

    @property
    def assembly(self) -> bool:
        """An assembly guide when the level takes more than one sheet."""
        return self.sheets > 1

    @property
    def pages(self) -> int:
        return self.sheets + (1 if self.assembly else 0)


def parse_levels(text: str | Iterable[int] | None) -> list[int] | None:
    """``--levels 0,1`` as a list of ints (None: every level)."""
    if text is None:
        return None
    if not isinstance(text, str):
        return [int(v) for v in text]
    out = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        try:
            out.append(int(part))
        except ValueError:
            raise UsageError(
                f"--levels: {part!r} is not a level number (0 is the ground, -1 the basement)"
            ) from None
    if not out:
        raise UsageError("--levels names no level (e.g. --levels 0,1)")
    return out


def parse_buildings(text: str | Iterable[str] | None) -> list[str] | None:
    if text is None:
        return None
    items = text.split(",") if isinstance(text, str) else list(text)
    out = [p.strip() for p in items if p.strip()]
    if not out:
        raise UsageError("--buildings names no building (e.g. --buildings simpkin)")
    return out


def select_buildings(scenario: Scenario, ids: Sequence[str]) -> Scenario:
    """The scenario cut down to these buildings and the open areas that touch them."""
    known = [b.id for b in scenario.buildings]
    for bid in ids:
        if bid not in known:
            close = difflib.get_close_matches(bid, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise UsageError(
                f"--buildings: no building {bid!r}{hint}; this scenario has {', '.join(known)}"
            )
    wanted = set(ids)
    mine = [a for a in scenario.areas if a.building in wanted]
    body = shapely.union_all([shapely.Polygon(a.polygon) for a in mine]).buffer(0.05)
    keep = {a.id for a in mine}
    for a in scenario.areas:
        outside = a.building is None and a.kind is not AreaKind.BUILDING
        if outside and body.intersects(shapely.Polygon(a.polygon)):
            keep.add(a.id)
    st = scenario.start
    start = dataclasses.replace(
        st,
        fires=tuple(v for v in st.fires if v.area in keep),
        embers=tuple(v for v in st.embers if v.area in keep),
        damp=tuple(v for v in st.damp if v.area in keep),
        damage=tuple(v for v in st.damage if v.area in keep),
        rubble=tuple(a for a in st.rubble if a in keep),
        craters=tuple(a for a in st.craters if a in keep),
    )
    return dataclasses.replace(
        scenario,
        buildings=tuple(b for b in scenario.buildings if b.id in wanted),
        areas=tuple(a for a in scenario.areas if a.id in keep),
        features=tuple(f for f in scenario.features if f.area in keep),
        forces=tuple(u for u in scenario.forces if u.area is None or u.area in keep),
        start=start,
    )


def terrain_only(scenario: Scenario) -> Scenario:
    """The scenario without its start situation (fires, rubble, damage, units, people):
    what a board shows that stays right after turn 1."""
    return dataclasses.replace(
        scenario,
        features=tuple(f for f in scenario.features if f.type is not FeatureType.OCCUPANTS),
        start=Start(),
        forces=(),
    )


def level_tag(level: int) -> str:
    """How sheets of a level other than the ground are named: ``L3.`` and a number."""
    return f"L{level}."


def _form_box(
    polygons: Sequence[Sequence[tuple[float, float]]], ext: Extent
) -> tuple[float, float, float, float]:
    x0, x1 = min(x for p in polygons for x, _ in p), max(x for p in polygons for x, _ in p)
    y0, y1 = min(y for p in polygons for _, y in p), max(y for p in polygons for _, y in p)
    return ((x0 - ext.minx) * CM, (y0 - ext.miny) * CM, (x1 - ext.minx) * CM, (y1 - ext.miny) * CM)


#: Groups of at most this many areas are counted against their areas' boxes; bigger ones
#: against a raster of their content.
BOX_LIMIT = 200
#: The content raster has at most about this many cells (coarser cells on huge maps).
RASTER_CELLS = 2_000_000


class _Content:
    """Counts how much content a batch of windows (table cm) holds, fast enough for a whole
    city: against the areas' bounding boxes for a small group (exact for rectangles, never
    less than the polygons), against a summed-area table of a raster for a big one."""

    def __init__(self, polygons: Sequence[Sequence[tuple[float, float]]], pad: float) -> None:
        boxes = np.array(
            [
                (
                    min(x for x, _ in p),
                    min(y for _, y in p),
                    max(x for x, _ in p),
                    max(y for _, y in p),
                )
                for p in polygons
            ],
            dtype=float,
        )
        self.boxes = boxes if len(polygons) <= BOX_LIMIT else None
        if self.boxes is not None:
            return
        x0, y0 = boxes[:, 0].min() - pad, boxes[:, 1].min() - pad
        x1, y1 = boxes[:, 2].max() + pad, boxes[:, 3].max() + pad
        cell = max(CELL_CM, math.sqrt((x1 - x0) * (y1 - y0) / RASTER_CELLS))
        nx, ny = max(1, math.ceil((x1 - x0) / cell)), max(1, math.ceil((y1 - y0) / cell))
        shape = shapely.union_all([shapely.Polygon(p) for p in polygons])
        shapely.prepare(shape)
        gx, gy = np.meshgrid(x0 + (np.arange(nx) + 0.5) * cell, y0 + (np.arange(ny) + 0.5) * cell)
        full = shapely.contains_xy(shape, gx, gy)
        # grow by a cell, so content thinner than a cell is still seen
        grown = full.copy()
        grown[1:, :] |= full[:-1, :]
        grown[:-1, :] |= full[1:, :]
        g2 = grown.copy()
        g2[:, 1:] |= grown[:, :-1]
        g2[:, :-1] |= grown[:, 1:]
        sat = np.zeros((ny + 1, nx + 1), dtype=np.int64)
        sat[1:, 1:] = g2.astype(np.int64).cumsum(0).cumsum(1)
        self.sat, self.origin, self.cell, self.n = sat, (x0, y0), cell, (nx, ny)

    def any_in(
        self, wx0: np.ndarray, wy0: np.ndarray, wx1: np.ndarray, wy1: np.ndarray
    ) -> np.ndarray:
        """For windows given as arrays of corners (any shape), whether each holds content."""
        if self.boxes is not None:
            b = self.boxes
            ox = np.minimum(wx1[..., None], b[:, 2]) - np.maximum(wx0[..., None], b[:, 0])
            oy = np.minimum(wy1[..., None], b[:, 3]) - np.maximum(wy0[..., None], b[:, 1])
            return np.any((ox > 0.01) & (oy > 0.01), axis=-1)
        (x0, y0), cell, (nx, ny) = self.origin, self.cell, self.n

        def idx(v: np.ndarray, o: float, n: int) -> np.ndarray:
            return np.clip(np.ceil((v - o) / cell - 0.5), 0, n).astype(np.int64)

        i0, i1 = idx(wx0, x0, nx), idx(wx1, x0, nx)
        j0, j1 = idx(wy0, y0, ny), idx(wy1, y0, ny)
        s = self.sat
        return (s[j1, i1] - s[j0, i1] - s[j1, i0] + s[j0, i0]) > 0


def _area(p: Sequence[tuple[float, float]]) -> float:
    """A polygon's area (shoelace)."""
    return (
        abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(p, [*p[1:], p[0]], strict=True)))
        / 2
    )


def fit_grid(
    polygons: Sequence[Sequence[tuple[float, float]]],
    ext: Extent,
    paper: str,
    margin_cm: float = 1.0,
) -> tuple[TileGrid, tuple[tuple[int, int], ...]]:
    """The tile grid over ``polygons`` (table cm) printing the fewest sheets, with the
    sheets that show some of them. Grid coordinates are points of the level form that
    starts at ``ext``'s corner. Both orientations, a range of origins and, for a sparse
    group, one more row or column than needed are tried; ties go to fewer grid cells, then
    to the centred origin, then to portrait."""
    xs = [x for p in polygons for x, _ in p]
    ys = [y for p in polygons for _, y in p]
    bx0, by0 = min(xs) - margin_cm, min(ys) - margin_cm
    bx1, by1 = max(xs) + margin_cm, max(ys) + margin_cm
    bw, bh = (bx1 - bx0) * CM, (by1 - by0) * CM
    options = tile_options(bw, bh, paper)
    pad = max(max(g.window.width, g.window.height) for g in options) / CM
    content = _Content(polygons, pad)
    filled = sum(_area(p) for p in polygons) / max(1e-9, (bx1 - bx0) * (by1 - by0))
    steps = np.linspace(0.0, 1.0, ORIGIN_STEPS)
    fx, fy = (a.ravel() for a in np.meshgrid(steps, steps))  # K candidate origins
    best: tuple[tuple[float, ...], TileGrid, tuple[tuple[int, int], ...]] | None = None
    for orient, base in enumerate(options):
        w, h, ov = base.window.width, base.window.height, base.overlap
        sizes = [(base.cols, base.rows)]
        if base.pages > 1 and filled < 0.8:  # irregular: a bigger grid may skip more
            sizes += [(base.cols + 1, base.rows), (base.cols, base.rows + 1)]
        for cols, rows in sizes:
            if cols * rows == 1:
                k_x = np.array([0.5])
                k_y = np.array([0.5])
            else:
                k_x, k_y = fx, fy
            slack_x = cols * w - (cols - 1) * ov - bw
            slack_y = rows * h - (rows - 1) * ov - bh
            x_start = (bx0 - ext.minx) * CM - slack_x * k_x  # [K] form points
            y_top = (by1 - ext.miny) * CM + slack_y * k_y
            col = np.arange(cols)
            row = np.arange(rows)
            # windows [K, rows, cols] in table cm
            wx0 = ext.minx + (x_start[:, None, None] + col[None, None, :] * (w - ov)) / CM
            wy1 = ext.miny + (y_top[:, None, None] - row[None, :, None] * (h - ov)) / CM
            wx0 = np.broadcast_to(wx0, (len(k_x), rows, cols))
            wy1 = np.broadcast_to(wy1, (len(k_x), rows, cols))
            hit = content.any_in(wx0, wy1 - h / CM, wx0 + w / CM, wy1)
            kept = hit.reshape(len(k_x), -1).sum(axis=1)
            off = np.abs(k_x - 0.5) + np.abs(k_y - 0.5)
            # within one orientation and size the best origin keeps fewest sheets, then is
            # the most centred (the first such one: lexsort is stable)
            for k in np.lexsort((off, kept))[:1]:
                score = (float(kept[k]), float(cols * rows), float(off[k]), float(orient))
                if best is None or score < best[0]:
                    grid = dataclasses.replace(
                        base,
                        cols=cols,
                        rows=rows,
                        map_w=bw,
                        map_h=bh,
                        x_start=float(x_start[k]),
                        y_top=float(y_top[k]),
                    )
                    keep = tuple((int(c), int(r)) for r, c in zip(*np.nonzero(hit[k]), strict=True))
                    best = (score, grid, keep)
    assert best is not None
    return best[1], best[2]


def chosen_levels(scenario: Scenario, levels: Sequence[int] | None) -> list[int]:
    """The scenario's levels that ``--levels`` asks for, bottom up (an unknown one is a
    usage error)."""
    have = all_levels(scenario)
    if levels is None:
        return have
    for lv in levels:
        if lv not in have:
            raise UsageError(
                f"--levels: no level {lv} in this scenario; it has "
                f"{', '.join(str(v) for v in have)}"
            )
    return [lv for lv in have if lv in set(levels)]


#: Floors packed together sit this far apart (cm): each keeps a 1 cm margin.
PACK_GAP_CM = 2.0
#: Levels with more buildings than this are not packed (the search is quadratic).
PACK_MAX = 40

Polys = list[Sequence[tuple[float, float]]]


@dataclass
class _Pack:
    """Buildings' floors of one level laid out together: (title, polygons in table cm,
    shift in cm) each, with the grid that prints them."""

    floors: list[tuple[str, Polys, float, float]]
    grid: TileGrid
    keep: tuple[tuple[int, int], ...]

    def polys(self) -> Polys:
        return [[(x + dx, y + dy) for x, y in p] for _, ps, dx, dy in self.floors for p in ps]

    def box(self) -> Rect:
        pts = [pt for p in self.polys() for pt in p]
        return (
            min(x for x, _ in pts),
            min(y for _, y in pts),
            max(x for x, _ in pts),
            max(y for _, y in pts),
        )


_FitCache = dict[tuple[Any, ...], tuple[TileGrid, tuple[tuple[int, int], ...]]]


def _fit_same_shape(polys: Polys, ext: Extent, paper: str, cache: _FitCache) -> tuple[
    TileGrid, tuple[tuple[int, int], ...]
]:  # fmt: skip
    """:func:`fit_grid`, remembered by the content's shape: the same floors recur on every
    level (and many buildings are alike), and a grid moves with its content."""
    x0 = min(x for p in polys for x, _ in p)
    y0 = min(y for p in polys for _, y in p)
    key = (paper, tuple(tuple((round(x - x0, 6), round(y - y0, 6)) for x, y in p) for p in polys))
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = fit_grid(polys, Extent(x0, y0, 1.0, 1.0), paper)
    grid, keep = hit
    dx, dy = (x0 - ext.minx) * CM, (y0 - ext.miny) * CM
    assert grid.x_start is not None and grid.y_top is not None
    moved = dataclasses.replace(grid, x_start=grid.x_start + dx, y_top=grid.y_top + dy)
    return moved, keep


def _merge(a: _Pack, b: _Pack, below: bool, ext: Extent, paper: str, cache: _FitCache) -> _Pack:
    """``b`` laid beside ``a``: to its right with their tops level, or below it with their
    left edges level."""
    ax0, ay0, ax1, ay1 = a.box()
    bx0, _, _, by1 = b.box()
    if below:
        dx, dy = ax0 - bx0, ay0 - PACK_GAP_CM - by1
    else:
        dx, dy = ax1 + PACK_GAP_CM - bx0, ay1 - by1
    floors = a.floors + [(t, ps, fx + dx, fy + dy) for t, ps, fx, fy in b.floors]
    merged = _Pack(floors, a.grid, ())
    grid, keep = _fit_same_shape(merged.polys(), ext, paper, cache)
    return _Pack(floors, grid, keep)


def pack_floors(
    packs: list[_Pack], ext: Extent, paper: str, cache: _FitCache | None = None
) -> list[_Pack]:
    """Greedily join two groups of floors while that prints fewer sheets (the join saving
    most first), so small floors share sheets instead of each starting its own."""
    if not 2 <= len(packs) <= PACK_MAX:
        return packs
    packs = list(packs)
    cache = {} if cache is None else cache
    tried: dict[tuple[int, int, bool], _Pack] = {}
    while True:
        best: tuple[int, int, int, _Pack] | None = None
        for i, a in enumerate(packs):
            for j, b in enumerate(packs):
                if i == j:
                    continue
                for below in (False, True):
                    key = (id(a), id(b), below)
                    m = tried.get(key)
                    if m is None:
                        m = tried[key] = _merge(a, b, below, ext, paper, cache)
                    saved = len(a.keep) + len(b.keep) - len(m.keep)
                    if saved > 0 and (best is None or saved > best[0]):
                        best = (saved, i, j, m)
        if best is None:
            return packs
        _, i, j, m = best
        packs = [p for k, p in enumerate(packs) if k not in (i, j)]
        packs.insert(min(i, j), m)


def _packed_group(pk: _Pack, ext: Extent, prefix: str, first: int) -> SheetGroup:
    margin = 1.0 * CM
    pieces = []
    for title, polys, dx, dy in pk.floors:
        x0, y0, x1, y1 = _form_box(polys, ext)
        box = (x0 - margin, y0 - margin, x1 + margin, y1 + margin)
        pieces.append(Piece(title, box, dx * CM, dy * CM))
    if len(pieces) == 1:
        t, polys, _, _ = pk.floors[0]
        return SheetGroup(t, pk.grid, pk.keep, prefix, first, _form_box(polys, ext))
    title = " · ".join(p.title for p in pieces)
    return SheetGroup(
        title, pk.grid, pk.keep, prefix, first, _form_box(pk.polys(), ext), tuple(pieces)
    )


def plan_levels(
    scenario: Scenario, paper: str, levels: Sequence[int] | None = None, pack: bool = True
) -> list[LevelPlan]:
    """The sheets of every chosen level, in print order. Above and below the ground each
    building is cut on its own, and with ``pack`` floors that save sheets together share
    them (:func:`pack_floors`)."""
    out = []
    cache: _FitCache = {}
    for level in chosen_levels(scenario, levels):
        ext = level_extent(scenario, level)
        present = [a for a in scenario.areas if level in scenario.levels_of(a.id)]
        groups: list[SheetGroup] = []
        if level == 0 or not present:
            polys = [a.polygon for a in (present or list(scenario.areas))]
            grid, keep = fit_grid(polys, ext, paper)
            groups.append(SheetGroup("", grid, keep, "", 1, _form_box(polys, ext)))
        else:
            by_building: dict[str, list[Any]] = {}
            for a in present:
                by_building.setdefault(str(a.building), []).append(a)
            packs = []
            for b in scenario.buildings:
                mine = by_building.get(b.id, [])
                if not mine:
                    continue
                polys = [a.polygon for a in mine]
                grid, keep = _fit_same_shape(polys, ext, paper, cache)
                packs.append(_Pack([(b.name or b.id, polys, 0.0, 0.0)], grid, keep))
            alone = sum(len(p.keep) for p in packs)
            if pack:
                packs = pack_floors(packs, ext, paper, cache)
            n = 1
            for pk in packs:
                groups.append(_packed_group(pk, ext, level_tag(level), n))
                n += len(pk.keep)
            # a small block whose buildings share sheets better as one map: one grid (it
            # wins a tie with packed floors: it needs no cutting apart)
            polys = [a.polygon for a in present]
            grid, keep = fit_grid(polys, ext, paper)
            if len(keep) < alone and len(keep) <= n - 1:
                whole = SheetGroup("", grid, keep, level_tag(level), 1, _form_box(polys, ext))
                groups = [whole]
        out.append(LevelPlan(level, ext, tuple(groups)))
    return out


def describe(plans: Sequence[LevelPlan], paper: str) -> str:
    """The page count of each level, as reported before the plans are written."""
    parts = [f"{level_name(p.level)}: {p.pages}" for p in plans]
    total = 1 + sum(p.pages for p in plans)
    return f"plans: {total} {paper.upper()} pages (overview: 1; {'; '.join(parts)})"
