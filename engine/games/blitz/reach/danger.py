"""Heat and danger of a location (§4, R-7), with the map lookups they and the foot search
share (neighbours, area kinds, water and hydrants), remembered for the game."""

from __future__ import annotations

from typing import Any, Final

from ....board.model import AreaKind, FeatureType, Location
from ....core.memo import Memo
from ....core.turn import TurnContext
from ..events import Heat
from ..memos import (
    AREA_KINDS,
    AREA_NEIGHBOURS,
    HEAT_MEMO,
    HYDRANT_AREAS,
    MAP_TUPLES,
    NEIGHBOURS,
    NEIGHBOURS_OF,
    UNSAFE_LIMITS,
    UNSAFE_MEMO,
    WATER_AREAS,
    WATER_KIND_AREAS,
)
from ..state import GameState
from ..units import UnitState

#: a location kept as the object it is (see :data:`.foot.Boxed`): compiled, a value typed
#: ``Location`` is made a new tuple at each dict look-up
Boxed = Any


# Compiled, ``AreaKind.WATER`` is two look-ups by name (the class in the module's
# globals, then the member) at every read; a Final is read from a C global.
_FEATURE_HYDRANT: Final = FeatureType.HYDRANT
_FEATURE_WATER: Final = FeatureType.WATER
_KIND_WATER: Final = AreaKind.WATER


# -- fire, heat and danger ------------------------------------------------------------------
def map_tuples(ctx: TurnContext) -> dict[Any, Any]:
    """Each location of the map to itself as the map's own tuple (the objects its list
    holds), kept for the game (do not mutate). Equal tuples, so nothing changes but speed:
    :func:`.ignition.ignite` keys a fire by the map's tuple, and a set or dict look-up by the
    same object (the quiet spread's index, the ranks, the neighbour lists below) matches it
    by identity, where an equal copy (each ``graph.neighbours`` list makes its own, and
    compiled code makes a new tuple whenever a location typed as a tuple is stored) is
    compared field by field."""
    memo: dict[Any, Any] | None = ctx.cache.get(MAP_TUPLES)
    if memo is None:
        memo = ctx.cache[MAP_TUPLES] = {}
    if not memo:  # (games sharing memos start from one empty dict)
        locs: list[Any] = ctx.graph.locations
        for loc in locs:
            memo[loc] = loc
    return memo


def neighbours(ctx: TurnContext, loc: Boxed) -> list[Boxed]:
    """``graph.neighbours``, remembered for the game (the map does not change in play;
    do not mutate the list). The lists (and the memo's keys) hold the map's own tuples
    (:func:`map_tuples`), so that a look-up by a neighbour in the fires, which are keyed
    by them too, matches by identity."""
    # (``get``, not ``setdefault``: a call that finds the memo makes no empty dict)
    memo: dict[Boxed, list[Boxed]] | None = ctx.cache.get(NEIGHBOURS)
    if memo is None:
        memo = ctx.cache[NEIGHBOURS] = {}
    hit = memo.get(loc)
    if hit is None:
        own = map_tuples(ctx)
        hit = [own.get(nb, nb) for nb in ctx.graph.neighbours(loc)]
        memo[own.get(loc, loc)] = hit
    return hit


def neighbours_of(ctx: TurnContext) -> dict[Location, list[Location]]:
    """For each location, the locations it is a neighbour of (:func:`neighbours` read
    backwards; every location with a neighbour is on the map's list), kept for the game
    (do not mutate)."""
    memo: dict[Boxed, list[Boxed]] = ctx.cache.setdefault(NEIGHBOURS_OF, {})
    if not memo:  # (games sharing memos start from one empty dict)
        locs: list[Boxed] = ctx.graph.locations
        for f in locs:
            for x in neighbours(ctx, f):
                memo.setdefault(x, []).append(f)
    return memo


def area_neighbours(ctx: TurnContext, area: str) -> list[str]:
    """``graph.area_neighbours``, remembered for the game (do not mutate the list)."""
    memo: dict[str, list[str]] | None = ctx.cache.get(AREA_NEIGHBOURS)
    if memo is None:
        memo = ctx.cache[AREA_NEIGHBOURS] = {}
    hit = memo.get(area)
    if hit is None:
        hit = memo[area] = ctx.graph.area_neighbours(area)
    return hit


