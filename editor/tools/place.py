"""Placement tools for features, and start-state brushes."""

from __future__ import annotations

import enum
from typing import Any

from PySide6.QtCore import Qt

from fireground.engine.board.model import AreaKind, FeatureType

from .. import ops, ops_start
from ..commands import AddFeatureCommand, PaintStartCommand
from .base import AbstractTool, ToolEvent, new_gesture_id

#: Where each feature may go (the checks say the same; refusing early is friendlier).
_ALLOWED: dict[FeatureType, tuple[AreaKind, ...]] = {
    FeatureType.STAIRWELL: (AreaKind.BUILDING,),
    FeatureType.STORE: (AreaKind.BUILDING,),
    FeatureType.HYDRANT: (AreaKind.STREET, AreaKind.OPEN),
    FeatureType.WATER: (AreaKind.WATER, AreaKind.OPEN, AreaKind.STREET, AreaKind.BUILDING),
    FeatureType.OCCUPANTS: (AreaKind.BUILDING,),
    FeatureType.ENTRY: (AreaKind.STREET, AreaKind.OPEN),
    FeatureType.LABEL: tuple(AreaKind),
}


class PlaceFeatureTool(AbstractTool):
    """Click an area to put a feature there, with the values in ``options``."""

    def __init__(self, ftype: FeatureType, **options: Any) -> None:
        super().__init__()
        self.ftype = ftype
        self.options = options
        self.name = f"Place {ftype.value}"

    def mouse_pressed(self, e: ToolEvent) -> None:
        if e.button != Qt.LeftButton:
            return
        a = self.scene.area_at(e.pos)
        if a is None:
            self.fail("Click inside an area.")
            return
        if a.kind not in _ALLOWED[self.ftype]:
            kinds = " or ".join(k.value for k in _ALLOWED[self.ftype])
            self.fail(f"A {self.ftype.value} goes in a {kinds} area; {a.id} is {a.kind.value}.")
            return
        level = self.doc.level if self.doc.level in self.doc.scenario.levels_of(a.id) else 0
        f = ops.make_feature(self.ftype, a.id, level, **self.options)
        self.doc.push(AddFeatureCommand(self.doc, f))
        self.message = f"Added {self.ftype.value} in {a.id}."

    def status_text(self) -> str:
        if self.message:
            return self.message
        article = "an" if self.ftype.value[0] in "aeiou" else "a"
        return f"Click an area to place {article} {self.ftype.value}."


class BrushState(enum.Enum):
    IDLE = "idle"
    PAINTING = "painting"


class StartBrushTool(AbstractTool):
    """Paint a start-state layer on the current level: drag across areas; shift or the
    right button clears instead. One stroke is one undo step."""

    cursor = Qt.CrossCursor

    def __init__(self, layer: str, value: int | None = None) -> None:
        super().__init__()
        if layer not in ops_start.BRUSHES:
            raise ValueError(f"unknown brush {layer!r}")
        self.layer = layer
        self.value = value if ops_start.BRUSHES[layer] else 1
        self.state = BrushState.IDLE
        self._stroke = 0
        self._clear = False
        self._done: set[str] = set()

    @property  # type: ignore[override]
    def name(self) -> str:
        value = f" {self.value}" if ops_start.BRUSHES[self.layer] else ""
        return f"Brush: {self.layer}{value}"

    def mouse_pressed(self, e: ToolEvent) -> None:
        if e.button not in (Qt.LeftButton, Qt.RightButton):
            return
        self.state = BrushState.PAINTING
        self._stroke = new_gesture_id()
        self._clear = e.button == Qt.RightButton or e.shift
        self._done = set()
        self._paint(e)

    def mouse_moved(self, e: ToolEvent) -> None:
        if self.state is BrushState.PAINTING:
            self._paint(e)

    def mouse_released(self, e: ToolEvent) -> None:
        self.state = BrushState.IDLE

    def _paint(self, e: ToolEvent) -> None:
        a = self.scene.area_at(e.pos)
        if a is None or a.id in self._done:
            return
        self._done.add(a.id)
        s = self.doc.scenario
        level = self.doc.level
        if self.layer in ("rubble", "craters"):
            if a.kind not in (AreaKind.STREET, AreaKind.OPEN):
                self.fail(f"{self.layer} lies in streets and open areas.")
                return
            level = 0
        elif level not in s.levels_of(a.id):
            self.fail(f"{a.id} has no level {level}.")
            return
        if a.kind is AreaKind.WATER:
            self.fail("Water does not burn.")
            return
        value = None if self._clear else self.value
        self.doc.push(
            PaintStartCommand(self.doc, self.layer, [(a.id, level)], value, stroke=self._stroke)
        )

    def status_text(self) -> str:
        if self.message:
            return self.message
        return (
            f"Paint {self.layer} on level {self.doc.level if self.view else 0}; "
            "right-drag or shift-drag clears."
        )
