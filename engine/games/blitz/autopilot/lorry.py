"""Standing orders of the hose-laying lorry (issue 15): long street runs from water.

A free lorry looks for a pump that has water other than its tank (a hydrant, open water or
a dam) and a delivery to spare, and for a fire that no two lines play on yet within range
of an empty street that a line from that pump can reach along open street with the lorry's
lengths, at least ``policy.lorry_min_areas`` areas long (shorter runs are the fire teams'
work). It drives to the pump, lays the line at 6 areas a turn (:mod:`..rules.lorry`), and
its fire team plays from the far end, taking the next fire in range when one is out. With
nothing left in range, or the water gone, the team takes the line up (two turns a length)
and the lorry fetches its team at the pump's end. Once the line is laid the lorry itself
draws back from the fire (a parked vehicle makes its street flammable, R-10).
"""

from __future__ import annotations

from collections import deque
from itertools import compress
from typing import Any, Final

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..memos import LORRY_WAYS
from ..reach import danger
from ..rules import acting, hoses, reach
from ..rules import movement as mv
from ..rules.hoses import path_lengths, pump_capacity
from ..rules.lorry import lays_areas, lorry_problem, start_lorry_line, street_path
from ..state import GameState
from ..units import STAND, HoseLine, UnitState, crew_of
from .parking import shelter, street_risk, street_threat
from .priorities import coverage, fire_priority, policy

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_KIND_OPEN: Final = AreaKind.OPEN
_KIND_STREET: Final = AreaKind.STREET


def lorry_orders(ctx: TurnContext, state: GameState, u: UnitState, pri: set[Location]) -> None:
    """One turn of the lorry's standing orders."""
    if u.loc is None or lays_areas(ctx, u) <= 0:
        return
    crews = crew_of(state.units, u.id)
    first = min((k for k, h in state.hoses.items() if h.stock == u.id), default=None)
    line = None if first is None else state.hoses[first]
    if line is not None:
        _work_line(ctx, state, u, line, crews, pri)
        return
    away = [s for s in crews if s.loc != u.loc]
    if away:  # its team took the line up at the pump's end: fetch it
        routes = reach.road_routes(ctx, state, u.loc[0])
        there = away[0].loc
        if there is not None and there[0] in routes and not acting.acted(state, u):
            mv.drive(ctx, state, u, there[0])
        for s in crews:
            if s.loc == u.loc:
                s.task = "aboard"
        return
    if not state.fire or acting.acted(state, u):
        return
    run = _plan_run(ctx, state, u, pri)
    if run is None:
        return
    pump, path, target = run
    if u.loc != path[0]:
        for s in crews:
            s.task = "aboard"
        mv.drive(ctx, state, u, path[0][0])
        return
    if lorry_problem(ctx, state, u, pump, path, target) is None:
        start_lorry_line(ctx, state, u, pump, path, target)


