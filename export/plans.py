"""Floor plans at true table scale (1 table cm = 1 cm of paper), tiled over A4 or Letter.

Each level's plan is drawn once into a PDF form XObject and placed, clipped, on every tile
page, so a 100-page plan stays small and quick. Pages: an overview of the whole map, then
for each level an assembly guide (when it takes more than one sheet) and its tiles. Every
page carries the 5 cm calibration square and the "print at 100 %" note, and the PDF asks
viewers not to scale it. ``fit=True`` instead puts each level on one page and states its
scale.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import numpy as np
from reportlab.pdfgen.canvas import Canvas

from fireground.engine.board.model import Scenario

from . import planaids as aids
from .kit import new_canvas, paper_size
from .layout import CM, layout
from .mapdraw import (
    MIN_NAME,
    Deferred,
    MapView,
    Marks,
    draw_id,
    draw_level,
    level_name,
    place_name,
)
from .plansel import (
    LevelPlan,
    Piece,
    Rect,
    SheetGroup,
    describe,
    plan_levels,
    select_buildings,
    terrain_only,
)
from .plansheet import KIND_SWATCHES, Extent, kind_swatches, level_extent, sheet_layout, sheet_page
from .plantiles import (
    Cell,
    TileGrid,
    assembly_page,
    plan_tiles,
    tile_options,
    tile_pages,
)

__all__ = [
    "KIND_SWATCHES",
    "Extent",
    "TileGrid",
    "level_extent",
    "plan_tiles",
    "tile_options",
    "write_plans",
]


def write_plans(
    scenario: Scenario,
    path: Path,
    paper: str = "a4",
    fit: bool = False,
    *,
    levels: Sequence[int] | None = None,
    buildings: Sequence[str] | None = None,
    with_start: bool = False,
    report: Callable[[str], None] | None = None,
) -> Path:
    """Write the floor plans PDF; returns its path. ``levels`` and ``buildings`` choose
    what prints (``buildings`` with the streets around them); the start situation is drawn
    only ``with_start``; ``report`` hears the page count of each level before writing."""
    if buildings:
        scenario = select_buildings(scenario, buildings)
    if not with_start:
        scenario = terrain_only(scenario)
    marks = Marks.from_start(scenario)
    plans = plan_levels(scenario, paper, levels)
    if report is not None and not fit:
        report(describe(plans, paper))
    pw, ph = paper_size(paper)
    c = new_canvas(path, (pw, ph), f"Floor plans: {scenario.name}", "fireground floor plans")
    name = scenario.name or "Untitled scenario"
    swatches = kind_swatches()
    symbol = layout("plan_page", pw, ph).length("legend_symbol")
    page = 0

    def mark_page(label: str, bookmark: str | None = None, outline: int = 0) -> None:
        nonlocal page
        c.addPageLabel(page, prefix=label)
        if bookmark is not None:
            key = f"p{page}"
            c.bookmarkPage(key)
            c.addOutlineEntry(bookmark, key, level=outline, closed=True)
        page += 1

    if fit:
        for plan in plans:
            ext = level_extent(scenario, plan.level)
            lay = sheet_layout(paper, ext.width / ext.height)
            mark_page(level_name(plan.level), level_name(plan.level))
            used = sheet_page(
                c, scenario, lay, ext, plan.level, f"{name}: {level_name(plan.level)}", marks
            )
            aids.draw_legend(c, lay.box("legend"), used, symbol, swatches)
            c.showPage()
        c.save()
        return path

    # overview: the whole map on one sheet
    ext = level_extent(scenario, 0)
    lay = sheet_layout(paper, ext.width / ext.height)
    mark_page("Overview", "Overview")
    used = sheet_page(c, scenario, lay, ext, 0, f"{name}: overview", marks)
    all_used = set(used)
    for plan in plans:
        all_used |= _used_at(scenario, marks, plan.level)
    aids.draw_legend(c, lay.box("legend"), all_used, symbol, swatches)
    c.showPage()

    # page numbers of every sheet, for the assembly guides
    numbers: dict[tuple[int, int, int, int], int] = {}
    n = 1
    for plan in plans:
        n += 1 if plan.assembly else 0
        for g, group in enumerate(plan.groups):
            for col, row in group.keep:
                n += 1
                numbers[(plan.level, g, col, row)] = n

    for plan in plans:
        level, ext = plan.level, plan.ext
        mw, mh = ext.width * CM, ext.height * CM
        form = f"plan_level_{level + 1}"
        view = MapView(ext.minx, ext.miny, CM)
        text = Deferred()
        c.beginForm(form, 0, 0, mw, mh)
        used = draw_level(c, scenario, view, level, marks, defer=text)
        c.endForm()
        # the assembly guide shows ids and names once, where they belong
        c.beginForm(f"{form}_text", 0, 0, mw, mh)
        for tag in text.ids:
            draw_id(c, tag)
        for plate in text.names:
            place_name(c, plate, plate.bounds, min_size=MIN_NAME)
        c.endForm()
        title = level_name(level)
        if plan.assembly:
            mark_page(f"L{level} assembly", title)
            title = None
            cells = [
                (
                    group.grid.tile(col, row),
                    group.label(col, row),
                    numbers.get((level, g, col, row)),
                    group.bounds,
                )
                for g, group in enumerate(plan.groups)
                if not group.pieces
                for col in range(group.grid.cols)
                for row in range(group.grid.rows)
                if (col, row) in group.keep or not group.prefix
            ]
            for g, group in enumerate(plan.groups):
                cells += _packed_cells(
                    group, lambda col, row, g=g, lv=level: numbers.get((lv, g, col, row))
                )
            assembly_page(c, cells, form, paper, ext, level, name, _detail(plan, paper))
        # each sheet's page label, and a bookmark at the level's (or a building's) first
        marks_due = []
        for group in plan.groups:
            for k, (col, row) in enumerate(group.keep):
                if title is not None:
                    marks_due.append((group.label(col, row), title, 0))
                    title = None
                elif k == 0 and group.title:
                    marks_due.append((group.label(col, row), group.title, 1))
                else:
                    marks_due.append((group.label(col, row), None, 0))
        due = iter(marks_due)
        pick = _Picker(text)
        for g, group in enumerate(plan.groups):
            if group.pieces:
                group_form = f"{form}_pack{g}"
                _packed_form(c, form, group_form, group)
                group_text = _packed_text(text, group)
            else:
                group_form = form
                group_text = pick.within(group.grid) if len(plan.groups) > 1 else text
            tile_pages(
                c,
                scenario,
                group.grid,
                group_form,
                level,
                name,
                used,
                swatches,
                symbol,
                group.keep,
                group_text,
                label=group.label,
                tile_of=partial(_tile_of, group, level),
                on_page=lambda _col, _row, due=due: mark_page(*next(due)),
            )
    c.save()
    return path


def _shift(r: Rect, dx: float, dy: float) -> Rect:
    return (r[0] + dx, r[1] + dy, r[2] + dx, r[3] + dy)


def _inner(piece: Piece) -> Rect:
    """A packed floor's content: its box without the margin."""
    x0, y0, x1, y1 = piece.box
    return (x0 + CM, y0 + CM, x1 - CM, y1 - CM)


