"""Monte Carlo analysis: statistics helpers, the fast core against the rules and the
reference engine, determinism, the JSON report and the verdict."""

from __future__ import annotations

import dataclasses
import itertools
import json

import numpy as np
import pytest
from analysis_worlds import close, fire_at, mixed_scenario, row

from fireground.engine.board.model import (
    Feature,
    FeatureType,
    LocationValue,
    Material,
    Scenario,
    Start,
    Wind,
)
from fireground.engine.games.blitz.fastsim import batch, model, runner
from fireground.engine.play import analysis, montecarlo, report


def first_turn(scenario: Scenario, games: int = 200_000, seed: int = 1) -> batch.Batch:
    b = batch.Batch(model.build_model(scenario), games, np.random.default_rng(seed))
    b.play_turn()
    return b


# -- statistics ---------------------------------------------------------------------------
def test_wilson_known_values() -> None:
    lo, hi = report.wilson(50, 100)
    assert lo == pytest.approx(0.40383, abs=1e-5) and hi == pytest.approx(0.59617, abs=1e-5)
    lo, hi = report.wilson(0, 10)
    assert lo == pytest.approx(0.0) and hi == pytest.approx(0.27753, abs=1e-5)
    lo, hi = report.wilson(10, 10)
    assert lo == pytest.approx(0.72247, abs=1e-5) and hi == pytest.approx(1.0)
    lo, hi = report.wilson(1, 20)
    assert lo == pytest.approx(0.00888, abs=1e-5) and hi == pytest.approx(0.23613, abs=1e-5)


def test_two_proportion_z_and_holm() -> None:
    z, p = report.two_proportion_z(60, 100, 40, 100)
    assert z == pytest.approx(2.8284, abs=1e-4) and p == pytest.approx(0.004678, abs=1e-5)
    assert report.two_proportion_z(0, 10, 0, 10) == (0.0, 1.0)
    assert report.holm([0.01, 0.04, 0.03]) == [True, False, False]
    assert report.holm([0.001, 0.02, 0.04]) == [True, True, True]


# -- the fast core plays the rules' exact chances ----------------------------------------------
@pytest.mark.parametrize("fire", [1, 3, 5])
def test_spread_chance_is_fire_in_six(fire: int) -> None:
    s = row(2, start=Start(fires=fire_at(("B0", 0, fire))))
    b = first_turn(s)
    k = b.m.locations.index(("B1", 0))
    assert close(float((b.fire[:, k] > 0).mean()), fire / 6, b.g)


def test_damp_and_strong_wind_modify_the_spread() -> None:
    damp = (LocationValue("B1", 0, 1),)
    s = row(2, start=Start(fires=fire_at(("B0", 0, 3)), damp=damp))
    b = first_turn(s)
    k = b.m.locations.index(("B1", 0))
    assert close(float((b.fire[:, k] > 0).mean()), 2 / 6, b.g)
    # a failed roll of exactly 3 only the damp stopped: one damp lost (1/6 of all games)
    assert close(float((b.damp[:, k] == 0).mean()), 2 / 6 + 1 / 6, b.g)
    # the wind blows from the west: B1 lies downwind of B0 and the fire spreads more easily
    s = row(2, start=Start(fires=fire_at(("B0", 0, 3))), wind=Wind("W", strong=True))
    b = first_turn(s)
    assert close(float((b.fire[:, k] > 0).mean()), 4 / 6, b.g)


def test_two_sources_and_growth() -> None:
    s = row(3, start=Start(fires=fire_at(("B0", 0, 2), ("B2", 0, 1))))
    b = first_turn(s)
    k = b.m.locations.index(("B1", 0))
    caught = b.fire[:, k] > 0
    assert close(float(caught.mean()), 1 - (4 / 6) * (5 / 6), b.g)
    # a new fire grows on 5+ (a neighbour burns): 1/3
    assert close(float((b.fire[caught, k] == 2).mean()), 1 / 3, int(caught.sum()))
    # B0 grows with a burning neighbour only if B1 caught first
    k0 = b.m.locations.index(("B0", 0))
    p_grow = (1 - (4 / 6) * (5 / 6)) * (2 / 6) + (4 / 6) * (5 / 6) * (1 / 6)
    assert close(float((b.fire[:, k0] == 3).mean()), p_grow, b.g)


