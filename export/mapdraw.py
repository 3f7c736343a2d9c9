"""Draw the map of a scenario: one level at a time (floor plans) or a summary of all
levels (small maps in the briefing and the turn report).

Coordinates: table cm with y north go to points as ``(x - minx) * scale``; north is up.
Colours and symbol sizes come from the ``map_style`` layout.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from fireground.engine.board.model import FeatureType, Scenario

from . import symbols as sym
from .kit import FONT, FONT_BOLD
from .maplabels import (
    MIN_NAME,
    Deferred,
    IdTag,
    NamePlate,
    draw_id,
    draw_name_in,
    extra_list,
    extra_texts,
    fit_text,
    label_rect,
    name_in_area,
    name_plates,
    place_id,
    place_name,
)
from .mapmarks import Marks, glyphs_at
from .mapview import (
    MapView,
    Rect,
    all_levels,
    label_point,
    level_name,
    map_extent,
    poly_bbox,
    poly_path,
    style,
)

__all__ = [
    "MIN_NAME",
    "Deferred",
    "IdTag",
    "MapView",
    "Marks",
    "NamePlate",
    "Rect",
    "all_levels",
    "draw_id",
    "draw_level",
    "draw_summary",
    "glyphs_at",
    "level_name",
    "map_extent",
    "name_plates",
    "place_id",
    "place_name",
    "style",
]


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
        c.drawPath(poly_path(c, view, a.polygon), stroke=1, fill=1)
    c.setStrokeColor(st.setting("outline"))
    c.setLineWidth(st.length("outline"))
    for a in present:
        c.setFillColor(fills.get(a.kind.value, "#ffffff"))
        c.drawPath(poly_path(c, view, a.polygon), stroke=1, fill=1)
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
            c.drawPath(poly_path(c, view, a.polygon), stroke=1, fill=0)


def draw_level(
    c: Canvas,
    scenario: Scenario,
    view: MapView,
    level: int,
    marks: Marks,
    symbol_size: float | None = None,
    defer: Deferred | None = None,
    areas: bool = True,
    placed: list[tuple[str, Rect, float, Rect]] | None = None,
) -> set[str]:
    """Draw one level of the map; returns the legend keys it used. With ``defer`` the
    area ids and building names are not drawn but collected there, for the caller to
    place on each tile of a tiled plan (so no text straddles a tile edge). With
    ``areas=False`` the area shapes are left to the caller (SVG writes them itself). On a
    map smaller than the table, ids shrink to their area (or turn upright in a narrow one,
    or are left out below 6 pt) and a building name goes inside one of its areas or not at
    all, so no text crosses an area border; ``placed`` hears (text, box, size, the area's
    box) of each."""
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
    extra_text = extra_texts(scenario, level)
    rects: dict[str, Rect] = {}
    small = k < 0.99 and defer is None  # a map smaller than the table: fit text to areas
    for a in present:
        x, y = view.pt(*label_point(scenario, a.id))
        tag = IdTag(a.id, x, y + gap, id_size, poly_bbox(view, a.polygon))
        if defer is not None:
            defer.ids.append(tag)
        elif small:
            _small_id(c, tag, placed)
        else:
            draw_id(c, tag)
        room = (tag.area[2] - tag.area[0]) * 0.95
        label = None
        if a.id in labels:
            label, size = fit_text(c, str(labels[a.id]), FONT, id_size * 0.8, room)
            if label != labels[a.id] or size < MIN_TEXT:
                label = None  # no room to say it whole on this map: never a label cut short
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
        rects[a.id] = label_rect(c, x, y, a.id, label, total, extra_text.get(a.id), s, gap, id_size)
    # names of water supplies and entries under their symbols; on small maps a name the
    # neighbouring areas share (a river over many areas) is written once
    said: set[str] = set()
    for area, colour, text in extra_list(scenario, level):
        if area not in rects or (k < 0.99 and text in said):
            continue
        said.add(text)
        x, y = view.pt(*label_point(scenario, area))
        box = poly_bbox(view, scenario.area(area).polygon)
        lines, size = _wrap_name(c, text, id_size * 0.85, (box[2] - box[0]) * 0.95)
        base = y - s - 2 * gap - id_size * 0.6
        if not lines or base - (len(lines) - 0.75) * size * 1.1 < box[1]:
            continue  # no room in its area on this map: never a name cut short
        c.setFillColor(colour)
        c.setFont(FONT, size)
        for i, line in enumerate(lines):
            c.drawCentredString(x, base - i * size * 1.1, line)
    # building names, clear of the area labels
    plates = name_plates(scenario, view, level, rects, k)
    if defer is not None:
        defer.names.extend(plates)
    elif small:  # inside one area, or left out (the briefing lists every building)
        for plate in plates:
            spot = name_in_area(c, plate, MIN_NAME)
            if spot is not None:
                draw_name_in(c, plate, *spot)
                if placed is not None:
                    placed.append((plate.text, *spot))
    else:
        for plate in plates:
            place_name(c, plate, plate.bounds, min_size=MIN_NAME)
    c.restoreState()
    return used


#: The smallest text a printed map carries (points).
MIN_TEXT = 6.0


def _small_id(c: Canvas, tag: IdTag, placed: list[tuple[str, Rect, float, Rect]] | None) -> None:
    """An area id on a small map: at most its size, shrunk to the area's width; upright in
    an area too narrow for it but tall enough; left out if it would be under 6 pt."""
    ax0, ay0, ax1, ay1 = tag.area
    pad = 0.5
    wide = c.stringWidth(tag.text, FONT_BOLD, tag.size)
    size = min(tag.size, tag.size * (ax1 - ax0 - 2 * pad) / max(1e-6, wide), ay1 - ay0 - 2 * pad)
    c.setFillColor(style().setting("id_colour"))
    if size >= MIN_TEXT:
        # where the label point puts it, moved down into a low area if it would stick out
        y = min(tag.y, ay1 - pad - 0.75 * size)
        y = max(y, ay0 + pad + 0.25 * size)
        c.setFont(FONT_BOLD, size)
        c.drawCentredString(tag.x, y, tag.text)
        half = c.stringWidth(tag.text, FONT_BOLD, size) / 2
        box = (tag.x - half, y - 0.25 * size, tag.x + half, y + 0.75 * size)
    else:
        size = min(tag.size, tag.size * (ay1 - ay0 - 2 * pad) / max(1e-6, wide))
        if size < MIN_TEXT or ax1 - ax0 - 2 * pad < size:
            return
        cx, cy = (ax0 + ax1) / 2, (ay0 + ay1) / 2
        c.saveState()
        c.translate(cx + 0.35 * size, cy)
        c.rotate(90)
        c.setFont(FONT_BOLD, size)
        c.drawCentredString(0, 0, tag.text)
        c.restoreState()
        half = c.stringWidth(tag.text, FONT_BOLD, size) / 2
        box = (cx + 0.35 * size - 0.75 * size, cy - half, cx + 0.35 * size + 0.25 * size, cy + half)
    if placed is not None:
        placed.append((tag.text, box, size, tag.area))


def _wrap_name(c: Canvas, text: str, size: float, room: float) -> tuple[list[str], float]:
    """A water or entry name on one line, or two split at a space, shrunk to at most 0.6
    of ``size``; ([], size) when it still does not fit (names are never cut short)."""
    options = [[text]]
    words = text.split()
    if len(words) > 1:
        splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
        options.append(list(min(splits, key=lambda p: max(len(p[0]), len(p[1])))))
    for lines in options:
        wide = max(c.stringWidth(line, FONT, size) for line in lines)
        fitted = min(size, size * room / wide)
        if fitted >= size * 0.6:
            return lines, fitted
    return [], size


def draw_summary(
    c: Canvas,
    scenario: Scenario,
    view: MapView,
    marks: Marks,
    symbol_size: float | None = None,
    ids: bool = True,
    min_text: bool = True,
) -> None:
    """A small map of every level at once: each area shaded by its hottest fire (any level),
    destroyed areas dark, with the fire value and burning levels written in. With
    ``min_text`` nothing is written smaller than 6 pt: an id that would be is left out, a
    fire note is shortened to its value."""
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
        c.drawPath(poly_path(c, view, a.polygon), stroke=1, fill=1)
    for a in scenario.areas:
        x, y = view.pt(*label_point(scenario, a.id))
        dark = a.id in destroyed and a.id not in hottest
        box = poly_bbox(view, a.polygon)
        room = (box[2] - box[0]) * 0.92  # ids and fire notes shrink to their area
        if ids:
            c.setFillColor("#ffffff" if dark else "#333333")
            nominal = max(s * 0.55, MIN_TEXT) if min_text else s * 0.55
            text, size = fit_text(c, a.id, FONT, nominal, room, least=0.4, cut=False)
            if size >= MIN_TEXT or not min_text:  # an id that would need less is left out
                c.setFont(FONT, size)
                c.drawCentredString(x, y + s * 0.1, text)
        if a.id in hottest:
            lv = ",".join(str(v) for v in sorted(levels_burning[a.id]))
            c.setFillColor("#000000" if hottest[a.id] < 4 else "#ffffff")
            note = f"F{hottest[a.id]} L{lv}"
            nominal = max(s * 0.6, MIN_TEXT) if min_text else s * 0.6
            text, size = fit_text(c, note, FONT_BOLD, nominal, room, least=0.4, cut=False)
            if size < MIN_TEXT and min_text:  # the fire is what matters: keep it legible
                text, size = f"F{hottest[a.id]}", MIN_TEXT
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