def _plan_run(
    ctx: TurnContext, state: GameState, u: UnitState, pri: set[Location]
) -> tuple[UnitState, list[Location], Location] | None:
    """(pump, street path from it, target) for the best run, or None."""
    assert u.loc is not None
    routes = reach.road_routes(ctx, state, u.loc[0])
    shortest = int(policy(ctx, "lorry_min_areas"))
    per = ctx.rules.int("hose.steps_per_length")
    most = per * min(u.hose_left, ctx.rules.int("hose.max_lengths"))
    cov = coverage(state)
    end_risk = policy(ctx, "lorry_end_chance")
    best: tuple[tuple[float, ...], UnitState, list[Location], Location] | None = None
    # the fires in range of a run's end (at range 1 or more, in ``in_range`` order): runs
    # from several pumps end in the same streets, and fire does not change in this call
    fires_near: dict[str, list[tuple[Location, int]]] = {}
    fire_has = state.fire.__contains__
    # the runs from a street (pumps in one street share them: fire, rubble and craters do
    # not change in this call)
    runs: dict[tuple[str, int], _Runs] = {}
    for pid in state.unit_ids():
        p = state.units[pid]
        if (
            not p.in_play or p.kind == STAND or p.loc is None or p.pumps <= 0 or not p.deployed
            or p.source is None or p.loc[0] not in routes or pump_capacity(state, p) <= 0
        ):  # fmt: skip
            continue
        if (p.source or "").startswith("hydrant:"):
            most_here = most - per * ctx.rules.int("hose.hydrant_lengths")
        else:
            most_here = most
        from_here = runs.get((p.loc[0], most_here))
        if from_here is None:
            from_here = runs[(p.loc[0], most_here)] = _street_runs(
                ctx, state, p.loc[0], most_here, shortest
            )
        ends, prev = from_here
        for end, depth in ends:
            # the fires in reach first: a run with none is out whatever its end's risk
            # (both are fixed for the call, so which is asked first changes no answer)
            near = fires_near.get(end)
            if near is None:  # (in_range's order, the burning ones picked at C speed)
                targets, pairs = _end_range(ctx, end)
                near = fires_near[end] = list(compress(pairs, map(fire_has, targets)))
            if not near or street_risk(ctx, state, end) >= end_risk:
                continue  # the lorry ends its run there: not where the fire may reach it
            locs: list[Location] | None = None
            size = float(depth + 1)  # the run's areas, its start's included
            for t, rng in near:
                key = (
                    float(cov.get(t, 0) >= 2),
                    float(fire_priority(ctx, state, t, pri)),
                    float(rng),
                    size,
                )
                if best is not None and key > best[0]:
                    continue  # the key decides first: this run cannot win
                if locs is None:
                    locs = [(a, 0) for a in _run_path(prev, end)]
                if best is None or (key, p.id, locs, t) < (best[0], best[1].id, best[2], best[3]):
                    best = (key, p, locs, t)
    if best is None:
        return None
    _, pump, locs, target = best
    if street_path(ctx, state, locs) is not None or path_lengths(ctx, locs) > u.hose_left:
        return None
    return pump, locs, target


#: the runs of :func:`_street_runs`: (each run's end and its depth, ends in id order; the
#: previous area of each area reached, None at the start)
_Runs = tuple[list[tuple[str, int]], dict[str, str | None]]


def _street_runs(
    ctx: TurnContext, state: GameState, start: str, most: int, least: int = 0
) -> _Runs:
    """Shortest runs along open street from ``start`` (breadth first, by id), one to each
    street or open area from ``least`` to ``most`` areas away that is empty of rubble,
    craters and fire: their ends (in id order) with their depths, and the previous area of
    each area reached, from which :func:`_run_path` makes a run's path."""
    if most <= 0:
        return [], {}
    ways = _street_ways(ctx)
    rubble, craters, fire = state.rubble, state.craters, state.fire
    prev: dict[str, str | None] = {start: None}
    depth = {start: 0}
    q = deque([start])
    while q:
        a = q.popleft()
        d = depth[a]
        if d >= most:
            continue
        for b in ways.get(a, ()):
            if b in prev or b in rubble or b in craters or (b, 0) in fire:
                continue
            prev[b] = a
            depth[b] = d + 1
            q.append(b)
    # (a run's length is its end's depth: shorter ones are left out). The lorry ends its
    # run where the line ends, and it drives along streets only (§7, reach.road_routes):
    # a run ending in an open area would leave it there for the rest of the game, with
    # no road out when the fire comes, so a run ends in a street
    kinds = danger.area_kinds(ctx)
    street = _KIND_STREET
    return [
        (end, depth[end])
        for end in sorted(prev)
        if depth[end] >= least and kinds.get(end) is street
    ], prev


def _run_path(prev: dict[str, str | None], end: str) -> list[str]:
    """The run to ``end`` (from its start) in :func:`_street_runs`' previous areas."""
    path = [end]
    back = prev[end]
    while back is not None:
        path.append(back)
        back = prev[back]
    path.reverse()
    return path


