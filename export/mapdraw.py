"""Draw the map of a scenario: one level at a time (floor plans) or a summary of all
levels (small maps in the briefing and the turn report).

Coordinates: table cm with y north go to points as ``(x - minx) * scale``; north is up.
Colours and symbol sizes come from the ``map_style`` layout.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from fireground.engine.scenario import FeatureType, Location, Scenario

from . import symbols as sym
from .kit import FONT, FONT_BOLD
from .layout import CM, Layout, layout


@dataclass
class Marks:
    """What is on the map at one moment: the scenario's start or a turn-log ``state``."""

    fires: dict[Location, int] = field(default_factory=dict)
    embers: set[Location] = field(default_factory=set)
    damp: dict[Location, int] = field(default_factory=dict)
    damage: dict[Location, int] = field(default_factory=dict)
    rubble: set[str] = field(default_factory=set)
    craters: set[str] = field(default_factory=set)
    units: dict[Location, list[str]] = field(default_factory=dict)
    casualties: dict[Location, int] = field(default_factory=dict)

    @classmethod
    def from_start(cls, scenario: Scenario) -> Marks:
        st = scenario.start
        units: dict[Location, list[str]] = defaultdict(list)
        for u in scenario.forces:
            if u.area is not None and u.arrives <= 1:
                units[(u.area, u.level)].append(u.id)
        return cls(
            fires={v.location: v.value for v in st.fires},
            embers={r.location for r in st.embers},
            damp={v.location: v.value for v in st.damp if v.value > 0},
            damage={v.location: v.value for v in st.damage},
            rubble=set(st.rubble),
            craters=set(st.craters),
            units=dict(units),
        )

    @classmethod
    def from_log_state(cls, state: Mapping[str, Any]) -> Marks:
        """Read the ``state`` of a turn-log entry (scenario-format.md)."""

        def loc(d: Mapping[str, Any]) -> Location:
            return (str(d["area"]), int(d.get("level", 0)))

        units: dict[Location, list[str]] = defaultdict(list)
        for u in state.get("units", []):
            if isinstance(u, Mapping) and u.get("area") is not None:
                units[loc(u)].append(str(u.get("id", "?")))
        cas: dict[Location, int] = defaultdict(int)
        for k in state.get("casualties", []):
            if isinstance(k, Mapping) and k.get("area") is not None:
                cas[loc(k)] += 1
        return cls(
            fires={loc(d): int(d.get("fire", 1)) for d in state.get("fires", [])},
            embers={loc(d) for d in state.get("embers", [])},
            damp={loc(d): int(d.get("damp", 1)) for d in state.get("damp", [])},
            damage={loc(d): int(d.get("damage", 1)) for d in state.get("damage", [])},
            rubble={
                str(a if isinstance(a, str) else a.get("area")) for a in state.get("rubble", [])
            },
            craters={
                str(a if isinstance(a, str) else a.get("area")) for a in state.get("craters", [])
            },
            units=dict(units),
            casualties=dict(cas),
        )


@dataclass(frozen=True)
class MapView:
    """Table cm -> points: ``scale`` points per table cm, the map's (minx, miny) at (ox, oy)."""

    minx: float
    miny: float
    scale: float
    ox: float = 0.0
    oy: float = 0.0

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return (self.ox + (x - self.minx) * self.scale, self.oy + (y - self.miny) * self.scale)

    @property
    def ratio(self) -> float:
        """Table cm per cm of paper (1.0 at true scale)."""
        return CM / self.scale


def map_extent(scenario: Scenario, margin_cm: float = 1.0) -> tuple[float, float, float, float]:
    """(minx, miny, width, height) of the map in table cm, with a margin all round."""
    minx, miny, maxx, maxy = scenario.bounds()
    return (
        minx - margin_cm,
        miny - margin_cm,
        maxx - minx + 2 * margin_cm,
        maxy - miny + 2 * margin_cm,
    )


