"""The canvas driven with real mouse and key events (headless)."""

from __future__ import annotations

import argparse
from pathlib import Path

from editor_helpers import sq
from PySide6.QtCore import QPoint, QPointF, Qt

from fireground.editor.commands import AddAreasCommand, PaintStartCommand
from fireground.editor.scene.items import MarkerText
from fireground.engine.board.graph import build_graph
from fireground.engine.board.model import Area, AreaKind
from fireground.engine.scenario.io import load_scenario


def at(win, x: float, y: float) -> QPoint:  # type: ignore[no-untyped-def]
    """Viewport pixel of a map point (table cm)."""
    return win.view.mapFromScene(QPointF(x, -y))


def click(qtbot, win, x: float, y: float, button=Qt.LeftButton, mods=Qt.NoModifier) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseMove(win.view.viewport(), at(win, x, y))
    qtbot.mouseClick(win.view.viewport(), button, mods, at(win, x, y))


def test_draw_polygon_and_finish_with_enter(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.toolbox.actions["Polygon"].trigger()
    before = set(win.doc.scenario.area_by_id)
    for x, y in ((0, -20), (20, -20), (20, -10), (0, -10)):
        click(qtbot, win, x + 0.1, y - 0.1)  # the grid snaps to whole 10 cm
    assert win.toolbox.polygon.state.value == "drawing"
    qtbot.keyClick(win.view, Qt.Key_Backspace)  # drop the last point …
    click(qtbot, win, 0.1, -10.1)  # … and put it back
    qtbot.keyClick(win.view, Qt.Key_Return)
    (new,) = set(win.doc.scenario.area_by_id) - before
    a = win.doc.scenario.area(new)
    assert a.polygon == ((0, -20), (20, -20), (20, -10), (0, -10))
    assert a.kind is AreaKind.STREET
    assert win.toolbox.polygon.state.value == "idle"
    assert new in win.scene.area_items
    qtbot.keyClick(win.view, Qt.Key_Z, Qt.ControlModifier)
    assert new not in win.doc.scenario.area_by_id


def test_escape_cancels_a_polygon(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.toolbox.actions["Polygon"].trigger()
    n = len(win.doc.scenario.areas)
    for x, y in ((0, -20), (20, -20), (20, -10)):
        click(qtbot, win, x, y)
    qtbot.keyClick(win.view, Qt.Key_Escape)
    qtbot.keyClick(win.view, Qt.Key_Return)
    assert len(win.doc.scenario.areas) == n


def test_snap_onto_a_neighbours_vertices_shares_an_edge(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.options.grid.setChecked(False)  # only the neighbour's corners can make it exact
    win.options.select_kind(AreaKind.BUILDING, "house")
    win.toolbox.actions["Polygon"].trigger()
    before = set(win.doc.scenario.area_by_id)
    qtbot.mouseMove(win.view.viewport(), at(win, 20.08, 10.06))
    assert win.scene.snap_indicator.isVisible() and win.scene.snap_indicator.kind == "vertex"
    for x, y in ((20.08, 10.06), (19.95, 20.07), (31.3, 20.0), (31.3, 10.0)):
        click(qtbot, win, x, y)
    qtbot.keyClick(win.view, Qt.Key_Enter)
    (new,) = set(win.doc.scenario.area_by_id) - before
    poly = win.doc.scenario.area(new).polygon
    assert poly[0] == (20, 10) and poly[1] == (20, 20)
    g = build_graph(win.doc.scenario)
    assert "H2" in g.area_neighbours(new)
    assert abs(g.shared_edge_cm(new, "H2") - 10) < 1e-9


def test_split_tool_divides_a_footprint(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    doc = win.doc
    doc.push(AddAreasCommand(doc, [Area("B9", AreaKind.BUILDING, sq(0, 30, 40, 20), "house")]))
    win.view.fit_to_map()
    n = len(doc.scenario.areas)
    win.toolbox.actions["Split"].trigger()
    click(qtbot, win, 5, 35)
    assert len(doc.scenario.areas) == n + 7  # 40 x 20 cm in 10 cm cells: 8 areas
    assert all(doc.scenario.area(i).building == "house" for i in doc.selection.areas)
    qtbot.keyClick(win.view, Qt.Key_Z, Qt.ControlModifier)
    assert len(doc.scenario.areas) == n


def test_cut_along_a_line(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.toolbox.actions["Cut"].trigger()
    click(qtbot, win, 10, -2)
    click(qtbot, win, 10, 5)
    qtbot.keyClick(win.view, Qt.Key_Return)
    streets = [a for a in win.doc.scenario.areas if a.kind is AreaKind.STREET]
    assert sorted(a.shape.area for a in streets) == [100, 100]


def test_drag_a_vertex_is_one_undo_step(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    doc = win.doc
    doc.select_areas(["R1"])
    win.toolbox.actions["Vertices"].trigger()
    vp = win.view.viewport()
    qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at(win, 0, 0))
    for y in (-2, -4, -6, -8, -10):
        qtbot.mouseMove(vp, at(win, 0, y + 0.05))
    qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, at(win, 0, -10))
    assert doc.scenario.area("R1").polygon[0] == (0, -10)
    assert doc.undo_stack.count() == 1


def test_select_and_move_with_shift_add(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    doc = win.doc
    click(qtbot, win, 5, 15)
    click(qtbot, win, 15, 15, mods=Qt.ShiftModifier)
    assert doc.selection.areas == ("H1", "H2")
    assert win.properties.form.rowCount() > 3  # the multi-edit form


def test_an_edit_that_breaks_a_rule_shows_in_issues(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.issues.refresh_now()
    assert "FG112" not in win.issues.codes()
    win.toolbox.actions["Rectangle"].trigger()
    vp = win.view.viewport()
    qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at(win, 5, 5))
    qtbot.mouseMove(vp, at(win, 15, 15))
    qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, at(win, 15, 15))
    qtbot.waitUntil(lambda: "FG112" in win.issues.codes(), timeout=3000)
    # Clicking the finding selects its area.
    item = win.issues.tree.topLevelItem(win.issues.codes().index("FG112"))
    win.issues.tree.itemClicked.emit(item, 0)
    assert win.doc.selection.areas
    assert win.scene.rings  # a marker on the canvas


def test_test_turn_draws_fire_digits_where_the_log_says(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    doc = win.doc
    doc.push(PaintStartCommand(doc, "fire", [("H1", 0), ("H1", 1), ("H2", 1)], 4))
    start = doc.scenario
    win.turn_dock.raise_()
    panel = win.test_turn
    panel.seed.setValue(7)
    qtbot.mouseClick(panel.run_btn, Qt.LeftButton)
    state = panel.last_state
    assert state is not None and panel.events.count() > 0
    assert any("rolled" in panel.events.item(i).text() for i in range(panel.events.count()))
    for level in (0, 1):
        doc.set_level(level)
        want = {(d["area"], str(d["fire"])) for d in state["fires"] if d["level"] == level}
        shown = {
            (m.location[0], m.text())
            for m in win.scene.markers
            if isinstance(m, MarkerText) and m.role == "fire"
        }
        assert shown == want
        for m in win.scene.markers:
            if isinstance(m, MarkerText) and m.role == "fire":
                assert m.map_pos == doc.scenario.area(m.location[0]).centroid
    # Clicking an event with a location highlights it on the plan.
    panel.events.scrollToTop()
    for i in range(panel.events.count()):
        item = panel.events.item(i)
        if item.data(Qt.UserRole):
            panel.events.itemClicked.emit(item)
            break
    assert win.scene.highlights
    assert doc.scenario is start  # the umpire's game never edits the scenario …
    qtbot.mouseClick(panel.use_btn, Qt.LeftButton)  # … unless asked to
    fires = {(v.area, v.level, v.value) for v in doc.scenario.start.fires}
    assert fires == {(d["area"], d["level"], d["fire"]) for d in state["fires"]}
    doc.undo_stack.undo()
    assert doc.scenario == start


def test_save_reopen_compare_equal(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = window
    doc = win.doc
    doc.push(PaintStartCommand(doc, "damp", [("H2", 0)], 2))
    assert win.isWindowModified()
    path = tmp_path / "saved.fg.yaml"
    assert win.save_to(path)
    assert not win.isWindowModified() and "saved.fg.yaml" in win.windowTitle()
    assert load_scenario(path) == doc.scenario
    assert win.open_file(path)
    assert win.doc.scenario == load_scenario(path)


def test_screenshot_command(qapp, tmp_path: Path, recovery_dir: Path, repo: Path) -> None:  # type: ignore[no-untyped-def]
    from fireground.editor.app import cli_edit

    out = tmp_path / "shot.png"
    args = argparse.Namespace(file=str(repo / "examples" / "stepney.fg.yaml"), screenshot=str(out))
    assert cli_edit(args) == 0
    assert out.stat().st_size > 10_000
    bad = tmp_path / "bad.fg.yaml"
    bad.write_text("fireground: 1\nareas: [\n")
    assert cli_edit(argparse.Namespace(file=str(bad), screenshot=str(out))) == 2


def test_typed_coordinates_move_the_selected_corner(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.doc.select_areas(["R1"])
    win.toolbox.actions["Vertices"].trigger()
    click(qtbot, win, 20, 0)  # pick the south-east corner
    assert win.options.corner.text() == "20, 0"
    win.options.corner.setText("21.5, -1")
    win.options.corner.editingFinished.emit()
    assert win.doc.scenario.area("R1").polygon[1] == (21.5, -1)


def test_export_menu_writes_the_pack(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = window
    assert win.export_action.isEnabled()
    written = win.export_to(tmp_path / "pack")
    assert written and all(p.exists() for p in written)
    assert any(p.name.startswith("plans") for p in written)


def test_closing_with_unsaved_work_asks(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QMessageBox

    win = window
    win.doc.push(PaintStartCommand(win.doc, "fire", [("H1", 0)], 2))
    win.ask_unsaved = QMessageBox.Cancel
    assert not win.close()
    assert win.isVisible()
    win.ask_unsaved = QMessageBox.Discard
    assert win.close()


def test_zoom_pan_cursor_and_labels(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    win = window
    view = win.view
    qtbot.mouseMove(view.viewport(), at(win, 5, 15))
    assert win.cursor_label.text().startswith("x 5.")
    m = view.transform().m11()
    pos = QPointF(at(win, 5, 15))
    ev = QWheelEvent(
        pos,
        view.viewport().mapToGlobal(pos),
        QPoint(),
        QPoint(0, 120),
        Qt.NoButton,
        Qt.NoModifier,
        Qt.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(view.viewport(), ev)
    assert view.transform().m11() > m
    # The point under the cursor stays under the cursor (within a pixel).
    assert (view.mapFromScene(QPointF(5, -15)) - pos.toPoint()).manhattanLength() <= 2
    view.zoom_by(4)
    h = view.horizontalScrollBar().value()
    vp = view.viewport()
    qtbot.mousePress(vp, Qt.MiddleButton, Qt.NoModifier, QPoint(300, 300))
    qtbot.mouseMove(vp, QPoint(200, 300))
    qtbot.mouseRelease(vp, Qt.MiddleButton, Qt.NoModifier, QPoint(200, 300))
    assert view.horizontalScrollBar().value() != h
    assert win.scene.labels_on
    view.zoom_by(0.02)
    assert not win.scene.labels_on


def test_merge_tool_joins_two_clicked_areas(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.toolbox.actions["Merge"].trigger()
    click(qtbot, win, 5, 15)
    click(qtbot, win, 15, 15)
    qtbot.keyClick(win.view, Qt.Key_Return)
    s = win.doc.scenario
    assert "H2" not in s.area_by_id
    assert s.area("H1").shape.area == 200


def test_delete_tool_removes_a_feature_then_an_area(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.toolbox.actions["Delete"].trigger()
    click(qtbot, win, 15, 5)
    assert "R1" not in win.doc.scenario.area_by_id
    assert all(f.area != "R1" for f in win.doc.scenario.features)


def test_build_a_terrace_from_scratch(qtbot, qapp, recovery_dir: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """New building, draw its footprint, split it into houses, stairwells, a start fire,
    save: the file loads back and checks clean of errors."""
    from fireground.editor.document import Document
    from fireground.editor.main_window import MainWindow
    from fireground.engine.games.blitz.checks.run import check

    win = MainWindow(Document())
    win.ask_unsaved = 0x00800000
    qtbot.addWidget(win)
    win.resize(1100, 800)
    win.show()
    qtbot.waitExposed(win)
    win.options.select_kind(AreaKind.STREET)
    win.doc.push(AddAreasCommand(win.doc, [Area("R1", AreaKind.STREET, sq(0, 0, 40, 10))]))
    win.view.fit_to_map()
    assert win.new_building("terrace", 2)
    win.toolbox.actions["Rectangle"].trigger()
    vp = win.view.viewport()
    qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at(win, 0, 10))
    qtbot.mouseMove(vp, at(win, 40, 20))
    qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, at(win, 40, 20))
    (footprint,) = [a.id for a in win.doc.scenario.areas if a.building == "terrace"]
    win.toolbox.actions["Split"].trigger()
    click(qtbot, win, 5, 15)
    houses = [a.id for a in win.doc.scenario.areas if a.building == "terrace"]
    assert len(houses) == 4 and footprint in houses
    win.toolbox.actions["Stairwell"].trigger()
    for x in (5, 15, 25, 35):
        click(qtbot, win, x, 15)
    win.doc.set_level(1)
    win.toolbox.actions["Fire"].trigger()
    win.options.value.setValue(2)
    click(qtbot, win, 35, 15)
    path = tmp_path / "terrace.fg.yaml"
    assert win.save_to(path)
    s = load_scenario(path)
    assert s == win.doc.scenario
    assert [(v.level, v.value) for v in s.start.fires] == [(1, 2)]
    assert not [f for f in check(s) if f.severity == "error"]
    assert len(build_graph(s).area_neighbours(houses[0])) >= 2
    win.close()