def _packed_form(c: Canvas, form: str, name: str, group: SheetGroup) -> None:
    """The floors of a packed group drawn where the group places them, each cut from the
    level's form, with a dotted line round each to cut them apart along once glued."""
    boxes = [p.placed for p in group.pieces]
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    c.beginForm(name, x0, y0, x1, y1)
    for piece in group.pieces:
        px0, py0, px1, py1 = piece.placed
        c.saveState()
        clip = c.beginPath()
        clip.rect(px0, py0, px1 - px0, py1 - py0)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(piece.dx, piece.dy)
        c.doForm(form)
        c.restoreState()
        c.saveState()
        c.setStrokeColor("#6e6e6e")
        c.setLineWidth(0.5)
        c.setDash(1, 2)
        c.rect(px0, py0, px1 - px0, py1 - py0, stroke=1, fill=0)
        c.restoreState()
    c.endForm()


def _packed_text(text: Deferred, group: SheetGroup) -> Deferred:
    """The level's ids and building names that belong to the packed floors, moved to where
    the group places them."""
    out = Deferred()
    for piece in group.pieces:
        bx0, by0, bx1, by1 = _inner(piece)
        dx, dy = piece.dx, piece.dy

        def inside(r: Rect, bx0: float = bx0, by0: float = by0, bx1: float = bx1,
                   by1: float = by1) -> bool:  # fmt: skip
            cx, cy = (r[0] + r[2]) / 2, (r[1] + r[3]) / 2
            return bx0 <= cx <= bx1 and by0 <= cy <= by1

        for t in text.ids:
            if inside(t.area):
                out.ids.append(
                    dataclasses.replace(t, x=t.x + dx, y=t.y + dy, area=_shift(t.area, dx, dy))
                )
        for plate in text.names:
            if inside(plate.bounds):
                out.names.append(
                    dataclasses.replace(
                        plate,
                        bounds=_shift(plate.bounds, dx, dy),
                        obstacles=tuple(_shift(o, dx, dy) for o in plate.obstacles),
                    )
                )
    return out


