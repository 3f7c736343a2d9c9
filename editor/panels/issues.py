"""Issues dock: the engine's findings, refreshed (debounced) after every edit.

A check that takes long runs on a worker thread so typing and dragging stay smooth;
a stale result (the scenario changed meanwhile) is dropped.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from fireground.engine.board.model import Scenario

from ..document import Document
from ..local_check import LocalChecker

#: Wait this long after the last edit before checking.
DEBOUNCE_MS = 150
#: A check slower than this goes to the worker thread next time.
THREAD_ABOVE_S = 0.04


def run_checks(s: Scenario) -> list[Any]:
    """The engine's findings, or one note saying the checks are not available."""
    try:
        from fireground.engine.games.blitz.checks.run import check
    except ImportError:
        return []
    return list(check(s))


class IssuesPanel(QWidget):
    #: (area id, level) of a clicked finding, for the window to zoom to.
    locate = Signal(str, int)
    refreshed = Signal(int)
    _done = Signal(int, object, float)

    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self.findings: list[Any] = []
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["", "Code", "Message", "Where"])
        self.tree.setRootIsDecorated(False)
        self.tree.setColumnWidth(0, 22)
        self.tree.setColumnWidth(1, 60)
        self.tree.setColumnWidth(2, 320)
        self.tree.itemClicked.connect(self._clicked)
        self.summary = QLabel("No issues.")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.summary)
        lay.addWidget(self.tree)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self.refresh)
        self._generation = 0
        self._slow = False
        self._pool: ThreadPoolExecutor | None = None
        self._done.connect(self._show, Qt.QueuedConnection)
        self.local = LocalChecker()
        #: True while the list shows quick local findings and a full check is pending.
        self.partial = False
        doc.scenarioChanged.connect(self._on_changed)
        self.last_seconds = 0.0
        self.markers: Any = None  # the MapScene, set by the window for canvas markers

    def _on_changed(self, old: Scenario, new: Scenario) -> None:
        self.schedule()
        if self._slow:
            # A big map: refresh the findings near the edit now, the rest in the background.
            self.refresh_local(old, new)

    def refresh_local(self, old: Scenario, new: Scenario) -> bool:
        found = self.local.findings(old, new, self.findings, run_checks)
        if found is None:
            return False
        self._render(found)
        self.partial = True
        return True

    def schedule(self) -> None:
        self._generation += 1
        self._timer.setInterval(DEBOUNCE_MS * (4 if self._slow else 1))
        self._timer.start()

    def refresh(self) -> None:
        """Check now (on a worker thread when the last check was slow)."""
        self._timer.stop()
        gen = self._generation
        s = self.doc.scenario
        if self._slow:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="fireground-check")
            fut: Future[list[Any]] = self._pool.submit(_timed, s)
            fut.add_done_callback(lambda f: self._done.emit(gen, *f.result()))
        else:
            found, secs = _timed(s)
            self._show(gen, found, secs)

    def refresh_now(self) -> None:
        """Check synchronously (tests, benchmarks)."""
        self._timer.stop()
        found, secs = _timed(self.doc.scenario)
        self._show(self._generation, found, secs)

    def _show(self, gen: int, found: Sequence[Any], secs: float) -> None:
        self.last_seconds = secs
        self._slow = secs > THREAD_ABOVE_S
        if gen != self._generation:
            return  # the scenario changed while checking; a newer check is on its way
        self.partial = False
        self._render(found)

    def _render(self, found: Sequence[Any]) -> None:
        self.findings = list(found)
        self.tree.clear()
        items = []
        for f in self.findings:
            sev = str(getattr(f, "severity", "error"))
            sev = getattr(getattr(f, "severity", None), "value", sev)
            where = ""
            if getattr(f, "area", None):
                where = f"{f.area}" + (
                    f" level {f.level}" if getattr(f, "level", None) is not None else ""
                )
            if getattr(f, "line", None):
                where += f" (line {f.line})"
            it = QTreeWidgetItem(["●", str(getattr(f, "code", "")), str(f.message), where])
            color = QColor("#c01010") if "error" in str(sev).lower() else QColor("#c08000")
            it.setForeground(0, color)
            it.setToolTip(2, str(f.message))
            it.setData(0, Qt.UserRole, f)
            items.append(it)
        self.tree.addTopLevelItems(items)
        errors = sum(1 for f in self.findings if "error" in str(getattr(f, "severity", "")).lower())
        n = len(self.findings)
        self.summary.setText(
            "No issues." if not n else f"{errors} error(s), {n - errors} warning(s)"
        )
        if self.markers is not None:
            self.markers.set_issue_markers(
                f.area for f in self.findings if getattr(f, "area", None)
            )
        self.refreshed.emit(n)

    def codes(self) -> list[str]:
        return [self.tree.topLevelItem(i).text(1) for i in range(self.tree.topLevelItemCount())]

    def _clicked(self, item: QTreeWidgetItem, _col: int) -> None:
        f = item.data(0, Qt.UserRole)
        area = getattr(f, "area", None)
        if not area or area not in self.doc.scenario.area_by_id:
            return
        level = getattr(f, "level", None)
        if level is not None:
            self.doc.set_level(int(level))
        self.doc.select_areas([area])
        self.locate.emit(area, int(level or 0))

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


def _timed(s: Scenario) -> tuple[list[Any], float]:
    """The findings and the seconds the check took. The engine's checks are imported before
    the clock starts: the first check's one-off import cost must not mark a small map as
    slow (that would delay every later refresh by the slow path's longer debounce)."""
    with contextlib.suppress(ImportError):
        import fireground.engine.games.blitz.checks.run  # noqa: F401
    t = time.perf_counter()
    found = run_checks(s)
    return found, time.perf_counter() - t
