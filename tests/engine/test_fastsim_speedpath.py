"""The numba whole-game kernel of the fast core (``engine/_fastkernels.py``): the rules'
exact chances turn by turn, games that do not depend on threads or chunks, and statistical
agreement with the numpy path (the two draw from different streams, so they no longer play
identical games; see ``test_kernel_and_numpy_paths_agree``)."""

from __future__ import annotations

import dataclasses
from statistics import NormalDist

import numpy as np
import pytest
from analysis_worlds import close, fire_at, mixed_scenario, row

from fireground.engine.board.model import (
    Feature,
    FeatureType,
    LocationRef,
    LocationValue,
    Material,
    Objective,
    Scenario,
    Start,
    Wind,
)
from fireground.engine.games.blitz import fastsim
from fireground.engine.games.blitz.fastsim import batch, model, runner
from fireground.engine.play import report

needs_kernel = pytest.mark.skipif(
    runner.kernels() is None, reason="no numba kernel (numba missing or FIREGROUND_NO_NUMBA)"
)

GAMES = 200_000


def one_turn(
    scenario: Scenario, games: int = GAMES, turns: int = 1
) -> tuple[model.FastModel, model.FastResult, dict[str, np.ndarray]]:
    m = model.build_model(scenario)
    result, state = runner.kernel_state(m, games, turns, seed=1)
    return m, result, state


# -- the kernel plays the rules' exact chances ---------------------------------------------------
@needs_kernel
@pytest.mark.parametrize("fire", [1, 3, 5])
def test_spread_chance_is_fire_in_six(fire: int) -> None:
    m, r, _ = one_turn(row(2, start=Start(fires=fire_at(("B0", 0, fire)))))
    k = m.locations.index(("B1", 0))
    assert close(float(r.burned[:, k].mean()), fire / 6, r.games)
    assert (r.first_alight[r.burned[:, k], k] == 1).all()


@needs_kernel
def test_damp_and_strong_wind_modify_the_spread() -> None:
    damp = (LocationValue("B1", 0, 1),)
    m, r, st = one_turn(row(2, start=Start(fires=fire_at(("B0", 0, 3)), damp=damp)))
    k = m.locations.index(("B1", 0))
    assert close(float(r.burned[:, k].mean()), 2 / 6, r.games)
    # a failed roll of exactly 3 only the damp stopped: one damp lost (1/6 of all games)
    assert close(float((st["damp"][:, k] == 0).mean()), 2 / 6 + 1 / 6, r.games)
    # the wind blows from the west: B1 lies downwind of B0 and the fire spreads more easily
    s = row(2, start=Start(fires=fire_at(("B0", 0, 3))), wind=Wind("W", strong=True))
    m, r, _ = one_turn(s)
    assert close(float(r.burned[:, k].mean()), 4 / 6, r.games)


@needs_kernel
def test_two_sources_and_growth() -> None:
    m, r, _ = one_turn(row(3, start=Start(fires=fire_at(("B0", 0, 2), ("B2", 0, 1)))))
    k = m.locations.index(("B1", 0))
    caught = r.fire[:, k] > 0
    assert close(float(caught.mean()), 1 - (4 / 6) * (5 / 6), r.games)
    # a new fire grows on 5+ (a neighbour burns): 1/3
    assert close(float((r.fire[caught, k] == 2).mean()), 1 / 3, int(caught.sum()))
    # B0 grows with a burning neighbour only if B1 caught first
    k0 = m.locations.index(("B0", 0))
    p_grow = (1 - (4 / 6) * (5 / 6)) * (2 / 6) + (4 / 6) * (5 / 6) * (1 / 6)
    assert close(float((r.fire[:, k0] == 3).mean()), p_grow, r.games)


@needs_kernel
def test_fire_five_damages_and_collapses() -> None:
    s = row(2, start=Start(fires=fire_at(("B0", 0, 5)), damage=(LocationValue("B0", 0, 4),)))
    m, r, st = one_turn(s)
    k0, k1 = m.locations.index(("B0", 0)), m.locations.index(("B1", 0))
    destroyed = r.destroyed[:, k0]
    assert close(float(destroyed.mean()), 1 / 6, r.games)
    # the collapse drops rubble next door: +1 damage on B1
    assert (st["damage"][destroyed, k1] == 2).all() and (st["damage"][~destroyed, k1] == 1).all()


