"""Overlays over the map: adjacency edges, hose reach from water, the downwind arrow and
the burn-chance heat map of an analysis."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene

from fireground.engine.board.model import Location, Scenario

from . import style
from .coords import polygon_to_scene, to_scene

if TYPE_CHECKING:
    from ..document import Document

    _Scene = QGraphicsScene
else:
    _Scene = object

#: Heat-map fill opacity: the plan stays readable beneath.
HEAT_ALPHA = 0.7


def heat_color(chance: float) -> QColor:
    """The heat-map colour of a chance 0..1: pale yellow through orange to deep red, each
    step redder (lower hue, more red than green) than the one before."""
    p = min(max(float(chance), 0.0), 1.0)
    return QColor.fromHsvF(0.16 * (1.0 - p), 0.2 + 0.8 * p, 1.0 - 0.22 * p, HEAT_ALPHA)


class OverlaysMixin(_Scene):
    """Part of :class:`MapScene`: the overlays, rebuilt on every edit and level change while
    any is on (kept in ``overlay_items``)."""

    doc: Document
    overlays: dict[str, bool]
    overlay_items: list[QGraphicsItem]
    #: Per-location burn chance of the last analysis, or None.
    heat: dict[Location, float] | None

    if TYPE_CHECKING:

        def centre(self, area_id: str) -> tuple[float, float]: ...

        def map_rect(self) -> QRectF: ...

    # -- overlays -----------------------------------------------------------------------------
    def set_overlay(self, name: str, on: bool) -> None:
        self.overlays[name] = on
        self.refresh_overlays()

    def set_heatmap(self, chances: Mapping[Location, float] | None) -> None:
        """Show per-location burn chances (from Analyze…) on the current level; None clears."""
        self.heat = dict(chances) if chances is not None else None
        self.overlays["burn"] = chances is not None
        self.refresh_overlays()

    def refresh_overlays(self) -> None:
        for it in self.overlay_items:
            self.removeItem(it)
        self.overlay_items = []
        if not any(self.overlays.values()):
            return
        s = self.doc.scenario
        if self.overlays.get("burn") and self.heat is not None:
            self._heat_overlay(s, self.heat)
        if not (self.overlays["adjacency"] or self.overlays["hose"] or self.overlays["wind"]):
            return
        from fireground.engine.board.graph import build_graph

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

    def _heat_overlay(self, s: Scenario, heat: Mapping[Location, float]) -> None:
        lvl = self.doc.level
        for a in s.areas:
            chance = heat.get((a.id, lvl))
            if chance is None:
                continue  # not on this level, or drawn after the analysis
            path = QPainterPath()
            path.addPolygon(polygon_to_scene(a.polygon))
            it = QGraphicsPathItem(path)
            it.setPen(QPen(Qt.NoPen))
            it.setBrush(QBrush(heat_color(chance)))
            it.setToolTip(f"{a.id}, level {lvl}: burns in {chance:.0%} of games")
            it.setZValue(1.5)
            it.role = "burn"  # type: ignore[attr-defined]
            it.location = (a.id, lvl)  # type: ignore[attr-defined]
            it.chance = chance  # type: ignore[attr-defined]
            self._add_overlay(it)
