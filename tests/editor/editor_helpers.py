"""Helpers shared by the editor tests."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt


def sq(x: float, y: float, w: float = 10, h: float = 10) -> tuple[tuple[float, float], ...]:
    """A w x h rectangle with its south-west corner at (x, y)."""
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


# -- real mouse events on the map view (scene y is the map's -y: north is up) --------
def at(win, x: float, y: float) -> QPoint:  # type: ignore[no-untyped-def]
    return win.view.mapFromScene(QPointF(x, -y))


def hover(qtbot, win, x: float, y: float) -> None:  # type: ignore[no-untyped-def]
    """Move the mouse onto a map point. A move to the pixel the cursor is already on makes
    no event, and the view may have scrolled under it, so come from a few pixels away."""
    qtbot.mouseMove(win.view.viewport(), at(win, x, y) + QPoint(7, 7))
    qtbot.mouseMove(win.view.viewport(), at(win, x, y))


def click(qtbot, win, x: float, y: float) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseMove(win.view.viewport(), at(win, x, y))
    qtbot.mouseClick(win.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(win, x, y))
