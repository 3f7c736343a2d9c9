"""The map scene: keeps one item per area and feature in step with the document.

Area items are updated by identity diff (the scenario's unchanged areas are the same
objects), so one edit touches one item even on a 20,000-area map.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene

from fireground.engine.scenario import Area, FeatureType, Location, Scenario

from ..diff import area_diff
from ..document import Document, Selection
from . import style
from .coords import polygon_to_scene, to_scene
from .items import (
    AreaItem,
    FeatureItem,
    MarkerText,
    RingItem,
    SnapIndicatorItem,
    label_font,
)

#: An area of ``area_cm`` must be this many pixels across for its id / symbols to show.
LABEL_MIN_PX = 36.0
SYMBOL_MIN_PX = 22.0


class MapScene(QGraphicsScene):
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
        self.overlays = {"adjacency": False, "hose": False, "wind": False}
        #: A test-turn state (turn-log ``state`` dict) shown instead of the start, or None.
        self.state: Mapping[str, Any] | None = None
        #: Screen pixels per table cm; labels and symbols show only when zoomed in enough.
        self.px_per_cm = 1.0
        self.labels_on = False
        self.symbols_on = True
        self._selected_before: set[str] = set()
        self._bounds_for: object = None
        self._bounds = (0.0, 0.0, 100.0, 100.0)
        self.snap_indicator = SnapIndicatorItem()
        self.addItem(self.snap_indicator)
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
        now = set(sel.areas)
        self._update_looks(now ^ self._selected_before)
        self._selected_before = now
        for it in self.feature_items:
            sel_now = it.index in sel.features
            if sel_now != it.selected:
                it.selected = sel_now
                it.update()

    def _update_looks(self, only: set[str] | None = None) -> None:
        s = self.doc.scenario
        level = self.doc.level
        selected = set(self.doc.selection.areas)
        items = self.area_items
        for aid in items if only is None else only & items.keys():
            items[aid].set_look(ghost=level not in s.levels_of(aid), selected=aid in selected)

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
        self.setSceneRect(
            QRectF(minx - pad, -maxy - pad, maxx - minx + 2 * pad, maxy - miny + 2 * pad)
        )

    def map_rect(self) -> QRectF:
        """The areas' bounding box in scene coordinates (for fit-to-map)."""
        if not self.doc.scenario.areas:
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
            for i in idxs:
                slot = symbols.index(i) - (len(symbols) - 1) / 2 if i in symbols else 0.0
                self._add_feature(i, s.features[i], self.centre(area), slot, sel)

    def _add_feature(
        self, i: int, f: Any, at: tuple[float, float], slot: float, sel: set[int]
    ) -> None:
        it = FeatureItem(i, f, at, slot)
        it.setVisible(self.symbols_on)
        it.setScale(1 / self.px_per_cm)
        it.selected = i in sel
        self.feature_items.append(it)
        self.addItem(it)

    # -- start state / test-turn state --------------------------------------------------------
    def set_state(self, state: Mapping[str, Any] | None) -> None:
        self.state = state
        self._rebuild_markers()

    def current_state(self) -> Mapping[str, Any]:
        if self.state is not None:
            return self.state
        st = self.doc.scenario.start
        return {
            "fires": [{"area": v.area, "level": v.level, "fire": v.value} for v in st.fires],
            "embers": [{"area": v.area, "level": v.level} for v in st.embers],
            "damp": [{"area": v.area, "level": v.level, "damp": v.value} for v in st.damp],
            "damage": [{"area": v.area, "level": v.level, "damage": v.value} for v in st.damage],
            "rubble": list(st.rubble),
            "craters": list(st.craters),
        }

    def _rebuild_markers(self) -> None:
        for m in self.markers:
            self.removeItem(m)
        self.markers = []
        st = self.current_state()
        by_id = self.doc.scenario.area_by_id
        lvl = self.doc.level

        def put(
            role: str,
            text: str,
            color: QColor,
            area: str,
            level: int | None,
            dx: float,
            dy: float,
            size: float = 11.0,
        ) -> None:
            a = by_id.get(area)
            if a is None or (level is not None and level != lvl):
                return
            m = MarkerText(text, color, self.centre(area), dx, dy, size=size)
            m.role = role  # type: ignore[attr-defined]
            m.location = (area, level if level is not None else 0)  # type: ignore[attr-defined]
            self.markers.append(m)
            self.addItem(m)

        for d in st.get("fires", []):
            put("fire", str(d["fire"]), style.FIRE, d["area"], d["level"], -13, 0, 13)
        for d in st.get("damp", []):
            if int(d.get("damp", 0)) > 0:
                put("damp", str(d["damp"]), style.DAMP, d["area"], d["level"], 13, 0)
        for d in st.get("damage", []):
            put("damage", str(d["damage"]), style.DAMAGE, d["area"], d["level"], 0, 0)
        for d in st.get("embers", []):
            put("embers", "✱", style.EMBERS, d["area"], d["level"], -13, 0, 12)
        for a in st.get("rubble", []):
            put("rubble", "▒", QColor("#6b5b4b"), a, 0, -26, 0)
        for a in st.get("craters", []):
            put("craters", "◎", QColor("#333333"), a, 0, 26, 0)
        for u in st.get("units", []):
            area, level = u.get("area"), u.get("level", 0)
            if area:
                put("unit", str(u.get("id", "?")), QColor("#004d99"), area, level, 0, 48, 8)
        self._draw_hoses(st.get("hoses", []))

    def _draw_hoses(self, hoses: Iterable[Mapping[str, Any]]) -> None:
        by_id = self.doc.scenario.area_by_id
        for h in hoses:
            pts = []
            for step in h.get("path", []):
                area = step.get("area") if isinstance(step, Mapping) else step[0]
                a = by_id.get(area)
                if a is not None:
                    pts.append(to_scene(self.centre(a.id)))
            if len(pts) < 2:
                continue
            path = QPainterPath(pts[0])
            for p in pts[1:]:
                path.lineTo(p)
            it = QGraphicsPathItem(path)
            it.setPen(style.cosmetic("#1f5fd0", 2.0, Qt.DashLine))
            it.setZValue(7)
            it.role = "hose"  # type: ignore[attr-defined]
            self.addItem(it)
            self.markers.append(it)  # type: ignore[arg-type]

    # -- issue markers and highlights ---------------------------------------------------------
    def set_issue_markers(self, areas: Iterable[str]) -> None:
        for r in self.rings:
            self.removeItem(r)
        self.rings = []
        by_id = self.doc.scenario.area_by_id
        for aid in sorted(set(areas)):
            a = by_id.get(aid)
            if a is not None:
                r = RingItem(self.centre(aid), style.ISSUE, 11, 2)
                r.setToolTip(f"issue in {aid}")
                self.rings.append(r)
                self.addItem(r)

    def set_highlights(self, locations: Iterable[Location]) -> None:
        for r in self.highlights:
            self.removeItem(r)
        self.highlights = []
        by_id = self.doc.scenario.area_by_id
        for aid, _lvl in locations:
            a = by_id.get(aid)
            if a is not None:
                r = RingItem(self.centre(aid), QColor("#ff9800"), 16, 3.5)
                self.highlights.append(r)
                self.addItem(r)

    # -- overlays -----------------------------------------------------------------------------
    def set_overlay(self, name: str, on: bool) -> None:
        self.overlays[name] = on
        self.refresh_overlays()

    def refresh_overlays(self) -> None:
        for it in self.overlay_items:
            self.removeItem(it)
        self.overlay_items = []
        if not any(self.overlays.values()):
            return
        from fireground.engine.graph import build_graph

        s = self.doc.scenario
        g = build_graph(s)
        if self.overlays["adjacency"]:
            self._adjacency_overlay(s, g)
        if self.overlays["hose"]:
            self._hose_overlay(s, g)
        if self.overlays["wind"]:
            self._wind_overlay(s)

    def _add_overlay(self, it: QGraphicsItem) -> None:
        self.overlay_items.append(it)
        self.addItem(it)

    def _adjacency_overlay(self, s: Scenario, g: Any) -> None:
        path = QPainterPath()
        lvl = self.doc.level
        for loc in g.locations:
            if loc[1] != lvl:
                continue
            a = s.area_by_id[loc[0]]
            for n in g.horizontal(loc):
                if n[0] > loc[0] and n[1] == lvl:
                    path.moveTo(to_scene(self.centre(a.id)))
                    path.lineTo(to_scene(self.centre(n[0])))
        it = QGraphicsPathItem(path)
        it.setPen(style.cosmetic("#7a3cc0", 1.2))
        it.setZValue(4)
        self._add_overlay(it)

    def _hose_overlay(self, s: Scenario, g: Any) -> None:
        reach: dict[Location, int] = g.water_reach()
        lvl = self.doc.level
        worst = max(reach.values(), default=1) or 1
        hatch = QBrush(QColor(150, 0, 0, 110), Qt.BDiagPattern)
        for a in s.areas:
            if lvl not in s.levels_of(a.id):
                continue
            n = reach.get((a.id, lvl))
            path = QPainterPath()
            path.addPolygon(polygon_to_scene(a.polygon))
            it = QGraphicsPathItem(path)
            it.setPen(QPen(Qt.NoPen))
            if n is None:
                it.setBrush(hatch)
                it.setToolTip(f"{a.id}: no water within reach")
            else:
                t = min(1.0, n / worst)
                it.setBrush(QBrush(QColor.fromHsvF(0.33 * (1 - t), 0.75, 0.95, 0.45)))
                it.setToolTip(f"{a.id}: {n} hose length(s) from water")
            it.setZValue(1)
            self._add_overlay(it)

    def _wind_overlay(self, s: Scenario) -> None:
        bearing = s.wind.towards_bearing
        if bearing is None:
            return
        r = self.map_rect()
        c = r.center()
        length = max(r.width(), r.height(), 20.0) * 0.3
        rad = math.radians(bearing)
        d = QPointF(math.sin(rad) * length, -math.cos(rad) * length)
        a, b = c - d / 2, c + d / 2
        path = QPainterPath(a)
        path.lineTo(b)
        head = QLineF(b, a)
        for turn in (25, -25):
            h = QLineF(head)
            h.setLength(length * 0.15)
            h.setAngle(head.angle() + turn)
            path.moveTo(b)
            path.lineTo(h.p2())
        it = QGraphicsPathItem(path)
        it.setPen(style.cosmetic("#2060c0" if not s.wind.strong else "#c02020", 4.0))
        it.setZValue(6)
        it.setToolTip(f"wind from {s.wind.from_}{' (strong)' if s.wind.strong else ''}")
        self._add_overlay(it)

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
        pen = QPen(style.GRID)
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
        painter.setRenderHint(
            QPainter.Antialiasing,
            self.views()[0].renderHints() & QPainter.Antialiasing == QPainter.Antialiasing
            if self.views()
            else False,
        )

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
