"""The editor's main window: canvas, tools, docks, menus, files, autosave and export."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressDialog,
    QWidget,
)

from fireground.engine.scenario import Scenario

from . import recovery
from .commands import (
    DropBombsCommand,
    MergeAreasCommand,
    ReplaceScenarioCommand,
    SplitAreaCommand,
)
from .document import Document, default_scenario
from .panels.forces import ForcesPanel
from .panels.issues import IssuesPanel
from .panels.overlays import OverlaysPanel
from .panels.properties import PropertiesPanel
from .panels.scenario_panel import ScenarioPanel
from .panels.test_turn import TestTurnPanel
from .scene.map_scene import MapScene
from .scene.map_view import MapView
from .toolbox import OptionsBar, Toolbox
from .tools.select import delete_selection

AUTOSAVE_MS = 60_000
MAX_RECENT = 8
FILE_FILTER = "Scenarios (*.fg.yaml *.yaml *.yml);;All files (*)"


class MainWindow(QMainWindow):
    def __init__(self, doc: Document | None = None, *, recovery_session: bool = True) -> None:
        super().__init__()
        self.settings = QSettings("fireground", "editor")
        #: Answers for dialogs, so tests can close a modified window without a modal box.
        self.ask_unsaved: Any = None
        self.recovery = recovery.RecoverySession() if recovery_session else None
        self.doc = doc or Document()
        self._build_canvas()
        self._build_docks()
        self._build_menus()
        self._autosave = QTimer(self)
        self._autosave.setInterval(AUTOSAVE_MS)
        self._autosave.timeout.connect(self.autosave)
        self._autosave.start()
        self._connect_doc()
        self.resize(1400, 900)
        _settle_heap()

    # -- construction -------------------------------------------------------------------------
    def _build_canvas(self) -> None:
        self.scene = MapScene(self.doc)
        self.view = MapView(self.scene)
        self.setCentralWidget(self.view)
        self.toolbox = Toolbox(self.doc, self.view)
        bar = self.addToolBar("Tools")
        bar.setObjectName("tools")
        self._toolbars = [bar]
        self.toolbox.build_toolbar(bar, self._tool_changed)
        self.addToolBarBreak()
        self.options = OptionsBar(self.toolbox)
        self.options.setObjectName("options")
        self.addToolBar(self.options)
        self._toolbars.append(self.options)
        self.view.set_tool(self.toolbox.select)
        self.options.tool_changed()
        self.cursor_label = QLabel("")
        self.cursor_label.setMinimumWidth(160)
        self.statusBar().addPermanentWidget(self.cursor_label)
        self.view.cursorMoved.connect(
            lambda x, y: self.cursor_label.setText(f"x {x:.1f} cm, y {y:.1f} cm")
        )
        self.view.statusMessage.connect(lambda m: self.statusBar().showMessage(m))

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(title)
        d.setWidget(widget)
        self.addDockWidget(area, d)
        self._docks.append(d)
        return d

    def _build_docks(self) -> None:
        self._docks: list[QDockWidget] = []
        self.properties = PropertiesPanel(self.doc)
        self.forces = ForcesPanel(self.doc)
        self.scenario_panel = ScenarioPanel(self.doc)
        self.issues = IssuesPanel(self.doc)
        self.issues.markers = self.scene
        self.overlays = OverlaysPanel(self.scene)
        self.test_turn = TestTurnPanel(self.doc, self.scene)
        r, b = Qt.RightDockWidgetArea, Qt.BottomDockWidgetArea
        self.properties_dock = self._dock("Properties", self.properties, r)
        self.scenario_dock = self._dock("Scenario", self.scenario_panel, r)
        self.forces_dock = self._dock("Forces", self.forces, r)
        self.overlays_dock = self._dock("Overlays", self.overlays, r)
        self.tabifyDockWidget(self.properties_dock, self.scenario_dock)
        self.tabifyDockWidget(self.scenario_dock, self.forces_dock)
        self.properties_dock.raise_()
        self.issues_dock = self._dock("Issues", self.issues, b)
        self.turn_dock = self._dock("Test turn", self.test_turn, b)
        self.tabifyDockWidget(self.issues_dock, self.turn_dock)
        self.issues_dock.raise_()
        self.resizeDocks([self.issues_dock], [170], Qt.Vertical)
        self.issues.locate.connect(self._locate)

    def _build_menus(self) -> None:
        mb = self.menuBar()
        f = mb.addMenu("&File")
        self._act(f, "&New", self.new_file, QKeySequence.New)
        self._act(f, "&Open…", self.open_dialog, QKeySequence.Open)
        self.recent_menu = f.addMenu("Open &Recent")
        self._fill_recent()
        self._act(f, "&Save", self.save, QKeySequence.Save)
        self._act(f, "Save &As…", self.save_as, QKeySequence.SaveAs)
        f.addSeparator()
        self.export_menu = f.addMenu("&Export")
        self.export_action = self._act(self.export_menu, "Play-aid pack…", self.export_dialog)
        self._update_export_action()
        f.addSeparator()
        self._act(f, "&Quit", self.close, QKeySequence.Quit)

        e = mb.addMenu("&Edit")
        undo = self.doc.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence("Ctrl+Z"))
        redo = self.doc.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        e.addAction(undo)
        e.addAction(redo)
        e.addSeparator()
        self._act(
            e,
            "&Delete selection",
            lambda: delete_selection(self.toolbox.select),
            QKeySequence.Delete,
        )
        self._act(e, "New &building…", self.new_building_dialog)
        self._act(e, "&Merge selected areas", self.merge_selected)
        self._act(e, "S&plit selected into cells", self.split_selected)
        self._act(e, "Drop &bombs on the start…", self.drop_bombs_dialog)

        v = mb.addMenu("&View")
        self._act(v, "&Fit to map", self.view.fit_to_map, "Ctrl+0")
        self._act(v, "Zoom &in", lambda: self.view.zoom_by(1.25), QKeySequence.ZoomIn)
        self._act(v, "Zoom &out", lambda: self.view.zoom_by(0.8), QKeySequence.ZoomOut)
        grid = self._act(v, "Show &grid", self._toggle_grid)
        grid.setCheckable(True)
        grid.setChecked(True)
        self._act(
            v,
            "Level &up",
            lambda: self.doc.set_level(min(self.doc.level + 1, self.doc.level_range().stop - 1)),
            "PgUp",
        )
        self._act(
            v,
            "Level &down",
            lambda: self.doc.set_level(max(self.doc.level - 1, self.doc.level_range().start)),
            "PgDown",
        )
        v.addSeparator()
        for d in (
            self.properties_dock,
            self.scenario_dock,
            self.forces_dock,
            self.overlays_dock,
            self.issues_dock,
            self.turn_dock,
        ):
            v.addAction(d.toggleViewAction())

    def _act(self, menu: Any, text: str, slot: Any, key: Any = None) -> QAction:
        a = QAction(text, self)
        if key is not None:
            a.setShortcut(QKeySequence(key))
        a.triggered.connect(lambda _=False: slot())
        menu.addAction(a)
        return a

    def _connect_doc(self) -> None:
        self.doc.modifiedChanged.connect(lambda _m: self._update_title())
        self.doc.fileNameChanged.connect(lambda _p: self._update_title())
        self.doc.scenarioChanged.connect(lambda *_: self._update_title())
        self._update_title()

    def _tool_changed(self) -> None:
        self.options.tool_changed()

    def _toggle_grid(self) -> None:
        self.scene.grid_visible = not self.scene.grid_visible
        self.scene.update()

    def _locate(self, area: str, level: int) -> None:
        a = self.doc.scenario.area_by_id.get(area)
        if a is not None:
            size = max(
                a.shape.bounds[2] - a.shape.bounds[0], a.shape.bounds[3] - a.shape.bounds[1], 1.0
            )
            self.view.center_on_map(a.centroid, zoom_to_cm=size * 4)

    # -- documents ----------------------------------------------------------------------------
    def _update_title(self) -> None:
        p = self.doc.path
        name = p.name if p else "untitled"
        self.setWindowTitle(f"{name}[*] — {self.doc.scenario.name or 'scenario'} — fireground")
        self.setWindowModified(self.doc.modified)

    def set_document(self, doc: Document) -> None:
        """Swap the whole document (New, Open): rebuild the canvas and docks on it."""
        old, old_scene = self.doc, self.scene
        self.view.set_tool(None)
        self.issues.shutdown()
        for d in self._docks:
            self.removeDockWidget(d)
            d.deleteLater()
        self.removeToolBarBreak(self.options)
        for tb in self._toolbars:
            self.removeToolBar(tb)
            tb.deleteLater()
        self.menuBar().clear()
        self.doc = doc
        self._build_canvas()
        self._build_docks()
        self._build_menus()
        self._connect_doc()
        self.view.fit_to_map()
        self.issues.refresh()
        old_scene.deleteLater()
        old.deleteLater()
        _settle_heap()

    def maybe_save(self) -> bool:
        """True when it is fine to drop the current document (saved, or the user agreed)."""
        if not self.doc.modified:
            return True
        if self.ask_unsaved is not None:
            answer = self.ask_unsaved
        else:
            answer = QMessageBox.warning(
                self,
                "Unsaved changes",
                "The scenario has changes that are not saved. Save them first?",
                QMessageBox.Save | QMessageBox.Discard | QMessageBox.Cancel,
            )
        if answer == QMessageBox.Save:
            return self.save()
        return answer == QMessageBox.Discard

    def new_file(self) -> None:
        if self.maybe_save():
            self.set_document(Document(default_scenario()))

    def open_dialog(self) -> None:
        if not self.maybe_save():
            return
        path, _ = QFileDialog.getOpenFileName(self, "Open scenario", "", FILE_FILTER)
        if path:
            self.open_file(path)

    def open_file(self, path: str | Path) -> bool:
        from fireground.engine.errors import ScenarioError
        from fireground.engine.io import load_scenario

        try:
            s = load_scenario(path)
        except (ScenarioError, OSError) as exc:
            QMessageBox.critical(self, "Cannot open scenario", str(exc))
            return False
        self.set_document(Document(s, path))
        self._add_recent(str(path))
        return True

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self.save_to(self.doc.path)

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(
            self, "Save scenario as", str(self.doc.path or "untitled.fg.yaml"), FILE_FILTER
        )
        if not path:
            return False
        return self.save_to(path)

    def save_to(self, path: str | Path) -> bool:
        from fireground.engine.io import save_scenario

        try:
            save_scenario(self.doc.scenario, path)
        except OSError as exc:
            QMessageBox.critical(self, "Cannot save", f"{path}: {exc.strerror or exc}")
            return False
        self.doc.set_path(path)
        self.doc.mark_saved()
        if self.recovery is not None:
            self.recovery.discard()
        self._add_recent(str(path))
        self.statusBar().showMessage(f"Saved {path}", 4000)
        return True

    def autosave(self) -> Path | None:
        """Write the recovery file when there are unsaved changes."""
        if self.recovery is None or not self.doc.modified:
            return None
        try:
            return self.recovery.write(
                self.doc.scenario, str(self.doc.path) if self.doc.path else None
            )
        except OSError as exc:
            self.statusBar().showMessage(f"Autosave failed: {exc}", 6000)
            return None

    def restore(self, crashed: recovery.Crashed) -> bool:
        """Open a crashed session's autosave as unsaved changes of its original file."""
        from fireground.engine.errors import ScenarioError
        from fireground.engine.io import load_scenario

        try:
            saved = load_scenario(crashed.scenario_file)
        except (ScenarioError, OSError) as exc:
            QMessageBox.critical(self, "Cannot restore", str(exc))
            return False
        base: Scenario = default_scenario()
        path = crashed.original
        if path and os.path.exists(path):
            with contextlib.suppress(ScenarioError, OSError):
                base = load_scenario(path)
        doc = Document(base, path)
        self.set_document(doc)
        doc.push(ReplaceScenarioCommand(doc, saved, "Restore unsaved changes"))
        recovery.forget(crashed)
        return True

    def offer_restore(self) -> None:
        own = self.recovery.id if self.recovery else None
        for c in recovery.find_crashed(own=own):
            what = c.original or "an unsaved scenario"
            answer = QMessageBox.question(
                self,
                "Restore unsaved work?",
                f"The editor closed unexpectedly while editing {what}. "
                "Restore the autosaved changes?",
                QMessageBox.Yes | QMessageBox.No,
            )
            if answer == QMessageBox.Yes:
                self.restore(c)
                return
            recovery.forget(c)

    # -- recent files -------------------------------------------------------------------------
    def _recent(self) -> list[str]:
        v = self.settings.value("recent", [])
        return [str(x) for x in (v if isinstance(v, list) else [v] if v else [])]

    def _add_recent(self, path: str) -> None:
        path = str(Path(path).resolve())
        items = [path, *[p for p in self._recent() if p != path]][:MAX_RECENT]
        self.settings.setValue("recent", items)
        self._fill_recent()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        for p in self._recent():
            a = self.recent_menu.addAction(p)
            a.triggered.connect(lambda _=False, p=p: self.maybe_save() and self.open_file(p))
        self.recent_menu.setEnabled(bool(self._recent()))

    # -- edits from menus ---------------------------------------------------------------------
    def merge_selected(self) -> None:
        try:
            self.doc.push(MergeAreasCommand(self.doc, list(self.doc.selection.areas)))
        except ValueError as exc:
            self.statusBar().showMessage(str(exc), 5000)

    def split_selected(self) -> None:
        self.doc.undo_stack.beginMacro("Split into cells")
        try:
            for aid in list(self.doc.selection.areas):
                self.doc.push(SplitAreaCommand(self.doc, aid))
        except ValueError as exc:
            self.statusBar().showMessage(str(exc), 5000)
        finally:
            self.doc.undo_stack.endMacro()

    def new_building_dialog(self) -> None:
        from . import ops

        suggestion = ops.next_id(self.doc.scenario.building_by_id, "building")
        bid, ok = QInputDialog.getText(self, "New building", "Building id:", text=suggestion)
        if not ok or not bid.strip():
            return
        levels, ok = QInputDialog.getInt(self, "New building", "Levels:", 2, 1, 20)
        if ok:
            self.new_building(bid.strip(), levels)

    def new_building(self, building_id: str, levels: int = 2) -> bool:
        """Add a building and make it what new areas are drawn as."""
        from fireground.engine.scenario import AreaKind, Building

        from .commands import AddBuildingCommand

        try:
            self.doc.push(AddBuildingCommand(self.doc, Building(building_id, levels=levels)))
        except ValueError as exc:
            self.statusBar().showMessage(str(exc), 5000)
            return False
        self.options.select_kind(AreaKind.BUILDING, building_id)
        return True

    def drop_bombs_dialog(self) -> None:
        n, ok = QInputDialog.getInt(self, "Drop bombs", "Sticks of bombs:", 2, 1, 50)
        if not ok:
            return
        seed, ok = QInputDialog.getInt(self, "Drop bombs", "Seed:", 1940, 0, 2**31 - 1)
        if ok:
            self.doc.push(DropBombsCommand(self.doc, n, seed))

    # -- export -------------------------------------------------------------------------------
    def _export_fn(self) -> Any:
        try:
            from fireground.export.pack import export_pack
        except ImportError:
            return None
        return export_pack

    def _update_export_action(self) -> None:
        ok = self._export_fn() is not None
        self.export_action.setEnabled(ok)
        self.export_menu.setToolTipsVisible(True)
        self.export_action.setToolTip(
            "Write the printable play aids"
            if ok
            else "The export layer is not installed yet (fireground.export.pack)"
        )

    def export_dialog(self) -> None:
        fn = self._export_fn()
        if fn is None:
            return
        out = QFileDialog.getExistingDirectory(self, "Export play-aid pack to folder")
        if out:
            self.export_to(out)

    def export_to(self, out: str | Path) -> list[Path] | None:
        """Write the play-aid pack, one document kind at a time so progress is real."""
        fn = self._export_fn()
        if fn is None:
            return None
        try:
            from fireground.export.pack import KINDS
        except ImportError:
            KINDS = ("plans", "cards", "reference", "counters", "turns", "briefing")
        dlg = QProgressDialog("Writing the play aids…", "Cancel", 0, len(KINDS), self)
        dlg.setWindowModality(Qt.WindowModal)
        dlg.setMinimumDuration(0)
        written: list[Path] = []
        try:
            for i, kind in enumerate(KINDS):
                dlg.setValue(i)
                dlg.setLabelText(f"Writing {kind}…")
                QApplication.processEvents()
                if dlg.wasCanceled():
                    break
                written.extend(fn(self.doc.scenario, out, only=kind))
        except Exception as exc:  # report the export layer's message; never crash
            QMessageBox.critical(self, "Export failed", str(exc))
            return None
        finally:
            dlg.setValue(len(KINDS))
            dlg.close()
        self.statusBar().showMessage(f"{len(written)} file(s) written to {out}", 6000)
        return written

    # -- closing ------------------------------------------------------------------------------
    def closeEvent(self, e: QCloseEvent) -> None:
        if not self.maybe_save():
            e.ignore()
            return
        self.issues.shutdown()
        if self.recovery is not None:
            self.recovery.close()
        e.accept()


def _settle_heap() -> None:
    """Exempt the loaded map from the cyclic garbage collector: a 20,000-area scenario is
    millions of long-lived objects, and scanning them made edits stutter."""
    import gc

    gc.collect()
    gc.freeze()
