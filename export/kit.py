"""Shared drawing kit: embedded fonts, paper sizes, the canvas, fitted text, print aids.

Every document embeds DejaVu Sans (shipped in ``export/fonts`` with its licence) so names in
Polish, Greek or Cyrillic print; reportlab's base-14 fonts cannot.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from reportlab import rl_config
from reportlab.lib.colors import Color, toColor
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from .layout import MM, Box

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
ELLIPSIS = "…"


@cache
def register_fonts() -> None:
    """Register the shipped TrueType fonts once per process."""
    folder = resources.files("fireground.export").joinpath("fonts")
    for name, file in ((FONT, "DejaVuSans.ttf"), (FONT_BOLD, "DejaVuSans-Bold.ttf")):
        with resources.as_file(folder.joinpath(file)) as path:
            pdfmetrics.registerFont(TTFont(name, str(path)))
    pdfmetrics.registerFontFamily(
        FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD
    )


def font_name(style: Any) -> str:
    """``font: bold`` in a layout selects the bold face."""
    return FONT_BOLD if str(style or "") == "bold" else FONT


def paper_size(paper: str) -> tuple[float, float]:
    try:
        return PAPERS[paper.lower()]
    except KeyError:
        raise ValueError(f"unknown paper {paper!r} (a4 or letter)") from None


@cache
def to_colour(value: str) -> Color:
    return toColor(value)


class FastCanvas(Canvas):
    """A canvas that parses each colour string once: reportlab's ``toColor`` does not
    recognise ``#rrggbb`` quickly and falls back to evaluating it, which dominated large
    plans."""

    def setFillColor(self, aColor: Any, alpha: Any = None) -> None:
        super().setFillColor(to_colour(aColor) if isinstance(aColor, str) else aColor, alpha)

    def setStrokeColor(self, aColor: Any, alpha: Any = None) -> None:
        super().setStrokeColor(to_colour(aColor) if isinstance(aColor, str) else aColor, alpha)


def new_canvas(path: Path, pagesize: tuple[float, float], title: str, subject: str) -> Canvas:
    """A canvas with embedded fonts that asks viewers to print at 100 %. Streams are
    deflated and written binary (no ASCII85 wrapping: smaller and faster)."""
    register_fonts()
    rl_config.useA85 = 0  # read when each page and form stream is written
    c = FastCanvas(
        str(path),
        pagesize=pagesize,
        pageCompression=1,
        invariant=1,
        initialFontName=FONT,
        initialFontSize=9,
    )
    c.setTitle(title)
    c.setSubject(subject)
    c.setAuthor("fireground")
    c.setCreator("fireground")
    c.setViewerPreference("PrintScaling", "None")
    return c


def hex_colour(value: Any, default: str = "#000000") -> str:
    return str(value or default)


# -- text that fits its box --------------------------------------------------------------
def fit_lines(
    text: str,
    font: str,
    size: float,
    box_w: float,
    box_h: float,
    *,
    min_size: float = 5.0,
    leading: float = 1.2,
    max_lines: int | None = None,
) -> tuple[list[str], float]:
    """Wrap ``text`` into the box, shrinking down to ``min_size``; past that, cut with an
    ellipsis. Returns the lines and the size used. Never wider or taller than the box."""
    register_fonts()
    s = size
    while True:
        lines = _wrap(text, font, s, box_w)
        fits_h = len(lines) * s * leading <= box_h + 1e-6
        fits_n = max_lines is None or len(lines) <= max_lines
        fits_w = all(pdfmetrics.stringWidth(ln, font, s) <= box_w + 1e-6 for ln in lines)
        if fits_h and fits_n and fits_w:
            return lines, s
        if s - 0.25 < min_size:
            break
        s -= 0.25
    s = min_size
    room = max(1, int((box_h + 1e-6) // (s * leading)))
    if max_lines is not None:
        room = min(room, max_lines)
    lines = _wrap(text, font, s, box_w)
    cut = len(lines) > room
    lines = [_clip(ln, font, s, box_w) for ln in lines[:room]]
    if cut and lines:
        lines[-1] = _clip(lines[-1] + ELLIPSIS, font, s, box_w, force_ellipsis=True)
    return lines, s


def _wrap(text: str, font: str, size: float, width: float) -> list[str]:
    out: list[str] = []
    for para in str(text).split("\n"):
        out.extend(simpleSplit(para, font, size, width) or [""])
    return out


def _clip(line: str, font: str, size: float, width: float, force_ellipsis: bool = False) -> str:
    if pdfmetrics.stringWidth(line, font, size) <= width:
        return line
    body = line.rstrip(ELLIPSIS) if force_ellipsis else line
    while body and pdfmetrics.stringWidth(body + ELLIPSIS, font, size) > width:
        body = body[:-1]
    return body + ELLIPSIS


def draw_text(c: Canvas, box: Box, text: str, **over: Any) -> float:
    """Draw ``text`` inside ``box`` with the box's style (font, font_size, min_font_size,
    align, valign, colour, max_lines, padding); returns the font size used."""
    st = {**box.style, **over}
    pad = float(st.get("padding", 0.0))
    font = font_name(st.get("font"))
    size = float(st.get("font_size", 9))
    leading = float(st.get("leading", 1.2))
    w, h = box.width - 2 * pad, box.height - 2 * pad
    lines, used = fit_lines(
        text,
        font,
        size,
        w,
        h,
        min_size=float(st.get("min_font_size", min(size, 5.0))),
        leading=leading,
        max_lines=st.get("max_lines"),
    )
    align = st.get("align", "left")
    valign = st.get("valign", "top")
    block = len(lines) * used * leading
    if valign == "middle":
        top = box.y + pad + (h + block) / 2
    elif valign == "bottom":
        top = box.y + pad + block
    else:
        top = box.top - pad
    c.saveState()
    c.setFillColor(hex_colour(st.get("colour")))
    c.setFont(font, used)
    for i, ln in enumerate(lines):
        base = top - (i + 1) * used * leading + used * (leading - 1) / 2 + used * 0.2
        if align == "center":
            c.drawCentredString(box.x + box.width / 2, base, ln)
        elif align == "right":
            c.drawRightString(box.right - pad, base, ln)
        else:
            c.drawString(box.x + pad, base, ln)
    c.restoreState()
    return used


def fill_box(
    c: Canvas,
    box: Box,
    fill: str | None = None,
    stroke: str | None = None,
    width: float = 0.5,
    radius: float = 0.0,
) -> None:
    c.saveState()
    if fill:
        c.setFillColor(fill)
    if stroke:
        c.setStrokeColor(stroke)
        c.setLineWidth(width)
    if radius:
        c.roundRect(
            box.x,
            box.y,
            box.width,
            box.height,
            radius,
            stroke=1 if stroke else 0,
            fill=1 if fill else 0,
        )
    else:
        c.rect(
            box.x, box.y, box.width, box.height, stroke=1 if stroke else 0, fill=1 if fill else 0
        )
    c.restoreState()


# -- print aids --------------------------------------------------------------------------
def draw_calibration(c: Canvas, box: Box, note: str) -> None:
    """The 5 cm calibration square (its size comes from the box) with ticks every cm and
    the instruction to print at 100 % / actual size."""
    side = min(box.width, box.height)
    x, y = box.x, box.top - side
    c.saveState()
    c.setStrokeColor("#000000")
    c.setLineWidth(0.6)
    c.rect(x, y, side, side, stroke=1, fill=0)
    c.setLineWidth(0.3)
    n = round(side / (10 * MM))
    for i in range(1, n):
        d = i * side / n
        c.line(x + d, y, x + d, y + 2 * MM)
        c.line(x, y + d, x + 2 * MM, y + d)
    c.setFont(FONT_BOLD, 8)
    c.drawCentredString(x + side / 2, y + side / 2 + 4, f"{side / (10 * MM):g} cm")
    c.setFont(FONT, 5.5)
    for i, part in enumerate(note.split("|")):
        c.drawCentredString(x + side / 2, y + side / 2 - 6 - 7 * i, part.strip())
    c.restoreState()


def crop_marks(
    c: Canvas, xs: Sequence[float], ys: Sequence[float], sheet: Box, gap: float, length: float
) -> None:
    """Cut lines continued into the margins outside ``sheet`` (the card block)."""
    c.saveState()
    c.setLineWidth(0.25)
    c.setStrokeColor("#000000")
    for x in xs:
        c.line(x, sheet.top + gap, x, sheet.top + gap + length)
        c.line(x, sheet.y - gap, x, sheet.y - gap - length)
    for y in ys:
        c.line(sheet.x - gap, y, sheet.x - gap - length, y)
        c.line(sheet.right + gap, y, sheet.right + gap + length, y)
    c.restoreState()
