"""How well the standing-orders autopilot fights (issue 15): for each example, N full games
(default 400) on the same seeds, each as long as the scenario says, and per game on average:
units lost, locations destroyed, casualties rescued (found alive) and carried off
(evacuated), objectives met; and in how many games the hose-laying lorry laid a line.

Run: ``.venv/bin/python benchmarks/autopilot_table.py [--games N] [--workers W]``; it prints
a Markdown table (the one in docs/autopilot.md). Run it on another checkout with
``PYTHONPATH`` pointing at that checkout's package to get the "before" figures.
"""

from __future__ import annotations

import argparse
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from fireground.engine.play.montecarlo import game_seeds, prepare
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
NAMES = ("stepney", "paternoster", "surrey_docks")


def play(job: tuple[Path, list[int], int]) -> list[dict[str, Any]]:
    path, seeds, turns = job
    sc = load_scenario(path)
    _, graph, rules, memos = prepare(sc)  # one map graph and memo set, as analyze does
    out = []
    for s in seeds:
        game = new_game(sc, s, graph=graph, rules=rules, log_events=False, shared_memos=memos)
        lorry = False
        for _ in range(turns):
            game.step()
            lorry = lorry or any(h.lorry is not None for h in game.state.hoses.values())
        card = game.score()
        objs = card["objectives"]
        out.append(
            {
                "lost": card["units_lost"],
                "destroyed": card["destroyed"],
                "rescued": card["rescued"],
                "carried": sum(1 for c in game.state.casualties if c.evacuated),
                "met": sum(1 for o in objs if o.get("met")),
                "objectives": len(objs),
                "all_met": all(o.get("met") for o in objs),
                "lorry": lorry,
            }
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1940)
    ap.add_argument("--only", nargs="*", default=list(NAMES))
    ap.add_argument(
        "--dir",
        type=Path,
        default=EXAMPLES,
        help="folder of the scenarios (benchmarks/baseline_examples holds the examples as "
        "they were before issue 15, for before/after figures on the same maps)",
    )
    a = ap.parse_args()
    print(
        "| example | games x turns | units lost | locations destroyed | rescued | carried off "
        "| objectives met | all met | lorry laid hose |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name in a.only:
        path = a.dir / f"{name}.fg.yaml"
        sc = load_scenario(path)
        seeds = game_seeds(a.seed, a.games)
        chunk = 20
        jobs = [(path, seeds[k : k + chunk], sc.turns) for k in range(0, a.games, chunk)]
        t0 = time.perf_counter()
        with ProcessPoolExecutor(max_workers=a.workers) as pool:
            rows = [r for part in pool.map(play, jobs) for r in part]
        dt = time.perf_counter() - t0
        n = len(rows)

        def mean(k: str, rows: list[dict[str, Any]] = rows, n: int = n) -> float:
            return sum(r[k] for r in rows) / n

        print(
            f"| {name} | {n} x {sc.turns} | {mean('lost'):.2f} | {mean('destroyed'):.2f} "
            f"| {mean('rescued'):.2f} | {mean('carried'):.2f} "
            f"| {mean('met'):.2f} of {rows[0]['objectives']} | {mean('all_met'):.0%} "
            f"| {sum(r['lorry'] for r in rows)} games |",
            flush=True,
        )
        print(f"<!-- {name}: {dt:.0f} s on {a.workers} workers -->", flush=True)


if __name__ == "__main__":
    main()
