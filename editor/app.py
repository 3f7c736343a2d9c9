"""``fireground edit [FILE] [--screenshot PNG]``: start the editor."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .main_window import MainWindow


def cli_edit(args: argparse.Namespace) -> int:
    from PySide6.QtWidgets import QApplication

    from fireground.engine.core.errors import ScenarioError

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("fireground")
    app.setOrganizationName("fireground")
    shot = getattr(args, "screenshot", None)
    try:
        win = open_window(args.file, recovery_session=not shot)
    except ScenarioError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    if shot:
        return _screenshot(app, win, shot)
    start_window(win)
    return int(app.exec())


def open_window(file: str | None, *, recovery_session: bool = True) -> MainWindow:
    """A main window on ``file`` (or a new scenario). Raises ScenarioError or OSError."""
    from .document import Document
    from .main_window import MainWindow

    doc = Document()
    if file:
        from fireground.engine.scenario.io import load_scenario

        doc = Document(load_scenario(file, editing=True), file)
    return MainWindow(doc, recovery_session=recovery_session)


def start_window(win: MainWindow) -> None:
    """Show the window as at start-up: fitted, checked, and offering to restore the work of
    an editor that crashed (a banner over the map)."""
    from PySide6.QtCore import Qt

    win.show()
    win.resizeDocks(win.bottom_docks[:1], [150], Qt.Vertical)
    win.view.fit_to_map()
    win.game_panels.refresh()
    win.offer_restore()


#: Turns the game plays (``GamePanels.screenshot``) before a screenshot of a scenario that
#: starts burning, so the picture shows the fire spreading, hose lines and the rolls in
#: words (the scenario is unchanged).
#: ``FIREGROUND_SCREENSHOT_TURNS=0`` shows the start as drawn.
SCREENSHOT_TURNS = 4


def _screenshot(app: object, win: object, path: str) -> int:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow

    assert isinstance(win, MainWindow)
    win.resize(1500, 950)
    s = win.doc.scenario
    # Show the level where the start is burning, the most telling view of a scenario, with
    # a burning building area selected so Properties shows its fields.
    fires = [v.level for v in s.start.fires]
    if fires:
        level = max(set(fires), key=lambda lvl: (fires.count(lvl), -lvl))
        win.doc.set_level(level)
        burning = sorted(v.area for v in s.start.fires if v.level == level)
        win.doc.select_areas(burning[:1])
    try:
        turns = int(os.environ.get("FIREGROUND_SCREENSHOT_TURNS", SCREENSHOT_TURNS))
    except ValueError:
        turns = SCREENSHOT_TURNS
    turns = turns if fires else 0
    # Keep the bottom docks short: offscreen, resizeDocks alone does not take.
    for d in win.bottom_docks:
        d.setMaximumHeight(190 if turns else 130)
    win.show()
    for _ in range(3):
        QApplication.processEvents()
    # Room for the Properties form; the Overlays panel needs little.
    win.resizeDocks([win.properties_dock, win.overlays_dock], [380, 200], Qt.Vertical)
    QApplication.processEvents()
    win.view.fit_to_map()
    win.game_panels.screenshot(turns)  # BLITZ!: checks, then plays its test turns
    QApplication.processEvents()
    QApplication.processEvents()
    saved = win.grab().save(path)
    # Close and delete the window whatever happened: a window left open stays on top of
    # every later window of this process (in-process callers, tests).
    win.doc.mark_saved()
    win.close()
    win.deleteLater()
    QApplication.processEvents()
    if not saved:
        print(f"{path}: cannot write the screenshot", file=sys.stderr)
        return 2
    return 0
