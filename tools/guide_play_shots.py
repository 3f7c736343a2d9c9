"""Make the screenshots of the guide's "Running a game" chapter (docs/img/guide-play*.png).

Run headless: ``QT_QPA_PLATFORM=offscreen .venv/bin/python tools/guide_play_shots.py``.
Plays Paternoster Row with seed 5 in the editor's Play mode, as an umpire would.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

REPO = Path(__file__).resolve().parents[1]
IMG = REPO / "docs" / "img"


def main() -> int:
    tmp = Path(tempfile.mkdtemp())
    os.environ.setdefault("FIREGROUND_RECOVERY_DIR", str(tmp / "recovery"))
    app = QApplication(sys.argv[:1])
    from fireground.editor.document import Document
    from fireground.editor.games.blitz.play_mode import RollDialog
    from fireground.editor.main_window import MainWindow
    from fireground.engine.games.blitz.delta import table_delta
    from fireground.engine.scenario.io import load_scenario
    from fireground.export.games.blitz.turn_sheet import write_turn_sheet

    path = REPO / "examples" / "paternoster.fg.yaml"
    win = MainWindow(Document(load_scenario(path), path), recovery_session=False)
    win.resize(1500, 1000)
    win.play_dock.setMinimumHeight(340)
    win.show()
    for _ in range(3):
        app.processEvents()
    win.play_dock.raise_()
    win.view.fit_to_map()
    panel = win.play
    panel.seed.setValue(5)
    panel.start(tmp / "club.fgame.yaml", 5)
    for _ in range(3):
        panel.resolve()
    # the roll dialog, as the umpire sees it with "Roll dice at the table"
    shot: dict[str, bool] = {}

    def grab_dialog() -> None:
        dlg = QApplication.activeModalWidget()
        if not isinstance(dlg, RollDialog):
            QTimer.singleShot(20, grab_dialog)
            return
        if not shot:
            dlg.entry.setText("2")
            app.processEvents()
            dlg.grab().save(str(IMG / "guide-play-roll.png"))
            shot["done"] = True
            dlg._ok()
            QTimer.singleShot(20, grab_dialog)
        else:
            dlg._rest()

    panel.manual.setChecked(True)
    QTimer.singleShot(20, grab_dialog)
    assert panel.tg is not None
    before = panel.tg.state_log()
    panel.resolve()
    panel.manual.setChecked(False)
    assert panel.tg is not None and panel.tg.turns[-1].log is not None
    win.doc.set_level(3)
    panel.select_unit("GA1")
    panel.give(next(c for c in _choices(panel, "GA1") if c.label == "rest"))
    panel.select_unit("GA1.3")
    panel.give(next(c for c in _choices(panel, "GA1.3") if c.order.kind == "stream"))
    panel.delta.item(0).setCheckState(panel.delta.item(0).checkState().__class__.Checked)
    panel.delta.item(1).setCheckState(panel.delta.item(1).checkState().__class__.Checked)
    app.processEvents()
    win.grab().save(str(IMG / "guide-play.png"))
    changes = table_delta(before, panel.tg.turns[-1].log.state)
    sheet = tmp / "sheet.pdf"
    write_turn_sheet(panel.tg, changes, sheet)
    subprocess.run(["pdftoppm", "-png", "-r", "60", "-singlefile", str(sheet),
                    str(IMG / "guide-play-sheet")], check=True)  # fmt: skip
    win.doc.mark_saved()
    win.close()
    return 0


def _choices(panel: object, uid: str) -> list[object]:
    from fireground.engine.games.blitz.choices import order_choices

    g = panel.tg.game  # type: ignore[attr-defined]
    return list(order_choices(g.ctx, g.state, uid))


if __name__ == "__main__":
    raise SystemExit(main())
