"""How long could a vehicle with nothing to do last, wherever it waited? (issue 15, round 14.)

Plays N games of each example with the autopilot and, at the end of every turn (the
vehicles move in step 6, the fire spreads in the next step 1), reads every street's chance
to burn out a vehicle waiting there in that step 1 (``parking.street_risk``, 1 for a
street on fire or under rubble). A vehicle that is never in the way (it does not change
the fire) would be left at the end of the game with the product of (1 - risk) over the
turns of the street it waited in; the script prints that survival at turns 20, 30 and the
last turn, per game:

* ``best street``: waiting the whole game in one street, the best street of the map;
* ``greedy from X``: starting in that best street and driving, after every turn, to the
  street it can reach (``reach.road_routes``) least likely to catch;
* ``anywhere``: an upper bound, jumping each turn to the street of the whole map least
  likely to catch, whatever the roads (for independent turns, no way of choosing does
  better).

Run: ``nice .venv/bin/python benchmarks/shelter_ceiling.py --dir benchmarks/baseline_examples
[--games N] [--workers 2] [--only NAME ...]``
"""

from __future__ import annotations

from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import example_games

from fireground.engine.core.turn import TurnContext
from fireground.engine.games.blitz.autopilot.parking import street_risk
from fireground.engine.games.blitz.rules import reach
from fireground.engine.games.blitz.state import GameState
from fireground.engine.play.montecarlo import game_seeds

#: the turns whose survival is printed (and the last)
MARKS = (20, 30)


def _risk(ctx: TurnContext, state: GameState, area: str) -> float:
    if (area, 0) in state.fire or area in state.rubble:
        return 1.0
    return street_risk(ctx, state, area)


def play(job: example_games.Job) -> Counter[str]:
    turns = job[2]
    out: Counter[str] = Counter()
    for game in example_games.games(job):
        ctx, state = game.ctx, game.state
        streets = sorted(reach.road_adjacency(ctx))
        stay = dict.fromkeys(streets, 1.0)
        anywhere = 1.0
        risks: list[dict[str, float]] = []
        for t in range(1, turns + 1):
            game.step()
            risk = {a: _risk(ctx, state, a) for a in streets}
            risks.append(risk)
            for a in streets:
                stay[a] *= 1 - risk[a]
            anywhere *= 1 - min(risk.values())
            if t in MARKS or t == turns:
                mark = "last" if t == turns else str(t)
                out[f"anywhere, turn {mark}"] += anywhere
                for a in streets:
                    out[f"street {a}, turn {mark}"] += stay[a]
        out["GAMES"] += 1
    return out


def _greedy(job: example_games.Job, start: str) -> Counter[str]:
    turns = job[2]
    out: Counter[str] = Counter()
    for game in example_games.games(job):
        ctx, state = game.ctx, game.state
        at, alive = start, 1.0
        for t in range(1, turns + 1):
            game.step()
            routes = reach.road_routes(ctx, state, at)
            if routes:
                at = min(routes, key=lambda a: (_risk(ctx, state, a), len(routes[a]), a))
            alive *= 1 - _risk(ctx, state, at)
            if t in MARKS or t == turns:
                out[f"turn {'last' if t == turns else t}"] += alive
    return out


def _greedy_job(job: tuple[example_games.Job, str]) -> Counter[str]:
    return _greedy(*job)


def main() -> None:
    ap = example_games.parser(games=40)
    a = ap.parse_args()
    for name, sc, parts in example_games.play_examples(a, play):
        total: Counter[str] = sum(parts, Counter())
        n = total.pop("GAMES")
        last = {k: v for k, v in total.items() if k.startswith("street") and "last" in k}
        best = max(sorted(last), key=lambda k: last[k]).split()[1].rstrip(",")
        print(f"## {name}: {n} games x {sc.turns} turns, survival of one vehicle waiting")
        marks = [*(str(m) for m in MARKS), "last"]
        print("| | " + " | ".join(f"turn {m}" for m in marks) + " |")
        print("|---|" + "---|" * len(marks))
        for label, key in ((f"best street ({best})", f"street {best}"), ("anywhere", "anywhere")):
            row = " | ".join(f"{total[f'{key}, turn {m}'] / n:.3f}" for m in marks)
            print(f"| {label} | {row} |")
        path = a.dir / f"{name}.fg.yaml"
        seeds = game_seeds(a.seed, a.games)
        jobs = [((path, seeds[k : k + 5], sc.turns), best) for k in range(0, a.games, 5)]
        with ProcessPoolExecutor(max_workers=a.workers) as pool:
            greedy: Counter[str] = sum(pool.map(_greedy_job, jobs), Counter())
        row = " | ".join(f"{greedy[f'turn {m}'] / n:.3f}" for m in marks)
        print(f"| greedy from {best} | {row} |")


if __name__ == "__main__":
    main()
