"""Cards carry the numbers players use, tick boxes to record water, hose and fatigue, and
no text smaller than 6 pt."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from export_scenarios import small_scenario
from pdfread import rects, text_runs
from pypdf import PdfReader

from fireground.export.games.blitz.cards import cards_for, plan_sheet, tick_rows, write_cards
from fireground.export.layout import MM


def _text(path: Path) -> str:
    return " ".join(" ".join(p.extract_text().split()) for p in PdfReader(path).pages)


def test_the_catalogue_says_the_numbers_players_use(tmp_path: Path) -> None:
    text = _text(write_cards(None, tmp_path / "c.pdf"))
    for words in (
        "on foot, 6 points a turn",
        "1d6 4+, then 1 turn refilling",  # fire party against a fire 1
        "fire 1 here or next door",
        "1d6 × 5 turns",  # Heavy Rescue
        "rest beside it is ÷2",  # canteen
        "step 6 of the next turn",  # messenger
        "10 or 20 water points",  # the dam
        "carries 8 casualties",  # the mortuary lorry
    ):
        assert words in text, words
    assert "turn(s)" not in text
    assert "1 turn to deploy" in text and "2 turns to deploy" in text


def test_house_rules_reach_the_cards(tmp_path: Path) -> None:
    sc = dataclasses.replace(
        small_scenario(), house_rules={"movement.foot_points": 5, "fire_party.on": 5}
    )
    text = _text(write_cards(sc, tmp_path / "c.pdf"))
    assert "5★ points a turn" in text and "1d6 5★+" in text


def test_nothing_below_6_pt(tmp_path: Path) -> None:
    for bleed in (False, True):
        r = PdfReader(write_cards(None, tmp_path / f"c{bleed}.pdf", bleed=bleed))
        sizes = [run[3] for page in r.pages for run in text_runs(page)]
        assert sizes and min(sizes) >= 6 - 0.01


def test_tick_boxes_for_water_hose_and_fatigue(tmp_path: Path) -> None:
    r = PdfReader(write_cards(None, tmp_path / "c.pdf"))
    sheet, _ = plan_sheet("a4", bleed=False)
    cards = cards_for(None)[: sheet.per_page]
    want = 0
    for card in cards:
        for label, n in tick_rows(card.data):
            want += 2 * n if label == "Fatigue" else n
    side = 2.6 * MM
    boxes = [
        rc for rc in rects(r, r.pages[0]) if abs(rc[2] - side) < 0.01 and abs(rc[3] - side) < 0.01
    ]
    assert len(boxes) == want
    # the Escape Carrying Unit: 10 water points, 10 lengths, 2 fire teams
    escape = next(c for c in cards if c.type == "escape_carrying_unit")
    assert tick_rows(escape.data) == [("Water", 10), ("Hose", 10), ("Fatigue", 2)]
