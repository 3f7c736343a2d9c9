"""The Forest Fire counter sheet: fire tokens, burnt markers, water, engines, VP track."""

from __future__ import annotations

from pathlib import Path

from fireground.engine.games.forestfire.scenario import Setup

from ...kit import FONT_BOLD, draw_text, new_canvas, paper_size
from ...layout import MM, Box, layout


def write_counters(s: Setup, path: Path, paper: str = "a4") -> dict[str, int]:
    """Write the counter sheet; returns how many of each kind it holds."""
    w, h = paper_size(paper)
    lay = layout("ff_counters", w, h)
    col = lay.setting("colours", {})
    c = new_canvas(path, (w, h), f"{s.name}: counters", "Forest Fire counters")
    draw_text(c, lay.box("title"), f"{s.name}: counters (cut along the lines)")
    sheet = lay.box("sheet")
    side, gap = lay.length("side"), lay.length("gap")
    label = lay.box("label")
    per_row = int(sheet.width // side)
    y = sheet.top
    counts: dict[str, int] = {}

    def row_of(kind: str, n: int, text: str, cw: float = side, ch: float = side) -> None:
        nonlocal y
        per = int(sheet.width // cw)
        for i in range(n):
            if i % per == 0:
                y -= ch
            x = sheet.x + (i % per) * cw
            c.setFillColor(col.get(kind, "#ffffff"))
            c.setStrokeColor("#000000")
            c.setLineWidth(0.4)
            c.rect(x, y, cw, ch, stroke=1, fill=1)
            draw_text(c, Box("l", x, y, cw, ch, label.style), text,
                      colour="#000000" if kind in ("engine", "track", "vp") else "#ffffff")  # fmt: skip
        y -= gap
        counts[kind] = n

    row_of("fire", int(lay.setting("fire", 60)), "FIRE")
    row_of("burnt", int(lay.setting("burnt", s.squares)), "BURNT")
    row_of("water", int(lay.setting("water", 12)), "WATER")
    ids = [e.id for e in s.engines] or ["E1", "E2"]
    for eid in ids:
        row_of("engine", 1, f"ENGINE {eid}", lay.length("engine_w"), lay.length("engine_h"))
    counts["engine"] = len(ids)
    row_of("vp", 1, "VP")
    # the 0-10 VP track: one box per point
    t = lay.length("track")
    y -= t
    c.setFont(FONT_BOLD, 9)
    for v in range(11):
        x = sheet.x + v * t
        c.setFillColor(col.get("track", "#ffffff"))
        c.rect(x, y, t, t, stroke=1, fill=1)
        c.setFillColor("#000000")
        c.drawCentredString(x + t / 2, y + t / 2 - 3, str(v))
    c.setFont(FONT_BOLD, 7)
    c.drawString(
        sheet.x,
        y - 4 * MM,
        "VP track: 8-9 Fire marginal victory, 10 Fire total victory (the game ends)",
    )
    counts["vp_track"] = 11
    del per_row
    c.showPage()
    c.save()
    return counts
