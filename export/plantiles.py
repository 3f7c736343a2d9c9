"""Cutting a level's 1:1 plan into pages: grid choice, tile pages and the assembly guide."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from fireground.engine.board.model import Scenario

from . import planaids as aids
from .kit import FONT, FONT_BOLD, draw_calibration, draw_text, paper_size
from .layout import CM, Box, Layout, layout
from .mapdraw import Deferred, level_name, place_id, place_name, style
from .plansheet import Extent, draw_frame, sheet_layout, sheet_subtitle


@dataclass(frozen=True)
class TileGrid:
    """How one level's plan (``map_w`` x ``map_h`` points at 1:1) is cut into pages."""

    lay: Layout
    cols: int
    rows: int
    map_w: float
    map_h: float
    overlap: float
    #: Where the grid starts (left edge of column A, top of row 1) in map points; None:
    #: the grid is centred on the map.
    x_start: float | None = None
    y_top: float | None = None

    @property
    def window(self) -> Box:
        return self.lay.box("window")

    @property
    def pages(self) -> int:
        return self.cols * self.rows

    @property
    def landscape(self) -> bool:
        return self.lay.width > self.lay.height

    def _offset(self) -> tuple[float, float]:
        w, h, ov = self.window.width, self.window.height, self.overlap
        total_w = self.cols * w - (self.cols - 1) * ov
        total_h = self.rows * h - (self.rows - 1) * ov
        return ((total_w - self.map_w) / 2, (total_h - self.map_h) / 2)

    def tile(self, col: int, row: int) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of a tile's window in map points; row 0 is the north row."""
        w, h, ov = self.window.width, self.window.height, self.overlap
        dx, dy = self._offset()
        left = -dx if self.x_start is None else self.x_start
        top = self.map_h + dy if self.y_top is None else self.y_top
        x0 = left + col * (w - ov)
        y1 = top - row * (h - ov)
        return (x0, y1 - h, x0 + w, y1)

    def label(self, col: int, row: int) -> str:
        return f"{aids.column_name(col)}{row + 1}"

    def marks(self) -> list[tuple[float, float]]:
        """Alignment marks in map points: centred on every cut line (where a sheet's cut
        edge meets its neighbour's dashed line), so half of each shows on either sheet once
        glued; at tile corners and half way along each edge."""
        w, h, ov = self.window.width, self.window.height, self.overlap
        xs = [self.tile(i, 0)[2] - ov for i in range(self.cols - 1)]
        ys = [self.tile(0, j)[1] + ov for j in range(self.rows - 1)]
        col_mid = [self.tile(i, 0)[0] + w / 2 for i in range(self.cols)]
        row_mid = [self.tile(0, j)[1] + h / 2 for j in range(self.rows)]
        pts = {(x, y) for x in xs for y in ys + row_mid}
        pts |= {(x, y) for x in col_mid for y in ys}
        return sorted(pts)

    def marks_near(self, col: int, row: int, d: float) -> list[tuple[float, float]]:
        """The alignment marks that show on one tile (within ``d`` of its window).

        Marks lie on the cut lines and the lines through the tile middles, so only
        the strips next to this tile can hold one: a constant amount of work per tile
        (scanning :meth:`marks` for every tile made a large plan quadratic)."""
        w, h, ov = self.window.width, self.window.height, self.overlap
        x0, y0, x1, y1 = self.tile(col, row)
        near_c = [i for i in (col - 1, col, col + 1) if 0 <= i < self.cols]
        near_r = [j for j in (row - 1, row, row + 1) if 0 <= j < self.rows]
        strip_x = [self.tile(i, 0)[2] - ov for i in near_c if i < self.cols - 1]
        strip_y = [self.tile(0, j)[1] + ov for j in near_r if j < self.rows - 1]
        mid_x = [self.tile(i, 0)[0] + w / 2 for i in near_c]
        mid_y = [self.tile(0, j)[1] + h / 2 for j in near_r]
        pts = {(x, y) for x in strip_x for y in strip_y + mid_y}
        pts |= {(x, y) for x in mid_x for y in strip_y}
        return sorted((x, y) for x, y in pts if x0 - d < x < x1 + d and y0 - d < y < y1 + d)


def plan_tiles(map_w: float, map_h: float, paper: str) -> TileGrid:
    """The tile grid using the fewest pages (portrait wins a tie)."""
    options = tile_options(map_w, map_h, paper)
    return min(options, key=lambda g: g.pages)  # min keeps the first (portrait) on a tie