@needs_kernel
def test_oil_store_flares_and_spreads() -> None:
    oil = Feature(FeatureType.STORE, "B1", level=0, material=Material.OIL)
    m, r, _ = one_turn(row(3, start=Start(fires=fire_at(("B0", 0, 2))), features=(oil,)))
    k1, k2 = m.locations.index(("B1", 0)), m.locations.index(("B2", 0))
    caught = r.fire[:, k1] > 0
    assert close(float(caught.mean()), 3 / 6, r.games)  # R-4: -1 on the die
    assert (r.fire[caught, k1] == 5).all() and (r.fire[caught, k2] > 0).all()
    assert (r.fire[~caught, k2] == 0).all()


@needs_kernel
def test_petrol_store_explodes_when_it_catches() -> None:
    petrol = Feature(FeatureType.STORE, "B1", level=0, material=Material.PETROL)
    people = Feature(FeatureType.OCCUPANTS, "B1", level=0, count=4)
    s = row(3, start=Start(fires=fire_at(("B0", 0, 2))), features=(petrol, people))
    m, r, _ = one_turn(s)
    k1 = m.locations.index(("B1", 0))
    caught = r.fire[:, k1] > 0
    assert close(float(caught.mean()), 3 / 6, r.games)
    # the blast brings its own building down, kills who is inside, and it burns on at 5
    assert np.array_equal(r.destroyed[:, k1], caught)
    assert (r.fire[caught, k1] == 5).all()
    assert (r.dead[caught] == 4).all() and (r.dead[~caught] == 0).all()
    # each neighbour rolls its new damage: destroyed on 5+ (2/6)
    k2 = m.locations.index(("B2", 0))
    assert close(float(r.destroyed[caught, k2].mean()), 2 / 6, int(caught.sum()))


@needs_kernel
def test_embers_flare_up_on_twelve() -> None:
    m, r, _ = one_turn(row(2, start=Start(embers=(LocationRef("B0", 0),))))
    k0 = m.locations.index(("B0", 0))
    assert close(float(r.burned[:, k0].mean()), 1 / 36, r.games)


@needs_kernel
def test_heavy_damage_at_the_start_buries_the_occupants() -> None:
    people = Feature(FeatureType.OCCUPANTS, "B0", level=0, count=3)
    s = row(2, start=Start(damage=(LocationValue("B0", 0, 4),)), features=(people,))
    _, r, _ = one_turn(s, games=100)
    assert (r.buried == 3).all() and (r.dead == 0).all()


@needs_kernel
def test_all_clear_and_sticks_of_bombs() -> None:
    s = dataclasses.replace(row(4), bombing=True)
    m, r, _ = one_turn(s, turns=1)
    assert m.bomb_lost == 0  # the areas cover the table: no bomb misses
    # 2d6 of 3 or less: 3/36
    assert close(float((r.all_clear_turn == 1).mean()), 3 / 36, r.games)
    # 2d6 of 12 (1/36) drops a stick. Stick dice 1, 3, 5 and 6 hold incendiaries, which
    # light the house they hit; 2, 4 and 6 hold HE, which brings its house down
    lit = r.burned.any(axis=1)
    assert close(float(lit.mean()), (1 / 36) * (4 / 6), r.games)
    down = r.destroyed.any(axis=1)
    assert close(float(down.mean()), (1 / 36) * (3 / 6), r.games)


# -- the same games whatever the threads, chunks or processes ---------------------------------
@needs_kernel
def test_a_game_depends_on_its_number_only() -> None:
    m = model.build_model(mixed_scenario())
    key = runner.run_key(5)
    whole = runner.run_kernel(m, 40, 12, key, threads=1)
    part = runner.run_kernel(m, 20, 12, key, first_game=10, threads=2)
    for f in ("burned", "destroyed", "first_alight", "fire", "all_clear_turn", "dead", "buried"):
        assert np.array_equal(getattr(whole, f)[10:30], getattr(part, f)), f
    other = runner.run_kernel(m, 40, 12, runner.run_key(6), threads=1)
    assert not np.array_equal(whole.first_alight, other.first_alight)


