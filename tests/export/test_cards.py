"""Unit cards read back from the PDF: card size, 9-up, mirrored backs, text in its box."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from export_scenarios import small_scenario
from hypothesis import given
from hypothesis import strategies as st
from pdfread import rects
from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth

from fireground.export.games.blitz import cards as cards_mod
from fireground.export.games.blitz.cards import Card, cards_for, plan_sheet, write_cards
from fireground.export.kit import FONT, FONT_BOLD, fit_lines
from fireground.export.layout import MM, layout

CARD = (63.5 * MM, 88.9 * MM)


def card_rects(r: PdfReader, page: Any, bleed: float = 0.0) -> list[tuple[float, float]]:
    """Lower-left corners (trim box) of the card backgrounds on a page."""
    w, h = CARD[0] + 2 * bleed, CARD[1] + 2 * bleed
    return sorted(
        (round(x + bleed, 2), round(y + bleed, 2))
        for x, y, rw, rh in rects(r, page)
        if abs(rw - w) < 0.05 and abs(rh - h) < 0.05
    )


def test_catalogue_is_nine_up_with_mirrored_backs(tmp_path: Path) -> None:
    path = write_cards(None, tmp_path / "cards.pdf")
    r = PdfReader(path, strict=True)
    n_units = len(cards_for(None))
    assert len(r.pages) == 2 * -(-n_units // 9)
    front, back = r.pages[0], r.pages[1]
    pw = float(front.mediabox.width)
    fronts = card_rects(r, front)
    backs = card_rects(r, back)
    assert len(fronts) == 9 and len(backs) == 9
    # butted: neighbours touch exactly
    xs = sorted({x for x, _ in fronts})
    assert [b - a for a, b in itertools.pairwise(xs)] == pytest.approx([CARD[0]] * 2, abs=0.05)
    # each back is the mirror image of a front across the page's vertical axis
    mirrored = sorted((round(pw - x - CARD[0], 2), y) for x, y in fronts)
    assert len(backs) == len(mirrored)
    for (bx_, by_), (mx, my) in zip(backs, mirrored, strict=True):
        assert abs(bx_ - mx) < 0.05 and abs(by_ - my) < 0.05
    # the first front (top left) has its back at top right: same card name on both
    sheet, _ = plan_sheet("a4", bleed=False)
    bx, by = sheet.back_slot(0)
    fx, fy = sheet.slot(0)
    assert bx == pytest.approx(pw - fx - CARD[0]) and by == pytest.approx(fy)


def test_one_card_per_force_with_its_id(tmp_path: Path) -> None:
    sc = small_scenario()
    r = PdfReader(write_cards(sc, tmp_path / "c.pdf"), strict=True)
    text = r.pages[0].extract_text()
    for u in sc.forces:
        assert u.id in text
    assert "Escape Carrying Unit" in text and "arrives turn 4" in text
    assert len(card_rects(r, r.pages[0])) == len(sc.forces)


@pytest.mark.parametrize("paper,expected", [("a4", 6), ("letter", 6)])
def test_bleed_cards_six_up_with_gutters(tmp_path: Path, paper: str, expected: int) -> None:
    sheet, lay = plan_sheet(paper, bleed=True)
    assert sheet.per_page == expected
    assert lay.length("bleed") == pytest.approx(3 * MM)
    r = PdfReader(write_cards(None, tmp_path / "c.pdf", paper=paper, bleed=True), strict=True)
    assert len(card_rects(r, r.pages[0], bleed=3 * MM)) == expected
    # the bled cards still fit on the paper
    pw, ph = float(r.pages[0].mediabox.width), float(r.pages[0].mediabox.height)
    b = sheet.block
    assert b.x >= 0 and b.y >= 0 and b.right <= pw and b.top <= ph


def test_letter_without_bleed_is_eight_up() -> None:
    # 9-up portrait leaves 6.4 mm above and below the cards: no room for crop marks 5 mm
    # clear of the edge; landscape 4 x 2 leaves 19 mm
    sheet, _ = plan_sheet("letter", bleed=False)
    assert sheet.per_page == 8
    assert sheet.page[0] > sheet.page[1]
    assert plan_sheet("a4", bleed=False)[0].per_page == 9


def _runs(page: Any) -> list[tuple[str, float, float, float, str]]:
    """(text, x, y, size, font) of every text run, in page space."""
    out: list[tuple[str, float, float, float, str]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: Any, size: float) -> None:
        if not text.strip() or font is None:
            return
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        base = str(font.get("/BaseFont", ""))
        scale = (tm[0] ** 2 + tm[1] ** 2) ** 0.5 * (cm[0] ** 2 + cm[1] ** 2) ** 0.5
        out.append((text.strip(), x, y, size * scale, FONT_BOLD if "Bold" in base else FONT))

    page.extract_text(visitor_text=visit)
    return out


def test_long_name_and_text_stay_inside_their_boxes(tmp_path: Path, monkeypatch) -> None:
    long_name = "Auxiliary Fire Service Extra Heavy Trailer Pump and Towing Vehicle Mk II"
    special = ["a very long special rule that keeps going " * 6, "and another " * 10]
    card = Card("x", {"name": long_name, "role": "pump", "special": special}, "LONGID1234")
    monkeypatch.setattr(cards_mod, "cards_for", lambda scenario, catalogue=False: [card])
    r = PdfReader(write_cards(None, tmp_path / "c.pdf"), strict=True)
    sheet, _ = plan_sheet("a4", bleed=False)
    x0, y0 = sheet.slot(0)
    lay = layout("card_front")
    runs = _runs(r.pages[0])
    words = set(long_name.split())
    name_runs = [ru for ru in runs if set(ru[0].replace("…", "").split()) <= words]
    assert name_runs, "the name was not printed"
    box = lay.box("name")
    for text, x, y, size, font in name_runs:
        w = stringWidth(text, font, size)
        assert x >= x0 + box.x - 0.5 and x + w <= x0 + box.right + 0.5, text
        assert y0 + box.y - 0.5 <= y <= y0 + box.top + 0.5, text
    # nothing printed on the card leaves the safe zone
    safe = lay.length("safe")
    on_card = [
        ru for ru in runs if x0 <= ru[1] <= x0 + lay.width and y0 <= ru[2] <= y0 + lay.height
    ]
    assert len(on_card) > 10
    for text, x, _y, size, font in on_card:
        w = stringWidth(text, font, size)
        assert x >= x0 + safe - 0.5 and x + w <= x0 + lay.width - safe + 0.5, text


@given(
    st.text(alphabet=st.characters(codec="latin-1"), max_size=300),
    st.floats(20, 200),
    st.floats(8, 100),
)
def test_fit_lines_never_overflows(text: str, w: float, h: float) -> None:
    lines, size = fit_lines(text, FONT, 11, w, h, min_size=4, leading=1.2, max_lines=3)
    assert 4 <= size <= 11
    assert len(lines) <= 3
    assert len(lines) * size * 1.2 <= h + 1e-6 or len(lines) == 1
    for ln in lines:
        assert stringWidth(ln, FONT, size) <= w + 1e-6
