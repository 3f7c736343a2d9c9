"""Fitting and placing the map's text: area ids, labels, water and entry names, building names."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from fireground.engine.board.model import FeatureType, Scenario

from .kit import FONT, FONT_BOLD
from .mapview import MapView, Rect, style

MIN_NAME = 6.0  # points: a building name smaller than this is left out of a crowded map


def extra_list(scenario: Scenario, level: int) -> list[tuple[str, str, str]]:
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


def extra_texts(scenario: Scenario, level: int) -> dict[str, str]:
    return {area: text for area, _, text in extra_list(scenario, level)}


def fit_text(
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


def label_rect(
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
    #: the boxes of the building's areas (a small map writes the name inside one of them)
    cells: tuple[Rect, ...] = ()


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
        cells = []
        for a in areas:
            cx0, cy0 = view.pt(min(p[0] for p in a.polygon), min(p[1] for p in a.polygon))
            cx1, cy1 = view.pt(max(p[0] for p in a.polygon), max(p[1] for p in a.polygon))
            cells.append((cx0, cy0, cx1, cy1))
        out.append(
            NamePlate(
                b.name or b.id,
                (x0, y0, x1, y1),
                name_size,
                tuple(rects[a.id] for a in areas),
                tuple(cells),
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


def name_in_area(c: Canvas, plate: NamePlate, min_size: float) -> tuple[Rect, float, Rect] | None:
    """Where a building name goes on a small map: inside one of its areas, crossing no
    area border and clear of that area's labels and symbols, as large as it can be up to
    its size; (text box, size, the area's box), or None when no area has room."""
    width = c.stringWidth(plate.text, FONT_BOLD, plate.max_size)
    pad = 1.0
    best: tuple[Rect, float, Rect] | None = None
    for x0, y0, x1, y1 in plate.cells:
        size = min(plate.max_size, plate.max_size * ((x1 - x0) - 2 * pad) / max(1e-6, width))
        if size < min_size or (best is not None and size <= best[1]):
            continue
        half = c.stringWidth(plate.text, FONT_BOLD, size) / 2
        cx = (x0 + x1) / 2
        inside = [o for o in plate.obstacles if o[0] < x1 and o[2] > x0 and o[1] < y1 and o[3] > y0]
        tops = sorted({y1 - pad, *(o[1] - 0.5 for o in inside if o[1] < y1)}, reverse=True)
        for top in tops:
            box = (cx - half, top - 1.05 * size, cx + half, top)
            if box[1] < y0 + pad:
                continue
            if any(
                o[0] < box[2] and o[2] > box[0] and o[1] < box[3] and o[3] > box[1] for o in inside
            ):
                continue
            best = (box, size, (x0, y0, x1, y1))
            break
    return best


def draw_name_in(c: Canvas, plate: NamePlate, box: Rect, size: float, _cell: Rect) -> None:
    """A name placed by :func:`name_in_area` (baseline 0.8 of its size below the top)."""
    c.setFillColor(style().setting("name_colour"))
    c.setFont(FONT_BOLD, size)
    c.drawCentredString((box[0] + box[2]) / 2, box[3] - 0.8 * size, plate.text)
