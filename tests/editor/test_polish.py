"""Rough edges found by designers: every tool in reach at 1200 px, typed coordinates while
drawing, the test turn opening at the last turn played, objective ids from a list."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QComboBox, QPushButton, QToolButton

from fireground.editor.commands import PaintStartCommand
from fireground.editor.scene.coords import to_scene


def test_every_tool_is_reachable_at_1200_px(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    assert win.width() == 1200
    bars = [win.findChild(type(win.options), "options"), *win._toolbars]
    for bar in bars:
        ext = bar.findChild(QToolButton, "qt_toolbar_ext_button")
        assert ext is None or not ext.isVisible(), f"{bar.objectName()} overflows"
    tools_bar = win._toolbars[0]
    inside = QRect(0, 0, tools_bar.width(), tools_bar.height())
    labels = [label for label, _tool, _key in win.toolbox.all_tools()]
    assert set(labels) == set(win.toolbox.actions)
    for label in labels:
        button = tools_bar.widgetForAction(win.toolbox.actions[label])
        assert button is not None and button.isVisible(), label
        assert inside.contains(button.geometry()), label
    # The last tool, once hidden behind the overflow menu, is one click away.
    craters = tools_bar.widgetForAction(win.toolbox.actions["Craters"])
    qtbot.mouseClick(craters, Qt.LeftButton)
    assert win.view.tool is win.toolbox.brushes["craters"]


def test_run_n_opens_the_events_at_the_last_turn(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    doc = win.doc
    doc.push(PaintStartCommand(doc, "fire", [("H1", 0), ("H1", 1), ("H2", 1), ("R1", 0)], 4))
    win.turn_dock.raise_()
    panel = win.test_turn
    panel.seed.setValue(3)
    panel.n.setValue(4)
    qtbot.mouseClick(panel.run_btn, Qt.LeftButton)
    events = panel.events
    heads = [
        events.item(i) for i in range(events.count()) if events.item(i).text().startswith("Turn")
    ]
    assert [h.text().split(":")[0] for h in heads] == [f"Turn {i}" for i in range(1, 5)]
    last = heads[-1]
    assert events.currentItem() is last
    # The last turn's heading is in view and its rolls show; earlier turns are folded.
    assert events.viewport().rect().intersects(events.visualItemRect(last))
    rows = range(events.row(last) + 1, events.count())
    assert all(not events.item(r).isHidden() for r in rows)
    first_rows = range(events.row(heads[0]) + 1, events.row(heads[1]))
    assert len(first_rows) > 0 and all(events.item(r).isHidden() for r in first_rows)
    assert heads[0].text().endswith("▸") and last.text().endswith("▾")
    # Clicking a folded heading unfolds it.
    events.scrollToItem(heads[0])
    qtbot.mouseClick(events.viewport(), Qt.LeftButton, pos=events.visualItemRect(heads[0]).center())
    assert all(not events.item(r).isHidden() for r in first_rows)
    assert heads[0].text().endswith("▾")


def _type_point(qtbot, entry, text: str) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClicks(entry, text)
    qtbot.keyClick(entry, Qt.Key_Return)


def test_draw_a_polygon_by_typed_coordinates(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    before = {a.id for a in win.doc.scenario.areas}
    win.view.setFocus()
    qtbot.keyClick(win.view, Qt.Key_P)
    assert win.view.tool is win.toolbox.polygon
    entry = win.options.typed
    qtbot.waitUntil(entry.isVisible)  # the options bar lays out on the next event pass
    qtbot.keyClick(win.view, ":")
    assert entry.hasFocus()
    # Off the grid on purpose: typed points are taken exactly, never snapped.
    corners = [(30.3, 0.7), (41.25, 0.7), (41.25, 12.9), (30.3, 15.05)]
    _type_point(qtbot, entry, "30.3, 0.7")
    _type_point(qtbot, entry, "@10.95, 0")  # relative to the corner before
    _type_point(qtbot, entry, "41.25, 12.9; 99, 99")  # two at once
    qtbot.keyClick(entry, Qt.Key_Backspace)  # on the empty field: drop the last corner
    assert win.toolbox.polygon.points == corners[:-1]
    assert win.tool_label.text().endswith("3 point(s)")
    # The point being typed is previewed before Enter.
    qtbot.keyClicks(entry, "30.3, 15.05")
    path = win.toolbox.polygon._preview.item.path()
    last = path.elementAt(path.elementCount() - 2)  # the one before closing the ring
    assert (last.x, last.y) == (to_scene(corners[-1]).x(), to_scene(corners[-1]).y())
    qtbot.keyClick(entry, Qt.Key_Return)
    qtbot.keyClick(entry, Qt.Key_Return)  # Enter on an empty field finishes the area
    (new,) = [a for a in win.doc.scenario.areas if a.id not in before]
    assert new.polygon == tuple(corners)
    assert win.toolbox.polygon.points == []
    win.doc.undo_stack.undo()
    assert {a.id for a in win.doc.scenario.areas} == before


def test_typed_rectangle_and_bad_input(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    before = {a.id for a in win.doc.scenario.areas}
    win.view.setFocus()
    qtbot.keyClick(win.view, Qt.Key_R)
    entry = win.options.typed
    qtbot.waitUntil(entry.isVisible)
    qtbot.keyClick(win.view, ":")
    assert entry.hasFocus() and "w, h" in entry.placeholderText()
    _type_point(qtbot, entry, "30, 0, 12.5")  # three numbers: refused, nothing added
    assert {a.id for a in win.doc.scenario.areas} == before
    assert "x, y, w, h" in win.statusBar().currentMessage()
    entry.clear()
    _type_point(qtbot, entry, "30, 0.5, 12.5, 7.25")
    (new,) = [a for a in win.doc.scenario.areas if a.id not in before]
    assert new.polygon == ((30, 0.5), (42.5, 0.5), (42.5, 7.75), (30, 7.75))
    # Esc hands the keys back to the map.
    qtbot.keyClick(entry, Qt.Key_Escape)
    assert win.view.hasFocus()


def test_objective_ids_are_chosen_from_the_existing_ones(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.scenario_dock.raise_()
    panel = win.scenario_panel
    panel.obj_type.setCurrentText("protect")
    qtbot.mouseClick(
        next(b for b in panel.findChildren(QPushButton) if b.text() == "Add objective"),
        Qt.LeftButton,
    )
    (obj,) = win.doc.scenario.objectives
    assert obj.building == "house" and obj.area is None
    table = panel.objectives
    scroll = win.scenario_dock.widget()
    scroll.ensureWidgetVisible(table)
    qtbot.waitUntil(table.isVisible)

    def open_editor(col: int) -> QComboBox:
        cell = table.visualItemRect(table.item(0, col)).center()
        qtbot.mouseClick(table.viewport(), Qt.LeftButton, pos=cell)
        qtbot.mouseDClick(table.viewport(), Qt.LeftButton, pos=cell)
        qtbot.waitUntil(lambda: table.viewport().findChild(QComboBox) is not None)
        box = table.viewport().findChild(QComboBox)
        assert box is not None
        return box

    box = open_editor(1)
    assert [box.itemText(i) for i in range(box.count())] == ["", "house"]
    assert box.currentText() == "house"
    qtbot.keyClick(box, Qt.Key_Escape)  # nothing changed
    assert win.doc.scenario.objectives[0].building == "house"
    qtbot.waitUntil(lambda: table.viewport().findChild(QComboBox) is None)

    box = open_editor(2)
    assert [box.itemText(i) for i in range(box.count())] == ["", "H1", "H2", "R1"]
    qtbot.keyClick(box, Qt.Key_Down)  # "" → H1, stored at once
    qtbot.keyClick(box, Qt.Key_Return)
    assert win.doc.scenario.objectives[0].area == "H1"
    assert table.item(0, 2).text() == "H1"
    win.doc.undo_stack.undo()
    assert win.doc.scenario.objectives[0].area is None
