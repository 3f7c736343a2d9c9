"""Benchmark of Forest Fire's ``search`` player: seconds per decision on the default board
(the issue asks for at most 1 s), from both seats against ``greedy``, and as the Chief
against ``search`` (where the Chief's rollouts run longest). Wall-clock seconds, and the
process's CPU seconds beside them (on a shared machine the wall clock also counts the time
other programs held the cores).

Run: ``.venv/bin/python benchmarks/bench_forestfire.py [--games N]``
"""

from __future__ import annotations

import argparse
import statistics
import time

from fireground.engine.games.forestfire.play import play_game
from fireground.engine.games.forestfire.policies import SearchPolicy
from fireground.engine.games.forestfire.scenario import default_setup


class Timed:
    """A search player that records the time of each decision it had to think about."""

    def __init__(self, seed: int) -> None:
        self.inner = SearchPolicy(seed)
        self.times: list[float] = []
        self.cpu: list[float] = []

    def __call__(self, st, legal, rules):  # type: ignore[no-untyped-def]
        t = time.perf_counter()
        c = time.process_time()
        a = self.inner(st, legal, rules)
        if len(legal) > 1:
            self.times.append(time.perf_counter() - t)
            self.cpu.append(time.process_time() - c)
        return a


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10)
    n = ap.parse_args().games
    s = default_setup()
    rules = s.rules()
    for seat, against in (("fire", "greedy"), ("chief", "greedy"), ("chief", "search")):
        times: list[float] = []
        cpu: list[float] = []
        t0 = time.perf_counter()
        for g in range(n):
            p = Timed(g)
            other = "chief" if seat == "fire" else "fire"
            play_game(s, rules, {seat: p, other: against}, g)  # type: ignore[dict-item]
            times += p.times
            cpu += p.cpu
        el = time.perf_counter() - t0
        print(
            f"search as {seat} against {against}: {len(times)} decisions in {n} games ({el:.1f} s)"
        )
        for label, xs in (("wall", times), ("cpu", cpu)):
            xs.sort()
            print(
                f"  {label}: mean {1000 * statistics.mean(xs):.1f} ms, "
                f"p99 {1000 * xs[int(0.99 * (len(xs) - 1))]:.1f} ms, max {1000 * xs[-1]:.1f} ms"
            )


if __name__ == "__main__":
    main()
