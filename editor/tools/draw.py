"""Drawing new areas: a polygon point by point, or a rectangle by dragging."""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath
from PySide6.QtWidgets import QGraphicsPathItem

from fireground.engine.board.model import Area, AreaKind

from .. import geometry, ops
from ..commands import AddAreasCommand
from ..scene import style
from ..scene.coords import to_scene
from .base import AbstractTool, ToolEvent


@dataclass
class NewAreaSettings:
    """What a drawn area becomes (set from the tool options bar)."""

    kind: AreaKind = AreaKind.STREET
    building: str | None = None


class DrawState(enum.Enum):
    IDLE = "idle"
    DRAWING = "drawing"


class _Preview:
    def __init__(self, tool: AbstractTool) -> None:
        self.item = QGraphicsPathItem()
        self.item.setPen(style.cosmetic("#e06a00", 1.5))
        self.item.setBrush(QBrush(QColor(224, 106, 0, 40)))
        self.item.setZValue(30)
        tool.scene.addItem(self.item)
        self.tool = tool

    def show(self, pts: list[tuple[float, float]], closed: bool = True) -> None:
        path = QPainterPath()
        if pts:
            path.moveTo(to_scene(pts[0]))
            for p in pts[1:]:
                path.lineTo(to_scene(p))
            if closed and len(pts) > 2:
                path.closeSubpath()
        self.item.setPath(path)

    def remove(self) -> None:
        if self.item.scene() is not None:
            self.item.scene().removeItem(self.item)


def add_new_area(
    tool: AbstractTool, settings: NewAreaSettings, points: tuple[tuple[float, float], ...]
) -> str | None:
    if not geometry.is_valid_polygon(points):
        tool.fail("That shape is not a valid polygon (it crosses itself or has no area).")
        return None
    s = tool.doc.scenario
    building = settings.building if settings.kind is AreaKind.BUILDING else None
    if settings.kind is AreaKind.BUILDING and building not in s.building_by_id:
        tool.fail("Choose a building for new building areas (or add one) first.")
        return None
    (aid,) = ops.new_area_ids(s, settings.kind, building, 1)
    tool.doc.push(AddAreasCommand(tool.doc, [Area(aid, settings.kind, points, building)]))
    tool.doc.select_areas([aid])
    tool.message = f"Added {aid}."
    return aid


class DrawPolygonTool(AbstractTool):
    """Click points; Enter or double-click finishes; Esc cancels; Backspace drops a point."""

    name = "Draw polygon"
    shortcut = "P"
    cursor = Qt.CrossCursor
    snaps = True

    def __init__(self, settings: NewAreaSettings) -> None:
        super().__init__()
        self.settings = settings
        self.state = DrawState.IDLE
        self.points: list[tuple[float, float]] = []
        self._preview: _Preview | None = None
        self._hover: tuple[float, float] | None = None
        #: Points being typed in the options bar, previewed in place of the cursor's.
        self._typed: list[tuple[float, float]] = []
        #: Called when the user asks to type coordinates (the ':' key).
        self.on_type_request: list[Callable[[], None]] = []

    def _begin(self) -> None:
        if self.state is DrawState.IDLE:
            self.state = DrawState.DRAWING
            self._preview = _Preview(self)
            self.points = []

    def add_typed(self, pts: Sequence[tuple[float, float]]) -> None:
        """Add typed points exactly as given: no snapping."""
        self._begin()
        for p in pts:
            if not self.points or self.points[-1] != p:
                self.points.append(p)
        self._typed = []
        self._update()

    def show_typed(self, pts: Sequence[tuple[float, float]] | None) -> None:
        """Preview the points being typed (None: back to following the cursor)."""
        self._typed = list(pts or [])
        if self._typed:
            self._begin()
        elif not self.points:
            self.cancel()  # typing started nothing: no empty drawing left behind
        self._update()

    def mouse_pressed(self, e: ToolEvent) -> None:
        assert self.view is not None
        if e.button == Qt.RightButton:
            self.finish()
            return
        if e.button != Qt.LeftButton:
            return
        p = self.view.snap(e.pos).point
        self._begin()
        if not self.points or self.points[-1] != p:
            self.points.append(p)
        self._update()

    def mouse_moved(self, e: ToolEvent) -> None:
        assert self.view is not None
        self._hover = self.view.snap(e.pos).point
        self._update()

    def mouse_double_clicked(self, e: ToolEvent) -> None:
        # The press before the double-click already added this point.
        self.finish()

    def _update(self) -> None:
        if self._preview is not None:
            extra = self._typed or ([self._hover] if self._hover else [])
            pts = self.points + extra
            self._preview.show(pts)

    def finish(self) -> None:
        pts = tuple(self.points)
        self.cancel()
        if len(pts) >= 3:
            add_new_area(self, self.settings, pts)

    def cancel(self) -> None:
        if self._preview is not None:
            self._preview.remove()
            self._preview = None
        self.points = []
        self._typed = []
        self.state = DrawState.IDLE

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if key == Qt.Key_Colon and self.on_type_request:
            for f in self.on_type_request:
                f()
            return True
        if self.state is not DrawState.DRAWING:
            return False
        if key in (Qt.Key_Return, Qt.Key_Enter):
            self.finish()
        elif key == Qt.Key_Escape:
            self.cancel()
            self.message = "Cancelled."
        elif key == Qt.Key_Backspace:
            if self.points:
                self.points.pop()
            if not self.points:
                self.cancel()
            self._update()
        else:
            return False
        return True

    def state_detail(self) -> str:
        if self.state is DrawState.DRAWING:
            return f"drawing, {len(self.points)} point(s)"
        return ""

    def status_text(self) -> str:
        if self.state is DrawState.DRAWING:
            return (
                f"{len(self.points)} point(s). Enter or double-click finishes, "
                "Backspace removes the last point, Esc cancels, ':' types a point."
            )
        return self.message or (
            "Click to place the first corner of a new area, or press ':' to type it."
        )


