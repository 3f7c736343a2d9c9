"""The editor's Play mode, with real clicks: start a game, a turn resolved, orders given by
clicking and refused with their rule (from the list and by dragging a unit on the map), the
table delta listed and ticked, one roll typed from the table dice, undo."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QListWidget

from fireground.engine.play.gamefile import load_game
from fireground.engine.scenario.io import load_scenario

REPO = Path(__file__).resolve().parents[2]
ROW = REPO / "examples" / "paternoster.fg.yaml"


@pytest.fixture
def row_window(qtbot: Any, recovery_dir: Path) -> Iterator[Any]:
    from PySide6.QtCore import QSettings

    from fireground.editor.document import Document
    from fireground.editor.main_window import MainWindow

    QSettings.setPath(QSettings.NativeFormat, QSettings.UserScope, str(recovery_dir.parent))
    win = MainWindow(Document(load_scenario(ROW), ROW))
    win.ask_unsaved = 0x00800000
    qtbot.addWidget(win)
    win.resize(1400, 950)
    win.play_dock.setMinimumHeight(320)
    win.show()
    qtbot.waitExposed(win)
    win.play_dock.raise_()
    win.view.fit_to_map()
    yield win
    win.doc.mark_saved()


def click_row(qtbot: Any, lst: QListWidget, text: str) -> None:
    """Click the first row of ``lst`` whose text starts with ``text``."""
    for i in range(lst.count()):
        it = lst.item(i)
        if it.text().startswith(text):
            lst.scrollToItem(it)
            rect = lst.visualItemRect(it)
            qtbot.mouseClick(lst.viewport(), Qt.LeftButton, pos=rect.center())
            return
    raise AssertionError(f"no row {text!r} in {[lst.item(i).text() for i in range(lst.count())]}")


def unit_point(win: Any, uid: str) -> QPoint:
    for m in win.scene.markers:
        if getattr(m, "role", "") == "unit" and m.text() == uid:
            vt = win.view.viewportTransform()
            return m.deviceTransform(vt).map(m.boundingRect().center()).toPoint()
    raise AssertionError(f"{uid} is not drawn on this level")


def area_point(win: Any, area: str) -> QPoint:
    from fireground.editor.scene.coords import to_scene

    return win.view.mapFromScene(to_scene(win.scene.centre(area)))


def test_three_turns_in_play_mode(
    row_window: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    win, panel = row_window, row_window.play
    game = tmp_path / "club.fgame.yaml"
    monkeypatch.setattr(
        "fireground.editor.games.blitz.play_mode.QFileDialog.getSaveFileName",
        lambda *a, **k: (str(game), ""),
    )
    panel.seed.setValue(5)
    assert not panel.resolve_btn.isEnabled()
    qtbot.mouseClick(panel.start_btn, Qt.LeftButton)
    assert game.exists() and load_game(game).turn == 0
    assert win.view.tool is panel.tool

    # turn 1: the first units arrive
    qtbot.mouseClick(panel.resolve_btn, Qt.LeftButton)
    assert load_game(game).turn == 1  # saved after the turn
    assert panel.delta.count() > 0
    assert any(panel.delta.item(i).text().startswith("ROW10: ") for i in range(panel.delta.count()))

    # an order refused from the list, with its rule
    click_row(qtbot, panel.units, "GA1 ")
    assert panel.orders_title.text() == "Orders for GA1"
    click_row(qtbot, panel.choices, "✗ rest")
    assert panel.message.text() == "Refused: GA1 rest: §10: only personnel stands rest"
    assert panel.given.count() == 0
    # an order given by clicking
    click_row(qtbot, panel.units, "OFF ")
    click_row(qtbot, panel.choices, "rest")
    assert panel.given.count() == 1 and panel.given.item(0).text() == "OFF: rest"
    # a unit dragged on the map where the rules do not let it go
    win.doc.set_level(0)
    qtbot.wait(10)
    start, end = unit_point(win, "DR1"), area_point(win, "PO4")
    qtbot.mousePress(win.view.viewport(), Qt.LeftButton, pos=start)
    qtbot.mouseMove(win.view.viewport(), pos=(start + end) / 2)
    qtbot.mouseMove(win.view.viewport(), pos=end)
    qtbot.mouseRelease(win.view.viewport(), Qt.LeftButton, pos=end)
    assert panel.message.text() == "Refused: DR1 move to PO4: §7: vehicles drive on streets only"
    assert panel.given.count() == 1

    # turn 2 with the table's dice: the first roll typed, the rest left to the program
    seen: list[str] = []

    def answer() -> None:
        from fireground.editor.games.blitz.play_mode import RollDialog

        dlg = QApplication.activeModalWidget()
        if not isinstance(dlg, RollDialog):
            QTimer.singleShot(20, answer)
            return
        seen.append(dlg.label.text())
        if len(seen) == 1:
            qtbot.keyClicks(dlg.entry, "7")  # not a die: asked again
            qtbot.keyClick(dlg.entry, Qt.Key_Return)
            assert dlg.isVisible() and "from 1 to 6" in dlg.problem.text()
            dlg.entry.clear()
            qtbot.keyClicks(dlg.entry, "3")
            qtbot.keyClick(dlg.entry, Qt.Key_Return)
            QTimer.singleShot(20, answer)
        else:
            rest = next(b for b in dlg.findChildren(type(panel.resolve_btn))
                        if b.text() == "Program rolls the rest")  # fmt: skip
            qtbot.mouseClick(rest, Qt.LeftButton)

    qtbot.mouseClick(panel.manual, Qt.LeftButton)
    assert panel.manual.isChecked()
    QTimer.singleShot(20, answer)
    qtbot.mouseClick(panel.resolve_btn, Qt.LeftButton)
    assert len(seen) == 2 and ": 1 die, needs" in seen[0]
    saved = load_game(game)
    assert saved.turn == 2
    assert saved.turns[1].orders == [{"unit": "OFF", "kind": "rest", "turn": 2}]
    manual = [r for r in saved.turns[1].rolls if r.get("manual")]
    assert len(manual) == 1 and manual[0]["dice"] == [3] and saved.turns[1].rolls[0] is not None
    assert saved.turns[1].rolls[0].get("manual") is True
    assert "(1 at the table)" in panel.message.text()
    # the delta, ticked off place by place
    assert panel.delta.count() > 0
    first = panel.delta.item(0)
    rect = panel.delta.visualItemRect(first)
    qtbot.mouseClick(
        panel.delta.viewport(), Qt.LeftButton, pos=QPoint(rect.left() + 10, rect.center().y())
    )
    assert first.checkState() == Qt.Checked

    # the turn sheet of turn 2, from its button
    sheet = tmp_path / "turn2.pdf"
    monkeypatch.setattr(
        "fireground.editor.games.blitz.play_mode.QFileDialog.getSaveFileName",
        lambda *a, **k: (str(sheet), ""),
    )
    qtbot.mouseClick(panel.sheet_btn, Qt.LeftButton)
    from pypdf import PdfReader

    pages = PdfReader(str(sheet)).pages
    assert len(pages) == 1 and "Turn 2: Paternoster Row" in pages[0].extract_text()
    assert panel.message.text() == "Turn sheet of turn 2 written to turn2.pdf."

    # turn 3, then undo: back to turn 2, the file too
    qtbot.mouseClick(panel.manual, Qt.LeftButton)
    qtbot.mouseClick(panel.resolve_btn, Qt.LeftButton)
    assert load_game(game).turn == 3
    turn2_text = Path(str(game) + ".bak").read_bytes()
    qtbot.mouseClick(panel.undo_btn, Qt.LeftButton)
    assert panel.tg.turn == 2 and "Turn 3 taken back" in panel.message.text()
    assert game.read_bytes() == turn2_text
    # the delta now says how to put the table back
    assert panel.delta_title.text() == "On the table, to take turn 3 back"
    assert panel.delta.count() > 0

    # the game reopened: the editor shows the game's own scenario, at turn 2
    monkeypatch.setattr(
        "fireground.editor.games.blitz.play_mode.QFileDialog.getOpenFileName",
        lambda *a, **k: (str(game), ""),
    )
    qtbot.mouseClick(panel.open_btn, Qt.LeftButton)
    again = win.play
    assert again is not panel and again.tg is not None and again.tg.turn == 2
    assert win.doc.scenario.name == "Paternoster Row, 29 December 1940"
    assert win.doc.path is None  # the game's copy: saving it asks where
    assert again.units.count() > 0 and win.view.tool is again.tool
