"""The tool options bar: level, snapping, the current tool's values and typed coordinates."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QSpinBox,
    QToolBar,
)

from fireground.engine.board.model import AreaKind, FeatureType, Material

from .tools.place import PlaceFeatureTool, StartBrushTool

if TYPE_CHECKING:
    from .toolbox import Toolbox


class TypedEntry(QLineEdit):
    """The typed-coordinates field; Esc hands the keyboard back to the map."""

    escaped = Signal()
    #: Backspace in the empty field: drop the last corner placed.
    backedUp = Signal()

    def keyPressEvent(self, e: QKeyEvent) -> None:
        if e.key() == Qt.Key_Escape:
            self.escaped.emit()
            return
        if e.key() == Qt.Key_Backspace and not self.text():
            self.backedUp.emit()
            return
        super().keyPressEvent(e)


class OptionsBar(QToolBar):
    """Level, snapping and the values the current tool will use."""

    def __init__(self, toolbox: Toolbox) -> None:
        super().__init__("Tool options")
        self.toolbox = toolbox
        doc, view = toolbox.doc, toolbox.view
        self.doc = doc
        self.addWidget(QLabel(" Level "))
        self.level = QSpinBox()
        self.level.setRange(-1, 19)
        self.level.setToolTip("Level shown; other levels are ghosted (PgUp / PgDn)")
        self.level.valueChanged.connect(doc.set_level)
        doc.levelChanged.connect(self.level.setValue)
        self.addWidget(self.level)
        self.addSeparator()
        self.grid = QCheckBox("Snap to grid")
        self.grid.setChecked(view.grid_snap)
        self.grid.toggled.connect(lambda on: setattr(view, "grid_snap", on))
        self.grid.setToolTip(
            "Snap to the grid; hold Ctrl while clicking or dragging to place freely"
        )
        self.addWidget(self.grid)
        self.fine = QCheckBox("1 cm")
        self.fine.setToolTip("Snap to a 1 cm grid (the area grid's subdivisions) instead")
        self.fine.toggled.connect(
            lambda on: (setattr(view, "fine_grid", on), view.viewport().update())
        )
        self.addWidget(self.fine)
        self.areas = QCheckBox("Snap to areas")
        self.areas.setChecked(view.area_snap)
        self.areas.toggled.connect(lambda on: setattr(view, "area_snap", on))
        self.addWidget(self.areas)
        self.addSeparator()
        self.addWidget(QLabel(" New areas: "))
        self.kind = QComboBox()
        self.kind.setToolTip("What the polygon and rectangle tools draw")
        self.kind.setSizeAdjustPolicy(QComboBox.AdjustToContents)  # "building: …" whole
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.addWidget(self.kind)
        #: Connected by the window to its New building dialog.
        self.new_building_act = self.addAction("New building…")
        self.new_building_act.setToolTip(
            "Add a building (id, name, levels) and draw its areas with the polygon or "
            "rectangle tool"
        )
        self.addSeparator()
        self.value_label = QLabel(" Value ")
        self.addWidget(self.value_label)
        self.value = QSpinBox()
        self.value.setRange(0, 100000)
        self.value.valueChanged.connect(self._value_changed)
        self.addWidget(self.value)
        self.material = QComboBox()
        self.material.addItems([m.value for m in Material])
        self.material.currentTextChanged.connect(
            lambda t: toolbox.place[FeatureType.STORE].options.update(material=t)
        )
        self.material_act = self.addWidget(self.material)
        self.text = QLineEdit()
        self.text.setPlaceholderText("name / text")
        self.text.setMaximumWidth(160)
        self.text.textChanged.connect(self._text_changed)
        self.text_act = self.addWidget(self.text)
        self.corner = QLineEdit()
        self.corner.setPlaceholderText("corner x, y")
        self.corner.setToolTip("Type the selected corner's position in table cm, then Enter")
        self.corner.setMaximumWidth(140)
        self.corner.editingFinished.connect(self._corner_typed)
        self.corner_act = self.addWidget(self.corner)
        toolbox.vertices.on_vertex_changed.append(self._show_corner)
        self.typed_label = QLabel()
        self.typed_label_act = self.addWidget(self.typed_label)
        self.typed = TypedEntry()
        self.typed.setMaximumWidth(180)
        self.typed.textEdited.connect(self._typed_preview)
        self.typed.returnPressed.connect(self._typed_entered)
        self.typed.escaped.connect(self._typed_escaped)
        self.typed.backedUp.connect(self._typed_back)
        self.typed_act = self.addWidget(self.typed)
        for t in (toolbox.polygon, toolbox.rectangle):
            t.on_type_request.append(self._focus_typed)
        doc.scenarioChanged.connect(self._on_scenario)
        self._fill_kinds()
        self.tool_changed()

    def _on_scenario(self, old: object, new: object) -> None:
        if getattr(old, "buildings", None) is not getattr(new, "buildings", None):
            self._fill_kinds()
        self._level_range()

    def _level_range(self) -> None:
        """Levels any building has; -1 reads 'basement'."""
        lr = self.doc.level_range()
        self.level.setRange(lr.start, lr.stop - 1)
        self.level.setSpecialValueText("-1 basement" if lr.start < 0 else "")

    def _fill_kinds(self) -> None:
        s = self.doc.scenario
        cur = self.kind.currentData()
        self.kind.blockSignals(True)
        self.kind.clear()
        for k in (AreaKind.STREET, AreaKind.OPEN, AreaKind.WATER):
            self.kind.addItem(k.value, k.value)
        for b in s.buildings:
            self.kind.addItem(f"building: {b.id}", f"building:{b.id}")
        idx = self.kind.findData(cur) if cur is not None else -1
        self.kind.setCurrentIndex(max(idx, 0))
        self.kind.blockSignals(False)
        self._kind_changed()
        self._level_range()

    def _kind_changed(self) -> None:
        data = self.kind.currentData()
        if data:
            kind, _, building = str(data).partition(":")
            self.toolbox.settings.kind = AreaKind(kind)
            self.toolbox.settings.building = building or None

    def select_kind(self, kind: AreaKind, building: str | None = None) -> None:
        i = self.kind.findData(f"building:{building}" if building else kind.value)
        if i >= 0:
            self.kind.setCurrentIndex(i)

    # Which value the spin box edits for the current tool.
    def _value_key(self) -> tuple[object, str, int, int] | None:
        tool = self.toolbox.view.tool
        tb = self.toolbox
        if isinstance(tool, PlaceFeatureTool):
            key = {
                FeatureType.HYDRANT: ("pressure", 1, 20),
                FeatureType.WATER: ("points", 1, 100000),
                FeatureType.OCCUPANTS: ("count", 1, 999),
            }.get(tool.ftype)
            return (tool, *key) if key else None
        if isinstance(tool, StartBrushTool) and tool.layer in ("fire", "damp", "damage"):
            lo = 0 if tool.layer == "damp" else 1
            return (tool, tool.layer, lo, 5)
        if tool is tb.split_cells:
            return (tool, "cell size cm", 1, 1000)
        return None

    def tool_changed(self) -> None:
        vk = self._value_key()
        tool = self.toolbox.view.tool
        self.value.blockSignals(True)
        if vk is None:
            self.value.setEnabled(False)
            self.value_label.setText(" Value ")
        else:
            t, key, lo, hi = vk
            self.value.setEnabled(True)
            self.value.setRange(lo, hi)
            self.value_label.setText(f" {key.capitalize()} ")
            if isinstance(t, PlaceFeatureTool):
                from . import ops

                default = getattr(ops.make_feature(t.ftype, "x"), key)
                self.value.setValue(int(t.options.get(key, default)))
            elif isinstance(t, StartBrushTool):
                self.value.setValue(int(t.value or 1))
            else:
                self.value.setValue(
                    int(self.toolbox.split_cells.cell_cm or self.doc.scenario.scale.area_cm)
                )
        self.value.blockSignals(False)
        self.corner_act.setVisible(tool is self.toolbox.vertices)
        drawing = tool in (self.toolbox.polygon, self.toolbox.rectangle)
        self.typed_act.setVisible(drawing)
        self.typed_label_act.setVisible(drawing)
        self.typed.clear()
        self.typed_label.setText(
            " Rectangle (:) " if tool is self.toolbox.rectangle else " Corner (:) "
        )
        if tool is self.toolbox.rectangle:
            self.typed.setPlaceholderText("x, y, w, h")
            self.typed.setToolTip(
                "Type the south-west corner, width and height in table cm, then Enter "
                "(no snapping). ':' on the map comes here."
            )
        else:
            self.typed.setPlaceholderText("x, y  or  @dx, dy")
            self.typed.setToolTip(
                "Type a corner in table cm (x, y; or @dx, dy from the last corner; several "
                "joined by ';') and press Enter to add it exactly, without snapping. Enter on "
                "an empty field finishes the area, Backspace there drops the last corner, Esc "
                "goes back to the map. ':' on the map comes here."
            )
        is_store = isinstance(tool, PlaceFeatureTool) and tool.ftype is FeatureType.STORE
        self.material_act.setVisible(is_store)
        if is_store:
            assert isinstance(tool, PlaceFeatureTool)
            # The box shows what the tool will place (its default until one is chosen).
            from . import ops

            material = tool.options.get("material") or ops.make_feature(tool.ftype, "x").material
            self.material.blockSignals(True)
            self.material.setCurrentText(str(getattr(material, "value", material)))
            self.material.blockSignals(False)
        texty = isinstance(tool, PlaceFeatureTool) and tool.ftype in (
            FeatureType.ENTRY,
            FeatureType.LABEL,
            FeatureType.WATER,
        )
        self.text_act.setVisible(texty)
        if texty:
            assert isinstance(tool, PlaceFeatureTool)
            key = "text" if tool.ftype is FeatureType.LABEL else "name"
            self.text.blockSignals(True)
            self.text.setText(tool.options.get(key, ""))
            self.text.blockSignals(False)

    def _show_corner(self) -> None:
        v = self.toolbox.vertices.current_vertex()
        self.corner.setEnabled(v is not None)
        if not self.corner.hasFocus():
            self.corner.setText(f"{v[0]:g}, {v[1]:g}" if v else "")

    def _corner_typed(self) -> None:
        from .geometry import parse_points

        try:
            pts = parse_points(self.corner.text())
        except ValueError as exc:
            self.toolbox.view.statusMessage.emit(str(exc))
            return
        if len(pts) == 1:
            self.toolbox.vertices.set_vertex(pts[0])

    # -- typed coordinates for the polygon and rectangle tools ---------------------------------
    def _focus_typed(self) -> None:
        self.typed.setFocus(Qt.ShortcutFocusReason)
        self.typed.selectAll()

    def _parse_typed(self) -> tuple[float, ...] | list[tuple[float, float]] | None:
        """The rectangle's (x, y, w, h) or the polygon's points typed so far; None if the
        text is not (yet) valid."""
        from .geometry import DECIMALS, parse_points, rnd

        text = self.typed.text().strip()
        if not text:
            return None
        if self.toolbox.view.tool is self.toolbox.rectangle:
            bits = text.replace(";", ",").split(",")
            try:
                nums = tuple(round(float(b), DECIMALS) + 0.0 for b in bits)
            except ValueError:
                return None
            return nums if len(nums) == 4 else None
        # Polygon corners: "x, y", several joined by ';', or "@dx, dy" from the corner before.
        out: list[tuple[float, float]] = []
        prev = self.toolbox.polygon.points[-1] if self.toolbox.polygon.points else None
        for piece in text.replace("\n", ";").split(";"):
            piece = piece.strip()
            if not piece:
                continue
            relative = piece.startswith("@")
            try:
                (p,) = parse_points(piece.lstrip("@"))
            except ValueError:
                return None
            if relative:
                if prev is None:
                    return None  # nothing to measure from yet
                p = rnd((prev[0] + p[0], prev[1] + p[1]))
            out.append(p)
            prev = p
        return out or None

    def _typed_preview(self) -> None:
        tool = self.toolbox.view.tool
        got = self._parse_typed()
        if tool is self.toolbox.rectangle:
            self.toolbox.rectangle.show_typed(got if isinstance(got, tuple) else None)
        elif tool is self.toolbox.polygon:
            self.toolbox.polygon.show_typed(got if isinstance(got, list) else None)

    def _typed_entered(self) -> None:
        tool = self.toolbox.view.tool
        view = self.toolbox.view
        text = self.typed.text().strip()
        if tool is self.toolbox.polygon and not text:
            self.toolbox.polygon.finish()
            view.notify_tool_state()
            return
        got = self._parse_typed()
        if got is None:
            rect = tool is self.toolbox.rectangle
            view.statusMessage.emit(
                "Type x, y, w, h in cm, e.g. 0, 0, 10, 10"
                if rect
                else "Type x, y in cm, e.g. 10, 20; or @dx, dy from the last corner"
            )
            return
        if isinstance(got, tuple):
            self.toolbox.rectangle.add_typed(*got)
        else:
            self.toolbox.polygon.add_typed(got)
        self.typed.clear()
        view.notify_tool_state()

    def _typed_back(self) -> None:
        if self.toolbox.view.tool is self.toolbox.polygon:
            self.toolbox.polygon.key_pressed(Qt.Key_Backspace, Qt.NoModifier)
            self.toolbox.view.notify_tool_state()

    def _typed_escaped(self) -> None:
        self.typed.clear()
        self._typed_preview()
        self.toolbox.view.setFocus(Qt.ShortcutFocusReason)

    def _value_changed(self, v: int) -> None:
        vk = self._value_key()
        if vk is None:
            return
        t, key, _lo, _hi = vk
        if isinstance(t, PlaceFeatureTool):
            t.options[key] = v
        elif isinstance(t, StartBrushTool):
            t.value = v if (v or t.layer == "damp") else 1
        else:
            self.toolbox.split_cells.cell_cm = float(v)

    def _text_changed(self, text: str) -> None:
        tool = self.toolbox.view.tool
        if isinstance(tool, PlaceFeatureTool):
            key = "text" if tool.ftype is FeatureType.LABEL else "name"
            if text:
                tool.options[key] = text
            else:
                tool.options.pop(key, None)
