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

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from fireground.engine.errors import UsageError
from fireground.engine.scenario import AreaKind, FeatureType, Scenario, Start

from .layout import CM
from .mapview import all_levels, level_name
from .plansheet import Extent, level_extent
from .plantiles import TileGrid, tile_options

#: The content raster used to fit grids: a cell of this many cm.
CELL_CM = 0.5
#: Candidate origins tried along each axis between the two extreme placements.
ORIGIN_STEPS = 9


@dataclass(frozen=True)
class SheetGroup:
    """One grid of sheets: a whole level, or one building on a level above or below the
    ground (unless the level takes fewer sheets as one map)."""

    title: str  # "" for a whole level, else the building's name
    grid: TileGrid
    keep: tuple[tuple[int, int], ...]  # (col, row) of the printed sheets, in print order
    prefix: str  # "" on the ground level: labels are "B2"; else "L3." and a running number
    first: int  # running number of this group's first sheet on its level
    bounds: tuple[float, float, float, float]  # the content's box, in level-form points

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


def _form_box(shape: BaseGeometry, ext: Extent) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = shape.bounds
    return ((x0 - ext.minx) * CM, (y0 - ext.miny) * CM, (x1 - ext.minx) * CM, (y1 - ext.miny) * CM)


def _occupancy(shape: BaseGeometry, box: tuple[float, float, float, float]) -> np.ndarray:
    """Cells of ``CELL_CM`` over ``box`` (cm) that hold some of ``shape``: a summed-area
    table (rows from the south), so any window's content is counted in constant time."""
    x0, y0, x1, y1 = box
    nx = max(1, math.ceil((x1 - x0) / CELL_CM))
    ny = max(1, math.ceil((y1 - y0) / CELL_CM))
    xs = x0 + (np.arange(nx) + 0.5) * CELL_CM
    ys = y0 + (np.arange(ny) + 0.5) * CELL_CM
    gx, gy = np.meshgrid(xs, ys)
    grown = shape.buffer(CELL_CM / 2)
    shapely.prepare(grown)
    full = shapely.contains_xy(grown, gx, gy).astype(np.int32)
    sat = np.zeros((ny + 1, nx + 1), dtype=np.int32)
    sat[1:, 1:] = full.cumsum(0).cumsum(1)
    return sat


def _count(sat: np.ndarray, origin: tuple[float, float], win: tuple[float, ...]) -> int:
    """How many content cells have their centre inside ``win`` (cm)."""
    ny, nx = sat.shape[0] - 1, sat.shape[1] - 1
    ox, oy = origin
    i0 = min(nx, max(0, math.ceil((win[0] - ox) / CELL_CM - 0.5)))
    i1 = min(nx, max(0, math.ceil((win[2] - ox) / CELL_CM - 0.5)))
    j0 = min(ny, max(0, math.ceil((win[1] - oy) / CELL_CM - 0.5)))
    j1 = min(ny, max(0, math.ceil((win[3] - oy) / CELL_CM - 0.5)))
    return int(sat[j1, i1] - sat[j0, i1] - sat[j1, i0] + sat[j0, i0])