def all_levels(scenario: Scenario) -> list[int]:
    levels: set[int] = {0}
    for a in scenario.areas:
        levels.update(scenario.levels_of(a.id))
    return sorted(levels)


def level_name(level: int) -> str:
    return {-1: "Basement", 0: "Ground level"}.get(level, f"Level {level}")


def style() -> Layout:
    return layout("map_style")


def _poly_path(c: Canvas, view: MapView, pts: Iterable[tuple[float, float]]) -> Any:
    p = c.beginPath()
    for i, (x, y) in enumerate(pts):
        px, py = view.pt(x, y)
        if i == 0:
            p.moveTo(px, py)
        else:
            p.lineTo(px, py)
    p.close()
    return p


def _label_point(scenario: Scenario, area_id: str) -> tuple[float, float]:
    a = scenario.area(area_id)
    shape = a.shape
    if shape.is_valid and not shape.is_empty:
        p = shape.point_on_surface()
        return (float(p.x), float(p.y))
    return a.centroid


def glyphs_at(scenario: Scenario, marks: Marks, level: int) -> dict[str, list[tuple[str, str]]]:
    """Per area, the (legend key, caption) symbols to draw on the plan of ``level``."""
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for f in scenario.features:
        if f.type is FeatureType.STAIRWELL:
            shown = level in scenario.levels_of(f.area)  # serves every level of its area
        else:
            shown = (f.level if f.level is not None else 0) == level
        if not shown:
            continue
        if f.type is FeatureType.STORE:
            out[f.area].append(("store", (f.material or "?")[0].upper()))
        elif f.type is FeatureType.HYDRANT:
            out[f.area].append(("hydrant", str(f.pressure or "")))
        elif f.type is FeatureType.OCCUPANTS:
            out[f.area].append(("occupants", str(f.count or "")))
        elif f.type in (FeatureType.STAIRWELL, FeatureType.WATER, FeatureType.ENTRY):
            out[f.area].append((f.type.value, ""))
    for (area, lvl), v in sorted(marks.fires.items()):
        if lvl == level:
            out[area].append(("fire", str(v)))
    for area, lvl in sorted(marks.embers):
        if lvl == level:
            out[area].append(("embers", ""))
    for (area, lvl), v in sorted(marks.damp.items()):
        if lvl == level:
            out[area].append(("damp", str(v)))
    for (area, lvl), v in sorted(marks.damage.items()):
        if lvl == level:
            out[area].append(("damage", str(v)))
    if level == 0:
        for area in sorted(marks.rubble):
            out[area].append(("rubble", ""))
        for area in sorted(marks.craters):
            out[area].append(("crater", ""))
    for (area, lvl), ids in sorted(marks.units.items()):
        if lvl == level:
            out[area].extend(("unit", u) for u in ids)
    for (area, lvl), n in sorted(marks.casualties.items()):
        if lvl == level:
            out[area].extend(("casualty", "") for _ in range(n))
    return out


Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in points
MIN_NAME = 4.0  # points: a building name smaller than this is left out of a crowded map


def _extra_list(scenario: Scenario, level: int) -> list[tuple[str, str, str]]:
    """(area, colour, text) of the names written under water supplies and entries."""
    out: list[tuple[str, str, str]] = []
    if level != 0:
        return out
    st = style()
    for f in scenario.features:
        if f.type is FeatureType.WATER and f.name:
            out.append((f.area, st.setting("water_symbol"), f"{f.name} ({f.points} pts)"))
        elif f.type is FeatureType.ENTRY and f.name:
            out.append((f.area, "#1d7a34", str(f.name)))
    return out


def _extra_texts(scenario: Scenario, level: int) -> dict[str, str]:
    return {area: text for area, _, text in _extra_list(scenario, level)}


def _fit(
    c: Canvas, text: str, font: str, size: float, room: float, least: float = 0.6, cut: bool = True
) -> tuple[str, float]:
    """Shrink ``text`` to ``room`` points wide, down to ``least`` of ``size``; past that,
    cut it short with an ellipsis (if ``cut``)."""
    width = c.stringWidth(text, font, size)
    if width <= room:
        return text, size
    size = max(size * least, size * room / width)
    while cut and len(text) > 1 and c.stringWidth(text, font, size) > room:
        text = text[:-2].rstrip() + "…"
    return text, size


