"""Exact values of Forest Fire at the full round cap, by the layered solver.

For each board length, solves the standard start (one token on the last square, two
empty engines in the town) with the ruleset's ``rounds.max`` (60 unless ``--house``
changes it) by :func:`~fireground.engine.games.forestfire.layered.solve_layered`, and
prints the value (Fire's expected result score: 1 total victory, 0.5 marginal, 0 Chief
victory), the positions of the round-free graph, its decisions and the seconds (graph,
passes). With ``--policies`` also the value with one side held to each policy.

Run: ``.venv/bin/python tools/forestfire/layered_study.py --squares 3,4 [--policies greedy]
[--house rounds.max=60] [--held-only]``
"""

from __future__ import annotations

import argparse

from fireground.engine.games.forestfire.layered import solve_layered
from fireground.engine.games.forestfire.play import start_state
from fireground.engine.games.forestfire.policies import make_policy
from fireground.engine.games.forestfire.scenario import default_setup


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--squares", default="3,4")
    ap.add_argument("--policies", default="")
    ap.add_argument("--house", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--held-only", action="store_true", help="skip the both-best solve")
    a = ap.parse_args()
    extra = {k: int(v) for k, v in (h.split("=") for h in a.house)}
    print("squares  rounds  held          value     positions   decisions  graph s  passes s")
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
            sol = solve_layered(st, r, fixed)  # type: ignore[arg-type]
            print(f"{n:7d}  {sol.rounds:6d}  {label:12s}  {sol.value:.6f}  {sol.positions:10,d}"
                  f"  {sol.decisions:10,d}  {sol.build_seconds:7.1f}  {sol.pass_seconds:8.1f}",
                  flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
