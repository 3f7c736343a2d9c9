"""Autosave and crash recovery: an editor killed mid-edit leaves work that can be restored."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from fireground.editor import recovery
from fireground.editor.commands import ChangeSettingsCommand
from fireground.editor.document import Document
from fireground.editor.main_window import MainWindow
from fireground.engine.scenario.io import load_scenario

CHILD = textwrap.dedent(
    """
    import sys, time
    from PySide6.QtWidgets import QApplication
    from fireground.editor.commands import ChangeSettingsCommand
    from fireground.editor.document import Document
    from fireground.editor.main_window import MainWindow
    from fireground.engine.scenario.io import load_scenario

    app = QApplication([])
    path = sys.argv[1]
    win = MainWindow(Document(load_scenario(path), path))
    win.doc.push(ChangeSettingsCommand(win.doc, name="edited before the crash", turns=17))
    assert win.autosave() is not None
    print("ready", flush=True)
    while True:  # the parent kills us here
        app.processEvents()
        time.sleep(0.05)
    """
)


def test_recovery_file_restores_after_a_crash(
    qtbot,
    recovery_dir: Path,
    tmp_path: Path,  # type: ignore[no-untyped-def]
    repo: Path,
) -> None:
    original = tmp_path / "stepney.fg.yaml"
    shutil.copy(repo / "examples" / "stepney.fg.yaml", original)
    env = {
        **os.environ,
        "FIREGROUND_RECOVERY_DIR": str(recovery_dir),
        "QT_QPA_PLATFORM": "offscreen",
    }
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(original)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        assert line.strip() == "ready", child.stderr.read() if child.stderr else ""
        assert recovery.find_crashed(recovery_dir) == []  # alive: its lock is held
    finally:
        child.kill()  # the crash
        child.wait(timeout=30)
    (crashed,) = recovery.find_crashed(recovery_dir)
    assert crashed.original == str(original)

    win = MainWindow(Document())
    win.ask_unsaved = 0x00800000
    qtbot.addWidget(win)
    assert win.restore(crashed)
    s = win.doc.scenario
    assert (s.name, s.turns) == ("edited before the crash", 17)
    assert win.doc.path == original and win.doc.modified
    # The restored work is one undo step on top of the file as it was saved.
    win.doc.undo_stack.undo()
    assert win.doc.scenario == load_scenario(original)
    assert recovery.find_crashed(recovery_dir) == []
    win.doc.mark_saved()
    win.close()


def test_saving_discards_the_autosave(qtbot, recovery_dir: Path, tmp_path: Path, small) -> None:  # type: ignore[no-untyped-def]
    win = MainWindow(Document(small))
    qtbot.addWidget(win)
    assert win.autosave() is None  # nothing to save yet
    win.doc.push(ChangeSettingsCommand(win.doc, name="changed"))
    written = win.autosave()
    assert written is not None and load_scenario(written).name == "changed"
    assert win.save_to(tmp_path / "x.fg.yaml")
    assert not written.exists()
    win.close()
    assert not list(recovery_dir.glob("*.fg.yaml"))


def _dead_session(folder: Path, scenario, original: Path | None) -> recovery.RecoverySession:  # type: ignore[no-untyped-def]
    """An autosave left by an editor that died: its files stay and nobody holds its lock."""
    dead = recovery.RecoverySession(folder)
    dead.write(scenario, str(original) if original else None)
    dead.lock.unlock()
    return dead


def test_start_up_offers_to_restore_after_a_crash(
    qtbot, recovery_dir: Path, tmp_path: Path, small
) -> None:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from PySide6.QtCore import Qt

    from fireground.editor.app import open_window, start_window
    from fireground.engine.scenario.io import save_scenario

    original = tmp_path / "small.fg.yaml"
    save_scenario(small, original)
    _dead_session(recovery_dir, replace(small, name="edited before the crash"), original)

    win = open_window(str(original))
    win.ask_unsaved = 0x00800000
    qtbot.addWidget(win)
    start_window(win)
    banner = win.restore_banner
    assert banner.isVisible()
    assert "closed unexpectedly" in banner.text.text() and "small.fg.yaml" in banner.text.text()
    assert win.doc.scenario == load_scenario(original)  # nothing happens until asked
    qtbot.mouseClick(banner.restore_button, Qt.LeftButton)
    s = win.doc.scenario
    assert s.name == "edited before the crash"
    assert win.doc.path == original and win.doc.modified
    assert not win.restore_banner.isVisible()
    assert recovery.find_crashed(recovery_dir) == []
    win.doc.mark_saved()
    win.close()


def test_discarding_offers_the_next_crashed_session(qtbot, recovery_dir: Path, small) -> None:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from PySide6.QtCore import Qt

    from fireground.editor.app import start_window

    _dead_session(recovery_dir, replace(small, name="first"), None)
    _dead_session(recovery_dir, replace(small, name="second"), None)
    win = MainWindow(Document(small))
    win.ask_unsaved = 0x00800000
    qtbot.addWidget(win)
    start_window(win)
    banner = win.restore_banner
    assert banner.isVisible() and "an unsaved scenario" in banner.text.text()
    qtbot.mouseClick(banner.discard_button, Qt.LeftButton)
    assert banner.isVisible()  # the second one
    assert len(recovery.find_crashed(recovery_dir)) == 1
    qtbot.mouseClick(banner.discard_button, Qt.LeftButton)
    assert not banner.isVisible()
    assert recovery.find_crashed(recovery_dir) == []
    assert win.doc.scenario == small
    win.close()


def test_no_banner_without_a_crash(qtbot, recovery_dir: Path, small) -> None:  # type: ignore[no-untyped-def]
    from fireground.editor.app import start_window

    win = MainWindow(Document(small))
    qtbot.addWidget(win)
    start_window(win)
    assert not win.offer_restore()
    assert not win.restore_banner.isVisible()
    win.close()


TYPIST = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication
    from fireground.editor.document import Document
    from fireground.editor.main_window import MainWindow
    from fireground.engine.scenario.io import load_scenario

    app = QApplication([])
    path = sys.argv[1]
    win = MainWindow(Document(load_scenario(path), path))
    win.show()
    QTest.qWaitForWindowExposed(win)
    if sys.argv[2] == "type":
        win.scenario_dock.raise_()
        field = win.scenario_panel.name
        QTest.mouseClick(field, Qt.LeftButton)
        QTest.keyClick(field, Qt.Key_A, Qt.ControlModifier)
        QTest.keyClicks(field, "typed just before the crash")
    print("ready", flush=True)
    while True:  # the parent kills us here
        QTest.qWait(50)
    """
)