def fit_grid(
    shape: BaseGeometry, ext: Extent, paper: str, margin_cm: float = 1.0
) -> tuple[TileGrid, tuple[tuple[int, int], ...]]:
    """The tile grid over ``shape`` (table cm) printing the fewest sheets, with the sheets
    that show some of it. Grid coordinates are points of the level form that starts at
    ``ext``'s corner. Both orientations, one more row or column than needed, and a range of
    origins are tried; ties go to fewer grid cells, then to the centred origin, then to
    portrait."""
    bx0, by0, bx1, by1 = shape.bounds
    bx0, by0, bx1, by1 = bx0 - margin_cm, by0 - margin_cm, bx1 + margin_cm, by1 + margin_cm
    bw, bh = (bx1 - bx0) * CM, (by1 - by0) * CM
    best: tuple[tuple[float, ...], TileGrid, tuple[tuple[int, int], ...]] | None = None
    for orient, base in enumerate(tile_options(bw, bh, paper)):
        w, h, ov = base.window.width, base.window.height, base.overlap
        # the raster spans every origin tried: the content box grown by a window each way
        pad = max(w, h) / CM
        rbox = (bx0 - pad, by0 - pad, bx1 + pad, by1 + pad)
        sat = _occupancy(shape, rbox)
        for cols in (base.cols, base.cols + 1):
            for rows in (base.rows, base.rows + 1):
                slack_x = cols * w - (cols - 1) * ov - bw
                slack_y = rows * h - (rows - 1) * ov - bh
                for fx in np.linspace(0.0, 1.0, ORIGIN_STEPS):
                    for fy in np.linspace(0.0, 1.0, ORIGIN_STEPS):
                        x_start = (bx0 - ext.minx) * CM - slack_x * fx
                        y_top = (by1 - ext.miny) * CM + slack_y * fy
                        grid = dataclasses.replace(
                            base,
                            cols=cols,
                            rows=rows,
                            map_w=bw,
                            map_h=bh,
                            x_start=x_start,
                            y_top=y_top,
                        )
                        keep = []
                        for row in range(rows):
                            for col in range(cols):
                                x0, y0, x1, y1 = grid.tile(col, row)
                                win = (
                                    ext.minx + x0 / CM,
                                    ext.miny + y0 / CM,
                                    ext.minx + x1 / CM,
                                    ext.miny + y1 / CM,
                                )
                                if _count(sat, (rbox[0], rbox[1]), win):
                                    keep.append((col, row))
                        score = (
                            float(len(keep)),
                            float(cols * rows),
                            abs(fx - 0.5) + abs(fy - 0.5),
                            float(orient),
                        )
                        if best is None or score < best[0]:
                            best = (score, grid, tuple(keep))
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


def plan_levels(
    scenario: Scenario, paper: str, levels: Sequence[int] | None = None
) -> list[LevelPlan]:
    """The sheets of every chosen level, in print order."""
    out = []
    for level in chosen_levels(scenario, levels):
        ext = level_extent(scenario, level)
        present = [a for a in scenario.areas if level in scenario.levels_of(a.id)]
        groups: list[SheetGroup] = []
        if level == 0 or not present:
            shapes = present or list(scenario.areas)
            shape = shapely.union_all([shapely.Polygon(a.polygon) for a in shapes])
            grid, keep = fit_grid(shape, ext, paper)
            groups.append(SheetGroup("", grid, keep, "", 1, _form_box(shape, ext)))
        else:
            n = 1
            for b in scenario.buildings:
                mine = [a for a in present if a.building == b.id]
                if not mine:
                    continue
                shape = shapely.union_all([shapely.Polygon(a.polygon) for a in mine])
                grid, keep = fit_grid(shape, ext, paper)
                groups.append(
                    SheetGroup(
                        b.name or b.id, grid, keep, level_tag(level), n, _form_box(shape, ext)
                    )
                )
                n += len(keep)
            # a small block whose buildings share sheets better as one map: one grid
            shape = shapely.union_all([shapely.Polygon(a.polygon) for a in present])
            grid, keep = fit_grid(shape, ext, paper)
            if len(keep) < n - 1:
                whole = SheetGroup("", grid, keep, level_tag(level), 1, _form_box(shape, ext))
                groups = [whole]
        out.append(LevelPlan(level, ext, tuple(groups)))
    return out


def describe(plans: Sequence[LevelPlan], paper: str) -> str:
    """The page count of each level, as reported before the plans are written."""
    parts = [f"{level_name(p.level)}: {p.pages}" for p in plans]
    total = 1 + sum(p.pages for p in plans)
    return f"plans: {total} {paper.upper()} pages (overview: 1; {'; '.join(parts)})"
