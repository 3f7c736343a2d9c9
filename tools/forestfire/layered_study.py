"""Exact values of Forest Fire at the full round cap, by the layered method.

For each board length, solves the standard start (one token on the last square, two
empty engines in the town) with the ruleset's ``rounds.max`` (60 unless ``--house``
changes it) and prints the value (Fire's expected result score: 1 total victory, 0.5
marginal, 0 Chief victory), the positions of the round-free graph, its decisions and the
seconds (graph, passes). With ``--policies`` also the value with one side held to each
policy (that side plays it, the other its best reply).

``--solver bulk`` (the default) lists the graph with the numba kernels of
:mod:`fireground.engine.games.forestfire.bulk` and also prints the passes run, the
processor seconds and the peak memory; ``--solver layered`` with the engine's own step
functions (:mod:`~fireground.engine.games.forestfire.layered`, 3 and 4 squares only in
reasonable time).

Run: ``nice -n 10 .venv/bin/python tools/forestfire/layered_study.py --squares 3,4,5
[--policies greedy] [--held-only] [--house rounds.max=60] [--solver layered] [--census]``;
``--census`` prints the graph's positions and decisions by phase instead of solving.
"""

from __future__ import annotations

import argparse

from fireground.engine.games.forestfire.bulk import BulkGraph, solve_bulk
from fireground.engine.games.forestfire.layered import solve_layered
from fireground.engine.games.forestfire.play import start_state
from fireground.engine.games.forestfire.policies import make_policy
from fireground.engine.games.forestfire.scenario import default_setup


def census(squares: str, extra: dict[str, int]) -> None:
    """The bulk graph's positions and decisions by phase (Fire's turn, each engine's load,
    act and spray), for each board."""
    print("squares  phase   engine     positions      decisions")
    for n in (int(x) for x in squares.split(",")):
        s = default_setup(squares=n)
        s.house_rules = dict(extra)
        r = s.rules()
        g = BulkGraph(start_state(s, r), r)
        for kind, eng, positions, decisions in g.census():
            who = "-" if kind == "fire" else f"E{eng + 1}"
            print(f"{n:7d}  {kind:6s}  {who:6s}  {positions:12,d}  {decisions:13,d}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--squares", default="3,4,5")
    ap.add_argument("--policies", default="")
    ap.add_argument("--house", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--held-only", action="store_true", help="skip the both-best solve")
    ap.add_argument("--solver", choices=("bulk", "layered"), default="bulk")
    ap.add_argument("--census", action="store_true", help="positions by phase, no solve")
    a = ap.parse_args()
    extra = {k: int(v) for k, v in (h.split("=") for h in a.house)}
    if a.census:
        census(a.squares, extra)
        return
    print("squares  rounds  held          value      positions      decisions  passes"
          "  graph s  passes s   cpu s  peak MiB")  # fmt: skip
    for n in (int(x) for x in a.squares.split(",")):
        s = default_setup(squares=n)
        s.house_rules = dict(extra)
        r = s.rules()
        st = start_state(s, r)
        holds: list[tuple[str, dict[str, object]]] = [] if a.held_only else [("both best", {})]
        for name in filter(None, a.policies.split(",")):
            holds.append((f"fire={name}", {"fire": make_policy(name, 0)}))
            holds.append((f"chief={name}", {"chief": make_policy(name, 0)}))
        for label, fixed in holds:
            if a.solver == "bulk":
                b = solve_bulk(st, r, fixed)  # type: ignore[arg-type]
                more = f"  {b.passes:6d}  {b.build_seconds:7.1f}  {b.pass_seconds:8.1f}"
                more += f"  {b.cpu_seconds:6.1f}  {b.peak_mib:8.0f}"
                value, positions, decisions, rounds = b.value, b.positions, b.decisions, b.rounds
            else:
                sol = solve_layered(st, r, fixed)  # type: ignore[arg-type]
                more = f"  {sol.rounds:6d}  {sol.build_seconds:7.1f}  {sol.pass_seconds:8.1f}"
                value, positions, decisions = sol.value, sol.positions, sol.decisions
                rounds = sol.rounds
            print(f"{n:7d}  {rounds:6d}  {label:12s}  {value:.6f}  {positions:13,d}"
                  f"  {decisions:13,d}{more}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
