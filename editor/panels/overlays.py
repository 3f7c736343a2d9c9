"""Overlays: adjacency edges, hose reach from the nearest water, the downwind arrow, and the
burn-chance heat map of the last Analyze… run with its colour scale."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QLinearGradient, QPainter, QPaintEvent
from PySide6.QtWidgets import QCheckBox, QLabel, QVBoxLayout, QWidget

from ..burn import BurnMap
from ..scene.map_scene import MapScene
from ..scene.overlays import heat_color


class HeatLegend(QWidget):
    """The heat map's colour scale, 0% to 100%."""

    def sizeHint(self) -> QSize:
        return QSize(200, 34)

    def minimumSizeHint(self) -> QSize:
        return QSize(120, 34)

    def paintEvent(self, e: QPaintEvent) -> None:
        p = QPainter(self)
        bar = QRectF(4, 2, self.width() - 8, 14)
        g = QLinearGradient(QPointF(bar.left(), 0), QPointF(bar.right(), 0))
        for k in range(11):
            c = QColor(heat_color(k / 10))
            c.setAlphaF(1.0)
            g.setColorAt(k / 10, c)
        p.fillRect(bar, g)
        p.setPen(QColor("#555555"))
        p.drawRect(bar)
        for frac, text in ((0.0, "0%"), (0.5, "50%"), (1.0, "100%")):
            x = bar.left() + frac * bar.width()
            align = Qt.AlignLeft if frac == 0 else Qt.AlignRight if frac == 1 else Qt.AlignHCenter
            r = QRectF(x - (0 if frac == 0 else 60 if frac == 1 else 30), 17, 60, 14)
            p.drawText(r, align | Qt.AlignTop, text)
        p.end()


class OverlaysPanel(QWidget):
    def __init__(self, scene: MapScene) -> None:
        super().__init__()
        self.scene = scene
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        self.boxes: dict[str, QCheckBox] = {}
        for key, text, tip in (
            (
                "adjacency",
                "Adjacency (which areas touch)",
                "Lines between the centres of areas that share an edge on this level.",
            ),
            (
                "hose",
                "Hose reach from water",
                "Green is near a hydrant or open water, red is far; hatched cannot be reached.",
            ),
            ("wind", "Downwind arrow", "Where the wind blows towards."),
            (
                "burn",
                "Burn chance (Analyze…)",
                "How often each location burned in the last analysis, on the level shown.",
            ),
        ):
            cb = QCheckBox(text)
            cb.setToolTip(tip)
            cb.toggled.connect(lambda on, k=key: self.scene.set_overlay(k, on))
            self.boxes[key] = cb
            lay.addWidget(cb)
        self.boxes["burn"].setEnabled(False)
        self.hose_legend = QLabel(
            "<span style='color:#2a9d2a'>■</span> near water &nbsp; "
            "<span style='color:#d04020'>■</span> far &nbsp; ▨ out of reach"
        )
        self.hose_legend.setWordWrap(True)
        self.hose_legend.hide()  # shown with its overlay
        self.boxes["hose"].toggled.connect(self.hose_legend.setVisible)
        lay.addWidget(self.hose_legend)
        self.heat_legend = HeatLegend()
        self.heat_legend.setToolTip("Burn chance: the share of games in which a location burned")
        self.heat_legend.hide()
        lay.addWidget(self.heat_legend)
        self.heat_info = QLabel("Analyze… (menu) draws each location's chance to burn.")
        self.heat_info.setWordWrap(True)
        lay.addWidget(self.heat_info)
        lay.addStretch(1)
        scene.doc.scenarioChanged.connect(self._on_edit)
        self.burn_map: BurnMap | None = None

    def show_burn_map(self, burn: BurnMap) -> None:
        """Draw an analysis' burn chances and switch the overlay on."""
        self.burn_map = burn
        box = self.boxes["burn"]
        box.setEnabled(True)
        box.blockSignals(True)
        box.setChecked(True)
        box.blockSignals(False)
        self.scene.set_heatmap(burn.chances)
        self.heat_legend.show()
        self.heat_info.setText(
            f"Chance to burn within {burn.turns} turns, over {burn.games} games "
            f"({burn.mode}, seed {burn.seed}). "
            "Change the level to see the others."
        )

    def _on_edit(self, _old: object, new: object) -> None:
        if self.burn_map is not None and new is not self.burn_map.scenario:
            self.heat_info.setText(
                f"Burn chance over {self.burn_map.games} games ({self.burn_map.mode}) — "
                "the map has changed since: run Analyze… again."
            )