def heat(ctx: TurnContext, state: GameState, loc: Location) -> int:
    """§4: the sum of the fires of every location next to ``loc``."""
    fire: dict[Boxed, int] = state.fire
    if not fire:
        return 0
    cache = ctx.cache
    at: Boxed = loc  # (made an object once, for every look-up below)
    memo: dict[Boxed, int] | None = cache.get(HEAT_MEMO)
    if memo is not None:
        hit = memo.get(at)
        if hit is not None:
            return hit
    nbs: dict[Boxed, list[Boxed]] | None = cache.get(NEIGHBOURS)  # neighbours, inline
    near = nbs.get(at) if nbs is not None else None
    if near is None:
        near = neighbours(ctx, loc)
    out = 0
    for nb in near:  # (compiled, a typed loop beats sum(map(fire.get, ...)))
        f = fire.get(nb)
        if f is not None:
            out += f
    if memo is not None:
        memo[at] = out
    return out


def heat_test(ctx: TurnContext, state: GameState, unit: UnitState, loc: Location) -> bool:
    """§4 heat test to enter (or stay in) ``loc``: 1d6 >= heat; <= 1 passes, >= 7 fails.

    Only a real roll is logged (rule ``heat``); the sure results need no die.
    """
    h = heat(ctx, state, loc)
    if h <= ctx.rules.int("heat.always_pass_max"):
        return True
    if h >= ctx.rules.int("heat.always_fail_min"):
        return False
    ok, _ = ctx.test(Heat, f">={h}", at=loc, unit=unit.id)
    return ok


def unsafe(ctx: TurnContext, state: GameState, loc: Location) -> bool:
    """R-7: heavy damage or worse here, or next to a fire of 5 in a heavy-damaged location
    (remembered through step 6, where neither fire nor damage changes)."""
    memo: dict[Boxed, bool] | None = ctx.cache.get(UNSAFE_MEMO)
    at: Boxed = loc  # (made an object once, for every look-up below)
    if memo is None:
        return _unsafe(ctx, state, at)
    hit = memo.get(at)
    if hit is None:
        hit = memo[at] = _unsafe(ctx, state, at)
    return hit


def _unsafe(ctx: TurnContext, state: GameState, loc: Boxed) -> bool:
    limits: tuple[int, int, int] | None = ctx.cache.get(UNSAFE_LIMITS)
    if limits is None:
        r = ctx.rules
        limits = ctx.cache[UNSAFE_LIMITS] = (
            r.int("movement.withdraw_damage"),
            r.int("movement.withdraw_fire"),
            r.int("movement.withdraw_fire_damage"),
        )
    worst, hot, bad = limits
    damage: dict[Boxed, int] = state.damage  # state.damage_at, inline
    if damage.get(loc, 1) >= worst:
        return True
    fire: dict[Boxed, int] = state.fire
    if not fire:
        return False
    nbs: dict[Boxed, list[Boxed]] | None = ctx.cache.get(NEIGHBOURS)  # inline
    near = nbs.get(loc) if nbs is not None else None
    if near is None:
        near = neighbours(ctx, loc)
    for nb in near:  # (a loop: any() over a generator costs more here)
        if fire.get(nb, 0) >= hot and damage.get(nb, 1) >= bad:
            break
    else:
        return False
    return True


def hydrant_areas(ctx: TurnContext) -> frozenset[str]:
    """Areas holding a hydrant (cached for the game)."""
    return _feature_areas(ctx, _FEATURE_HYDRANT, HYDRANT_AREAS)


def water_areas(ctx: TurnContext) -> frozenset[str]:
    """Areas holding an open-water source (cached for the game)."""
    return _feature_areas(ctx, _FEATURE_WATER, WATER_AREAS)


def _feature_areas(ctx: TurnContext, kind: FeatureType, key: Memo[Any]) -> frozenset[str]:
    hit: frozenset[str] | None = ctx.cache.get(key)  # a memo key: enums hash slowly
    if hit is None:
        hit = ctx.cache[key] = frozenset(f.area for f in ctx.scenario.features if f.type is kind)
    return hit


def water_area_set(ctx: TurnContext) -> frozenset[str]:
    """Areas of kind water (cached for the game)."""
    hit: frozenset[str] | None = ctx.cache.get(WATER_KIND_AREAS)
    if hit is None:
        hit = frozenset(a.id for a in ctx.scenario.areas if a.kind is _KIND_WATER)
        ctx.cache[WATER_KIND_AREAS] = hit
    return hit


def area_kind(ctx: TurnContext, area: str) -> AreaKind | None:
    kinds: dict[str, AreaKind] | None = ctx.cache.get(AREA_KINDS)
    if kinds is None:
        kinds = area_kinds(ctx)
    return kinds.get(area)


def area_kinds(ctx: TurnContext) -> dict[str, AreaKind]:
    """Each area's kind, for the game (read it, do not change it): for a loop asking
    :func:`area_kind` of many areas."""
    kinds: dict[str, AreaKind] | None = ctx.cache.get(AREA_KINDS)
    if kinds is None:
        kinds = ctx.cache[AREA_KINDS] = {a.id: a.kind for a in ctx.scenario.areas}
    return kinds
