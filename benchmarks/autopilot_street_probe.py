"""Who the stands lost to R-10 in a street are (issue 15, round 8): plays N games of each
example and, for every stand lost to R-10 (or rubble) that stood in a street or open
area at the step 6 before, prints what stood in that street (its own appliance, its
pump, another vehicle, nothing) and the stand's last three step 6s: task, the heat next
to it, the fire next to it that turn and whether the pocket forecast asked about it.

Run: ``.venv/bin/python benchmarks/autopilot_street_probe.py --dir
benchmarks/baseline_examples [--games N] [--only NAME ...] [--workers 2]``
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import example_games

from fireground.engine.board.model import AreaKind
from fireground.engine.core.turn import TurnContext
from fireground.engine.games.blitz.autopilot import safety
from fireground.engine.games.blitz.reach import danger
from fireground.engine.games.blitz.rules import movement
from fireground.engine.games.blitz.state import GameState, pump_of
from fireground.engine.games.blitz.units import STAND


def snapshot(ctx: TurnContext, state: GameState) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    entries = {(a, 0) for a in movement.entry_areas(ctx)}
    havens = set(safety.shelters(ctx, state)) if state.fire else set()
    for uid, u in state.units.items():
        if u.kind != STAND or not u.in_play or u.loc is None:
            continue
        home = state.units.get(u.parent) if u.parent is not None else None
        pump = pump_of(state, home) if home is not None and home.in_play else None
        here = [v for v in state.units.values() if v.kind != STAND and v.in_play and v.loc == u.loc]
        if home is not None and home in here:
            what = "own-appliance"
        elif pump is not None and pump in here:
            what = "own-pump"
        elif here:
            what = "other-vehicle:" + ",".join(sorted(v.role or "?" for v in here))
        else:
            what = "no-vehicle"
        if (u.loc[0], 0) in entries and u.loc[1] == 0:
            what = "entry+" + what
        elif u.loc in havens:
            what = "haven+" + what
        out[uid] = {
            "loc": u.loc,
            "what": what,
            "task": u.task,
            "role": u.role,
            "heat": danger.heat(ctx, state, u.loc),
            "street": danger.area_kind(ctx, u.loc[0]) is not AreaKind.BUILDING,
            "hvtask": home.task if home is not None and home.in_play else "-",
            "hose": u.hose is not None,
            "pk": (
                f"pkhere={int(safety.pocket(ctx, state, u.loc))}"
                f" pkpump={int(safety.pocket(ctx, state, pump.loc)) if pump is not None and pump.loc else '-'}"
                f" havens={len(havens)}"
            )
            if state.fire
            else "",
        }
    return out


def play(job: tuple[Path, list[int], int]) -> Counter[str]:
    out: Counter[str] = Counter()
    for _game, _log, uid, ev, _mine, snaps in example_games.stands_lost(job, snapshot):
        if ev is None:
            continue
        r10 = bool(getattr(ev, "ruling", None))
        cause = "R-10" if r10 else f"rubble-{ev.rule}"
        i = -2 if r10 or ev.step < 6 else -1
        if len(snaps) < -i or uid not in snaps[i] or not snaps[i][uid]["street"]:
            continue
        d = snaps[i][uid]
        since = 0  # step 6s it has stood there before
        for k in range(i - 1, -len(snaps) - 1, -1):
            if uid not in snaps[k] or snaps[k][uid]["loc"] != d["loc"]:
                break
            since += 1
        first = snaps[i - since][uid] if since else d
        hist = [
            f"there {min(since, 5)} turns, first h{min(first['heat'], 7)} {first['task']} {first['pk']}"
        ]
        for k in (i - 1, i - 2):
            if len(snaps) >= -k and uid in snaps[k]:
                b = snaps[k][uid]
                hist.append(f"{b['task']}/{b['what'].split(':')[0]}/h{min(b['heat'], 7)}")
        out[f"{cause:14s} {d['role']:9s} {d['task']:6s} {d['what']:28s} veh={d['hvtask']}"] += 1
        out[
            f"~{cause:14s} {d['task']:6s} {d['what'].split(':')[0]:20s} h{min(d['heat'], 7)} <- {' <- '.join(hist)}"
        ] += 1
    out["GAMES"] += len(job[1])
    return out


def main() -> None:
    ap = example_games.parser(games=20, workers=2)
    a = ap.parse_args()
    for name, _sc, parts in example_games.play_examples(a, play):
        total: Counter[str] = sum(parts, Counter())
        n = a.games
        print(f"## {name}: {n} games, stands lost in a street per game")
        rows = sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))
        for k, v in rows:
            if not k.startswith("~") and k != "GAMES":
                print(f"  {v / n:6.2f}  {k}")
        print("### with their last step 6s")
        for k, v in rows[:60]:
            if k.startswith("~"):
                print(f"  {v / n:6.2f}  {k[1:]}")


if __name__ == "__main__":
    main()
