"""Map symbols: one small function per feature or marker, drawn centred at (x, y) with side
``s`` (points). Each has a legend label; the plans print a legend of those they use."""

from __future__ import annotations

from collections.abc import Callable

from reportlab.pdfgen.canvas import Canvas

from .kit import FONT, FONT_BOLD

Symbol = Callable[[Canvas, float, float, float, str], None]


def _caption(
    c: Canvas,
    x: float,
    y: float,
    s: float,
    text: str,
    colour: str = "#000000",
    font: str = FONT_BOLD,
) -> None:
    if text:
        c.setFillColor(colour)
        c.setFont(font, s * 0.5)
        c.drawCentredString(x, y - s * 0.18, text)


def stairwell(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    h = s / 2
    c.setFillColor("#ffffff")
    c.setStrokeColor("#000000")
    c.setLineWidth(s * 0.06)
    c.rect(x - h, y - h, s, s, stroke=1, fill=1)
    p = c.beginPath()
    n = 4
    p.moveTo(x - h * 0.8, y - h * 0.8)
    for i in range(n):
        step = 1.6 * h / n
        p.lineTo(x - h * 0.8 + i * step, y - h * 0.8 + (i + 1) * step)
        p.lineTo(x - h * 0.8 + (i + 1) * step, y - h * 0.8 + (i + 1) * step)
    c.drawPath(p, stroke=1, fill=0)


def store(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    colours = {"O": "#5b3a1a", "P": "#c4161c", "W": "#6b7d2a"}
    h = s / 2
    c.setFillColor(colours.get(text[:1], "#555555"))
    c.setStrokeColor("#000000")
    c.setLineWidth(s * 0.05)
    c.roundRect(x - h, y - s * 0.4, s, s * 0.8, s * 0.15, stroke=1, fill=1)
    _caption(c, x, y, s, text[:1], "#ffffff")


def hydrant(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFillColor("#c4161c")
    c.setStrokeColor("#000000")
    c.setLineWidth(s * 0.05)
    c.circle(x, y, s / 2, stroke=1, fill=1)
    _caption(c, x, y + s * 0.08, s * 0.9, "H", "#ffffff")
    if text:
        c.setFillColor("#ffffff")
        c.setFont(FONT, s * 0.26)
        c.drawCentredString(x, y - s * 0.38, text)


def water(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFillColor("#1f6fb8")
    c.setStrokeColor("#000000")
    c.setLineWidth(s * 0.05)
    c.circle(x, y, s / 2, stroke=1, fill=1)
    c.setStrokeColor("#ffffff")
    c.setLineWidth(s * 0.07)
    for dy in (-0.15, 0.1):
        p = c.beginPath()
        p.moveTo(x - s * 0.32, y + s * dy)
        p.curveTo(
            x - s * 0.12,
            y + s * (dy + 0.12),
            x + s * 0.08,
            y + s * (dy - 0.12),
            x + s * 0.32,
            y + s * dy,
        )
        c.drawPath(p, stroke=1, fill=0)


def occupants(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFillColor("#ffffff")
    c.setStrokeColor("#000000")
    c.setLineWidth(s * 0.05)
    c.rect(x - s / 2, y - s / 2, s, s, stroke=1, fill=1)
    c.setFillColor("#000000")
    c.circle(x - s * 0.2, y + s * 0.22, s * 0.12, stroke=0, fill=1)
    c.rect(x - s * 0.32, y - s * 0.38, s * 0.24, s * 0.45, stroke=0, fill=1)
    if text:
        c.setFont(FONT_BOLD, s * 0.42)
        c.drawCentredString(x + s * 0.2, y - s * 0.15, text)


def entry(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFillColor("#1d7a34")
    c.setStrokeColor("#000000")
    c.setLineWidth(s * 0.05)
    p = c.beginPath()
    p.moveTo(x - s / 2, y - s * 0.2)
    p.lineTo(x, y - s * 0.2)
    p.lineTo(x, y - s / 2)
    p.lineTo(x + s / 2, y)
    p.lineTo(x, y + s / 2)
    p.lineTo(x, y + s * 0.2)
    p.lineTo(x - s / 2, y + s * 0.2)
    p.close()
    c.drawPath(p, stroke=1, fill=1)


def fire(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFillColor("#e8410c")
    c.setStrokeColor("#6a0c00")
    c.setLineWidth(s * 0.05)
    p = c.beginPath()
    p.moveTo(x, y + s / 2)
    p.curveTo(x + s * 0.5, y + s * 0.05, x + s * 0.45, y - s / 2, x, y - s / 2)
    p.curveTo(x - s * 0.45, y - s / 2, x - s * 0.5, y + s * 0.05, x, y + s / 2)
    c.drawPath(p, stroke=1, fill=1)
    _caption(c, x, y - s * 0.08, s, text, "#ffffff")


def embers(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFillColor("#ff8c1a")
    c.setStrokeColor("#6a0c00")
    c.setLineWidth(s * 0.04)
    for dx, dy in ((-0.22, -0.15), (0.22, -0.15), (0.0, 0.22)):
        c.circle(x + s * dx, y + s * dy, s * 0.16, stroke=1, fill=1)


def damp(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFillColor("#3a8fd8")
    c.setStrokeColor("#0c3a66")
    c.setLineWidth(s * 0.05)
    p = c.beginPath()
    p.moveTo(x, y + s / 2)
    p.curveTo(x + s * 0.15, y + s * 0.2, x + s * 0.4, y - s * 0.05, x + s * 0.38, y - s * 0.18)
    p.curveTo(x + s * 0.36, y - s * 0.55, x - s * 0.36, y - s * 0.55, x - s * 0.38, y - s * 0.18)
    p.curveTo(x - s * 0.4, y - s * 0.05, x - s * 0.15, y + s * 0.2, x, y + s / 2)
    c.drawPath(p, stroke=1, fill=1)
    _caption(c, x, y - s * 0.1, s * 0.9, text, "#ffffff")


def damage(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFillColor("#303030")
    c.setStrokeColor("#000000")
    c.setLineWidth(s * 0.05)
    c.rect(x - s / 2, y - s / 2, s, s, stroke=1, fill=1)
    c.setStrokeColor("#bbbbbb")
    c.setLineWidth(s * 0.05)
    p = c.beginPath()
    p.moveTo(x - s * 0.45, y + s * 0.45)
    p.lineTo(x - s * 0.1, y + s * 0.1)
    p.lineTo(x - s * 0.2, y - s * 0.05)
    p.lineTo(x + s * 0.45, y - s * 0.45)
    c.drawPath(p, stroke=1, fill=0)
    _caption(c, x + s * 0.15, y + s * 0.05, s, text, "#ffffff")


def rubble(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFillColor("#7d6b5a")
    c.setStrokeColor("#3a2a1a")
    c.setLineWidth(s * 0.04)
    for dx, dy, r in ((-0.2, -0.2, 0.2), (0.2, -0.18, 0.22), (0.0, 0.2, 0.18)):
        c.rect(x + s * (dx - r / 2), y + s * (dy - r / 2), s * r * 1.3, s * r, stroke=1, fill=1)


def crater(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFillColor("#6b5a48")
    c.setStrokeColor("#000000")
    c.setLineWidth(s * 0.06)
    c.circle(x, y, s * 0.45, stroke=1, fill=1)
    c.setFillColor("#3a2e22")
    c.circle(x, y, s * 0.25, stroke=0, fill=1)


def unit(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFont(FONT_BOLD, s * 0.45)
    w = max(s, c.stringWidth(text, FONT_BOLD, s * 0.45) + s * 0.3)
    c.setFillColor("#ffffff")
    c.setStrokeColor("#1b3a8a")
    c.setLineWidth(s * 0.07)
    c.roundRect(x - w / 2, y - s * 0.32, w, s * 0.64, s * 0.12, stroke=1, fill=1)
    c.setFillColor("#1b3a8a")
    c.drawCentredString(x, y - s * 0.15, text)


def unit_width(c: Canvas, s: float, text: str) -> float:
    return max(s, c.stringWidth(text, FONT_BOLD, s * 0.45) + s * 0.3)


def casualty(c: Canvas, x: float, y: float, s: float, text: str = "") -> None:
    c.setFillColor("#ffffff")
    c.setStrokeColor("#c4161c")
    c.setLineWidth(s * 0.08)
    c.circle(x, y, s * 0.45, stroke=1, fill=1)
    c.setFillColor("#c4161c")
    c.rect(x - s * 0.3, y - s * 0.08, s * 0.6, s * 0.16, stroke=0, fill=1)
    c.rect(x - s * 0.08, y - s * 0.3, s * 0.16, s * 0.6, stroke=0, fill=1)


#: legend key -> (symbol, sample caption, legend text)
LEGEND: dict[str, tuple[Symbol, str, str]] = {
    "stairwell": (stairwell, "", "stairwell"),
    "store": (store, "O", "store: Oil Petrol Wood"),
    "hydrant": (hydrant, "", "hydrant (pressure)"),
    "water": (water, "", "open water"),
    "occupants": (occupants, "4", "occupants"),
    "entry": (entry, "", "entry"),
    "fire": (fire, "2", "fire (1-5)"),
    "embers": (embers, "", "embers"),
    "damp": (damp, "1", "damp (1-5)"),
    "damage": (damage, "3", "damage (1-5)"),
    "rubble": (rubble, "", "rubble"),
    "crater": (crater, "", "crater"),
    "unit": (unit, "E1", "unit (id)"),
    "casualty": (casualty, "", "casualty"),
}
