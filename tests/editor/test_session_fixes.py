"""What a new user's session found wrong (issue 13, items 3-8), driven with real keys and
clicks. Each test failed before its fix."""

from __future__ import annotations

from editor_helpers import click
from PySide6.QtCore import Qt

from fireground.editor.scene.items import FeatureItem
from fireground.engine.scenario import FeatureType, Material


# -- 3. the Store tool places what its box shows; stores and open water look different -----
def test_the_store_tool_places_the_material_its_box_shows(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    qtbot.keyClick(win.view, Qt.Key_O)
    box = win.options.material
    qtbot.waitUntil(box.isVisible)
    assert box.currentText() == "wood"
    click(qtbot, win, 5, 15)  # H1
    assert win.doc.scenario.features[-1].material is Material.WOOD
    box.setFocus(Qt.TabFocusReason)
    qtbot.keyClick(box, Qt.Key_Home)  # the first material
    assert box.currentText() == "oil"
    click(qtbot, win, 15, 15)  # H2
    assert win.doc.scenario.features[-1].material is Material.OIL
    # The tool remembers: back to it later, the box still shows oil.
    qtbot.keyClick(win.view, Qt.Key_V)
    qtbot.keyClick(win.view, Qt.Key_O)
    assert box.currentText() == "oil"


def test_a_wood_store_and_open_water_have_different_badges(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    qtbot.keyClick(win.view, Qt.Key_O)
    click(qtbot, win, 5, 15)  # a wood store in H1
    qtbot.keyClick(win.view, Qt.Key_W)
    click(qtbot, win, 5, 5)  # open water in the street
    items = {f.feature.type: f for f in win.scene.feature_items if isinstance(f, FeatureItem)}
    store, water = items[FeatureType.STORE], items[FeatureType.WATER]
    assert (store.glyph, store.filled) != (water.glyph, water.filled)
    assert store.glyph != water.glyph


# -- 4. tool keys do not steal typing from tables and fields -------------------------------
def _cell_click(qtbot, table, row: int, col: int) -> None:  # type: ignore[no-untyped-def]
    rect = table.visualRect(table.model().index(row, col))
    qtbot.mouseClick(table.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())


def test_typing_in_a_table_cell_is_not_a_tool_key(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.forces_dock.raise_()
    win.doc.select_areas(["R1"])
    qtbot.mouseClick(_button(win.forces, "Add"), Qt.LeftButton)
    table = win.forces.table
    _cell_click(qtbot, table, 0, 2)  # the Area cell, selected but not yet editing
    assert win.view.tool is win.toolbox.select
    qtbot.keyClick(table, Qt.Key_Delete)  # Del in the table does not delete R1 on the map
    assert "R1" in win.doc.scenario.area_by_id
    for ch in "H2":  # H is the Hydrant tool's key
        qtbot.keyClick(win.focusWidget(), ch)
    qtbot.keyClick(win.focusWidget(), Qt.Key_Return)
    qtbot.wait(50)  # the cell's editor commits on the next pass of the event loop
    assert win.view.tool is win.toolbox.select
    assert win.doc.scenario.forces[0].area == "H2"
    # The keys still pick tools on the map.
    qtbot.keyClick(win.view, Qt.Key_H)
    assert win.view.tool is win.toolbox.place[FeatureType.HYDRANT]


def _button(panel, text: str):  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QPushButton

    return next(b for b in panel.findChildren(QPushButton) if b.text() == text)


# -- 6. Del works whatever tool is active ----------------------------------------------------
def test_del_deletes_the_selection_with_any_tool(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    import sys

    win = window
    errors: list[BaseException] = []
    old_hook = sys.excepthook
    sys.excepthook = lambda _t, e, _tb: errors.append(e)  # a slot's exception lands here
    try:
        win.doc.select_areas(["H1"])
        qtbot.keyClick(win.view, Qt.Key_R)  # the rectangle tool
        qtbot.keyClick(win.view, Qt.Key_Delete)
    finally:
        sys.excepthook = old_hook
    assert not errors
    assert "H1" not in win.doc.scenario.area_by_id
