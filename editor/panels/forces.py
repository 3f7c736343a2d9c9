"""Forces: the units available to the players, from the ruleset's catalogue."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from fireground.engine.ruleset import unit_types
from fireground.engine.scenario import ForceUnit, Scenario

from .. import ops
from ..commands import ChangeForcesCommand
from ..document import Document
from .cells import fill_table

COLUMNS = ["Id", "Type", "Area", "Level", "Entry", "Arrives"]


class ForcesPanel(QWidget):
    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self._updating = False
        self.type_box = QComboBox()
        try:
            self.type_box.addItems(list(unit_types(doc.scenario.ruleset)))
        except ValueError:
            self.type_box.addItems(list(unit_types()))
        add = QPushButton("Add")
        add.clicked.connect(self.add_unit)
        remove = QPushButton("Remove")
        remove.clicked.connect(self.remove_selected)
        top = QHBoxLayout()
        top.addWidget(self.type_box, 1)
        top.addWidget(add)
        top.addWidget(remove)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        # Narrow columns sized to their contents, so all six fit the dock without scrolling.
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeToContents)
        self.table.itemChanged.connect(self._edited)
        self.error = QLabel("")
        self.error.setStyleSheet("color: #c01010")
        hint = QLabel(
            "Give a unit an area (and level) to start there, or an entry name and a turn to arrive."
        )
        hint.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(self.table)
        lay.addWidget(hint)
        lay.addWidget(self.error)
        doc.scenarioChanged.connect(self._on_changed)
        self.sync()

    def _on_changed(self, old: Scenario, new: Scenario) -> None:
        if new.forces is not old.forces:
            self.sync()

    def sync(self) -> None:
        forces = self.doc.scenario.forces
        rows = [
            [u.id, u.type, u.area or "", str(u.level), u.entry or "", str(u.arrives)]
            for u in forces
        ]
        fill_table(self.table, rows, read_only=(1,))

    def add_unit(self) -> None:
        s = self.doc.scenario
        utype = self.type_box.currentText()
        prefix = "".join(w[0] for w in utype.split("_")).upper()[:3] or "U"
        uid = ops.next_id([u.id for u in s.forces], prefix)
        entries = [f.name for f in s.features if f.type.value == "entry" and f.name]
        sel = self.doc.selection.areas
        if sel:
            unit = ForceUnit(
                uid,
                utype,
                area=sel[0],
                level=self.doc.level if self.doc.level in s.levels_of(sel[0]) else 0,
            )
        elif entries:
            unit = ForceUnit(uid, utype, entry=entries[0])
        else:
            unit = ForceUnit(uid, utype)
        self.doc.push(ChangeForcesCommand(self.doc, [*s.forces, unit], f"Add unit {uid}"))

    def remove_selected(self) -> None:
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        if not rows:
            return
        forces = [u for r, u in enumerate(self.doc.scenario.forces) if r not in rows]
        self.doc.push(ChangeForcesCommand(self.doc, forces, "Remove unit(s)"))

    def _edited(self, item: QTableWidgetItem) -> None:
        if self._updating:
            return
        forces = list(self.doc.scenario.forces)
        r, c = item.row(), item.column()
        u = forces[r]
        text = item.text().strip()
        try:
            if c == 0:
                u = replace(u, id=text)
            elif c == 2:
                u = replace(u, area=text or None)
            elif c == 3:
                u = replace(u, level=int(text or 0))
            elif c == 4:
                u = replace(u, entry=text or None)
            elif c == 5:
                u = replace(u, arrives=max(1, int(text or 1)))
            forces[r] = u
            self.doc.push(ChangeForcesCommand(self.doc, forces, f"Change unit {u.id}"))
            self.error.setText("")
        except ValueError as exc:
            self.error.setText(str(exc))
            self.sync()
