"""Background panel: import a scanned plan to trace over, set its scale by two clicks and a
typed distance, its opacity, place and lock. Every change is one undo command."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QImageReader
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from fireground.engine.board.model import Background, Scenario

from ..background import IMAGE_FILTER, new_background
from ..commands import ChangeBackgroundCommand
from ..document import Document
from ..tools.background import MoveBackgroundTool, ScaleBackgroundTool


def _spin(lo: float, hi: float, decimals: int, suffix: str = "") -> QDoubleSpinBox:
    w = QDoubleSpinBox()
    w.setRange(lo, hi)
    w.setDecimals(decimals)
    w.setSuffix(suffix)
    w.setKeyboardTracking(False)  # one command per finished value, not per keystroke
    return w


class BackgroundPanel(QWidget):
    def __init__(
        self,
        doc: Document,
        scale_tool: ScaleBackgroundTool,
        move_tool: MoveBackgroundTool,
        use_tool: Callable[[Any], None],
        problem: Callable[[], str | None] = lambda: None,
    ) -> None:
        super().__init__()
        self.doc = doc
        self.scale_tool = scale_tool
        self.move_tool = move_tool
        self._use_tool = use_tool
        self._problem = problem
        self._updating = False

        self.file = QLabel("No background image.")
        self.file.setWordWrap(True)
        self.warning = QLabel("")
        self.warning.setStyleSheet("color: #c01010")
        self.warning.setWordWrap(True)
        self.import_button = QPushButton("Import image…")
        self.import_button.setToolTip("A PNG or JPEG plan to trace over (kept as a file path)")
        self.import_button.clicked.connect(self.import_dialog)
        self.remove_button = QPushButton("Remove")
        self.remove_button.clicked.connect(self.remove)
        top = QHBoxLayout()
        top.addWidget(self.import_button)
        top.addWidget(self.remove_button)

        self.opacity = QSlider(Qt.Horizontal)
        self.opacity.setRange(0, 100)
        self.opacity.valueChanged.connect(
            lambda v: self._change({"opacity": v / 100}, "Background opacity", "opacity")
        )
        self.cm_per_px = _spin(0.0001, 10000.0, 4)
        self.cm_per_px.valueChanged.connect(
            lambda v: self._change({"cm_per_px": v}, "Background scale", "scale")
        )
        self.origin_x = _spin(-1e6, 1e6, 2, " cm")
        self.origin_y = _spin(-1e6, 1e6, 2, " cm")
        for w in (self.origin_x, self.origin_y):
            w.valueChanged.connect(
                lambda _v: self._change(
                    {"origin": (self.origin_x.value(), self.origin_y.value())},
                    "Move background",
                    "origin",
                )
            )
        self.locked = QCheckBox("locked (cannot be dragged)")
        self.locked.toggled.connect(
            lambda on: self._change({"locked": on}, "Lock background" if on else "Unlock")
        )

        self.scale_button = QPushButton("Scale by two points")
        self.scale_button.setToolTip(
            "Click two points of a known distance on the plan, then type the distance"
        )
        self.scale_button.clicked.connect(lambda: self._use_tool(self.scale_tool))
        self.move_button = QPushButton("Move by dragging")
        self.move_button.clicked.connect(lambda: self._use_tool(self.move_tool))
        tools = QHBoxLayout()
        tools.addWidget(self.scale_button)
        tools.addWidget(self.move_button)
        self.measured = QLabel("")
        self.measured.setWordWrap(True)
        self.distance = QLineEdit()
        self.distance.setPlaceholderText("true distance, cm")
        self.distance.setToolTip("The real distance between the two clicked points, then Enter")
        self.distance.returnPressed.connect(self.apply_distance)
        self.apply_button = QPushButton("Apply")
        self.apply_button.clicked.connect(self.apply_distance)
        dist = QHBoxLayout()
        dist.addWidget(self.distance, 1)
        dist.addWidget(self.apply_button)
        scale_tool.on_measured.append(self._measured)

        form = QFormLayout()
        form.addRow("Opacity", self.opacity)
        form.addRow("cm per pixel", self.cm_per_px)
        form.addRow("Top-left x", self.origin_x)
        form.addRow("Top-left y", self.origin_y)
        form.addRow("", self.locked)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.file)
        lay.addWidget(self.warning)
        lay.addLayout(form)
        lay.addLayout(tools)
        lay.addWidget(self.measured)
        lay.addLayout(dist)
        lay.addStretch(1)
        self.fields: list[QWidget] = [
            self.remove_button,
            self.opacity,
            self.cm_per_px,
            self.origin_x,
            self.origin_y,
            self.locked,
            self.scale_button,
            self.move_button,
        ]
        doc.scenarioChanged.connect(self._on_changed)
        self.sync()

    # -- model -> widgets -----------------------------------------------------------------------
    def _on_changed(self, old: Scenario, new: Scenario) -> None:
        if new.background is not old.background:
            self.sync()

    def sync(self) -> None:
        bg = self.doc.scenario.background
        self._updating = True
        try:
            for w in self.fields:
                w.setEnabled(bg is not None)
            self._measuring(self.scale_tool.measured_cm)
            if bg is None:
                self.file.setText("No background image. Import a scanned plan to trace over.")
                self.warning.setText("")
                return
            self.file.setText(f"Image: {bg.image}")
            self.warning.setText(self._problem() or "")
            self.opacity.setValue(round(bg.opacity * 100))
            self.cm_per_px.setValue(bg.cm_per_px)
            self.origin_x.setValue(bg.origin[0])
            self.origin_y.setValue(bg.origin[1])
            self.locked.setChecked(bg.locked)
        finally:
            self._updating = False

    def _measured(self, cm: float) -> None:
        self._measuring(cm)
        self.distance.setFocus()
        self.distance.selectAll()

    def _measuring(self, cm: float | None) -> None:
        on = cm is not None
        self.distance.setEnabled(on)
        self.apply_button.setEnabled(on)
        self.measured.setText(
            f"The two points are {cm:.2f} cm apart on the table now." if on else ""
        )

    # -- widgets -> model -----------------------------------------------------------------------
    def _change(self, fields: dict[str, Any], text: str, merge: Hashable | None = None) -> None:
        bg = self.doc.scenario.background
        if self._updating or bg is None:
            return
        new = replace(bg, **fields)
        if new != bg:
            self.doc.push(ChangeBackgroundCommand(self.doc, new, text, merge))

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Import a plan to trace", "", IMAGE_FILTER)
        if path:
            self.import_image(path)

    def import_image(self, path: str | Path) -> bool:
        """Use an image file as the background (keeping place and scale of an old one)."""
        full = str(Path(path).resolve())
        reader = QImageReader(full)
        size = reader.size()
        if not size.isValid():
            self.warning.setText(f"Cannot read {path}: {reader.errorString()}")
            return False
        old = self.doc.scenario.background
        bg: Background
        if old is not None:
            bg = replace(old, image=full)
        else:
            s = self.doc.scenario
            bounds = s.bounds() if s.areas else (0.0, 0.0, 0.0, 0.0)
            bg = new_background(full, (size.width(), size.height()), bounds)
        self.doc.push(ChangeBackgroundCommand(self.doc, bg, "Import background"))
        return True

    def remove(self) -> None:
        if self.doc.scenario.background is not None:
            self.doc.push(ChangeBackgroundCommand(self.doc, None, "Remove background"))

    def apply_distance(self) -> bool:
        text = self.distance.text().strip().replace(",", ".")
        try:
            cm = float(text.removesuffix("cm").strip())
        except ValueError:
            self.warning.setText(f"Type the distance in cm (a number), not {text!r}.")
            return False
        if self.scale_tool.view is None:
            self.warning.setText("Click 'Scale by two points' and click two points first.")
            return False
        ok = self.scale_tool.apply_distance(cm)
        self.warning.setText("" if ok else self.scale_tool.message)
        if ok:
            self.distance.clear()
            self._measuring(None)
        return ok
