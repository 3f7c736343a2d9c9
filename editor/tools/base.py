"""What every tool is: activate/deactivate, mouse and key handlers, a status text.

Tools never assign to the scenario; they push undo commands on the document.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QCursor

if TYPE_CHECKING:
    from ..document import Document
    from ..scene.map_scene import MapScene
    from ..scene.map_view import MapView

_drags = itertools.count(1)


def new_gesture_id() -> int:
    """A fresh id for one drag or brush stroke, so its commands merge into one undo step."""
    return next(_drags)


@dataclass(frozen=True)
class ToolEvent:
    #: Map position in table cm (x east, y north), not snapped.
    pos: tuple[float, float]
    scene_pos: QPointF
    button: Qt.MouseButton
    buttons: Qt.MouseButton
    modifiers: Qt.KeyboardModifier

    @property
    def shift(self) -> bool:
        return bool(self.modifiers & Qt.ShiftModifier)


class AbstractTool:
    name = "tool"
    shortcut = ""
    cursor: QCursor | Qt.CursorShape = Qt.ArrowCursor

    def __init__(self) -> None:
        self.view: MapView | None = None
        self.message = ""

    # plumbing
    @property
    def doc(self) -> Document:
        assert self.view is not None
        return self.view.doc

    @property
    def scene(self) -> MapScene:
        assert self.view is not None
        return self.view.map_scene

    def activate(self, view: MapView) -> None:
        self.view = view

    def deactivate(self) -> None:
        self.cancel()
        self.view = None

    def cancel(self) -> None:
        """Drop any gesture in progress and its preview."""

    # events (override what the tool needs)
    def mouse_pressed(self, e: ToolEvent) -> None: ...

    def mouse_moved(self, e: ToolEvent) -> None:
        if self.view is not None and self.snaps:
            self.view.snap(e.pos)

    def mouse_released(self, e: ToolEvent) -> None: ...

    def mouse_double_clicked(self, e: ToolEvent) -> None: ...

    def key_pressed(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        return False

    def status_text(self) -> str:
        return self.message

    def state_detail(self) -> str:
        """What the tool is in the middle of (empty when idle), for the status bar."""
        state = getattr(self, "state", None)
        value = getattr(state, "value", "")
        return "" if value in ("", "idle") else str(value)

    def state_text(self) -> str:
        """The tool's name, key and state: the status bar's permanent tool indicator."""
        text = f"{self.name} ({self.shortcut})" if self.shortcut else self.name
        detail = self.state_detail()
        return f"{text}: {detail}" if detail else text

    #: Whether moving the mouse shows the snap indicator.
    snaps = False

    def fail(self, message: str) -> None:
        self.message = message
        if self.view is not None:
            self.view.statusMessage.emit(message)
