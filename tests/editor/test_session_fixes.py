"""What a new user's session found wrong (issue 13, items 3-8), driven with real keys and
clicks. Each test failed before its fix."""

from __future__ import annotations

from editor_helpers import click
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from fireground.editor.scene.items import FeatureItem
from fireground.engine.board.model import FeatureType, Material


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
    # Tool keys are window shortcuts: they act only in the active window, so without this
    # the test would pass whatever the typing guard did.
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=5000)
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
    # The keys still pick tools once the map has the focus again.
    # (the offscreen platform leaves no window active once the cell's completer popup
    # has closed: make the editor active again, as the user's click on the map does)
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=5000)
    qtbot.mouseClick(win.view.viewport(), Qt.LeftButton, Qt.NoModifier, QPoint(5, 5))
    qtbot.waitUntil(lambda: QApplication.focusWidget() is win.view, timeout=5000)
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


# -- 5. whatever the editor saves it opens; cells are checked as typed; Export refuses -------
def _stepney_window(qtbot, tmp_path, repo, monkeypatch):  # type: ignore[no-untyped-def]
    import shutil

    from PySide6.QtWidgets import QMessageBox

    from fireground.editor.document import Document
    from fireground.editor.main_window import MainWindow
    from fireground.engine.scenario.io import load_scenario

    boxes: list[str] = []
    for name in ("warning", "critical"):
        monkeypatch.setattr(QMessageBox, name, lambda _p, _t, text, *a, **k: boxes.append(text))
    path = tmp_path / "stepney.fg.yaml"
    shutil.copy(repo / "examples" / "stepney.fg.yaml", path)
    win = MainWindow(Document(load_scenario(path), path), recovery_session=False)
    win.ask_unsaved = 0x00800000
    qtbot.addWidget(win)
    win.resize(1500, 950)
    win.show()
    win.activateWindow()
    qtbot.waitActive(win)
    return win, path, boxes


def _type_cell(qtbot, win, table, row: int, col: int, text: str) -> None:  # type: ignore[no-untyped-def]
    _cell_click(qtbot, table, row, col)
    qtbot.keyClick(table, Qt.Key_F2)  # edit
    editor = win.focusWidget()
    qtbot.keyClick(editor, Qt.Key_A, Qt.ControlModifier)
    qtbot.keyClicks(editor, text)
    qtbot.keyClick(editor, Qt.Key_Return)
    qtbot.wait(50)


