"""The track view: the squares in a row, with tokens and engines; clicking paints tokens."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent
from PySide6.QtWidgets import QWidget

from fireground.engine.games.forestfire.state import State

from .document import FFDocument

TOWN, FOREST, BURNT, FIRE = "#f4e1c1", "#d9ead3", "#555555", "#d7301f"


class TrackWidget(QWidget):
    """Draws the board; a left click asks to paint the brush count on a square, a right
    click to clear it (the window turns these into undo commands)."""

    paint_square = Signal(int, bool)  # square, clear

    def __init__(self, doc: FFDocument) -> None:
        super().__init__()
        self.doc = doc
        #: a test game's position, drawn instead of the setup while a game runs
        self.game_state: State | None = None
        self.setMinimumSize(600, 120)
        doc.changed.connect(self.update)

    def square_rect(self, sq: int) -> QRectF:
        n = self.doc.setup.squares
        side = min((self.width() - 20) / n, self.height() - 40)
        return QRectF(10 + (sq - 1) * side, 20, side, side)

    def square_at(self, x: float, y: float) -> int:
        for sq in range(1, self.doc.setup.squares + 1):
            if self.square_rect(sq).contains(x, y):
                return sq
        return 0

    def mousePressEvent(self, ev: QMouseEvent) -> None:
        sq = self.square_at(ev.position().x(), ev.position().y())
        if sq and self.game_state is None:
            self.paint_square.emit(sq, ev.button() == Qt.MouseButton.RightButton)

    def paintEvent(self, ev: QPaintEvent) -> None:
        p = QPainter(self)
        s = self.doc.setup
        gs = self.game_state
        for sq in range(1, s.squares + 1):
            r = self.square_rect(sq)
            burnt = gs is not None and gs.burnt[sq - 1]
            p.setBrush(QColor(BURNT if burnt else TOWN if sq == 1 else FOREST))
            p.setPen(QColor("#33402e"))
            p.drawRect(r)
            p.drawText(
                r.adjusted(3, 2, 0, 0), Qt.AlignmentFlag.AlignLeft, "T" if sq == 1 else str(sq)
            )
            n = gs.tokens[sq - 1] if gs is not None else s.tokens.get(sq, 0)
            if n:
                p.setBrush(QColor(FIRE))
                d = r.width() * 0.45
                p.drawEllipse(r.center(), d / 2, d / 2)
                p.setPen(QColor("#ffffff"))
                p.drawText(QRectF(r.center().x() - d / 2, r.center().y() - d / 2, d, d),
                           Qt.AlignmentFlag.AlignCenter, str(n))  # fmt: skip
        engines = (
            [(f"E{i + 1}", e.square, e.water, e.destroyed) for i, e in enumerate(gs.engines)]
            if gs is not None
            else [(e.id, e.square, e.water, False) for e in s.engines]
        )
        for k, (eid, sq, water, lost) in enumerate(engines):
            if lost or not 1 <= sq <= s.squares:
                continue
            r = self.square_rect(sq)
            p.setBrush(QColor("#f2c14e"))
            p.setPen(QColor("#000000"))
            er = QRectF(r.x() + 2, r.bottom() - 16 - 16 * (k % 2), r.width() - 4, 14)
            p.drawRect(er)
            p.drawText(er, Qt.AlignmentFlag.AlignCenter, f"{eid}:{water}")
        p.end()
