"""Engine speed: 60-turn autopilot games -> location-turns per second.

Run: ``.venv/bin/python benchmarks/bench_engine.py [TURNS]``. Two games: the largest example
in ``examples/`` and the 5,000-area synthetic city (``engine/synthetic.py``). A
location-turn is one location of the map carried through one turn, so the figure compares
maps of different sizes; the engine's work follows what burns and moves, so a bigger map
with the same fires gives a higher figure. Graph building is timed apart from the turns.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from fireground.engine.board.graph import build_graph
from fireground.engine.board.model import Scenario
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.envelope import blitz_examples
from fireground.engine.scenario.io import load_scenario
from fireground.engine.scenario.synthetic import synthetic_city

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def bench(name: str, scenario: Scenario, turns: int, seed: int = 1940) -> None:
    t0 = time.perf_counter()
    graph = build_graph(scenario)
    n_locations = len(graph.locations)
    t1 = time.perf_counter()
    game = new_game(scenario, seed, graph=graph)
    game.run(turns)
    t2 = time.perf_counter()
    events = sum(len(t.events) for t in game.logs)
    burning = len(game.state.fire)
    per_turn = (t2 - t1) / turns
    print(
        f"engine: {name}: {len(scenario.areas)} areas, {n_locations} locations, {turns} turns "
        f"in {t2 - t1:.2f} s ({per_turn * 1000:.1f} ms/turn, graph {t1 - t0:.2f} s); "
        f"{n_locations * turns / (t2 - t1):,.0f} location-turns/s; "
        f"{events} events, {burning} burning at the end",
        flush=True,
    )
    # the Monte Carlo mode: same dice, same game, no events or per-turn state kept; the
    # map-only memos (neighbours, jumps, stream range...) are shared with the game above,
    # as they are by every game of an analysis job: the first quiet game still builds the
    # quiet mode's own tables (hose-step rows, the spread index), the second finds them
    for run in ("first", "second"):
        quiet = new_game(scenario, seed, graph=graph, log_events=False, shared_memos=game.ctx.cache)
        t3 = time.perf_counter()
        quiet.run(turns)
        t4 = time.perf_counter()
        same = quiet.state.to_log() == game.state.to_log()
        print(
            f"engine: {name}: quiet mode (log_events=False), {run} game on shared memos: "
            f"{t4 - t3:.2f} s ({(t4 - t3) / turns * 1000:.1f} ms/turn); "
            f"{n_locations * turns / (t4 - t3):,.0f} location-turns/s; same end state: {same}",
            flush=True,
        )


def main() -> int:
    turns = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    examples = blitz_examples(EXAMPLES)
    if examples:
        loaded = [load_scenario(p) for p in examples]
        largest = max(loaded, key=lambda s: sum(1 for _ in s.locations()))
        bench(f"largest example ({largest.name})", largest, turns)
    bench("synthetic city", synthetic_city(5000, seed=1), turns)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
