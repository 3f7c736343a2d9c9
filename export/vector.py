"""A stand-in for the part of reportlab's canvas the map code uses, that records what is
drawn (in points, y up) so the same drawing can be written as SVG or painted into a PNG.

Only what the map code (``mapdraw`` and its ``map*`` modules), ``symbols`` and
``planaids`` call is there: paths (lines and Bézier curves), rectangles, rounded
rectangles, circles, lines, text, colours, line widths and save/restore. Text widths
come from the same embedded DejaVu fonts as the PDFs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from .kit import FONT_BOLD, register_fonts, to_colour

Point = tuple[float, float]


def hex_of(value: Any) -> str:
    """``#rrggbb`` of a colour string or reportlab colour."""
    col = to_colour(value) if isinstance(value, str) else value
    r, g, b = (round(255 * float(v)) for v in (col.red, col.green, col.blue))
    return f"#{r:02x}{g:02x}{b:02x}"


class VectorPath:
    """Subpaths of straight and cubic segments: ``("M"|"L", p)``, ``("C", p1, p2, p3)``,
    ``("Z",)``."""

    def __init__(self) -> None:
        self.ops: list[tuple[Any, ...]] = []

    def moveTo(self, x: float, y: float) -> None:
        self.ops.append(("M", (x, y)))

    def lineTo(self, x: float, y: float) -> None:
        self.ops.append(("L", (x, y)))

    def curveTo(self, x1: float, y1: float, x2: float, y2: float, x3: float, y3: float) -> None:
        self.ops.append(("C", (x1, y1), (x2, y2), (x3, y3)))

    def close(self) -> None:
        self.ops.append(("Z",))


@dataclass
class Shape:
    path: VectorPath
    fill: str | None
    stroke: str | None
    width: float


@dataclass
class Text:
    x: float
    y: float
    text: str
    font: str
    size: float
    anchor: str  # start | middle | end
    fill: str


@dataclass
class _State:
    fill: str = "#000000"
    stroke: str = "#000000"
    width: float = 1.0
    font: str = FONT_BOLD
    size: float = 9.0


@dataclass
class VectorCanvas:
    """Records drawing in points; read ``items`` (Shape and Text) in drawing order."""

    items: list[Shape | Text] = field(default_factory=list)
    _st: _State = field(default_factory=_State)
    _stack: list[_State] = field(default_factory=list)

    def __post_init__(self) -> None:
        register_fonts()

    # state
    def saveState(self) -> None:
        self._stack.append(_State(**vars(self._st)))

    def restoreState(self) -> None:
        self._st = self._stack.pop()

    def setFillColor(self, colour: Any, alpha: Any = None) -> None:
        self._st.fill = hex_of(colour)

    def setStrokeColor(self, colour: Any, alpha: Any = None) -> None:
        self._st.stroke = hex_of(colour)

    def setLineWidth(self, width: float) -> None:
        self._st.width = float(width)

    def setLineJoin(self, mode: int) -> None:
        pass  # always round

    def setFont(self, name: str, size: float, leading: Any = None) -> None:
        self._st.font, self._st.size = name, float(size)

    def stringWidth(self, text: str, font: str, size: float) -> float:
        return float(stringWidth(text, font, size))

    # shapes
    def beginPath(self) -> VectorPath:
        return VectorPath()

    def drawPath(self, path: VectorPath, stroke: int = 1, fill: int = 0, **_: Any) -> None:
        st = self._st
        self.items.append(
            Shape(path, st.fill if fill else None, st.stroke if stroke else None, st.width)
        )

    def rect(self, x: float, y: float, w: float, h: float, stroke: int = 1, fill: int = 0) -> None:
        p = VectorPath()
        p.moveTo(x, y)
        p.lineTo(x + w, y)
        p.lineTo(x + w, y + h)
        p.lineTo(x, y + h)
        p.close()
        self.drawPath(p, stroke, fill)

    def roundRect(
        self, x: float, y: float, w: float, h: float, r: float, stroke: int = 1, fill: int = 0
    ) -> None:
        r = min(r, w / 2, h / 2)
        k = r * 0.5523
        p = VectorPath()
        p.moveTo(x + r, y)
        p.lineTo(x + w - r, y)
        p.curveTo(x + w - r + k, y, x + w, y + r - k, x + w, y + r)
        p.lineTo(x + w, y + h - r)
        p.curveTo(x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h)
        p.lineTo(x + r, y + h)
        p.curveTo(x + r - k, y + h, x, y + h - r + k, x, y + h - r)
        p.lineTo(x, y + r)
        p.curveTo(x, y + r - k, x + r - k, y, x + r, y)
        p.close()
        self.drawPath(p, stroke, fill)

    def circle(self, x: float, y: float, r: float, stroke: int = 1, fill: int = 0) -> None:
        k = r * 0.5523
        p = VectorPath()
        p.moveTo(x + r, y)
        p.curveTo(x + r, y + k, x + k, y + r, x, y + r)
        p.curveTo(x - k, y + r, x - r, y + k, x - r, y)
        p.curveTo(x - r, y - k, x - k, y - r, x, y - r)
        p.curveTo(x + k, y - r, x + r, y - k, x + r, y)
        p.close()
        self.drawPath(p, stroke, fill)

    def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        p = VectorPath()
        p.moveTo(x1, y1)
        p.lineTo(x2, y2)
        self.drawPath(p, stroke=1, fill=0)

    # text
    def _text(self, x: float, y: float, text: str, anchor: str) -> None:
        st = self._st
        self.items.append(Text(x, y, str(text), st.font, st.size, anchor, st.fill))

    def drawString(self, x: float, y: float, text: str, **_: Any) -> None:
        self._text(x, y, text, "start")

    def drawCentredString(self, x: float, y: float, text: str, **_: Any) -> None:
        self._text(x, y, text, "middle")

    def drawRightString(self, x: float, y: float, text: str, **_: Any) -> None:
        self._text(x, y, text, "end")


def flatten(path: VectorPath, steps: int = 8) -> list[list[Point]]:
    """The path as polylines (curves cut into ``steps`` straight pieces each)."""
    out: list[list[Point]] = []
    cur: list[Point] = []
    for op in path.ops:
        if op[0] == "M":
            if len(cur) > 1:
                out.append(cur)
            cur = [op[1]]
        elif op[0] == "L":
            cur.append(op[1])
        elif op[0] == "C" and cur:
            (x0, y0), (x1, y1), (x2, y2), (x3, y3) = cur[-1], op[1], op[2], op[3]
            for i in range(1, steps + 1):
                t = i / steps
                u = 1 - t
                cur.append(
                    (
                        u**3 * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t**3 * x3,
                        u**3 * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t**3 * y3,
                    )
                )
        elif op[0] == "Z" and cur:
            cur.append(cur[0])
    if len(cur) > 1:
        out.append(cur)
    return out


def svg_path_data(path: VectorPath, fmt: str = "{:.2f}") -> str:
    parts = []
    for op in path.ops:
        if op[0] == "Z":
            parts.append("Z")
        else:
            coords = " ".join(f"{fmt.format(x)} {fmt.format(y)}" for x, y in op[1:])
            parts.append(f"{op[0]}{coords}")
    return "".join(parts)
