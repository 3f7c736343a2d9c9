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
NONE = "(none)"
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
    """One widget, its label, and how to read its model value."""

    def __init__(self, label: str, widget: QWidget, get: Callable[[Scenario], Any]) -> None:
        self.label = label
        self.widget = widget
        self.get = get


class PropertiesPanel(QWidget):
    """The form for the current selection.

    Its fields are built once per *kind* of selection (one area, several areas, with or
    without their building, a feature of a type, units) and read their targets from the
    current selection, so an edit updates them in place. When the kind changes the form is
    replaced, and the old one is detached and deleted later: a rebuild often runs inside a
    signal of one of the old widgets (a field's editingFinished on Tab or on a click
    elsewhere, a check box's toggled), and deleting a widget while its own event handler is
    on the stack crashes Qt.
    """

    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self._updating = False
        self._fields: list[_Field] = []
        self._key: tuple[Any, ...] | None = None
        self._form_host = QWidget()
        self.form = QFormLayout(self._form_host)
        self.error = QLabel("")
        self.error.setStyleSheet("color: #c01010")
        self.error.setWordWrap(True)
        self._lay = QVBoxLayout(self)
        self._lay.setContentsMargins(4, 4, 4, 4)
        self._lay.addWidget(self._form_host)
        self._lay.addWidget(self.error)
        self._lay.addStretch(1)
        doc.selectionChanged.connect(lambda _s: self.refresh())
        doc.scenarioChanged.connect(lambda _o, _n: self.refresh())
        self.rebuild()

    # -- what is selected -----------------------------------------------------------------------
    def _area_ids(self) -> list[str]:
        s = self.doc.scenario
        return [i for i in self.doc.selection.areas if i in s.area_by_id]

    def _building_id(self) -> str | None:
        """The building the selected areas share, if any."""
        s = self.doc.scenario
        bids = {s.area_by_id[i].building for i in self._area_ids()}
        bid = bids.pop() if len(bids) == 1 else None
        return bid if bid in s.building_by_id else None

    def _feature_index(self) -> int | None:
        feats = self.doc.selection.features
        return feats[0] if feats and feats[0] < len(self.doc.scenario.features) else None

    def _unit_ids(self) -> list[str]:
        have = {u.id for u in self.doc.scenario.forces}
        return [u for u in self.doc.selection.units if u in have]

    def _structure(self) -> tuple[Any, ...]:
        """Which fields the form has: equal keys mean the same widgets can show the state."""
        if ids := self._area_ids():
            return ("areas", len(ids) == 1, self._building_id() is not None)
        if (idx := self._feature_index()) is not None:
            return ("feature", self.doc.scenario.features[idx].type)
        if ids := self._unit_ids():
            return ("units", len(ids) == 1)
        return ("none",)

    # -- model -> widgets ---------------------------------------------------------------------
    def refresh(self) -> None:
        """Show the current selection: in place when the fields stay, else a new form."""
        if self._structure() == self._key:
            self.sync()
        else:
            self.rebuild()

    def sync(self) -> None:
        self._updating = True
        try:
            s = self.doc.scenario
            for f in self._fields:
                _set_widget(f.widget, f.get(s))
        finally:
            self._updating = False

    def rebuild(self) -> None:
        self._detach_form()
        self._fields = []
        self.error.setText("")
        self._key = self._structure()
        s = self.doc.scenario
        kind = self._key[0]
        if kind == "areas":
            self._build_areas(s)
        elif kind == "feature":
            self._build_feature(s)
        elif kind == "units":
            self._build_units(s)
        else:
            self.form.addRow(QLabel("Select an area, a feature or a unit to edit it."))
        self.sync()

    def _detach_form(self) -> None:
        """Take the old form out and delete it at the next pass of the event loop; its
        widgets fall silent first, so a focus-out as they hide edits nothing."""
        old = self._form_host
        for w in old.findChildren(QWidget):
            w.blockSignals(True)
        self._lay.removeWidget(old)
        old.hide()
        old.deleteLater()
        self._form_host = QWidget()
        self.form = QFormLayout(self._form_host)
        self._lay.insertWidget(0, self._form_host)

    # -- widgets -> model ---------------------------------------------------------------------
    def _commit(self, targets: list[Target], changes: dict[str, Any], merge: bool = True) -> None:
        if self._updating or not targets:
            return
        try:
            self.doc.push(ChangePropertiesCommand(self.doc, targets, changes, merge=merge))
            self.error.setText("")
        except (ValueError, KeyError, TypeError) as exc:
            self.error.setText(str(exc))
            self.sync()

    def _add(self, label: str, widget: QWidget, get: Callable[[Scenario], Any]) -> None:
        self._fields.append(_Field(label, widget, get))
        self.form.addRow(label, widget)

    def _area_targets(self) -> list[Target]:
        return [("area", i) for i in self._area_ids()]

    def _build_areas(self, s: Scenario) -> None:
        one = len(self._area_ids()) == 1
        title = QLabel()
        self._fields.append(
            _Field(
                "",
                title,
                lambda _sc: (
                    f"<b>{ids[0]}</b>"
                    if len(ids := self._area_ids()) == 1
                    else f"<b>{len(ids)} areas</b>"
                ),
            )
        )
        self.form.addRow(title)

        def common(attr: str) -> Callable[[Scenario], Any]:
            def get(sc: Scenario) -> Any:
                vals = {getattr(sc.area_by_id[i], attr) for i in self._area_ids()}
                v = vals.pop() if len(vals) == 1 else MIXED
                return getattr(v, "value", v)

            return get

        if one:
            idw = QLineEdit()
            idw.editingFinished.connect(lambda: self._rename_area(idw.text().strip()))
            self._add("Id", idw, lambda _sc: (self._area_ids() or [""])[0])
        kind = QComboBox()
        kind.addItems([k.value for k in AreaKind])
        kind.currentTextChanged.connect(
            lambda t: t != MIXED and self._commit(self._area_targets(), {"kind": t}, False)
        )
        self._add("Kind", kind, common("kind"))
        bld = QComboBox()
        bld.currentTextChanged.connect(self._set_building)
        self._add("Building", bld, lambda sc: _Choice(common("building")(sc), _buildings(sc)))
        newb = QPushButton("New building…")
        newb.clicked.connect(lambda: self._new_building(self._area_targets()))
        self.form.addRow("", newb)
        name = QLineEdit()
        name.editingFinished.connect(
            lambda: (
                name.text() != MIXED and self._commit(self._area_targets(), {"name": name.text()})
            )
        )
        self._add("Name", name, common("name"))
        if one:
            poly = QLineEdit()
            poly.setToolTip("Corners as 'x, y; x, y; …' in table cm (x east, y north)")
            poly.editingFinished.connect(lambda: self._commit_polygon(poly.text()))
            self._add(
                "Corners",
                poly,
                lambda sc: (
                    geometry.format_points(sc.area_by_id[ids[0]].polygon)
                    if (ids := self._area_ids())
                    else ""
                ),
            )
        if self._building_id() is not None:
            self._build_building()

    def _set_building(self, text: str) -> None:
        if text == MIXED:
            return
        changes: dict[str, Any] = {"building": None if text == NONE else text}
        if text != NONE:
            changes["kind"] = "building"
        self._commit(self._area_targets(), changes, False)

    def _rename_area(self, new: str) -> None:
        ids = self._area_ids()
        if self._updating or len(ids) != 1 or new == ids[0]:
            return
        self._commit([("area", ids[0])], {"id": new}, False)
        if new in self.doc.scenario.area_by_id and ids[0] not in self.doc.scenario.area_by_id:
            self.doc.select_areas([new])  # the renamed area stays selected

    def _commit_polygon(self, text: str) -> None:
        ids = self._area_ids()
        if self._updating or len(ids) != 1:
            return
        try:
            pts = geometry.parse_points(text)
        except ValueError as exc:
            self.error.setText(str(exc))
            return
        if not geometry.is_valid_polygon(pts):
            self.error.setText("Those corners do not make a valid polygon.")
            return
        if pts != self.doc.scenario.area_by_id[ids[0]].polygon:
            self._commit([("area", ids[0])], {"polygon": pts}, False)

    def _build_building(self) -> None:
        title = QLabel()
        self._fields.append(_Field("", title, lambda _sc: f"<b>Building {self._building_id()}</b>"))
        self.form.addRow(title)

        def t() -> list[Target]:
            bid = self._building_id()
            return [("building", bid)] if bid else []

        def bget(attr: str) -> Callable[[Scenario], Any]:
            def get(sc: Scenario) -> Any:
                bid = self._building_id()
                return getattr(sc.building_by_id[bid], attr) if bid else None

            return get

        name = QLineEdit()
        name.editingFinished.connect(lambda: self._commit(t(), {"name": name.text()}))
        self._add("Building name", name, bget("name"))
        levels = QSpinBox()
        levels.setRange(1, 20)
        levels.setKeyboardTracking(False)  # "12" is one change, not 1 (dropping levels) then 12
        levels.setToolTip("Storeys above ground: 2 means levels 0 and 1")
        levels.valueChanged.connect(lambda v: self._commit(t(), {"levels": v}))
        self._add("Levels", levels, bget("levels"))
        base = QCheckBox("has a basement (level -1)")
        base.toggled.connect(lambda v: self._commit(t(), {"basement": v}, False))
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

    def _build_feature(self, s: Scenario) -> None:
        idx = self._feature_index()
        assert idx is not None
        ftype = s.features[idx].type

        def t() -> list[Target]:
            i = self._feature_index()
            return [] if i is None else [("feature", i)]

        title = QLabel()

        def title_text(sc: Scenario) -> str:
            i = self._feature_index()
            return "" if i is None else f"<b>{ftype.value}</b> in {sc.features[i].area}"

        self._fields.append(_Field("", title, title_text))
        self.form.addRow(title)

        def fget(attr: str) -> Callable[[Scenario], Any]:
            def get(sc: Scenario) -> Any:
                i = self._feature_index()
                if i is None:
                    return None
                v = getattr(sc.features[i], attr)
                return getattr(v, "value", v)

            return get

        area = QLineEdit()
        area.editingFinished.connect(lambda: self._commit(t(), {"area": area.text()}, False))
        self._add("Area", area, fget("area"))
        for attr in _FEATURE_FIELDS[ftype]:
            w: QWidget
            if attr in _RANGES:
                spin = QSpinBox()
                spin.setRange(*_RANGES[attr])
                spin.setKeyboardTracking(False)
                spin.valueChanged.connect(lambda v, a=attr: self._commit(t(), {a: v}))
                w = spin
            elif attr == "material":
                box = QComboBox()
                box.addItems([m.value for m in Material])
                box.currentTextChanged.connect(
                    lambda v: self._commit(t(), {"material": Material(v)}, False)
                )
                w = box
            else:
                line = QLineEdit()
                line.editingFinished.connect(
                    lambda a=attr, w=line: self._commit(t(), {a: w.text()})
                )
                w = line
            self._add(attr.capitalize(), w, fget(attr))

    def _build_units(self, s: Scenario) -> None:
        """Typed fields for one or more units (their start place or arrival)."""
        one = len(self._unit_ids()) == 1

        def targets() -> list[Target]:
            return [("unit", i) for i in self._unit_ids()]

        def title_text(sc: Scenario) -> str:
            ids = self._unit_ids()
            if len(ids) != 1:
                return f"<b>{len(ids)} units</b>"
            first = next(u for u in sc.forces if u.id == ids[0])
            return f"<b>Unit {ids[0]}</b> ({first.type})"

        title = QLabel()
        self._fields.append(_Field("", title, title_text))
        self.form.addRow(title)

        def common(attr: str) -> Callable[[Scenario], Any]:
            def get(sc: Scenario) -> Any:
                ids = self._unit_ids()
                vals = {getattr(u, attr) for u in sc.forces if u.id in ids}
                return vals.pop() if len(vals) == 1 else MIXED

            return get

        if one:
            idw = QLineEdit()
            idw.editingFinished.connect(lambda: self._rename_unit(idw.text().strip()))
            self._add("Id", idw, lambda _sc: (self._unit_ids() or [""])[0])
        utype = QComboBox()
        utype.addItems(list(_unit_types(s)))
        utype.currentTextChanged.connect(
            lambda t: t != MIXED and self._commit(targets(), {"type": t}, False)
        )
        self._add("Type", utype, common("type"))
        area = QLineEdit()
        area.setToolTip("The area where it starts on the table (empty: it arrives at an entry)")
        area.editingFinished.connect(lambda: self._unit_area(targets(), area.text().strip()))
        self._add("Start area", area, common("area"))
        level = QSpinBox()
        level.setRange(-1, 19)
        level.setKeyboardTracking(False)
        level.valueChanged.connect(lambda v: self._commit(targets(), {"level": v}))
        self._add("Level", level, common("level"))
        entry = QComboBox()
        entry.setToolTip("The entry where it arrives instead of starting on the table")
        entry.currentTextChanged.connect(lambda t: self._unit_entry(targets(), t))
        self._add("Arrives at", entry, lambda sc: _Choice(common("entry")(sc), _entries(sc)))
        arrives = QSpinBox()
        arrives.setKeyboardTracking(False)
        arrives.valueChanged.connect(lambda v: self._commit(targets(), {"arrives": v}))
        self._add("On turn", arrives, lambda sc: _Ranged(common("arrives")(sc), 1, sc.turns))

    def _rename_unit(self, new: str) -> None:
        ids = self._unit_ids()
        if self._updating or len(ids) != 1 or new == ids[0]:
            return
        old = ids[0]
        self._commit([("unit", old)], {"id": new}, False)
        if all(u.id != old for u in self.doc.scenario.forces):  # renamed
            self.doc.set_selection(Selection(units=(new,)))

    def _unit_area(self, targets: list[Target], text: str) -> None:
        if text == MIXED or self._updating:
            return
        if text:  # starts on the table: no entry
            self._commit(targets, {"area": text, "entry": None}, False)
        else:
            self.error.setText("Give the unit an area, or choose an entry where it arrives.")
            self.sync()

    def _unit_entry(self, targets: list[Target], text: str) -> None:
        if text in (MIXED, NONE):
            return
        self._commit(targets, {"entry": text, "area": None, "level": 0}, False)


