"""The Forest Fire board strip: N squares at their true size, cut into sheets by the tiler
(:class:`~fireground.export.plantiles.TileGrid`) or reduced onto one page (``fit``)."""

from __future__ import annotations

import math
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from fireground.engine.games.forestfire.scenario import Setup

from ...kit import FONT, FONT_BOLD, draw_calibration, draw_text, new_canvas, paper_size
from ...layout import CM, Layout, layout
from ...plantiles import TileGrid


def strip_size(s: Setup) -> tuple[float, float]:
    """The strip in points at 1:1: the squares in a row, plus a band for the numbers."""
    side = s.square_cm * CM
    return (s.squares * side, side)


def _grid(s: Setup, paper: str) -> TileGrid:
    w, h = paper_size(paper)
    lay = layout("ff_board_tile", max(w, h), min(w, h))
    win, ov = lay.box("window"), lay.length("overlap")
    map_w, map_h = strip_size(s)
    cols = 1 if map_w <= win.width else math.ceil((map_w - ov) / (win.width - ov) - 1e-9)
    rows = 1 if map_h <= win.height else math.ceil((map_h - ov) / (win.height - ov) - 1e-9)
    return TileGrid(lay, cols, rows, map_w, map_h, ov)


def _draw_strip(c: Canvas, s: Setup, lay: Layout, scale: float) -> None:
    """The squares in map points (origin at the strip's bottom-left), scaled."""
    colours = lay.setting("colours", {})
    side = s.square_cm * CM * scale
    c.saveState()
    c.setLineWidth(0.8)
    c.setStrokeColor(colours.get("line", "#000000"))
    for i in range(s.squares):
        x = i * side
        c.setFillColor(colours.get("town" if i == 0 else "forest", "#ffffff"))
        c.rect(x, 0, side, side, stroke=1, fill=1)
        c.setFillColor(colours.get("number", "#000000"))
        c.setFont(FONT_BOLD, max(6.0, side * 0.16))
        c.drawString(x + side * 0.07, side * 0.8, str(i + 1))
        if i == 0:
            c.setFont(FONT_BOLD, max(6.0, side * 0.17))
            c.drawCentredString(x + side / 2, side * 0.12, "TOWN")
            c.setFont(FONT, max(5.0, side * 0.065))
            c.drawCentredString(x + side / 2, side * 0.34, "load water here")
        else:
            c.setFont(FONT, max(5.0, side * 0.1))
            c.drawRightString(x + side * 0.93, side * 0.08, f"{i} from town")
    c.restoreState()


def write_board(s: Setup, path: Path, paper: str = "a4", fit: bool = False) -> int:
    """Write the board PDF; returns its page count."""
    grid = _grid(s, paper)
    w, h = grid.lay.width, grid.lay.height
    lay = layout("ff_board_fit", w, h) if fit else grid.lay
    c = new_canvas(path, (w, h), f"{s.name}: board", "Forest Fire board strip")
    win = grid.window
    pages = 1 if fit else grid.cols * grid.rows
    for page in range(pages):
        col, row = (0, 0) if fit else (page % grid.cols, page // grid.cols)
        label = "" if fit else f" - sheet {chr(65 + col)} of {grid.cols}"
        draw_text(c, lay.box("title"), f"{s.name}: the board ({s.squares} squares of "
                  f"{s.square_cm:g} cm){label}")  # fmt: skip
        if fit:
            scale = min(win.width / grid.map_w, win.height / grid.map_h, 1.0)
            c.saveState()
            c.translate(win.x, win.top - grid.map_h * scale)
            _draw_strip(c, s, lay, scale)
            c.restoreState()
            draw_text(c, lay.box("note"), lay.setting("print_note").replace(" | ", " ")
                      + f" (scale {scale:.2f}).")  # fmt: skip
        else:
            x0, _y0, x1, _y1 = grid.tile(col, row)
            c.saveState()
            p = c.beginPath()
            p.rect(win.x, win.y, win.width, win.height)
            c.clipPath(p, stroke=0, fill=0)
            # the strip hangs from the window's top edge
            drop = lay.length("label")  # room above the strip for the alignment marks
            c.translate(win.x - x0, win.top - drop - grid.map_h)
            _draw_strip(c, s, lay, 1.0)
            c.setLineWidth(0.4)
            for mx, _my in grid.marks_near(col, row, grid.overlap):
                for my in (grid.map_h + drop / 2, -drop / 2):
                    c.circle(mx, my, lay.length("mark") / 2, stroke=1, fill=0)
                    c.line(mx - 5, my, mx + 5, my)
                    c.line(mx, my - 5, mx, my + 5)
            c.restoreState()
            c.saveState()
            c.setLineWidth(0.5)
            if col > 0:  # the cut line on the left, where this sheet lies over the last
                c.line(win.x, win.top, win.x, win.top - grid.map_h - 2 * drop)
            if col < grid.cols - 1:  # where the next sheet's edge goes
                c.setDash(3, 2)
                xo = win.x + (x1 - x0) - grid.overlap
                c.line(xo, win.top, xo, win.top - grid.map_h - 2 * drop)
            c.restoreState()
            draw_calibration(c, lay.box("calibration"), lay.setting("print_note"))
            draw_text(c, lay.box("note"), lay.setting("assembly_note"))
        c.showPage()
    c.save()
    return pages
