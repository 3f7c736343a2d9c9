"""``fireground edit [FILE] [--screenshot PNG]``: start the editor."""

from __future__ import annotations

import argparse
import sys


def cli_edit(args: argparse.Namespace) -> int:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from fireground.engine.errors import ScenarioError

    from .document import Document
    from .main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("fireground")
    app.setOrganizationName("fireground")
    doc = Document()
    if args.file:
        from fireground.engine.io import load_scenario

        try:
            doc = Document(load_scenario(args.file), args.file)
        except ScenarioError as exc:
            print(str(exc), file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"{args.file}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    shot = getattr(args, "screenshot", None)
    win = MainWindow(doc, recovery_session=not shot)
    if shot:
        return _screenshot(app, win, shot)
    win.show()
    win.resizeDocks([win.issues_dock], [150], Qt.Vertical)
    win.view.fit_to_map()
    win.issues.refresh()
    win.offer_restore()
    return int(app.exec())


def _screenshot(app: object, win: object, path: str) -> int:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from .main_window import MainWindow

    assert isinstance(win, MainWindow)
    win.resize(1500, 950)
    # Show the level where the start is burning, the most telling view of a scenario.
    fires = [v.level for v in win.doc.scenario.start.fires]
    if fires:
        win.doc.set_level(max(set(fires), key=lambda lvl: (fires.count(lvl), -lvl)))
    win.show()
    for _ in range(3):
        QApplication.processEvents()
    win.resizeDocks([win.issues_dock], [150], Qt.Vertical)
    QApplication.processEvents()
    win.view.fit_to_map()
    win.issues.refresh_now()
    QApplication.processEvents()
    if not win.grab().save(path):
        print(f"{path}: cannot write the screenshot", file=sys.stderr)
        return 2
    win.doc.mark_saved()
    win.close()
    return 0
