"""Floor plans as SVG (true scale: ``width``/``height`` in mm, ``viewBox`` in table cm, so a
10 cm area measures 100 mm) or PNG (at a stated DPI, 1:1), one file per level, for laser
cutters, foam-board templates and forum posts.

Both carry what the PDF plan shows: areas and ids, feature symbols, the start state, building
names, and below the map a band with the title, a scale bar, the north arrow and a legend.
The map is drawn by the same code as the PDF (``mapdraw``) onto a recording canvas
(``vector``), then written out; in the SVG the area outlines come first as plain polygons in
table cm (one per area, with its id and kind), handy for cutting.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from fireground.engine.board.model import Scenario

from . import planaids as aids
from .kit import FONT_BOLD
from .layout import CM, Layout, layout
from .mapdraw import MapView, Marks, draw_level, level_name, style
from .plans import KIND_SWATCHES, level_extent
from .plansel import chosen_levels, select_buildings, terrain_only
from .vector import Shape, Text, VectorCanvas, VectorPath, flatten, svg_path_data

DEFAULT_DPI = 100
MIN_LEGEND = 20 * 72 / 25.4  # points: narrower than this, the band leaves the legend out


def _draw(scenario: Scenario, level: int, areas: bool) -> tuple[VectorCanvas, float, float]:
    """The level and its band on a recording canvas; (canvas, width, height) in points."""
    ext = level_extent(scenario, level)
    probe = layout("plan_image", ext.width * CM, ext.height * CM)
    band = probe.length("band")
    w, h = ext.width * CM, ext.height * CM + band
    lay = layout("plan_image", w, h)
    c = VectorCanvas()
    used = draw_level(
        c,  # type: ignore[arg-type]  # the recording canvas has the calls the map uses
        scenario,
        MapView(ext.minx, ext.miny, CM, 0.0, band),
        level,
        Marks.from_start(scenario),
        areas=areas,
    )
    _band(c, lay, scenario, level, used)
    return c, w, h


def _band(c: VectorCanvas, lay: Layout, scenario: Scenario, level: int, used: set[str]) -> None:
    canvas: Any = c
    title = f"{scenario.name or 'Plan'}: {level_name(level)} · 1:1, print at 100%"
    box = lay.box("title")
    size = float(box.get("font_size", 9))
    while size > 4 and c.stringWidth(title, FONT_BOLD, size) > box.width:
        size -= 0.5
    c.setFillColor("#000000")
    c.setFont(FONT_BOLD, size)
    c.drawString(box.x, box.top - size, title)
    aids.draw_scale_bar(canvas, lay.box("scale_bar"), 1.0, lay.setting("scale_steps"))
    aids.draw_north(canvas, lay.box("north"))
    legend = lay.box("legend")
    if legend.width >= MIN_LEGEND:
        fills = style().setting("fill")
        swatches = [(fills[k.value], text) for k, text in KIND_SWATCHES]
        aids.draw_legend(canvas, legend, used, lay.length("legend_symbol"), swatches)


def plan_svg(scenario: Scenario, level: int) -> str:
    """One level as SVG text, north up, 1 table cm = 1 cm."""
    ext = level_extent(scenario, level)
    st = style()
    fills = st.setting("fill")
    c, w_pt, h_pt = _draw(scenario, level, areas=False)
    k = 1 / CM  # table cm per point
    width, height = w_pt * k, h_pt * k
    top = ext.miny + ext.height  # SVG y runs down: flip about the map's top edge

    def pts(poly: tuple[tuple[float, float], ...]) -> str:
        return " ".join(f"{x - ext.minx:.4g},{top - y:.4g}" for x, y in poly)

    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * 10:g}mm" '
        f'height="{height * 10:g}mm" viewBox="0 0 {width:g} {height:g}">',
        f"<title>{escape(scenario.name or 'plan')}: {level_name(level)} (1:1, units: cm)</title>",
        f'<g stroke="{st.setting("outline")}" stroke-width="{st.length("outline") * k:.4g}"'
        ' stroke-linejoin="round">',
    ]
    present = set()
    for a in scenario.areas:
        here = level in scenario.levels_of(a.id)
        fill = fills.get(a.kind.value, "#fff") if here else st.setting("ghost_fill")
        if here:
            present.add(a.id)
        out.append(
            f'<polygon id={quoteattr(a.id)} points="{pts(a.polygon)}" fill="{fill}"'
            f' data-kind="{a.kind.value}"/>'
        )
    out.append("</g>")
    # building walls heavier, as on the PDF plan
    out.append(
        f'<g fill="none" stroke="{st.setting("building_outline")}" '
        f'stroke-width="{st.length("building_outline") * k:.4g}" stroke-linejoin="round">'
    )
    for b in scenario.buildings:
        if level in b.level_range:
            for a in scenario.areas:
                if a.building == b.id and a.id in present:
                    out.append(f'<polygon points="{pts(a.polygon)}"/>')
    out.append("</g>")
    out.append('<g stroke-linejoin="round" font-family="DejaVu Sans, sans-serif">')
    out += _svg_items(c, k, height)
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out)


def _svg_items(c: VectorCanvas, k: float, height: float) -> list[str]:
    """The recorded drawing in table cm, y down."""
    lines = []
    for item in c.items:
        if isinstance(item, Shape):
            flipped = _flip(item, k, height)
            fill = item.fill or "none"
            stroke = (
                f' stroke="{item.stroke}" stroke-width="{item.width * k:.4g}"'
                if item.stroke
                else ""
            )
            lines.append(f'<path d="{flipped}" fill="{fill}"{stroke}/>')
        else:
            weight = ' font-weight="bold"' if item.font == FONT_BOLD else ""
            lines.append(
                f'<text x="{item.x * k:.4g}" y="{height - item.y * k:.4g}" '
                f'font-size="{item.size * k:.4g}"{weight} text-anchor="{item.anchor}" '
                f'fill="{item.fill}">{escape(item.text)}</text>'
            )
    return lines


def _flip(shape: Shape, k: float, height: float) -> str:
    p = VectorPath()
    for op in shape.path.ops:
        if op[0] == "Z":
            p.ops.append(op)
        else:
            p.ops.append((op[0], *((x * k, height - y * k) for x, y in op[1:])))
    return svg_path_data(p, "{:.4g}")


@cache
def _font(name: str, px: int) -> Any:
    from importlib import resources

    from PIL import ImageFont

    file = "DejaVuSans-Bold.ttf" if name == FONT_BOLD else "DejaVuSans.ttf"
    with resources.as_file(resources.files("fireground.export").joinpath("fonts", file)) as fp:
        return ImageFont.truetype(str(fp), max(1, px))


def plan_png(scenario: Scenario, level: int, path: Path, dpi: int = DEFAULT_DPI) -> Path:
    """One level as a PNG at ``dpi`` dots per inch of table (1:1), with the DPI recorded."""
    from PIL import Image, ImageDraw

    c, w_pt, h_pt = _draw(scenario, level, areas=True)
    px = dpi / 72  # pixels per point
    w, h = max(1, round(w_pt / CM * dpi / 2.54)), max(1, round(h_pt / CM * dpi / 2.54))
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    anchors = {"start": "ls", "middle": "ms", "end": "rs"}
    for item in c.items:
        if isinstance(item, Text):
            d.text(
                (item.x * px, h - item.y * px),
                item.text,
                fill=item.fill,
                anchor=anchors[item.anchor],
                font=_font(item.font, round(item.size * px)),
            )
            continue
        runs = [[(x * px, h - y * px) for x, y in run] for run in flatten(item.path)]
        for run in runs:
            if item.fill and len(run) > 2:
                d.polygon(run, fill=item.fill)
            if item.stroke:
                d.line(run, fill=item.stroke, width=max(1, round(item.width * px)), joint="curve")
    img.save(path, dpi=(dpi, dpi))
    return path


def export_plan_images(
    scenario: Scenario,
    out: Path,
    stem: str,
    fmt: str,
    dpi: int = DEFAULT_DPI,
    *,
    levels: Sequence[int] | None = None,
    buildings: Sequence[str] | None = None,
    with_start: bool = False,
) -> list[Path]:
    """``plans-STEM-level-N.svg|png`` for every chosen level (terrain only unless
    ``with_start``)."""
    if buildings:
        scenario = select_buildings(scenario, buildings)
    if not with_start:
        scenario = terrain_only(scenario)
    paths = []
    for level in chosen_levels(scenario, levels):
        tag = "basement" if level < 0 else f"level-{level}"
        path = out / f"plans-{stem}-{tag}.{fmt}"
        if fmt == "svg":
            path.write_text(plan_svg(scenario, level), encoding="utf-8")
        else:
            plan_png(scenario, level, path, dpi)
        paths.append(path)
    return paths
