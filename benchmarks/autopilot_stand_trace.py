"""Why stands are lost where they are (issue 15, round 6): plays N logged games of each
example and, for every stand lost to a collapse's rubble (``trapped``/``escape``) or to
R-10, looks at where it stood at the end of the step 6 that put it there (the same turn's
step 6 for rubble in step 7; the turn before for R-10, which is played in step 6 after
the spread of step 1; for rubble of an HE hit in step 5, the turn before too): its role and
task, the kind of place, the fire next to it, whether it was in a collapse's way
(``safety.collapse_zone``) or ``exposed``, whether its vehicle was still in play, and
whether a haven (``safety.shelters``) or a place that cannot burn out of any collapse's
way lay within a turn's walk. And for rubble: how damaged the building that came down
was at that step 6 (was the collapse foreseen?).

Run: ``.venv/bin/python benchmarks/autopilot_stand_trace.py --dir
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
from fireground.engine.games.blitz.reach import danger, foot
from fireground.engine.games.blitz.rules import ignition, movement
from fireground.engine.games.blitz.state import GameState
from fireground.engine.games.blitz.units import STAND

SECTIONS = (
    ("~", "cause, task and place at the step 6 that put them there"),
    ("~~", "cause; in a collapse's way, exposed, a safe place within a turn's walk"),
    ("~~~", "rubble: the damage of the building that came down, at that step 6"),
    ("~~~~~", "the last step 6 at which they could walk anywhere (pocket: no way out then)"),
    ("~~~~~~", "the last step 6 at which a way out (haven, entry, own vehicle) was open"),
    ("~~~~", "the last step 6 at which they could walk anywhere, in full"),
)


def snapshot(ctx: TurnContext, state: GameState) -> dict[str, dict[str, Any]]:
    """Each stand in play as step 6 leaves it."""
    out: dict[str, dict[str, Any]] = {}
    if not state.fire:
        return out
    havens = set(safety.shelters(ctx, state))
    walk = ctx.rules.int("movement.foot_points")
    for uid, u in state.units.items():
        if u.kind != STAND or not u.in_play or u.loc is None:
            continue
        loc = u.loc
        home = state.units.get(u.parent) if u.parent is not None else None
        kind = danger.area_kind(ctx, loc[0])
        where = "building" if kind is AreaKind.BUILDING else "street"
        if kind is AreaKind.BUILDING and loc[1] > 0:
            where += "-up"
        elif kind is not AreaKind.BUILDING:
            where += (
                "+veh"
                if any(v.loc == loc for v in state.units.values() if v.kind != STAND and v.in_play)
                else ""
            )
            where += "+rubble" if loc[0] in state.rubble else ""
        dist, _ = foot.foot_search(ctx, state, loc, walk)
        safe = [
            x for x in dist
            if x not in state.fire and not ignition.is_flammable(ctx, state, x)
            and not safety.collapse_zone(ctx, state, x)
        ]  # fmt: skip
        far, _ = foot.foot_search(ctx, state, loc, None)
        goals = set(havens) | {(a, 0) for a in movement.entry_areas(ctx)}
        if home is not None and home.in_play and home.loc is not None:
            goals.add(home.loc)
        out[uid] = {
            "way": "way" if any(x in far for x in goals) else "pocket",
            "role": u.role,
            "task": u.task,
            "where": where,
            "loc": loc,
            "heat": danger.heat(ctx, state, loc),
            "zone": safety.collapse_zone(ctx, state, loc),
            "exposed": safety.exposed(ctx, state, loc),
            "veh": (
                "veh-none"
                if home is None
                else "veh-lost"
                if not home.in_play
                else "veh-here"
                if home.loc == loc
                else "veh-away"
            ),
            "haven_map": bool(havens),
            "in_haven": loc in havens,
            "haven_1t": any(x in havens for x in dist),
            "safe_1t": bool(safe),
            "moves": len(dist) > 1,
            "hose": u.hose is not None,
            "damage": {x: state.damage_at(x) for x in state.damage},
        }
    return out


def play(job: tuple[Path, list[int], int]) -> Counter[str]:
    out: Counter[str] = Counter()
    for game, log, uid, ev, mine, snaps in example_games.stands_lost(job, snapshot):
        if ev is not None and getattr(ev, "ruling", None):
            heat = "+heat" if any(e.rule == "heat" for e in mine) else ""
            cause = f"{ev.ruling}{heat}"  # caught where the fire spread in
            snap_i = -2
        elif ev is not None:
            cause = f"rubble-{ev.rule}@{ev.step}"
            snap_i = -1 if ev.step >= 6 else -2
        else:
            cause = "other"
            snap_i = -2
        if len(snaps) < -snap_i or uid not in snaps[snap_i]:
            out[f"{cause} (no snapshot)"] += 1
            continue
        d = snaps[snap_i][uid]
        key = (
            f"{cause:18s} {d['role']:10s} {d['task']:6s} {d['where']:16s} {d['veh']:8s}"
            f" heat={min(d['heat'], 7)} zone={d['zone']:d} exp={d['exposed']:d}"
            f" haven={'in' if d['in_haven'] else ('1t' if d['haven_1t'] else ('far' if d['haven_map'] else 'none'))}"
            f" safe1t={d['safe_1t']:d} moves={d['moves']:d}"
        )
        out[key] += 1
        out[f"~{cause} task={d['task']} where={d['where'].split('+')[0]}"] += 1
        out[f"~~{cause} zone={d['zone']:d} exposed={d['exposed']:d} safe1t={d['safe_1t']:d}"] += 1
        # the last step 6 at which it could still walk somewhere
        back = next(
            (
                (k, sn[uid])
                for k, sn in enumerate(reversed(snaps[: len(snaps) + snap_i + 1]))
                if uid in sn and sn[uid]["moves"]
            ),
            None,
        )
        # the last step 6 at which a way out (to a haven, an entry or its vehicle) was open
        wayk = next(
            (
                (k, sn[uid])
                for k, sn in enumerate(reversed(snaps[: len(snaps) + snap_i + 1]))
                if uid in sn and sn[uid]["way"] == "way"
            ),
            None,
        )
        if wayk is not None:
            k, b = wayk
            out[
                f"~~~~~~last way out {min(k, 4)} turns before {cause.split('@')[0]}: {b['role']} {b['task']}"
                f" {b['where'].split('+')[0]} {b['veh']} heat={min(b['heat'], 4)} exp={b['exposed']:d} hose={b['hose']:d}"
            ] += 1
        else:
            out["~~~~~~never a way out"] += 1
        if back is None:
            out[f"~~~~{cause} stuck from the start"] += 1
        else:
            k, b = back
            hv = (
                "in"
                if b["in_haven"]
                else ("1t" if b["haven_1t"] else ("far" if b["haven_map"] else "none"))
            )
            out[
                f"~~~~~{b['way']} last free {min(k, 3)} before {cause.split('@')[0]} {b['task']} {b['where'].split('+')[0]} {b['veh']}"
            ] += 1
            out[
                f"~~~~{cause} last free {min(k, 3)} turns before: {b['role']} {b['task']} {b['where']}"
                f" heat={min(b['heat'], 7)} zone={b['zone']:d} exp={b['exposed']:d} haven={hv} safe1t={b['safe_1t']:d} {b['way']}"
            ] += 1
        if cause.startswith("rubble") and ev is not None and ev.step >= 6:
            # the building that came down: its damage at that step 6
            cols = [e for e in log.events if e.rule == "collapse" and e.step == 7]
            near = [
                e
                for e in cols
                if e.at is not None and d["loc"][0] in danger.area_neighbours(game.ctx, e.at[0])
            ]
            for e in near[:1]:
                dmg = max((v for k, v in d["damage"].items() if k[0] == e.at[0]), default=1)
                out[f"~~~rubble from a building damaged {dmg} at step 6 ({e.cause})"] += 1
    out["GAMES"] += len(job[1])
    return out


def main() -> None:
    ap = example_games.parser(games=20, workers=2)
    ap.add_argument("--top", type=int, default=0)
    a = ap.parse_args()
    for name, sc, parts in example_games.play_examples(a, play):
        total: Counter[str] = sum(parts, Counter())
        n = a.games
        print(f"## {name}: {n} games x {sc.turns} turns, stands lost per game")
        rows = sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))
        for prefix, title in SECTIONS:
            print(f"### {title}")
            for k, v in rows:
                if k.startswith(prefix) and not k.startswith(prefix + "~"):
                    print(f"  {v / n:6.2f}  {k[len(prefix) :]}")
        if a.top:
            print("### in full, at the step 6 that put them there")
            for k, v in rows[: a.top]:
                if not k.startswith("~") and k != "GAMES":
                    print(f"  {v / n:6.2f}  {k}")


if __name__ == "__main__":
    main()