def _label_rect(
    c: Canvas,
    x: float,
    y: float,
    area_id: str,
    label: str | None,
    symbols_w: float,
    extra: str | None,
    s: float,
    gap: float,
    id_size: float,
) -> Rect:
    """The box an area's id, label, symbol row and water/entry name take up."""
    half = max(c.stringWidth(area_id, FONT_BOLD, id_size), symbols_w) / 2
    top = y + gap + id_size * 0.75
    if label:
        half = max(half, c.stringWidth(label, FONT, id_size * 0.8) / 2)
        top = y + gap + id_size * (1.05 + 0.8 * 0.75)
    bottom = y - s - gap / 2 if symbols_w > 0 else y + gap - id_size * 0.25
    if extra:
        half = max(half, c.stringWidth(extra, FONT, id_size * 0.85) / 2)
        bottom = y - s - 2 * gap - id_size * (0.6 + 0.25)
    return (x - half, bottom, x + half, top)


@dataclass(frozen=True)
class NamePlate:
    """A building's name and the part of the map (points) it belongs to: the bounding box
    of the building's areas at this level and the area labels inside it, to keep clear of."""

    text: str
    bounds: Rect
    max_size: float
    obstacles: tuple[Rect, ...]


def name_plates(
    scenario: Scenario, view: MapView, level: int, rects: Mapping[str, Rect], k: float = 1.0
) -> list[NamePlate]:
    """One plate per building present at this level."""
    st = style()
    name_size = st.length("name_font") / 0.72 * k
    mine: dict[str, list[Any]] = defaultdict(list)
    for a in scenario.areas:
        if a.building is not None and a.id in rects:
            mine[a.building].append(a)
    out = []
    for b in scenario.buildings:
        areas = mine.get(b.id)
        if level not in b.level_range or not areas:
            continue
        x0, y0 = view.pt(
            min(min(p[0] for p in a.polygon) for a in areas),
            min(min(p[1] for p in a.polygon) for a in areas),
        )
        x1, y1 = view.pt(
            max(max(p[0] for p in a.polygon) for a in areas),
            max(max(p[1] for p in a.polygon) for a in areas),
        )
        out.append(
            NamePlate(
                b.name or b.id,
                (x0, y0, x1, y1),
                name_size,
                tuple(rects[a.id] for a in areas),
            )
        )
    return out


@dataclass(frozen=True)
class IdTag:
    """An area id: its text, baseline centre and size, and the area's bounding box (points)."""

    text: str
    x: float
    y: float
    size: float
    area: Rect

    def rect(self, c: Canvas) -> Rect:
        half = c.stringWidth(self.text, FONT_BOLD, self.size) / 2
        return (self.x - half, self.y - 0.25 * self.size, self.x + half, self.y + 0.75 * self.size)


@dataclass
class Deferred:
    """Text a tiled plan writes on each tile rather than once into the plan."""

    ids: list[IdTag] = field(default_factory=list)
    names: list[NamePlate] = field(default_factory=list)


def _bbox(view: MapView, polygon: Iterable[tuple[float, float]]) -> Rect:
    pts = [view.pt(x, y) for x, y in polygon]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def draw_id(c: Canvas, tag: IdTag, x: float | None = None, y: float | None = None) -> None:
    c.setFillColor(style().setting("id_colour"))
    c.setFont(FONT_BOLD, tag.size)
    c.drawCentredString(tag.x if x is None else x, tag.y if y is None else y, tag.text)


