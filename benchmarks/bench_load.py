"""Load + check time for large synthetic cities.

    .venv/bin/python benchmarks/bench_load.py [--sizes 5000,20000] [--repeat 3]

Each city is written to a temporary file with ``save_scenario``; the timed part is what
``fireground check FILE`` does: ``load_scenario`` then ``checks.check``. Targets from the
foundation issue: 5,000 areas in 2 s, 20,000 in 8 s (best of ``--repeat`` runs).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from fireground.engine.games.blitz.checks import run as checks
from fireground.engine.scenario.io import load_scenario, save_scenario
from fireground.engine.scenario.synthetic import synthetic_city

TARGET_S = {5_000: 2.0, 20_000: 8.0}


def bench(n: int, repeat: int, folder: Path) -> tuple[float, float, float, int]:
    """Best load, check and total seconds over ``repeat`` runs, and the findings count."""
    path = folder / f"city{n}.fg.yaml"
    save_scenario(synthetic_city(n, seed=0), path)
    loads, checks_s, totals = [], [], []
    findings = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        s = load_scenario(path)
        t1 = time.perf_counter()
        findings = len(checks.check(s))
        t2 = time.perf_counter()
        loads.append(t1 - t0)
        checks_s.append(t2 - t1)
        totals.append(t2 - t0)
    return min(loads), min(checks_s), min(totals), findings


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--sizes", default="5000,20000", help="comma-separated area counts")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    slow = []
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'areas':>7} {'file MB':>8} {'load s':>7} {'check s':>8} {'total s':>8}  target")
        for n in sizes:
            load_s, check_s, total, findings = bench(n, args.repeat, Path(tmp))
            mb = (Path(tmp) / f"city{n}.fg.yaml").stat().st_size / 1e6
            target = TARGET_S.get(n)
            verdict = (
                ""
                if target is None
                else f"≤ {target:.0f} s " + ("ok" if total <= target else "SLOW")
            )
            if target is not None and total > target:
                slow.append(n)
            print(
                f"{n:>7} {mb:>8.2f} {load_s:>7.2f} {check_s:>8.2f} {total:>8.2f}  {verdict}"
                f"  ({findings} findings)"
            )
    print(f"best of {args.repeat} runs; python {sys.version.split()[0]}")
    return 1 if slow else 0


if __name__ == "__main__":
    raise SystemExit(main())
