"""A fingerprint of autopilot games, to show that a speed change changes no game: for each
BLITZ! example and each baseline example, N quiet games (default 20, seeds
``game_seeds(1, N)``, on shared map memos as ``autopilot_outcomes`` plays them) of 60
turns, hashing the state's log and the dice's state after every turn and the score at the
end. Two checkouts play the same games when they print the same lines.

Run: ``.venv/bin/python benchmarks/autopilot_fingerprint.py [--games N]``; on another
checkout with ``PYTHONPATH`` pointing at that checkout's package (as for
``autopilot_table.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from fireground.engine.board.graph import build_graph
from fireground.engine.core.ruleset import load_ruleset
from fireground.engine.play.montecarlo import game_seeds
from fireground.engine.play.simulate import new_game
from fireground.engine.scenario.io import load_scenario

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("stepney", "paternoster", "surrey_docks")
FILES = [ROOT / "examples" / f"{n}.fg.yaml" for n in NAMES] + [
    ROOT / "benchmarks" / "baseline_examples" / f"{n}.fg.yaml" for n in NAMES
]


def fingerprint(path: Path, games: int, turns: int) -> str:
    sc = load_scenario(path)
    graph = build_graph(sc)
    rules = load_ruleset(sc.ruleset, dict(sc.house_rules))
    memos: dict[object, object] = {}
    h = hashlib.sha256()
    for seed in game_seeds(1, games):
        game = new_game(sc, seed, graph=graph, rules=rules, log_events=False, shared_memos=memos)
        for _ in range(turns):
            game.step()
            h.update(json.dumps(game.state.to_log(), sort_keys=True, default=str).encode())
            h.update(repr(game.ctx.dice.getstate()).encode())
        h.update(json.dumps(game.score(), sort_keys=True, default=str).encode())
    return h.hexdigest()[:16]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--turns", type=int, default=60)
    a = ap.parse_args()
    total = hashlib.sha256()
    for path in FILES:
        fp = fingerprint(path, a.games, a.turns)
        total.update(fp.encode())
        print(f"{path.parent.name}/{path.name} {fp}", flush=True)
    print(f"all {total.hexdigest()[:16]}")


if __name__ == "__main__":
    main()
