"""Floor plans at true table scale (1 table cm = 1 cm of paper), tiled over A4 or Letter.

Each level's plan is drawn once into a PDF form XObject and placed, clipped, on every tile
page, so a 100-page plan stays small and quick. Pages: an overview of the whole map, then
for each level an assembly guide (when it takes more than one sheet) and its tiles. Every
page carries the 5 cm calibration square and the "print at 100 %" note, and the PDF asks
viewers not to scale it. ``fit=True`` instead puts each level on one page and states its
scale.
"""

from __future__ import annotations

from pathlib import Path

from fireground.engine.board.model import Scenario

from . import planaids as aids
from .kit import new_canvas, paper_size
from .layout import CM, layout
from .mapdraw import (
    MIN_NAME,
    Deferred,
    MapView,
    Marks,
    all_levels,
    draw_id,
    draw_level,
    level_name,
    place_name,
)
from .plansheet import KIND_SWATCHES, Extent, _sheet_layout, _sheet_page, _swatches, level_extent
from .plantiles import (
    TileGrid,
    _assembly_page,
    _tile_pages,
    _tiles_with_map,
    plan_tiles,
    tile_options,
)

__all__ = [
    "KIND_SWATCHES",
    "Extent",
    "TileGrid",
    "level_extent",
    "plan_tiles",
    "tile_options",
    "write_plans",
]


def write_plans(scenario: Scenario, path: Path, paper: str = "a4", fit: bool = False) -> Path:
    """Write the floor plans PDF; returns its path."""
    pw, ph = paper_size(paper)
    c = new_canvas(path, (pw, ph), f"Floor plans: {scenario.name}", "fireground floor plans")
    marks = Marks.from_start(scenario)
    name = scenario.name or "Untitled scenario"
    levels = all_levels(scenario)
    swatches = _swatches()
    symbol = layout("plan_page", pw, ph).length("legend_symbol")

    if fit:
        for level in levels:
            ext = level_extent(scenario, level)
            lay = _sheet_layout(paper, ext.width / ext.height)
            used = _sheet_page(c, scenario, lay, ext, level, f"{name}: {level_name(level)}", marks)
            aids.draw_legend(c, lay.box("legend"), used, symbol, swatches)
            c.showPage()
        c.save()
        return path

    # overview: the whole map on one sheet
    ext = level_extent(scenario, 0)
    lay = _sheet_layout(paper, ext.width / ext.height)
    used = _sheet_page(c, scenario, lay, ext, 0, f"{name}: overview", marks)
    all_used = set(used)
    for level in levels:
        all_used |= _used_at(scenario, marks, level)
    aids.draw_legend(c, lay.box("legend"), all_used, symbol, swatches)
    c.showPage()

    for level in levels:
        ext = level_extent(scenario, level)
        mw, mh = ext.width * CM, ext.height * CM
        form = f"plan_level_{level + 1}"
        grid = plan_tiles(mw, mh, paper)
        view = MapView(ext.minx, ext.miny, CM)
        tiled = grid.pages > 1
        text = Deferred() if tiled else None
        c.beginForm(form, 0, 0, mw, mh)
        used = draw_level(c, scenario, view, level, marks, defer=text)
        c.endForm()
        keep = _tiles_with_map(scenario, grid, ext, level)
        if text is not None:
            # the assembly guide shows ids and names once, where they belong
            c.beginForm(f"{form}_text", 0, 0, mw, mh)
            for tag in text.ids:
                draw_id(c, tag)
            for plate in text.names:
                place_name(c, plate, plate.bounds, min_size=MIN_NAME)
            c.endForm()
            _assembly_page(c, scenario, grid, form, paper, ext, level, name, keep)
        _tile_pages(
            c, scenario, grid, form, level, name, used, swatches, symbol, keep, text or Deferred()
        )
    c.save()
    return path


def _used_at(scenario: Scenario, marks: Marks, level: int) -> set[str]:
    from .mapdraw import glyphs_at

    return {k for row in glyphs_at(scenario, marks, level).values() for k, _ in row}
