"""Colours and pens of the map canvas, in one place."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QPen

from fireground.engine.board.model import AreaKind

FILL = {
    AreaKind.BUILDING: QColor("#e3cfae"),
    AreaKind.STREET: QColor("#d4d4d0"),
    AreaKind.OPEN: QColor("#cfe2bd"),
    AreaKind.WATER: QColor("#a8c8e6"),
}
FILL_BRUSH = {k: QBrush(c) for k, c in FILL.items()}
#: Fills over a tracing background: translucent, so the plan beneath shows.
SEE_THROUGH_BRUSH = {k: QBrush(QColor(c.red(), c.green(), c.blue(), 120)) for k, c in FILL.items()}
GHOST_BRUSH = QBrush(QColor(255, 255, 255, 0))


def cosmetic(color: str | QColor, width: float = 1.0, style: Qt.PenStyle = Qt.SolidLine) -> QPen:
    pen = QPen(QColor(color), width, style)
    pen.setCosmetic(True)
    return pen


OUTLINE = cosmetic("#5b5147", 1.0)
GHOST_OUTLINE = cosmetic("#b9b2a8", 1.0, Qt.DashLine)
SELECTED_OUTLINE = cosmetic("#e06a00", 2.5)
LABEL_COLOR = QColor("#3b342d")
FIRE = QColor("#d0140f")
DAMP = QColor("#1f5fd0")
DAMAGE = QColor("#111111")
EMBERS = QColor("#f08a00")
ISSUE = QColor("#d01060")
SNAP = {
    "vertex": QColor("#e0007a"),
    "edge": QColor("#0090d0"),
    "grid": QColor("#40a040"),
    "free": QColor("#888888"),
}
GRID = QColor(0, 0, 0, 28)
BACKGROUND = QColor("#f6f3ee")
