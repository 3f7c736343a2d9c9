"""Benchmark of ``fireground analyze`` (issue 6): prints, side by side,

* ``--no-response`` speed in location-turns per second: the fast core (the numba kernel
  when numba imports) on 1 thread and on every core, its numpy path, and the reference
  engine (no units) measured in the same run on the same map; numba's compile or cache
  load is timed apart and not counted;
* full autopilot games: 1,000 games x 60 turns of the largest example (target <= 30 s),
  played on every core: by default 200 games are timed and the figure scaled x5 (the
  output says so and prints the count), ``--full`` times all 1,000, ``--quick`` only 4.

Run: ``.venv/bin/python benchmarks/bench_analysis.py [--quick | --full]``
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import time
from pathlib import Path

from fireground.engine.board.graph import build_graph
from fireground.engine.core.ruleset import load_ruleset
from fireground.engine.games.blitz.fastsim import model as fastsim_model
from fireground.engine.games.blitz.fastsim import runner
from fireground.engine.play import montecarlo
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.envelope import blitz_examples
from fireground.engine.scenario.io import load_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def largest() -> Path:
    paths = blitz_examples(EXAMPLES)
    return max(paths, key=lambda p: len(list(load_scenario(p).locations())))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer games (CI smoke run)")
    ap.add_argument(
        "--full", action="store_true", help="time all the autopilot games (no extrapolation)"
    )
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--turns", type=int, default=60)
    ap.add_argument(
        "--autopilot-games",
        type=int,
        default=200,
        help="autopilot games actually timed (the 1,000-game figure is scaled)",
    )
    a = ap.parse_args()
    path = largest()
    sc = load_scenario(path)
    cores = os.cpu_count() or 1
    model = fastsim_model.build_model(sc)
    n = model.n
    games = 256 if a.quick else a.games
    print(f"map: {path.name}, {n} locations, {a.turns} turns, {cores} cores")

    kern = runner.kernels()
    t = time.perf_counter()
    runner.run_games(sc, 16, 2, seed=0, model=model)  # warm-up: numba compiles or loads
    warm = time.perf_counter() - t
    if kern is not None:
        hits = sum(kern.play_games.stats.cache_hits.values())
        how = "loaded from numba's cache" if hits else "compiled (nothing cached yet)"
        print(f"kernel ready in {warm:.2f} s, {how}; not counted below")
    t = time.perf_counter()
    runner.run_games(sc, games, a.turns, seed=1, workers=1, model=model)
    one = games * a.turns * n / (time.perf_counter() - t)
    t = time.perf_counter()
    runner.run_games(sc, games, a.turns, seed=1, workers=cores, model=model)
    many = games * a.turns * n / (time.perf_counter() - t)
    t = time.perf_counter()
    runner.run_games_numpy(sc, games, a.turns, seed=1, workers=1, model=model)
    vec = games * a.turns * n / (time.perf_counter() - t)

    # the reference engine as the full-game analysis runs it (no event log, shared memos)
    bare = dataclasses.replace(sc, forces=())
    graph, rules = build_graph(bare), load_ruleset(bare.ruleset, dict(bare.house_rules))
    memos: dict[object, object] = {}
    ref_games = 2 if a.quick else 5
    t = time.perf_counter()
    for g in range(ref_games):
        game = new_game(bare, g, graph=graph, rules=rules, log_events=False, shared_memos=memos)
        game.run(a.turns)
    ref = ref_games * a.turns * n / (time.perf_counter() - t)
    kind = "numba" if kern is not None else "numpy (no numba)"
    print(f"{'--no-response':28s} {'location-turns/s':>18s} {'x reference':>12s}")
    rows = [
        (f"fast core {kind}, 1 thread", one),
        (f"fast core {kind}, {cores} threads", many),
        ("numpy path, 1 process", vec),
        ("reference engine", ref),
    ]
    for label, rate in rows:
        print(f"{label:28s} {rate / 1e6:16.2f} M {rate / ref:11.0f}x")
    print("targets: >= 100 M/s and >= 20x the reference engine")

    sample = a.games if a.full else min(4 if a.quick else a.autopilot_games, a.games)
    t = time.perf_counter()
    montecarlo.autopilot_outcomes(sc, sample, a.turns, seed=1, workers=cores)
    dt = time.perf_counter() - t
    est = dt * a.games / sample
    kind = (
        f"measured, all {sample} games"
        if sample == a.games
        else f"extrapolated x{a.games / sample:g} from {sample} games measured"
    )
    print(
        f"autopilot: {a.games} games x {a.turns} turns of {path.name} on {cores} workers: "
        f"{est:.1f} s ({kind}); target <= 30 s"
    )


if __name__ == "__main__":
    main()
