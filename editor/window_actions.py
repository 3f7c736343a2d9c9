"""The main window's menu actions that are more than one command: merge and split the
selection, new building, drop bombs, tracing image import, Export… and Analyze…"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFileDialog,
    QFormLayout,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QSpinBox,
)

from .analyze import AnalysisRunner
from .burn import DEFAULT_GAMES, BurnMap
from .commands import MergeAreasCommand, SplitAreaCommand
from .document import Document

if TYPE_CHECKING:
    from .games import GamePanels
    from .panels.background import BackgroundPanel
    from .panels.overlays import OverlaysPanel
    from .toolbox import OptionsBar

    _Window = QMainWindow
else:
    _Window = object


class AnalyzeDialog(QDialog):
    """How many games, and whether to play them with the autopilot."""

    def __init__(self, parent: Any = None, night: int = 40) -> None:
        super().__init__(parent)
        self.setWindowTitle("Analyze burn chances")
        self.turns = QSpinBox()
        self.turns.setRange(1, max(night, 1))
        self.turns.setValue(night)
        self.turns.setToolTip(
            "Count fires within the first turns only: with no firefighting, a whole night "
            "often burns everything"
        )
        self.games = QSpinBox()
        self.games.setRange(10, 100_000)
        self.games.setSingleStep(100)
        self.games.setValue(DEFAULT_GAMES)
        self.autopilot = QCheckBox("play full games with the autopilot (much slower)")
        self.autopilot.setToolTip(
            "Unticked: fire, bombs and collapse alone, with no firefighting (the threat map)"
        )
        buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("Games", self.games)
        form.addRow("Turns", self.turns)
        form.addRow("", self.autopilot)
        form.addRow(buttons)


class NewBuildingDialog(QDialog):
    """One form for a new building: id, name, levels and a basement."""

    def __init__(self, parent: Any = None, suggested_id: str = "building1") -> None:
        super().__init__(parent)
        self.setWindowTitle("New building")
        self.building_id = QLineEdit(suggested_id)
        self.building_id.setToolTip("Letters, digits, '-' and '_'; areas refer to it")
        self.building_id.selectAll()
        self.name = QLineEdit()
        self.name.setPlaceholderText("e.g. No. 3, the Rose and Crown")
        self.levels = QSpinBox()
        self.levels.setRange(1, 20)
        self.levels.setValue(2)
        self.levels.setToolTip("Storeys above ground: 2 means levels 0 and 1")
        self.basement = QCheckBox("has a basement (level -1)")
        self.buttons = QDialogButtonBox(QDialogButtonBox.Ok | QDialogButtonBox.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout(self)
        form.addRow("Id", self.building_id)
        form.addRow("Name", self.name)
        form.addRow("Levels", self.levels)
        form.addRow("", self.basement)
        form.addRow(self.buttons)


class ActionsMixin(_Window):
    """Part of :class:`MainWindow`."""

    doc: Document
    game_panels: GamePanels
    options: OptionsBar
    overlays: OverlaysPanel
    overlays_dock: QDockWidget
    background: BackgroundPanel
    background_dock: QDockWidget
    export_menu: QMenu
    export_action: QAction
    analysis: AnalysisRunner
    analysis_progress: QProgressDialog | None
    building_dialog: NewBuildingDialog | None = None
    #: The text of the last export refused for errors (tests read it).
    export_refusal: str = ""

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

    def new_building_dialog(self) -> bool:
        """Ask for the new building's id, name, levels and basement; add it and make it what
        new areas are drawn as. False if cancelled or refused."""
        from . import ops

        dlg = NewBuildingDialog(self, ops.next_id(self.doc.scenario.building_by_id, "building"))
        self.building_dialog = dlg  # tests fill it in
        try:
            if dlg.exec() != QDialog.Accepted:
                return False
        finally:
            self.building_dialog = None
            self.activateWindow()  # the tool keys work at once, whatever the window manager
        return self.new_building(
            dlg.building_id.text().strip(),
            dlg.levels.value(),
            name=dlg.name.text().strip(),
            basement=dlg.basement.isChecked(),
        )

    def new_building(
        self, building_id: str, levels: int = 2, *, name: str = "", basement: bool = False
    ) -> bool:
        """Add a building and make it what new areas are drawn as."""
        from fireground.engine.board.model import AreaKind, Building

        from .commands import AddBuildingCommand

        try:
            b = Building(building_id, name, levels=levels, basement=basement)
            self.doc.push(AddBuildingCommand(self.doc, b))
        except ValueError as exc:
            self.statusBar().showMessage(str(exc), 5000)
            return False
        self.options.select_kind(AreaKind.BUILDING, building_id)
        return True

    def import_background_dialog(self) -> None:
        self.background_dock.show()
        self.background_dock.raise_()
        self.background.import_dialog()

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
        errors = self.game_panels.check_errors(self.doc.scenario)
        if errors:  # as `fireground export` refuses: play aids of a broken map mislead
            shown = "\n".join(f"• {e}" for e in errors[:12])
            more = f"\n…and {len(errors) - 12} more" if len(errors) > 12 else ""
            text = (
                f"The scenario has {len(errors)} error(s); fix them first (the Issues panel "
                f"shows where):\n\n{shown}{more}"
            )
            self.export_refusal = text
            QMessageBox.warning(self, "Cannot export yet", text)
            self.statusBar().showMessage(
                f"Not exported: {len(errors)} error(s) to fix (see Issues)", 8000
            )
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

    # -- analyze ------------------------------------------------------------------------------
    def analyze_dialog(self) -> None:
        self.analysis.warm_up()  # the worker starts while the user chooses
        dlg = AnalyzeDialog(self, self.doc.scenario.turns)
        if dlg.exec() == QDialog.Accepted:
            self.run_analysis(
                dlg.games.value(),
                no_response=not dlg.autopilot.isChecked(),
                turns=dlg.turns.value(),
            )

    def run_analysis(
        self,
        games: int = DEFAULT_GAMES,
        *,
        no_response: bool = True,
        turns: int | None = None,
        ask: bool = True,
    ) -> bool:
        """Start the analysis on a worker thread with a cancellable progress dialog; the
        heat map appears when it is done (``analysis.finished``). False if it cannot start.
        """
        run = self.game_panels.burn_chances
        if run is None:
            self.statusBar().showMessage("This game offers no analysis.", 5000)
            return False
        if self.analysis.running:
            self.statusBar().showMessage("An analysis is already running.", 5000)
            return False
        errors = self.game_panels.check_errors(self.doc.scenario)
        if errors:
            text = (
                f"The scenario has {len(errors)} error(s) (see the Issues panel); an analysis "
                "of it would mislead. First: " + errors[0]
            )
            if ask:
                QMessageBox.warning(self, "Cannot analyze yet", text)
            self.statusBar().showMessage(text, 8000)
            return False
        dlg = QProgressDialog(f"Playing {games} games…", "Cancel", 0, games, self)
        dlg.setWindowTitle("Analyze")
        dlg.setWindowModality(Qt.WindowModal)
        dlg.setMinimumDuration(300)
        dlg.setAutoClose(False)
        dlg.setAutoReset(False)
        dlg.canceled.connect(self.analysis.cancel)
        self.analysis_progress = dlg
        self.analysis.start(self.doc.scenario, games, run=run, no_response=no_response, turns=turns)
        return True

    def _connect_analysis(self) -> None:
        self.analysis_progress = None
        a = self.analysis
        a.progressed.connect(self._analysis_progress)
        a.finished.connect(self._analysis_done)
        a.failed.connect(self._analysis_failed)
        a.cancelled.connect(lambda: self._analysis_ended("Analysis cancelled."))

    def _analysis_progress(self, done: int) -> None:
        if self.analysis_progress is not None:
            self.analysis_progress.setValue(done)

    def _analysis_ended(self, message: str) -> None:
        dlg, self.analysis_progress = self.analysis_progress, None
        if dlg is not None:
            dlg.canceled.disconnect()
            dlg.close()
            dlg.deleteLater()
        self.statusBar().showMessage(message, 8000)

    def _analysis_done(self, burn: BurnMap) -> None:
        self._analysis_ended(
            f"Analysis done: {burn.games} games; the heat map shows each location's chance "
            "to burn (Overlays)."
        )
        self.overlays.show_burn_map(burn)
        self.overlays_dock.show()
        self.overlays_dock.raise_()

    def _analysis_failed(self, message: str) -> None:
        self._analysis_ended(f"Analysis failed: {message}")
        QMessageBox.critical(self, "Analysis failed", message)
