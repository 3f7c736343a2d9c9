"""Drive every field of every editor panel with real keys and clicks, and finish each edit
in every way a user does: Tab, Enter, a click on the map, Escape.

Run as a child process (``python -X faulthandler field_crawl.py GROUP``) by
``test_no_crash.py``, so a Qt crash fails that test instead of killing the test run. It
prints one line per step before taking it (a crash names the field), and exits 1 if any
Python exception escaped from a slot.

The fields are found by walking each panel's widget tree, not from a list: a field added
to a panel later is driven without touching this file.
"""

from __future__ import annotations

import faulthandler
import os
import sys
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

faulthandler.enable()
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QPointF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QImage  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import (  # noqa: E402
    QAbstractButton,
    QAbstractItemView,
    QAbstractSlider,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QFileDialog,
    QInputDialog,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QScrollBar,
    QTableWidget,
    QTextEdit,
    QWidget,
)

ROOT = Path(__file__).resolve().parents[2]
FINISHERS = ("tab", "enter", "map", "escape")

errors: list[str] = []


def _hook(kind: type[BaseException], exc: BaseException, tb: Any) -> None:
    text = "".join(traceback.format_exception(kind, exc, tb))
    errors.append(text)
    sys.stderr.write(text)


sys.excepthook = _hook


def settle(app: QApplication) -> None:
    """Let queued calls run and deleteLater'd widgets really go, as the event loop would."""
    for _ in range(3):
        app.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.DeferredDelete)


def scenario() -> Any:
    """The Stepney tutorial with open water and a background image added, so every kind of
    feature, a building with a basement, units on the table and arriving, objectives and a
    background are there to edit."""
    from fireground.editor import ops
    from fireground.editor.background import new_background
    from fireground.engine.board.model import FeatureType
    from fireground.engine.scenario.io import load_scenario

    s = load_scenario(ROOT / "examples" / "stepney.fg.yaml")
    street = next(a.id for a in s.areas if a.kind.value == "street")
    s = ops.add_feature(s, ops.make_feature(FeatureType.WATER, street))
    img = Path(tempfile.mkdtemp()) / "plan.png"
    image = QImage(64, 48, QImage.Format_RGB32)
    image.fill(QColor("#dddddd"))
    image.save(str(img))
    return replace(s, background=new_background(str(img), (64, 48), s.bounds()))


def no_dialogs() -> None:
    """Buttons that ask something get an answer at once (a modal box would hang the run)."""
    QInputDialog.getText = staticmethod(lambda *a, **k: ("crawl_b", True))  # type: ignore[method-assign]
    QInputDialog.getInt = staticmethod(lambda *a, **k: (1, True))  # type: ignore[method-assign]
    QFileDialog.getOpenFileName = staticmethod(lambda *a, **k: ("", ""))  # type: ignore[method-assign]
    QFileDialog.getSaveFileName = staticmethod(lambda *a, **k: ("", ""))  # type: ignore[method-assign]
    QFileDialog.getExistingDirectory = staticmethod(lambda *a, **k: "")  # type: ignore[method-assign]
    for name in ("warning", "critical", "information", "question"):
        setattr(QMessageBox, name, staticmethod(lambda *a, **k: QMessageBox.Ok))
    QDialog.exec = lambda self: QDialog.Accepted  # type: ignore[method-assign]  # defaults


def _inside(w: QWidget, kinds: tuple[type, ...], root: QWidget) -> bool:
    p = w.parentWidget()
    while p is not None and p is not root:
        if isinstance(p, kinds):
            return True
        p = p.parentWidget()
    return False


INPUTS = (
    QLineEdit,
    QAbstractSpinBox,
    QComboBox,
    QAbstractButton,
    QPlainTextEdit,
    QTextEdit,
    QAbstractSlider,
    QAbstractItemView,
)


