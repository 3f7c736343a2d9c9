"""The counters sheet: fire, damp and damage 1-5, embers, rubble, craters, buried
casualties, the All Clear and hose strips, sized for the scenario's areas, with cut lines."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from fireground.engine.board.model import Scenario

from ... import symbols as sym
from ...kit import FONT, FONT_BOLD, draw_text, new_canvas, paper_size
from ...layout import Layout, layout

LABELS = {
    "embers": "EMBERS",
    "rubble": "RUBBLE",
    "crater": "CRATER",
    "casualty": "BURIED",
    "all_clear": "ALL CLEAR",
}


def counter_side(lay: Layout, area_cm: float) -> float:
    side = area_cm * lay.length("per_area_cm")
    return max(lay.length("min_side"), min(lay.length("max_side"), side))


def scenario_basis(scenario: Scenario | None, lay: Layout) -> dict[str, int]:
    """What the counter quantities scale with (see ``basis`` in counters.yaml)."""
    if scenario is None:
        return {k: int(v) for k, v in lay.setting("default_basis").items()}
    from fireground.engine.board.model import FeatureType

    from .cards import unit_catalogue

    catalogue = unit_catalogue(scenario)
    hose = sum(int(catalogue.get(u.type, {}).get("hose_lengths", 0) or 0) for u in scenario.forces)
    return {
        "locations": sum(len(scenario.levels_of(a.id)) for a in scenario.areas if a.building),
        "areas": len(scenario.areas),
        "occupants": sum(f.count or 0 for f in scenario.features_of(FeatureType.OCCUPANTS)),
        "hose": 2 * hose,  # a length covers two areas: two one-area strips
    }


def _in_start(scenario: Scenario | None) -> dict[tuple[str, Any], int]:
    """How many counters of each (kind, value) the start state puts on the table."""
    out: dict[tuple[str, Any], int] = {}
    if scenario is None:
        return out
    st = scenario.start

    def add(key: tuple[str, Any]) -> None:
        out[key] = out.get(key, 0) + 1

    for v in st.fires:
        add(("fire", v.value))
    for v in st.damp:
        if v.value > 0:
            add(("damp", v.value))
    for v in st.damage:
        add(("damage", v.value))
    for _ in st.embers:
        add(("embers", ""))
    for _ in st.rubble:
        add(("rubble", ""))
    for _ in st.craters:
        add(("crater", ""))
    return out


def counter_counts(scenario: Scenario | None, lay: Layout) -> dict[tuple[str, Any], int]:
    """How many of each (kind, value) counter to print, and of ("hose", "") strips: a share
    of the scenario's basis kept within the layout's min and cap, and never fewer than the
    start state uses."""
    basis = scenario_basis(scenario, lay)
    kinds = lay.setting("basis")
    start = _in_start(scenario)
    out: dict[tuple[str, Any], int] = {}
    for kind, value, share, lo, hi in lay.setting("counters"):
        n = round(float(share) * basis[str(kinds[str(kind)])])
        key = (str(kind), value)
        out[key] = max(min(max(n, int(lo)), int(hi)), start.get(key, 0))
    share, lo, hi = lay.setting("hose_strips")
    out[("hose", "")] = min(max(round(float(share) * basis["hose"]), int(lo)), int(hi))
    return out


def _draw_counter(
    c: Canvas, lay: Layout, kind: str, value: Any, x: float, y: float, s: float
) -> None:
    colours = lay.setting("colours")
    fill = colours["fire"][int(value) - 1] if kind == "fire" else colours.get(kind, "#ffffff")
    c.saveState()
    c.setFillColor(fill)
    c.rect(x, y, s, s, stroke=0, fill=1)
    cx, cy = x + s / 2, y + s * 0.56
    icon = {
        "fire": "fire",
        "damp": "damp",
        "damage": "damage",
        "embers": "embers",
        "rubble": "rubble",
        "crater": "crater",
        "casualty": "casualty",
    }.get(kind)
    if kind == "all_clear":
        c.setFillColor("#14532d")
        c.setFont(FONT_BOLD, s * 0.2)
        c.drawCentredString(cx, y + s * 0.55, "ALL")
        c.drawCentredString(cx, y + s * 0.3, "CLEAR")
    elif icon:
        c.saveState()
        sym.LEGEND[icon][0](c, cx, cy, s * 0.5, "")
        c.restoreState()
    c.setFillColor("#000000")
    if value not in ("", None):
        c.setFont(FONT_BOLD, s * 0.3)
        c.drawString(x + s * 0.07, y + s * 0.72, str(value))
    label = f"{kind.upper()} {value}" if value not in ("", None) else LABELS.get(kind, "")
    if kind != "all_clear":
        c.setFont(FONT, s * 0.13)
        c.drawCentredString(cx, y + s * 0.08, label)
    c.restoreState()


def write_counters(scenario: Scenario | None, path: Path, paper: str = "a4") -> Path:
    pw, ph = paper_size(paper)
    lay = layout("counters_page", pw, ph)
    area_cm = scenario.scale.area_cm if scenario is not None else 10.0
    s = counter_side(lay, area_cm)
    counts = counter_counts(scenario, lay)
    items: list[tuple[str, Any]] = []
    for kind, value, _share, _lo, _hi in lay.setting("counters"):
        items += [(str(kind), value)] * counts[(str(kind), value)]
    sheet = lay.box("sheet")
    cols = max(1, int(sheet.width // s))
    strip_len = min(area_cm * 10 * (72 / 25.4), sheet.width)
    strip_w = lay.length("strip_width")
    name = scenario.name if scenario is not None and scenario.name else "BLITZ!"
    c = new_canvas(path, (pw, ph), f"Counters: {name}", "fireground counters")
    page = 0
    i = 0
    strips_left = counts[("hose", "")]
    while i < len(items) or strips_left:
        page += 1
        draw_text(c, lay.box("title"), "Counters")
        draw_text(
            c,
            lay.box("subtitle"),
            f"{name} · counters {s / 72 * 25.4:.0f} mm for {area_cm:g} cm areas · "
            "cut along the grey lines",
        )
        rows = max(1, int(sheet.height // s))
        batch = items[i : i + cols * rows]
        i += len(batch)
        used_rows = (len(batch) + cols - 1) // cols
        for k, (kind, value) in enumerate(batch):
            r, col = divmod(k, cols)
            _draw_counter(c, lay, kind, value, sheet.x + col * s, sheet.top - (r + 1) * s, s)
        grid_top = sheet.top
        if batch:
            _cut_lines(c, lay, sheet.x, grid_top, s, s, cols, used_rows, len(batch))
        # hose strips below the counters, one area long
        y = grid_top - used_rows * s - (5 if batch else 0)
        n_strips = 0
        while strips_left and y - strip_w >= sheet.y:
            _hose_strip(c, lay, sheet.x, y - strip_w, strip_len, strip_w, area_cm)
            y -= strip_w
            strips_left -= 1
            n_strips += 1
        if n_strips:
            _cut_lines(
                c, lay, sheet.x, y + n_strips * strip_w, strip_len, strip_w, 1, n_strips, n_strips
            )
        draw_text(c, lay.box("footer"), f"Print at 100% (actual size) · page {page}")
        c.showPage()
    c.save()
    return path


def _hose_strip(
    c: Canvas, lay: Layout, x: float, y: float, length: float, w: float, area_cm: float
) -> None:
    c.saveState()
    c.setFillColor(lay.setting("colours")["hose"])
    c.rect(x, y, length, w, stroke=0, fill=1)
    c.setStrokeColor("#1f4e9c")
    c.setLineWidth(w * 0.28)
    c.line(x + w * 0.4, y + w / 2, x + length - w * 0.4, y + w / 2)
    c.setFillColor("#ffffff")
    c.setFont(FONT_BOLD, w * 0.3)
    c.drawCentredString(
        x + length / 2, y + w * 0.4, f"HOSE · half a length · {area_cm:g} cm, one area"
    )
    c.restoreState()


def _cut_lines(
    c: Canvas,
    lay: Layout,
    x0: float,
    top: float,
    w: float,
    h: float,
    cols: int,
    rows: int,
    count: int,
) -> None:
    """Grey cut lines between butted counters, continued into the margin as marks."""
    mark = lay.length("mark_length")
    c.saveState()
    c.setStrokeColor("#9a9a9a")
    c.setLineWidth(0.3)
    full_cols = min(cols, count)
    xs: Sequence[float] = [x0 + k * w for k in range(full_cols + 1)]
    for r in range(rows + 1):
        y = top - r * h
        n = full_cols if r < rows else count - (rows - 1) * cols
        c.line(x0 - mark, y, x0 + max(n, full_cols if r < rows else n) * w, y)
    for k, x in enumerate(xs):
        n_rows = rows if k <= count - (rows - 1) * cols else rows - 1
        c.line(x, top + mark, x, top - n_rows * h)
    c.restoreState()
