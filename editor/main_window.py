"""The editor's main window: canvas, tools, docks and menus. Files, autosave and the
restore offer are in :mod:`.window_files`; menu actions, Export… and Analyze… in
:mod:`.window_actions`."""

from __future__ import annotations

import itertools
from typing import Any

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QFrame,
    QLabel,
    QMainWindow,
    QScrollArea,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from . import recovery
from .analyze import AnalysisRunner
from .document import Document
from .games import GamePanels, editor_module, new_board_actions
from .keys import TypingGuard
from .panels.background import BackgroundPanel
from .panels.overlays import OverlaysPanel
from .panels.properties import PropertiesPanel
from .scene.map_scene import MapScene
from .scene.map_view import MapView
from .toolbox import OptionsBar, Toolbox
from .tools.select import delete_selection
from .window_actions import ActionsMixin
from .window_files import FILE_FILTER, MAX_RECENT, FilesMixin, RestoreBanner

__all__ = ["FILE_FILTER", "MAX_RECENT", "MainWindow"]

#: The recovery copy is written this long after a change (then again after later ones), so
#: a crash loses at most these seconds of work and a burst of edits is one write.
AUTOSAVE_MS = 2_000


class MainWindow(FilesMixin, ActionsMixin, QMainWindow):
    def __init__(self, doc: Document | None = None, *, recovery_session: bool = True) -> None:
        super().__init__()
        self.settings = QSettings("fireground", "editor")
        #: Answers for dialogs, so tests can close a modified window without a modal box.
        self.ask_unsaved: Any = None
        self.recovery = recovery.RecoverySession() if recovery_session else None
        self.doc = doc or Document()
        self.analysis = AnalysisRunner()
        self._connect_analysis()
        self._build_canvas()
        self._build_docks()
        self._build_menus()
        self._autosave = QTimer(self)
        self._autosave.setSingleShot(True)
        self._autosave.setInterval(AUTOSAVE_MS)
        self._autosave.timeout.connect(self.autosave_soon)
        self._connect_doc()
        self.typing_guard = TypingGuard(self)
        self.resize(1400, 900)
        self._docks_sized = False
        _settle_heap()

    def showEvent(self, e: QShowEvent) -> None:
        super().showEvent(e)
        if not self._docks_sized:
            self._docks_sized = True
            QTimer.singleShot(0, self.size_docks)

    def size_docks(self) -> None:
        """Give the tabbed Properties dock and the game's panels beside it most of the right
        side (the Overlays are a few check boxes) and keep the panels under the map short."""
        h = max(self.height() - 100, 300)
        overlays = min(self.overlays.sizeHint().height() + 30, h // 3)
        self.resizeDocks(
            [self.properties_dock, self.overlays_dock], [h - overlays, overlays], Qt.Vertical
        )
        # Wide enough for BLITZ!'s Forces table's six columns and its Scenario form.
        self.resizeDocks([self.properties_dock], [max(400, self.width() // 4)], Qt.Horizontal)
        if self.bottom_docks:
            self.resizeDocks(self.bottom_docks[:1], [150], Qt.Vertical)
        # The map had the whole window when it was first fitted; fit it to its real room.
        QApplication.processEvents()
        self.view.fit_to_map()

    # -- construction -------------------------------------------------------------------------
    def _build_canvas(self) -> None:
        self.scene = MapScene(self.doc)
        self.view = MapView(self.scene)
        self.restore_banner = RestoreBanner()
        self.restore_banner.restore_button.clicked.connect(self._banner_restore)
        self.restore_banner.discard_button.clicked.connect(self._banner_discard)
        central = QWidget()
        lay = QVBoxLayout(central)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.restore_banner)
        lay.addWidget(self.view, 1)
        self.setCentralWidget(central)
        self.toolbox = Toolbox(self.doc, self.view)
        # The tools stand in a column at the left (as in Tiled), grouped into shapes,
        # placements and start brushes, so every one shows even in a narrow window; the
        # options bar gets the whole top row.
        bar = QToolBar("Tools")
        bar.setObjectName("tools")
        bar.setOrientation(Qt.Vertical)
        bar.setToolButtonStyle(Qt.ToolButtonTextOnly)
        self.addToolBar(Qt.LeftToolBarArea, bar)
        self._toolbars = [bar]
        self.toolbox.build_toolbar(bar, self._tool_changed)
        self.options = OptionsBar(self.toolbox)
        self.options.setObjectName("options")
        self.addToolBar(self.options)
        self.options.new_building_act.triggered.connect(lambda _=False: self.new_building_dialog())
        self._toolbars.append(self.options)
        self.tool_label = QLabel("")
        self.tool_label.setToolTip("The current tool, its key and what it is doing")
        self.tool_label.setStyleSheet("QLabel { font-weight: bold; padding: 0 8px; }")
        self.cursor_label = QLabel("")
        self.cursor_label.setMinimumWidth(230)
        self.cursor_label.setToolTip("Cursor position in table cm (x east, y north)")
        self.statusBar().addPermanentWidget(self.tool_label)
        self.statusBar().addPermanentWidget(self.cursor_label)
        self.view.cursorMoved.connect(
            lambda x, y: self.cursor_label.setText(f"x {x:.1f} cm, y {y:.1f} cm")
        )
        self.view.snapped.connect(self._show_snap)
        self.view.statusMessage.connect(lambda m: self.statusBar().showMessage(m))
        self.view.toolStateChanged.connect(self.tool_label.setText)
        self.view.set_tool(self.toolbox.select)
        self.options.tool_changed()

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(title)
        if area == Qt.RightDockWidgetArea:
            # Scroll tall panels rather than let them force the window taller than the screen.
            scroll = QScrollArea()
            scroll.setWidgetResizable(True)
            scroll.setFrameShape(QFrame.NoFrame)
            scroll.setWidget(widget)
            d.setWidget(scroll)
        else:
            d.setWidget(widget)
        self.addDockWidget(area, d)
        self._docks.append(d)
        return d

    def _build_docks(self) -> None:
        self._docks: list[QDockWidget] = []
        self.properties = PropertiesPanel(self.doc)
        self.overlays = OverlaysPanel(self.scene)
        self.background = BackgroundPanel(
            self.doc,
            self.toolbox.bg_scale,
            self.toolbox.bg_move,
            self._use_tool,
            lambda: self.scene.background_item.problem,
        )
        #: the panels of the document's game (BLITZ!'s: Scenario, Forces, Issues, Test turn,
        #: Play), from the editor module its pack names (editor/games/<id>/)
        self.game_panels: GamePanels = editor_module(self.doc.game).make_panels(self)
        r, b = Qt.RightDockWidgetArea, Qt.BottomDockWidgetArea
        # The right-hand panels run the window's full height; the game's bottom panels sit
        # under the map only.
        self.setCorner(Qt.BottomRightCorner, Qt.RightDockWidgetArea)
        self.properties_dock = self._dock("Properties", self.properties, r)
        right = [self._dock(title, w, r) for title, w in self.game_panels.right]
        self.overlays_dock = self._dock("Overlays", self.overlays, r)
        tab = self.properties_dock
        for d in right:
            self.tabifyDockWidget(tab, d)
            tab = d
        self.background_dock = self._dock("Background", self.background, r)
        self.tabifyDockWidget(tab, self.background_dock)
        self.properties_dock.raise_()
        #: the game's docks under the map, tabbed, the first in front
        self.bottom_docks = [self._dock(title, w, b) for title, w in self.game_panels.bottom]
        for d, e in itertools.pairwise(self.bottom_docks):
            self.tabifyDockWidget(d, e)
        if self.bottom_docks:
            self.bottom_docks[0].raise_()
            self.resizeDocks(self.bottom_docks[:1], [170], Qt.Vertical)
        titles = [t for t, _ in self.game_panels.right + self.game_panels.bottom]
        self.game_panels.docked(dict(zip(titles, right + self.bottom_docks, strict=True)))

    def _build_menus(self) -> None:
        #: Every action the menus made, so a new document's menus can replace them.
        self._menu_actions: list[QAction] = []
        mb = self.menuBar()
        f = mb.addMenu("&File")
        self._act(f, "&New", self.new_file, QKeySequence.New)
        for text, opener in new_board_actions():  # games with a board window of their own
            self._act(f, text, lambda o=opener: o(self))
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
        self._act(f, "&Quit", self.close, "Ctrl+Q")

        e = mb.addMenu("&Edit")
        undo = self.doc.undo_stack.createUndoAction(self, "&Undo")
        undo.setShortcut(QKeySequence("Ctrl+Z"))
        redo = self.doc.undo_stack.createRedoAction(self, "&Redo")
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        e.addAction(undo)
        e.addAction(redo)
        self._menu_actions += [undo, redo]
        e.addSeparator()
        self._act(
            e,
            "&Delete selection",
            lambda: delete_selection(self.doc),
            QKeySequence.Delete,
        )
        self._act(e, "New &building…", self.new_building_dialog)
        self._act(e, "&Merge selected areas", self.merge_selected)
        self._act(e, "S&plit selected into cells", self.split_selected)
        for text, action in self.game_panels.edit_actions:  # the game's (BLITZ!: bombs)
            self._act(e, text, action)
        e.addSeparator()
        self._act(e, "Import background &image…", self.import_background_dialog)

        an = mb.addMenu("&Analyze")
        self.analyze_action = self._act(an, "&Burn chances…", self.analyze_dialog, "Ctrl+Shift+A")
        self.analyze_action.setToolTip(
            "Play many games without firefighting and show how often each location burns"
        )
        self.analyze_action.setEnabled(self.game_panels.burn_chances is not None)

        v = mb.addMenu("&View")
        self._act(v, "&Fit to map", self.view.fit_to_map, "Ctrl+0")
        zoom_in = self._act(v, "Zoom &in", lambda: self.view.zoom_by(1.25))
        zoom_in.setShortcuts([QKeySequence("+"), QKeySequence("="), QKeySequence.ZoomIn])
        zoom_out = self._act(v, "Zoom &out", lambda: self.view.zoom_by(0.8))
        zoom_out.setShortcuts([QKeySequence("-"), QKeySequence.ZoomOut])
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
        for d in self._docks:  # Properties, the game's, Overlays, Background, the game's
            v.addAction(d.toggleViewAction())

    def _act(self, menu: Any, text: str, slot: Any, key: Any = None) -> QAction:
        a = QAction(text, self)
        self._menu_actions.append(a)
        if key is not None:
            a.setShortcut(QKeySequence(key))
        a.triggered.connect(lambda _=False: slot())
        menu.addAction(a)
        return a

    def _connect_doc(self) -> None:
        self.doc.modifiedChanged.connect(lambda _m: self._update_title())
        self.doc.fileNameChanged.connect(lambda _p: self._update_title())
        self.doc.scenarioChanged.connect(lambda *_: self._update_title())
        self.doc.scenarioChanged.connect(lambda *_: self._schedule_autosave())
        self._update_title()

    def _schedule_autosave(self) -> None:
        """Write the recovery copy AUTOSAVE_MS after the first change not yet in it (a timer
        already running is left alone, so steady typing still saves every few seconds)."""
        if self.recovery is not None and not self._autosave.isActive():
            self._autosave.start()

    def _tool_changed(self) -> None:
        self.options.tool_changed()

    def _use_tool(self, tool: Any) -> None:
        self.toolbox.use(tool)
        self.options.tool_changed()
        self.view.setFocus()

    def _show_snap(self, x: float, y: float, kind: str) -> None:
        """The cursor label says where a click would land while a tool snaps."""
        where = f"x {x:g} cm, y {y:g} cm"
        self.cursor_label.setText(where if kind == "free" else f"{where} (snap: {kind})")

    def _toggle_grid(self) -> None:
        self.scene.grid_visible = not self.scene.grid_visible
        self.scene.update()

    def locate(self, area: str, level: int) -> None:
        """Centre the map on ``area`` (a game's panel asks, e.g. for an issue's place)."""
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
        self.analysis.cancel()
        self.view.set_tool(None)
        self.game_panels.shutdown()
        for d in self._docks:
            self.removeDockWidget(d)
            d.deleteLater()
        # The old tools' and menus' keys must go now, not at the next event loop pass:
        # two live actions on one key make Qt ignore the key (an ambiguous shortcut).
        for tb in self._toolbars:
            for a in tb.actions():
                a.setShortcuts([])
            self.removeToolBar(tb)
            tb.deleteLater()
        self.menuBar().clear()
        for a in self._menu_actions:
            a.setShortcuts([])
            a.deleteLater()
        self.doc = doc
        self._build_canvas()
        self._build_docks()
        self._build_menus()
        self._connect_doc()
        if self.isVisible():
            # Show the new bars now: Qt ignores the keys of actions on hidden widgets.
            for tb in self._toolbars:
                tb.show()
        self.view.fit_to_map()
        self.game_panels.refresh()
        old_scene.deleteLater()
        old.deleteLater()
        _settle_heap()

    # -- closing ------------------------------------------------------------------------------
    def closeEvent(self, e: QCloseEvent) -> None:
        if not self.maybe_save():
            e.ignore()
            return
        self.game_panels.shutdown()
        self.analysis.shutdown()
        if self.recovery is not None:
            self.recovery.close()
        e.accept()


def _settle_heap() -> None:
    """Exempt the loaded map from the cyclic garbage collector: a 20,000-area scenario is
    millions of long-lived objects, and scanning them made edits stutter."""
    import gc

    gc.collect()
    gc.freeze()
