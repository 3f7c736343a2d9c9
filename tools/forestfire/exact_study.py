"""The exact value of Forest Fire on short boards, and how far greedy and search fall from it.

For each board length and round cap (``rounds.max``), solves the game by expectiminimax
(engine/games/forestfire/solve.py) from the standard start (one token on the last square,
two empty engines in the town) and prints the value (Fire's expected result score: 1 total
victory, 0.5 marginal, 0 Chief victory), the positions searched and the seconds it took.
With ``--policies`` it also solves with one side held to a policy (the other side best):
what that policy secures against best play.

Run: ``.venv/bin/python tools/forestfire/exact_study.py --squares 3,4 --caps 1,2,4,6,8
[--budget 60] [--policies greedy,search]``
"""

from __future__ import annotations

import argparse
import time

from fireground.engine.games.forestfire.play import start_state
from fireground.engine.games.forestfire.policies import make_policy
from fireground.engine.games.forestfire.scenario import default_setup
from fireground.engine.games.forestfire.solve import solve


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--squares", default="3,4")
    ap.add_argument("--caps", default="1,2,3,4,6,8")
    ap.add_argument("--budget", type=float, default=60.0, help="stop a board past this many s")
    ap.add_argument("--policies", default="")
    ap.add_argument("--house", action="append", default=[], metavar="KEY=VALUE")
    a = ap.parse_args()
    extra = {k: int(v) for k, v in (h.split("=") for h in a.house)}
    print("squares  rounds.max  held          value     positions   seconds")
    for n in (int(x) for x in a.squares.split(",")):
        for cap in (int(x) for x in a.caps.split(",")):
            s = default_setup(squares=n)
            s.house_rules = {"rounds.max": cap, **extra}
            r = s.rules()
            st = start_state(s, r)
            holds: list[tuple[str, dict[str, object]]] = [("both best", {})]
            for name in filter(None, a.policies.split(",")):
                holds.append((f"fire={name}", {"fire": make_policy(name, 0)}))
                holds.append((f"chief={name}", {"chief": make_policy(name, 0)}))
            spent = 0.0
            for label, fixed in holds:
                t = time.perf_counter()
                sol = solve(st, r, fixed)  # type: ignore[arg-type]
                spent = time.perf_counter() - t
                print(f"{n:7d}  {cap:10d}  {label:12s}  {sol.value:.6f}  {sol.positions:10,d}"
                      f"  {sol.seconds:8.1f}", flush=True)  # fmt: skip
            if spent > a.budget:
                break


if __name__ == "__main__":
    main()
