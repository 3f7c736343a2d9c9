"""Stands with nothing to do lost in a pocket (issue 15, round 12): plays N logged games
of each example and, for every stand lost idle or refilling (its task at the step 6
before the loss), looks back over its step 6s (as the standing orders leave them) for
two moments:

- the last step 6 at which a way on foot (through places a stand may plan to step into,
  :func:`.foot.passable`) still led from it to a haven (:func:`.safety.shelters`) or an
  entry: its role, task, where its vehicle was (``none``: it has none; ``lost``; ``here``;
  ``away``), whether the pocket forecast (:func:`.safety.pocket`) flagged its place, and
  the kind of place;
- the first step 6 of its last run of step 6s flagged by the pocket forecast: whether a
  way was open then and the nearest haven or entry by it, in turns' walk (movement
  points over ``movement.foot_points``, rounded up), and for how many of that run's step
  6s a way stayed open (how long it had to get out after the forecast warned it).

Run: ``.venv/bin/python benchmarks/autopilot_pocket_trace.py --dir
benchmarks/baseline_examples --only paternoster [--games N] [--workers 2]``
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import example_games

from fireground.engine.board.model import AreaKind
from fireground.engine.core.turn import TurnContext
from fireground.engine.games.blitz.autopilot import safety
from fireground.engine.games.blitz.reach import danger, foot
from fireground.engine.games.blitz.rules import movement
from fireground.engine.games.blitz.state import GameState
from fireground.engine.games.blitz.units import STAND

IDLE = ("idle", "refill")


def snapshot(ctx: TurnContext, state: GameState) -> dict[str, dict[str, Any]]:
    """Each stand in play as step 6 leaves it: what the trace asks of it."""
    out: dict[str, dict[str, Any]] = {}
    if not state.fire:
        return out
    goals = set(safety.shelters(ctx, state)) | {(a, 0) for a in movement.entry_areas(ctx)}
    for uid, u in state.units.items():
        if u.kind != STAND or not u.in_play or u.loc is None:
            continue
        far, _ = foot.foot_search(ctx, state, u.loc, None)
        reach = [far[x] for x in goals if x in far]
        home = state.units.get(u.parent) if u.parent is not None else None
        out[uid] = {
            "role": u.role,
            "task": u.task,
            "where": (
                "building" if danger.area_kind(ctx, u.loc[0]) is AreaKind.BUILDING else "street"
            ),
            "veh": (
                "none"
                if home is None
                else "lost"
                if not home.in_play
                else "here"
                if home.loc == u.loc
                else "away"
            ),
            "way": min(reach) if reach else None,
            "pocket": safety.pocket(ctx, state, u.loc),
        }
    return out


def play(job: tuple[Any, list[int], int]) -> Counter[str]:
    out: Counter[str] = Counter()
    for game, _log, uid, _ev, _mine, snaps in example_games.stands_lost(job, snapshot):
        mine = [s.get(uid) for s in snaps]
        out["ALL"] += 1
        last = next((d for d in reversed(mine) if d is not None), None)
        if last is None or last["task"] not in IDLE:
            continue
        out["LOST"] += 1
        walk = game.ctx.rules.int("movement.foot_points")
        open_at = [k for k, d in enumerate(mine) if d is not None and d["way"] is not None]
        if not open_at:
            out["~never a way out"] += 1
            continue
        d = mine[open_at[-1]]
        assert d is not None
        flag = "flagged" if d["pocket"] else "not flagged"
        out[f"~{d['role']} {d['task']} vehicle {d['veh']}, {d['where']}, {flag}"] += 1
        # the last run of flagged step 6s (up to the last one of the stand's)
        end = max(k for k, d in enumerate(mine) if d is not None)
        k = end
        while k >= 0 and mine[k] is not None and mine[k]["pocket"]:  # type: ignore[index]
            k -= 1
        first = k + 1
        if first > end:
            out["~~not flagged at its last step 6"] += 1
            continue
        f = mine[first]
        assert f is not None
        turns = "no way" if f["way"] is None else f"{-(-f['way'] // walk)} turn(s)"
        ways = sum(1 for j in range(first, end + 1) if mine[j]["way"] is not None)  # type: ignore[index]
        out[
            f"~~nearest haven or entry {turns}; a way open at {min(ways, 6)} flagged step 6(s)"
        ] += 1
    out["GAMES"] += len(job[1])
    return out


def main() -> None:
    a = example_games.parser(games=20, workers=2).parse_args()
    for name, sc, parts in example_games.play_examples(a, play):
        total: Counter[str] = sum(parts, Counter())
        n = a.games
        print(f"## {name}: {n} games x {sc.turns} turns, stands lost idle or refilling per game")
        print(f"  {total['ALL'] / n:6.2f}  stands lost in all")
        print(f"  {total['LOST'] / n:6.2f}  ... idle or refilling at their last step 6")
        rows = sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))
        for prefix, title in (
            ("~", "at the last step 6 with a way to a haven or an entry"),
            ("~~", "at the first step 6 of its last run flagged by the pocket forecast"),
        ):
            print(f"### {title}")
            for k, v in rows:
                if k.startswith(prefix) and not k.startswith(prefix + "~"):
                    print(f"  {v / n:6.2f}  {k[len(prefix) :]}")


if __name__ == "__main__":
    main()
