"""The counter mix measured by playing the scenario, the new markers, and legibility."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from pdfread import rects
from pypdf import PdfReader

from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario
from fireground.export.games.blitz.cards import unit_catalogue
from fireground.export.games.blitz.counters import (
    contrast,
    counter_counts,
    counter_fill,
    text_colour,
    write_counters,
)
from fireground.export.games.blitz.countmix import QUANTILE, game_seeds, measure
from fireground.export.layout import MM, layout

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = 8


@pytest.fixture(scope="module")
def stepney():
    return load_scenario(EXAMPLES / "stepney.fg.yaml")


def test_fire_counters_cover_the_90th_percentile_of_the_peak(stepney, tmp_path: Path) -> None:
    # replay the same games here, counting fires straight from the game state
    peaks: dict[int, list[int]] = {v: [] for v in range(1, 6)}
    for seed in game_seeds(stepney, 3, GAMES):
        game = new_game(stepney, seed, log_events=False)
        top: Counter[int] = Counter()
        for _ in range(stepney.turns):
            game.step()
            now = Counter(game.state.fire.values())
            for v in range(1, 6):
                top[v] = max(top[v], now[v])
        for v in range(1, 6):
            peaks[v].append(top[v])
    lay = layout("counters_page", 595, 842)
    counts = counter_counts(stepney, lay, measure(stepney, GAMES, seed=3))
    for v in range(1, 6):
        # 8 games: the 90th percentile ("higher") is the largest but one... or the largest
        want = int(np.percentile(peaks[v], QUANTILE, method="higher"))
        assert counts[("fire", v)] >= want
        assert want >= sorted(peaks[v])[-2]
    # and the sheet prints that many
    path = write_counters(stepney, tmp_path / "c.pdf", games=GAMES, seed=3)
    text = " ".join(p.extract_text() for p in PdfReader(path).pages)
    for v in range(1, 6):
        assert text.count(f"FIRE {v}") == counts[("fire", v)]


def test_hose_strips_for_every_length_and_the_new_markers(stepney, tmp_path: Path) -> None:
    path = write_counters(stepney, tmp_path / "c.pdf", games=2)
    r = PdfReader(path)
    text = " ".join(p.extract_text() for p in r.pages)
    cat = unit_catalogue(stepney)
    lengths = sum(int(cat[u.type].get("hose_lengths", 0) or 0) for u in stepney.forces)
    assert text.count("HOSE") == 2 * lengths  # two half-length strips a length
    for word in ("TIRED", "EXHAUSTED", "LADDER", "HE", "INC", "bomb drop"):
        assert word in text
    for u in stepney.forces:
        assert u.id in text  # a stand label for every unit
    # the bomb-drop squares are the source's 2 cm
    side = 20 * MM
    bombs = [
        rc
        for p in r.pages
        for rc in rects(r, p)
        if abs(rc[2] - side) < 0.01 and abs(rc[3] - side) < 0.01
    ]
    assert len(bombs) == 9  # the largest stick: 3 HE and 6 incendiaries


def test_every_counter_reads_at_4_5_to_1() -> None:
    lay = layout("counters_page", 595, 842)
    for kind, value, *_ in lay.setting("counters"):
        fill = counter_fill(lay, str(kind), value)
        assert contrast(fill, text_colour(fill)) >= 4.5, (kind, value)
    # the fire-5 counter was 2.7:1 with black digits
    f5 = counter_fill(lay, "fire", 5)
    assert contrast(f5, "#000000") < 3.0
    assert text_colour(f5) == "#ffffff"
    # the WCAG ratio itself: black on white is 21:1
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)


def test_counter_games_option(stepney, tmp_path: Path) -> None:
    from fireground.engine.core.errors import UsageError
    from fireground.export.pack import export_pack

    (path,) = export_pack(stepney, tmp_path, only="counters", counter_games=0)
    text = " ".join(p.extract_text() for p in PdfReader(path).pages)
    assert "an estimate from the map" in text
    (path,) = export_pack(stepney, tmp_path / "m", only="counters", counter_games=3)
    text = " ".join(p.extract_text() for p in PdfReader(path).pages)
    assert "of 3 autopilot games" in text
    with pytest.raises(UsageError, match="--counter-games"):
        export_pack(stepney, tmp_path, only="counters", counter_games=-1)


@pytest.mark.parametrize("kind", ["fire", "damp", "damage"])
def test_the_value_never_covers_the_icon(kind: str) -> None:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from fireground.export.games.blitz.counters import _draw_counter
    from fireground.export.vector import Shape, Text, VectorCanvas, flatten

    lay = layout("counters_page", 595, 842)
    s = 16 * MM
    for value in range(1, 6):
        c = VectorCanvas()
        _draw_counter(c, lay, kind, value, 0.0, 0.0, s)  # type: ignore[arg-type]
        shapes = [i for i in c.items if isinstance(i, Shape)][1:]  # past the background
        pts = [p for sh in shapes for line in flatten(sh.path) for p in line]
        assert pts, "the icon was drawn"
        ix0, iy0 = min(x for x, _ in pts), min(y for _, y in pts)
        ix1, iy1 = max(x for x, _ in pts), max(y for _, y in pts)
        (digit,) = [t for t in c.items if isinstance(t, Text) and t.text == str(value)]
        dx1 = digit.x + stringWidth(digit.text, digit.font, digit.size)
        dy1 = digit.y + 0.73 * digit.size  # the height of a digit
        apart = dx1 <= ix0 or digit.x >= ix1 or dy1 <= iy0 or digit.y >= iy1
        assert apart, (kind, value, (digit.x, digit.y, dx1, dy1), (ix0, iy0, ix1, iy1))
