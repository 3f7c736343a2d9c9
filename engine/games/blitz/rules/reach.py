"""Where units can go and what they can reach: heat, foot paths, roads, stream range.

Shared by the movement step, the orders API and the autopilot. Every search is local (a
Dijkstra bounded by movement points, a BFS bounded by range), so the work follows the units
and not the size of the map.

Stream range and road routes live here; the heat and danger of a location in
``reach/danger.py``, the foot links and search in ``reach/foot.py``.
"""

from __future__ import annotations

from collections import deque
from typing import Final

from ....board.model import AreaKind, Location
from ....core.turn import TurnContext
from ..memos import AREA_DIST, BLOCKED_MEMO, IN_RANGE, ROAD_ADJ, ROUTE_MEMO
from ..reach.danger import (
    area_kind,
    area_neighbours,
)
from ..state import GameState

# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_KIND_WATER: Final = AreaKind.WATER


# -- range ----------------------------------------------------------------------------------
def area_distances(ctx: TurnContext, area: str, limit: int) -> dict[str, int]:
    """Areas within ``limit`` steps of adjacency from ``area`` (cached for the game)."""
    cache: dict[tuple[str, int], dict[str, int]] | None = ctx.cache.get(AREA_DIST)
    if cache is None:
        cache = ctx.cache[AREA_DIST] = {}
    hit = cache.get((area, limit))
    if hit is not None:
        return hit
    dist = {area: 0}
    q = deque([area])
    while q:
        a = q.popleft()
        if dist[a] >= limit:
            continue
        for nb in area_neighbours(ctx, a):
            if nb not in dist:
                dist[nb] = dist[a] + 1
                q.append(nb)
    cache[(area, limit)] = dist
    return dist


def stream_range(ctx: TurnContext, branch: Location, target: Location) -> int | None:
    """§9 range from a branch to a target: areas apart plus levels apart (None: too far)."""
    limit = ctx.rules.int("firefighting.max_range")
    d = area_distances(ctx, branch[0], limit).get(target[0])
    if d is None:
        return None
    total = d + abs(branch[1] - target[1])
    return total if total <= limit else None


def in_range(ctx: TurnContext, branch: Location) -> list[tuple[Location, int]]:
    """Every location a stream from ``branch`` can reach, with its range (sorted; kept for
    the game, do not mutate)."""
    memo: dict[Location, list[tuple[Location, int]]] | None = ctx.cache.get(IN_RANGE)
    if memo is None:
        memo = ctx.cache[IN_RANGE] = {}
    hit = memo.get(branch)
    if hit is None:
        hit = memo[branch] = _in_range(ctx, branch)
    return hit


def _in_range(ctx: TurnContext, branch: Location) -> list[tuple[Location, int]]:
    limit = ctx.rules.int("firefighting.max_range")
    out: list[tuple[Location, int]] = []
    for area, d in area_distances(ctx, branch[0], limit).items():
        for lvl in ctx.scenario.levels_of(area):
            total = d + abs(branch[1] - lvl)
            if total <= limit and area_kind(ctx, area) is not _KIND_WATER:
                out.append(((area, lvl), total))
    return sorted(out)


# -- roads ----------------------------------------------------------------------------------
def road_blocked(ctx: TurnContext, state: GameState) -> set[str]:
    """Street areas a vehicle cannot drive through: rubble, craters, fire (in step 6,
    where none of them changes, worked out once: do not mutate)."""
    memo: dict[str, dict[str, list[str]]] | None = ctx.cache.get(ROUTE_MEMO)
    hit: set[str] | None = ctx.cache.get(BLOCKED_MEMO) if memo is not None else None
    if hit is not None:
        return hit
    blocked = set(state.rubble) | set(state.craters)
    blocked |= {a for (a, lvl) in state.fire if lvl == 0}
    if memo is not None:
        ctx.cache[BLOCKED_MEMO] = blocked
    return blocked


def road_routes(
    ctx: TurnContext, state: GameState, start: str, blocked: set[str] | None = None
) -> dict[str, list[str]]:
    """Every street reachable from ``start`` with the route (BFS, sorted ids)."""
    memo: dict[str, dict[str, list[str]]] | None = None
    if blocked is None:
        # in step 6 nothing that blocks a road changes: one search per start area
        memo = ctx.cache.get(ROUTE_MEMO)
        if memo is not None and start in memo:
            hit: dict[str, list[str]] = memo[start]
            return hit
        blocked = road_blocked(ctx, state)
    adj = road_adjacency(ctx)
    if start not in adj:
        return {}
    routes: dict[str, list[str]] = {start: [start]}
    q = deque([start])
    while q:
        a = q.popleft()
        for nb in adj[a]:
            if nb not in routes and nb not in blocked:
                routes[nb] = [*routes[a], nb]
                q.append(nb)
    if memo is not None:
        memo[start] = routes
    return routes


def road_reach(ctx: TurnContext, start: str, blocked: set[str]) -> set[str]:
    """The streets :func:`road_routes` reaches from ``start`` around ``blocked`` (its keys),
    without making the routes."""
    adj = road_adjacency(ctx)
    if start not in adj:
        return set()
    seen = {start}
    todo = [start]
    while todo:
        for nb in adj[todo.pop()]:
            if nb not in seen and nb not in blocked:
                seen.add(nb)
                todo.append(nb)
    return seen


def road_adjacency(ctx: TurnContext) -> dict[str, list[str]]:
    """Street area -> its street neighbours, sorted (kept for the game)."""
    hit: dict[str, list[str]] | None = ctx.cache.get(ROAD_ADJ)
    if hit is None:
        hit = ctx.cache[ROAD_ADJ] = ctx.graph.street_neighbours()
    return hit
