"""Properties: typed fields for the selected areas (several at once), their building, or
the selected feature. Model -> widget updates are guarded so they never push commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from fireground.engine.board.model import AreaKind, Building, FeatureType, Material, Scenario

from .. import geometry
from ..commands import AddBuildingCommand, ChangePropertiesCommand
from ..commands.properties import Target
from ..document import Document, Selection

MIXED = "(mixed)"
_FEATURE_FIELDS: dict[FeatureType, tuple[str, ...]] = {
    FeatureType.STAIRWELL: (),
    FeatureType.STORE: ("level", "material"),
    FeatureType.HYDRANT: ("pressure",),
    FeatureType.WATER: ("points", "name"),
    FeatureType.OCCUPANTS: ("level", "count"),
    FeatureType.ENTRY: ("name",),
    FeatureType.LABEL: ("text",),
}
_RANGES = {"level": (-1, 19), "pressure": (1, 20), "points": (1, 100000), "count": (1, 999)}


class _Field:
    """One widget, how to read its model value, and how to write it back."""

    def __init__(self, widget: QWidget, get: Callable[[Scenario], Any]) -> None:
        self.widget = widget
        self.get = get


class PropertiesPanel(QWidget):
    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self._updating = False
        self._fields: list[_Field] = []
        self._form_host = QWidget()
        self.form = QFormLayout(self._form_host)
        self.error = QLabel("")
        self.error.setStyleSheet("color: #c01010")
        self.error.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self._form_host)
        lay.addWidget(self.error)
        lay.addStretch(1)
        doc.selectionChanged.connect(lambda _s: self.rebuild())
        doc.scenarioChanged.connect(self._on_scenario_changed)
        self.rebuild()

    # -- model -> widgets ---------------------------------------------------------------------
    def _on_scenario_changed(self, old: Scenario, new: Scenario) -> None:
        if new.buildings is not old.buildings:
            self.rebuild()
        else:
            self.sync()

    def sync(self) -> None:
        self._updating = True
        try:
            s = self.doc.scenario
            for f in self._fields:
                _set_widget(f.widget, f.get(s))
        finally:
            self._updating = False

    def rebuild(self) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self._fields = []
        self.error.setText("")
        sel = self.doc.selection
        s = self.doc.scenario
        if sel.areas:
            self._build_areas(s, sel)
        elif sel.features:
            self._build_feature(s, sel.features[0])
        elif sel.units:
            self._build_units(s, sel)
        else:
            self.form.addRow(QLabel("Select an area, a feature or a unit to edit it."))
        self.sync()

    # -- widgets -> model ---------------------------------------------------------------------
    def _commit(self, targets: list[Target], changes: dict[str, Any], merge: bool = True) -> None:
        if self._updating:
            return
        try:
            self.doc.push(ChangePropertiesCommand(self.doc, targets, changes, merge=merge))
            self.error.setText("")
        except (ValueError, KeyError, TypeError) as exc:
            self.error.setText(str(exc))
            self.sync()

    def _add(self, label: str, widget: QWidget, get: Callable[[Scenario], Any]) -> None:
        self._fields.append(_Field(widget, get))
        self.form.addRow(label, widget)

    def _build_areas(self, s: Scenario, sel: Selection) -> None:
        ids = [i for i in sel.areas if i in s.area_by_id]
        targets: list[Target] = [("area", i) for i in ids]
        one = len(ids) == 1
        self.form.addRow(QLabel(f"<b>{ids[0] if one else f'{len(ids)} areas'}</b>"))

        def common(attr: str) -> Callable[[Scenario], Any]:
            def get(sc: Scenario) -> Any:
                vals = {getattr(sc.area_by_id[i], attr) for i in ids if i in sc.area_by_id}
                v = vals.pop() if len(vals) == 1 else MIXED
                return getattr(v, "value", v)

            return get

        if one:
            idw = QLineEdit()
            idw.editingFinished.connect(
                lambda: idw.text() != ids[0] and self._commit(targets, {"id": idw.text()}, False)
            )
            self._add("Id", idw, lambda sc: ids[0])
        kind = QComboBox()
        kind.addItems([k.value for k in AreaKind])
        kind.currentTextChanged.connect(
            lambda t: t != MIXED and self._commit(targets, {"kind": t}, False)
        )
        self._add("Kind", kind, common("kind"))
        bld = QComboBox()
        bld.addItems(["(none)", *[b.id for b in s.buildings]])
        bld.currentTextChanged.connect(
            lambda t: (
                t not in (MIXED,)
                and self._commit(
                    targets,
                    {
                        "building": None if t == "(none)" else t,
                        **({"kind": "building"} if t != "(none)" else {}),
                    },
                    False,
                )
            )
        )
        self._add("Building", bld, lambda sc: common("building")(sc) or "(none)")
        newb = QPushButton("New building…")
        newb.clicked.connect(lambda: self._new_building(targets))
        self.form.addRow("", newb)
        name = QLineEdit()
        name.editingFinished.connect(
            lambda: name.text() != MIXED and self._commit(targets, {"name": name.text()})
        )
        self._add("Name", name, common("name"))
        if one:
            poly = QLineEdit()
            poly.setToolTip("Corners as 'x, y; x, y; …' in table cm (x east, y north)")
            poly.editingFinished.connect(lambda: self._commit_polygon(ids[0], poly.text()))
            self._add(
                "Corners",
                poly,
                lambda sc: (
                    geometry.format_points(sc.area_by_id[ids[0]].polygon)
                    if ids[0] in sc.area_by_id
                    else ""
                ),
            )
        # The building of the selection, when they share one.
        bids = {s.area_by_id[i].building for i in ids}
        if len(bids) == 1 and (bid := bids.pop()) and bid in s.building_by_id:
            self._build_building(bid)

    def _commit_polygon(self, area_id: str, text: str) -> None:
        if self._updating:
            return
        try:
            pts = geometry.parse_points(text)
        except ValueError as exc:
            self.error.setText(str(exc))
            return
        if not geometry.is_valid_polygon(pts):
            self.error.setText("Those corners do not make a valid polygon.")
            return
        if pts != self.doc.scenario.area_by_id[area_id].polygon:
            self._commit([("area", area_id)], {"polygon": pts}, False)

    def _build_building(self, bid: str) -> None:
        self.form.addRow(QLabel(f"<b>Building {bid}</b>"))
        t: list[Target] = [("building", bid)]

        def bget(attr: str) -> Callable[[Scenario], Any]:
            return lambda sc: (
                getattr(sc.building_by_id[bid], attr) if bid in sc.building_by_id else None
            )

        name = QLineEdit()
        name.editingFinished.connect(lambda: self._commit(t, {"name": name.text()}))
        self._add("Building name", name, bget("name"))
        levels = QSpinBox()
        levels.setRange(1, 20)
        levels.valueChanged.connect(lambda v: self._commit(t, {"levels": v}))
        self._add("Levels", levels, bget("levels"))
        base = QCheckBox("has a basement (level -1)")
        base.toggled.connect(lambda v: self._commit(t, {"basement": v}, False))
        self._add("Basement", base, bget("basement"))

    def _new_building(self, targets: list[Target]) -> None:
        from .. import ops

        suggestion = ops.next_id(self.doc.scenario.building_by_id, "building")
        text, ok = QInputDialog.getText(self, "New building", "Building id:", text=suggestion)
        if not ok or not text.strip():
            return
        try:
            self.doc.undo_stack.beginMacro(f"New building {text.strip()}")
            self.doc.push(AddBuildingCommand(self.doc, Building(id=text.strip(), levels=2)))
            self.doc.push(
                ChangePropertiesCommand(
                    self.doc, targets, {"kind": "building", "building": text.strip()}, merge=False
                )
            )
        except ValueError as exc:
            self.error.setText(str(exc))
        finally:
            self.doc.undo_stack.endMacro()

    def _build_feature(self, s: Scenario, index: int) -> None:
        if index >= len(s.features):
            return
        f = s.features[index]
        t: list[Target] = [("feature", index)]
        self.form.addRow(QLabel(f"<b>{f.type.value}</b> in {f.area}"))

        def fget(attr: str) -> Callable[[Scenario], Any]:
            def get(sc: Scenario) -> Any:
                if index >= len(sc.features):
                    return None
                v = getattr(sc.features[index], attr)
                return getattr(v, "value", v)

            return get

        area = QLineEdit()
        area.editingFinished.connect(lambda: self._commit(t, {"area": area.text()}, False))
        self._add("Area", area, fget("area"))
        for attr in _FEATURE_FIELDS[f.type]:
            if attr in _RANGES:
                w = QSpinBox()
                w.setRange(*_RANGES[attr])
                w.valueChanged.connect(lambda v, a=attr: self._commit(t, {a: v}))
            elif attr == "material":
                w = QComboBox()
                w.addItems([m.value for m in Material])
                w.currentTextChanged.connect(
                    lambda v: self._commit(t, {"material": Material(v)}, False)
                )
            else:
                w = QLineEdit()
                w.editingFinished.connect(lambda a=attr, w=w: self._commit(t, {a: w.text()}))
            self._add(attr.capitalize(), w, fget(attr))

    def _build_units(self, s: Scenario, sel: Selection) -> None:
        """Typed fields for one or more units (their start place or arrival)."""
        ids = [u for u in sel.units if any(f.id == u for f in s.forces)]
        if not ids:
            return
        one = len(ids) == 1
        targets: list[Target] = [("unit", i) for i in ids]
        first = next(u for u in s.forces if u.id == ids[0])
        title = f"<b>Unit {ids[0]}</b> ({first.type})" if one else f"<b>{len(ids)} units</b>"
        self.form.addRow(QLabel(title))

        def common(attr: str) -> Callable[[Scenario], Any]:
            def get(sc: Scenario) -> Any:
                vals = {getattr(u, attr) for u in sc.forces if u.id in ids}
                return vals.pop() if len(vals) == 1 else MIXED

            return get

        if one:
            idw = QLineEdit()
            idw.editingFinished.connect(lambda: self._rename_unit(ids[0], idw.text().strip()))
            self._add("Id", idw, lambda sc: ids[0])
        utype = QComboBox()
        utype.addItems(list(_unit_types(s)))
        utype.currentTextChanged.connect(
            lambda t: t != MIXED and self._commit(targets, {"type": t}, False)
        )
        self._add("Type", utype, common("type"))
        area = QLineEdit()
        area.setToolTip("The area where it starts on the table (empty: it arrives at an entry)")
        area.editingFinished.connect(lambda: self._unit_area(targets, area.text().strip()))
        self._add("Start area", area, common("area"))
        level = QSpinBox()
        level.setRange(-1, 19)
        level.valueChanged.connect(lambda v: self._commit(targets, {"level": v}))
        self._add("Level", level, common("level"))
        entry = QComboBox()
        names = [f.name for f in s.features if f.type is FeatureType.ENTRY and f.name]
        entry.addItems(["(none)", *names])
        entry.setToolTip("The entry where it arrives instead of starting on the table")
        entry.currentTextChanged.connect(lambda t: self._unit_entry(targets, t))
        self._add("Arrives at", entry, common("entry"))
        arrives = QSpinBox()
        arrives.setRange(1, max(s.turns, 1))
        arrives.valueChanged.connect(lambda v: self._commit(targets, {"arrives": v}))
        self._add("On turn", arrives, common("arrives"))

    def _rename_unit(self, old: str, new: str) -> None:
        if self._updating or new == old:
            return
        self._commit([("unit", old)], {"id": new}, False)
        if all(u.id != old for u in self.doc.scenario.forces):  # renamed
            self.doc.set_selection(Selection(units=(new,)))

    def _unit_area(self, targets: list[Target], text: str) -> None:
        if text == MIXED:
            return
        if text:  # starts on the table: no entry
            self._commit(targets, {"area": text, "entry": None}, False)
        else:
            self.error.setText("Give the unit an area, or choose an entry where it arrives.")
            self.sync()

    def _unit_entry(self, targets: list[Target], text: str) -> None:
        if text in (MIXED, "(none)"):
            return
        self._commit(targets, {"entry": text, "area": None, "level": 0}, False)


def _unit_types(s: Scenario) -> tuple[str, ...]:
    from fireground.engine.core.ruleset import unit_types

    try:
        return unit_types(s.ruleset)
    except ValueError:
        return unit_types()


def _set_widget(w: QWidget, value: Any) -> None:
    w.blockSignals(True)
    try:
        if isinstance(w, QLineEdit):
            text = "" if value is None else str(value)
            if w.text() != text:
                w.setText(text)
        elif isinstance(w, QComboBox):
            text = "(none)" if value is None else str(value)
            if w.findText(text) < 0:
                w.addItem(text)
            w.setCurrentText(text)
        elif isinstance(w, QSpinBox):
            if isinstance(value, int):
                w.setValue(value)
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(value) and value != MIXED)
    finally:
        w.blockSignals(False)