def tile_options(map_w: float, map_h: float, paper: str) -> list[TileGrid]:
    """The portrait and the landscape tile grids."""
    pw, ph = paper_size(paper)
    out: list[TileGrid] = []
    for name, (w, h) in (("plan_tile_portrait", (pw, ph)), ("plan_tile_landscape", (ph, pw))):
        lay = layout(name, w, h)
        win, ov = lay.box("window"), lay.length("overlap")

        def count(size: float, room: float, ov: float = ov) -> int:
            return 1 if size <= room + 1e-6 else math.ceil((size - ov) / (room - ov) - 1e-9)

        out.append(
            TileGrid(lay, count(map_w, win.width), count(map_h, win.height), map_w, map_h, ov)
        )
    return out


#: One sheet on an assembly guide: its window (map points), label, page number (None for
#: a sheet left out because it would be blank) and the box its label goes in the middle of.
Rect4 = tuple[float, float, float, float]
Cell = tuple[Rect4, str, int | None, Rect4]


def assembly_page(
    c: Canvas,
    cells: list[Cell],
    form: str,
    paper: str,
    ext: Extent,
    level: int,
    name: str,
    detail: str,
) -> None:
    """The level at a small scale with every sheet framed, labelled as its page is and
    with its page number."""
    x0 = min(min(cell[0][0] for cell in cells), 0.0)
    y0 = min(min(cell[0][1] for cell in cells), 0.0)
    x1 = max(max(cell[0][2] for cell in cells), ext.width * CM)
    y1 = max(max(cell[0][3] for cell in cells), ext.height * CM)
    lay = sheet_layout(paper, (x1 - x0) / (y1 - y0))
    c.setPageSize((lay.width, lay.height))
    box = lay.box("map")
    s = min(box.width / (x1 - x0), box.height / (y1 - y0))
    ox = box.x + (box.width - (x1 - x0) * s) / 2 - x0 * s
    oy = box.y + (box.height - (y1 - y0) * s) / 2 - y0 * s
    c.saveState()
    c.translate(ox, oy)
    c.scale(s, s)
    c.doForm(form)
    c.doForm(f"{form}_text")
    c.restoreState()
    c.saveState()
    c.setLineWidth(0.8)
    for (tx0, ty0, tx1, ty1), _, page, _ in sorted(cells, key=lambda t: t[2] is not None):
        colour = "#c4161c" if page is not None else "#b0b0b0"
        c.setStrokeColor(colour)
        c.rect(ox + tx0 * s, oy + ty0 * s, (tx1 - tx0) * s, (ty1 - ty0) * s, stroke=1, fill=0)
    for (tx0, ty0, tx1, ty1), label, page, (ax0, ay0, ax1, ay1) in cells:
        if page is None:
            continue
        # the label sits in the middle of the part of the sheet that shows its content
        lx0, ly0, lx1, ly1 = max(tx0, ax0), max(ty0, ay0), min(tx1, ax1), min(ty1, ay1)
        if lx1 <= lx0 or ly1 <= ly0:
            lx0, ly0, lx1, ly1 = tx0, ty0, tx1, ty1
        cx, cy = ox + (lx0 + lx1) / 2 * s, oy + (ly0 + ly1) / 2 * s
        room = (lx1 - lx0) * s * 0.9
        size = max(6.0, min(24.0, (tx1 - tx0) * s / 4))
        size = max(6.0, min(size, room / max(1.0, c.stringWidth(label, FONT_BOLD, 1.0))))
        c.setFillColor("#ffffff")
        c.setFillAlpha(0.75)
        width = max(c.stringWidth(label, FONT_BOLD, size), c.stringWidth("p. 000", FONT, 6))
        c.rect(cx - width / 2 - 1, cy - size * 0.75, width + 2, size * 1.7, stroke=0, fill=1)
        c.setFillAlpha(1)
        c.setFillColor("#c4161c")
        c.setFont(FONT_BOLD, size)
        c.drawCentredString(cx, cy, label)
        c.setFont(FONT, max(6.0, size * 0.45))
        c.drawCentredString(cx, cy - size * 0.6, f"p. {page}")
    c.restoreState()
    ratio = CM / (s * CM) if s else 1.0
    draw_frame(c, lay, f"{name}: {level_name(level)}, how to assemble", detail)
    draw_text(c, lay.box("legend"), lay.setting("assembly_note"), font_size=8)
    aids.draw_scale_bar(c, lay.box("scale_bar"), ratio, lay.setting("scale_steps"))
    c.showPage()


def _by_tile(
    grid: TileGrid, boxes: list[tuple[float, float, float, float]]
) -> dict[tuple[int, int], list[int]]:
    """For each tile, the indices of the boxes (map points) it crosses. Found from the grid
    spacing, so the work is the number of hits, not tiles x boxes."""
    w, h, ov = grid.window.width, grid.window.height, grid.overlap
    x_first, _, _, y_top = grid.tile(0, 0)
    out: dict[tuple[int, int], list[int]] = {}
    for i, (px0, py0, px1, py1) in enumerate(boxes):
        c0 = max(0, math.floor((px0 - x_first - w) / (w - ov)))
        c1 = min(grid.cols - 1, math.floor((px1 - x_first) / (w - ov)))
        r0 = max(0, math.floor((y_top - h - py1) / (h - ov)))
        r1 = min(grid.rows - 1, math.floor((y_top - py0) / (h - ov)))
        for col in range(c0, c1 + 1):
            for row in range(r0, r1 + 1):
                x0, y0, x1, y1 = grid.tile(col, row)
                if x0 < px1 and x1 > px0 and y0 < py1 and y1 > py0:
                    out.setdefault((col, row), []).append(i)
    return out


