"""Graphics items of the map: areas, features, markers and the snap indicator."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPolygonItem,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from fireground.engine.board.model import Area, Feature, FeatureType

from . import style
from .coords import polygon_to_scene, to_scene


class AreaItem(QGraphicsPolygonItem):
    """One area's polygon, filled by kind. Painting stays in C++ (no Python ``paint``), which
    keeps a full view of 20,000 areas fast; the scene draws the ids of the areas in view
    when zoomed in (MapScene.drawForeground)."""

    def __init__(self, area: Area) -> None:
        super().__init__()
        self.ghost = False
        self.selected = False
        #: Fills let a tracing background show through.
        self.see_through = False
        self.set_area(area)
        self._restyle()

    def set_area(self, area: Area) -> None:
        self.area = area
        self.setPolygon(polygon_to_scene(area.polygon))
        self.label_at = label_point(area.polygon)

    def set_look(self, *, ghost: bool, selected: bool, see_through: bool = False) -> None:
        if ghost != self.ghost or selected != self.selected or see_through != self.see_through:
            self.ghost, self.selected, self.see_through = ghost, selected, see_through
            self._restyle()

    def _restyle(self) -> None:
        if self.ghost:
            self.setBrush(style.GHOST_BRUSH)
            self.setPen(style.GHOST_OUTLINE)
        else:
            brushes = style.SEE_THROUGH_BRUSH if self.see_through else style.FILL_BRUSH
            self.setBrush(brushes[self.area.kind])
            self.setPen(style.SELECTED_OUTLINE if self.selected else style.OUTLINE)
        self.setZValue(2 if self.selected else (-1 if self.ghost else 0))


def label_point(points: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """Centroid by the shoelace formula (much cheaper than shapely for one small polygon)."""
    n = len(points)
    a2 = cx = cy = 0.0
    for i in range(n):
        x0, y0 = points[i]
        x1, y1 = points[(i + 1) % n]
        cross = x0 * y1 - x1 * y0
        a2 += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(a2) < 1e-12:
        return (sum(p[0] for p in points) / max(n, 1), sum(p[1] for p in points) / max(n, 1))
    return (cx / (3 * a2), cy / (3 * a2))


_fonts: dict[str, QFont] = {}


def label_font() -> QFont:
    """The ids' font (made after the application exists, so it follows the app's font)."""
    f = _fonts.get("label")
    if f is None:
        f = QFont()
        f.setPointSizeF(7.5)
        _fonts["label"] = f
    return f


_GLYPH = {
    FeatureType.STAIRWELL: ("S", "#5a3d8a"),
    FeatureType.STORE: ("", "#9a5a00"),
    FeatureType.HYDRANT: ("H", "#1d5fbf"),
    FeatureType.WATER: ("≈", "#0b7fa8"),  # waves: "W" would read as a wood store
    FeatureType.OCCUPANTS: ("", "#2d7a2d"),
    FeatureType.ENTRY: ("E", "#333333"),
    FeatureType.LABEL: ("", "#333333"),
}


class FeatureItem(QGraphicsItem):
    """A feature's symbol near its area's centre, a fixed size on screen."""

    def __init__(
        self,
        index: int,
        feature: Feature,
        at: tuple[float, float],
        slot: float = 0.0,
        *,
        room_cm: tuple[float, float] | None = None,
        below_symbols: bool = True,
    ) -> None:
        super().__init__()
        self.index = index
        self.feature = feature
        self.selected = False
        # Sized in screen pixels through setScale(1 / zoom) (MapScene.set_detail) rather than
        # ItemIgnoresTransformations, so the scene index can still cull them.
        self.setZValue(5)
        self.setPos(to_scene(at))
        glyph, color = _GLYPH[feature.type]
        f = feature
        #: Stores are filled badges (light text on the store colour), so a store never
        #: reads as an outlined badge of another feature.
        self.filled = f.type is FeatureType.STORE
        if f.type is FeatureType.STORE:
            glyph = (f.material.value if f.material else "store")[:1].upper()
        elif f.type is FeatureType.OCCUPANTS:
            glyph = str(f.count or "?")
        elif f.type is FeatureType.HYDRANT and f.pressure:
            glyph = f"H{f.pressure}"
        self.glyph = glyph
        self.color = QColor(color)
        self.is_label = f.type is FeatureType.LABEL
        self.text = f.text or "" if self.is_label else glyph
        #: The area's width and height in cm: a label is cut to fit inside it on screen.
        self.room_cm = room_cm
        # Symbols sit in a row under the area's id; labels below them (or in their row).
        if self.is_label:
            self.offset = QPointF(0.0, 34.0 if below_symbols else 17.0)
        else:
            self.offset = QPointF(slot * 22.0, 17.0)
        self.setToolTip(_describe(f))

    def boundingRect(self) -> QRectF:
        if self.is_label:
            return QRectF(-90, -8, 180, 16).translated(self.offset)
        return QRectF(-10, -8, 20, 16).translated(self.offset)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        r = self.boundingRect()
        if self.is_label:
            f = QFont(label_font())
            f.setItalic(True)
            f.setPointSizeF(8)
            text = self.fitted_text(QFontMetricsF(f))
            if text:
                painter.setPen(QPen(self.color))
                painter.setFont(f)
                painter.drawText(r, Qt.AlignCenter, text)
            return
        painter.setPen(style.cosmetic("#e06a00", 2) if self.selected else QPen(self.color))
        painter.setBrush(QBrush(self.color if self.filled else QColor(255, 255, 255, 230)))
        painter.drawRoundedRect(r.adjusted(1, 1, -1, -1), 4, 4)
        f = QFont(label_font())
        f.setPointSizeF(6.5)
        f.setBold(True)
        painter.setFont(f)
        painter.setPen(QPen(QColor("#ffffff") if self.filled else self.color))
        painter.drawText(r, Qt.AlignCenter, self.glyph)

    def fitted_text(self, metrics: QFontMetricsF) -> str:
        """A label's text cut to its area's size on screen, so it never runs over the
        neighbours' ids: elided to the width, hidden when the area is too short (zoom in to
        read it; the tooltip has it whole)."""
        if self.room_cm is None:
            return self.text
        px = 1.0 / self.scale() if self.scale() > 0 else 1.0
        w, h = self.room_cm[0] * px, self.room_cm[1] * px
        if self.offset.y() + 6 > h / 2 + 3:
            return ""
        return metrics.elidedText(self.text, Qt.ElideRight, max(w - 6, 0.0))


def _describe(f: Feature) -> str:
    bits = [f.type.value, f"in {f.area}"]
    if f.level is not None:
        bits.append(f"level {f.level}")
    for k in ("material", "pressure", "points", "count", "name", "text"):
        v = getattr(f, k)
        if v is not None:
            bits.append(f"{k} {getattr(v, 'value', v)}")
    return ", ".join(bits)


class MarkerText(QGraphicsSimpleTextItem):
    """A digit or symbol drawn at a location (fire, damp, damage, units), screen-sized."""

    def __init__(
        self,
        text: str,
        color: QColor,
        at: tuple[float, float],
        dx: float = 0,
        dy: float = 0,
        bold: bool = True,
        size: float = 10.0,
    ) -> None:
        super().__init__(text)
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations)
        f = QFont()
        f.setBold(bold)
        f.setPointSizeF(size)
        self.setFont(f)
        self.setBrush(QBrush(color))
        self.setZValue(8)
        # Screen-sized, so a cached pixmap stays valid at every zoom: far cheaper than
        # laying the text out on every repaint.
        self.setCacheMode(QGraphicsItem.DeviceCoordinateCache)
        self.map_pos = at
        self.setPos(to_scene(at))
        br = self.boundingRect()
        self.setTransform(self.transform().fromTranslate(dx - br.width() / 2, dy - br.height() / 2))


class UnitItem(QGraphicsItem):
    """A unit's start position: a screen-sized badge with its id under the area's symbols;
    the select tool picks it, and the Properties panel edits the unit."""

    WIDTH = 34.0

    def __init__(self, unit_id: str, at: tuple[float, float], slot: float = 0.0) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations)
        self.setPos(to_scene(at))
        self.setZValue(8.5)
        self.unit_id = unit_id
        self.selected = False
        self.role = "unit"
        self.rect = QRectF(slot * (self.WIDTH + 3) - self.WIDTH / 2, 40, self.WIDTH, 15)
        self.setToolTip(f"unit {unit_id}: click to edit it in Properties")

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-2, -2, 2, 2)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(QPen(QColor("#e06a00"), 2.5) if self.selected else QPen(UNIT_COLOR, 1.2))
        painter.setBrush(QBrush(QColor(235, 243, 255, 235)))
        painter.drawRoundedRect(self.rect, 3, 3)
        f = QFont(label_font())
        f.setPointSizeF(7)
        f.setBold(True)
        painter.setFont(f)
        painter.setPen(QPen(UNIT_COLOR))
        painter.drawText(self.rect, Qt.AlignCenter, self.unit_id)


UNIT_COLOR = QColor("#004d99")


class RingItem(QGraphicsItem):
    """A screen-sized ring (issue markers, highlights of a clicked event)."""

    def __init__(
        self, at: tuple[float, float], color: QColor, radius: float = 9.0, width: float = 2.5
    ) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations)
        self.setPos(to_scene(at))
        self.setZValue(9)
        self.color, self.radius, self.width = color, radius, width

    def boundingRect(self) -> QRectF:
        r = self.radius + self.width
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        painter.setPen(QPen(self.color, self.width))
        painter.setBrush(Qt.NoBrush)
        painter.drawEllipse(QPointF(0, 0), self.radius, self.radius)


class SnapIndicatorItem(QGraphicsItem):
    """Shows where the cursor snapped and to what (vertex, edge, grid)."""

    def __init__(self) -> None:
        super().__init__()
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations)
        self.setZValue(20)
        self.kind = "free"
        self.hide()

    def show_at(self, at: tuple[float, float], kind: str) -> None:
        self.kind = kind
        self.setPos(to_scene(at))
        self.setToolTip(kind)
        self.show()
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(-40, -40, 80, 60)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        c = style.SNAP.get(self.kind, style.SNAP["free"])
        painter.setPen(QPen(c, 2))
        painter.setBrush(Qt.NoBrush)
        if self.kind == "vertex":
            painter.drawRect(QRectF(-5, -5, 10, 10))
        elif self.kind == "edge":
            painter.drawPolygon(
                QPolygonF([QPointF(0, -6), QPointF(6, 0), QPointF(0, 6), QPointF(-6, 0)])
            )
        elif self.kind == "grid":
            painter.drawLine(QPointF(-6, 0), QPointF(6, 0))
            painter.drawLine(QPointF(0, -6), QPointF(0, 6))
        else:
            painter.drawEllipse(QPointF(0, 0), 3, 3)
        if self.kind != "free":
            f = QFont(label_font())
            f.setPointSizeF(7)
            painter.setFont(f)
            painter.drawText(QPointF(8, -8), self.kind)
