"""Select and move: click, shift-click to add, rubber band, drag to move with snapping."""

from __future__ import annotations

import enum

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QGraphicsRectItem

from ..commands import (
    ChangeForcesCommand,
    MoveAreasCommand,
    RemoveAreasCommand,
    RemoveFeaturesCommand,
)
from ..document import Document, Selection
from ..scene import style
from ..scene.coords import to_scene
from ..scene.items import AreaItem
from .base import AbstractTool, ToolEvent, new_gesture_id

#: A press becomes a drag after this many screen pixels.
DRAG_PX = 4.0


class SelectState(enum.Enum):
    IDLE = "idle"
    PRESSED = "pressed"
    RUBBER_BAND = "rubber band"
    MOVING = "moving"


class SelectTool(AbstractTool):
    name = "Select / move"
    shortcut = "V"

    def __init__(self) -> None:
        super().__init__()
        self.state = SelectState.IDLE
        self._press: tuple[float, float] = (0.0, 0.0)
        self._anchor: tuple[float, float] = (0.0, 0.0)
        self._moved: tuple[float, float] = (0.0, 0.0)
        self._band: QGraphicsRectItem | None = None
        self._drag = 0
        self._shift = False

    def mouse_pressed(self, e: ToolEvent) -> None:
        if e.button != Qt.LeftButton:
            return
        self._press = e.pos
        self._shift = e.shift
        self.state = SelectState.PRESSED

    def mouse_moved(self, e: ToolEvent) -> None:
        assert self.view is not None
        if self.state is SelectState.IDLE:
            return
        far = self.view.pixels_to_cm(DRAG_PX)
        if self.state is SelectState.PRESSED:
            if abs(e.pos[0] - self._press[0]) < far and abs(e.pos[1] - self._press[1]) < far:
                return
            a = self.scene.area_at(self._press)
            if a is not None and not self._shift:
                if a.id not in self.doc.selection.areas:
                    self.doc.select_areas([a.id])
                self.state = SelectState.MOVING
                self._drag = new_gesture_id()
                # Grab the nearest vertex of the grabbed area so it lands on snap targets.
                self._anchor = min(
                    a.polygon,
                    key=lambda v: (v[0] - self._press[0]) ** 2 + (v[1] - self._press[1]) ** 2,
                )
                self._moved = (0.0, 0.0)
            else:
                self.state = SelectState.RUBBER_BAND
                self._band = QGraphicsRectItem()
                self._band.setPen(style.cosmetic("#e06a00", 1, Qt.DashLine))
                self._band.setBrush(QBrush(QColor(224, 106, 0, 30)))
                self._band.setZValue(30)
                self.scene.addItem(self._band)
        if self.state is SelectState.MOVING:
            moving = self.doc.selection.areas
            want = (
                self._anchor[0] + e.pos[0] - self._press[0],
                self._anchor[1] + e.pos[1] - self._press[1],
            )
            target = self.view.snap(want, exclude=moving).point
            dx = target[0] - self._anchor[0] - self._moved[0]
            dy = target[1] - self._anchor[1] - self._moved[1]
            if dx or dy:
                self.doc.push(MoveAreasCommand(self.doc, moving, dx, dy, drag=self._drag))
                self._moved = (self._moved[0] + dx, self._moved[1] + dy)
        elif self.state is SelectState.RUBBER_BAND and self._band is not None:
            self._band.setRect(QRectF(to_scene(self._press), to_scene(e.pos)).normalized())

    def mouse_released(self, e: ToolEvent) -> None:
        if self.state is SelectState.MOVING and self._moved == (0.0, 0.0):
            self.fail(
                "Not moved: the drag snapped back to where it started. Drag further, tick "
                "'1 cm' for a finer grid, or hold Ctrl to move freely."
            )
        elif self.state is SelectState.MOVING:
            self.message = f"Moved by {self._moved[0]:g}, {self._moved[1]:g} cm."
        if self.state is SelectState.PRESSED:
            self._click(e)
        elif self.state is SelectState.RUBBER_BAND and self._band is not None:
            rect = self._band.rect()
            ids = [
                it.area.id
                for it in self.scene.items(rect, Qt.IntersectsItemShape)
                if isinstance(it, AreaItem) and not it.ghost
            ]
            ids.reverse()
            if self._shift:
                ids = list(dict.fromkeys([*self.doc.selection.areas, *ids]))
            self.doc.select_areas(ids)
        self.cancel()

    def _click(self, e: ToolEvent) -> None:
        assert self.view is not None
        sel = self.doc.selection
        unit = self.scene.unit_at(e.scene_pos, self.view.transform())
        if unit is not None:
            uid = unit.unit_id
            if self._shift:
                units = (
                    tuple(u for u in sel.units if u != uid)
                    if uid in sel.units
                    else (*sel.units, uid)
                )
                self.doc.set_selection(Selection(units=units))
            else:
                self.doc.set_selection(Selection(units=(uid,)))
            return
        feat = self.scene.feature_at(e.scene_pos, self.view.transform())
        if feat is not None:
            idx = feat.index
            if self._shift:
                feats = (
                    tuple(i for i in sel.features if i != idx)
                    if idx in sel.features
                    else (*sel.features, idx)
                )
                self.doc.set_selection(Selection(areas=sel.areas, features=feats))
            else:
                self.doc.set_selection(Selection(features=(idx,)))
            return
        a = self.scene.area_at(e.pos)
        if a is None:
            if not self._shift:
                self.doc.set_selection(Selection())
            return
        if self._shift:
            areas = (
                tuple(x for x in sel.areas if x != a.id)
                if a.id in sel.areas
                else (*sel.areas, a.id)
            )
            self.doc.set_selection(Selection(areas=areas, features=sel.features))
        else:
            self.doc.select_areas([a.id])

    def cancel(self) -> None:
        if self._band is not None:
            self.scene.removeItem(self._band)
            self._band = None
        self.state = SelectState.IDLE

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if key in (Qt.Key_Delete, Qt.Key_Backspace):
            delete_selection(self.doc)
            return True
        if key == Qt.Key_Escape:
            self.cancel()
            self.doc.set_selection(Selection())
            return True
        return False

    def status_text(self) -> str:
        if self.message:  # the outcome of the last gesture
            return self.message
        n = len(self.doc.selection.areas) if self.view else 0
        return (
            f"{n} area(s) selected. " if n else ""
        ) + "Click to select, shift-click to add, drag to move or to draw a selection box."


def delete_selection(doc: Document) -> None:
    """Delete what is selected (areas, else features, else units), whatever tool is active."""
    sel = doc.selection
    if sel.areas:
        doc.push(RemoveAreasCommand(doc, list(sel.areas)))
    elif sel.features:
        doc.push(RemoveFeaturesCommand(doc, list(sel.features)))
    elif sel.units:
        gone = set(sel.units)
        forces = [u for u in doc.scenario.forces if u.id not in gone]
        text = "Delete unit" if len(gone) == 1 else "Delete units"
        doc.push(ChangeForcesCommand(doc, forces, text))