def test_fire_five_damages_and_collapses() -> None:
    s = row(2, start=Start(fires=fire_at(("B0", 0, 5)), damage=(LocationValue("B0", 0, 4),)))
    b = first_turn(s)
    k0, k1 = b.m.locations.index(("B0", 0)), b.m.locations.index(("B1", 0))
    destroyed = b.damage[:, k0] == 5
    assert close(float(destroyed.mean()), 1 / 6, b.g)
    # the collapse drops rubble next door: +1 damage on B1
    assert (b.damage[destroyed, k1] == 2).all() and (b.damage[~destroyed, k1] == 1).all()


def test_oil_store_flares_and_spreads() -> None:
    oil = Feature(FeatureType.STORE, "B1", level=0, material=Material.OIL)
    s = row(3, start=Start(fires=fire_at(("B0", 0, 2))), features=(oil,))
    b = first_turn(s, games=50_000)
    k1, k2 = b.m.locations.index(("B1", 0)), b.m.locations.index(("B2", 0))
    caught = b.fire[:, k1] > 0
    assert close(float(caught.mean()), 3 / 6, b.g)  # R-4: -1 on the die
    assert (b.fire[caught, k1] == 5).all() and (b.fire[caught, k2] > 0).all()
    assert (b.fire[~caught, k2] == 0).all()


# -- the fast core agrees with the reference engine ---------------------------------------------
def reference_burns(scenario: Scenario, games: int, turns: int) -> tuple[list, np.ndarray]:
    from fireground.engine.play.simulate import new_game

    m = model.build_model(scenario)
    index = {loc: k for k, loc in enumerate(m.locations)}
    burned = np.zeros((games, m.n), dtype=bool)
    for loc in scenario.start.fires:
        burned[:, index[loc.location]] = True
    for g in range(games):
        game = new_game(scenario, 10_000 + g)
        for _ in range(turns):
            game.step()
            for loc in game.state.fire:
                burned[g, index[loc]] = True
    return m.locations, burned


@pytest.mark.slow
@pytest.mark.parametrize("which", ["stepney", "mixed"])
def test_fast_core_agrees_with_reference_engine(which: str, repo) -> None:  # type: ignore[no-untyped-def]
    """Per-location chance of burning, reference engine (no units) against the fast core.

    Each location gets a pooled two-proportion z-test; with Bonferroni over the m locations
    at a family-wise false-alarm rate of 0.1%, every |z| must stay below
    z(1 - 0.0005/m) (about 4.0 for 30 locations). A rule played differently by either side
    (e.g. a modifier of the wrong sign, a missing jump) shifts several chances by 5-20
    points, far beyond that at these sample sizes.
    """
    from statistics import NormalDist

    if which == "stepney":
        from fireground.engine.scenario.io import load_scenario

        scenario = dataclasses.replace(
            load_scenario(repo / "examples" / "stepney.fg.yaml"), forces=()
        )
        ref_games, turns = 300, 8
    else:
        scenario = mixed_scenario()
        ref_games, turns = 400, 12
    locs, ref = reference_burns(scenario, ref_games, turns)
    fast = runner.run_games(scenario, 20_000, turns, seed=7)
    crit = NormalDist().inv_cdf(1 - 0.0005 / len(locs))
    worst = 0.0
    for k, loc in enumerate(locs):
        z, _ = report.two_proportion_z(
            int(ref[:, k].sum()), ref_games, int(fast.burned[:, k].sum()), fast.games
        )
        worst = max(worst, abs(z))
        assert abs(z) < crit, (loc, ref[:, k].mean(), fast.burned[:, k].mean(), z)
    # the test has teeth: the chances are neither all 0 nor all 1
    p = fast.burned.mean(axis=0)
    assert ((p > 0.05) & (p < 0.95)).sum() >= 3