class RectangleTool(AbstractTool):
    name = "Rectangle"
    shortcut = "R"
    cursor = Qt.CrossCursor
    snaps = True

    def __init__(self, settings: NewAreaSettings) -> None:
        super().__init__()
        self.settings = settings
        self.state = DrawState.IDLE
        self._start = (0.0, 0.0)
        self._preview: _Preview | None = None
        #: Called when the user asks to type coordinates (the ':' key).
        self.on_type_request: list[Callable[[], None]] = []

    def add_typed(self, x: float, y: float, w: float, h: float) -> str | None:
        """Add the rectangle with corner (x, y), w wide and h high, exactly as typed."""
        self.cancel()
        if w == 0 or h == 0:
            self.fail("A rectangle needs a width and a height.")
            return None
        return add_new_area(self, self.settings, geometry.rectangle((x, y), (x + w, y + h)))

    def show_typed(self, rect: tuple[float, float, float, float] | None) -> None:
        """Preview the rectangle being typed (None: no preview)."""
        if rect is None:
            if self.state is DrawState.IDLE:
                self.cancel()
            return
        if self._preview is None:
            self._preview = _Preview(self)
        x, y, w, h = rect
        self._preview.show(list(geometry.rectangle((x, y), (x + w, y + h))))

    def mouse_pressed(self, e: ToolEvent) -> None:
        assert self.view is not None
        if e.button != Qt.LeftButton:
            return
        self._start = self.view.snap(e.pos).point
        self.state = DrawState.DRAWING
        self._preview = _Preview(self)

    def mouse_moved(self, e: ToolEvent) -> None:
        assert self.view is not None
        p = self.view.snap(e.pos).point
        if self.state is DrawState.DRAWING and self._preview is not None:
            self._preview.show(list(geometry.rectangle(self._start, p)))

    def mouse_released(self, e: ToolEvent) -> None:
        assert self.view is not None
        if self.state is not DrawState.DRAWING:
            return
        p = self.view.snap(e.pos).point
        self.cancel()
        if p[0] != self._start[0] and p[1] != self._start[1]:
            add_new_area(self, self.settings, geometry.rectangle(self._start, p))

    def cancel(self) -> None:
        if self._preview is not None:
            self._preview.remove()
            self._preview = None
        self.state = DrawState.IDLE

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if key == Qt.Key_Colon and self.on_type_request:
            for f in self.on_type_request:
                f()
            return True
        if key == Qt.Key_Escape and self.state is DrawState.DRAWING:
            self.cancel()
            return True
        return False

    def status_text(self) -> str:
        return self.message or (
            "Drag from one corner to the opposite corner, or press ':' to type x, y, w, h."
        )
