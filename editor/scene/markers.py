"""What the map scene draws at locations: the start or test-turn state (fire, damp,
damage, embers, rubble, craters, units, hose lines), issue rings and event highlights."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene

from fireground.engine.board.model import Location

from . import style
from .coords import to_scene
from .items import MarkerText, RingItem, UnitItem

if TYPE_CHECKING:
    from ..document import Document

    _Scene = QGraphicsScene
else:
    _Scene = object


class MarkersMixin(_Scene):
    """Part of :class:`MapScene`: markers, rings and highlights (kept in their lists so a
    rebuild removes exactly them)."""

    doc: Document
    state: Mapping[str, Any] | None
    markers: list[MarkerText]
    rings: list[QGraphicsItem]
    highlights: list[QGraphicsItem]

    if TYPE_CHECKING:

        def centre(self, area_id: str) -> tuple[float, float]: ...

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

        # One row at the area's centre, apart enough that no two read as one number:
        # rubble, fire (or embers), damage lettered D, damp, craters.
        for d in st.get("fires", []):
            put("fire", str(d["fire"]), style.FIRE, d["area"], d["level"], -16, 0, 13)
        for d in st.get("damp", []):
            if int(d.get("damp", 0)) > 0:
                put("damp", str(d["damp"]), style.DAMP, d["area"], d["level"], 28, 0)
        for d in st.get("damage", []):
            put("damage", f"D{d['damage']}", style.DAMAGE, d["area"], d["level"], 8, 0, 9)
        for d in st.get("embers", []):
            put("embers", "✱", style.EMBERS, d["area"], d["level"], -16, 0, 12)
        for a in st.get("rubble", []):
            put("rubble", "▒", QColor("#6b5b4b"), a, 0, -32, 0)
        for a in st.get("craters", []):
            put("craters", "◎", QColor("#333333"), a, 0, 44, 0)
        placed = [u for u in st.get("units", []) if u.get("area")]
        crowd: dict[tuple[str, int], int] = {}
        for u in placed:
            key = (u["area"], u.get("level", 0))
            crowd[key] = crowd.get(key, 0) + 1
        stacked: dict[tuple[str, int], int] = {}
        for u in placed:
            area, level = u["area"], u.get("level", 0)
            # Several units in one place: in pairs under the symbols, so a crowd stays near
            # its area (a single column ran down over the next area's id).
            k = stacked.get((area, level), 0)
            stacked[(area, level)] = k + 1
            dx = 0 if crowd[(area, level)] == 1 else (k % 2) * 44 - 22
            dy = 30 + 14 * (k // 2)
            put("unit", str(u.get("id", "?")), QColor("#004d99"), area, level, dx, dy, 8)
        self._draw_hoses(st.get("hoses", []))
        if self.state is None:
            self._draw_units()

    def _draw_units(self) -> None:
        """The forces' start positions on this level, as badges a click selects."""
        s = self.doc.scenario
        lvl = self.doc.level
        chosen = set(self.doc.selection.units)
        here: dict[str, list[str]] = {}
        for u in s.forces:
            if u.area is not None and u.area in s.area_by_id and u.level == lvl:
                here.setdefault(u.area, []).append(u.id)
        for area, ids in here.items():
            for k, uid in enumerate(ids):
                it = UnitItem(uid, self.centre(area), k - (len(ids) - 1) / 2)
                it.selected = uid in chosen
                it.location = (area, lvl)  # type: ignore[attr-defined]
                self.markers.append(it)  # type: ignore[arg-type]
                self.addItem(it)

    def unit_at(self, scene_pos: QPointF, view_transform: Any) -> UnitItem | None:
        for it in self.items(scene_pos, Qt.IntersectsItemShape, Qt.DescendingOrder, view_transform):
            if isinstance(it, UnitItem):
                return it
        return None

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
