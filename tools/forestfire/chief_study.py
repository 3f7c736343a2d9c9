"""How well each Chief policy holds against the same Fire, on the same seeds.

For each Chief policy, plays ``--games`` games against each Fire policy given (game ``i``
uses seed ``S + i`` in every cell) and prints the share of Chief victories (95% Wilson
interval), Fire's mean VP and the mean length in rounds (95% normal intervals) and the
seconds. Fire's VP separates two Chiefs even where Fire wins every game: a Chief that
holds the fire off longer or costs it less gives away fewer points.

Run: ``.venv/bin/python tools/forestfire/chief_study.py --fire search,random
--chief greedy,search --games 100 [--seed 1000] [--jobs 2]``
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from fireground.engine.games.forestfire.analysis import wilson
from fireground.engine.games.forestfire.play import play_game
from fireground.engine.games.forestfire.scenario import default_setup
from fireground.engine.games.forestfire.steps import CHIEF_WIN


def one(args: tuple[str, str, int]) -> tuple[bool, int, int]:
    fire, chief, seed = args
    s = default_setup()
    g = play_game(s, s.rules(), {"fire": fire, "chief": chief}, seed)
    return (g.result == CHIEF_WIN, g.vp, g.rounds)


def mean_ci(xs: list[int]) -> tuple[float, float]:
    """The mean and the half-width of its 95% normal interval."""
    m = statistics.mean(xs)
    return m, (1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fire", default="search,random")
    ap.add_argument("--chief", default="greedy,search")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    print("fire     chief    games  chief victory         Fire VP (mean)        rounds (mean)  s")
    with ProcessPoolExecutor(a.jobs) as ex:
        for fire in a.fire.split(","):
            for chief in a.chief.split(","):
                t = time.perf_counter()
                jobs = [(fire, chief, a.seed + i) for i in range(a.games)]
                res = list(ex.map(one, jobs, chunksize=4))
                k = sum(r[0] for r in res)
                lo, hi = wilson(k, a.games)
                m, h = mean_ci([r[1] for r in res])
                rm, rh = mean_ci([r[2] for r in res])
                print(f"{fire:8s} {chief:8s} {a.games:5d}  {100 * k / a.games:5.1f}% "
                      f"[{100 * lo:.1f}, {100 * hi:.1f}]  {m:6.2f} [{m - h:.2f}, {m + h:.2f}]"
                      f"  {rm:5.1f} [{rm - rh:.1f}, {rm + rh:.1f}]"
                      f"  {time.perf_counter() - t:.0f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
