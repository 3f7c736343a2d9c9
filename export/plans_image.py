"""Floor plans as SVG (true scale: ``width``/``height`` in mm, ``viewBox`` in table cm, so a
10 cm area measures 100 mm) or PNG (at a stated DPI, 1:1), one file per level, for laser
cutters, foam-board templates and forum posts."""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from fireground.engine.scenario import Scenario

from .mapdraw import all_levels, level_name, style
from .plans import level_extent

DEFAULT_DPI = 100


def plan_svg(scenario: Scenario, level: int) -> str:
    """One level as SVG text, north up, 1 table cm = 1 cm."""
    ext = level_extent(scenario, level)
    st = style()
    fills = st.setting("fill")
    top = ext.miny + ext.height  # SVG y runs down: flip about the top edge

    def pts(poly: tuple[tuple[float, float], ...]) -> str:
        return " ".join(f"{x - ext.minx:.4g},{top - y:.4g}" for x, y in poly)

    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{ext.width * 10:g}mm" '
        f'height="{ext.height * 10:g}mm" viewBox="0 0 {ext.width:g} {ext.height:g}">',
        f"<title>{escape(scenario.name or 'plan')}: {level_name(level)} (1:1, units: cm)</title>",
        '<g stroke="#333" stroke-width="0.05" stroke-linejoin="round">',
    ]
    labels = []
    for a in scenario.areas:
        here = level in scenario.levels_of(a.id)
        fill = fills.get(a.kind.value, "#fff") if here else st.setting("ghost_fill")
        out.append(
            f'<polygon id={quoteattr(a.id)} points="{pts(a.polygon)}" fill="{fill}"'
            f' data-kind="{a.kind.value}"/>'
        )
        if here:
            p = a.shape.point_on_surface() if a.shape.is_valid else None
            x, y = (p.x, p.y) if p is not None else a.centroid
            labels.append(
                f'<text x="{x - ext.minx:.4g}" y="{top - y:.4g}" font-size="0.45" '
                f'text-anchor="middle" font-family="DejaVu Sans, sans-serif">'
                f"{escape(a.id)}</text>"
            )
    out.append("</g>")
    out += labels
    out.append("</svg>")
    return "\n".join(out)


def plan_png(scenario: Scenario, level: int, path: Path, dpi: int = DEFAULT_DPI) -> Path:
    """One level as a PNG at ``dpi`` dots per inch of table (1:1), with the DPI recorded."""
    from importlib import resources

    from PIL import Image, ImageDraw, ImageFont

    ext = level_extent(scenario, level)
    st = style()
    fills = st.setting("fill")
    px = dpi / 2.54  # pixels per table cm
    w, h = max(1, round(ext.width * px)), max(1, round(ext.height * px))
    img = Image.new("RGB", (w, h), "white")
    d = ImageDraw.Draw(img)
    font_file = resources.files("fireground.export").joinpath("fonts/DejaVuSans-Bold.ttf")
    with resources.as_file(font_file) as fp:
        font = ImageFont.truetype(str(fp), max(6, round(0.45 * px)))
    top = ext.miny + ext.height
    for a in scenario.areas:
        here = level in scenario.levels_of(a.id)
        fill = fills.get(a.kind.value, "#ffffff") if here else st.setting("ghost_fill")
        poly = [((x - ext.minx) * px, (top - y) * px) for x, y in a.polygon]
        d.polygon(poly, fill=fill, outline="#333333")
        if here:
            cx, cy = a.centroid
            d.text(
                ((cx - ext.minx) * px, (top - cy) * px),
                a.id,
                fill="#333333",
                anchor="mm",
                font=font,
            )
    img.save(path, dpi=(dpi, dpi))
    return path


def export_plan_images(
    scenario: Scenario, out: Path, stem: str, fmt: str, dpi: int = DEFAULT_DPI
) -> list[Path]:
    """``plans-STEM-level-N.svg|png`` for every level."""
    paths = []
    for level in all_levels(scenario):
        tag = "basement" if level < 0 else f"level-{level}"
        path = out / f"plans-{stem}-{tag}.{fmt}"
        if fmt == "svg":
            path.write_text(plan_svg(scenario, level), encoding="utf-8")
        else:
            plan_png(scenario, level, path, dpi)
        paths.append(path)
    return paths
