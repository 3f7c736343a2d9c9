"""Tracing: a scanned plan as a locked background layer, its scale, place and opacity."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor, QImage

from fireground.editor import background as bgmod
from fireground.editor.commands import ChangeBackgroundCommand
from fireground.editor.document import Document
from fireground.engine.board.model import Background, Scenario
from fireground.engine.core.errors import ScenarioError
from fireground.engine.scenario.emit import dump_scenario
from fireground.engine.scenario.io import load_scenario, loads_scenario, save_scenario

HEAD = "fireground: 1\nruleset: blitz\nname: traced\n"


def png(path: Path, w: int = 200, h: int = 100) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    img = QImage(w, h, QImage.Format_RGB32)
    img.fill(QColor("#8090a0"))
    assert img.save(str(path))
    return path


def at(win, x: float, y: float) -> QPoint:  # type: ignore[no-untyped-def]
    return win.view.mapFromScene(QPointF(x, -y))


def click(qtbot, win, x: float, y: float) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseMove(win.view.viewport(), at(win, x, y))
    qtbot.mouseClick(win.view.viewport(), Qt.LeftButton, Qt.NoModifier, at(win, x, y))


# -- the format extension -------------------------------------------------------------------


def test_background_survives_dump_and_load() -> None:
    text = HEAD + (
        "background: {image: plans/1940.png, origin: [3, -4.5], cm_per_px: 0.5, "
        "opacity: 0.4, locked: false}\n"
    )
    s = loads_scenario(text)
    assert s.background == Background("plans/1940.png", (3.0, -4.5), 0.5, 0.4, False)
    again = loads_scenario(dump_scenario(s))
    assert again == s and again.background == s.background
    assert "background:" not in dump_scenario(replace(s, background=None))


@pytest.mark.parametrize(
    ("value", "culprit", "message"),
    [
        ("{image: a.png, opacity: 1.5}", "1.5", "opacity must be at most 1"),
        ("{image: a.png, cm_per_px: 0}", "0}", "cm_per_px must be more than 0"),
        ("{image: a.png, cm_per_px: -2}", "-2", "cm_per_px must be more than 0"),
        ("{image: 12}", "12", "image: expected text"),
        ("{image: a.png, origin: [1]}", "[1]", "a point is [x, y]"),
        ("{image: a.png, locked: yes}", "yes", "locked: expected true or false"),
        ("{imgae: a.png}", "imgae", "unknown key 'imgae' (did you mean 'image'?)"),
        ("{image: ''}", "''", "image must not be empty"),
    ],
)
def test_bad_background_is_reported_with_its_place(value: str, culprit: str, message: str) -> None:
    line = "background: " + value
    with pytest.raises(ScenarioError) as err:
        loads_scenario(HEAD + line + "\n", "plan.fg.yaml")
    col = line.index(culprit) + 1
    assert str(err.value).startswith(f"plan.fg.yaml:4:{col}: {message}")


def test_background_needs_an_image() -> None:
    with pytest.raises(ScenarioError, match=r"plan.fg.yaml:4:\d+: missing key 'image'"):
        loads_scenario(HEAD + "background: {origin: [0, 0]}\n", "plan.fg.yaml")


def test_missing_image_is_not_a_load_error(tmp_path: Path) -> None:
    f = tmp_path / "a.fg.yaml"
    f.write_text(HEAD + "background: {image: nowhere/gone.png}\n")
    s = load_scenario(f)
    assert s.background is not None and s.background.image == "nowhere/gone.png"
    assert "not found" in (bgmod.image_problem(s.background, tmp_path) or "")


# -- relative paths ---------------------------------------------------------------------------


def test_image_path_is_relative_to_the_file_and_rewritten_on_save_as(tmp_path: Path) -> None:
    png(tmp_path / "plans" / "1940.png")
    first = tmp_path / "scen" / "a.fg.yaml"
    first.parent.mkdir()
    first.write_text(HEAD + "background: {image: ../plans/1940.png, cm_per_px: 0.5}\n")
    doc = Document(load_scenario(first), first)
    bg = doc.scenario.background
    assert bg is not None and Path(bg.image).is_absolute()
    assert Path(bg.image) == (tmp_path / "plans" / "1940.png")
    # Save As into a deeper folder: the file gets a path relative to *its* folder.
    second = tmp_path / "other" / "deeper" / "b.fg.yaml"
    second.parent.mkdir(parents=True)
    save_scenario(bgmod.for_save(doc.scenario, second), second)
    assert load_scenario(second).background.image == "../../plans/1940.png"
    # Reopened, it is the same scenario and the same image.
    doc2 = Document(load_scenario(second), second)
    assert doc2.scenario == doc.scenario


def test_window_save_as_relativises_and_reopens_equal(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = window
    image = png(tmp_path / "scans" / "sheet.png")
    assert win.background.import_image(image)
    target = tmp_path / "maps" / "traced.fg.yaml"
    target.parent.mkdir()
    assert win.save_to(target)
    assert load_scenario(target).background.image == "../scans/sheet.png"
    assert not win.doc.modified
    before = win.doc.scenario
    assert win.open_file(target)
    assert win.doc.scenario == before
    assert win.scene.background_item.isVisible()
    assert win.scene.background_item.problem is None


def test_window_warns_about_a_missing_image(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    f = tmp_path / "a.fg.yaml"
    f.write_text(HEAD + "background: {image: gone.png, opacity: 0.3}\n")
    assert window.open_file(f)
    assert window.doc.scenario.background is not None
    assert not window.scene.background_item.isVisible()
    assert "gone.png" in window.background.warning.text()
    assert "gone.png" in window.statusBar().currentMessage()


# -- the canvas and panel ---------------------------------------------------------------------


def _imported(win, tmp_path: Path, cm_per_px: float = 0.1, origin=(0.0, 20.0)):  # type: ignore[no-untyped-def]
    assert win.background.import_image(png(tmp_path / "plan.png", 200, 100))
    bg = win.doc.scenario.background
    win.doc.push(ChangeBackgroundCommand(win.doc, replace(bg, cm_per_px=cm_per_px, origin=origin)))
    win.view.fit_to_map()
    return win.doc.scenario.background


def test_image_is_placed_and_scaled_under_the_areas(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = window
    _imported(win, tmp_path, cm_per_px=0.1, origin=(0.0, 20.0))
    item = win.scene.background_item
    r = item.sceneBoundingRect()  # 200 x 100 px at 0.1 cm: 20 x 10 cm from (0, 20) down
    assert (r.left(), r.top(), r.width(), r.height()) == pytest.approx((0, -20, 20, 10))
    assert item.zValue() < min(it.zValue() for it in win.scene.area_items.values())
    # The areas' fills turn translucent so the plan shows through.
    assert all(it.brush().color().alpha() < 255 for it in win.scene.area_items.values())
    win.background.remove()
    assert not item.isVisible()
    assert all(it.brush().color().alpha() == 255 for it in win.scene.area_items.values())


def test_scale_by_two_clicks_and_a_typed_distance(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = window
    bg = _imported(win, tmp_path, cm_per_px=0.1, origin=(0.0, 20.0))
    n = win.doc.undo_stack.count()
    qtbot.mouseClick(win.background.scale_button, Qt.LeftButton)
    assert win.view.tool is win.toolbox.bg_scale
    assert not win.background.distance.isEnabled()
    click(qtbot, win, 5, 15)
    click(qtbot, win, 5, 5)
    tool = win.toolbox.bg_scale
    a, b = tool.a, tool.b
    assert a is not None and b is not None
    measured = math.dist(a, b)
    assert measured == pytest.approx(10, abs=0.2)  # pixel-rounded clicks
    assert win.background.distance.isEnabled()
    assert f"{measured:.2f}" in win.background.measured.text()
    qtbot.keyClicks(win.background.distance, "20")
    qtbot.keyClick(win.background.distance, Qt.Key_Return)
    new = win.doc.scenario.background
    k = 20 / measured
    assert new.cm_per_px == pytest.approx(bg.cm_per_px * k)
    # The first point stays put: the image grew around it.
    assert new.origin == pytest.approx((a[0] + (0 - a[0]) * k, a[1] + (20 - a[1]) * k))
    assert new.origin == pytest.approx((-5, 25), abs=0.2)
    assert win.doc.undo_stack.count() == n + 1
    assert win.scene.background_item.scale() == pytest.approx(new.cm_per_px)
    win.doc.undo_stack.undo()
    assert win.doc.scenario.background == bg
    win.doc.undo_stack.redo()
    assert win.doc.scenario.background == new


def test_distance_without_two_points_is_refused(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = window
    bg = _imported(win, tmp_path)
    win.background.scale_button.click()
    click(qtbot, win, 5, 15)
    win.background.distance.setEnabled(True)
    win.background.distance.setText("30")
    assert not win.background.apply_distance()
    assert win.doc.scenario.background == bg
    click(qtbot, win, 15, 15)
    win.background.distance.setText("ten")
    assert not win.background.apply_distance()
    assert "number" in win.background.warning.text()


def test_opacity_slider_is_one_undo_step(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = window
    _imported(win, tmp_path)
    n = win.doc.undo_stack.count()
    for v in (45, 40, 35, 30):
        win.background.opacity.setValue(v)
    assert win.doc.scenario.background.opacity == pytest.approx(0.3)
    assert win.scene.background_item.opacity() == pytest.approx(0.3)
    assert win.doc.undo_stack.count() == n + 1
    win.doc.undo_stack.undo()
    assert win.doc.scenario.background.opacity == pytest.approx(0.5)
    assert win.background.opacity.value() == 50


def test_locked_background_does_not_move_until_unlocked(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = window
    bg = _imported(win, tmp_path)
    assert bg.locked
    win.background.move_button.click()
    vp = win.view.viewport()
    qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at(win, 5, 15))
    qtbot.mouseMove(vp, at(win, 8, 11))
    qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, at(win, 8, 11))
    assert win.doc.scenario.background.origin == bg.origin
    assert "locked" in win.toolbox.bg_move.message
    win.background.locked.setChecked(False)
    n = win.doc.undo_stack.count()
    qtbot.mousePress(vp, Qt.LeftButton, Qt.NoModifier, at(win, 5, 15))
    for x, y in ((6, 14), (7, 12), (8, 11)):
        qtbot.mouseMove(vp, at(win, x, y))
    qtbot.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, at(win, 8, 11))
    ox, oy = win.doc.scenario.background.origin
    assert (ox, oy) == pytest.approx((3, 16), abs=0.1)
    assert win.doc.undo_stack.count() == n + 1  # the drag is one step


def test_typed_origin_and_scale(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win = window
    _imported(win, tmp_path)
    win.background.origin_x.setValue(-12.5)
    win.background.cm_per_px.setValue(0.25)
    bg = win.doc.scenario.background
    assert bg.origin == (-12.5, 20.0) and bg.cm_per_px == 0.25
    assert win.scene.background_item.pos() == QPointF(-12.5, -20.0)


def test_rescale_keeps_the_first_point() -> None:
    bg = Background("x.png", origin=(10.0, 50.0), cm_per_px=2.0)
    new = bgmod.rescale(bg, (20.0, 40.0), (20.0, 30.0), 5.0)  # 10 cm apart -> 5 cm
    assert new.cm_per_px == 1.0
    assert new.origin == (15.0, 45.0)
    with pytest.raises(ValueError):
        bgmod.rescale(bg, (1.0, 1.0), (1.0, 1.0), 5.0)
    with pytest.raises(ValueError):
        bgmod.rescale(bg, (0.0, 0.0), (1.0, 1.0), -1.0)


def test_unsaved_scenario_keeps_an_absolute_path(tmp_path: Path) -> None:
    s = Scenario(background=Background(str(tmp_path / "p.png")))
    doc = Document(s)
    assert doc.scenario.background.image == str(tmp_path / "p.png")
    saved = bgmod.for_save(doc.scenario, tmp_path / "sub" / "x.fg.yaml")
    assert saved.background.image == "../p.png"
