"""Crop marks on bleed sheets, and nothing printed within 5 mm of the paper's edge (most
printers cannot print there), read back from the PDFs."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from export_scenarios import small_scenario
from pdfread import points, subpaths, text_runs
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from fireground.export.games.blitz.cards import plan_sheet, write_cards
from fireground.export.games.blitz.counters import write_counters
from fireground.export.games.blitz.reference import write_reference
from fireground.export.kit import FONT, FONT_BOLD
from fireground.export.layout import MM

EDGE = 5 * MM


def _clear_of_edges(path: Path) -> None:
    r = PdfReader(path)
    for n, page in enumerate(r.pages):
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        for x, y in points(r, page):
            assert EDGE - 0.01 <= x <= w - EDGE + 0.01, (path.name, n, "drawing", x, y)
            assert EDGE - 0.01 <= y <= h - EDGE + 0.01, (path.name, n, "drawing", x, y)
        for text, x, y, size, font, dx, dy in text_runs(page):
            width = stringWidth(text, FONT_BOLD if "Bold" in font else FONT, size)
            for px, py in ((x, y), (x + dx * width, y + dy * width)):
                assert EDGE - 0.5 <= px <= w - EDGE + 0.5, (path.name, n, text)
                assert EDGE - 0.5 <= py <= h - EDGE + 0.5, (path.name, n, text)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [False, True])
def test_cards_keep_5_mm_from_the_edge(tmp_path: Path, paper: str, bleed: bool) -> None:
    _clear_of_edges(write_cards(small_scenario(), tmp_path / "c.pdf", paper=paper, bleed=bleed))
    _clear_of_edges(write_cards(None, tmp_path / "all.pdf", paper=paper, bleed=bleed))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_counters_and_reference_keep_5_mm_from_the_edge(tmp_path: Path, paper: str) -> None:
    sc = small_scenario()
    _clear_of_edges(write_counters(sc, tmp_path / "k.pdf", paper=paper, games=2))
    _clear_of_edges(write_reference(sc, tmp_path / "r.pdf", paper=paper))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_bleed_sheets_have_gutters_and_a_crop_mark_on_every_trim_line(
    tmp_path: Path, paper: str
) -> None:
    sheet, lay = plan_sheet(paper, bleed=True)
    bleed = lay.length("bleed")
    assert sheet.gutter == pytest.approx(2 * bleed)
    r = PdfReader(write_cards(None, tmp_path / "c.pdf", paper=paper, bleed=True))
    page = r.pages[0]
    slots = [sheet.slot(i) for i in range(sheet.per_page)]
    # neighbouring cards' trim lines are two bleeds and the gutter apart
    xs = sorted({round(x, 2) for x, _ in slots})
    for a, b in itertools.pairwise(xs):
        assert b - a == pytest.approx(sheet.card_w + 2 * bleed + sheet.gutter, abs=0.01)
    trim_x = {round(x, 2) for x, _ in slots} | {round(x + sheet.card_w, 2) for x, _ in slots}
    trim_y = {round(y, 2) for _, y in slots} | {round(y + sheet.card_h, 2) for _, y in slots}

    def on_a_card(x: float, y: float) -> bool:
        return any(
            sx - bleed + 0.01 < x < sx + sheet.card_w + bleed - 0.01
            and sy - bleed + 0.01 < y < sy + sheet.card_h + bleed - 0.01
            for sx, sy in slots
        )

    # crop marks: the lines off every card and its bleed
    marks = [
        pts
        for pts, inside in subpaths(r, page)
        if len(pts) == 2 and not inside and not any(on_a_card(x, y) for x, y in pts)
    ]
    vertical = {round(p[0][0], 2) for p in marks if abs(p[0][0] - p[1][0]) < 0.01}
    horizontal = {round(p[0][1], 2) for p in marks if abs(p[0][1] - p[1][1]) < 0.01}
    assert trim_x <= vertical
    assert trim_y <= horizontal
    # some of them in the gutters, between two cards
    b = sheet.block
    in_gutter = [pts for pts in marks if all(b.x < x < b.right and b.y < y < b.top for x, y in pts)]
    assert len(in_gutter) >= len(trim_x) + len(trim_y)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_briefing_and_turn_report_keep_5_mm_from_the_edge(tmp_path: Path, paper: str) -> None:
    from fireground.export.games.blitz.briefing import write_briefing
    from fireground.export.games.blitz.turn_report import write_turn_report

    sc = small_scenario()
    _clear_of_edges(write_briefing(sc, tmp_path / "b.pdf", paper=paper))
    _clear_of_edges(write_turn_report(sc, tmp_path / "t.pdf", paper=paper, turns=3, seed=2))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_plan_pages_keep_5_mm_from_the_edge(tmp_path: Path, paper: str) -> None:
    """Everything a plan page draws unclipped (frames, the clip windows themselves, bands,
    guides) stays 5 mm from the edge; maps and marks are drawn clipped to those windows."""
    from pdfread import apply, walk

    from fireground.export.plans import write_plans

    path = write_plans(small_scenario(), tmp_path / "p.pdf", paper)
    r = PdfReader(path)
    seen = 0
    for n, page in enumerate(r.pages):
        w, h = float(page.mediabox.width), float(page.mediabox.height)
        clipped, stack = False, []
        for op, args, ctm, inside in walk(r, page):
            if op == "q":
                stack.append(clipped)
            elif op == "Q":
                clipped = stack.pop()
            elif op in ("W", "W*"):
                clipped = True  # (the clip path itself was checked as it was drawn)
            if clipped or any("plan_level" in f and "band" not in f for f in inside):
                continue  # the map and the tile's marks, drawn clipped to their window
            if op not in ("m", "l", "re"):
                continue
            vals = [float(v) for v in args]
            pts = [apply(ctm, vals[0], vals[1])]
            if op == "re":
                pts.append(apply(ctm, vals[0] + vals[2], vals[1] + vals[3]))
            for x, y in pts:
                seen += 1
                assert EDGE - 0.01 <= x <= w - EDGE + 0.01, (n, op, x, y)
                assert EDGE - 0.01 <= y <= h - EDGE + 0.01, (n, op, x, y)
    assert seen > 100
