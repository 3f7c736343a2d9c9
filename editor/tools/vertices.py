"""Edit an area's outline: drag a vertex, press on an edge to insert one there, delete one
(Delete key or right-click). Typed coordinates: :meth:`EditVerticesTool.set_vertex`."""

from __future__ import annotations

import enum
import math

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from .. import geometry
from ..commands import ChangePolygonCommand
from ..document import Selection
from ..scene import style
from ..scene.coords import to_scene
from .base import AbstractTool, ToolEvent, new_gesture_id

HANDLE_PX = 7.0


class VertexState(enum.Enum):
    IDLE = "idle"
    DRAGGING = "dragging"


class EditVerticesTool(AbstractTool):
    name = "Edit vertices"
    shortcut = "E"
    cursor = Qt.PointingHandCursor

    def __init__(self) -> None:
        super().__init__()
        self.state = VertexState.IDLE
        self.area_id: str | None = None
        self.vertex: int | None = None
        self._handles: list[QGraphicsRectItem] = []
        self._drag = 0
        self.on_vertex_changed: list[object] = []
        #: The corner and the cursor where the drag started.
        self._at_press: tuple[float, float] | None = None
        self._press_pos: tuple[float, float] = (0.0, 0.0)

    def activate(self, view: object) -> None:
        super().activate(view)  # type: ignore[arg-type]
        self.doc.scenarioChanged.connect(self._refresh)
        self.doc.selectionChanged.connect(self._refresh)
        sel = self.doc.selection.areas
        self.area_id = sel[0] if sel else None
        self._refresh()

    def deactivate(self) -> None:
        self.doc.scenarioChanged.disconnect(self._refresh)
        self.doc.selectionChanged.disconnect(self._refresh)
        self._clear_handles()
        super().deactivate()

    def _points(self) -> tuple[tuple[float, float], ...]:
        s = self.doc.scenario
        if self.area_id is None or self.area_id not in s.area_by_id:
            return ()
        return s.area(self.area_id).polygon

    def _clear_handles(self) -> None:
        for h in self._handles:
            if h.scene() is not None:
                h.scene().removeItem(h)
        self._handles = []

    def _refresh(self, *_args: object) -> None:
        if self.view is None:
            return
        sel = self.doc.selection.areas
        if sel and sel[0] != self.area_id:
            self.area_id = sel[0]
            self.vertex = None
        self._clear_handles()
        pts = self._points()
        if self.vertex is not None and self.vertex >= len(pts):
            self.vertex = None
        for i, p in enumerate(pts):
            h = QGraphicsRectItem(QRectF(-HANDLE_PX / 2, -HANDLE_PX / 2, HANDLE_PX, HANDLE_PX))
            h.setFlag(QGraphicsItem.ItemIgnoresTransformations)
            h.setPos(to_scene(p))
            h.setZValue(25)
            h.setPen(style.cosmetic("#e06a00", 1.5))
            h.setBrush(QBrush(QColor("#e06a00") if i == self.vertex else QColor("white")))
            self.scene.addItem(h)
            self._handles.append(h)
        for cb in self.on_vertex_changed:
            cb()  # type: ignore[operator]

    def _hit_vertex(self, p: tuple[float, float]) -> int | None:
        assert self.view is not None
        tol = self.view.pixels_to_cm(HANDLE_PX)
        best = None
        for i, v in enumerate(self._points()):
            d = math.dist(p, v)
            if d <= tol and (best is None or d < best[0]):
                best = (d, i)
        return best[1] if best else None

    def _hit_edge(self, p: tuple[float, float]) -> tuple[int, tuple[float, float]] | None:
        assert self.view is not None
        tol = self.view.pixels_to_cm(HANDLE_PX)
        pts = self._points()
        best = None
        for i, v in enumerate(pts):
            w = pts[(i + 1) % len(pts)]
            q = geometry.closest_on_segment(p, v, w)
            d = math.dist(p, q)
            if d <= tol and (best is None or d < best[0]):
                best = (d, i, q)
        return (best[1], best[2]) if best else None

    def mouse_pressed(self, e: ToolEvent) -> None:
        assert self.view is not None
        i = self._hit_vertex(e.pos) if self.area_id else None
        if i is None and self.area_id:
            edge = self._hit_edge(e.pos)
            if edge is not None and e.button == Qt.LeftButton:
                # Insert a vertex on the edge and drag it straight away.
                j, q = edge
                pts = list(self._points())
                pts.insert(j + 1, self.view.snap(q, exclude=[self.area_id]).point)
                self._drag = new_gesture_id()
                self.doc.push(ChangePolygonCommand(self.doc, self.area_id, pts, drag=self._drag))
                self.vertex = j + 1
                self.state = VertexState.DRAGGING
                self._refresh()
                return
        if i is None:
            a = self.scene.area_at(e.pos)
            self.area_id = a.id if a else None
            self.vertex = None
            self.doc.set_selection(Selection(areas=(a.id,)) if a else Selection())
            self._refresh()
            return
        self.vertex = i
        if e.button == Qt.RightButton:
            self.delete_vertex()
            return
        self._drag = new_gesture_id()
        self.state = VertexState.DRAGGING
        self._at_press = self.current_vertex()
        self._press_pos = e.pos
        self._refresh()

    def mouse_moved(self, e: ToolEvent) -> None:
        assert self.view is not None
        if self.state is not VertexState.DRAGGING or self.area_id is None or self.vertex is None:
            return
        p = self.view.snap(e.pos, exclude=[self.area_id]).point
        self.set_vertex(p, drag=self._drag)

    def mouse_released(self, e: ToolEvent) -> None:
        moved_mouse = self.view is not None and math.dist(
            e.pos, self._press_pos
        ) > self.view.pixels_to_cm(4)
        dragging = self.state is VertexState.DRAGGING and self._at_press is not None
        if dragging and moved_mouse and self.current_vertex() == self._at_press:
            self.fail(
                "Not moved: the corner snapped back to where it was. Drag further, tick "
                "'1 cm' for a finer grid, or hold Ctrl to place it freely."
            )
        self.state = VertexState.IDLE
        if self.view is not None:
            self.scene.snap_indicator.hide()

    def set_vertex(self, p: tuple[float, float], drag: int | None = None) -> None:
        """Move the current vertex to ``p`` (typed coordinates use this too)."""
        if self.area_id is None or self.vertex is None:
            return
        pts = list(self._points())
        if pts[self.vertex] == p:
            return
        pts[self.vertex] = geometry.rnd(p)
        self.doc.push(ChangePolygonCommand(self.doc, self.area_id, pts, drag=drag))

    def current_vertex(self) -> tuple[float, float] | None:
        pts = self._points()
        if self.vertex is None or self.vertex >= len(pts):
            return None
        return pts[self.vertex]

    def delete_vertex(self) -> None:
        pts = list(self._points())
        if self.area_id is None or self.vertex is None:
            return
        if len(pts) <= 3:
            self.fail("An area needs at least three corners.")
            return
        del pts[self.vertex]
        self.vertex = None
        self.doc.push(ChangePolygonCommand(self.doc, self.area_id, pts))

    def cancel(self) -> None:
        self.state = VertexState.IDLE

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if key in (Qt.Key_Delete, Qt.Key_Backspace) and self.vertex is not None:
            self.delete_vertex()
            return True
        return False

    def status_text(self) -> str:
        if self.message:
            return self.message
        if self.area_id is None:
            return "Click an area to edit its corners."
        v = self.current_vertex()
        where = f" Corner {self.vertex}: {v[0]:g}, {v[1]:g}." if v else ""
        return (
            f"Editing {self.area_id}.{where} Drag a corner; press on an edge to add one; "
            "Delete or right-click removes one."
        )