def _end_range(
    ctx: TurnContext, end: str
) -> tuple[tuple[Location, ...], tuple[tuple[Location, int], ...]]:
    """The locations a stream from a run's end (``end``, level 0) reaches at range 1 or
    more, and the same with their ranges (:func:`.reach.in_range`'s order), for the game."""
    memo: dict[str, dict[str, Any]] = ctx.cache.setdefault(LORRY_WAYS, {})
    ends = memo.get("ends")
    if ends is None:
        ends = memo["ends"] = {}
    hit = ends.get(end)
    if hit is None:
        pairs = tuple((t, rng) for t, rng in reach.in_range(ctx, (end, 0)) if rng >= 1)
        hit = ends[end] = (tuple(t for t, _ in pairs), pairs)
    return hit


def _street_ways(ctx: TurnContext) -> dict[str, list[str]]:
    """For each area, the streets and open areas next to it (in
    :func:`.danger.area_neighbours` order), for the game: the map's part of a run's step."""
    memo: dict[str, Any] = ctx.cache.setdefault(LORRY_WAYS, {})
    hit: dict[str, list[str]] | None = memo.get("ways")
    if hit is None:
        kinds = danger.area_kinds(ctx)
        open_kinds = (_KIND_STREET, _KIND_OPEN)
        hit = memo["ways"] = {
            a.id: [b for b in danger.area_neighbours(ctx, a.id) if kinds.get(b) in open_kinds]
            for a in ctx.scenario.areas
        }
    return hit


def _work_line(
    ctx: TurnContext,
    state: GameState,
    u: UnitState,
    h: HoseLine,
    crews: list[UnitState],
    pri: set[Location],
) -> None:
    """The lorry's team on its line; the lorry keeps clear of the fire once it is laid.

    Once the line is laid nothing needs the lorry at its far end: the team plays from
    there, and a line made up (two turns a length, §7) leaves the team and the lengths at
    the pump's end, where the lorry fetches them. So while its line is out (played or
    being made up) the lorry waits in the least exposed street it can reach
    (:func:`.parking.shelter`), and else draws back from a street that may catch."""
    if h.plan:
        return
    if h.recover_left:
        _keep_clear(ctx, state, u)
        return
    pump = state.units.get(h.unit)
    dry = pump is None or not pump.in_play or (pump.source is None and pump.water <= 0)
    team = [s for s in crews if s.hose == h.id and s.order is None]
    if h.cut or dry:
        hoses.recover_hose(ctx, state, h)
    elif h.target is None or h.target not in state.fire:
        fires = [(t, r) for t, r in reach.in_range(ctx, h.branch) if r >= 1 and t in state.fire]
        if fires:
            h.target = min(fires, key=lambda tr: (fire_priority(ctx, state, tr[0], pri), tr))[0]
            for s in team:
                s.task = "fight"
        else:
            hoses.recover_hose(ctx, state, h)
    _keep_clear(ctx, state, u)


def _keep_clear(ctx: TurnContext, state: GameState, u: UnitState) -> None:
    """The lorry, its line laid, waits away from the fire (:func:`_work_line`)."""
    if u.loc is None or acting.acted(state, u):
        return
    if shelter(ctx, state, u, crew=False):  # its team stays on its line
        return
    risk = street_risk(ctx, state, u.loc[0])
    if danger.heat(ctx, state, u.loc) > 0 or risk > 0:
        routes = reach.road_routes(ctx, state, u.loc[0])
        cool = [a for a in routes if danger.heat(ctx, state, (a, 0)) == 0
                and street_risk(ctx, state, a) < risk + (danger.heat(ctx, state, u.loc) > 0)]  # fmt: skip
        if cool:
            mv.drive(ctx, state, u, min(cool, key=lambda a: (
                street_risk(ctx, state, a) > 0, street_threat(ctx, state, a) < 2,
                len(routes[a]), a)))  # fmt: skip