# -- determinism and the report -------------------------------------------------------------
def test_same_seed_same_games_on_one_or_two_workers() -> None:
    s = mixed_scenario()
    one = runner.run_games(s, 600, 10, seed=3, workers=1)
    two = runner.run_games(s, 600, 10, seed=3, workers=2)
    assert np.array_equal(one.burned, two.burned)
    assert np.array_equal(one.first_alight, two.first_alight)
    assert np.array_equal(one.destroyed, two.destroyed)
    other = runner.run_games(s, 600, 10, seed=4, workers=1)
    assert not np.array_equal(one.first_alight, other.first_alight)


def test_report_json_shape_and_verdict(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from fireground.cli import main
    from fireground.engine.scenario.io import save_scenario

    s = mixed_scenario()
    path = tmp_path / "mixed.fg.yaml"
    save_scenario(s, path)
    assert (
        main(
            [
                "analyze",
                str(path),
                "--games",
                "300",
                "--no-response",
                "--json",
                "--turns",
                "15",
                "--seed",
                "5",
            ]
        )
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 300 and data["turns"] == 15 and data["mode"] == "no-response"
    assert {"area", "level", "name", "burn", "destroyed", "first_alight"} <= set(
        data["locations"][0]
    )
    assert len(data["locations"]) == len(model.build_model(s).locations)
    assert set(data["scorecard"]) == set(montecarlo.SCORE_FIELDS)
    assert sum(data["scorecard"]["destroyed"]["histogram"].values()) == 300
    for o in data["objectives"]:
        assert 0 <= o["low"] <= o["chance"] <= o["high"] <= 1
    assert len(data["all_clear_by_turn"]) == 16
    ac = data["all_clear_by_turn"]
    assert all(a <= b for a, b in itertools.pairwise(ac)) and ac[-1] > 0.3
    # the verdict names the area most often destroyed
    worst = max(data["locations"], key=lambda r: (r["destroyed"], r["burn"]))
    assert worst["area"] in data["verdict"]


def test_against_finds_real_differences_only() -> None:
    s = mixed_scenario()
    hotter = dataclasses.replace(
        s,
        start=dataclasses.replace(s.start, fires=fire_at(("A2", 1, 2), ("W1", 0, 1), ("C1", 0, 3))),
    )
    ra, oa = analysis.analyze(s, 800, 10, seed=1, no_response=True)
    rb, ob = analysis.analyze(hotter, 800, 10, seed=2, no_response=True)
    diffs = report.compare(ra, oa, rb, ob)
    sig = {d.label for d in diffs if d.significant}
    assert "C1 level 0 burns" in sig
    rc, oc = analysis.analyze(s, 800, 10, seed=9, no_response=True)
    assert not any(d.significant for d in report.compare(ra, oa, rc, oc))


# The numba kernel against the numpy path: tests/engine/test_fastsim_speedpath.py (they draw
# from different streams since the kernel plays whole games, so the check is statistical).


@pytest.mark.parametrize(
    ("games", "turns", "seed", "words"),
    [(0, 5, 1, "games must be at least 1"), (3, -1, 1, "turns must be 0 or more"),
     (3, 5, -2, "seed must be 0 or more")],
)  # fmt: skip
def test_analyze_refuses_what_it_cannot_play(games: int, turns: int, seed: int, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        analysis.analyze(mixed_scenario(), games, turns, seed=seed, no_response=True)


@pytest.mark.parametrize("no_response", [True, False])
def test_analyze_refuses_a_map_with_nowhere_to_burn(no_response: bool) -> None:
    with pytest.raises(ValueError, match="no locations to play on"):
        analysis.analyze(
            Scenario(name="empty", bombing=False), 2, 2, seed=1, no_response=no_response
        )


def test_judged_text_keeps_a_rare_loss_visible() -> None:
    from fireground.engine.play.report import ObjectiveStat, judged_text

    def stat(mean: float | None, measure: str = "destroyed") -> ObjectiveStat:
        return ObjectiveStat("x", "protect", 1, 2, 0.5, 0.1, 0.9, mean, measure)

    assert judged_text(stat(0.0)) == "destroyed 0.0"
    assert judged_text(stat(0.02)) == "destroyed 0.02"
    assert judged_text(stat(296.24)) == "destroyed 296.2"
    assert judged_text(stat(2.0, "rescued")) == "rescued 2.0"
    assert judged_text(stat(None)) == ""