class _Choice:
    """A combo box's value and the choices it offers (they change with the scenario)."""

    def __init__(self, value: Any, choices: list[str]) -> None:
        self.value = value
        self.choices = choices


class _Ranged:
    """A spin box's value and its range (which changes with the scenario)."""

    def __init__(self, value: Any, lo: int, hi: int) -> None:
        self.value = value
        self.lo = lo
        self.hi = max(hi, lo)


def _buildings(s: Scenario) -> list[str]:
    return [NONE, *(b.id for b in s.buildings)]


def _entries(s: Scenario) -> list[str]:
    return [NONE, *(f.name for f in s.features if f.type is FeatureType.ENTRY and f.name)]


def _unit_types(s: Scenario) -> tuple[str, ...]:
    from fireground.engine.core.ruleset import unit_types

    try:
        return unit_types(s.ruleset)
    except ValueError:
        return unit_types()


def _set_widget(w: QWidget, value: Any) -> None:
    w.blockSignals(True)
    try:
        if isinstance(value, _Ranged):
            assert isinstance(w, QSpinBox)
            if (w.minimum(), w.maximum()) != (value.lo, value.hi):
                w.setRange(value.lo, value.hi)
            value = value.value
        if isinstance(value, _Choice):
            assert isinstance(w, QComboBox)
            if [w.itemText(i) for i in range(w.count())] != value.choices:
                w.clear()
                w.addItems(value.choices)
            value = value.value
        if isinstance(w, QLabel):
            w.setText(str(value))
        elif isinstance(w, QLineEdit):
            text = "" if value is None else str(value)
            if w.text() != text:
                w.setText(text)
        elif isinstance(w, QComboBox):
            text = NONE if value is None else str(value)
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