def test_a_forces_cell_is_checked_as_typed_and_an_area_replaces_the_entry(
    qtbot, tmp_path, repo, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    win, path, _boxes = _stepney_window(qtbot, tmp_path, repo, monkeypatch)
    win.forces_dock.raise_()
    win.doc.set_selection(type(win.doc.selection)())
    qtbot.mouseClick(_button(win.forces, "Add"), Qt.LeftButton)
    table = win.forces.table
    row = len(win.doc.scenario.forces) - 1
    unit = win.doc.scenario.forces[row]
    assert unit.entry and unit.area is None  # nothing selected: it arrives at the entry
    _type_cell(qtbot, win, table, row, 2, "4")
    assert win.doc.scenario.forces[row] == unit  # refused
    assert "no area 4" in win.forces.error.text()
    _type_cell(qtbot, win, table, row, 2, "H2")
    u = win.doc.scenario.forces[row]
    assert (u.area, u.entry) == ("H2", None)
    win.issues.refresh_now()
    assert "FG141" not in win.issues.codes()
    # Saved, it opens again.
    assert win.save()  # File > Save (Ctrl+S)
    assert not win.doc.modified
    assert win.open_file(path)
    assert win.doc.scenario.forces[row].area == "H2"
    win.doc.mark_saved()


def test_a_file_with_errors_the_editor_can_fix_opens_with_them_in_issues(
    qtbot, tmp_path, repo, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from fireground.editor.commands import ChangeForcesCommand
    from fireground.editor.document import Selection
    from fireground.engine.board.model import ForceUnit

    win, path, boxes = _stepney_window(qtbot, tmp_path, repo, monkeypatch)
    s = win.doc.scenario
    both = ForceUnit("X1", "fire_party", area="H1", entry=s.forces[0].entry)
    win.doc.push(ChangeForcesCommand(win.doc, [*s.forces, both], "add"))
    assert win.save_to(path)
    assert "error(s) to fix" in win.statusBar().currentMessage()
    assert win.open_file(path), boxes
    win.issues.refresh_now()
    tree = win.issues.tree
    rows = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    (item,) = [it for it in rows if it.text(1) == "FG141"]
    assert item.text(3).startswith("unit X1")
    # Every finding says where it is, and a click on it shows it.
    assert all(it.text(3) for it in rows)
    rect = tree.visualItemRect(item)
    qtbot.mouseClick(tree.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    assert win.doc.selection == Selection(units=("X1",))
    # The command line's editor opens it too.
    from fireground.editor.app import open_window

    other = open_window(str(path), recovery_session=False)
    other.deleteLater()
    win.doc.mark_saved()


def test_export_from_the_editor_refuses_a_scenario_with_errors(
    qtbot, tmp_path, repo, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from fireground.editor.commands import ChangeForcesCommand
    from fireground.engine.board.model import ForceUnit

    win, _path, boxes = _stepney_window(qtbot, tmp_path, repo, monkeypatch)
    s = win.doc.scenario
    win.doc.push(
        ChangeForcesCommand(win.doc, [*s.forces, ForceUnit("X1", "fire_party", area="4")], "x")
    )
    out = tmp_path / "pack"
    out.mkdir()
    assert win.export_to(out) is None
    assert list(out.iterdir()) == []
    assert boxes and "FG141" in boxes[-1] and "unit X1 starts in unknown area 4" in boxes[-1]
    win.doc.mark_saved()


# -- 7. snapping: a finer grid, Ctrl to place freely, and a word when a drag does nothing ---
def _drag(qtbot, win, a, b, mod=Qt.NoModifier) -> None:  # type: ignore[no-untyped-def]
    """Press at map point a, move there in steps (with ``mod`` held), release at b."""
    from editor_helpers import at
    from PySide6.QtCore import QEvent, QPointF
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    vp = win.view.viewport()
    qtbot.mouseMove(vp, at(win, *a))
    qtbot.mousePress(vp, Qt.LeftButton, mod, at(win, *a))
    for k in range(1, 9):
        p = (a[0] + (b[0] - a[0]) * k / 8, a[1] + (b[1] - a[1]) * k / 8)
        pos = QPointF(at(win, *p))
        ev = QMouseEvent(
            QEvent.MouseMove, pos, vp.mapToGlobal(pos), Qt.NoButton, Qt.LeftButton, mod
        )
        QApplication.sendEvent(vp, ev)
    qtbot.mouseRelease(vp, Qt.LeftButton, mod, at(win, *b))


def test_a_short_drag_says_it_snapped_back(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    before = win.doc.scenario.area("H1").polygon
    _drag(qtbot, win, (2, 12), (2, 15))  # 3 cm north: under half a 10 cm cell
    assert win.doc.scenario.area("H1").polygon == before
    assert "snapped back" in win.statusBar().currentMessage()


def test_ctrl_drags_freely_and_the_fine_grid_snaps_to_whole_cm(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    (x0, y0) = win.doc.scenario.area("H1").polygon[0]
    _drag(qtbot, win, (2, 12), (2, 15.3), Qt.ControlModifier)
    (x1, y1) = win.doc.scenario.area("H1").polygon[0]
    assert abs(x1 - x0) < 0.15 and abs((y1 - y0) - 3.3) < 0.15  # where the cursor went
    win.doc.undo_stack.undo()
    qtbot.mouseClick(win.options.fine, Qt.LeftButton)
    assert win.view.fine_grid
    _drag(qtbot, win, (2, 12), (2, 15.3))
    (x2, y2) = win.doc.scenario.area("H1").polygon[0]
    assert (x2 - x0, y2 - y0) == (0, 3)  # on the 1 cm grid


# -- 8. the test turn ------------------------------------------------------------------------
def _fire_small(win, turns: int = 3):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from fireground.editor.commands import ReplaceScenarioCommand
    from fireground.engine.board.model import LocationValue

    s = win.doc.scenario
    start = replace(
        s.start,
        fires=(LocationValue("H1", 0, 5),),
        damage=(LocationValue("H1", 0, 3),),
    )
    win.doc.push(ReplaceScenarioCommand(win.doc, replace(s, start=start, turns=turns), "fire"))


def test_the_test_turn_stops_at_the_last_turn_and_says_so(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    _fire_small(win, turns=3)
    panel = win.test_turn
    win.turn_dock.raise_()
    qtbot.mouseClick(panel.run_btn, Qt.LeftButton)  # Run 5 turns
    assert panel.game.state.turn == 3
    assert "last turn" in panel.status.text()
    qtbot.mouseClick(panel.step_btn, Qt.LeftButton)
    assert panel.game.state.turn == 3


def test_highlight_rings_go_with_a_new_run(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    _fire_small(win, turns=10)
    panel = win.test_turn
    win.turn_dock.raise_()
    qtbot.mouseClick(panel.step_btn, Qt.LeftButton)
    ev = panel.events
    row = next(
        i for i in range(ev.count()) if ev.item(i).data(Qt.UserRole) and not ev.item(i).isHidden()
    )
    rect = ev.visualItemRect(ev.item(row))
    qtbot.mouseClick(ev.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
    assert win.scene.highlights
    qtbot.mouseClick(panel.step_btn, Qt.LeftButton)
    assert not win.scene.highlights


def test_fire_and_damage_are_told_apart_and_the_roll_list_is_tall(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    _fire_small(win)
    marks = {getattr(m, "role", ""): m for m in win.scene.markers}
    fire, damage = marks["fire"], marks["damage"]
    vt = win.view.viewportTransform()
    rf = fire.deviceTransform(vt).mapRect(fire.boundingRect())
    rd = damage.deviceTransform(vt).mapRect(damage.boundingRect())
    assert not damage.text().isdigit()  # "D3", not a digit beside the fire's "5"
    assert not rf.adjusted(-2, -2, 2, 2).intersects(rd)
    win.turn_dock.raise_()
    qtbot.wait(20)
    rows = win.test_turn.events.height() // (win.test_turn.events.fontMetrics().height() + 2)
    assert rows >= 8


# -- 10. the default window shows every panel whole ------------------------------------------
def _columns_fit(table) -> bool:  # type: ignore[no-untyped-def]
    head = table.horizontalHeader()
    right = max(head.sectionViewportPosition(c) + head.sectionSize(c) for c in range(head.count()))
    return right <= table.viewport().width() + 1


def test_the_default_window_shows_each_panel_whole(qtbot, tmp_path, repo, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    win, _path, _boxes = _stepney_window(qtbot, tmp_path, repo, monkeypatch)
    qtbot.wait(50)  # the docks are sized once the window shows
    win.forces_dock.raise_()
    qtbot.wait(20)
    assert _columns_fit(win.forces.table)
    win.scenario_dock.raise_()
    qtbot.wait(20)
    assert _columns_fit(win.scenario_panel.objectives)
    # The Issues message takes the room, not the Where column.
    head = win.issues.tree.header()
    assert head.sectionSize(2) > head.sectionSize(3)
    # The hose legend shows with its overlay only.
    legend, hose = win.overlays.hose_legend, win.overlays.boxes["hose"]
    assert not legend.isVisible()
    from PySide6.QtCore import QPoint

    qtbot.mouseClick(hose, Qt.LeftButton, Qt.NoModifier, QPoint(8, hose.height() // 2))
    assert hose.isChecked() and legend.isVisible()
    # "New areas" shows a building's whole name.
    assert win.new_building("rose_and_crown_annexe")
    kind = win.options.kind
    qtbot.wait(20)
    assert kind.width() >= kind.fontMetrics().horizontalAdvance(kind.currentText()) + 20
    win.doc.mark_saved()


# -- 11. small things ------------------------------------------------------------------------
def test_a_cut_piece_follows_the_buildings_naming(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    from editor_helpers import sq

    from fireground.editor.commands import AddAreasCommand, AddBuildingCommand
    from fireground.engine.board.model import Area, AreaKind, Building

    win = window
    win.doc.push(AddBuildingCommand(win.doc, Building("publishers", levels=2)))
    win.doc.push(
        AddAreasCommand(win.doc, [Area("PO1", AreaKind.BUILDING, sq(20, 10, 20, 10), "publishers")])
    )
    win.view.fit_to_map()
    qtbot.keyClick(win.view, Qt.Key_C)
    click(qtbot, win, 30, 24)
    click(qtbot, win, 30, 6)
    qtbot.keyClick(win.view, Qt.Key_Return)
    new = set(win.doc.scenario.area_by_id) - {"H1", "H2", "R1", "PO1"}
    assert new == {"PO2"}


def test_the_level_box_names_the_basement(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    assert win.new_building("cellar", basement=True)
    box = win.options.level
    box.setValue(-1)
    assert "basement" in box.text()
    box.setValue(0)
    assert box.text() == "0"


def test_a_tools_old_outcome_does_not_greet_its_next_use(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    win = window
    qtbot.keyClick(win.view, Qt.Key_H)
    click(qtbot, win, 15, 5)
    assert win.statusBar().currentMessage() == "Added hydrant in R1."
    qtbot.keyClick(win.view, Qt.Key_V)
    qtbot.keyClick(win.view, Qt.Key_H)
    assert win.statusBar().currentMessage() == "Click an area to place a hydrant."


def test_edit_help_explains_screenshot() -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "fireground", "edit", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    line = next(x for x in out.splitlines() if x.strip().startswith("--screenshot"))
    assert len(line.split("PNG", 1)[1].strip()) > 10  # a description, not just the flag