def place_id(c: Canvas, tag: IdTag, window: Rect) -> bool:
    """Write an area id on a tile whose visible part is ``window``: where it belongs if it
    lies wholly inside, else in the middle of the part of the area this tile shows (if
    that is big enough; the neighbouring tile shows the rest)."""
    x0, y0, x1, y1 = tag.rect(c)
    if x0 >= window[0] and x1 <= window[2] and y0 >= window[1] and y1 <= window[3]:
        draw_id(c, tag)
        return True
    left, bottom = max(tag.area[0], window[0]), max(tag.area[1], window[1])
    right, top = min(tag.area[2], window[2]), min(tag.area[3], window[3])
    if right - left < (x1 - x0) + 2 * tag.size or top - bottom < 3 * tag.size:
        return False
    draw_id(c, tag, (left + right) / 2, (bottom + top) / 2 + 0.25 * tag.size)
    return True


def place_name(
    c: Canvas, plate: NamePlate, window: Rect, min_size: float, avoid: Iterable[Rect] = ()
) -> bool:
    """Write a building name in the part of its box inside ``window``: at the top if the
    labels leave room, else in the first gap between labels going down, shrunk to the
    width, keeping clear of the ``avoid`` boxes too; on a crowded map, shrunk to the room
    at the top. Returns False (nothing drawn) if it would be smaller than ``min_size``."""
    left = max(plate.bounds[0], window[0])
    bottom = max(plate.bounds[1], window[1])
    right = min(plate.bounds[2], window[2])
    top = min(plate.bounds[3], window[3])
    if right - left <= 0 or top - bottom <= 0:
        return False
    width = c.stringWidth(plate.text, FONT_BOLD, plate.max_size)
    size = min(plate.max_size, plate.max_size * (right - left) * 0.94 / max(1e-6, width))
    if size < min_size or size <= 0:
        return False
    cx = (left + right) / 2
    half = c.stringWidth(plate.text, FONT_BOLD, size) / 2
    near = [
        o
        for o in (*plate.obstacles, *avoid)
        if o[0] < cx + half and o[2] > cx - half and o[1] < top and o[3] > bottom
    ]
    lead = 1.5  # a name needs this many times its size: wall gap, caps, descender, clearance

    def free_below(y: float) -> float:
        """Room from ``y`` down to the first label (or the bottom of the box)."""
        if any(o[1] < y < o[3] for o in near):
            return 0.0
        under = [o[3] for o in near if o[3] <= y]
        return y - max(under, default=bottom)

    slots = [top, *sorted((o[1] for o in near if o[1] < top), reverse=True)]
    chosen: tuple[float, float] | None = None
    for i, y in enumerate(slots):
        room = free_below(y)
        if room >= size * lead:
            chosen = (y, size)
            break
        floor = max(min_size, plate.max_size * 0.6, size * 0.6)
        if i == 0 and room >= floor * lead:  # at the top, a smaller name beats moving it
            chosen = (y, room / lead)
            break
    if chosen is None:  # crowded: as small as it may be, at the top, or not at all
        room = free_below(top)
        if room < min_size * lead or room <= 0:
            return False
        chosen = (top, min(size, room / lead))
    y, size = chosen
    c.setFillColor(style().setting("name_colour"))
    c.setFont(FONT_BOLD, size)
    c.drawCentredString(cx, y - size * 1.05, plate.text)
    return True


def _draw_areas(
    c: Canvas, scenario: Scenario, view: MapView, level: int, present: list[Any], ghosts: list[Any]
) -> None:
    st = style()
    fills: Mapping[str, str] = st.setting("fill")
    # areas that do not exist at this level: pale, for orientation only
    c.setFillColor(st.setting("ghost_fill"))
    c.setStrokeColor(st.setting("ghost_stroke"))
    c.setLineWidth(st.length("ghost_outline"))
    for a in ghosts:
        c.drawPath(_poly_path(c, view, a.polygon), stroke=1, fill=1)
    c.setStrokeColor(st.setting("outline"))
    c.setLineWidth(st.length("outline"))
    for a in present:
        c.setFillColor(fills.get(a.kind.value, "#ffffff"))
        c.drawPath(_poly_path(c, view, a.polygon), stroke=1, fill=1)
    # building outlines heavier, so party walls between buildings read clearly
    c.setStrokeColor(st.setting("building_outline"))
    c.setLineWidth(st.length("building_outline"))
    by_building: dict[str, list[Any]] = defaultdict(list)
    for a in present:
        if a.building is not None:
            by_building[a.building].append(a)
    for b in scenario.buildings:
        if level not in b.level_range:
            continue
        for a in by_building.get(b.id, ()):
            c.drawPath(_poly_path(c, view, a.polygon), stroke=1, fill=0)