def _packed_cells(group: SheetGroup, page: Callable[[int, int], int | None]) -> list[Cell]:
    """The assembly guide's cells of a packed group: each sheet where it shows a floor,
    drawn over that floor's true place on the level."""
    out: list[Cell] = []
    for piece in group.pieces:
        fx0, fy0, fx1, fy1 = _shift(_inner(piece), piece.dx, piece.dy)
        for col, row in group.keep:
            tx0, ty0, tx1, ty1 = group.grid.tile(col, row)
            ix0, iy0, ix1, iy1 = max(tx0, fx0), max(ty0, fy0), min(tx1, fx1), min(ty1, fy1)
            if ix1 - ix0 < 1 or iy1 - iy0 < 1:
                continue
            rect = _shift((ix0, iy0, ix1, iy1), -piece.dx, -piece.dy)
            out.append((rect, group.label(col, row), page(col, row), rect))
    return out


class _Picker:
    """The ids and names of a level that fall within one sheet group (a city has
    thousands of groups and tens of thousands of ids: each group looks at its own)."""

    def __init__(self, text: Deferred) -> None:
        self.text = text
        self.ids = np.array([t.area for t in text.ids], dtype=float).reshape(-1, 4)
        self.names = np.array([p.bounds for p in text.names], dtype=float).reshape(-1, 4)

    def within(self, grid: TileGrid) -> Deferred:
        x0, _, _, y1 = grid.tile(0, 0)
        _, y0, x1, _ = grid.tile(grid.cols - 1, grid.rows - 1)

        def hits(b: np.ndarray) -> list[int]:
            ok = (b[:, 0] < x1) & (b[:, 2] > x0) & (b[:, 1] < y1) & (b[:, 3] > y0)
            return [int(i) for i in np.nonzero(ok)[0]]

        return Deferred(
            [self.text.ids[i] for i in hits(self.ids)],
            [self.text.names[i] for i in hits(self.names)],
        )


def _tile_of(group: SheetGroup, level: int, col: int, row: int) -> str:
    if not group.prefix:
        return f"of {group.grid.cols}×{group.grid.rows} · {level_name(level)}"
    k = group.keep.index((col, row)) + 1
    short = group.title.split(",")[0].split(" (")[0]
    if group.pieces:  # packed floors: the ones this sheet shows
        tx0, ty0, tx1, ty1 = group.grid.tile(col, row)
        shown = []
        for piece in group.pieces:
            fx0, fy0, fx1, fy1 = _shift(_inner(piece), piece.dx, piece.dy)
            if min(tx1, fx1) > max(tx0, fx0) and min(ty1, fy1) > max(ty0, fy0):
                shown.append(piece.title.split(",")[0].split(" (")[0])
        short = ", ".join(shown) if len(", ".join(shown)) <= 28 else f"{len(shown)} buildings"
    return (
        f"{short} · sheet {k} of {len(group.keep)}" if short else f"sheet {k} of {len(group.keep)}"
    )


def _detail(plan: LevelPlan, paper: str) -> str:
    """The assembly guide's subtitle: how the level's sheets are laid out."""
    ov = plan.groups[0].grid.overlap / CM * 10
    ext = plan.ext
    if len(plan.groups) == 1 and not plan.groups[0].prefix:
        grid = plan.groups[0].grid
        orient = "landscape" if grid.landscape else "portrait"
        blank = grid.pages - plan.sheets
        return (
            f"{grid.cols} × {grid.rows} sheets ({plan.sheets} printed, {paper.upper()} "
            f"{orient}{f'; {blank} grey ones are blank and left out' if blank else ''}) · "
            f"{ov:g} mm glue overlap · map {ext.width:g} × {ext.height:g} cm"
        )
    if len(plan.groups) == 1 and not plan.groups[0].title:
        return (
            f"{plan.sheets} {paper.upper()} sheets, the level as one map (blank sheets left "
            f"out) · {ov:g} mm glue overlap"
        )
    floors = sum(len(g.pieces) or 1 for g in plan.groups)
    if any(g.pieces for g in plan.groups):
        return (
            f"{plan.sheets} {paper.upper()} sheets for {floors} buildings: floors that print on "
            f"fewer sheets together share a block (cut them apart along the dotted line) · "
            f"{ov:g} mm glue overlap"
        )
    return (
        f"{plan.sheets} {paper.upper()} sheets, building by building ({floors} "
        f"building{'s' if floors > 1 else ''}) · {ov:g} mm glue overlap · each "
        "building is laid out on its own"
    )


def _used_at(scenario: Scenario, marks: Marks, level: int) -> set[str]:
    from .mapdraw import glyphs_at

    return {k for row in glyphs_at(scenario, marks, level).values() for k, _ in row}
