"""Tracing tools: set the background's scale by clicking two points of known distance, and
drag the background into place (only while it is unlocked)."""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import replace

from PySide6.QtCore import QLineF, Qt
from PySide6.QtWidgets import QGraphicsLineItem

from ..background import rescale
from ..commands import ChangeBackgroundCommand
from ..scene import style
from ..scene.coords import to_scene
from .base import AbstractTool, ToolEvent, new_gesture_id


class BackgroundState(enum.Enum):
    IDLE = "idle"
    FIRST_POINT = "first point clicked"
    MEASURED = "two points clicked"
    DRAGGING = "dragging"


class ScaleBackgroundTool(AbstractTool):
    """Click two points on the plan, then type the distance between them (in the
    Background panel): the image is scaled about the first point."""

    name = "Scale the background by two points"

    def __init__(self) -> None:
        super().__init__()
        self.state = BackgroundState.IDLE
        self.a: tuple[float, float] | None = None
        self.b: tuple[float, float] | None = None
        self._line: QGraphicsLineItem | None = None
        #: Called with the points' current distance (cm) once the second point is clicked.
        self.on_measured: list[Callable[[float], None]] = []

    @property
    def measured_cm(self) -> float | None:
        if self.a is None or self.b is None:
            return None
        return math.dist(self.a, self.b)

    def mouse_pressed(self, e: ToolEvent) -> None:
        if e.button != Qt.LeftButton:
            return
        if self.doc.scenario.background is None:
            self.fail("Import a background image first (Background panel).")
            return
        if self.state is BackgroundState.FIRST_POINT and self.a is not None:
            if math.dist(self.a, e.pos) <= 0:
                self.fail("Click a second, different point.")
                return
            self.b = e.pos
            self.state = BackgroundState.MEASURED
            self._show_line(self.a, self.b)
            d = math.dist(self.a, self.b)
            self.message = (
                f"The points are {d:.2f} cm apart now: type their true distance in the "
                "Background panel and press Enter."
            )
            for fn in self.on_measured:
                fn(d)
        else:
            self.a, self.b = e.pos, None
            self.state = BackgroundState.FIRST_POINT
            self._show_line(e.pos, e.pos)
            self.message = "Click the second point of a known distance."

    def mouse_moved(self, e: ToolEvent) -> None:
        if self.state is BackgroundState.FIRST_POINT and self.a is not None:
            self._show_line(self.a, e.pos)

    def apply_distance(self, distance_cm: float) -> bool:
        """Scale so the two clicked points are ``distance_cm`` apart; one undo step."""
        bg = self.doc.scenario.background
        if self.state is not BackgroundState.MEASURED or bg is None:
            self.fail("Click two points on the background first.")
            return False
        assert self.a is not None and self.b is not None
        try:
            new = rescale(bg, self.a, self.b, distance_cm)
        except ValueError as exc:
            self.fail(str(exc))
            return False
        self.doc.push(ChangeBackgroundCommand(self.doc, new, "Scale background"))
        self.cancel()
        self.message = f"Background scaled: {new.cm_per_px:.4g} cm per pixel."
        return True

    def _show_line(self, a: tuple[float, float], b: tuple[float, float]) -> None:
        if self._line is None:
            self._line = QGraphicsLineItem()
            self._line.setPen(style.cosmetic("#e0007a", 2.0, Qt.DashLine))
            self._line.setZValue(25)
            self.scene.addItem(self._line)
        self._line.setLine(QLineF(to_scene(a), to_scene(b)))

    def cancel(self) -> None:
        if self._line is not None:
            if self.view is not None:
                self.scene.removeItem(self._line)
            self._line = None
        self.state = BackgroundState.IDLE
        self.a = self.b = None

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if key == Qt.Key_Escape:
            self.cancel()
            self.message = "Cancelled."
            return True
        return False

    def status_text(self) -> str:
        return self.message or "Click two points of a known distance on the background."


class MoveBackgroundTool(AbstractTool):
    """Drag the background (its origin moves with it); refused while it is locked."""

    name = "Move the background"

    def __init__(self) -> None:
        super().__init__()
        self.state = BackgroundState.IDLE
        self._press = (0.0, 0.0)
        self._origin = (0.0, 0.0)
        self._gesture = 0

    def mouse_pressed(self, e: ToolEvent) -> None:
        if e.button != Qt.LeftButton:
            return
        bg = self.doc.scenario.background
        if bg is None:
            self.fail("Import a background image first (Background panel).")
            return
        if bg.locked:
            self.fail("The background is locked: untick Locked in the Background panel.")
            return
        self.state = BackgroundState.DRAGGING
        self._press, self._origin = e.pos, bg.origin
        self._gesture = new_gesture_id()

    def mouse_moved(self, e: ToolEvent) -> None:
        bg = self.doc.scenario.background
        if self.state is not BackgroundState.DRAGGING or bg is None:
            return
        origin = (
            self._origin[0] + e.pos[0] - self._press[0],
            self._origin[1] + e.pos[1] - self._press[1],
        )
        if origin != bg.origin:
            self.doc.push(
                ChangeBackgroundCommand(
                    self.doc,
                    replace(bg, origin=origin),
                    "Move background",
                    merge=("move", self._gesture),
                )
            )

    def mouse_released(self, e: ToolEvent) -> None:
        self.state = BackgroundState.IDLE

    def cancel(self) -> None:
        self.state = BackgroundState.IDLE

    def status_text(self) -> str:
        return self.message or "Drag to move the background (unlock it first)."