def draw_level(
    c: Canvas,
    scenario: Scenario,
    view: MapView,
    level: int,
    marks: Marks,
    symbol_size: float | None = None,
    defer: Deferred | None = None,
    areas: bool = True,
) -> set[str]:
    """Draw one level of the map; returns the legend keys it used. With ``defer`` the
    area ids and building names are not drawn but collected there, for the caller to
    place on each tile of a tiled plan (so no text straddles a tile edge). With
    ``areas=False`` the area shapes are left to the caller (SVG writes them itself)."""
    st = style()
    s = symbol_size if symbol_size is not None else st.length("symbol")
    gap = st.length("symbol_gap") * s / st.length("symbol")
    used: set[str] = set()
    present = [a for a in scenario.areas if level in scenario.levels_of(a.id)]
    ghosts = [a for a in scenario.areas if level not in scenario.levels_of(a.id)]
    c.saveState()
    c.setLineJoin(1)
    if areas:
        _draw_areas(c, scenario, view, level, present, ghosts)
    # ids, labels and symbols
    glyphs = glyphs_at(scenario, marks, level)
    k = s / st.length("symbol")  # text shrinks with the symbols on small maps
    id_size = st.length("id_font") / 0.72 * k  # cap height to font size
    labels = {
        f.area: f.text
        for f in scenario.features
        if f.type is FeatureType.LABEL and f.text and (f.level or 0) == level
    }
    extra_text = _extra_texts(scenario, level)
    rects: dict[str, Rect] = {}
    for a in present:
        x, y = view.pt(*_label_point(scenario, a.id))
        tag = IdTag(a.id, x, y + gap, id_size, _bbox(view, a.polygon))
        if defer is None:
            draw_id(c, tag)
        else:
            defer.ids.append(tag)
        room = (tag.area[2] - tag.area[0]) * 0.95
        label = None
        if a.id in labels:
            label, size = _fit(c, str(labels[a.id]), FONT, id_size * 0.8, room)
            if len(label) < 8 and label != labels[a.id]:
                label = None  # no room to say it on this map
            else:
                c.setFillColor(st.setting("id_colour"))
                c.setFont(FONT, size)
                c.drawCentredString(x, y + gap + id_size * 1.05, label)
        row = glyphs.get(a.id, [])
        widths = [sym.unit_width(c, s, cap) if key == "unit" else s for key, cap in row]
        total = sum(widths) + gap * max(0, len(row) - 1)
        cx = x - total / 2
        for (key, cap), w in zip(row, widths, strict=True):
            fn = sym.LEGEND[key][0]
            c.saveState()
            fn(c, cx + w / 2, y - s / 2 - gap / 2, s, cap)
            c.restoreState()
            cx += w + gap
            used.add(key)
        rects[a.id] = _label_rect(
            c, x, y, a.id, label, total, extra_text.get(a.id), s, gap, id_size
        )
    # names of water supplies and entries under their symbols; on small maps a name the
    # neighbouring areas share (a river over many areas) is written once
    said: set[str] = set()
    for area, colour, text in _extra_list(scenario, level):
        if area not in rects or (k < 0.99 and text in said):
            continue
        said.add(text)
        x, y = view.pt(*_label_point(scenario, area))
        box = _bbox(view, scenario.area(area).polygon)
        fitted, size = _fit(c, text, FONT, id_size * 0.85, (box[2] - box[0]) * 0.95)
        base = y - s - 2 * gap - id_size * 0.6
        if len(fitted) < 8 or base - 0.25 * size < box[1]:
            continue  # no room in its area on this map
        c.setFillColor(colour)
        c.setFont(FONT, size)
        c.drawCentredString(x, base, fitted)
    # building names, clear of the area labels
    plates = name_plates(scenario, view, level, rects, k)
    if defer is None:
        for plate in plates:
            place_name(c, plate, plate.bounds, min_size=MIN_NAME)
    else:
        defer.names.extend(plates)
    c.restoreState()
    return used


