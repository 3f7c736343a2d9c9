"""Graphics items of the map: areas, features, markers and the snap indicator."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from fireground.engine.scenario import Area, Feature, FeatureType

from . import style
from .coords import polygon_to_scene, to_scene

#: Labels show only when an area is at least this many pixels across.
LABEL_MIN_PX = 28.0


class AreaItem(QGraphicsItem):
    """One area's polygon, filled by kind; its id is drawn only when big enough on screen."""

    def __init__(self, area: Area) -> None:
        super().__init__()
        self.area = area
        self.ghost = False
        self.selected = False
        self.setZValue(0)
        self.set_area(area)

    def set_area(self, area: Area) -> None:
        self.prepareGeometryChange()
        self.area = area
        self.poly: QPolygonF = polygon_to_scene(area.polygon)
        self._rect = self.poly.boundingRect()
        self._pad = self._rect.adjusted(-0.5, -0.5, 0.5, 0.5)
        self._path: QPainterPath | None = None
        c = area.centroid
        self._label_at = to_scene(c)
        self.update()

    def set_look(self, *, ghost: bool, selected: bool) -> None:
        if ghost != self.ghost or selected != self.selected:
            self.ghost, self.selected = ghost, selected
            self.setZValue(2 if selected else (-1 if ghost else 0))
            self.update()

    def boundingRect(self) -> QRectF:
        return self._pad

    def shape(self) -> QPainterPath:
        if self._path is None:
            self._path = QPainterPath()
            self._path.addPolygon(self.poly)
            self._path.closeSubpath()
        return self._path

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self.ghost:
            painter.setBrush(style.GHOST_BRUSH)
            painter.setPen(style.GHOST_OUTLINE)
        else:
            painter.setBrush(style.FILL_BRUSH[self.area.kind])
            painter.setPen(style.SELECTED_OUTLINE if self.selected else style.OUTLINE)
        painter.drawPolygon(self.poly)
        lod = option.levelOfDetailFromTransform(painter.worldTransform())  # type: ignore[attr-defined]
        if not self.ghost and lod * min(self._rect.width(), self._rect.height()) >= LABEL_MIN_PX:
            self._paint_label(painter, lod)

    def _paint_label(self, painter: QPainter, lod: float) -> None:
        painter.save()
        painter.translate(self._label_at)
        painter.scale(1 / lod, 1 / lod)
        painter.setPen(style.LABEL_COLOR)
        f = painter.font()
        f.setPointSizeF(7.5)
        painter.setFont(f)
        painter.drawText(QRectF(-40, -22, 80, 13), Qt.AlignCenter, self.area.id)
        painter.restore()


_GLYPH = {
    FeatureType.STAIRWELL: ("S", "#5a3d8a"),
    FeatureType.STORE: ("", "#9a5a00"),
    FeatureType.HYDRANT: ("H", "#1d5fbf"),
    FeatureType.WATER: ("W", "#0b7fa8"),
    FeatureType.OCCUPANTS: ("", "#2d7a2d"),
    FeatureType.ENTRY: ("E", "#333333"),
    FeatureType.LABEL: ("", "#333333"),
}


class FeatureItem(QGraphicsItem):
    """A feature's symbol near its area's centre, a fixed size on screen."""

    def __init__(self, index: int, feature: Feature, at: tuple[float, float],
                 slot: float = 0.0) -> None:
        super().__init__()
        self.index = index
        self.feature = feature
        self.selected = False
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations)
        self.setZValue(5)
        self.setPos(to_scene(at))
        glyph, color = _GLYPH[feature.type]
        f = feature
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
        # Symbols sit in a row under the area's id; labels below them.
        self.offset = QPointF(0.0, 34.0) if self.is_label else QPointF(slot * 22.0, 17.0)
        self.setToolTip(_describe(f))

    def boundingRect(self) -> QRectF:
        if self.is_label:
            return QRectF(-60, -8, 120, 16).translated(self.offset)
        return QRectF(-10, -8, 20, 16).translated(self.offset)

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        r = self.boundingRect()
        if self.is_label:
            painter.setPen(QPen(self.color))
            f = QFont(painter.font())
            f.setItalic(True)
            f.setPointSizeF(8)
            painter.setFont(f)
            painter.drawText(r, Qt.AlignCenter, self.text)
            return
        painter.setPen(style.cosmetic("#e06a00", 2) if self.selected else QPen(self.color))
        painter.setBrush(QBrush(QColor(255, 255, 255, 230)))
        painter.drawRoundedRect(r.adjusted(1, 1, -1, -1), 4, 4)
        f = QFont(painter.font())
        f.setPointSizeF(6.5)
        f.setBold(True)
        painter.setFont(f)
        painter.setPen(QPen(self.color))
        painter.drawText(r, Qt.AlignCenter, self.glyph)


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

    def __init__(self, text: str, color: QColor, at: tuple[float, float], dx: float = 0,
                 dy: float = 0, bold: bool = True, size: float = 10.0) -> None:
        super().__init__(text)
        self.setFlag(QGraphicsItem.ItemIgnoresTransformations)
        f = QFont()
        f.setBold(bold)
        f.setPointSizeF(size)
        self.setFont(f)
        self.setBrush(QBrush(color))
        self.setZValue(8)
        self.map_pos = at
        self.setPos(to_scene(at))
        br = self.boundingRect()
        self.setTransform(self.transform().fromTranslate(dx - br.width() / 2, dy - br.height() / 2))


class RingItem(QGraphicsItem):
    """A screen-sized ring (issue markers, highlights of a clicked event)."""

    def __init__(self, at: tuple[float, float], color: QColor, radius: float = 9.0,
                 width: float = 2.5) -> None:
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
        painter.setRenderHint(QPainter.Antialiasing)
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
            painter.drawPolygon(QPolygonF([QPointF(0, -6), QPointF(6, 0), QPointF(0, 6),
                                           QPointF(-6, 0)]))
        elif self.kind == "grid":
            painter.drawLine(QPointF(-6, 0), QPointF(6, 0))
            painter.drawLine(QPointF(0, -6), QPointF(0, 6))
        else:
            painter.drawEllipse(QPointF(0, 0), 3, 3)
        if self.kind != "free":
            f = QFont(painter.font())
            f.setPointSizeF(7)
            painter.setFont(f)
            painter.drawText(QPointF(8, -8), self.kind)
