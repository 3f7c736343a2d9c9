"""The Forest Fire editor window, driven by real mouse events (headless)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt

from fireground.engine.games.forestfire.scenario import default_setup, load_setup

pytest.importorskip("pytestqt")

from fireground.editor.games.forestfire.window import HUMAN, ForestFireWindow


@pytest.fixture
def win(qtbot):  # type: ignore[no-untyped-def]
    w = ForestFireWindow(default_setup(9, 4.0))
    qtbot.addWidget(w)
    w.resize(900, 600)
    w.show()
    qtbot.waitExposed(w)
    return w


def click_square(qtbot, w, sq: int, button=Qt.MouseButton.LeftButton) -> None:  # type: ignore[no-untyped-def]
    r = w.track.square_rect(sq)
    qtbot.mouseClick(w.track, button, pos=QPoint(int(r.center().x()), int(r.center().y())))


def test_token_brush_has_no_1_to_5_cap_and_undoes(qtbot, win) -> None:  # type: ignore[no-untyped-def]
    win.brush.setValue(8)
    click_square(qtbot, win, 6)
    assert win.doc.setup.tokens[6] == 8
    click_square(qtbot, win, 9, Qt.MouseButton.RightButton)
    assert 9 not in win.doc.setup.tokens
    win.doc.undo.undo()
    assert win.doc.setup.tokens[9] == 1
    win.doc.undo.undo()
    assert 6 not in win.doc.setup.tokens and not win.doc.modified


def test_engine_properties_set_square_and_water(qtbot, win, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    sq, water = win.engine_spins[0]
    water.setValue(3)
    sq.setValue(4)
    e = win.doc.setup.engines[0]
    assert (e.square, e.water) == (4, 3)
    win.doc.undo.undo()
    assert win.doc.setup.engines[0].square == 1 and sq.value() == 1  # the spin follows
    out = tmp_path / "ff.fg.yaml"
    win.doc.save(out)
    back = load_setup(str(out))
    assert back.squares == 9 and back.square_cm == 4.0 and back.engines[0].water == 3


def test_test_turn_with_a_human_fire_seat(qtbot, win) -> None:  # type: ignore[no-untyped-def]
    win.side_policy["fire"].setCurrentText(HUMAN)
    win.side_policy["chief"].setCurrentText("greedy")
    qtbot.mouseClick(win.play_button, Qt.MouseButton.LeftButton)
    labels = [win.choices.item(i).text() for i in range(win.choices.count())]
    assert labels == ["wind", "grow 9", "intensify 9"]
    win.choices.setCurrentRow(0)
    qtbot.mouseClick(win.do_button, Qt.MouseButton.LeftButton)
    # Fire's wind is on the board and the program played the Chief's whole turn
    st = win.state
    lines = [win.log.item(i).text() for i in range(win.log.count())]
    assert lines[0] == "wind from 9 (tokens on 8, 7, 6)"
    assert any(line.startswith("E1 ") for line in lines)  # the Chief's engines acted
    assert st.side == "fire" and st.round == 2
    assert win.choices.item(0).text() == "wind"  # Fire's decisions of round 2 are offered


def test_a_program_turn_shows_the_busy_cursor_and_gives_it_back(qtbot, win) -> None:  # type: ignore[no-untyped-def]
    """A searching player can take a second a turn: the window says it is busy while the
    program decides, and the cursor comes back after the turn."""
    from PySide6.QtWidgets import QApplication

    seen: list[object] = []

    def watching(state, legal, rules):  # type: ignore[no-untyped-def]
        cursor = QApplication.overrideCursor()
        seen.append(cursor.shape() if cursor is not None else None)
        return legal[0]

    qtbot.mouseClick(win.play_button, Qt.MouseButton.LeftButton)  # starts a game
    while win.state.side != "fire":
        win.play_turn()
    win.players["fire"] = watching
    qtbot.mouseClick(win.play_button, Qt.MouseButton.LeftButton)
    assert seen and all(shape == Qt.CursorShape.WaitCursor for shape in seen)
    assert QApplication.overrideCursor() is None


def test_file_menu_offers_a_new_forest_fire_board(qtbot, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from fireground.editor.main_window import MainWindow

    monkeypatch.setenv("FIREGROUND_RECOVERY_DIR", str(tmp_path))
    w = MainWindow()
    qtbot.addWidget(w)
    names = [a.text() for a in w.menuBar().actions()[0].menu().actions()]
    assert "New &Forest Fire board…" in names


def test_screenshot(qtbot, win, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    win.brush.setValue(7)
    click_square(qtbot, win, 5)
    path = tmp_path / "ff-editor.png"
    assert win.grab().save(str(path))
    assert path.stat().st_size > 1000


def test_fireground_edit_opens_a_forest_fire_file(tmp_path: Path) -> None:
    """In a child process with faulthandler on, as the editor's other CLI tests do."""
    import os
    import subprocess
    import sys

    repo = Path(__file__).resolve().parents[3]
    shot = tmp_path / "edit.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONFAULTHANDLER="1")
    r = subprocess.run(
        [sys.executable, "-m", "fireground", "edit", str(repo / "examples" / "forestfire.fg.yaml"),
         "--screenshot", str(shot)],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert shot.stat().st_size > 1000
