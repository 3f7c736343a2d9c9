"""One seat, two policies, the same opponent and the same seeds: which policy is stronger.

For a seat (``--seat chief`` or ``fire``) and each opponent policy in ``--against``,
plays ``--games`` games with each of the seat's policies in ``--policies`` (default
``greedy,search``); game ``i`` uses seed ``S + i`` in every cell, so only the seat's
policy differs between paired games (the opponent's own seed and the dice seed are the
same). Prints, per cell, the share of each result band (95% Wilson intervals), Fire's
mean VP and mean length in rounds (95% normal intervals), the seconds; then, per
opponent, the paired comparison of the second policy against the first on the same
seeds: the mean difference in Fire's VP and in the seat's result (1 when the seat's side
wins the band, Fire's total 1 and marginal 0.5 for the Fire seat) with 95% normal
intervals over the paired differences, and a sign test (seeds where the second policy
did better / worse / the same, with the exact two-sided binomial p-value).

Run: ``.venv/bin/python tools/forestfire/chief_study.py --seat chief
--against random,greedy,search --games 100 [--seed 1000] [--jobs 2] [--markdown]``
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
from fireground.engine.games.forestfire.steps import BANDS, CHIEF_WIN, MARGINAL, TOTAL


def one(args: tuple[str, str, int]) -> tuple[str, int, int]:
    fire, chief, seed = args
    s = default_setup()
    g = play_game(s, s.rules(), {"fire": fire, "chief": chief}, seed)
    return (g.result, g.vp, g.rounds)


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    """The mean and its 95% normal interval."""
    m = statistics.mean(xs)
    h = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return m, m - h, m + h


def sign_test(better: int, worse: int) -> float:
    """Exact two-sided binomial p-value of ``better`` against ``worse`` (ties dropped)."""
    n = better + worse
    if n == 0:
        return 1.0
    k = min(better, worse)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def seat_score(result: str, seat: str) -> float:
    """The seat's result: Chief 1 for a Chief victory; Fire 1 total, 0.5 marginal."""
    if seat == "chief":
        return 1.0 if result == CHIEF_WIN else 0.0
    return {TOTAL: 1.0, MARGINAL: 0.5}.get(result, 0.0)


def pct(lo_hi: tuple[float, float]) -> str:
    return f"[{100 * lo_hi[0]:.1f}, {100 * lo_hi[1]:.1f}]"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seat", choices=("chief", "fire"), default="chief")
    ap.add_argument("--against", default="random,greedy,search")
    ap.add_argument("--policies", default="greedy,search")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    pols = a.policies.split(",")
    other = "fire" if a.seat == "chief" else "chief"
    print(
        f"| {other} | {a.seat} | Fire total | Fire marginal | Chief victory | Fire's VP "
        "| rounds | s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    paired: list[str] = []
    with ProcessPoolExecutor(a.jobs) as ex:
        for opp in a.against.split(","):
            runs: dict[str, list[tuple[str, int, int]]] = {}
            for pol in pols:
                fire, chief = (opp, pol) if a.seat == "chief" else (pol, opp)
                t = time.perf_counter()
                jobs = [(fire, chief, a.seed + i) for i in range(a.games)]
                res = list(ex.map(one, jobs, chunksize=2))
                runs[pol] = res
                cells = []
                for band in BANDS:
                    k = sum(r[0] == band for r in res)
                    cells.append(f"{100 * k / a.games:.1f}% {pct(wilson(k, a.games))}")
                m, lo, hi = mean_ci([float(r[1]) for r in res])
                rm, rlo, rhi = mean_ci([float(r[2]) for r in res])
                print(f"| {opp} | {pol} | {' | '.join(cells)} | {m:.2f} [{lo:.2f}, {hi:.2f}] "
                      f"| {rm:.1f} [{rlo:.1f}, {rhi:.1f}] | {time.perf_counter() - t:.0f} |",
                      flush=True)  # fmt: skip
            base, new = runs[pols[0]], runs[pols[-1]]
            dvp = [float(n[1] - b[1]) for b, n in zip(base, new, strict=True)]
            dsc = [seat_score(n[0], a.seat) - seat_score(b[0], a.seat)
                   for b, n in zip(base, new, strict=True)]  # fmt: skip
            # "better" for the seat: a higher result; on equal results, fewer VP for Fire
            # as the Chief (more as Fire)
            sgn = -1.0 if a.seat == "chief" else 1.0
            keys = [(s, sgn * v) for s, v in zip(dsc, dvp, strict=True)]
            better = sum(k > (0.0, 0.0) for k in keys)
            worse = sum(k < (0.0, 0.0) for k in keys)
            m, lo, hi = mean_ci(dvp)
            sm, slo, shi = mean_ci(dsc)
            paired.append(
                f"| {opp} | {a.games} | {m:+.2f} [{lo:+.2f}, {hi:+.2f}] | {sm:+.3f} [{slo:+.3f}, {shi:+.3f}]"
                f" | {better} / {worse} / {a.games - better - worse}"
                f" | {sign_test(better, worse):.2g} |"
            )
            print(f"paired so far: {paired[-1]}", flush=True)
    print(f"\npaired, {pols[-1]} minus {pols[0]} as {a.seat}, same seeds:")
    print(
        f"| {other} | Fire's VP | {a.seat}'s result | seeds better / worse / same | sign test p |"
    )
    print("|---|---|---|---|---|")
    for line in paired:
        print(line)


if __name__ == "__main__":
    main()
