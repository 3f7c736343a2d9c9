"""``fireground analyze`` in full-game mode and its PDF report."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from fireground.engine.play import analysis, montecarlo
from fireground.engine.play import report as play_report
from fireground.engine.scenario.io import load_scenario

pypdf = pytest.importorskip("pypdf")


def test_autopilot_games_are_the_same_on_one_or_two_workers(repo: Path) -> None:
    s = load_scenario(repo / "examples" / "stepney.fg.yaml")
    one = montecarlo.autopilot_outcomes(s, 4, 4, seed=11, workers=1, chunk=2)
    two = montecarlo.autopilot_outcomes(s, 4, 4, seed=11, workers=2, chunk=2)
    assert np.array_equal(one.first_alight, two.first_alight)
    assert np.array_equal(one.destroyed, two.destroyed)
    for f in montecarlo.SCORE_FIELDS:
        assert np.array_equal(one.score[f], two.score[f])
    assert one.objectives.shape == (4, len(s.objectives))
    # a game is the reference engine's game for its seed
    from fireground.engine.play.simulate import new_game

    seed0 = montecarlo.game_seeds(11, 4)[0]
    game = new_game(s, seed0)
    game.run(4)
    assert int(one.score["burning"][0]) == len(game.state.fire)


def test_chunks_cover_every_game_once_and_shrink_at_the_end() -> None:
    for games in (0, 1, 7, 40, 41, 100, 1000):
        for chunk in (1, 3, 20):
            for workers in (1, 2, 3):
                bounds = montecarlo.chunk_bounds(games, chunk, workers)
                games_in = [g for a, b in bounds for g in range(a, b)]
                assert games_in == list(range(games))  # in order, none twice, none left out
                sizes = [b - a for a, b in bounds]
                assert all(0 < n <= chunk for n in sizes)
                # the last chunk's worth of games per worker: short chunks on several workers
                short = max(1, chunk // 4) if workers > 1 else chunk
                tail = [b - a for a, b in bounds if b > games - chunk * workers]
                assert all(n <= short for n in tail[1:])
    assert [b - a for a, b in montecarlo.chunk_bounds(1000, 20, 2)][-9:] == [20] + [5] * 8


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


@pytest.mark.parametrize("no_response", [False, True], ids=["autopilot", "no-response"])
def test_objectives_report_what_they_are_judged_on(repo: Path, no_response: bool) -> None:
    """Each objective's per-game figure (locations destroyed, civilians rescued) is the
    one its verdict follows from, and the report gives its mean; in full games it is the
    scorecard's own figure for the game's seed."""
    s = load_scenario(repo / "examples" / "paternoster.fg.yaml")
    run = montecarlo.no_response_outcomes if no_response else montecarlo.autopilot_outcomes
    out = run(s, 6, 12, seed=5)
    assert out.figures is not None and out.figures.shape == out.objectives.shape
    for k, o in enumerate(s.objectives):
        fig, met = out.figures[:, k], out.objectives[:, k]
        if o.type == "protect":
            assert np.array_equal(met, fig == 0)
        elif o.type == "contain":
            assert np.array_equal(met, fig <= (o.max_destroyed or 0))
        else:
            assert np.array_equal(met, fig >= (o.at_least or 0))
    contain = next(k for k, o in enumerate(s.objectives) if o.type == "contain")
    assert np.array_equal(out.figures[:, contain], out.destroyed.sum(axis=1))
    if not no_response:
        from fireground.engine.play.simulate import new_game

        game = new_game(s, montecarlo.game_seeds(5, 6)[2])
        game.run(12)
        card = game.score()["objectives"]
        assert [int(x) for x in out.figures[2]] == [
            int(c.get("rescued", c.get("destroyed"))) for c in card
        ]
    report = play_report.summarise(s, out, "test", 5, None)
    for k, o in enumerate(report.objectives):
        assert o.mean == pytest.approx(float(out.figures[:, k].mean()))
        assert o.measure == ("rescued" if s.objectives[k].type == "rescue" else "destroyed")
    assert {"mean", "measure"} <= set(report.to_json()["objectives"][0])