def tile_pages(
    c: Canvas,
    scenario: Scenario,
    grid: TileGrid,
    form: str,
    level: int,
    name: str,
    used: set[str],
    swatches: list[tuple[str, str]],
    symbol: float,
    keep: Sequence[tuple[int, int]],
    text: Deferred,
    label: Callable[[int, int], str] | None = None,
    tile_of: Callable[[int, int], str] | None = None,
    on_page: Callable[[int, int], None] | None = None,
) -> None:
    """One page per kept tile. Area ids and building names are written on each tile that
    shows enough of their area or building, inside the part of the tile that stays visible
    once the sheets are glued: no text straddles a tile edge."""
    lay = grid.lay
    ids_on = _by_tile(grid, [t.area for t in text.ids])
    names_on = _by_tile(grid, [p.bounds for p in text.names])
    min_name = style().length("name_font") / 0.72 * 0.55
    win = grid.window
    band = f"band_{form}_{'landscape' if grid.landscape else 'portrait'}"
    # the unchanging print aids of the band are one more form, placed on every page
    if not c.hasForm(band):
        _band(c, scenario, lay, band, level, name, used, swatches, symbol)
    d = lay.length("mark")
    ov = grid.overlap
    label = label or grid.label
    if tile_of is None:

        def tile_of(col: int, row: int) -> str:
            return f"of {grid.cols}×{grid.rows} · {level_name(level)}"

    kept = set(keep)
    for col, row in keep:
        c.setPageSize((lay.width, lay.height))
        if on_page is not None:
            on_page(col, row)
        x0, y0, x1, y1 = grid.tile(col, row)
        c.saveState()
        p = c.beginPath()
        p.rect(win.x, win.y, win.width, win.height)
        c.clipPath(p, stroke=0, fill=0)
        c.translate(win.x - x0, win.y - y0)
        c.doForm(form)
        # where the neighbours' edges land (dashed) and the alignment marks
        c.setLineWidth(0.4)
        c.setStrokeColor("#c4161c")
        c.setDash(3, 2)
        if col + 1 < grid.cols:
            c.line(x1 - ov, y0, x1 - ov, y1)
        if row + 1 < grid.rows:
            c.line(x0, y0 + ov, x1, y0 + ov)
        c.setDash()
        near = grid.marks_near(col, row, d)
        for mx, my in near:
            aids.draw_mark(c, mx, my, d)
        avoid = [(mx - d, my - d, mx + d, my + d) for mx, my in near]
        visible = (
            x0,
            y0 + ov if row + 1 < grid.rows else y0,
            x1 - ov if col + 1 < grid.cols else x1,
            y1,
        )
        for i in ids_on.get((col, row), ()):
            place_id(c, text.ids[i], visible)
        for i in names_on.get((col, row), ()):
            place_name(c, text.names[i], visible, min_name, avoid)
        c.restoreState()
        c.setLineWidth(0.6)
        c.setStrokeColor("#000000")
        c.rect(win.x, win.y, win.width, win.height, stroke=1, fill=0)
        c.doForm(band)
        draw_text(c, lay.box("tile"), label(col, row))
        draw_text(c, lay.box("tile_of"), tile_of(col, row))
        aids.draw_locator(c, lay.box("locator"), grid.cols, grid.rows, col, row, kept)
        c.showPage()


def _band(
    c: Canvas,
    scenario: Scenario,
    lay: Layout,
    band: str,
    level: int,
    name: str,
    used: set[str],
    swatches: list[tuple[str, str]],
    symbol: float,
) -> None:
    c.beginForm(band, 0, 0, lay.width, lay.height)
    draw_calibration(c, lay.box("calibration"), lay.setting("print_note"))
    draw_text(c, lay.box("print_note"), lay.setting("print_note").replace("|", ""))
    aids.draw_north(c, lay.box("north"))
    aids.draw_scale_bar(c, lay.box("scale_bar"), 1.0, lay.setting("scale_steps"))
    aids.draw_legend(c, lay.box("legend"), used, symbol, swatches)
    draw_text(c, lay.box("title"), f"{name}: {level_name(level)}")
    draw_text(c, lay.box("subtitle"), f"1:1 table scale · {sheet_subtitle(scenario)}")
    c.endForm()
