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
from fireground.engine.io import load_scenario

CHILD = textwrap.dedent(
    """
    import sys, time
    from PySide6.QtWidgets import QApplication
    from fireground.editor.commands import ChangeSettingsCommand
    from fireground.editor.document import Document
    from fireground.editor.main_window import MainWindow
    from fireground.engine.io import load_scenario

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