@needs_kernel
def test_chunks_and_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    s = mixed_scenario()
    one = runner.run_games(s, 50, 8, seed=3, workers=1)
    monkeypatch.setattr(fastsim.runner, "KERNEL_CHUNK", 16)
    seen: list[int] = []
    two = runner.run_games(s, 50, 8, seed=3, workers=2, progress=seen.append)
    assert seen == [16, 32, 48, 50]
    assert np.array_equal(one.first_alight, two.first_alight)
    assert np.array_equal(one.destroyed, two.destroyed)
    assert np.array_equal(one.buried, two.buried)
    empty = runner.run_games(s, 0, 8, seed=3)
    assert empty.burned.shape == (0, len(model.build_model(s).locations))


def test_numpy_path_is_the_same_on_one_or_two_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FIREGROUND_NO_NUMBA", "1")
    assert runner.kernels() is None
    s = mixed_scenario()
    one = runner.run_games(s, 600, 6, seed=3, workers=1)
    two = runner.run_games(s, 600, 6, seed=3, workers=2)
    assert np.array_equal(one.first_alight, two.first_alight)
    assert np.array_equal(one.destroyed, two.destroyed)


# -- the kernel and the numpy path play the same rules -------------------------------------------
def rich_scenario() -> Scenario:
    """The mixed scenario of test_analysis with damp, embers, heavy start damage and more
    occupants: every rare path of the kernel is in play."""
    s = mixed_scenario()
    start = dataclasses.replace(
        s.start,
        damp=(LocationValue("C1", 0, 2), LocationValue("A1", 0, 1)),
        embers=(LocationRef("C2", 1),),
        damage=(LocationValue("A2", 0, 3), LocationValue("C2", 0, 4)),
    )
    people = (
        Feature(FeatureType.OCCUPANTS, "P1", level=0, count=2),
        Feature(FeatureType.OCCUPANTS, "A1", level=2, count=5),
    )
    return dataclasses.replace(
        s,
        start=start,
        features=s.features + people,
        objectives=(Objective("contain", max_destroyed=3),),
    )


@needs_kernel
@pytest.mark.slow
def test_kernel_and_numpy_paths_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    """Per-location chances of burning, of being destroyed and of being alight by turns 2
    and 4,
    plus the All Clear and the casualties, from 20,000 games of each path.

    The kernel draws from a stream per game and the numpy path from one per chunk, so the
    games differ; each figure gets a pooled two-proportion z-test, Bonferroni-corrected over
    all of them at a family-wise false-alarm rate of 0.1%. A rule played differently on one
    side moves some of these chances by several points, far past the threshold at this
    sample size (the standard error of a difference is at most 0.5 points)."""
    s = rich_scenario()
    turns, games = 12, 20_000
    fast = runner.run_games(s, games, turns, seed=11)
    monkeypatch.setenv("FIREGROUND_NO_NUMBA", "1")
    slow = runner.run_games(s, games, turns, seed=12)
    figures: list[tuple[str, np.ndarray, np.ndarray]] = []
    for k in range(fast.burned.shape[1]):
        figures.append((f"burn {k}", fast.burned[:, k], slow.burned[:, k]))
        figures.append((f"destroyed {k}", fast.destroyed[:, k], slow.destroyed[:, k]))
        for t in (2, 4):
            early_f = (fast.first_alight[:, k] >= 0) & (fast.first_alight[:, k] <= t)
            early_s = (slow.first_alight[:, k] >= 0) & (slow.first_alight[:, k] <= t)
            figures.append((f"alight by {t} at {k}", early_f, early_s))
    for t in (1, 3, 6):
        clear_f = (fast.all_clear_turn >= 0) & (fast.all_clear_turn <= t)
        clear_s = (slow.all_clear_turn >= 0) & (slow.all_clear_turn <= t)
        figures.append((f"all clear by {t}", clear_f, clear_s))
    figures.append(("dead", fast.dead > 0, slow.dead > 0))
    figures.append(("buried", fast.buried > 0, slow.buried > 0))
    figures.append(("buried 5+", fast.buried >= 5, slow.buried >= 5))
    crit = NormalDist().inv_cdf(1 - 0.0005 / len(figures))
    varied = 0
    for label, a, b in figures:
        z, _ = report.two_proportion_z(int(a.sum()), games, int(b.sum()), games)
        assert abs(z) < crit, (label, a.mean(), b.mean(), z)
        varied += 0.05 < a.mean() < 0.95
    # the test has teeth: many of the figures are far from 0 and 1
    assert varied >= 10