def _start(what: str, original: Path, recovery_dir: Path) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "FIREGROUND_RECOVERY_DIR": str(recovery_dir),
        "QT_QPA_PLATFORM": "offscreen",
    }
    child = subprocess.Popen(
        [sys.executable, "-c", TYPIST, str(original), what],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.strip() == "ready", child.stderr.read() if child.stderr else ""
    return child


def test_an_edit_survives_a_crash_seconds_later(
    recovery_dir: Path, tmp_path: Path, repo: Path
) -> None:
    """The recovery copy follows each change within seconds (it was once a minute)."""
    import time

    original = tmp_path / "stepney.fg.yaml"
    shutil.copy(repo / "examples" / "stepney.fg.yaml", original)
    child = _start("type", original, recovery_dir)
    try:
        # The copy is due 2 s after the edit; a loaded machine may take a few more.
        deadline = time.monotonic() + 8
        copies: list[Path] = []
        while time.monotonic() < deadline and not copies:
            time.sleep(0.1)
            copies = list(recovery_dir.glob("*.json"))  # written last
    finally:
        child.kill()  # the crash
        child.wait(timeout=30)
    assert copies, "no recovery copy within seconds of the edit"
    (crashed,) = recovery.find_crashed(recovery_dir)
    assert crashed.original == str(original)
    assert load_scenario(crashed.scenario_file).name == "typed just before the crash"


def test_a_crash_before_any_edit_leaves_no_lock_behind(
    recovery_dir: Path, tmp_path: Path, repo: Path
) -> None:
    original = tmp_path / "stepney.fg.yaml"
    shutil.copy(repo / "examples" / "stepney.fg.yaml", original)
    child = _start("idle", original, recovery_dir)
    try:
        assert len(list(recovery_dir.glob("*.lock"))) == 1  # the live editor's
        assert recovery.find_crashed(recovery_dir) == []
        assert len(list(recovery_dir.glob("*.lock"))) == 1  # a live lock is kept
    finally:
        child.kill()
        child.wait(timeout=30)
    assert recovery.find_crashed(recovery_dir) == []  # nothing to restore…
    assert list(recovery_dir.iterdir()) == []  # …and nothing left behind


def test_undoing_back_to_the_saved_file_drops_the_copy(qtbot, window, recovery_dir: Path) -> None:  # type: ignore[no-untyped-def]
    win = window
    win.doc.push(ChangeSettingsCommand(win.doc, name="changed"))
    qtbot.waitUntil(lambda: bool(list(recovery_dir.glob("*.fg.yaml"))), timeout=8000)
    win.doc.undo_stack.undo()
    qtbot.waitUntil(lambda: not list(recovery_dir.glob("*.fg.yaml")), timeout=8000)
