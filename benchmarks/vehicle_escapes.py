"""Could the vehicles the autopilot loses have been kept? (issue 15, round 6.)

Plays N games of each example. At the end of every turn it looks, for every vehicle in
play, at the streets it could drive to (``reach.road_routes``: a vehicle drives any
distance along open streets in one move) and asks whether one of them was *safe* for the
next step 1: no chance to catch by a spread or a jump (``parking.street_risk`` is 0);
and, stricter, *out of reach*: also two spreads or more from any fire and no fire of 4 a
jump away (``street_threat`` >= 2, no ``jump_chances`` entry). For each vehicle burned
out (R-10) it prints those answers for the end of the turn before (the vehicle moves in
step 6, the fire spreads in the next step 1), and 2 and 3 turns before, with what the
vehicle was doing (free, at work with lines out, crewless, stowing).

Run: ``nice .venv/bin/python benchmarks/vehicle_escapes.py --dir benchmarks/baseline_examples
[--games N] [--workers 2] [--only NAME ...]``
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import example_games

from fireground.engine.board.model import AreaKind
from fireground.engine.core.turn import TurnContext
from fireground.engine.games.blitz.autopilot.parking import (
    engaged,
    jump_chances,
    street_risk,
    street_threat,
)
from fireground.engine.games.blitz.autopilot.safety import haven_areas
from fireground.engine.games.blitz.reach import danger
from fireground.engine.games.blitz.rules import reach
from fireground.engine.games.blitz.state import GameState
from fireground.engine.games.blitz.units import VEHICLE, UnitState, crew_of
from fireground.engine.play.simulate import Game

#: a turn's answer for one vehicle: (its own street's risk, a safe street in reach, an
#: out-of-reach street in reach, a haven in reach, what it was doing)
Look = tuple[float, bool, bool, bool, str, int, bool, int, bool, bool, str]


def _doing(game: Game, u: UnitState) -> str:
    state: GameState = game.state
    if u.task in ("stow", "deploy"):
        return str(u.task)
    crews = crew_of(state.units, u.id)
    if u.role == "appliance":
        if not crews:
            return "appliance, crews lost"
        if any(h.unit == u.id or h.stock == u.id for h in state.hoses.values()):
            return "appliance, lines out"
        return "appliance, busy crews" if engaged(state, u) else "appliance, free"
    if u.role == "pump":
        busy = any(h.unit == u.id for h in state.hoses.values())
        return f"pump, {'line' if busy else 'no line'}, {'deployed' if u.deployed else 'packed'}"
    if u.type == "hose_laying_lorry":
        line = next((h for h in state.hoses.values() if h.stock == u.id), None)
        if line is None:
            away = any(c.loc != u.loc for c in crews)
            return f"lorry, no line{', crew away' if away else ''}"
        return "lorry, " + (
            "laying" if line.plan else "making up" if line.recover_left else "line laid"
        )
    if u.type == "mobile_dam_unit":
        return "dam, " + ("deployed" if u.deployed else "packed")
    return f"{u.role} ({u.type})"


def _cut_by(ctx: TurnContext, state: GameState, start: str) -> str:
    """What cuts ``start`` off from every street with no chance to catch: the roads that
    would open one if they were clear (rubble, craters, streets on fire), as a label."""
    fire = {a for (a, lvl) in state.fire if lvl == 0}
    parts = {"rubble": set(state.rubble), "craters": set(state.craters), "fire": fire}
    out = []
    for name in parts:
        blocked = set().union(*(v for k, v in parts.items() if k != name))
        routes = reach.road_routes(ctx, state, start, blocked)
        if any(street_risk(ctx, state, a) == 0 for a in routes if a not in parts[name]):
            out.append(name)
    return " or ".join(out) if out else "several together"


def _look(game: Game) -> dict[str, Look]:
    ctx, state = game.ctx, game.state
    havens = haven_areas(ctx)
    out: dict[str, Look] = {}
    streets = [
        a.id for a in ctx.scenario.areas if a.kind in (AreaKind.STREET, AreaKind.OPEN)
        and (a.id, 0) not in state.fire and a.id not in state.rubble
    ]  # fmt: skip
    anywhere = any(street_risk(ctx, state, a) == 0 for a in streets)
    for uid in sorted(state.units):
        u = state.units[uid]
        if u.kind != VEHICLE or not u.in_play or u.loc is None or u.towed_by is not None:
            continue
        routes = reach.road_routes(ctx, state, u.loc[0])
        jumps = jump_chances(ctx, state)
        safe = [a for a in routes if street_risk(ctx, state, a) == 0]
        far = [a for a in safe if street_threat(ctx, state, a) >= 2 and a not in jumps]
        out[uid] = (
            street_risk(ctx, state, u.loc[0]),
            bool(safe),
            bool(far),
            any(a in havens for a in safe),
            _doing(game, u),
            street_threat(ctx, state, u.loc[0]),
            jumps.get(u.loc[0], (0.0, False))[1],
            danger.heat(ctx, state, u.loc),
            jumps.get(u.loc[0], (0.0, False))[0] > 0,
            anywhere,
            _cut_by(ctx, state, u.loc[0]) if not safe and anywhere else "",
        )
    return out


def _band(risk: float) -> str:
    return "0" if risk == 0 else "<0.05" if risk < 0.05 else "<0.15" if risk < 0.15 else ">=0.15"


def play(job: tuple[Path, list[int], int]) -> Counter[str]:
    turns = job[2]
    out: Counter[str] = Counter()
    for game in example_games.games(job):
        history: list[dict[str, Look]] = []
        for _ in range(turns):
            game.step()
            for uid, u in game.state.units.items():
                if u.status != "burned_out" or not history or uid not in history[-1]:
                    continue
                if any(uid in h and h[uid][4] == "gone" for h in history[-1:]):
                    continue
                risk, safe, far, haven, doing = history[-1][uid][:5]
                out["burned out"] += 1
                out[f"  by type: {u.type}"] += 1
                out[f"  doing (turn before): {doing}"] += 1
                own = _band(risk)
                out[f"  own street's risk (turn before): {own}"] += 1
                out[f"  safe street in reach, 1 turn before: {safe}"] += 1
                out[f"  out-of-reach street in reach, 1 turn before: {far}"] += 1
                out[f"  safe haven in reach, 1 turn before: {haven}"] += 1
                for back in (2, 3):
                    if len(history) >= back and uid in history[-back]:
                        h = history[-back][uid]
                        out[f"  safe street in reach, {back} turns before: {h[1]}"] += 1
                        out[f"  out-of-reach street in reach, {back} turns before: {h[2]}"] += 1
                if risk == 0 and safe:
                    out["  avoidable? own street safe the turn before (a fire grown, a wreck)"] += 1
                elif safe:
                    out[f"  avoidable? at risk, a safe street in reach: {doing}"] += 1
                    out[f"  avoidable, by type: {u.type}, {doing}"] += 1
                    if doing.startswith("appliance"):
                        h1 = history[-1][uid]
                        out[
                            f"  avoidable appliance: risk {_band(risk)}, heat {h1[7]}, jump {h1[8]}"
                        ] += 1
                    if len(history) >= 2 and uid in history[-2]:
                        h2 = history[-2][uid]
                        out[f"  avoidable, 2 turns before: {h2[4]}, risk {_band(h2[0])}"] += 1
                        out[
                            f"  avoidable, 2 turns before: {h2[4]}, threat {h2[5]}, jump soon {h2[6]}"
                        ] += 1
                else:
                    out["  avoidable? no safe street in reach the turn before"] += 1
                    cut = "cut off from one" if history[-1][uid][9] else "none on the map"
                    out[f"  no safe street in reach the turn before: {cut}"] += 1
                    if history[-1][uid][10]:
                        out[f"  cut off by: {history[-1][uid][10]}"] += 1
            look = _look(game)
            for uid, u in game.state.units.items():
                if u.status == "burned_out" and history and uid in history[-1]:
                    look[uid] = (0.0, False, False, False, "gone", 0, False, 0, False, False, "")
            history.append(look)
        out["GAMES"] += 1
    return out


def main() -> None:
    ap = example_games.parser(games=40)
    a = ap.parse_args()
    for name, sc, parts in example_games.play_examples(a, play):
        total: Counter[str] = sum(parts, Counter())
        n = a.games
        print(f"## {name}: {n} games x {sc.turns} turns, vehicles burned out per game")
        example_games.print_per_game(total, n, key=lambda kv: (kv[0].split(":")[0], -kv[1], kv[0]))


if __name__ == "__main__":
    main()