# -- the kernel's own bookkeeping -----------------------------------------------------------------
@needs_kernel
def test_counts_and_work_lists_stay_true() -> None:
    """The counts the kernel keeps as cells light and go out (burning sources on in-edges,
    burning neighbours) and its frontier and active lists, recomputed from the final fires.
    Road incendiaries that burned out exercise the going-out side."""
    s = rich_scenario()
    m = model.build_model(s)
    p = m.params
    r, st = runner.kernel_state(m, 3000, 12, seed=4)
    fire = st["fire"].astype(np.int64)
    burning = fire > 0
    in_dst = np.repeat(np.arange(m.n), np.diff(m.in_ptr))
    count = np.zeros_like(fire)
    np.add.at(count, (slice(None), in_dst), burning[:, m.in_src].astype(np.int64))
    assert np.array_equal(st["count"], count)
    nb_row = np.repeat(np.arange(m.n), np.diff(m.nb_ptr))
    nb_burning = np.zeros_like(fire)
    np.add.at(nb_burning, (slice(None), m.nb_idx), burning[:, nb_row].astype(np.int64))
    assert np.array_equal(st["nb_burning"], nb_burning)
    # every unlit cell that could catch is on the frontier
    could = ~burning & (count > 0) & (m.building | m.road)[None, :]
    assert (st["in_front"][could] == 1).all()
    # every burning cell that can still grow or take damage is active
    cap = np.where(st["road_age"] >= 0, p.road_max_fire, p.fire_max)
    rolls = (fire >= p.damage_fire) & m.building[None, :] & (st["damage"] < p.destroyed)
    assert (st["in_active"][burning & ((fire < cap) | rolls)] == 1).all()
    assert np.array_equal(r.burned, st["first"] >= 0)
    # some road incendiaries burned out (a street that burned and is not burning)
    street = [k for k, loc in enumerate(m.locations) if loc[0] == "R1"]
    assert (r.burned[:, street] & ~burning[:, street]).any()


@needs_kernel
def test_no_turns_leaves_the_start() -> None:
    s = rich_scenario()
    m = model.build_model(s)
    r = runner.run_games(s, 5, 0, seed=1, model=m)
    assert (r.fire == m.start_fire[None, :]).all()
    assert np.array_equal(r.burned, np.broadcast_to(m.start_fire > 0, r.burned.shape))
    assert (r.all_clear_turn == -1).all() and (r.dead == 0).all() and (r.buried == 0).all()


@needs_kernel
def test_damp_lost_when_the_damp_more_than_cancels_the_fire() -> None:
    """Fire 1 against damp 2: the roll can never succeed, and only a 1 (1/6) would have
    succeeded without the damp, so one damp is lost in 1/6 of the games (on both paths)."""
    s = row(2, start=Start(fires=fire_at(("B0", 0, 1)), damp=(LocationValue("B1", 0, 2),)))
    m, r, st = one_turn(s)
    k = m.locations.index(("B1", 0))
    assert not r.burned[:, k].any()
    assert close(float((st["damp"][:, k] == 1).mean()), 1 / 6, r.games)
    assert set(np.unique(st["damp"][:, k]).tolist()) == {1, 2}
    b = batch.Batch(m, GAMES, np.random.default_rng(3))
    b.play_turn()
    assert close(float((b.damp[:, k] == 1).mean()), 1 / 6, b.g)
