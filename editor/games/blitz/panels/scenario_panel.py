"""Scenario settings: name, description, wind (compass rose), bombing, mains, turns,
seed, objectives and house rules."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import yaml
from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    QPointF,
    QRectF,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from fireground.engine.board.model import COMPASS, Objective, Scenario, Wind

from ....commands import ChangeSettingsCommand
from ....document import Document
from ....panels.cells import CheckedDelegate, fill_table, whole_number


class WindRose(QWidget):
    """Eight points to click for the direction the wind blows from; the centre is calm."""

    changed = Signal(object)  # str | None

    def __init__(self) -> None:
        super().__init__()
        self.value: str | None = None
        self.setMinimumSize(QSize(110, 110))
        self.setToolTip("Click where the wind comes from; the centre means calm.")

    def sizeHint(self) -> QSize:
        return QSize(120, 120)

    def set_value(self, v: str | None) -> None:
        self.value = v
        self.update()

    def _geom(self) -> tuple[QPointF, float]:
        r = min(self.width(), self.height()) / 2 - 14
        return QPointF(self.width() / 2, self.height() / 2), r

    def paintEvent(self, e: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        c, r = self._geom()
        p.setPen(QPen(QColor("#888")))
        p.drawEllipse(c, r, r)
        for i, name in enumerate(COMPASS):
            a = math.radians(i * 45)
            pt = c + QPointF(math.sin(a) * r, -math.cos(a) * r)
            on = name == self.value
            p.setPen(QPen(QColor("#c02020" if on else "#444")))
            f = p.font()
            f.setBold(on)
            p.setFont(f)
            p.drawText(QRectF(pt.x() - 12, pt.y() - 9, 24, 18), Qt.AlignCenter, name)
        if self.value is None:
            p.drawText(QRectF(c.x() - 20, c.y() - 9, 40, 18), Qt.AlignCenter, "calm")
            return
        # Arrow from the rim the wind comes from, across to where it blows.
        a = math.radians(COMPASS.index(self.value) * 45)
        d = QPointF(math.sin(a), -math.cos(a))
        tail, head = c + d * (r * 0.65), c - d * (r * 0.65)
        p.setPen(QPen(QColor("#2060c0"), 3))
        p.drawLine(tail, head)
        side = QPointF(-d.y(), d.x()) * 6
        p.setBrush(QColor("#2060c0"))
        p.drawPolygon(QPolygonF([head, head + d * 10 + side, head + d * 10 - side]))

    def mousePressEvent(self, e: QMouseEvent) -> None:
        c, r = self._geom()
        v = e.position() - c
        if math.hypot(v.x(), v.y()) < r * 0.3:
            new = None
        else:
            bearing = math.degrees(math.atan2(v.x(), -v.y())) % 360
            new = COMPASS[round(bearing / 45) % 8]
        self.set_value(new)
        self.changed.emit(new)


OBJ_COLUMNS = ["Type", "Building", "Area", "At least", "Max lost"]
OBJ_TYPES = ["protect", "rescue", "contain"]


def _objective_row(o: Objective) -> list[object]:
    return [o.type, o.building, o.area, o.at_least, o.max_destroyed]


class ChoiceDelegate(QStyledItemDelegate):
    """Edit a table cell by choosing from a list (e.g. the ids that exist), so a typo cannot
    name a building or area that is not there. The first choice may be empty (none)."""

    def __init__(self, choices: Callable[[], list[str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choices = choices

    def createEditor(
        self,
        parent: QWidget,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> QWidget:
        box = QComboBox(parent)
        box.addItems(self.choices())
        # Picking from the list is the whole edit: store it at once.
        box.activated.connect(lambda _i, b=box: self._picked(b))
        return box

    def _picked(self, box: QComboBox) -> None:
        self.commitData.emit(box)
        self.closeEditor.emit(box)

    def setEditorData(self, editor: QWidget, index: QModelIndex | QPersistentModelIndex) -> None:
        assert isinstance(editor, QComboBox)
        text = str(index.data() or "")
        if editor.findText(text) < 0:  # an id that no longer exists: keep it choosable
            editor.addItem(text)
        editor.setCurrentText(text)

    def setModelData(
        self,
        editor: QWidget,
        model: QAbstractItemModel,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        assert isinstance(editor, QComboBox)
        model.setData(index, editor.currentText())


class ScenarioPanel(QWidget):
    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self._updating = False
        self.error = QLabel("")
        self.error.setStyleSheet("color: #c01010")
        self.error.setWordWrap(True)
        form = QFormLayout()
        self.name = QLineEdit()
        self.name.textEdited.connect(lambda t: self._set(name=t))
        form.addRow("Name", self.name)
        self.description = QPlainTextEdit()
        self.description.setFixedHeight(70)
        self.description.textChanged.connect(
            lambda: self._set(description=self.description.toPlainText())
        )
        form.addRow("Description", self.description)
        self.rose = WindRose()
        self.strong = QCheckBox("strong")
        self.rose.changed.connect(
            lambda v: self._set(
                merge=False, wind=Wind(v, self.strong.isChecked() and v is not None)
            )
        )
        self.strong.toggled.connect(
            lambda on: self._set(merge=False, wind=Wind(self.doc.scenario.wind.from_, on))
        )
        wind = QHBoxLayout()
        wind.addWidget(self.rose)
        wind.addWidget(self.strong)
        form.addRow("Wind from", wind)
        self.bombing = QCheckBox("bombing during the game")
        self.bombing.toggled.connect(lambda on: self._set(merge=False, bombing=on))
        form.addRow("Bombing", self.bombing)
        self.mains = QComboBox()
        self.mains.addItems(["working", "failed"])
        self.mains.currentTextChanged.connect(lambda t: self._set(merge=False, mains=t))
        form.addRow("Water mains", self.mains)
        self.turns = QSpinBox()
        self.turns.setRange(1, 500)
        self.turns.valueChanged.connect(lambda v: self._set(turns=v))
        form.addRow("Turns", self.turns)
        self.seed = QSpinBox()
        self.seed.setRange(-1, 2**31 - 1)
        self.seed.setSpecialValueText("(none)")
        self.seed.valueChanged.connect(lambda v: self._set(seed=None if v < 0 else v))
        form.addRow("Seed", self.seed)
        self.objectives = QTableWidget(0, len(OBJ_COLUMNS))
        self.objectives.setHorizontalHeaderLabels(OBJ_COLUMNS)
        self.objectives.verticalHeader().hide()
        self.objectives.setFixedHeight(110)
        # Every column shows in the dock: the short ones sized to their contents.
        head = self.objectives.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.Stretch)
        for col in (0, 3, 4):
            head.setSectionResizeMode(col, QHeaderView.ResizeToContents)
        self.objectives.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.objectives.itemChanged.connect(self._objective_edited)
        # Type, building and area are chosen from lists rather than typed.
        self._delegates = [
            ChoiceDelegate(lambda: list(OBJ_TYPES), self.objectives),
            ChoiceDelegate(lambda: ["", *(b.id for b in doc.scenario.buildings)], self.objectives),
            ChoiceDelegate(lambda: ["", *(a.id for a in doc.scenario.areas)], self.objectives),
        ]
        for col, d in enumerate(self._delegates):
            self.objectives.setItemDelegateForColumn(col, d)
        self._number_cells = [
            CheckedDelegate(
                lambda _r, t: None if not t else whole_number(t, 1, 100000, "At least"),
                self.error.setText,
                None,
                self.objectives,
            ),
            CheckedDelegate(
                lambda _r, t: None if not t else whole_number(t, 0, 100000, "Max destroyed"),
                self.error.setText,
                None,
                self.objectives,
            ),
        ]
        self.objectives.setItemDelegateForColumn(3, self._number_cells[0])
        self.objectives.setItemDelegateForColumn(4, self._number_cells[1])
        obj_buttons = QHBoxLayout()
        self.obj_type = QComboBox()
        self.obj_type.addItems(OBJ_TYPES)
        add = QPushButton("Add objective")
        add.clicked.connect(self._add_objective)
        rm = QPushButton("Remove")
        rm.clicked.connect(self._remove_objective)
        obj_buttons.addWidget(self.obj_type)
        obj_buttons.addWidget(add)
        obj_buttons.addWidget(rm)
        self.house = QPlainTextEdit()
        self.house.setFixedHeight(60)
        self.house.setPlaceholderText("growth.on: 5\nhose.max_lengths: 12")
        apply_house = QPushButton("Apply house rules")
        apply_house.clicked.connect(self._apply_house_rules)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(form)
        lay.addWidget(QLabel("Objectives"))
        lay.addWidget(self.objectives)
        lay.addLayout(obj_buttons)
        lay.addWidget(QLabel("House rules (YAML: rule: value)"))
        lay.addWidget(self.house)
        lay.addWidget(apply_house)
        lay.addWidget(self.error)
        lay.addStretch(1)
        doc.scenarioChanged.connect(lambda *_: self.sync())
        self.sync()

    def _set(self, merge: bool = True, **fields: Any) -> None:
        if self._updating:
            return
        if all(getattr(self.doc.scenario, k) == v for k, v in fields.items()):
            return
        self.doc.push(ChangeSettingsCommand(self.doc, merge=merge, **fields))

    def sync(self) -> None:
        s = self.doc.scenario
        self._updating = True
        try:
            if self.name.text() != s.name:
                self.name.setText(s.name)
            if self.description.toPlainText() != s.description:
                self.description.setPlainText(s.description)
            self.rose.set_value(s.wind.from_)
            self.strong.setChecked(s.wind.strong)
            self.bombing.setChecked(s.bombing)
            self.mains.setCurrentText(s.mains)
            self.turns.setValue(s.turns)
            self.seed.setValue(-1 if s.seed is None else s.seed)
            fill_table(
                self.objectives,
                [["" if v is None else str(v) for v in _objective_row(o)] for o in s.objectives],
            )
            if not self.house.hasFocus():
                self.house.setPlainText(
                    yaml.safe_dump(dict(s.house_rules), sort_keys=True).strip()
                    if s.house_rules
                    else ""
                )
        finally:
            self._updating = False

    def show_objective(self, row: int) -> None:
        """Select an objective's row (an Issues finding is about it)."""
        if 0 <= row < self.objectives.rowCount():
            self.objectives.selectRow(row)
            self.objectives.scrollToItem(self.objectives.item(row, 0))

    def _add_objective(self) -> None:
        t = self.obj_type.currentText()
        s: Scenario = self.doc.scenario
        o = {
            "protect": Objective("protect", building=s.buildings[0].id if s.buildings else None),
            "rescue": Objective("rescue", at_least=1),
            "contain": Objective("contain", max_destroyed=6),
        }[t]
        self._set(merge=False, objectives=(*s.objectives, o))

    def _remove_objective(self) -> None:
        rows = {i.row() for i in self.objectives.selectedIndexes()}
        objs = tuple(o for r, o in enumerate(self.doc.scenario.objectives) if r not in rows)
        self._set(merge=False, objectives=objs)

    def _objective_edited(self, item: QTableWidgetItem) -> None:
        if self._updating:
            return
        objs = list(self.doc.scenario.objectives)
        o = objs[item.row()]
        key = ["type", "building", "area", "at_least", "max_destroyed"][item.column()]
        text = item.text().strip()
        try:
            val: Any = (
                (int(text) if text else None)
                if key in ("at_least", "max_destroyed")
                else (text or None)
            )
        except ValueError:
            self.error.setText(f"{key} must be a whole number")
            self.sync()
            return
        objs[item.row()] = replace(o, **{key: val})
        self._set(merge=False, objectives=tuple(objs))

    def _apply_house_rules(self) -> None:
        text = self.house.toPlainText().strip()
        try:
            # the scenario loader's defensive reader: no aliases or tags, only true/false
            # are booleans (what typed text means here is what it means in the file)
            from fireground.engine.core.yamlsafe import parse

            data = parse(text, "house rules", text_keys=False) if text else {}
            if not isinstance(data, dict):
                raise ValueError("house rules are lines of 'rule: value'")
            data = dict(data)
            from fireground.engine.core.ruleset import load_ruleset

            load_ruleset(self.doc.scenario.ruleset, data)
        except Exception as exc:  # the ruleset names the bad rule; show it, do not crash
            self.error.setText(f"House rules not applied: {exc}")
            return
        self.error.setText("")
        self._set(merge=False, house_rules=data)