def draw_summary(
    c: Canvas,
    scenario: Scenario,
    view: MapView,
    marks: Marks,
    symbol_size: float | None = None,
    ids: bool = True,
) -> None:
    """A small map of every level at once: each area shaded by its hottest fire (any level),
    destroyed areas dark, with the fire value and burning levels written in."""
    st = style()
    s = symbol_size if symbol_size is not None else st.length("small_symbol")
    fills: Mapping[str, str] = st.setting("fill")
    ramp: list[str] = st.setting("fire_ramp")
    hottest: dict[str, int] = {}
    levels_burning: dict[str, list[int]] = defaultdict(list)
    for (area, lvl), v in marks.fires.items():
        hottest[area] = max(hottest.get(area, 0), v)
        levels_burning[area].append(lvl)
    destroyed = {a for (a, _l), v in marks.damage.items() if v >= 5}
    c.saveState()
    c.setLineJoin(1)
    c.setLineWidth(0.3)
    c.setStrokeColor(st.setting("outline"))
    for a in scenario.areas:
        if a.id in hottest:
            fill = ramp[min(len(ramp), max(1, hottest[a.id])) - 1]
        elif a.id in destroyed:
            fill = st.setting("destroyed")
        else:
            fill = fills.get(a.kind.value, "#ffffff")
        c.setFillColor(fill)
        c.drawPath(_poly_path(c, view, a.polygon), stroke=1, fill=1)
    for a in scenario.areas:
        x, y = view.pt(*_label_point(scenario, a.id))
        dark = a.id in destroyed and a.id not in hottest
        box = _bbox(view, a.polygon)
        room = (box[2] - box[0]) * 0.92  # ids and fire notes shrink to their area
        if ids:
            c.setFillColor("#ffffff" if dark else "#333333")
            text, size = _fit(c, a.id, FONT, s * 0.55, room, least=0.4, cut=False)
            c.setFont(FONT, size)
            c.drawCentredString(x, y + s * 0.1, text)
        if a.id in hottest:
            lv = ",".join(str(v) for v in sorted(levels_burning[a.id]))
            c.setFillColor("#000000" if hottest[a.id] < 4 else "#ffffff")
            note = f"F{hottest[a.id]} L{lv}"
            text, size = _fit(c, note, FONT_BOLD, s * 0.6, room, least=0.4, cut=False)
            c.setFont(FONT_BOLD, size)
            c.drawCentredString(x, y - s * 0.6, text)
        extras = [
            k
            for k, hit in (
                ("rubble", a.id in marks.rubble),
                ("crater", a.id in marks.craters),
                ("embers", any(e[0] == a.id for e in marks.embers)),
            )
            if hit
        ]
        units = [u for (ar, _l), us in marks.units.items() if ar == a.id for u in us]
        if units:
            extras.append("unit")
        cx = x - (len(extras) - 1) * s * 0.55
        for k in extras:
            c.saveState()
            if k == "unit":
                c.setFillColor("#1b3a8a")
                c.rect(cx - s * 0.3, y - s * 1.5, s * 0.6, s * 0.6, stroke=0, fill=1)
                c.setFont(FONT_BOLD, s * 0.45)
                c.drawCentredString(cx, y - s * 2.1, str(len(units)))
            else:
                sym.LEGEND[k][0](c, cx, y - s * 1.2, s * 0.8, "")
            c.restoreState()
            cx += s * 1.1
    c.restoreState()
