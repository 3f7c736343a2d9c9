"""The tracing background on the canvas: the scanned plan, scaled and placed, under
everything else."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QImageReader, QPixmap
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPixmapItem

from fireground.engine.board.model import Background

from .coords import to_scene

#: Below ghosted areas (-1) and every other item.
Z = -100


class BackgroundItem(QGraphicsPixmapItem):
    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z)
        self.setTransformationMode(Qt.SmoothTransformation)
        self.setShapeMode(QGraphicsPixmapItem.BoundingRectShape)
        # Never picked by a click: tools ask the document, not the item, about it.
        self.setFlag(QGraphicsItem.ItemIsSelectable, False)
        self.setAcceptedMouseButtons(Qt.NoButton)
        self.background: Background | None = None
        #: Why the image is not shown (missing or unreadable file), or None.
        self.problem: str | None = None
        self._loaded: str | None = None
        self.hide()

    def set_background(self, bg: Background | None) -> None:
        self.background = bg
        if bg is None:
            self._loaded, self.problem = None, None
            self.setPixmap(QPixmap())
            self.hide()
            return
        if bg.image != self._loaded:
            self._loaded = bg.image
            self.problem = None
            reader = QImageReader(bg.image)
            reader.setAutoTransform(True)
            image = reader.read()
            if image.isNull():
                self.problem = f"cannot show the background image {bg.image}: " + (
                    reader.errorString() or "unreadable"
                )
                self.setPixmap(QPixmap())
            else:
                self.setPixmap(QPixmap.fromImage(image))
        self.setPos(to_scene(bg.origin))
        self.setScale(bg.cm_per_px)
        self.setOpacity(bg.opacity)
        self.setVisible(self.problem is None)

    @property
    def shown(self) -> bool:
        return self.background is not None and self.problem is None
