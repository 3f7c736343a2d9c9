"""Forces: the units available to the players, from the ruleset's catalogue."""

from __future__ import annotations

import re
from dataclasses import replace

from PySide6.QtCore import Qt
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

from fireground.engine.board.model import AreaKind, FeatureType, ForceUnit, Scenario
from fireground.engine.core.ruleset import unit_types

from .... import ops
from ....commands import ChangeForcesCommand
from ....document import Document
from ....panels.cells import CheckedDelegate, fill_table, whole_number

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
        # All six columns fit the dock: the short ones sized to their contents, the type and
        # entry names share what is left (elided, whole in the tooltip of a cell's editor).
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(QHeaderView.ResizeToContents)
        head.setSectionResizeMode(1, QHeaderView.Stretch)
        head.setSectionResizeMode(4, QHeaderView.Stretch)
        head.setMinimumSectionSize(28)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.table.setTextElideMode(Qt.ElideRight)
        self.table.itemChanged.connect(self._edited)
        # Each typed cell is checked as it is typed; areas and entries complete.
        self._delegates = {
            0: CheckedDelegate(self._check_id, self._report, None, self.table),
            2: CheckedDelegate(self._check_area, self._report, self._area_ids, self.table),
            3: CheckedDelegate(self._check_level, self._report, None, self.table),
            4: CheckedDelegate(self._check_entry, self._report, self._entry_names, self.table),
            5: CheckedDelegate(self._check_arrives, self._report, None, self.table),
        }
        for col, d in self._delegates.items():
            self.table.setItemDelegateForColumn(col, d)
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

    # -- what a typed cell may hold ------------------------------------------------------------
    def _report(self, why: str) -> None:
        self.error.setText(why)

    def _area_ids(self) -> list[str]:
        return [a.id for a in self.doc.scenario.areas if a.kind is not AreaKind.WATER]

    def _entry_names(self) -> list[str]:
        s = self.doc.scenario
        return [f.name for f in s.features if f.type is FeatureType.ENTRY and f.name]

    def _unit(self, row: int) -> ForceUnit | None:
        forces = self.doc.scenario.forces
        return forces[row] if 0 <= row < len(forces) else None

    def _check_id(self, row: int, text: str) -> str | None:
        if not re.fullmatch(r"[A-Za-z0-9_-]+", text):
            return "A unit id is letters, digits, '-' and '_'."
        if any(u.id == text for i, u in enumerate(self.doc.scenario.forces) if i != row):
            return f"Unit id {text} is already used."
        return None

    def _check_area(self, row: int, text: str) -> str | None:
        u = self._unit(row)
        if not text:
            if u is not None and u.entry:
                return None
            return "Give the area where it starts, or an entry where it arrives."
        a = self.doc.scenario.area_by_id.get(text)
        if a is None:
            return f"There is no area {text}."
        if a.kind is AreaKind.WATER:
            return f"{text} is water: a unit cannot start there."
        return None

    def _check_level(self, row: int, text: str) -> str | None:
        u = self._unit(row)
        if u is None or u.area is None:
            return None if text in ("", "0") else "Only a unit that starts in an area has a level."
        lv = self.doc.scenario.levels_of(u.area)
        why = whole_number(text or "0", -1, 19, "Level")
        if why is None and int(text or 0) not in lv:
            return f"{u.area} has levels {lv[0]}..{lv[-1]}."
        return why

    def _check_entry(self, row: int, text: str) -> str | None:
        u = self._unit(row)
        if not text:
            if u is not None and u.area:
                return None
            return "Give an entry where it arrives, or the area where it starts."
        if text not in self._entry_names():
            names = ", ".join(self._entry_names()) or "none yet: place one with the Entry tool"
            return f"There is no entry {text!r} (entries: {names})."
        return None

    def _check_arrives(self, row: int, text: str) -> str | None:
        return whole_number(text, 1, self.doc.scenario.turns, "Arrives on turn")

    def _edited(self, item: QTableWidgetItem) -> None:
        if self._updating:
            return
        forces = list(self.doc.scenario.forces)
        r, c = item.row(), item.column()
        u = forces[r]
        text = item.text().strip()
        checks = {0: self._check_id, 2: self._check_area, 3: self._check_level}
        checks.update({4: self._check_entry, 5: self._check_arrives})
        why = checks[c](r, text) if c in checks else None
        if why is not None:  # typed past the cell's editor (or set in code): refuse it
            self.error.setText(why)
            self.sync()
            return
        try:
            if c == 0:
                u = replace(u, id=text)
            elif c == 2:  # starts in an area: it does not also arrive at an entry
                level = u.level if text and u.level in self.doc.scenario.levels_of(text) else 0
                u = replace(u, area=text or None, level=level, entry=u.entry if not text else None)
            elif c == 3:
                u = replace(u, level=int(text or 0))
            elif c == 4:  # arrives at an entry: it does not also start in an area
                u = replace(u, entry=text or None, area=u.area if not text else None)
                u = replace(u, level=u.level if u.area else 0)
            elif c == 5:
                u = replace(u, arrives=max(1, int(text or 1)))
            forces[r] = u
            self.doc.push(ChangeForcesCommand(self.doc, forces, f"Change unit {u.id}"))
            self.error.setText("")
        except ValueError as exc:
            self.error.setText(str(exc))
            self.sync()
