"""``fireground analyze`` in full-game mode and its PDF report."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fireground.engine import analysis
from fireground.engine.io import load_scenario

pypdf = pytest.importorskip("pypdf")


def test_autopilot_games_are_the_same_on_one_or_two_workers(repo: Path) -> None:
    s = load_scenario(repo / "examples" / "stepney.fg.yaml")
    one = analysis.autopilot_outcomes(s, 4, 4, seed=11, workers=1, chunk=2)
    two = analysis.autopilot_outcomes(s, 4, 4, seed=11, workers=2, chunk=2)
    assert np.array_equal(one.first_alight, two.first_alight)
    assert np.array_equal(one.destroyed, two.destroyed)
    for f in analysis.SCORE_FIELDS:
        assert np.array_equal(one.score[f], two.score[f])
    assert one.objectives.shape == (4, len(s.objectives))
    # a game is the reference engine's game for its seed
    from fireground.engine.simulate import new_game

    seed0 = analysis.game_seeds(11, 4)[0]
    game = new_game(s, seed0)
    game.run(4)
    assert int(one.score["burning"][0]) == len(game.state.fire)


def test_pdf_report_reads_back(repo: Path, tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from fireground.cli import main

    out = tmp_path / "report.pdf"
    path = repo / "examples" / "stepney.fg.yaml"
    assert main(["analyze", str(path), "--games", "200", "--no-response", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "report written" in text
    reader = pypdf.PdfReader(str(out))
    levels = {lv for _, lv in load_scenario(path).locations()}
    # front page, one heat-map page per level, the histograms
    assert len(reader.pages) >= 2 + len(levels)
    every = "\n".join(p.extract_text() for p in reader.pages)
    assert "Verdict" in every and "Chance it burns: ground" in every
    assert "Chance it is destroyed: basement" in every
    report, _ = analysis.analyze(load_scenario(path), 200, no_response=True)
    worst = max(report.locations, key=lambda s: (s.destroyed, s.burn))
    assert worst.area in every
