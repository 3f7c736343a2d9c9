"""What matters to the standing orders: the locations whose loss counts most, each fire's
priority and cover, the chances against a fire, and the memos kept for one call of the
standing orders (fire does not change in step 6)."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import Any

from ....board.model import AreaKind, FeatureType, Location
from ....core.turn import TurnContext
from ..memos import (
    AP_FIRES,
    AP_LOST,
    AP_LOST_MAP,
    AP_POLICY,
    AP_PRIO,
    AP_SMALL,
    AP_SOURCES,
    AP_VEHICLES,
    AUTOPILOT_PRIORITY_STATIC,
)
from ..reach import danger
from ..rules import ignition
from ..state import GameState
from ..units import VEHICLE


def vehicle_areas(ctx: TurnContext, state: GameState) -> set[str]:
    hit: set[str] | None = ctx.cache.get(AP_VEHICLES)
    if hit is None:
        hit = ignition.vehicle_areas(state)
        if AP_VEHICLES in ctx.cache:
            ctx.cache[AP_VEHICLES] = hit
    return hit


def priority_locations(ctx: TurnContext, state: GameState) -> set[Location]:
    """Locations whose loss matters most: stores, occupants, the living casualties lying
    there (buried or hurt, their fire must go out before rescue starts) and protected
    objectives."""
    key = AUTOPILOT_PRIORITY_STATIC
    static: set[Location] | None = ctx.cache.get(key)
    if static is None:
        static = set()
        sc = ctx.scenario
        for f in sc.features:
            if f.type is FeatureType.STORE:
                static.add((f.area, f.level or 0))
        protected = set()
        for o in sc.objectives:
            if o.type == "protect":
                if o.building is not None:
                    protected |= {a.id for a in sc.areas if a.building == o.building}
                elif o.area is not None:
                    protected.add(o.area)
        for a in protected:
            static |= {(a, lvl) for lvl in sc.levels_of(a)}
        ctx.cache[key] = static
    vehicles = {
        u.loc for u in state.units.values() if u.in_play and u.kind == VEHICLE and u.loc is not None
    }  # fires next to our own vehicles threaten them
    lying = {
        c.loc for c in state.casualties
        if not c.evacuated and c.carried_by is None and c.status != "dead"
    }  # fmt: skip  # the living lying hurt or buried: rescue starts once their fire is out
    return static | vehicles | lying | {loc for loc, n in state.occupants.items() if n > 0}


#: the priority of a fire a line saves nothing at (:func:`lost_cause`): after every other
LOST_CAUSE = 3


def fire_priority(ctx: TurnContext, state: GameState, fire: Location, pri: set[Location]) -> int:
    """0 when the fire is in or next to a location that matters, 2 for a fire in an empty
    street (it cannot grow and goes out by itself), else 1; :data:`LOST_CAUSE` (3) for a
    fire a line saves nothing at (:func:`lost_cause`, with ``policy.hold_back_fire`` on).
    Within one call of the standing orders (one ``pri`` throughout) the answer is
    remembered."""
    memo: dict[Location, int] | None = ctx.cache.get(AP_PRIO)
    if memo is not None:
        hit = memo.get(fire)
        if hit is None:
            hit = memo[fire] = _fire_priority(ctx, state, fire, pri)
        return hit
    return _fire_priority(ctx, state, fire, pri)


def _fire_priority(ctx: TurnContext, state: GameState, fire: Location, pri: set[Location]) -> int:
    if lost_cause(ctx, state, fire):
        return LOST_CAUSE
    if fire in pri or not pri.isdisjoint(danger.neighbours(ctx, fire)):
        return 0
    if fire in state.street_fire_age:
        return 2
    return 1


def policy(ctx: TurnContext, key: str) -> float:
    """A policy parameter of the autopilot (``policy.<key>`` in the ruleset), kept for the
    game."""
    memo: dict[str, float] | None = ctx.cache.get(AP_POLICY)
    if memo is None:
        memo = ctx.cache[AP_POLICY] = {}
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = float(ctx.rules[f"policy.{key}"])
    return hit


def lost_cause(ctx: TurnContext, state: GameState, fire: Location) -> bool:
    """A fire a line saves nothing at (round 10, ``policy.hold_back_fire``; 0: never): it
    burns at that level or more and every neighbour it could spread into is burning or
    destroyed (or cannot burn: §3 Roads). Putting it down a step stops no spread; the lines go where the spread can still be
    stopped, and to it only when there is nothing else. (One of :func:`lost_causes`.)"""
    least = policy(ctx, "hold_back_fire")
    if least <= 0 or state.fire.get(fire, 0) < least:
        return False
    return fire in lost_causes(ctx, state)


def lost_causes(ctx: TurnContext, state: GameState) -> AbstractSet[Location]:
    """Every fire that is a :func:`lost_cause`, found in one sweep; once a call of the
    standing orders (fire, damage and rubble do not change in step 6, and the streets a
    vehicle makes flammable are those of :func:`vehicle_areas`, fixed for the call when
    first asked; do not mutate)."""
    hit: AbstractSet[Location] | None = ctx.cache.get(AP_LOST)
    if hit is None:
        hit = _lost_causes(ctx, state)
        if AP_LOST in ctx.cache:
            ctx.cache[AP_LOST] = hit
    return hit


def _lost_causes(ctx: TurnContext, state: GameState) -> AbstractSet[Location]:
    least = policy(ctx, "hold_back_fire")
    fire = state.fire
    if least <= 0 or not fire:
        return frozenset()
    cands: AbstractSet[Location]
    every = least <= min(fire.values())
    if every:
        cands = fire.keys()  # every fire
    else:
        cands = {f for f, v in fire.items() if v >= least}
        if not cands:
            return frozenset()  # (no vehicle asked of: as when no fire is asked of)
    vehicles = vehicle_areas(ctx, state)
    gone = ctx.rules.int("damage.destroyed")
    damage = state.damage

    def catches(nb: Location) -> bool:
        """``nb`` could still catch: not burning, not destroyed, able to burn."""
        return (
            nb not in fire
            and damage.get(nb, 0) < gone
            and ignition.is_flammable(ctx, state, nb, vehicles)
        )

    near = danger.neighbours_of(ctx)
    # (round 22: the locations typed Any, as they come: compiled, a location typed as a
    # tuple is unpacked and a new tuple made for each lookup by it)
    nb: Any
    if 4 * len(cands) <= len(near) - len(fire):
        # few fires: each fire's neighbours, each neighbour asked once
        seen: dict[Location, bool] = {}
        few: set[Location] = set()
        for f in cands:
            for nb in danger.neighbours(ctx, f):
                c = seen.get(nb)
                if c is None:
                    c = seen[nb] = catches(nb)
                if c:
                    break
            else:
                few.add(f)
        return few
    # many fires: the map read backwards from each place not burning that could catch (a
    # building not destroyed; a street or open ground with rubble or a vehicle)
    buildings, grounds = _catch_map(ctx)
    saved: set[Location] = set()
    # (round 23: the set operations below take a set or a dict, whose entries carry their
    # hashes, not a dict's keys view, which hashes every location tuple anew)
    for nb in buildings.difference(fire):
        if damage.get(nb, 0) < gone:
            saved.update(near[nb])
    for area in state.rubble | vehicles:
        for nb in grounds.get(area, ()):
            if nb not in fire and damage.get(nb, 0) < gone:
                saved.update(near[nb])
    out: set[Location] = set(fire) if every else set(cands)
    out -= saved
    # a fire off the map (nobody lists it) is judged alone: only those left in ``out``
    # can change the answer (a set against the map's dict: the set's stored hashes)
    for f in out.difference(ctx.graph.index):
        if any(catches(nb) for nb in danger.neighbours(ctx, f)):
            out.discard(f)
    return out


def _catch_map(
    ctx: TurnContext,
) -> tuple[frozenset[Location], dict[str, list[Location]]]:
    """Of the locations some map location is next to (:func:`.danger.neighbours_of`):
    those in buildings (they can always burn, §1), and by area those in streets and open
    ground (they burn with rubble or a vehicle, §3 Roads); water never burns. Kept for
    the game (the map's alone: shared)."""
    memo: dict[str, tuple[frozenset[Location], dict[str, list[Location]]]] = ctx.cache.setdefault(
        AP_LOST_MAP, {}
    )
    hit = memo.get("map")
    if hit is None:
        kinds = danger.area_kinds(ctx)
        buildings: set[Location] = set()
        grounds: dict[str, list[Location]] = {}
        for loc in danger.neighbours_of(ctx):
            kind = kinds.get(loc[0])
            if kind is AreaKind.BUILDING:
                buildings.add(loc)
            elif kind is AreaKind.STREET or kind is AreaKind.OPEN:
                grounds.setdefault(loc[0], []).append(loc)
        hit = memo["map"] = (frozenset(buildings), grounds)
    return hit


def coverage(state: GameState) -> dict[Location, int]:
    out: dict[Location, int] = {}
    for h in state.hoses.values():
        if h.target is not None and not h.cut and not h.recover_left:
            out[h.target] = out.get(h.target, 0) + 1
    return out


def p_extinguish(fire: int, mod: int) -> float:
    return max(0, min(6, 7 - fire + mod)) / 6


def p_heat(ctx: TurnContext, h: int) -> float:
    if h <= ctx.rules.int("heat.always_pass_max"):
        return 1.0
    if h >= ctx.rules.int("heat.always_fail_min"):
        return 0.0
    return (7 - h) / 6


def small_fires(ctx: TurnContext, state: GameState) -> list[Location]:
    """Fires small enough for a fire party, once a call of the standing orders (fire does
    not change in step 6; do not mutate)."""
    hit: list[Location] | None = ctx.cache.get(AP_SMALL)
    if hit is None:
        top = ctx.rules.int("fire_party.max_fire")
        hit = [f for f, v in state.fire.items() if v <= top]
        if AP_SMALL in ctx.cache:
            ctx.cache[AP_SMALL] = hit
    return hit


def fire_sources(
    ctx: TurnContext, state: GameState, pri: set[Location]
) -> tuple[list[Location], list[Location]]:
    """(priority fires, other fires) nobody has two lines on yet (all fires if none), in
    no set order: :func:`.parking.choose_parking` asks only how near the nearest of a
    group is, whatever its order. Within one call of the standing orders (one ``pri``,
    fire fixed) the priority fires are picked once, and the answer for each set of fires
    with two lines on them is remembered (do not mutate)."""
    cov = coverage(state)
    memo: dict[object, tuple[list[Location], list[Location]]] | None = ctx.cache.get(AP_SOURCES)
    key = frozenset(f for f, n in cov.items() if n >= 2)
    if memo is not None:
        hit = memo.get(key)
        if hit is not None:
            return hit
    every = memo.get("all") if memo is not None else None
    if every is None:
        # priority 0 (fire_priority): in a location that matters or next to one; the
        # locations next to those that matter, from the map read backwards
        near = danger.neighbours_of(ctx)
        top = set(pri)
        for loc in pri:
            top.update(near.get(loc, ()))
        # (round 24: the fires as the state holds them, not sorted: the sort was most of
        # the work, and a group's nearest fire does not depend on its order)
        fire: dict[Any, int] = state.fire
        live: list[Any] = list(fire)
        if policy(ctx, "hold_back_fire") > 0:
            # lost causes (round 10) only when every fire is one (late in a game every
            # fire often is: the lost causes are among the fires, so as many is all)
            lost = lost_causes(ctx, state)
            if lost and len(lost) < len(fire):
                live = [f for f in fire if f not in lost] or live
        every = ([f for f in live if f in top], live)
        if memo is not None:
            memo["all"] = every
    out = every
    if key:
        open_fires = [f for f in every[1] if f not in key]
        if open_fires:
            out = ([f for f in every[0] if f not in key], open_fires)
    if memo is not None:
        memo[key] = out
    return out


def sorted_fires(ctx: TurnContext, state: GameState) -> list[Location]:
    """``sorted(state.fire)``, once a call of the standing orders (fire does not change in
    step 6; do not mutate)."""
    hit: list[Location] | None = ctx.cache.get(AP_FIRES)
    if hit is None:
        hit = ignition.sorted_locations(ctx, state.fire)
        if AP_FIRES in ctx.cache:
            ctx.cache[AP_FIRES] = hit
    return hit
