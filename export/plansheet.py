"""The plan page frame and the whole-map sheet: table extents, print aids, fitted views."""

from __future__ import annotations

from dataclasses import dataclass

from reportlab.pdfgen.canvas import Canvas

from fireground.engine.board.model import AreaKind, Scenario

from . import planaids as aids
from .kit import draw_calibration, draw_text, paper_size
from .layout import CM, Box, Layout, layout
from .mapdraw import MapView, Marks, draw_level, style

KIND_SWATCHES = (
    (AreaKind.BUILDING, "building"),
    (AreaKind.STREET, "street"),
    (AreaKind.OPEN, "open ground"),
    (AreaKind.WATER, "water"),
)


@dataclass(frozen=True)
class Extent:
    """A rectangle of the table in cm."""

    minx: float
    miny: float
    width: float
    height: float


def level_extent(scenario: Scenario, level: int, margin_cm: float = 1.0) -> Extent:
    """The part of the table that has this level (the whole map at ground level)."""
    areas = [a for a in scenario.areas if level in scenario.levels_of(a.id)] or list(scenario.areas)
    if not areas:
        return Extent(0.0, 0.0, 10.0, 10.0)
    xs = [p[0] for a in areas for p in a.polygon]
    ys = [p[1] for a in areas for p in a.polygon]
    return Extent(
        min(xs) - margin_cm,
        min(ys) - margin_cm,
        max(xs) - min(xs) + 2 * margin_cm,
        max(ys) - min(ys) + 2 * margin_cm,
    )


def sheet_layout(paper: str, aspect: float) -> Layout:
    """The whole-map sheet in the orientation that shows the map larger."""
    pw, ph = paper_size(paper)
    options = [layout("plan_sheet_portrait", pw, ph), layout("plan_sheet_landscape", ph, pw)]

    def scale(lay: Layout) -> float:
        m = lay.box("map")
        return min(m.width / aspect, m.height)

    return max(options, key=scale)


def _fit_view(box: Box, ext: Extent) -> MapView:
    s = min(box.width / (ext.width * CM), box.height / (ext.height * CM)) * CM
    ox = box.x + (box.width - ext.width * s) / 2
    oy = box.y + (box.height - ext.height * s) / 2
    return MapView(ext.minx, ext.miny, s, ox, oy)


def draw_frame(c: Canvas, lay: Layout, title: str, subtitle: str) -> None:
    """What every plan page carries: titles, calibration square, print note, north."""
    draw_text(c, lay.box("title"), title)
    draw_text(c, lay.box("subtitle"), subtitle)
    draw_calibration(c, lay.box("calibration"), lay.setting("print_note"))
    draw_text(c, lay.box("print_note"), lay.setting("print_note").replace("|", ""))
    aids.draw_north(c, lay.box("north"))


def kind_swatches() -> list[tuple[str, str]]:
    fills = style().setting("fill")
    return [(fills[k.value], text) for k, text in KIND_SWATCHES]


def sheet_subtitle(scenario: Scenario) -> str:
    parts = [f"area {scenario.scale.area_cm:g} cm", f"figures {scenario.scale.figure_mm:g} mm"]
    if scenario.wind.from_:
        parts.append(
            f"wind from {scenario.wind.from_}{' (strong)' if scenario.wind.strong else ''}"
        )
    return " · ".join(parts)


def sheet_page(
    c: Canvas, scenario: Scenario, lay: Layout, ext: Extent, level: int, title: str, marks: Marks
) -> set[str]:
    c.setPageSize((lay.width, lay.height))
    view = _fit_view(lay.box("map"), ext)
    st = style()
    small = max(st.length("small_symbol"), st.length("symbol") * view.scale / CM)
    c.saveState()
    m = lay.box("map")
    p = c.beginPath()
    p.rect(m.x, m.y, m.width, m.height)
    c.clipPath(p, stroke=0, fill=0)
    used = draw_level(c, scenario, view, level, marks, symbol_size=min(small, st.length("symbol")))
    c.restoreState()
    scale = (
        "true scale 1:1"
        if abs(view.ratio - 1) < 1e-9
        else (f"scale 1:{view.ratio:.3g} (1 cm on paper = {view.ratio:.3g} cm on the table)")
    )
    draw_frame(c, lay, title, f"{scale} · {sheet_subtitle(scenario)}")
    aids.draw_scale_bar(c, lay.box("scale_bar"), view.ratio, lay.setting("scale_steps"))
    return used
