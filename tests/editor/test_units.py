"""Units on the canvas and in the Properties panel: click a unit's badge, edit it there."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QComboBox, QFormLayout, QLineEdit, QSpinBox, QWidget

from fireground.editor import ops
from fireground.editor.commands import AddFeatureCommand, ChangeForcesCommand
from fireground.editor.scene.items import UnitItem
from fireground.engine.board.model import Feature, FeatureType, ForceUnit


@pytest.fixture
def crewed(window):  # type: ignore[no-untyped-def]
    doc = window.doc
    doc.push(AddFeatureCommand(doc, Feature(FeatureType.ENTRY, "R1", name="east")))
    units = [
        ForceUnit("P1", "medium_pump", area="H1"),
        ForceUnit("P2", "fire_party", area="H1"),
        ForceUnit("L1", "turntable_ladder_unit", entry="east", arrives=3),
    ]
    doc.push(ChangeForcesCommand(doc, units, "crew"))
    doc.undo_stack.clear()
    return window


def badges(win) -> dict[str, UnitItem]:  # type: ignore[no-untyped-def]
    return {m.unit_id: m for m in win.scene.markers if isinstance(m, UnitItem)}


def click_badge(qtbot, win, uid: str, mods=Qt.NoModifier) -> None:  # type: ignore[no-untyped-def]
    it = badges(win)[uid]
    c = it.rect.center()
    p = win.view.mapFromScene(it.pos()) + QPoint(round(c.x()), round(c.y()))
    qtbot.mouseMove(win.view.viewport(), p)
    qtbot.mouseClick(win.view.viewport(), Qt.LeftButton, mods, p)


def field(panel, label: str) -> QWidget:  # type: ignore[no-untyped-def]
    form = panel.form
    for row in range(form.rowCount()):
        lab = form.itemAt(row, QFormLayout.LabelRole)
        if lab is not None and lab.widget() is not None and lab.widget().text() == label:
            return form.itemAt(row, QFormLayout.FieldRole).widget()
    raise KeyError(label)


def test_units_on_the_table_show_as_badges_on_their_level(crewed) -> None:  # type: ignore[no-untyped-def]
    win = crewed
    assert set(badges(win)) == {"P1", "P2"}  # L1 arrives later at an entry
    assert {b.location for b in badges(win).values()} == {("H1", 0)}
    win.doc.set_level(1)
    assert badges(win) == {}


def test_click_a_unit_and_edit_it_in_properties(qtbot, crewed) -> None:  # type: ignore[no-untyped-def]
    win = crewed
    doc = win.doc
    click_badge(qtbot, win, "P1")
    assert doc.selection.units == ("P1",)
    assert badges(win)["P1"].selected and not badges(win)["P2"].selected
    panel = win.properties
    assert isinstance(field(panel, "Type"), QComboBox)
    assert field(panel, "Type").currentText() == "medium_pump"
    assert field(panel, "Start area").text() == "H1"

    level = field(panel, "Level")
    assert isinstance(level, QSpinBox)
    level.setValue(1)
    assert doc.scenario.forces[0] == ForceUnit("P1", "medium_pump", area="H1", level=1)
    assert "P1" not in badges(win)  # it now starts upstairs
    doc.undo_stack.undo()
    assert doc.scenario.forces[0].level == 0 and "P1" in badges(win)

    area = field(panel, "Start area")
    assert isinstance(area, QLineEdit)
    area.selectAll()
    qtbot.keyClicks(area, "H2")
    qtbot.keyClick(area, Qt.Key_Return)
    assert doc.scenario.forces[0].area == "H2"
    assert badges(win)["P1"].location == ("H2", 0)

    area = field(panel, "Start area")
    area.setText("nowhere")
    area.editingFinished.emit()
    assert "no area 'nowhere'" in panel.error.text()
    assert doc.scenario.forces[0].area == "H2"

    field(panel, "Arrives at").setCurrentText("east")
    u = doc.scenario.forces[0]
    assert (u.area, u.entry, u.level) == (None, "east", 0)
    assert "P1" not in badges(win)
    doc.undo_stack.undo()
    assert doc.scenario.forces[0].area == "H2"


def test_rename_keeps_the_unit_selected(qtbot, crewed) -> None:  # type: ignore[no-untyped-def]
    win = crewed
    click_badge(qtbot, win, "P2")
    idw = field(win.properties, "Id")
    idw.setText("P1")  # taken
    idw.editingFinished.emit()
    assert "already used" in win.properties.error.text()
    idw = field(win.properties, "Id")
    idw.setText("FP7")
    idw.editingFinished.emit()
    assert [u.id for u in win.doc.scenario.forces] == ["P1", "FP7", "L1"]
    assert win.doc.selection.units == ("FP7",)
    assert field(win.properties, "Id").text() == "FP7"


def test_several_units_at_once_and_delete(qtbot, crewed) -> None:  # type: ignore[no-untyped-def]
    win = crewed
    doc = win.doc
    click_badge(qtbot, win, "P1")
    click_badge(qtbot, win, "P2", Qt.ShiftModifier)
    assert doc.selection.units == ("P1", "P2")
    assert "2 units" in win.properties.form.itemAt(0).widget().text()
    assert field(win.properties, "Type").currentText() == "(mixed)"
    field(win.properties, "On turn").setValue(4)
    assert [u.arrives for u in doc.scenario.forces] == [4, 4, 3]
    assert doc.undo_stack.count() == 1
    win.view.setFocus()
    qtbot.keyClick(win.view, Qt.Key_Delete)
    assert [u.id for u in doc.scenario.forces] == ["L1"]
    doc.undo_stack.undo()
    assert [u.id for u in doc.scenario.forces] == ["P1", "P2", "L1"]


def test_unit_edits_are_checked_like_the_loader() -> None:
    from editor_helpers import sq

    from fireground.engine.board.model import Area, AreaKind, Building, Scenario

    s = Scenario(
        buildings=(Building("b", levels=2),),
        areas=(Area("A", AreaKind.BUILDING, sq(0, 0), "b"), Area("R", AreaKind.STREET, sq(0, 10))),
        forces=(ForceUnit("U1", "medium_pump", area="A"),),
        turns=10,
    )
    assert ops.set_unit_fields(s, "U1", level=1).forces[0].level == 1
    for bad, msg in (
        ({"level": 2}, "levels 0..1"),
        ({"area": "R", "level": 1}, "levels 0..0"),
        ({"type": "tank"}, "unknown unit type"),
        ({"id": "U 1"}, "not a valid id"),
        ({"arrives": 11}, "turn 1..10"),
        ({"entry": "west", "area": None}, "no entry named 'west'"),
    ):
        with pytest.raises(ValueError, match=msg):
            ops.set_unit_fields(s, "U1", **bad)
