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
from PySide6.QtWidgets import (
    QHeaderView,
    QLabel,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from fireground.engine.board.model import Scenario

from ....document import Document, Selection
from ....local_check import LocalChecker

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
    #: A finding about the whole map: fit it in the view.
    fit_map = Signal()
    #: A finding about a panel's content: "scenario", "forces" or "objectives".
    show_panel = Signal(str)
    #: The row of the objective a finding is about.
    show_objective = Signal(int)
    refreshed = Signal(int)
    _done = Signal(int, object, float)

    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self.findings: list[Any] = []
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["", "Code", "Message", "Where"])
        self.tree.setRootIsDecorated(False)
        # The message takes the room; the mark, code and where are as wide as they need.
        head = self.tree.header()
        head.setStretchLastSection(False)
        head.setSectionResizeMode(QHeaderView.ResizeToContents)
        head.setSectionResizeMode(2, QHeaderView.Stretch)
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
            where = where_text(self.doc.scenario, f)
            if getattr(f, "line", None) and not self.doc.modified:
                where += f" (line {f.line})"
            it = QTreeWidgetItem(["●", str(getattr(f, "code", "")), str(f.message), where])
            it.setToolTip(3, "Click to show it")
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
        """Show what the finding is about: select it and zoom to it, or open its panel."""
        f = item.data(0, Qt.UserRole)
        s = self.doc.scenario
        path = tuple(getattr(f, "path", None) or ())
        area = getattr(f, "area", None)
        level = getattr(f, "level", None)
        head = path[0] if path else None
        index = path[1] if len(path) > 1 and isinstance(path[1], int) else None
        if head == "forces" and index is not None and index < len(s.forces):
            u = s.forces[index]
            self.doc.set_selection(Selection(units=(u.id,)))
            self.show_panel.emit("forces")
            area = area or u.area or _entry_area(s, u.entry)
            level = level if level is not None else (u.level if u.area else 0)
        elif head == "features" and index is not None and index < len(s.features):
            feat = s.features[index]
            self.doc.set_selection(Selection(features=(index,)))
            area = area or feat.area
            level = level if level is not None else feat.level
        elif head == "objectives":
            self.show_panel.emit("objectives")
            if index is not None:
                self.show_objective.emit(index)
            return
        elif head in ("name", "turns", "ruleset", "house_rules", "mains", "seed", "wind"):
            self.show_panel.emit("scenario")
            return
        if not area or area not in s.area_by_id:
            self.fit_map.emit()  # about the whole map (e.g. no water at all)
            return
        if level is not None and int(level) in s.levels_of(area):
            self.doc.set_level(int(level))
        if head not in ("forces", "features"):
            self.doc.select_areas([area])
        self.locate.emit(area, int(level or 0))

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


def _entry_area(s: Scenario, entry: str | None) -> str | None:
    return next((f.area for f in s.features if f.type.value == "entry" and f.name == entry), None)


def where_text(s: Scenario, f: Any) -> str:
    """Where a finding is, in words for the Issues list ("H1 level 2", "unit GA1",
    "objective 2", "whole map")."""
    path = tuple(getattr(f, "path", None) or ())
    area, level = getattr(f, "area", None), getattr(f, "level", None)
    head = path[0] if path else None
    index = path[1] if len(path) > 1 and isinstance(path[1], int) else None
    if head == "forces" and index is not None and index < len(s.forces):
        return f"unit {s.forces[index].id}"
    if head == "objectives" and index is not None:
        return f"objective {index + 1}"
    if head == "features" and index is not None and index < len(s.features):
        feat = s.features[index]
        return f"{feat.type.value} in {feat.area}"
    if area:
        return f"{area}" + (f" level {level}" if level is not None else "")
    if head in ("buildings",) and index is not None and index < len(s.buildings):
        return f"building {s.buildings[index].id}"
    if head is not None and not isinstance(head, int) and head not in ("areas", "start"):
        return "scenario settings"
    return "whole map"


def _timed(s: Scenario) -> tuple[list[Any], float]:
    """The findings and the seconds the check took. The engine's checks are imported before
    the clock starts: the first check's one-off import cost must not mark a small map as
    slow (that would delay every later refresh by the slow path's longer debounce)."""
    with contextlib.suppress(ImportError):
        import fireground.engine.games.blitz.checks.run  # noqa: F401
    t = time.perf_counter()
    found = run_checks(s)
    return found, time.perf_counter() - t
