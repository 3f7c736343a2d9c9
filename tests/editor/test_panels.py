"""Panels bound to the document both ways: change one side, check the other."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt

from fireground.editor.commands import ChangeSettingsCommand
from fireground.engine.board.model import FeatureType, Wind


def test_properties_edit_the_selected_areas_together(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    doc = win.doc
    doc.select_areas(["H1", "H2"])
    panel = win.properties
    name = next(f.widget for f in panel._fields if f.widget.__class__.__name__ == "QLineEdit")
    name.setFocus()
    qtbot.keyClicks(name, "Terrace")
    qtbot.keyClick(name, Qt.Key_Return)
    assert {doc.scenario.area(i).name for i in ("H1", "H2")} == {"Terrace"}
    doc.undo_stack.undo()
    assert name.text() == ""  # the model's undo shows in the widget


def test_typed_corners_reshape_an_area(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.doc.select_areas(["R1"])
    corners = next(
        f.widget for f in win.properties._fields if f.widget.toolTip().startswith("Corners")
    )
    corners.setText("0, 0; 20, 0; 20, 8; 0, 8")
    corners.editingFinished.emit()
    assert win.doc.scenario.area("R1").polygon == ((0, 0), (20, 0), (20, 8), (0, 8))
    corners.setText("0, 0; 20, oops")
    corners.editingFinished.emit()
    assert "oops" in win.properties.error.text()


def test_building_levels_spin_and_ghosting(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    doc = win.doc
    doc.select_areas(["H1"])
    levels = next(
        f.widget for f in win.properties._fields if f.widget.__class__.__name__ == "QSpinBox"
    )
    levels.setValue(3)
    assert doc.scenario.building_by_id["house"].levels == 3
    doc.set_level(2)
    assert win.scene.area_items["R1"].ghost and not win.scene.area_items["H1"].ghost
    # The stairwell of H1 shows on every level H1 has.
    assert any(f.feature.type is FeatureType.STAIRWELL for f in win.scene.feature_items)


def test_wind_rose_sets_the_wind(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    rose = win.scenario_panel.rose
    win.scenario_dock.raise_()
    rose.resize(120, 120)
    c = QPointF(60, 60)
    # West is left of the centre.
    qtbot.mouseClick(rose, Qt.LeftButton, pos=(c + QPointF(-45, 0)).toPoint())
    assert win.doc.scenario.wind == Wind("W", False)
    win.scenario_panel.strong.setChecked(True)
    assert win.doc.scenario.wind == Wind("W", True)
    win.doc.push(ChangeSettingsCommand(win.doc, merge=False, wind=Wind("NE", False)))
    assert rose.value == "NE" and not win.scenario_panel.strong.isChecked()


def test_forces_add_a_unit_at_the_selected_area(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.doc.select_areas(["R1"])
    panel = win.forces
    panel.type_box.setCurrentText("fire_party")
    qtbot.mouseClick(_button(panel, "Add"), Qt.LeftButton)
    (unit,) = win.doc.scenario.forces
    assert (unit.type, unit.area) == ("fire_party", "R1")
    item = panel.table.item(0, 5)
    item.setText("3")
    assert win.doc.scenario.forces[0].arrives == 3


def test_place_a_hydrant_and_refuse_one_in_a_house(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    from test_canvas import click

    win = window
    n = len(win.doc.scenario.features)
    win.toolbox.actions["Hydrant"].trigger()
    win.options.value.setValue(9)
    click(qtbot, win, 5, 15)  # H1 is a house
    assert len(win.doc.scenario.features) == n
    click(qtbot, win, 15, 5)
    f = win.doc.scenario.features[-1]
    assert (f.type, f.area, f.pressure) == (FeatureType.HYDRANT, "R1", 9)


def test_fire_brush_paints_on_the_current_level(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    from test_canvas import at

    win = window
    doc = win.doc
    doc.set_level(1)
    win.toolbox.actions["Fire"].trigger()
    win.options.value.setValue(3)
    vp = win.view.viewport()
    qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at(win, 5, 15))
    qtbot.mouseMove(vp, at(win, 15, 15))
    qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, at(win, 15, 15))
    fires = {(v.area, v.level, v.value) for v in doc.scenario.start.fires}
    assert fires == {("H1", 1, 3), ("H2", 1, 3)}
    assert doc.undo_stack.count() == 1  # one stroke, one undo step
    shown = {(m.location, m.text()) for m in win.scene.markers if m.role == "fire"}
    assert shown == {(("H1", 1), "3"), (("H2", 1), "3")}


def _button(panel, text: str):  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QPushButton

    return next(b for b in panel.findChildren(QPushButton) if b.text() == text)


def test_overlays_draw_adjacency_reach_and_wind(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    from editor_helpers import sq
    from PySide6.QtCore import Qt as _Qt

    from fireground.editor.commands import AddAreasCommand
    from fireground.engine.board.model import Area, AreaKind

    win = window
    doc = win.doc
    doc.push(AddAreasCommand(doc, [Area("FAR", AreaKind.OPEN, sq(100, 100))]))
    doc.push(ChangeSettingsCommand(doc, merge=False, wind=Wind("SW", True)))
    for box in win.overlays.boxes.values():
        box.setChecked(True)
    items = win.scene.overlay_items
    tips = [it.toolTip() for it in items]
    assert any(t.startswith("FAR: no water") for t in tips)
    assert any(t.startswith("H1:") and "hose length" in t for t in tips)
    hatched = next(it for it in items if it.toolTip().startswith("FAR"))
    assert hatched.brush().style() == _Qt.BDiagPattern
    assert any(t == "wind from SW (strong)" for t in tips)
    for box in win.overlays.boxes.values():
        box.setChecked(False)
    assert not win.scene.overlay_items
