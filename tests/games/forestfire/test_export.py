"""Forest Fire's printed aids, read back from the PDFs (page sizes, text, true scale)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from fireground.cli import main

REPO = Path(__file__).resolve().parents[3]
EXAMPLE = REPO / "examples" / "forestfire.fg.yaml"
A4 = (595.3, 841.9)
CM = 72 / 2.54


@pytest.fixture(scope="module")
def pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ff")
    assert main(["export", str(EXAMPLE), "--out", str(out)]) == 0
    return out


def text(pdf: Path) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(pdf).pages)


def test_board_strip_prints_1_to_1_on_two_a4_landscape_sheets(pack: Path) -> None:
    r = PdfReader(pack / "plans-forestfire.pdf")
    assert len(r.pages) == 2
    for p in r.pages:
        w, h = float(p.mediabox.width), float(p.mediabox.height)
        assert (round(w, 1), round(h, 1)) == (A4[1], A4[0])
    t = text(pack / "plans-forestfire.pdf")
    assert "sheet A of 2" in t and "sheet B of 2" in t and "TOWN" in t and "11" in t
    # two sheets less the glue overlap hold the 55 cm strip
    from fireground.engine.games.forestfire.scenario import load_setup
    from fireground.export.games.forestfire.board import _grid

    g = _grid(load_setup(str(EXAMPLE)), "a4")
    assert g.map_w == pytest.approx(55 * CM)
    assert 2 * g.window.width - g.overlap >= g.map_w


def test_fit_puts_the_board_on_one_page(tmp_path: Path) -> None:
    assert main(["export", str(EXAMPLE), "--out", str(tmp_path), "--only", "plans", "--fit"]) == 0
    r = PdfReader(tmp_path / "plans-forestfire-fit.pdf")
    assert len(r.pages) == 1 and "not to scale" in r.pages[0].extract_text().replace("\n", " ")


def test_counters_cards_briefing_turns(pack: Path) -> None:
    t = text(pack / "counters-forestfire.pdf")
    assert (
        t.count("FIRE") >= 60 and t.count("BURNT") == 11 and "ENGINE E1" in t and "ENGINE E2" in t
    )
    assert all(str(v) in t for v in range(11))
    t = text(pack / "cards-forestfire.pdf")
    assert "Turn sequence" in t and "Spray table" in t and "3+" in t and "5+" in t
    assert "fire total victory" in text(pack / "turns-forestfire.pdf").lower()
    assert "briefing" in text(pack / "briefing-forestfire.pdf").lower()