def fields(root: QWidget) -> list[QWidget]:
    """Every input a user can reach in ``root``: standard inputs, and the project's own
    widgets that take mouse clicks; not the parts inside a spin box, combo box or table."""
    out = []
    for w in root.findChildren(QWidget):
        if not w.isVisibleTo(root) or not w.isEnabled():
            continue
        if isinstance(w, QScrollBar):
            continue
        if _inside(w, (QAbstractSpinBox, QComboBox, QAbstractItemView), root):
            continue
        own = type(w).__module__.startswith("fireground.") and "mousePressEvent" in vars(type(w))
        if isinstance(w, INPUTS) or own:
            out.append(w)
    return out


def describe(w: QWidget) -> str:
    name = type(w).__name__
    text = ""
    if isinstance(w, QAbstractButton):
        text = w.text()
    elif isinstance(w, QLineEdit):
        text = w.placeholderText() or w.toolTip()[:30]
    else:
        text = w.toolTip()[:30]
    return f"{name}[{text}]" if text else name


class Crawl:
    def __init__(self) -> None:
        from PySide6.QtCore import QSettings

        from fireground.editor.document import Document
        from fireground.editor.main_window import MainWindow

        self.app = QApplication.instance() or QApplication([])
        tmp = tempfile.mkdtemp()
        os.environ["FIREGROUND_RECOVERY_DIR"] = tmp
        QSettings.setPath(QSettings.NativeFormat, QSettings.UserScope, tmp)
        no_dialogs()
        self.doc = Document(scenario(), ROOT / "examples" / "stepney.fg.yaml")
        self.win = MainWindow(self.doc, recovery_session=False)
        self.win.ask_unsaved = QMessageBox.Discard
        self.win.resize(1500, 950)
        self.win.show()
        QTest.qWaitForWindowExposed(self.win)
        settle(self.app)
        self.win.view.fit_to_map()
        self.steps = 0
        self.fields = 0

    # -- where things are ------------------------------------------------------------------------
    def map_point(self, area_id: str) -> QPoint:
        a = self.win.doc.scenario.area_by_id[area_id]
        x, y = a.centroid
        return self.win.view.mapFromScene(QPointF(x, -y))

    def states(self, group: str) -> list[tuple[str, Callable[[], QWidget]]]:
        """(name, set-up) of every panel state to crawl; set-up returns the panel's root."""
        from fireground.editor.document import Selection
        from fireground.engine.board.model import FeatureType

        w = self.win
        s = self.doc.scenario

        def props(sel: Selection) -> Callable[[], QWidget]:
            def setup() -> QWidget:
                w.doc.set_selection(sel)
                w.properties_dock.show()
                w.properties_dock.raise_()
                return w.properties

            return setup

        def dock(d: Any, panel: QWidget) -> Callable[[], QWidget]:
            def setup() -> QWidget:
                d.show()
                d.raise_()
                return panel

            return setup

        out: list[tuple[str, Callable[[], QWidget]]] = []
        if group == "properties":
            out += [
                ("nothing selected", props(Selection())),
                ("area with a basement", props(Selection(areas=("PUB1",)))),
                ("areas of one building", props(Selection(areas=("PUB1", "PUB2")))),
                ("areas of two kinds", props(Selection(areas=("H1", "JS1")))),
                ("street area", props(Selection(areas=("JS1",)))),
                ("one unit", props(Selection(units=("FP1",)))),
                ("units", props(Selection(units=tuple(u.id for u in s.forces)))),
            ]
            for t in FeatureType:
                i = next(i for i, f in enumerate(s.features) if f.type is t)
                out.append((f"{t.value} feature", props(Selection(features=(i,)))))
        elif group == "scenario":
            out += [
                ("scenario", dock(w.scenario_dock, w.scenario_panel)),
                ("forces", dock(w.forces_dock, w.forces)),
            ]
        else:
            out += [
                ("background", dock(w.background_dock, w.background)),
                ("overlays", dock(w.overlays_dock, w.overlays)),
                ("test turn", dock(w.turn_dock, w.test_turn)),
                ("issues", dock(w.issues_dock, w.issues)),
            ]

            def tool(t: Any) -> Callable[[], QWidget]:
                def setup() -> QWidget:
                    w._use_tool(t)
                    return w.options

                return setup

            tb = w.toolbox
            for t in (
                tb.select,
                tb.polygon,
                tb.rectangle,
                tb.vertices,
                tb.split_cells,
                *tb.place.values(),
                *tb.brushes.values(),
            ):
                out.append((f"tool options: {t.name}", tool(t)))
        return out

    # -- one step ---------------------------------------------------------------------------------
    def reset(self) -> None:
        """Back to the file as opened: every edit undone, the select tool, no selection."""
        w = self.win
        w.doc.undo_stack.setIndex(0)
        if w.view.tool is not w.toolbox.select:
            w._use_tool(w.toolbox.select)
        w.doc.set_selection(type(w.doc.selection)())
        settle(self.app)

    def key(self, k: Qt.Key, mod: Qt.KeyboardModifier = Qt.NoModifier) -> None:
        target = QApplication.focusWidget() or self.win
        QTest.keyClick(target, k, mod)

    def type_text(self, text: str) -> None:
        for ch in text:
            target = QApplication.focusWidget() or self.win
            QTest.keyClicks(target, ch)

    def edit(self, w: QWidget, cell: tuple[int, int] | None) -> None:
        """Put the focus in ``w`` and change it the way a user would."""
        if isinstance(w, QTableWidget):
            assert cell is not None
            r, c = cell
            rect = w.visualRect(w.model().index(r, c))
            QTest.mouseClick(w.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
            settle(self.app)
            self.type_text("Z9")
            return
        if isinstance(w, QAbstractItemView):  # a list of findings or rolls: click the first
            index = w.model().index(0, 0)
            if index.isValid():
                rect = w.visualRect(index)
                QTest.mouseClick(w.viewport(), Qt.LeftButton, Qt.NoModifier, rect.center())
            else:
                w.setFocus(Qt.TabFocusReason)
            return
        if isinstance(w, QAbstractButton):
            QTest.mouseClick(w, Qt.LeftButton)
            return
        if isinstance(w, QComboBox):
            w.setFocus(Qt.TabFocusReason)
            self.key(Qt.Key_Down)
            return
        if isinstance(w, QAbstractSlider):
            QTest.mouseClick(w, Qt.LeftButton)
            self.key(Qt.Key_Right)
            return
        if isinstance(w, QAbstractSpinBox):
            QTest.mouseClick(w, Qt.LeftButton)
            self.key(Qt.Key_A, Qt.ControlModifier)
            self.type_text("3")
            return
        if isinstance(w, (QLineEdit, QPlainTextEdit, QTextEdit)):
            QTest.mouseClick(w, Qt.LeftButton)
            self.key(Qt.Key_End)
            self.type_text("x7")
            return
        # The project's own clickable widgets (the wind rose): off-centre, then the centre.
        QTest.mouseClick(w, Qt.LeftButton, Qt.NoModifier, QPoint(w.width() // 2, 8))
        QTest.mouseClick(w, Qt.LeftButton, Qt.NoModifier, w.rect().center())

    def finish(self, how: str) -> None:
        if how == "tab":
            self.key(Qt.Key_Tab)
        elif how == "enter":
            self.key(Qt.Key_Return)
        elif how == "escape":
            self.key(Qt.Key_Escape)
        else:  # a click on another area of the map
            vp = self.win.view.viewport()
            QTest.mouseMove(vp, self.map_point("H3"))
            QTest.mouseClick(vp, Qt.LeftButton, Qt.NoModifier, self.map_point("H3"))

    def step(self, label: str, setup: Callable[[], QWidget], n: int, cell: Any, how: str) -> None:
        self.reset()
        root = setup()
        settle(self.app)
        found = fields(root)
        if n >= len(found):
            raise AssertionError(f"{label}: field {n} of {len(found)} is gone after a reset")
        w = found[n]
        where = f"{label} / {describe(w)}" + (f" cell {cell}" if cell else "") + f" + {how}"
        print(where, flush=True)
        self.edit(w, cell)
        settle(self.app)
        self.finish(how)
        settle(self.app)
        self.steps += 1

    def run(self, group: str) -> None:
        for label, setup in self.states(group):
            self.reset()
            root = setup()
            settle(self.app)
            found = fields(root)
            todo: list[tuple[int, Any]] = []
            for n, w in enumerate(found):
                if isinstance(w, QTableWidget):
                    for c in range(w.columnCount()):
                        item = w.item(0, c)
                        if item is not None and item.flags() & Qt.ItemIsEditable:
                            todo.append((n, (0, c)))
                else:
                    todo.append((n, None))
            print(f"== {label}: {len(found)} field(s), {len(todo)} to drive", flush=True)
            self.fields += len(todo)
            for n, cell in todo:
                for how in FINISHERS:
                    self.step(label, setup, n, cell, how)
        self.reset()
        self.win.close()
        settle(self.app)
        print(f"DONE {group}: {self.fields} field(s), {self.steps} step(s)", flush=True)

    # -- the crashes reported in issue 13, each with the value it must leave -------------------
    def field(self, label: str) -> QWidget:
        return next(f.widget for f in self.win.properties._fields if f.label == label)

    def reported(self) -> None:
        w, doc = self.win, self.doc
        vp = w.view.viewport()

        def select(area: str) -> None:
            self.reset()
            doc.select_areas([area])
            w.properties_dock.raise_()
            settle(self.app)

        print("basement check box", flush=True)
        select("H1")
        QTest.mouseClick(self.field("Basement"), Qt.LeftButton)
        settle(self.app)
        assert doc.scenario.building_by_id["house_1"].basement, "basement not set"
        assert self.field("Basement").isChecked()

        print("building levels + Tab", flush=True)
        select("H1")
        QTest.mouseClick(self.field("Levels"), Qt.LeftButton)
        self.key(Qt.Key_A, Qt.ControlModifier)
        self.type_text("4")
        assert doc.scenario.building_by_id["house_1"].levels == 2, "changed before Tab"
        self.key(Qt.Key_Tab)
        settle(self.app)
        assert doc.scenario.building_by_id["house_1"].levels == 4, "levels not set"

        for finish in ("tab", "map"):
            print(f"building name + {finish}", flush=True)
            select("H1")
            QTest.mouseClick(self.field("Building name"), Qt.LeftButton)
            self.key(Qt.Key_A, Qt.ControlModifier)
            self.type_text("No. 1")
            self.finish(finish)
            settle(self.app)
            assert doc.scenario.building_by_id["house_1"].name == "No. 1", finish

            print(f"area id + {finish}", flush=True)
            select("H1")
            QTest.mouseClick(self.field("Id"), Qt.LeftButton)
            self.key(Qt.Key_End)
            self.type_text("a")
            if finish == "tab":
                self.key(Qt.Key_Tab)
            else:  # click away: on the map, off every area
                QTest.mouseClick(vp, Qt.LeftButton, Qt.NoModifier, QPoint(3, 3))
            settle(self.app)
            assert "H1a" in doc.scenario.area_by_id and "H1" not in doc.scenario.area_by_id
            if finish == "tab":  # still editing the renamed area
                assert doc.selection.areas == ("H1a",), doc.selection
                assert self.field("Id").text() == "H1a"
        self.reset()
        self.win.close()
        settle(self.app)
        print("DONE reported", flush=True)


def main(argv: list[str]) -> int:
    group = argv[1] if len(argv) > 1 else "properties"
    if group == "reported":
        Crawl().reported()
    else:
        Crawl().run(group)
    if errors:
        print(f"{len(errors)} exception(s) escaped from slots", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
