"""The map's view (table cm -> points), extent, levels and style, and its shapes in points."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from fireground.engine.board.model import Scenario

from .layout import CM, Layout, layout

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in points


@dataclass(frozen=True)
class MapView:
    """Table cm -> points: ``scale`` points per table cm, the map's (minx, miny) at (ox, oy)."""

    minx: float
    miny: float
    scale: float
    ox: float = 0.0
    oy: float = 0.0

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return (self.ox + (x - self.minx) * self.scale, self.oy + (y - self.miny) * self.scale)

    @property
    def ratio(self) -> float:
        """Table cm per cm of paper (1.0 at true scale)."""
        return CM / self.scale


def map_extent(scenario: Scenario, margin_cm: float = 1.0) -> tuple[float, float, float, float]:
    """(minx, miny, width, height) of the map in table cm, with a margin all round."""
    minx, miny, maxx, maxy = scenario.bounds()
    return (
        minx - margin_cm,
        miny - margin_cm,
        maxx - minx + 2 * margin_cm,
        maxy - miny + 2 * margin_cm,
    )


def all_levels(scenario: Scenario) -> list[int]:
    levels: set[int] = {0}
    for a in scenario.areas:
        levels.update(scenario.levels_of(a.id))
    return sorted(levels)


def level_name(level: int) -> str:
    return {-1: "Basement", 0: "Ground level"}.get(level, f"Level {level}")


def style() -> Layout:
    return layout("map_style")


def poly_path(c: Canvas, view: MapView, pts: Iterable[tuple[float, float]]) -> Any:
    p = c.beginPath()
    for i, (x, y) in enumerate(pts):
        px, py = view.pt(x, y)
        if i == 0:
            p.moveTo(px, py)
        else:
            p.lineTo(px, py)
    p.close()
    return p


def label_point(scenario: Scenario, area_id: str) -> tuple[float, float]:
    a = scenario.area(area_id)
    shape = a.shape
    if shape.is_valid and not shape.is_empty:
        p = shape.point_on_surface()
        return (float(p.x), float(p.y))
    return a.centroid


def poly_bbox(view: MapView, polygon: Iterable[tuple[float, float]]) -> Rect:
    pts = [view.pt(x, y) for x, y in polygon]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))
