"""End to end: build a small Stepney-like scenario from File > New purely through the UI
(tool keys, mouse on the canvas, panel fields, dialogs), save it, and check it.

Nothing here calls ops or pushes commands: every edit is a key press, a click or a drag.
Set FIREGROUND_E2E_SHOTS=DIR to save a screenshot after each step (for looking at).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from editor_helpers import at, click, hover
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QPushButton, QToolButton, QWidget

from fireground.engine.board.model import FeatureType
from fireground.engine.scenario.io import load_scenario

SHOTS = os.environ.get("FIREGROUND_E2E_SHOTS")


def drag(qtbot, win, a: tuple[float, float], b: tuple[float, float]) -> None:  # type: ignore[no-untyped-def]
    vp = win.view.viewport()
    qtbot.mouseMove(vp, at(win, *a))
    qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at(win, *a))
    for i in range(1, 6):
        t = i / 5
        qtbot.mouseMove(vp, at(win, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
    qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, at(win, *b))


def key(qtbot, win, k, mods=Qt.NoModifier) -> None:  # type: ignore[no-untyped-def]
    qtbot.keyClick(win.view, k, mods)


def type_into(qtbot, widget: QWidget, text: str) -> None:  # type: ignore[no-untyped-def]
    """Click a field, select what is there and type over it, then Tab away."""
    qtbot.mouseClick(widget, Qt.LeftButton)
    qtbot.keyClick(widget, Qt.Key_A, Qt.ControlModifier)
    qtbot.keyClicks(widget, text)
    qtbot.keyClick(widget, Qt.Key_Tab)


def button(parent: QWidget, text: str) -> QPushButton:
    return next(b for b in parent.findChildren(QPushButton) if b.text() == text)


def shot(win, name: str) -> None:  # type: ignore[no-untyped-def]
    if SHOTS:
        QApplication.processEvents()
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        win.grab().save(str(Path(SHOTS) / f"{name}.png"))


def new_building(qtbot, win, bid: str, name: str, basement: bool = False) -> None:  # type: ignore[no-untyped-def]
    """The tool-bar's New building… button, its dialog filled in with keys and clicks."""
    done: list[bool] = []

    def fill() -> None:
        dlg = win.building_dialog
        if dlg is None:  # not open yet
            QTimer.singleShot(10, fill)
            return
        type_into(qtbot, dlg.building_id, bid)
        type_into(qtbot, dlg.name, name)
        if basement:
            qtbot.mouseClick(dlg.basement, Qt.LeftButton, pos=QPoint(4, dlg.basement.height() // 2))
        assert dlg.levels.value() == 2
        qtbot.mouseClick(dlg.buttons.button(dlg.buttons.StandardButton.Ok), Qt.LeftButton)
        done.append(True)

    QTimer.singleShot(0, fill)
    tool_button = win.options.widgetForAction(win.options.new_building_act)
    assert isinstance(tool_button, QToolButton)
    qtbot.mouseClick(tool_button, Qt.LeftButton)
    assert done
    qtbot.waitUntil(win.isActiveWindow)  # the window takes the keys again


def test_build_a_stepney_terrace_from_nothing(qtbot, window, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    win = window
    # File > New (Ctrl+N) on the open, unmodified file.
    qtbot.keyClick(win, Qt.Key_N, Qt.ControlModifier)
    assert not win.doc.scenario.areas
    win.view.setFocus()

    # -- the scenario's settings ------------------------------------------------------------
    win.scenario_dock.raise_()
    sp = win.scenario_panel
    type_into(qtbot, sp.name, "Stepney terrace, evening")
    type_into(qtbot, sp.turns, "20")
    rose = sp.rose
    c = QPoint(rose.width() // 2, rose.height() // 2)
    r = min(rose.width(), rose.height()) / 2 - 14
    qtbot.mouseClick(rose, Qt.LeftButton, pos=QPoint(int(c.x() - r), c.y()))  # from the west
    qtbot.mouseClick(sp.bombing, Qt.LeftButton, pos=QPoint(4, sp.bombing.height() // 2))
    s = win.doc.scenario
    assert (s.name, s.turns, s.wind.from_, s.bombing) == (
        "Stepney terrace, evening",
        20,
        "W",
        False,
    )
    shot(win, "01_settings")

    # -- a terrace of three houses and a pub with a cellar, north of the street -------------
    new_building(qtbot, win, "terrace", "Nos. 1-5")
    assert win.options.kind.currentText() == "building: terrace"
    win.view.fit_to_map()
    key(qtbot, win, Qt.Key_R)
    assert win.view.tool is win.toolbox.rectangle
    drag(qtbot, win, (0.3, 10.2), (29.8, 19.7))  # the grid snaps the corners
    key(qtbot, win, Qt.Key_S)
    click(qtbot, win, 15, 15)
    assert sorted(a.id for a in win.doc.scenario.areas) == ["T1", "T2", "T3"]
    assert win.doc.scenario.area("T1").polygon[0] == (0, 10)  # reading order, west first
    new_building(qtbot, win, "pub", "The Rose and Crown", basement=True)
    key(qtbot, win, Qt.Key_R)
    drag(qtbot, win, (30.2, 10.1), (40.2, 19.8))
    shot(win, "02_buildings")

    # -- the street: a polygon snapped onto the houses' corners, split into cells -----------
    win.options.kind.setCurrentIndex(win.options.kind.findText("street"))
    key(qtbot, win, Qt.Key_P)
    hover(qtbot, win, 0.2, 10.15)
    assert win.scene.snap_indicator.isVisible()
    assert "snap: vertex" in win.cursor_label.text()
    for x, y in ((0.2, 10.15), (40.15, 9.9), (39.9, 0.2), (0.1, -0.2)):
        click(qtbot, win, x, y)
    assert "drawing, 4 point(s)" in win.tool_label.text()
    key(qtbot, win, Qt.Key_Return)
    key(qtbot, win, Qt.Key_S)
    click(qtbot, win, 5, 5)
    streets = sorted(a.id for a in win.doc.scenario.areas if a.kind.value == "street")
    assert streets == ["R1", "R2", "R3", "R4"]
    shot(win, "03_street")

    # -- features -----------------------------------------------------------------------------
    key(qtbot, win, Qt.Key_T)  # stairwells
    for x in (5, 15, 25, 35):
        click(qtbot, win, x, 15)
    key(qtbot, win, Qt.Key_H)  # a hydrant of pressure 4
    type_into(qtbot, win.options.value, "4")
    click(qtbot, win, 25, 5)
    key(qtbot, win, Qt.Key_U)  # three people in No. 3
    type_into(qtbot, win.options.value, "3")
    click(qtbot, win, 15, 15)
    key(qtbot, win, Qt.Key_O)  # a wood store (the default material)
    click(qtbot, win, 25, 15)
    key(qtbot, win, Qt.Key_N)  # where the appliance comes in
    type_into(qtbot, win.options.text, "from Commercial Road")
    click(qtbot, win, 5, 5)
    key(qtbot, win, Qt.Key_L)
    type_into(qtbot, win.options.text, "Shelter in the cellar")
    click(qtbot, win, 35, 15)
    shot(win, "04_features")

    # -- the start: fire upstairs in No. 3, embers next door --------------------------------
    key(qtbot, win, Qt.Key_PageUp)
    assert win.doc.level == 1
    key(qtbot, win, Qt.Key_F)
    type_into(qtbot, win.options.value, "2")
    click(qtbot, win, 15, 15)
    key(qtbot, win, Qt.Key_I)
    click(qtbot, win, 25, 15)
    shot(win, "05_start")
    key(qtbot, win, Qt.Key_PageDown)

    # -- forces: an appliance arriving at the entry, a fire party in No. 1 -------------------
    key(qtbot, win, Qt.Key_V)
    key(qtbot, win, Qt.Key_Escape)  # nothing selected: the unit arrives at the entry
    win.forces_dock.raise_()
    fp = win.forces
    fp.type_box.setCurrentIndex(fp.type_box.findText("general_appliance"))
    qtbot.mouseClick(button(fp, "Add"), Qt.LeftButton)
    click(qtbot, win, 5, 15)  # select No. 1 …
    fp.type_box.setCurrentIndex(fp.type_box.findText("fire_party"))
    qtbot.mouseClick(button(fp, "Add"), Qt.LeftButton)  # … and start the party there
    shot(win, "06_forces")

    # -- an objective ---------------------------------------------------------------------
    win.scenario_dock.raise_()
    sp.obj_type.setCurrentIndex(sp.obj_type.findText("contain"))
    qtbot.mouseClick(button(sp, "Add objective"), Qt.LeftButton)

    # -- the Issues panel is clean ------------------------------------------------------------
    qtbot.waitUntil(lambda: not win.issues._timer.isActive(), timeout=5000)
    win.issues.refresh_now()
    assert win.issues.summary.text() == "No issues.", win.issues.codes()

    # -- a test turn, then five -----------------------------------------------------------------
    win.turn_dock.raise_()
    before = win.doc.scenario
    qtbot.mouseClick(win.test_turn.step_btn, Qt.LeftButton)
    qtbot.mouseClick(win.test_turn.run_btn, Qt.LeftButton)
    assert win.test_turn.status.text().startswith("Turn 6:")
    texts = [win.test_turn.events.item(i).text() for i in range(win.test_turn.events.count())]
    assert [t.split(":")[0] for t in texts if t.startswith("Turn")] == [
        f"Turn {i}" for i in range(2, 7)
    ]
    assert win.doc.scenario is before  # playing never edits the scenario
    shot(win, "07_test_turn")

    # -- save (Ctrl+S asks where), and check the file ------------------------------------------
    path = tmp_path / "stepney_e2e.fg.yaml"
    monkeypatch.setattr(
        "fireground.editor.window_files.QFileDialog.getSaveFileName",
        lambda *a, **k: (str(path), ""),
    )
    qtbot.keyClick(win, Qt.Key_S, Qt.ControlModifier)
    assert path.exists() and not win.doc.modified
    out = subprocess.run(
        [sys.executable, "-m", "fireground", "check", "--json", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    findings = json.loads(out.stdout)
    assert not [f for f in _findings(findings) if f.get("severity") == "error"]

    s = load_scenario(path)
    assert s == win.doc.scenario
    assert {b.id: (b.levels, b.basement) for b in s.buildings} == {
        "terrace": (2, False),
        "pub": (2, True),
    }
    assert len(s.areas) == 8
    kinds = sorted(f.type.value for f in s.features)
    assert kinds == sorted(["stairwell"] * 4 + ["hydrant", "occupants", "store", "entry", "label"])
    hydrant = next(f for f in s.features if f.type is FeatureType.HYDRANT)
    assert (hydrant.area, hydrant.pressure) == ("R3", 4)
    assert [(v.area, v.level, v.value) for v in s.start.fires] == [("T2", 1, 2)]
    assert [(u.type, u.entry, u.area) for u in s.forces] == [
        ("general_appliance", "from Commercial Road", None),
        ("fire_party", None, "T1"),
    ]
    assert [o.type for o in s.objectives] == ["contain"]

    # -- undo everything, then redo everything ---------------------------------------------------
    while win.doc.undo_stack.canUndo():
        key(qtbot, win, Qt.Key_Z, Qt.ControlModifier)
    assert not win.doc.scenario.areas and not win.doc.scenario.buildings
    while win.doc.undo_stack.canRedo():
        key(qtbot, win, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    assert win.doc.scenario == s and not win.doc.modified


def _findings(data: object) -> list[dict]:  # type: ignore[type-arg]
    """The findings of ``fireground check --json`` (a list, or a dict holding one)."""
    if isinstance(data, list):
        return [f for f in data if isinstance(f, dict)]
    if isinstance(data, dict):
        for v in data.values():
            if isinstance(v, list):
                return [f for f in v if isinstance(f, dict)]
    return []
