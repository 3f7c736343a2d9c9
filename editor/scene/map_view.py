"""The map view: zoom to the cursor, pan (middle-drag or space-drag), fit, and hand the
mouse and keys to the current tool in map centimetres."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPoint, QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QGraphicsView

from ..geometry import Snap, SnapKind, rnd, snap
from ..tools.base import AbstractTool, ToolEvent
from .coords import from_scene
from .map_scene import MapScene

#: Snapping reaches this many screen pixels.
SNAP_PX = 9.0
#: The fine snapping grid (a subdivision of the 10 cm area grid).
FINE_GRID_CM = 1.0
#: Held while clicking or dragging: no snapping, the point goes where the cursor is.
FREE_MODIFIER = Qt.ControlModifier


class MapView(QGraphicsView):
    cursorMoved = Signal(float, float)
    statusMessage = Signal(str)
    #: The current tool's name, key and state (see AbstractTool.state_text), when it changes.
    toolStateChanged = Signal(str)
    #: Where the cursor snaps (x, y, kind: vertex / edge / grid / free) while a tool snaps.
    snapped = Signal(float, float, str)
    zoomChanged = Signal(float)

    def __init__(self, scene: MapScene) -> None:
        super().__init__(scene)
        self.map_scene = scene
        self.doc = scene.doc
        self.tool: AbstractTool | None = None
        self.grid_snap = True
        self.area_snap = True
        #: Snap to a 1 cm grid instead of the area grid (scale.area_cm).
        self.fine_grid = False
        #: Ctrl is held in the current mouse gesture: place freely, no snapping at all.
        self.free = False
        self._pan_from: QPoint | None = None
        self._space = False
        self._tool_state = ""
        self.setRenderHint(QPainter.Antialiasing, True)
        self.setTransformationAnchor(QGraphicsView.NoAnchor)
        self.setResizeAnchor(QGraphicsView.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.SmartViewportUpdate)
        self.setOptimizationFlags(
            QGraphicsView.DontAdjustForAntialiasing | QGraphicsView.DontSavePainterState
        )
        self.setMouseTracking(True)
        self.setDragMode(QGraphicsView.NoDrag)
        self.setFocusPolicy(Qt.StrongFocus)
        self.zoomChanged.connect(self._on_zoom)

    def _on_zoom(self, px_per_cm: float) -> None:
        self.map_scene.set_detail(px_per_cm)
        # Antialiasing thousands of tiny polygons costs more than it shows.
        cell_px = float(self.doc.scenario.scale.area_cm or 10.0) * px_per_cm
        self.setRenderHint(QPainter.Antialiasing, cell_px >= 12)

    # -- tools --------------------------------------------------------------------------------
    def set_tool(self, tool: AbstractTool | None) -> None:
        if self.tool is not None:
            self.tool.deactivate()
        self.tool = tool
        self.map_scene.snap_indicator.hide()
        if tool is not None:
            tool.message = ""  # the last use's outcome is not news now
            tool.activate(self)
            self.viewport().setCursor(tool.cursor)
            self.statusMessage.emit(tool.status_text())
        self._report_state()

    def _report(self) -> None:
        """Tell the status bar the tool's message and state after an event."""
        if self.tool is not None:
            self.statusMessage.emit(self.tool.status_text())
        self._report_state()

    def notify_tool_state(self) -> None:
        """Show the tool's status and state after it changed outside a mouse or key event."""
        self._report()

    def _report_state(self) -> None:
        text = self.tool.state_text() if self.tool is not None else ""
        if text != self._tool_state:
            self._tool_state = text
            self.toolStateChanged.emit(text)

    def pixels_to_cm(self, px: float) -> float:
        return px / max(self.transform().m11(), 1e-9)

    def snap(
        self, p: tuple[float, float], exclude: Iterable[str] = (), *, show: bool = True
    ) -> Snap:
        """Snap a map point to other areas' vertices/edges, then the grid (when on)."""
        if self.free:
            s = Snap(rnd(p), SnapKind.NONE)
        else:
            index = self.doc.snap_index() if self.area_snap else None
            grid = self.grid_step() if self.grid_snap else None
            s = snap(p, index, tolerance=self.pixels_to_cm(SNAP_PX), grid=grid, exclude=exclude)
        if show:
            if s.kind is SnapKind.NONE:
                self.map_scene.snap_indicator.hide()
            else:
                self.map_scene.snap_indicator.show_at(s.point, s.kind.value)
            self.snapped.emit(s.point[0], s.point[1], s.kind.value)
        return s

    def grid_step(self) -> float:
        """The snapping grid's step in cm: the area grid, or 1 cm when fine."""
        return FINE_GRID_CM if self.fine_grid else float(self.doc.scenario.scale.area_cm or 10)

    def _event(self, e: QMouseEvent) -> ToolEvent:
        self.free = bool(e.modifiers() & FREE_MODIFIER)
        sp = self.mapToScene(e.position().toPoint())
        return ToolEvent(from_scene(sp), sp, e.button(), e.buttons(), e.modifiers())

    # -- mouse --------------------------------------------------------------------------------
    def mousePressEvent(self, e: QMouseEvent) -> None:
        self.setFocus()
        if e.button() == Qt.MiddleButton or (e.button() == Qt.LeftButton and self._space):
            self._pan_from = e.position().toPoint()
            self.viewport().setCursor(Qt.ClosedHandCursor)
            return
        if self.tool is not None:
            self.tool.message = ""  # a new gesture: the last one's outcome is old news
            self.tool.mouse_pressed(self._event(e))
            self._report()

    def mouseMoveEvent(self, e: QMouseEvent) -> None:
        if self._pan_from is not None:
            d = e.position().toPoint() - self._pan_from
            self._pan_from = e.position().toPoint()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - d.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - d.y())
            return
        ev = self._event(e)
        self.cursorMoved.emit(*ev.pos)
        if self.tool is not None:
            self.tool.mouse_moved(ev)
            self._report_state()

    def mouseReleaseEvent(self, e: QMouseEvent) -> None:
        if self._pan_from is not None:
            self._pan_from = None
            self.viewport().setCursor(self.tool.cursor if self.tool else Qt.ArrowCursor)
            return
        if self.tool is not None:
            self.tool.mouse_released(self._event(e))
            self._report()

    def mouseDoubleClickEvent(self, e: QMouseEvent) -> None:
        if self.tool is not None:
            self.tool.mouse_double_clicked(self._event(e))
            self._report()

    def wheelEvent(self, e: QWheelEvent) -> None:
        steps = e.angleDelta().y() / 120.0
        if steps:
            self.zoom_by(1.2**steps, e.position().toPoint())

    def zoom_by(self, factor: float, anchor: QPoint | None = None) -> None:
        """Zoom keeping the map point under ``anchor`` (viewport pixels) where it is."""
        if anchor is None:
            anchor = self.viewport().rect().center()
        fixed = self.mapToScene(anchor)
        m = self.transform().m11()
        factor = max(0.02, min(400.0, m * factor)) / m
        self.scale(factor, factor)
        drift = self.mapFromScene(fixed) - anchor
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + drift.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + drift.y())
        self.zoomChanged.emit(self.transform().m11())

    def fit_to_map(self) -> None:
        r = self.map_scene.map_rect()
        pad = max(r.width(), r.height()) * 0.04 + 1
        self.fitInView(r.adjusted(-pad, -pad, pad, pad), Qt.KeepAspectRatio)
        self.zoomChanged.emit(self.transform().m11())

    def center_on_map(self, p: tuple[float, float], zoom_to_cm: float | None = None) -> None:
        if zoom_to_cm:
            px = min(self.viewport().width(), self.viewport().height()) or 400
            want = px / zoom_to_cm
            self.zoom_by(want / self.transform().m11())
        self.centerOn(QPointF(p[0], -p[1]))

    # -- keys ---------------------------------------------------------------------------------
    def keyPressEvent(self, e: QKeyEvent) -> None:
        if e.key() == Qt.Key_Space and not e.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.OpenHandCursor)
            return
        if self.tool is not None and self.tool.key_pressed(e.key(), e.modifiers()):
            self._report()
            return
        super().keyPressEvent(e)

    def keyReleaseEvent(self, e: QKeyEvent) -> None:
        if e.key() == Qt.Key_Space and not e.isAutoRepeat():
            self._space = False
            self.viewport().setCursor(self.tool.cursor if self.tool else Qt.ArrowCursor)
            return
        super().keyReleaseEvent(e)
