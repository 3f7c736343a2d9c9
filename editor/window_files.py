"""The main window's file handling: New, Open, Save, Save As, recent files, autosave and
the restore offer after a crash (a banner over the canvas, not a modal box)."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
)

from fireground.engine.board.model import Scenario

from . import recovery
from .commands import ReplaceScenarioCommand
from .document import Document, default_scenario

if TYPE_CHECKING:
    from .games import GamePanels

    _Window = QMainWindow
else:
    _Window = object

MAX_RECENT = 8
FILE_FILTER = "Scenarios (*.fg.yaml *.yaml *.yml);;All files (*)"


class RestoreBanner(QFrame):
    """'The editor closed unexpectedly…' with Restore and Discard buttons, above the map."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("restoreBanner")
        self.setStyleSheet(
            "#restoreBanner { background: #fff3c4; border-bottom: 1px solid #d8b84a; }"
        )
        self.text = QLabel("")
        self.text.setWordWrap(True)
        self.restore_button = QPushButton("Restore")
        self.discard_button = QPushButton("Discard")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        lay.addWidget(self.text, 1)
        lay.addWidget(self.restore_button)
        lay.addWidget(self.discard_button)
        self.crashed: recovery.Crashed | None = None
        self.hide()


class FilesMixin(_Window):
    """Part of :class:`MainWindow`."""

    doc: Document
    game_panels: GamePanels
    settings: QSettings
    recovery: recovery.RecoverySession | None
    recent_menu: QMenu
    restore_banner: RestoreBanner
    #: Answer for the unsaved-changes question, so tests can close without a modal box.
    ask_unsaved: Any

    if TYPE_CHECKING:

        def set_document(self, doc: Document) -> None: ...

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
        from fireground.engine.core.errors import ScenarioError
        from fireground.engine.scenario.io import load_scenario

        try:
            s = load_scenario(path, editing=True)
        except (ScenarioError, OSError) as exc:
            QMessageBox.critical(self, "Cannot open scenario", str(exc))
            return False
        self.set_document(Document(s, path))
        self._add_recent(str(path))
        problem = self.scene.background_item.problem  # type: ignore[attr-defined]
        if problem:
            self.statusBar().showMessage(f"Warning: {problem}", 10000)
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
        """Write the scenario (background image path relative to the new file's folder)."""
        from fireground.engine.scenario.io import save_scenario

        from .background import for_save

        try:
            save_scenario(for_save(self.doc.scenario, path), path)
        except OSError as exc:
            QMessageBox.critical(self, "Cannot save", f"{path}: {exc.strerror or exc}")
            return False
        self.doc.set_path(path)
        self.doc.mark_saved()
        if self.recovery is not None:
            self.recovery.discard()
        self._add_recent(str(path))
        errors = self.game_panels.check_errors(self.doc.scenario)
        self.statusBar().showMessage(
            f"Saved {path}"
            + (f", with {len(errors)} error(s) to fix (see Issues)" if errors else ""),
            8000,
        )
        return True

    # -- autosave and recovery ----------------------------------------------------------------
    def autosave_soon(self) -> None:
        """Write the recovery copy on the worker thread (or drop it: nothing unsaved)."""
        rec = self.recovery
        if rec is None:
            return
        if rec.error is not None:
            self.statusBar().showMessage(f"Autosave failed: {rec.error}", 6000)
        if not self.doc.modified:
            rec.discard()  # undone back to the file as saved
            return
        rec.write_soon(self.doc.scenario, str(self.doc.path) if self.doc.path else None)

    def autosave(self) -> Path | None:
        """Write the recovery file now when there are unsaved changes."""
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
        from fireground.engine.core.errors import ScenarioError
        from fireground.engine.scenario.io import load_scenario

        try:
            saved = load_scenario(crashed.scenario_file, editing=True)
        except (ScenarioError, OSError) as exc:
            QMessageBox.critical(self, "Cannot restore", str(exc))
            return False
        base: Scenario = default_scenario()
        path = crashed.original
        if path and os.path.exists(path):
            with contextlib.suppress(ScenarioError, OSError):
                base = load_scenario(path, editing=True)
        doc = Document(base, path)
        self.set_document(doc)
        doc.push(ReplaceScenarioCommand(doc, saved, "Restore unsaved changes"))
        recovery.forget(crashed)
        return True

    def offer_restore(self) -> bool:
        """Offer the next crashed session's autosave in the banner; False when there is none.

        Restore opens it (as unsaved changes of its file); Discard forgets it and offers the
        next one. Nothing blocks: the editor can be used while the banner shows.
        """
        own = self.recovery.id if self.recovery else None
        crashed = recovery.find_crashed(own=own)
        banner = self.restore_banner
        if not crashed:
            banner.crashed = None
            banner.hide()
            return False
        c = crashed[0]
        banner.crashed = c
        what = Path(c.original).name if c.original else "an unsaved scenario"
        banner.text.setText(
            f"<b>The editor closed unexpectedly</b> while editing {what}. "
            "Restore the changes it autosaved?"
        )
        banner.setToolTip(c.original or "")
        banner.show()
        return True

    def _banner_restore(self) -> None:
        c = self.restore_banner.crashed
        self.restore_banner.hide()
        if c is not None and self.maybe_save() and self.restore(c):
            self.statusBar().showMessage("Restored the autosaved changes (not saved yet).", 8000)
            self.offer_restore()  # another crashed session, if any

    def _banner_discard(self) -> None:
        c = self.restore_banner.crashed
        if c is not None:
            recovery.forget(c)
        self.offer_restore()

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
