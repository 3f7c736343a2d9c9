"""Print aids drawn around a map: legend, scale bar, north arrow, tile locator, marks."""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Sequence

from reportlab.pdfgen.canvas import Canvas

from . import symbols as sym
from .kit import FONT, FONT_BOLD
from .layout import CM, MM, Box

LEGEND_ORDER = tuple(sym.LEGEND)


def draw_legend(
    c: Canvas, box: Box, keys: Iterable[str], symbol: float, extra: Sequence[tuple[str, str]] = ()
) -> None:
    """Symbols with their meaning, filled in columns top to bottom. ``extra`` adds
    (swatch colour, text) rows, e.g. the area kinds."""
    size = float(box.get("font_size", 6))
    rows: list[tuple[str, str, str]] = [("swatch", col, text) for col, text in extra]
    rows += [("sym", k, sym.LEGEND[k][2]) for k in LEGEND_ORDER if k in set(keys)]
    if not rows:
        return
    line = max(symbol, size * 1.2) + 1.0 * MM
    per_col = max(1, int(box.height // line))
    ncols = math.ceil(len(rows) / per_col)
    col_w = box.width / max(1, ncols)
    c.saveState()
    for i, (kind, key, text) in enumerate(rows):
        col, r = divmod(i, per_col)
        x = box.x + col * col_w
        y = box.top - (r + 0.5) * line
        c.saveState()
        if kind == "swatch":
            c.setFillColor(key)
            c.setStrokeColor("#3a3a3a")
            c.setLineWidth(0.3)
            c.rect(x, y - symbol / 2, symbol, symbol, stroke=1, fill=1)
        else:
            fn, cap, _ = sym.LEGEND[key]
            fn(c, x + symbol / 2, y, symbol, cap)
        c.restoreState()
        c.setFillColor("#000000")
        c.setFont(FONT, size)
        room = col_w - symbol - 2.5 * MM
        label = text
        while label and c.stringWidth(label, FONT, size) > room:
            label = label[:-2] + "…"
        c.drawString(x + symbol + 1.5 * MM, y - size * 0.35, label)
    c.restoreState()


def nice_step(ratio: float, box_w: float, steps: Sequence[float], segments: int = 5) -> float:
    """A round number of table cm for one scale-bar segment (``ratio`` table cm per paper
    cm) so ``segments`` of them fit ``box_w`` points."""
    best = float(steps[0])
    for s in steps:
        if segments * s / ratio * CM > box_w + 1e-6:
            break
        best = float(s)
    return best


def draw_scale_bar(c: Canvas, box: Box, ratio: float, steps: Sequence[float]) -> None:
    """Alternating segments, each a round number of table cm; ``ratio`` is table cm per
    paper cm (1 at true scale)."""
    size = float(box.get("font_size", 6))
    step = nice_step(ratio, box.width, steps)
    seg = step / ratio * CM
    n = max(1, min(10, int(box.width / seg + 1e-6)))
    y = box.top - 2.2 * MM
    h = 1.6 * MM
    c.saveState()
    c.setLineWidth(0.4)
    c.setStrokeColor("#000000")
    for i in range(n):
        c.setFillColor("#000000" if i % 2 == 0 else "#ffffff")
        c.rect(box.x + i * seg, y - h, seg, h, stroke=1, fill=1)
    c.setFillColor("#000000")
    c.setFont(FONT, size)
    for i in (0, n):
        c.drawCentredString(box.x + i * seg, y - h - size * 1.1, f"{i * step:g}")
    total = n * step
    if ratio == 1:
        text = f"{total:g} cm on the table = {total:g} cm on paper (1:1)"
    else:
        text = f"{total:g} cm on the table (1 cm here = {ratio:.3g} cm)"
    c.setFont(FONT, size)
    c.drawString(box.x, y - h - size * 2.3, text)
    c.restoreState()


def draw_north(c: Canvas, box: Box) -> None:
    cx = box.x + box.width / 2
    top = box.top
    w = box.width * 0.45
    c.saveState()
    c.setLineWidth(0.5)
    c.setStrokeColor("#000000")
    p = c.beginPath()
    p.moveTo(cx, top)
    p.lineTo(cx + w / 2, top - box.height * 0.62)
    p.lineTo(cx, top - box.height * 0.5)
    p.close()
    c.setFillColor("#000000")
    c.drawPath(p, stroke=1, fill=1)
    p = c.beginPath()
    p.moveTo(cx, top)
    p.lineTo(cx - w / 2, top - box.height * 0.62)
    p.lineTo(cx, top - box.height * 0.5)
    p.close()
    c.setFillColor("#ffffff")
    c.drawPath(p, stroke=1, fill=1)
    c.setFillColor("#000000")
    c.setFont(FONT_BOLD, box.height * 0.3)
    c.drawCentredString(cx, box.y, "N")
    c.restoreState()


def draw_locator(
    c: Canvas,
    box: Box,
    cols: int,
    rows: int,
    col: int,
    row: int,
    kept: Collection[tuple[int, int]] | None = None,
) -> None:
    """A miniature of the tile grid with this tile filled (sheets left out shaded)."""
    cell = min(box.width / cols, box.height / rows)
    x0 = box.x + (box.width - cell * cols) / 2
    y0 = box.top
    c.saveState()
    c.setLineWidth(0.3)
    c.setStrokeColor("#555555")
    c.setFillColor("#ffffff")
    c.rect(x0, y0 - cell * rows, cell * cols, cell * rows, stroke=1, fill=1)
    if cols * rows <= 400:  # past that the grid lines would be a grey smudge
        for i in range(1, cols):
            c.line(x0 + i * cell, y0, x0 + i * cell, y0 - cell * rows)
        for j in range(1, rows):
            c.line(x0, y0 - j * cell, x0 + cell * cols, y0 - j * cell)
    if kept is not None and cols * rows <= 400:
        c.setFillColor("#d0d0d0")
        for i in range(cols):
            for j in range(rows):
                if (i, j) not in kept:
                    c.rect(x0 + i * cell, y0 - (j + 1) * cell, cell, cell, stroke=0, fill=1)
    c.setFillColor("#c4161c")
    c.rect(x0 + col * cell, y0 - (row + 1) * cell, cell, cell, stroke=0, fill=1)
    c.restoreState()


def draw_mark(c: Canvas, x: float, y: float, d: float) -> None:
    """An alignment mark: a circle with a cross through it."""
    c.circle(x, y, d * 0.3, stroke=1, fill=0)
    c.line(x - d / 2, y, x + d / 2, y)
    c.line(x, y - d / 2, x, y + d / 2)


def column_name(i: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(65 + r) + s
    return s
