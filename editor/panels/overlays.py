"""Overlays: adjacency edges, hose reach from the nearest water, the downwind arrow."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QLabel, QVBoxLayout, QWidget

from ..scene.map_scene import MapScene


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
        ):
            cb = QCheckBox(text)
            cb.setToolTip(tip)
            cb.toggled.connect(lambda on, k=key: self.scene.set_overlay(k, on))
            self.boxes[key] = cb
            lay.addWidget(cb)
        legend = QLabel(
            "<span style='color:#2a9d2a'>■</span> near water &nbsp; "
            "<span style='color:#d04020'>■</span> far &nbsp; ▨ out of reach"
        )
        lay.addWidget(legend)
        lay.addStretch(1)
