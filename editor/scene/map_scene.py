"""The map scene: keeps one item per area and feature in step with the document.

State markers live in :mod:`.markers`, overlays in :mod:`.overlays` (mixins).

Area items are updated by identity diff (the scenario's unchanged areas are the same
objects), so one edit touches one item even on a 20,000-area map.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene

from fireground.engine.board.model import Area, FeatureType, Location, Scenario

from ..diff import area_diff
from ..document import Document, Selection
from . import style
from .background_item import BackgroundItem
from .coords import to_scene
from .items import AreaItem, FeatureItem, MarkerText, SnapIndicatorItem, label_font
from .markers import MarkersMixin
from .overlays import OverlaysMixin

#: An area of ``area_cm`` must be this many pixels across for its id / symbols to show.
LABEL_MIN_PX = 36.0
SYMBOL_MIN_PX = 22.0


class MapScene(MarkersMixin, OverlaysMixin, QGraphicsScene):
    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self.area_items: dict[str, AreaItem] = {}
        self.feature_items: list[FeatureItem] = []
        self.markers: list[MarkerText] = []
        self.rings: list[QGraphicsItem] = []
        self.highlights: list[QGraphicsItem] = []
        self.overlay_items: list[QGraphicsItem] = []
        self.grid_visible = True
        self.overlays = {"adjacency": False, "hose": False, "wind": False, "burn": False}
        self.heat: dict[Location, float] | None = None
        #: A test-turn state (turn-log ``state`` dict) shown instead of the start, or None.
        self.state: Mapping[str, Any] | None = None
        #: Screen pixels per table cm; labels and symbols show only when zoomed in enough.
        self.px_per_cm = 1.0
        self.labels_on = False
        self.symbols_on = True
        self._selected_before: set[str] = set()
        self._units_before: set[str] = set()
        self._bounds_for: object = None
        self._bounds = (0.0, 0.0, 100.0, 100.0)
        self.snap_indicator = SnapIndicatorItem()
        self.addItem(self.snap_indicator)
        self.background_item = BackgroundItem()
        self.addItem(self.background_item)
        self.setBackgroundBrush(QBrush(style.BACKGROUND))
        self._rebuild_all()
        doc.scenarioChanged.connect(self._on_scenario_changed)
        doc.levelChanged.connect(lambda _lvl: self._on_level_changed())
        doc.selectionChanged.connect(self._on_selection_changed)

    def centre(self, area_id: str) -> tuple[float, float]:
        """Where an area's id, symbols and markers go (its centroid)."""
        it = self.area_items.get(area_id)
        if it is not None:
            return it.label_at
        return self.doc.scenario.area(area_id).centroid

    def set_detail(self, px_per_cm: float) -> None:
        """Show ids and symbols only when an area is big enough on screen to read them."""
        self.px_per_cm = px_per_cm
        cell_px = float(self.doc.scenario.scale.area_cm or 10.0) * px_per_cm
        labels, symbols = cell_px >= LABEL_MIN_PX, cell_px >= SYMBOL_MIN_PX
        if labels != self.labels_on:
            self.labels_on = labels
            self.update()
        self.symbols_on = symbols
        for f in self.feature_items:
            f.setVisible(symbols)
            if symbols:
                f.setScale(1 / px_per_cm)

    # -- building items -----------------------------------------------------------------------
    def _rebuild_all(self) -> None:
        for it in list(self.area_items.values()):
            self.removeItem(it)
        self.area_items.clear()
        s = self.doc.scenario
        for a in s.areas:
            it = AreaItem(a)
            self.area_items[a.id] = it
            self.addItem(it)
        self.background_item.set_background(s.background)
        self._update_looks()
        self._rebuild_features()
        self._rebuild_markers()
        self._update_rect()

    def _on_scenario_changed(self, old: Scenario, new: Scenario) -> None:
        diff = area_diff(old, new)
        changed = set(diff.changed | diff.added)
        removed_or_added = bool(diff.added or diff.removed)
        if diff.all:
            by_id = new.area_by_id if diff.added or diff.changed else {}
            for aid in diff.removed:
                self.removeItem(self.area_items.pop(aid))
            for aid in diff.changed:
                self.area_items[aid].set_area(by_id[aid])
            for aid in diff.added:
                it = AreaItem(by_id[aid])
                self.area_items[aid] = it
                self.addItem(it)
            self._update_rect()
        if new.background is not old.background:
            self._sync_background()
        if new.buildings is not old.buildings:
            self._update_looks()
        elif new.areas is not old.areas:
            self._update_looks(changed)
        if new.features is not old.features or removed_or_added:
            self._rebuild_features()
        elif changed:
            for f in self.feature_items:
                if f.feature.area in changed:
                    f.setPos(to_scene(self.centre(f.feature.area)))
        self._rebuild_markers()
        self.refresh_overlays()

    def _on_level_changed(self) -> None:
        self._update_looks()
        self._rebuild_features()
        self._rebuild_markers()
        self.refresh_overlays()

    def _on_selection_changed(self, sel: Selection) -> None:
        if self.state is None and set(sel.units) != self._units_before:
            self._units_before = set(sel.units)
            self._rebuild_markers()  # the unit badges show which are selected
        now = set(sel.areas)
        self._update_looks(now ^ self._selected_before)
        self._selected_before = now
        for it in self.feature_items:
            sel_now = it.index in sel.features
            if sel_now != it.selected:
                it.selected = sel_now
                it.update()

    def _sync_background(self) -> None:
        shown = self.background_item.shown
        self.background_item.set_background(self.doc.scenario.background)
        if self.background_item.shown != shown:
            self._update_looks()
        self._update_rect()

    def _update_looks(self, only: set[str] | None = None) -> None:
        s = self.doc.scenario
        level = self.doc.level
        selected = set(self.doc.selection.areas)
        items = self.area_items
        see = self.background_item.shown
        for aid in items if only is None else only & items.keys():
            items[aid].set_look(
                ghost=level not in s.levels_of(aid), selected=aid in selected, see_through=see
            )

    def bounds(self) -> tuple[float, float, float, float]:
        """(minx, miny, maxx, maxy) of the map in cm, without building shapely shapes."""
        s = self.doc.scenario
        if self._bounds_for is not s.areas:
            self._bounds_for = s.areas
            if s.areas:
                xs = [p[0] for a in s.areas for p in a.polygon]
                ys = [p[1] for a in s.areas for p in a.polygon]
                self._bounds = (min(xs), min(ys), max(xs), max(ys))
            else:
                self._bounds = (0.0, 0.0, 100.0, 100.0)
        return self._bounds

    def _update_rect(self) -> None:
        minx, miny, maxx, maxy = self.bounds()
        pad = max(maxx - minx, maxy - miny, 100.0) * 0.5
        r = QRectF(minx - pad, -maxy - pad, maxx - minx + 2 * pad, maxy - miny + 2 * pad)
        if self.background_item.shown:
            r = r.united(self.background_item.sceneBoundingRect())
        self.setSceneRect(r)

    def map_rect(self) -> QRectF:
        """The areas' bounding box in scene coordinates (for fit-to-map); with no areas yet,
        the tracing background's."""
        if not self.doc.scenario.areas:
            if self.background_item.shown:
                return self.background_item.sceneBoundingRect()
            return QRectF(-10, -60, 70, 70)
        minx, miny, maxx, maxy = self.bounds()
        return QRectF(minx, -maxy, maxx - minx, maxy - miny)

    def visible_on_level(self, area: str, level: int | None) -> bool:
        lvl = self.doc.level
        if level is None:
            return True
        return level == lvl

    def _rebuild_features(self) -> None:
        for it in self.feature_items:
            self.removeItem(it)
        self.feature_items = []
        s = self.doc.scenario
        lvl = self.doc.level
        sel = set(self.doc.selection.features)
        by_id = s.area_by_id
        shown: dict[str, list[int]] = {}
        for i, f in enumerate(s.features):
            if f.area not in by_id:
                continue
            if lvl not in s.levels_of(f.area):
                continue  # a stairwell shows on every level its area has; others likewise
            if f.level is not None and f.level != lvl:
                continue
            shown.setdefault(f.area, []).append(i)
        for area, idxs in shown.items():
            symbols = [i for i in idxs if s.features[i].type is not FeatureType.LABEL]
            pts = by_id[area].polygon
            xs, ys = [p[0] for p in pts], [p[1] for p in pts]
            room = (max(xs) - min(xs), max(ys) - min(ys))
            for i in idxs:
                slot = symbols.index(i) - (len(symbols) - 1) / 2 if i in symbols else 0.0
                it = FeatureItem(
                    i,
                    s.features[i],
                    self.centre(area),
                    slot,
                    room_cm=room,
                    below_symbols=bool(symbols),
                )
                self._add_feature(it, sel)

    def _add_feature(self, it: FeatureItem, sel: set[int]) -> None:
        i = it.index
        it.setVisible(self.symbols_on)
        it.setScale(1 / self.px_per_cm)
        it.selected = i in sel
        self.feature_items.append(it)
        self.addItem(it)

    # -- grid ---------------------------------------------------------------------------------
    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        super().drawBackground(painter, rect)
        if not self.grid_visible:
            return
        step = float(self.doc.scenario.scale.area_cm or 10.0)
        lod = painter.worldTransform().m11()
        if step * lod < 12:  # grid lines closer than 12 px: skip (too dense to help)
            return
        painter.setRenderHint(QPainter.Antialiasing, False)
        view = self.views()[0] if self.views() else None
        fine = getattr(view, "fine_grid", False) and lod >= 8  # 1 cm lines 8 px apart
        if fine:
            self._draw_lines(painter, rect, 1.0, QColor(0, 0, 0, 12))
        self._draw_lines(painter, rect, step, QColor(style.GRID))
        painter.setRenderHint(
            QPainter.Antialiasing,
            view is not None
            and view.renderHints() & QPainter.Antialiasing == QPainter.Antialiasing,
        )

    def _draw_lines(self, painter: QPainter, rect: QRectF, step: float, color: QColor) -> None:
        pen = QPen(color)
        pen.setCosmetic(True)
        painter.setPen(pen)
        x0 = math.floor(rect.left() / step) * step
        y0 = math.floor(rect.top() / step) * step
        lines = []
        x = x0
        while x <= rect.right():
            lines.append(QLineF(x, rect.top(), x, rect.bottom()))
            x += step
        y = y0
        while y <= rect.bottom():
            lines.append(QLineF(rect.left(), y, rect.right(), y))
            y += step
        painter.drawLines(lines)

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        """The ids of the areas in view, screen-sized (only when zoomed in enough)."""
        if not self.labels_on:
            return
        t = painter.worldTransform()
        painter.save()
        painter.resetTransform()
        painter.setFont(label_font())
        painter.setPen(style.LABEL_COLOR)
        for it in self.items(rect, Qt.IntersectsItemBoundingRect, Qt.AscendingOrder):
            if type(it) is AreaItem and not it.ghost:
                p = t.map(to_scene(it.label_at))
                painter.drawText(
                    QRectF(p.x() - 50, p.y() - 23, 100, 14), Qt.AlignCenter, it.area.id
                )
        painter.restore()

    # -- look-ups -----------------------------------------------------------------------------
    def area_at(self, p: tuple[float, float]) -> Area | None:
        """The topmost area under a map point that exists on the current level (else any)."""
        hits = [it for it in self.items(to_scene(p)) if isinstance(it, AreaItem)]
        live = [it for it in hits if not it.ghost]
        pick = live or hits
        return pick[0].area if pick else None

    def feature_at(self, scene_pos: QPointF, view_transform: Any) -> FeatureItem | None:
        for it in self.items(scene_pos, Qt.IntersectsItemShape, Qt.DescendingOrder, view_transform):
            if isinstance(it, FeatureItem):
                return it
        return None
