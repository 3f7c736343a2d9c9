"""Benchmark of ``fireground sweep`` (issue 18): the cost per game of a 50-variant sweep
against ``analyze``'s, on the largest example, on every core, the same number of games.

Two sweeps of 50 variants are timed, because a variant's first games on a worker fill the
map-and-rules memos (the graph, spread plans, hose tables) that later games reuse:

* *scenario keys*: general appliances 0-4 x start fires 5-9 x strong wind or not. Variants
  that differ only in forces or start fires share one set of memos, so the sweep fills
  two (one per wind);
* *house rules*: ``growth.on`` 2-6 x ``embers.reignite_on`` 3-12, every variant its own
  ruleset and so its own memos: the dearest case.

``analyze`` (its autopilot games, :func:`autopilot_outcomes`) is timed before and after
the sweeps and the mean taken. Cost per game = the CPU time of this process and of its
worker processes (``getrusage``, children counted once the pool has closed) / games: on a
shared machine the wall time follows the other users' load, the CPU time much less.
The wall time x workers / games is printed beside it.

Run: ``.venv/bin/python benchmarks/bench_sweep.py [--games-per-variant G] [--quick]``
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

from fireground.engine.play import sweep as sw
from fireground.engine.play.analysis import autopilot_outcomes
from fireground.engine.scenario.io import load_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

SCENARIO_KEYS = [
    sw.Vary("forces.general_appliance.count", ("0", "1", "2", "3", "4")),
    sw.Vary("start.fires", ("5", "6", "7", "8", "9")),
    sw.Vary("wind.strong", ("false", "true")),
]
HOUSE_RULES = [
    sw.Vary("growth.on", ("2", "3", "4", "5", "6")),
    sw.Vary("embers.reignite_on", tuple(str(k) for k in range(3, 13))),
]


def largest() -> Path:
    paths = sorted(EXAMPLES.glob("*.fg.yaml"))
    return max(paths, key=lambda p: len(list(load_scenario(p).locations())))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games-per-variant", type=int, default=40)
    ap.add_argument("--quick", action="store_true", help="2 games per variant, Stepney (smoke)")
    a = ap.parse_args()
    path = EXAMPLES / "stepney.fg.yaml" if a.quick else largest()
    sc = load_scenario(path)
    per = 2 if a.quick else a.games_per_variant
    cores = int(os.environ.get("FIREGROUND_WORKERS", "0")) or (os.cpu_count() or 1)
    varies_sets = [("scenario keys", SCENARIO_KEYS), ("house rules", HOUSE_RULES)]
    if a.quick:
        varies_sets = [
            ("scenario keys", [sw.Vary("forces.GA1.count", ("1", "2"))]),
            ("house rules", [sw.Vary("growth.on", ("5", "6"))]),
        ]
    variants = len(sw.expand(sc, varies_sets[0][1]))
    games = variants * per
    print(
        f"map: {path.name}, {sum(1 for _ in sc.locations())} locations, {sc.turns} turns, "
        f"{cores} workers; {variants} variants x {per} games = {games} games per run"
    )

    def cpu() -> float:
        own = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    def timed(run: object) -> tuple[float, float]:
        """(CPU ms per game, wall ms x workers per game) of ``run()``."""
        c, t = cpu(), time.perf_counter()
        run()  # type: ignore[operator]
        return (cpu() - c) * 1000 / games, (time.perf_counter() - t) * cores * 1000 / games

    def analyze() -> None:
        autopilot_outcomes(sc, games, sc.turns, seed=1, workers=cores)

    before = timed(analyze)
    costs = []
    for label, varies in varies_sets:

        def run(varies: list[sw.Vary] = varies) -> None:
            rep, _ = sw.sweep(sc, varies, per, seed=1, workers=cores)
            assert len(rep.variants) == variants

        costs.append((label, timed(run)))
    after = timed(analyze)
    base = (before[0] + after[0]) / 2
    wall = (before[1] + after[1]) / 2
    print(
        f"analyze: {base:.1f} ms CPU per game (before the sweeps {before[0]:.1f}, after "
        f"{after[0]:.1f}); wall x workers {wall:.1f} ms"
    )
    for label, (cost, w) in costs:
        print(
            f"sweep, {label}: {cost:.1f} ms CPU per game, {100 * (cost / base - 1):+.1f}% "
            f"against analyze (target within 10%); wall x workers {w:.1f} ms "
            f"({100 * (w / wall - 1):+.1f}%)"
        )
        # what the extra is per variant (its games' set-up: graph, memos), and so from how
        # many games per variant on the sweep stays within 10% (derived, not measured)
        extra = (cost - base) * per
        if extra > 0:
            print(
                f"  extra per variant {extra / 1000:.2f} s CPU: within 10% of analyze from "
                f"about {extra / (0.1 * base):.0f} games per variant"
            )


if __name__ == "__main__":
    main()
