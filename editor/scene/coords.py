"""Map <-> scene coordinates. The file has y north; Qt has y down, so y flips."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF
from PySide6.QtGui import QPolygonF


def to_scene(p: Sequence[float]) -> QPointF:
    return QPointF(float(p[0]), -float(p[1]))


def from_scene(p: QPointF) -> tuple[float, float]:
    return (p.x(), -p.y())


def polygon_to_scene(points: Sequence[Sequence[float]]) -> QPolygonF:
    return QPolygonF([QPointF(float(x), -float(y)) for x, y in points])
