"""Play N full autopilot games of one scenario in this process, for a profiler to watch
(callgrind, perf, cProfile): the games ``analyze`` plays, on one worker, seed 1.

Run: ``.venv/bin/python benchmarks/profile_games.py FILE N``; for one game's steady cost,
profile N = 2 and N = 7 and divide the difference by 5 (the first game also fills the
memos every game of the scenario shares). Prints the CPU seconds, in all and a game.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from fireground.engine.play.montecarlo import autopilot_outcomes
from fireground.engine.scenario.io import load_scenario


def main() -> None:
    scenario = load_scenario(Path(sys.argv[1]))
    games = int(sys.argv[2])
    t = time.process_time()
    autopilot_outcomes(scenario, games, 60, seed=1, workers=1)
    spent = time.process_time() - t
    print(f"cpu {spent:.3f} s, {spent / games * 1000:.1f} ms a game")


if __name__ == "__main__":
    main()
